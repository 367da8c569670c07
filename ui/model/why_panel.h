// "Why this attention?": the pane beside a head's map that explains one cell.  Alt-click a cell
// of a model head's map — the heatmaps, the Model tab's mosaic, a full-map window (a plain click
// already enlarges the head or pans, Ctrl-click knocks it out) — and the head's pre-softmax score
// between that query and key is split into pairs of components (models::attribute_qk) in a
// BackgroundJob, drawn by WhyFigure.  Every view hands its cell to explainCell() (shown tokens)
// or explainPieces() (pieces of the whole text), which share one path to the job.  With "Follow
// the mouse" on, hovering a cell asks again; the job drops the request it supersedes, so only
// the last runs.  Clicking a head's bar asks for that head's map.  A masked key, a demo source,
// maps without their model and a model the engine refuses (post-norm) are said in the pane,
// never in a dialog.  The main window has one pane, moved to the tab whose maps are shown.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>
#include <utility>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/model/why_figure.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
class QToolButton;

namespace attnviz::ui {

class FigureCanvas;

/// `view` (a map view) in a splitter with room beside it for the pane (WhyPanel::placeIn),
/// which, once open, takes two fifths of the width.
QSplitter* why_splitter(QWidget* view, QWidget* parent);

class WhyPanel : public QWidget {
    Q_OBJECT
  public:
    /// Narrow enough beside the maps of a 1280 × 800 window, wide enough for its controls.
    static constexpr int kMinimumWidth = 280;

    explicit WhyPanel(QWidget* parent = nullptr);
    ~WhyPanel() override;

    /// Moves the pane, open or closed and its explanation kept, beside the view of `splitter`
    /// (why_splitter): one pane for the maps of every tab that has them.
    void placeIn(QSplitter* splitter);
    /// Presenting (`font_px` > 0) or not (0): the pane's type, and at most three tenths of
    /// the screen's width so that the maps keep their share.
    void setPresentation(int font_px);

    /// The window's latest pass and the model it ran (null: a demo layer or maps from a file).
    void setSource(SnapshotPtr snapshot, ModelPtr model);

    /// Explains head (layer, head)'s cell at shown query token `row` and key token `col` (the
    /// grid's): shows the pane and starts the attribution, or says why it cannot.
    void explainCell(int layer, int head, int row, int col);
    /// The same for a cell given in pieces of the whole text (from 0), as a full map over
    /// every piece has them; `weight`: the head's weight there (NaN: unknown).
    void explainPieces(int layer, int head, std::int64_t query, std::int64_t key, double weight);
    /// The mouse is over that cell: explainCell() when following, else nothing.
    void followCell(int layer, int head, int row, int col);
    void followPieces(int layer, int head, std::int64_t query, std::int64_t key, double weight);
    bool following() const;

    /// An attribution is on its way (its text's pass being recorded first, or computed).
    bool isRunning() const { return job_.isRunning() || (waiting_ && stream_job_.isRunning()); }
    /// The text's pass is recorded: a cell is explained without a pass of its own.
    bool hasStream() const { return stream_ != nullptr; }
    /// The most a text's recorded pass may hold; a longer text's cells each run a pass.
    static constexpr std::size_t kMaxStreamBytes = kMaxStreamRecordBytes;
    /// What the figure shows (null before the first attribution of this source).
    const WhyResult* result() const { return result_ ? &*result_ : nullptr; }
    /// The requests started since this pane was made (each supersedes the one before).
    int requestsStarted() const { return started_; }
    const WhyFigure& figure() const { return *figure_; }
    /// The centre of bar `k` in canvas(), for the mouse; a null point when there is none.
    QPoint barCentre(int k) const;

    /// Writes the figure (.png, .svg, .pdf) to `path`; false and failed() on an error (nothing
    /// written).
    bool exportTo(const QString& path);
    void exportDialog();

    FigureCanvas* canvas() const { return canvas_; }
    QCheckBox* followBox() const { return follow_; }
    QLabel* messageLabel() const { return message_; }
    QPushButton* exportButton() const { return export_; }

  signals:
    /// A head's bar was clicked: show that head.
    void headFocusRequested(int layer, int head);
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// An attribution arrived and is drawn.
    void explained();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    QWidget* createControls();
    void connectControls();
    void retranslate();
    void relayout();
    /// The pane's sentence (red for what is wrong), or none.
    void say(const QString& text, bool problem);
    /// Says why nothing can be explained (no model, or maps without one): true when it did.
    bool sayWhyNot();
    void sayMasked(std::int64_t query_shown, std::int64_t key_shown);
    /// Starts the attribution of `request`, unless it is the one shown or on its way.
    void explain(const WhyRequest& request, double weight);
    /// The attribution's job: from the text's recorded pass, or with a pass of its own.
    void startExplaining(const WhyRequest& request, double weight);
    /// Records the text's pass in stream_job_ (after a change of text while the pane is open,
    /// or for its first cell), when it fits in kMaxStreamBytes; false when it does not.
    bool recordStream();
    /// Drops the attribution under way and the one waiting for the record.
    void dropRequest();
    void showResult(WhyResult result);
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);

    ModelPtr model_;
    SnapshotPtr snapshot_;
    BackgroundJob job_;
    /// The text's pass, recorded once per text and model: every cell after the first is the
    /// projections alone (tens of milliseconds), not a pass of the model (hundreds).
    std::shared_ptr<const WhyStream> stream_;
    BackgroundJob stream_job_;
    /// The cell asked for while the pass is being recorded, and its weight.
    std::optional<std::pair<WhyRequest, double>> waiting_;
    std::optional<WhyResult> result_;
    std::optional<WhyRequest> ran_;
    int started_ = 0;
    QWidget* controls_;
    QLabel* heading_;
    QCheckBox* follow_;
    QPushButton* export_;
    QToolButton* close_;
    QLabel* message_;
    FigureCanvas* canvas_;
    WhyFigure* figure_;  ///< canvas_'s
    int hover_ = -1;
};

}  // namespace attnviz::ui
