// Activation patching off the GUI thread: the sweep (models::patch_sweep) and a chosen head's
// maps on both texts are each a BackgroundJob.  The sweep hands its heads to the GUI thread after
// every pass (kHeadsPerPass heads), so the map fills in as it runs; cancel() stops it before the
// next layer of the pass under way.  Nothing here touches a widget.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>

#include "engine/models/predictions.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/compute/patch_head_maps.h"

namespace attnviz::ui {

class PatchRunner : public QObject {
    Q_OBJECT
  public:
    /// Heads patched in one pass: the map is handed over (and Cancel checked) after each.
    static constexpr std::int64_t kHeadsPerPass = 4;

    explicit PatchRunner(QObject* parent = nullptr);
    /// Stops what runs (at its next layer) without waiting for it: nothing of it is delivered.
    ~PatchRunner() override;

    /// Sweeps `request` (its batch set to kHeadsPerPass) over `model`.  A sweep under way is
    /// stopped first; its hand-overs still queued are dropped.
    void start(ModelPtr model, models::PatchRequest request);
    /// Stops the sweep at its next layer; finished() follows with the heads run.  Returns at
    /// once.
    void cancel();
    bool isRunning() const { return sweep_.isRunning(); }
    /// The request of the last start(), as patch_sweep ran it.
    const models::PatchRequest& request() const { return request_; }

    /// `head` of `layer` (from 0) on both texts, one forward pass each: headMapsReady follows.
    /// The maps of a head clicked before are stopped and dropped, not waited for.
    void startHeadMaps(ModelPtr model, models::ModelInput clean, models::ModelInput corrupt,
                       int layer, int head);

    /// Tests: called on the sweep's thread after each pass, before it looks at cancel().
    static void setPassHookForTesting(
        std::function<void(std::int64_t done, std::int64_t total)> hook);

  signals:
    /// After each pass: the heads run until now (the others NaN).
    void progressed(const attnviz::models::PatchResult& so_far, qint64 done, qint64 total);
    /// The sweep ended: every head run, or `stopped` (Cancel) with those run before.
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
