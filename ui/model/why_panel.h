// "Why this attention?": the pane beside the heatmaps that explains one cell.  Alt-click a cell
// of a model head's map (a plain click already enlarges the head, Ctrl-click knocks it out) and
// the head's pre-softmax score between that query and key is split into pairs of components
// (models::attribute_qk) in a BackgroundJob, drawn by WhyFigure.  With "Follow the mouse" on,
// hovering a cell asks again; the job drops the request it supersedes, so only the last runs.
// Clicking a head's bar asks for that head's map.  A masked key, a demo source and a model the
// engine refuses (post-norm) are said in the pane, never in a dialog.
#pragma once

#include <QWidget>

#include <optional>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/model/why_figure.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QToolButton;

namespace attnviz::ui {

class FigureCanvas;

class WhyPanel : public QWidget {
    Q_OBJECT
  public:
    explicit WhyPanel(QWidget* parent = nullptr);
    ~WhyPanel() override;

    /// The window's latest pass and the model it ran (null: a demo layer or maps from a file).
    void setSource(SnapshotPtr snapshot, ModelPtr model);

    /// Explains head (layer, head)'s cell at shown query token `row` and key token `col` (the
    /// grid's): shows the pane and starts the attribution, or says why it cannot.
    void explainCell(int layer, int head, int row, int col);
    /// The mouse is over that cell: explainCell() when following, else nothing.
    void followCell(int layer, int head, int row, int col);
    bool following() const;

    bool isRunning() const { return job_.isRunning(); }
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
    void showResult(WhyResult result);
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);

    ModelPtr model_;
    SnapshotPtr snapshot_;
    BackgroundJob job_;
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
