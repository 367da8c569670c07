#include "ui/compute/compute_controller.h"

#include <mutex>

#include <QCoreApplication>
#include <QMetaObject>
#include <QTimer>

#include <exception>

#include "engine/models/model_folder.h"
#include "ui/compute/error_text.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/local_time.h"
#include "ui/compute/mailbox.h"
#include "ui/compute/snapshot_statistics.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
// Set by a test's thread, called on the worker's: guarded as PatchRunner guards its own.
std::mutex compute_hook_mutex;
ComputeController::LayerHook layer_hook;

/// Calls the test's hook, if any, after a layer: true when it asks to cancel.
bool call_layer_hook(std::int64_t done, std::int64_t total, const PassControl& control) {
    const std::lock_guard lock(compute_hook_mutex);
    return layer_hook && layer_hook(done, total, control);
}
}  // namespace

void ComputeController::setLayerHookForTesting(LayerHook hook) {
    const std::lock_guard lock(compute_hook_mutex);
    layer_hook = std::move(hook);
}

class ComputeController::Worker : public QObject {
  public:
    /// `owner_box`: the GUI thread's mailbox every result goes through.
    Worker(ComputeController* owner, Mailbox* owner_box)
        : owner_(owner), owner_box_(owner_box), box_(new Mailbox(this)) {}

    void submit(Request request) {
        std::lock_guard lock(mutex_);
        pending_ = std::move(request);
        if (scheduled_) return;
        scheduled_ = true;
        box_->post([this] { drain(); });
    }

    /// Ends the pass under way at its next layer, and runs nothing more.
    void stop() {
        stopping_ = true;
        cancel_ = true;
        happens_before(this);  // the thread's end, then this object's deletion there
    }
    ~Worker() override { happens_after(this); }
    /// Ends the pass under way at its next layer (the window's Cancel); queued requests
    /// still run.
    void cancel() { cancel_ = true; }

  private:
    void drain() {
        for (;;) {
            Request request;
            {
                std::lock_guard lock(mutex_);
                if (!pending_ || stopping_) {
                    scheduled_ = false;
                    return;
                }
                request = std::move(*pending_);
                pending_.reset();
                cancel_ = false;  // a Cancel meant the pass before this one
            }
            run(request);
        }
    }

    bool superseded() {
        std::lock_guard lock(mutex_);
        return pending_.has_value() || stopping_;
    }

    void progress(int percent, const QString& stage) {
        owner_box_->post([o = owner_, percent, stage] { emit o->progressChanged(percent, stage); });
    }

    void run(const Request& request) {
        const std::uint64_t gen = request.generation;
        try {
            SnapshotPtr snapshot = request.recolor;
            if (!snapshot) {
                progress(5, QCoreApplication::translate("Compute", "Running the attention layer…"));
                PassControl control;
                control.stop = &cancel_;
                // A model's pass reports each layer: "Layer 12 of 32", up to 65%.
                control.progress = [this, &control](std::int64_t done, std::int64_t total) {
                    if (call_layer_hook(done, total, control)) cancel_ = true;
                    progress(int(5 + 60 * done / std::max<std::int64_t>(1, total)),
                             QCoreApplication::translate("Compute", "Layer %1 of %2")
                                 .arg(done)
                                 .arg(total));
                };
                snapshot =
                    compute_snapshot(request.config, gen, &cache_, worker_threads(),
                                     &request.budget, request.model_steps, &control,
                                     request.model_lens, request.feed.get(), request.model_trace);
            }
            std::shared_ptr<PreparedMaps> maps;
            std::shared_ptr<SnapshotStatistics> stats;
            // A newer request makes these maps useless; skip straight to it, but still show
            // this snapshot so a continuously dragged slider keeps the view moving.
            if (request.prepare_maps && !superseded()) {
                progress(70, QCoreApplication::translate("Compute", "Preparing heatmaps…"));
                maps = request.prepare_maps(*snapshot, request.colormap, request.scale);
                if (!request.recolor)  // a recolouring keeps the statistics it had
                    stats = std::make_shared<SnapshotStatistics>(snapshot_statistics(*snapshot));
            }
            owner_box_->post(
                [o = owner_, gen, snapshot = std::move(snapshot), maps = std::move(maps),
                 stats = std::move(stats)] { o->deliver(gen, snapshot, maps, stats); });
        } catch (const budget::MemoryBudgetExceeded& e) {
            owner_box_->post([o = owner_, gen, plan = e.plan(), b = e.budget()] {
                o->failOverBudget(gen, plan, b);
            });
        } catch (const models::TextTooLong& e) {
            const QString message = error_text(e);
            const QString fitting = QString::fromStdString(e.fitting_text);
            const auto tokens = e.tokens, max = e.max_positions;
            owner_box_->post([o = owner_, gen, message, fitting, tokens, max] {
                o->failTooLong(gen, message, fitting, tokens, max);
            });
        } catch (const Cancelled&) {
            owner_box_->post([o = owner_, gen] { o->cancelled(gen); });
        } catch (const std::exception& e) {
            failed(gen, error_text(e));
        } catch (...) {  // nothing may leave the thread
            failed(gen, QCoreApplication::translate("Compute",
                                                    "An unexpected error stopped the "
                                                    "computation."));
        }
    }

