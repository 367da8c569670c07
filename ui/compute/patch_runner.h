// Activation patching off the GUI thread: the sweep (models::patch_sweep) and a chosen head's
// maps on both texts each run on a thread of their own.  The sweep hands its heads to the GUI
// thread after every pass (kHeadsPerPass heads), through a Mailbox, so the map fills in as it
// runs; cancel() stops it before the next layer of the pass under way.  Nothing here touches
// a widget.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>

#include "engine/models/predictions.h"
#include "ui/compute/model_store.h"
#include "ui/model/patch_figure.h"

namespace attnviz::ui {

class Mailbox;

class PatchRunner : public QObject {
    Q_OBJECT
  public:
    /// Heads patched in one pass: the map is handed over (and Cancel checked) after each.
    static constexpr std::int64_t kHeadsPerPass = 4;

    explicit PatchRunner(QObject* parent = nullptr);
    /// Stops what runs and waits for it (at most one layer of one pass).
    ~PatchRunner() override;

    /// Sweeps `request` (its batch set to kHeadsPerPass) over `model`.  A sweep under way is
    /// stopped first; its hand-overs still queued are dropped.
    void start(ModelPtr model, models::PatchRequest request);
    /// Stops the sweep at its next layer; finished() follows with the heads run.  Any thread.
    void cancel();
    bool isRunning() const { return running_; }
    /// The request of the last start(), as patch_sweep ran it.
    const models::PatchRequest& request() const { return request_; }

    /// `head` of `layer` (from 0) on both texts, one forward pass each: headMapsReady follows.
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
    void stopSweep();
    void stopHeadMaps();

    Mailbox* box_;
    std::thread sweep_, maps_;
    std::shared_ptr<std::atomic<bool>> sweep_stop_, maps_stop_;
    std::uint64_t sweep_generation_ = 0, maps_generation_ = 0;
    bool running_ = false;
    models::PatchRequest request_;
};

}  // namespace attnviz::ui
