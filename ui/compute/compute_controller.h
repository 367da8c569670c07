// Runs the engine off the GUI thread.  The GUI calls request() with a copy of the document's
// ComputeConfig; a worker on its own QThread computes.  The newest request wins: requests
// that arrive while the worker is busy replace each other, and only the last one is run next.
// Results arrive on the GUI thread as an immutable snapshot, together with the colour-map
// data already built on the worker, so the GUI thread only draws.
#pragma once

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

class GenerationFeed;
struct PreparedMaps;
struct SnapshotStatistics;

class ComputeController : public QObject {
    Q_OBJECT
  public:
    explicit ComputeController(QObject* parent = nullptr);
    ~ComputeController() override;

    /// Queues a computation; returns its generation.  A config equal to the last request
    /// is not recomputed (its generation is returned).
    std::uint64_t request(const ComputeConfig& config);
    /// Forces a recomputation even if the config is unchanged (e.g. the weights file changed).
    std::uint64_t requestAgain(const ComputeConfig& config);
    /// Stops the computation under way at its next layer (a model's pass) or step; failed()
    /// then says it was cancelled, and the same configuration asked again is computed again.
    /// Requests made after it still run.
    void cancel();
    /// Tests: called on the worker after each layer of a model's pass, as (done, total, the
    /// pass's control: stopped() tells whether it was asked to stop); returning true cancels
    /// the pass there, as cancel() would.  Empty: none.
    using LayerHook =
        std::function<bool(std::int64_t done, std::int64_t total, const PassControl& control)>;
    static void setLayerHookForTesting(LayerHook hook);

    /// The generation writer's feed: while it is open, a text the writer continued extends the
    /// maps by its rows instead of a pass (compute_snapshot).
    void setGenerationFeed(std::shared_ptr<GenerationFeed> feed) { feed_ = std::move(feed); }
    /// The writer stopped: once the requests already made (its last tokens) are drawn, closes
    /// the feed and, when the snapshot shown is one its rows extended, computes the same
    /// configuration again with a full pass.
    void settle();
    /// settle() is waiting for the requests before it.
    bool isSettling() const { return settle_pending_; }

    /// Builds a snapshot's colour-map data (the heatmap grid's: ui/render/heatmap_figure.h
    /// prepare_maps), run on the worker after each pass.
    using MapPreparer = std::function<std::shared_ptr<PreparedMaps>(
        const AttentionSnapshot& snapshot, Colormap colormap, ScaleMode scale)>;
    /// With a preparer (the window's), each result comes with its colour maps and its heads'
    /// statistics, built on the worker; without one (the comparison, tests), with neither.
    void setMapPreparer(MapPreparer preparer) { prepare_maps_ = std::move(preparer); }
    /// With a model, also compute the chosen layer's steps (the steps view is open): a second
    /// pass up to that layer, so it is only run when wanted.  Turning it on re-runs the latest
    /// request when its result has no steps, or when it is still running without them.
    void setModelSteps(bool on);
    /// With a model, also compute its logit lens (the Logit Lens tab is open), as
    /// setModelSteps does for the steps.
    void setModelLens(bool on);
    bool modelLens() const { return model_lens_; }
    /// With a model, also trace its whole pass at shown token `token` (-1: the default token;
    /// kNoTrace: none), for the steps view's whole-model mode: re-runs the latest request when
    /// its result has another trace (a pass of its own; the maps are reused).
    void setModelTrace(int token);
    int modelTrace() const { return model_trace_; }
    /// Colours latest() again on the worker for the current figure hints (the colours or the
    /// scaling changed), so the GUI thread does not recolour millions of cells: resultReady
    /// follows with the same snapshot and fresh maps.  False (nothing queued) when there is
    /// nothing to colour or a computation is on its way (it takes the new hints itself).
    bool recolor();
    /// The memory budget of the following requests (the default budget until set).  A
    /// configuration over it is never computed: overBudget() reports what fits instead.
    void setMemoryBudget(const budget::MemoryBudget& budget) { budget_ = budget; }
    const budget::MemoryBudget& memoryBudget() const { return budget_; }
    /// The verdict on the last request that was over the budget (needed == 0: none since
    /// the last result).
    const budget::MemoryPlan& lastOverBudget() const { return over_budget_; }
    /// How the window currently colours the maps, so the worker can colour them too.
    void setFigureHints(Colormap colormap, ScaleMode scale) {
        colormap_ = colormap;
        scale_ = scale;
    }

