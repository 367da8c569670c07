#include "ui/compute/patch_runner.h"

#include <mutex>

#include "engine/models/head_statistics.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
std::mutex patch_hook_mutex;
std::function<void(std::int64_t, std::int64_t)> pass_hook;

}  // namespace

PatchRunner::PatchRunner(QObject* parent) : QObject(parent) {}

PatchRunner::~PatchRunner() = default;

void PatchRunner::setPassHookForTesting(std::function<void(std::int64_t, std::int64_t)> hook) {
    const std::lock_guard lock(patch_hook_mutex);
    pass_hook = std::move(hook);
}

void PatchRunner::cancel() {
    sweep_.cancel();
}

std::optional<models::AttributionPatching> PatchRunner::estimate(
    const models::Model& model, const models::PatchRequest& request, const PassControl& control,
    bool required) {
    models::GradientOptions g;
    g.num_threads = request.num_threads;
    g.control.stop = control.stop;
    g.weight_cache_bytes = request.weight_cache_bytes;
    try {
        return models::attribution_patching(model, request, g);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception&) {
        // A preview of the exact sweep: the sweep is what was asked, so it runs without one.
        if (required) throw;
        return std::nullopt;
    }
}

void PatchRunner::start(ModelPtr model, models::PatchRequest request, PatchMethod method) {
    request.batch = kHeadsPerPass;
    request.num_threads = worker_threads();
    request_ = request;  // without the stop flag, which lives with the sweep's thread
    // `this` is only used in what is posted: it runs on the GUI thread while the sweep is current.
    sweep_.start(
        [this, model, request, method](const JobControl& control) {
            models::PatchRequest r = request;
            r.stop = control.stop;
            SweepEnd end;
            try {
                const bool attribution = method == PatchMethod::Attribution;
                const std::optional<models::AttributionPatching> a =
                    estimate(*model->model, r, control, attribution);
                if (a) control.post([this, a = *a] { emit estimated(a); });
                if (attribution) {
                    end.result = models::estimated_patch_result(*a);
                    end.done = end.total = std::int64_t(a->fraction.numel());
                    return end;
                }
                end.result = models::patch_sweep(
                    *model->model, r,
                    [&](std::int64_t d, std::int64_t t, const models::PatchResult& so_far) {
                        end.result = so_far;
                        end.done = d;
                        end.total = t;
                        control.post([this, so_far, d, t] { emit progressed(so_far, d, t); });
                        {
                            const std::lock_guard lock(patch_hook_mutex);
                            if (pass_hook) pass_hook(d, t);
                        }
                        return !control.stopped();
                    });
                end.stopped = end.done < end.total;
            } catch (const Cancelled&) {
                end.stopped = true;  // with the heads of the passes before
            }
            return end;
        },
        {.finished =
             [this](const SweepEnd& e) { emit finished(e.result, e.done, e.total, e.stopped); },
         .failed = [this](const QString& message) { emit failed(message); }});
}

void PatchRunner::startHeadMaps(ModelPtr model, models::ModelInput clean,
                                models::ModelInput corrupt, int layer, int head) {
    maps_.start(
        [model, clean, corrupt, layer, head](const JobControl& control) {
            PatchHeadMaps maps;
            maps.layer = layer;
            maps.head = head;
            maps.clean = models::head_map(*model->model, clean, layer, head, nullptr,
                                          worker_threads(), control);
            maps.corrupt = models::head_map(*model->model, corrupt, layer, head, nullptr,
                                            worker_threads(), control);
            return maps;
        },
        {.finished = [this](const PatchHeadMaps& maps) { emit headMapsReady(maps); },
         .failed = [this](const QString& message) { emit headMapsFailed(message); }});
}

}  // namespace attnviz::ui
