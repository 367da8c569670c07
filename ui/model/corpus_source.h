// Heads across a corpus in the window (issue 39): File ▸ Open Corpus… and File ▸ Corpus from
// History, which measure every head of the open model over a file of texts, or over the texts
// the text box held, in a CorpusRunner (progress and Cancel in the status bar), and keep the
// result in the document; the Queries & Keys view's run for one head's vectors; and an example
// of a head, or one of its points, opened in the main view: the text in the text box, the head
// in focus, and its full map at the query (and key).
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <cstdint>
#include <optional>

#include "engine/models/corpus_texts.h"
#include "ui/compute/corpus_runner.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QWidget;

namespace attnviz::ui {

class AttentionDocument;
class ComputeController;
class DocumentHistory;
class FullMapWindow;
class MainWindow;

class CorpusSource : public QObject {
    Q_OBJECT
  public:
    /// Examples per head, and tokens around their query and key, as `attnviz corpus` keeps.
    static constexpr std::int64_t kTopExamples = 10, kContext = 6;
    /// Texts entered that the history keeps, the newest.
    static constexpr int kHeldTexts = 200;

    CorpusSource(MainWindow* window, AttentionDocument* document, ComputeController* compute,
                 DocumentHistory* history);
    ~CorpusSource() override;

    /// File ▸ Open Corpus…: a file dialog, then (for a file that looks like JSON Lines without
    /// the name) the format.
    QAction* openAction() const { return open_act_; }
    /// File ▸ Corpus from History: the texts the text box held this session.
    QAction* historyAction() const { return history_act_; }
    /// The status bar's "Measuring the corpus … [Cancel]", hidden when nothing runs.
    QWidget* progressWidget() const { return progress_; }
    QProgressBar* progressBar() const { return bar_; }
    QPushButton* cancelButton() const { return cancel_; }
    CorpusRunner* runner() const { return runner_; }

    /// Measures the texts of `path` (`format`: guessed when none) on the open model, once its
    /// pass is shown; false, with a dialog, when there is no model to measure.  A file that is
    /// no corpus is said by a dialog when it has been read.
    bool openCorpus(const QString& path, std::optional<models::CorpusFormat> format = {});
    /// An example's corpus: openCorpus(), its result part of the example (no unsaved change).
    bool openExampleCorpus(const QString& path);
    /// The same over heldTexts(); false, with a dialog, for fewer than two.
    bool openHistory();
    /// The texts the text box held this session, each once, oldest first: those the undo
    /// history keeps (DocumentHistory::texts(): typing merges into one step), then each entered
    /// (Return, or the box left), the text now last.
    QStringList heldTexts() const;
    /// A run for the queries and keys of head (layer, head) of the document's corpus (from 0).
    bool measureHead(int layer, int head);
    void cancel();
    bool isRunning() const { return runner_->isRunning(); }
    /// A run is asked for and waits for the model's pass to be shown.
    bool isWaiting() const { return waiting_.has_value(); }

    /// Opens text `text` of the document's corpus (from 0) in the main view with head (layer,
    /// head) in focus and, once its pass is shown, the head's full map at `query` (and `key`;
    /// -1: where the query looks most).  `key_only`: the point is a key: the token focus is
    /// the attention to it, and no map opens.  False, with a dialog, when it cannot.
    bool openText(qint64 text, int layer, int head, qint64 query, qint64 key,
                  bool key_only = false);
    /// The full map the last openText() opened (null: none, or closed).
    FullMapWindow* openedMap() const;

    /// The path of a corpus AttnViz ships (resources/corpora: "fortunes_en.txt"), or "".
    static QString shippedCorpus(const QString& name);

  signals:
    /// A corpus run ended with a result (now the document's); `head_run`: one head's vectors.
    void measured(bool partial, bool head_run);
    /// A run for one head's vectors started (true) or ended (false).
    void headRunChanged(bool running);
    void failed(const QString& title, const QString& text);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void createActions();
    void createProgress();
    void retranslate();
    void openDialog();
    /// Starts `request` once the model of the document's source has its pass shown (at once
    /// when it has); false, with a dialog, when the source is no model.
    bool startWhenReady(CorpusRequest request);
    /// A pass arrived: a waiting run starts, a waiting text is focused.
    void followResult();
    void showProgress(qint64 done, qint64 total);
    void finish(const CorpusPtr& corpus);
    void endRun();
    /// The model the document's source names, once its pass is shown; null otherwise.
    ModelPtr shownModel() const;
    /// Fills the request's options: examples, context and the head in focus's vectors.
    CorpusRequest request() const;

    MainWindow* window_;
    AttentionDocument* doc_;
    ComputeController* compute_;
    DocumentHistory* history_;
    CorpusRunner* runner_;
    QAction* open_act_ = nullptr;
    QAction* history_act_ = nullptr;
    QWidget* progress_ = nullptr;
    QLabel* label_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QPushButton* cancel_ = nullptr;
    std::optional<CorpusRequest> waiting_;  ///< the run asked for while the model opens
    bool example_run_ = false;              ///< the run under way (or waiting) is an example's
    QString waiting_folder_;                ///< its model
    struct Focus {
        QString text;
        int layer = 0, head = 0;
        std::int64_t query = 0, key = -1;
        bool key_only = false;
    };
    std::optional<Focus> focus_;  ///< openText()'s, until its pass is shown
    QStringList entered_;         ///< the texts entered in the text box, oldest first
    QPointer<FullMapWindow> map_;
};

}  // namespace attnviz::ui