    void failed(std::uint64_t gen, const QString& message) {
        owner_box_->post([o = owner_, gen, message] { o->fail(gen, message); });
    }

    ComputeController* owner_;
    Mailbox* owner_box_;
    Mailbox* box_;  ///< this thread's: the requests
    ComputeCache cache_;
    std::mutex mutex_;
    std::optional<Request> pending_;
    bool scheduled_ = false;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> cancel_{false};
};

ComputeController::ComputeController(QObject* parent) : QObject(parent) {
    // Done when the application object was made; called here too so that every program with
    // a window links it (and its startup hook) in.
    pin_local_time_zone();
    // Until the window sets its own (a bad ATTNVIZ_MEMORY_BUDGET is reported by whoever
    // sets the budget; here it must not stop the app).
    budget_ = budget::resolve_app_budget("");
    worker_ = new Worker(this, new Mailbox(this));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("attnviz-compute"));
    thread_.start();
}

ComputeController::~ComputeController() {
    worker_->stop();  // a pass under way ends at its next layer
    thread_.quit();
    thread_.wait();
}

std::uint64_t ComputeController::request(const ComputeConfig& config) {
    if (last_config_ && *last_config_ == config) return requested_;
    return requestAgain(config);
}

std::uint64_t ComputeController::requestAgain(const ComputeConfig& config) {
    last_config_ = config;
    const bool was_busy = isBusy();
    ++requested_;
    requested_steps_ = model_steps_;
    requested_lens_ = model_lens_;
    requested_trace_ = model_trace_;
    worker_->submit(Request{config, requested_, prepare_maps_, model_steps_, model_lens_,
                            model_trace_, colormap_, scale_, budget_, nullptr, feed_});
    if (!was_busy) emit busyChanged(true);
    return requested_;
}

bool ComputeController::recolor() {
    // Only the answer to the newest request: after a refused request the snapshot shown is
    // an older one, and delivering it again would pass it off as the answer.
    if (!latest_ || !last_config_ || isBusy() || !prepare_maps_ || shown_ != requested_)
        return false;
    ++requested_;
    requested_steps_ = model_steps_;
    requested_lens_ = model_lens_;
    requested_trace_ = model_trace_;
    emit busyChanged(true);
    worker_->submit(Request{*last_config_, requested_, prepare_maps_, model_steps_, model_lens_,
                            model_trace_, colormap_, scale_, budget_, latest_, feed_});
    return true;
}

void ComputeController::settle() {
    settle_pending_ = true;
    // After the document's pending change (the last token, appended in this turn) is asked for.
    QTimer::singleShot(0, this, &ComputeController::trySettle);
}

void ComputeController::trySettle() {
    if (!settle_pending_ || isBusy()) return;  // again when the requests before it are done
    settle_pending_ = false;
    if (!feed_ || feed_->isWriting()) return;  // another writer started: it settles when it ends
    feed_->close();
    if (last_config_ && latest_ && latest_->model && latest_->model->provisional)
        requestAgain(*last_config_);
}

