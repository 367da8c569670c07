// Activation patching off the GUI thread: the sweep and a chosen head's maps on both texts are
// each a BackgroundJob.  The sweep first estimates every head at once by attribution patching
// (models::attribution_patching: two forward passes and a backward) and hands the estimate to the
// GUI thread; with PatchMethod::Attribution that is all, with Exact models::patch_sweep follows
// and hands its heads over after every pass (kHeadsPerPass heads), so the map is refined as it
// runs.  cancel() stops either before the next layer of the pass under way.  Nothing here
// touches a widget.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

#include "engine/models/gradient_attribution.h"
#include "engine/models/predictions.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/compute/patch_head_maps.h"
#include "ui/compute/patch_method.h"

namespace attnviz::ui {

class PatchRunner : public QObject {
    Q_OBJECT
  public:
    /// Heads patched in one pass: the map is handed over (and Cancel checked) after each.
    static constexpr std::int64_t kHeadsPerPass = 4;

    explicit PatchRunner(QObject* parent = nullptr);
    /// Stops what runs (at its next layer) without waiting for it: nothing of it is delivered.
    ~PatchRunner() override;

    /// Estimates every head of `request` over `model` (estimated() follows), then with Exact
    /// sweeps it (its batch set to kHeadsPerPass).  A sweep under way is stopped first; its
    /// hand-overs still queued are dropped.
    void start(ModelPtr model, models::PatchRequest request,
               PatchMethod method = PatchMethod::Exact);
    /// Stops the sweep at its next layer; finished() follows with the heads run.  Returns at
    /// once.
    void cancel();
    bool isRunning() const { return sweep_.isRunning(); }
    /// The request of the last start(), as patch_sweep ran it.
    const models::PatchRequest& request() const { return request_; }

    /// Attribution patching of `request`, polling `control`: what start() estimates first.  With
    /// `required` false (the estimate only previews an exact sweep) an error other than Cancelled
    /// gives nullopt, and the sweep goes on without it.
    static std::optional<models::AttributionPatching> estimate(const models::Model& model,
                                                               const models::PatchRequest& request,
                                                               const PassControl& control,
                                                               bool required);

    /// `head` of `layer` (from 0) on both texts, one forward pass each: headMapsReady follows.
    /// The maps of a head clicked before are stopped and dropped, not waited for.
    void startHeadMaps(ModelPtr model, models::ModelInput clean, models::ModelInput corrupt,
                       int layer, int head);

    /// Tests: called on the sweep's thread after each pass, before it looks at cancel().
    static void setPassHookForTesting(
        std::function<void(std::int64_t done, std::int64_t total)> hook);

  signals:
    /// Every head estimated (before any exact pass): with Attribution the map itself, with
    /// Exact what its cells show until the sweep reaches them.
    void estimated(const attnviz::models::AttributionPatching& estimate);
    /// After each exact pass: the heads run until now (the others NaN).
    void progressed(const attnviz::models::PatchResult& so_far, qint64 done, qint64 total);
    /// The sweep ended: every head run, or `stopped` (Cancel) with those run before.  With
    /// Attribution: the estimate as a sweep's result (models::estimated_patch_result).
    void finished(const attnviz::models::PatchResult& result, qint64 done, qint64 total,
                  bool stopped);
    void failed(const QString& message);
    void headMapsReady(const attnviz::ui::PatchHeadMaps& maps);
    void headMapsFailed(const QString& message);

  private:
    /// How a sweep ended: the heads run (all, or those before Cancel).
    struct SweepEnd {
        models::PatchResult result;
        std::int64_t done = 0, total = 0;
        bool stopped = false;
    };

    BackgroundJob sweep_, maps_;
    models::PatchRequest request_;
};

}  // namespace attnviz::ui
