// The Flow tab: information-flow routes (models::information_flow, Ferrando & Voita 2024) of the
// window's text on the model that is its source.  The importances are computed once per text,
// model and "per head" choice in a BackgroundJob; the graph (models::flow_graph) of the token in
// focus (default: the last) at the threshold is built from them on the GUI thread, cheaply, so
// moving the threshold slider or clicking a token's dot redraws at once without a pass.
// Hovering a line names it; clicking one asks for its head's map at its query and key.  A post-norm
// model is explained.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/model/flow_figure.h"
#include "ui/model/token_focus_combo.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;

namespace attnviz::ui {

class FigureCanvas;

class FlowView : public QWidget {
    Q_OBJECT
  public:
    /// The slider's ends and the default (as `attnviz flow`), on a log scale.
    static constexpr double kMinThreshold = 0.005, kMaxThreshold = 0.5, kDefaultThreshold = 0.04;

    explicit FlowView(QWidget* parent = nullptr);
    ~FlowView() override;

    /// The window's latest pass and the model it ran (null: no model is the source).  While
    /// the tab is shown the importances follow; hidden, they wait until it is shown.
    void setSource(SnapshotPtr snapshot, ModelPtr model);
    ModelPtr model() const { return model_; }

    /// Starts computing the importances now when the inputs allow it; false otherwise.
    bool run();
    bool isRunning() const { return job_.isRunning(); }
    /// How many computations the tab started (tests: the slider and a click start none).
    int computations() const { return computations_; }
    /// The importances and the graph drawn (null before the first computation of this source).
    const FlowData* data() const { return data_.get(); }
    const models::FlowGraph* graph() const { return graph_ ? &*graph_ : nullptr; }
    const FlowFigure& figure() const { return *figure_; }
    double threshold() const { return threshold_; }
    /// The token in focus (from 0); -1 before there is a text.
    int position() const;

    /// Writes the figure (.png, .svg, .pdf) to `path`; false and failed() on an error (nothing
    /// written).  The graph's numbers are `attnviz export --view flow --out F.json`'s: the
    /// front end does not link the command line's writer.
    bool exportTo(const QString& path);
    /// Asks for a file and exportTo() it.
    void exportDialog();
    /// The figure on the clipboard, as an image; failed() when there is none.
    void copyFigure();

    FigureCanvas* canvas() const { return canvas_; }
    QComboBox* positionCombo() const { return position_; }
    QSlider* thresholdSlider() const { return slider_; }
    QCheckBox* perHeadBox() const { return per_head_; }
    QLabel* messageLabel() const { return message_; }
    QLabel* placeholderLabel() const { return placeholder_; }
    QPushButton* exportButton() const { return export_; }

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// The importances arrived and the graph is drawn.
    void computed();
    /// An attention line was clicked: its layer and head (from 0; head -1: every head of the
    /// layer), the query, the token it arrives at, and the key it comes from (pieces, from 0).
    void edgeActivated(int layer, int head, int query, int key);

  protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    // The constructor's steps, in order.
    QWidget* createControls();
    void connectControls();
    /// The position combo follows the text: its pieces, the choice kept while it exists.
    void fillPositions();
    /// Runs when shown (at once), else when next shown; nothing when the importances are kept.
    void schedule();
    void showData(FlowData data);
    void showFailure(const QString& message);
    /// The graph of the token in focus at the threshold, from the kept importances, drawn.
    void redraw();
    void setThresholdFromSlider(int value);
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);
    void relayout();
    void retranslate();
    /// The placeholder's sentence, or the controls and the figure.
    void showAvailability();

    ModelPtr model_;
    SnapshotPtr snapshot_;
    QString unavailable_;  ///< flow_unavailable(model_)
    BackgroundJob job_;
    int computations_ = 0;
    std::shared_ptr<const FlowData> data_;
    std::optional<models::FlowGraph> graph_;
    /// What the last run() computed: the text's ids and the per-head choice.
    struct Ran {
        std::vector<std::int64_t> ids;
        bool per_head = false;
        bool operator==(const Ran&) const = default;
    };
    std::optional<Ran> ran_;
    double threshold_ = kDefaultThreshold;
    bool waiting_ = false;  ///< the text changed while hidden: run when shown
    QLabel* placeholder_;
    QWidget* controls_;
    QLabel *position_label_, *threshold_label_, *threshold_value_, *message_, *status_;
    TokenFocusCombo* position_;
    QSlider* slider_;
    QCheckBox* per_head_;
    QPushButton* export_;
    FigureCanvas* canvas_;
    FlowFigure* figure_;  ///< canvas_'s
    int hover_edge_ = -1;
    QPoint hover_node_{-1, -1};
};

}  // namespace attnviz::ui
