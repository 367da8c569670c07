// The controls: the layer (embed_dim, heads, bias, scoring, positional encoding, weights),
// dropout, masks and how the figure is drawn.  Every control writes straight into the
// AttentionDocument and follows it back, so sessions, shortcuts and tests all see one state.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnviz::ui {

class AttentionDocument;

class ControlsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ControlsPanel(AttentionDocument* document, QWidget* parent = nullptr);
    /// With a trained model as the source, the demo layer's groups are disabled and hidden
    /// (the model's panel takes their place); the display's stay.
    void setModelSource(bool model);

  signals:
    void loadWeightsRequested();

  private:
    // The constructor's steps, in order.
    QGroupBox* createLayerBox();
    QGroupBox* createDropoutBox();
    QGroupBox* createMaskBox();
    QGroupBox* createDisplayBox();
    void connectViewToDocument();
    void connectDocumentToView();

    /// The document's complaint about the head count (empty: none, and hidden).
    void showValidationMessage(const QString& message);
    void syncFromDocument();
    void syncHeads();
    void syncMaskedKeys();

    AttentionDocument* doc_;
    QSpinBox* embed_dim_ = nullptr;
    QComboBox* heads_ = nullptr;
    QLabel* heads_message_ = nullptr;
    QCheckBox* bias_ = nullptr;
    QComboBox* scoring_ = nullptr;
    QCheckBox* positional_ = nullptr;
    QSpinBox* weight_seed_ = nullptr;
    QLabel* weights_file_ = nullptr;
    QPushButton* load_weights_ = nullptr;
    QPushButton* clear_weights_ = nullptr;
    QDoubleSpinBox* dropout_ = nullptr;
    QCheckBox* training_ = nullptr;
    QSpinBox* dropout_seed_ = nullptr;
    QPushButton* resample_ = nullptr;
    QCheckBox* causal_ = nullptr;
    QLabel* masked_keys_ = nullptr;
    QPushButton* clear_masks_ = nullptr;
    QComboBox* masked_rows_ = nullptr;
    QComboBox* colormap_ = nullptr;
    QComboBox* scale_ = nullptr;
    QCheckBox* values_ = nullptr;
};

}  // namespace attnviz::ui