    SnapshotPtr latest() const { return latest_; }
    /// The configuration of the newest request (none before the first).
    const std::optional<ComputeConfig>& lastRequest() const { return last_config_; }
    /// Colour-map data for latest(); the grid takes the maps out of it.
    std::shared_ptr<PreparedMaps> latestMaps() const { return latest_maps_; }
    /// Statistics of latest() (with the maps: only when the window prepares them).
    std::shared_ptr<const SnapshotStatistics> latestStatistics() const { return latest_stats_; }
    std::uint64_t requestedGeneration() const { return requested_; }
    std::uint64_t finishedGeneration() const { return finished_; }
    bool isBusy() const { return finished_ < requested_; }
    QString lastError() const { return last_error_; }

  signals:
    void resultReady(const attnviz::ui::SnapshotPtr& snapshot);
    void failed(const QString& message);
    /// The newest request needs more memory than the budget; `plan` holds what fits.
    /// failed() follows with a one-line message.
    void overBudget(const attnviz::budget::MemoryPlan& plan,
                    const attnviz::budget::MemoryBudget& budget);
    /// The newest request's text has more tokens than the model's positions; `fitting` is the
    /// start of text A that fits (failed() has given the message).
    void textTooLong(const QString& fitting, qint64 tokens, qint64 max_positions);
    void busyChanged(bool busy);
    void progressChanged(int percent, const QString& stage);

  private:
    struct Request {
        ComputeConfig config;
        std::uint64_t generation;
        MapPreparer prepare_maps;  ///< empty: no maps, no statistics
        bool model_steps;
        bool model_lens;
        int model_trace;
        Colormap colormap;
        ScaleMode scale;
        budget::MemoryBudget budget;
        SnapshotPtr recolor;  ///< set: colour this snapshot's maps, compute nothing
        std::shared_ptr<GenerationFeed> feed;
    };
    class Worker;

    void deliver(std::uint64_t generation, SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps,
                 std::shared_ptr<const SnapshotStatistics> statistics);
    void fail(std::uint64_t generation, const QString& message);
    void cancelled(std::uint64_t generation);
    void failTooLong(std::uint64_t generation, const QString& message, const QString& fitting,
                     std::int64_t tokens, std::int64_t max_positions);
    void failOverBudget(std::uint64_t generation, const budget::MemoryPlan& plan,
                        const budget::MemoryBudget& budget);
    void setFinished(std::uint64_t generation);
    void trySettle();

    QThread thread_;
    Worker* worker_ = nullptr;
    std::optional<ComputeConfig> last_config_;
    std::uint64_t requested_ = 0;
    std::uint64_t finished_ = 0;
    std::uint64_t shown_ = 0;
    MapPreparer prepare_maps_;
    bool model_steps_ = false;
    bool requested_steps_ = false;  ///< the newest request asked for a model's steps
    bool model_lens_ = false;
    bool requested_lens_ = false;  ///< the newest request asked for a model's lens
    int model_trace_ = kNoTrace;
    int requested_trace_ = kNoTrace;  ///< the trace the newest request asked for
    Colormap colormap_ = Colormap::Viridis;
    ScaleMode scale_ = ScaleMode::Shared;
    budget::MemoryBudget budget_;
    budget::MemoryPlan over_budget_;
    std::shared_ptr<GenerationFeed> feed_;
    bool settle_pending_ = false;
    SnapshotPtr latest_;
    std::shared_ptr<PreparedMaps> latest_maps_;
    std::shared_ptr<const SnapshotStatistics> latest_stats_;
    QString last_error_;
};

}  // namespace attnviz::ui
