// The Compare view: configuration A (the document's) and configuration B (A with a few
// changes) side by side with their difference.  Presets set up the classic comparisons in
// one click; the editor chooses what B changes; a head chooser picks the mean or a head
// both have.  B is computed on its own worker thread by the same ComputeController as A,
// and only while the view is shown (or for an export).  What B changes and the head
// compared live in the AttentionDocument.
#pragma once

#include <QWidget>

#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "engine/budget/memory_budget.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/document/compare_config.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace attnviz::ui {

class AttentionDocument;
class CompareFigure;
class ComputeController;
class FigureCanvas;

class CompareView : public QWidget {
    Q_OBJECT
  public:
    explicit CompareView(AttentionDocument* document, QWidget* parent = nullptr);
    ~CompareView() override;

    /// Configuration A, as every view gets it.
    void setSnapshot(SnapshotPtr snapshot);
    /// Base text size in pixels (presentation mode makes it large) and high contrast; the
    /// editor of B is an advanced control, hidden while presenting.
    void setPresentation(int font_px, bool high_contrast);

    CompareFigure* figure() const;
    FigureCanvas* canvas() const { return canvas_; }
    /// The A the view was last given, and B computed for it (null until B is ready).
    SnapshotPtr snapshot() const { return a_; }
    SnapshotPtr compared() const { return b_; }
    /// B for `a`, as a function: it returns the view's own B when that is for this A, else
    /// computes B (an export from another view).  It holds copies only, so the export runs it
    /// off the GUI thread.  Throws UsageError at once when B cannot be built (too big).
    std::function<SnapshotPtr()> comparedFor(const SnapshotPtr& a) const;
    /// True while B is being computed for the current A.
    bool isComputing() const;
    /// Why B cannot be shown (a head count that does not divide embed_dim, an engine
    /// error), or empty.
    QString problem() const { return problem_; }
    /// The worker computing B; null until the view was first shown.
    ComputeController* compute() const { return compute_; }
    /// B is held to the window's memory budget (Attention ▸ Memory Budget…) like A; a new
    /// budget decides again about a B it refused or computed.
    void setMemoryBudget(const budget::MemoryBudget& budget);

    /// The next (+1) or previous (-1) head both have, through the mean.
    void stepHead(int delta);
    void hoverAt(const QPointF& pos);
    QString hoverText() const { return hover_text_; }

    QPushButton* presetButton(ComparePreset preset) const { return presets_[std::size_t(preset)]; }
    QComboBox* headCombo() const { return head_combo_; }
    QComboBox* causalCombo() const { return causal_; }
    QComboBox* headsCombo() const { return heads_; }
    QComboBox* dropoutCombo() const { return dropout_; }
    QDoubleSpinBox* dropoutSpin() const { return dropout_p_; }
    QComboBox* scoringCombo() const { return scoring_; }
    QComboBox* maskedRowsCombo() const { return masked_rows_; }
    QComboBox* biasCombo() const { return bias_; }
    QComboBox* positionalCombo() const { return positional_; }
    QSpinBox* weightSeedSpin() const { return weight_seed_; }
    // A trained model's comparisons: B's layer (0: A's), B's head, B's sentence.
    QSpinBox* layerSpin() const { return layer_; }
    QComboBox* otherHeadCombo() const { return other_head_; }
    QLineEdit* textEdit() const { return text_; }
    // Attention maps read from a file: B's maps file, and the button that chooses another.
    QLabel* mapsFileLabel() const { return maps_file_; }
    QPushButton* mapsButton() const { return maps_button_; }
    QWidget* editor() const { return editor_; }
    QLabel* statusLabel() const { return status_; }

  signals:
    void hovered(const QString& text);
    /// "Choose…" of B's maps: the window asks for the file (File ▸ Compare With Attention Maps…).
    void chooseMapsRequested();

  protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    // The constructor's steps, in order.
    QWidget* createBar();
    QWidget* createEditor();
    void createLayerFields();
    void createModelFields(QLayout* flow);
    void connectControls();
    void connectDocument();
    // What the controls and the document ask.
    /// A preset's button: the document sets A and B up, or the status says why it cannot.
    void applyPreset(ComparePreset preset);
    /// The pointer left the figure: no cell is hovered.
    void clearHover();
    /// What B changes or the head compared changed: the editor, B and the figure follow.
    void followCompare();

    void requestB();
    void onResult(const SnapshotPtr& b);
    void onFailed(const QString& message);
    void showPair(SnapshotPtr a, SnapshotPtr b);
    void sync();
    void syncEditor();
    void syncHeads();
    void syncStatus();
    void writeChanges();
    void retranslate();
    int comparedHeads() const;

    AttentionDocument* doc_;
    ComputeController* compute_ = nullptr;
    std::optional<budget::MemoryBudget> budget_;
    bool request_again_ = false;  ///< the budget changed: compute B even if it was refused
    FigureCanvas* canvas_ = nullptr;
    QLabel* presets_label_ = nullptr;
    std::array<QPushButton*, 3> presets_{};
    QLabel* head_label_ = nullptr;
    QComboBox* head_combo_ = nullptr;
    QToolButton* edit_toggle_ = nullptr;
    QWidget* editor_ = nullptr;
    QLabel* editor_title_ = nullptr;
    QLabel* causal_label_ = nullptr;
    QComboBox* causal_ = nullptr;
    QLabel* heads_label_ = nullptr;
    QComboBox* heads_ = nullptr;
    QLabel* dropout_label_ = nullptr;
    QComboBox* dropout_ = nullptr;
    QDoubleSpinBox* dropout_p_ = nullptr;
    QLabel* scoring_label_ = nullptr;
    QComboBox* scoring_ = nullptr;
    QLabel* masked_rows_label_ = nullptr;
    QComboBox* masked_rows_ = nullptr;
    QLabel* bias_label_ = nullptr;
    QComboBox* bias_ = nullptr;
    QLabel* positional_label_ = nullptr;
    QComboBox* positional_ = nullptr;
    QLabel* weight_seed_label_ = nullptr;
    QSpinBox* weight_seed_ = nullptr;
    QLabel* layer_label_ = nullptr;
    QSpinBox* layer_ = nullptr;
    QLabel* other_head_label_ = nullptr;
    QComboBox* other_head_ = nullptr;
    QLabel* text_label_ = nullptr;
    QLineEdit* text_ = nullptr;
    QWidget* text_box_ = nullptr;  ///< the sentence's field: not for maps read from a file
    QLabel* maps_label_ = nullptr;
    QLabel* maps_file_ = nullptr;
    QPushButton* maps_button_ = nullptr;
    QWidget* maps_box_ = nullptr;  ///< B's maps file: only for maps read from a file
    QWidget* presets_box_ = nullptr;
    std::vector<QWidget*> layer_fields_;  ///< the demo layer's settings (hidden with a model)
    std::vector<QWidget*> model_fields_;  ///< a model's (hidden with the demo layer)
    QPushButton* reset_ = nullptr;
    QLabel* status_ = nullptr;

    SnapshotPtr a_;                   ///< the latest A
    SnapshotPtr b_;                   ///< B for a_, once computed
    std::uint64_t b_generation_ = 0;  ///< the request for a_'s B (0: none)
    QString problem_;
    QString hover_text_;
    int font_px_ = 0;
    bool high_contrast_ = false;
    bool syncing_ = false;
};

}  // namespace attnviz::ui
