#include "ui/compute/patch_runner.h"

#include <mutex>

#include "engine/models/head_statistics.h"
#include "ui/compute/mailbox.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
std::mutex hook_mutex;
std::function<void(std::int64_t, std::int64_t)> pass_hook;

}  // namespace

PatchRunner::PatchRunner(QObject* parent) : QObject(parent), box_(new Mailbox(this)) {}

PatchRunner::~PatchRunner() {
    stopSweep();
    stopHeadMaps();
}

void PatchRunner::setPassHookForTesting(std::function<void(std::int64_t, std::int64_t)> hook) {
    const std::lock_guard lock(hook_mutex);
    pass_hook = std::move(hook);
}

void PatchRunner::stopSweep() {
    if (sweep_stop_) sweep_stop_->store(true);
    if (sweep_.joinable()) sweep_.join();
    ++sweep_generation_;  // drops the hand-overs still queued
    running_ = false;
}

void PatchRunner::stopHeadMaps() {
    if (maps_stop_) maps_stop_->store(true);
    if (maps_.joinable()) maps_.join();
    ++maps_generation_;
}

void PatchRunner::cancel() {
    if (auto stop = sweep_stop_) stop->store(true);
}

void PatchRunner::start(ModelPtr model, models::PatchRequest request) {
    stopSweep();
    request.batch = kHeadsPerPass;
    request.num_threads = worker_threads();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    request_ = request;  // without the stop flag, which dies with the sweep
    request.stop = stop.get();
    sweep_stop_ = stop;
    running_ = true;
    const std::uint64_t generation = sweep_generation_;
    Mailbox* box = box_;
    // The thread is joined before box_ and this are destroyed (stopSweep), so both outlive it.
    sweep_ = std::thread([this, box, generation, model, request, stop] {
        models::PatchResult last;
        std::int64_t done = 0, total = 0;
        const auto deliver = [this, box, generation](auto call) {
            box->post([this, generation, call] {
                if (generation == sweep_generation_) call();
            });
        };
        try {
            const models::PatchResult r = models::patch_sweep(
                *model->model, request,
                [&](std::int64_t d, std::int64_t t, const models::PatchResult& so_far) {
                    last = so_far;
                    done = d;
                    total = t;
                    deliver([this, so_far, d, t] { emit progressed(so_far, d, t); });
                    {
                        const std::lock_guard lock(hook_mutex);
                        if (pass_hook) pass_hook(d, t);
                    }
                    return !stop->load();
                });
            const bool stopped = done < total;
            deliver([this, r, done, total, stopped] {
                running_ = false;
                emit finished(r, done, total, stopped);
            });
        } catch (const Cancelled&) {
            deliver([this, last, done, total] {
                running_ = false;
                emit finished(last, done, total, true);
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            deliver([this, message] {
                running_ = false;
                emit failed(message);
            });
        }
    });
}

void PatchRunner::startHeadMaps(ModelPtr model, models::ModelInput clean,
                                models::ModelInput corrupt, int layer, int head) {
    stopHeadMaps();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    maps_stop_ = stop;
    const std::uint64_t generation = maps_generation_;
    Mailbox* box = box_;
    maps_ = std::thread([this, box, generation, model, clean, corrupt, layer, head, stop] {
        try {
            PatchHeadMaps maps;
            maps.layer = layer;
            maps.head = head;
            PassControl control;
            control.stop = stop.get();
            maps.clean = models::head_map(*model->model, clean, layer, head, nullptr,
                                          worker_threads(), control);
            maps.corrupt = models::head_map(*model->model, corrupt, layer, head, nullptr,
                                            worker_threads(), control);
            box->post([this, generation, maps] {
                if (generation == maps_generation_) emit headMapsReady(maps);
            });
        } catch (const Cancelled&) {
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            box->post([this, generation, message] {
                if (generation == maps_generation_) emit headMapsFailed(message);
            });
        }
    });
}

}  // namespace attnviz::ui
