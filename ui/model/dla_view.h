// The "Who writes the answer" tab: direct logit attribution (models::attribute_logit) of the
// window's text on the model that is its source.  The token in focus (default: the last one),
// the target token (default: the model's top prediction there) and an optional distractor (a
// logit difference); the attribution runs in a BackgroundJob whenever they or the text change
// while the tab is shown, and DlaFigure draws it at the tab's size; hovering a head lists its
// share by source token.  Heads knocked out in the window are knocked out of the attribution
// (crossed out in the map, whose cells knock heads out and restore them as the Model mosaic's
// do).  A model without a language-model head, or a post-norm causal one, is explained.
// Above the map, on request, a saliency strip (SaliencyFigure): each input token's share of the
// same prediction by gradient × input or integrated gradients, computed in the same job after
// the attribution (a new request or Cancel drops it), of the model with the window's heads
// knocked out, as its caption says.  The exports draw the strip with the map while the tab shows
// it.  A masked LM (BERT, RoBERTa, DistilBERT) has no attribution: the tab says so and offers
// the strip alone, for the prediction at the token in focus (default: its first [MASK]).
#pragma once

#include <QWidget>

#include <optional>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/model/dla_figure.h"
#include "ui/model/saliency_figure.h"
#include "ui/model/token_focus_combo.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace attnviz::ui {

class FigureCanvas;

class DlaView : public QWidget {
    Q_OBJECT
  public:
    explicit DlaView(QWidget* parent = nullptr);
    ~DlaView() override;

    /// The window's latest pass and the model it ran (null: no model is the source).  While
    /// the tab is shown the attribution follows; hidden, it waits until it is shown.
    void setSource(SnapshotPtr snapshot, ModelPtr model);
    ModelPtr model() const { return model_; }

    /// Starts the attribution now when the inputs allow it; false (nothing started) otherwise.
    bool run();
    bool isRunning() const { return job_.isRunning(); }
    /// What the figure shows (null before the first attribution of this source).
    const DlaResult* result() const { return result_ ? &*result_ : nullptr; }
    const DlaFigure& figure() const { return *figure_; }
    /// What hovering a cell says (column: a head from 0, DlaFigure::kBiasColumn, kMlpColumn).
    QString describe(int layer, int column) const { return figure_->describe(layer, column); }
    /// The centre of a cell in canvas(), for the mouse; a null point when there is none.
    QPoint cellCentre(int layer, int column) const;

    /// Writes the figure (.png, .svg, .pdf; with the saliency strip while it is shown) or the
    /// numbers (.csv) to `path`; false and failed() on an error (nothing written).
    bool exportTo(const QString& path);
    /// Asks for a file and exportTo() it.
    void exportDialog();
    /// The figure on the clipboard, as an image; failed() when there is none.
    void copyFigure();

    FigureCanvas* canvas() const { return canvas_; }
    QComboBox* positionCombo() const { return position_; }
    QLineEdit* targetEdit() const { return target_; }
    QLineEdit* distractorEdit() const { return distractor_; }
    QLabel* targetIdLabel() const { return target_id_; }
    QLabel* messageLabel() const { return message_; }
    /// A masked LM: no attribution, the saliency alone (noteLabel() says why).
    bool saliencyOnly() const { return saliency_only_; }
    QLabel* noteLabel() const { return note_; }
    QLabel* placeholderLabel() const { return placeholder_; }
    QPushButton* exportButton() const { return export_; }

