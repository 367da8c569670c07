// The Patching tab: activation patching of a causal language model (PatchRunner).  Two sentence
// boxes, clean and corrupted, with their tokens; the target and distractor tokens picked from the
// vocabulary; the method, Exact (models::patch_sweep, one head at a time) or Attribution (fast:
// models::attribution_patching, every head from two passes and a backward pass); Run, a
// progress bar and Cancel; the layers × heads map of the fraction restored: the estimate at once,
// refined head by head by the exact sweep, with a scatter of the two; a click on a head (or its
// dot) shows its attention on both texts; the figure and the array export.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "ui/compute/model_store.h"
#include "ui/model/patch_figure.h"

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QCompleter;

namespace attnviz::ui {

class PatchRunner;
class FigureCanvas;

class PatchView : public QWidget {
    Q_OBJECT
  public:
    explicit PatchView(QWidget* parent = nullptr);
    ~PatchView() override;

    /// The model the tab patches (null: none is the source).  A sweep under way stops.
    void setModel(ModelPtr model);
    ModelPtr model() const { return model_; }

    /// Fills the boxes (an example): texts and tokens as typed.  `run_on` (a model folder):
    /// sweep as soon as that model is the tab's (at once when it is).
    void setInputs(const QString& clean, const QString& corrupt, const QString& target,
                   const QString& distractor, const QString& run_on = {});
    /// How Run measures the heads; a new model chooses default_patch_method() of its size.
    PatchMethod method() const;
    void setMethod(PatchMethod method);
    /// Starts the sweep when the inputs allow it; false (nothing started) otherwise.
    bool run();
    void cancel();
    bool isRunning() const;
    /// Shows `head` of `layer` (from 0) on both texts, computed off the GUI thread.
    void showHead(int layer, int head);
    /// Writes the figure (.png, .svg, .pdf) or the array (.npy, .csv) to `path`; false and
    /// failed() on an error (nothing written).
    bool exportTo(const QString& path);
    /// Asks for a file and exportTo() it.
    void exportDialog();
    /// The figure on the clipboard, as an image; failed() when there is none.
    void copyFigure();

    /// What the map shows (null before the first sweep).
    const PatchMaps* maps() const { return maps_ ? &*maps_ : nullptr; }
    PatchRunner* runner() const { return runner_; }
    FigureCanvas* mapView() const { return map_; }
    const PatchFigure& figure() const { return *figure_; }
    /// The centre of a head's cell in mapView(), for clicks; a null point when there is none.
    QPoint cellCentre(int layer, int head) const;
    QLineEdit* cleanEdit() const { return clean_; }
    QLineEdit* corruptEdit() const { return corrupt_; }
    QLineEdit* targetEdit() const { return target_; }
    QLineEdit* distractorEdit() const { return distractor_; }
    QLabel* messageLabel() const { return message_; }
    QLabel* cleanTokensLabel() const { return clean_tokens_; }
    QLabel* corruptTokensLabel() const { return corrupt_tokens_; }
    QPushButton* runButton() const { return run_; }
    QRadioButton* exactButton() const { return exact_; }
    QRadioButton* attributionButton() const { return attribution_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QCompleter* targetCompleter() const;

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// A sweep ended (every head run, or stopped by Cancel).
    void sweepFinished(bool stopped);
    /// The chosen head's maps arrived.
    void headShown(int layer, int head);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // The constructor's steps, in order.
    QWidget* createControls();
    void createInputs();
    QHBoxLayout* createActions();
    void connectControls();
    void connectRunner();
    // What the map and the runner ask.
    /// A click on the map: the head under `pos`, if any, on both texts.
    void showHeadAt(const QPointF& pos);
    /// The sweep ended (every head, or stopped): its last maps, Run again, sweepFinished().
    void finishSweep(const models::PatchResult& r, qint64 done, qint64 total, bool stopped);
    /// The sweep failed: Run again, and failed() says why.
    void failSweep(const QString& message);
    /// The chosen head's maps arrived: drawn under the map, and headShown().
    void showHeadMaps(const PatchHeadMaps& h);
    /// Every head's attribution estimate arrived: the map shows it where nothing is measured.
    void showEstimate(const models::AttributionPatching& estimate);

    void retranslate();
    /// Tokenizes both texts and resolves both tokens: the token lists, the message, Run.
    void check();
    void setMaps(const models::PatchResult& result, qint64 done, qint64 total, bool stopped);

    ModelPtr model_;
    PatchRunner* runner_;
    QLabel* placeholder_;
    QWidget* controls_;
    QLabel *clean_label_, *corrupt_label_, *target_label_, *distractor_label_;
    QLineEdit *clean_, *corrupt_, *target_, *distractor_;
    QLabel *target_id_, *distractor_id_;
    QLabel *clean_tokens_, *corrupt_tokens_, *message_;
    QPushButton *run_, *cancel_, *export_;
    QLabel* method_label_;
    QRadioButton *exact_, *attribution_;
    QProgressBar* progress_;
    FigureCanvas* map_;
    PatchFigure* figure_;  ///< map_'s
    QPoint hover_{-1, -1};
    QString hover_text_;  ///< what the hovered cell or dot says
    /// Shows maps_ (or nothing) in the map, laid out again.
    void showMaps();
    void hoverAt(const QPointF& pos);
    /// What the inputs resolve to (check()); empty optional when they do not.
    std::optional<models::PatchRequest> request_;
    std::vector<QString> clean_pieces_, corrupt_pieces_;
    std::optional<PatchMaps> maps_;  ///< the last sweep's, with its inputs
    QString run_on_;  ///< setInputs(..., run_on), canonical: sweep once that model is here
    void runIfWaiting();
};

}  // namespace attnviz::ui