void ComputeController::setModelSteps(bool on) {
    if (model_steps_ == on) return;
    model_steps_ = on;
    // Maps read from a file have no steps to ask for.
    if (!on || !last_config_ || !last_config_->usesModel() || last_config_->usesMaps()) return;
    // A request still running without the steps (the Steps tab opened while a window's first
    // pass ran, as in one rebuilt in another language) would leave the tab waiting for them.
    if (isBusy() ? !requested_steps_ : latest_ && latest_->model && !latest_->steps)
        requestAgain(*last_config_);
}

void ComputeController::setModelLens(bool on) {
    if (model_lens_ == on) return;
    model_lens_ = on;
    if (!on || !last_config_ || !last_config_->usesModel()) return;
    if (isBusy() ? !requested_lens_ : latest_ && latest_->model && !latest_->lens)
        requestAgain(*last_config_);
}

void ComputeController::setModelTrace(int token) {
    if (model_trace_ == token) return;
    model_trace_ = token;
    if (token == kNoTrace || !last_config_ || !last_config_->usesModel() ||
        last_config_->usesMaps())
        return;
    // The newest request (running or done) traced another token, or none.
    if (requested_trace_ != token) requestAgain(*last_config_);
}

void ComputeController::setFinished(std::uint64_t generation) {
    const bool was_busy = isBusy();
    finished_ = std::max(finished_, generation);
    if (was_busy && !isBusy()) {
        emit busyChanged(false);
        trySettle();
    }
}

void ComputeController::deliver(std::uint64_t generation, SnapshotPtr snapshot,
                                std::shared_ptr<PreparedMaps> maps,
                                std::shared_ptr<const SnapshotStatistics> statistics) {
    if (generation > shown_) {
        shown_ = generation;
        if (statistics || snapshot != latest_) latest_stats_ = std::move(statistics);
        latest_ = std::move(snapshot);
        latest_maps_ = std::move(maps);
        last_error_.clear();
        over_budget_ = budget::MemoryPlan{};
        setFinished(generation);
        emit resultReady(latest_);
        // The window has drawn it (its views repaint as they take it): the writer goes on.
        if (feed_ && latest_) feed_->shown(latest_->config);
    } else {
        setFinished(generation);
    }
}

void ComputeController::failOverBudget(std::uint64_t generation, const budget::MemoryPlan& plan,
                                       const budget::MemoryBudget& budget) {
    if (generation >= requested_) {
        over_budget_ = plan;
        emit overBudget(plan, budget);
    }
    // Not the exception's text (the command line's wording, naming its options).
    fail(generation,
         QCoreApplication::translate("Compute",
                                     "This needs %1, more than the memory budget of %2, so "
                                     "nothing was computed. Keep fewer heads' weights or a "
                                     "window of the tokens (above the heatmaps), or raise "
                                     "the budget.")
             .arg(QString::fromStdString(budget::format_bytes(plan.needed)),
                  QString::fromStdString(budget::format_bytes(plan.budget))));
}

void ComputeController::failTooLong(std::uint64_t generation, const QString& message,
                                    const QString& fitting, std::int64_t tokens,
                                    std::int64_t max_positions) {
    const bool newest = generation >= requested_;
    fail(generation, message);
    if (newest && !fitting.isEmpty()) emit textTooLong(fitting, tokens, max_positions);
}

void ComputeController::cancel() {
    if (isBusy()) worker_->cancel();
}

void ComputeController::cancelled(std::uint64_t generation) {
    setFinished(generation);
    if (generation < requested_) return;  // a newer request runs next
    last_config_.reset();                 // the same configuration, asked again, is computed again
    last_error_ = QCoreApplication::translate("Compute", "The computation was cancelled.");
    emit failed(last_error_);
}

void ComputeController::fail(std::uint64_t generation, const QString& message) {
    setFinished(generation);
    if (generation < requested_) return;  // a newer request may well succeed
    last_error_ = message;
    emit failed(message);
}

}  // namespace attnviz::ui