    /// The saliency's method: Off, gradient × input, integrated gradients (kSaliencyStepChoices).
    enum SaliencyMethod { SaliencyOff, GradientTimesInput, IntegratedGradients };
    QComboBox* saliencyMethodCombo() const { return method_; }
    QComboBox* saliencyStepsCombo() const { return steps_; }
    QProgressBar* saliencyProgress() const { return progress_; }
    QPushButton* saliencyCancelButton() const { return cancel_; }
    FigureCanvas* saliencyCanvas() const { return sal_canvas_; }
    const SaliencyFigure& saliencyFigure() const { return *sal_figure_; }
    /// The strip's numbers (null while Off, computing, or before the first).
    const SaliencyResult* saliency() const { return saliency_ ? &*saliency_ : nullptr; }
    bool isComputingSaliency() const { return saliency_running_ && job_.isRunning(); }

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// An attribution arrived and is drawn.
    void attributed();
    /// A saliency arrived and is drawn.
    void saliencyReady();
    /// Right-click on a head's cell: its knock-out menu (KnockOutMenu) at `global`.
    void headMenuRequested(int layer, int head, const QPoint& global);
    /// Ctrl-click (⌘-click) on a head's cell: knock it out by zeros, or restore it.
    void knockOutToggled(int layer, int head);

  protected:
    void changeEvent(QEvent* event) override;
    /// A token box's first focus on a model: its vocabulary's completer.
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    // The constructor's steps, in order.
    QWidget* createControls();
    void connectControls();
    // What the boxes, the job and the canvas ask.
    /// The position combo follows the text: its pieces, the choice kept while it exists.
    void fillPositions();
    /// Resolves the boxes into request_: the ids, the message; runs (soon) when they resolve.
    void check();
    /// Runs when shown (at once, or after the typing pause `delay_ms`), else when next shown.
    void schedule(int delay_ms);
    void showResult(DlaResult result);
    void showFailure(const QString& message);
    /// The method chosen: starts the saliency of the shown attribution, or drops it (Off).
    void saliencyChosen();
    /// The saliency of result_'s prediction, in job_ (dropping nothing but an older saliency).
    void runSaliency();
    void showSaliency(SaliencyResult result);
    /// Progress and Cancel while it computes; the strip once it has a result.
    void showSaliencyState();
    void hoverSaliency(const QPointF& pos);
    void hoverAt(const QPointF& pos);
    /// The tool tip and hovered() of the cell under the mouse.
    void showHoverText();
    /// The strip the exports draw with the map: the one shown, else null.
    const SaliencyResult* shownSaliency() const;
    void relayout();
    void retranslate();
    /// The placeholder's sentence, or the controls and the figure.
    void showAvailability();
    /// The tab has something to compute: the attribution, or a masked LM's saliency.
    bool usable() const;

    ModelPtr model_;
    SnapshotPtr snapshot_;
    QString unavailable_;  ///< dla_unavailable(model_), or why there is no model
    BackgroundJob job_;
    std::optional<DlaRequest> request_;  ///< what the boxes resolve to; empty: they do not
    std::optional<DlaResult> result_;
    /// What the last run() attributed: the text's pieces and the request.
    struct Ran {
        std::vector<std::int64_t> ids;
        DlaRequest request;
        bool operator==(const Ran&) const = default;
    };
    std::optional<Ran> ran_;
    bool waiting_ = false;  ///< request_ changed while hidden: run when shown
    QLabel* placeholder_;
    QWidget* controls_;
    QLabel *position_label_, *target_label_, *distractor_label_;
    TokenFocusCombo* position_;
    QLineEdit *target_, *distractor_;
    QLabel *target_id_, *distractor_id_, *message_;
    QPushButton* export_;
    QTimer* typing_;
    FigureCanvas* canvas_;
    DlaFigure* figure_;  ///< canvas_'s
    QPoint hover_{-1, -1};
    QLabel *saliency_label_, *steps_label_;
    QComboBox *method_, *steps_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    FigureCanvas* sal_canvas_;
    SaliencyFigure* sal_figure_;  ///< sal_canvas_'s
    std::optional<SaliencyResult> saliency_;
    bool saliency_running_ = false;  ///< job_'s work is the saliency, not the attribution
    int sal_hover_ = -1;
    bool saliency_only_ = false;  ///< model_ is a masked LM (saliencyOnly())
    QLabel* note_;                ///< why a masked LM has the strip alone
};

}  // namespace attnviz::ui
