// Heads across a corpus off the GUI thread (issue 39): one BackgroundJob that encodes the texts,
// plans the pass under the window's memory budget (refused before any pass, with the engine's
// message), runs models::analyse_corpus with progress per text, and projects the asked heads'
// queries and keys (models::joint_query_keys).  Cancel stops after the text under way: the
// texts done make a result marked partial.  A run for one head's vectors (run with a `base`)
// measures again only as many texts as that head's points need and adds its view to the base.
// Nothing here touches a widget.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "engine/budget/memory_budget.h"
#include "engine/models/corpus.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/document/corpus_data.h"

namespace attnviz::ui {

struct CorpusRequest {
    QString source;  ///< the file (absolute); empty: the text box's history
    /// models::corpus_format_name; empty: guessed from the file (guess_corpus_format)
    QString format;
    /// Every text of the source, in order; empty: the file is read by the run (a file that is
    /// no corpus fails it).
    QStringList texts;
    std::vector<std::int64_t> lines;  ///< where each starts in its file, from 1 (none: 0)
    std::int64_t count = -1;          ///< the first `count` are measured (-1: all)
    /// top_k, context, bins, qk_heads, qk_max_tokens; the thresholds (the runner sets the
    /// threads, the control and the weight cache).
    models::CorpusOptions options;
    budget::MemoryBudget budget;
    /// A run for the heads of options.qk_heads only: their views are added to this corpus,
    /// whose measures stay.
    CorpusPtr base;
};

/// encode_corpus_text's cut the window measures with: the model's positions (a text longer
/// than the model is measured on its first tokens, and counted as cut).
inline constexpr std::int64_t kModelPositions = std::numeric_limits<std::int64_t>::max();

/// A corpus measured on the calling thread, as the runner's work and `attnviz export --view
/// qk|atlas --texts` measure it.
struct CorpusMeasured {
    models::CorpusResult result;  ///< its qk vectors included
    std::int64_t truncated = 0;   ///< of the texts measured, those cut
    CorpusRequest request;        ///< with the file's texts read
};
/// Reads the request's file (when it gives no texts), encodes its texts (cut to `max_tokens`;
/// 0: a text longer than the model is a DataError naming its line, as `attnviz corpus` without
/// --max-tokens), plans the pass under the request's budget (MemoryBudgetExceeded before any
/// pass) and runs models::analyse_corpus, polling `control` (a stop gives the texts done,
/// partial) and reporting each text.
CorpusMeasured measure_corpus(const models::OpenedModel& model, CorpusRequest request,
                              const PassControl& control, std::int64_t max_tokens);

class CorpusRunner : public QObject {
    Q_OBJECT
  public:
    explicit CorpusRunner(QObject* parent = nullptr);
    /// Drops what runs: nothing of it is delivered.
    ~CorpusRunner() override;

    /// Measures `request` over `model`; progressed() per text, then finished() (or failed(),
    /// or cancelled() when Cancel came before the first text was measured).  A run under way
    /// is dropped first.
    void start(ModelPtr model, CorpusRequest asked);
    /// Stops after the text under way; finished() follows with the texts done, partial.
    void cancel();
    bool isRunning() const { return job_.isRunning(); }
    /// The run under way (or the last) is one head's vectors (CorpusRequest::base).
    bool headRun() const { return head_run_; }

    /// The data of a finished analysis: the result with its vectors projected and dropped, the
    /// request's texts and source.  Any thread.
    static CorpusPtr assemble(models::CorpusResult result, const CorpusRequest& request,
                              const QString& model_folder, std::int64_t truncated);

    /// Tests: called on the run's thread after each text, before it looks at cancel().
    static void setTextHookForTesting(
        std::function<void(std::int64_t done, std::int64_t total)> hook);

  signals:
    void progressed(qint64 done, qint64 total);
    void finished(attnviz::ui::CorpusPtr corpus);
    void failed(const QString& message);
    void cancelled();

  private:
    BackgroundJob job_;
    bool head_run_ = false;
};

}  // namespace attnviz::ui
