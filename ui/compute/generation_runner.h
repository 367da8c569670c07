// The generation timeline's writer, off the GUI thread (a BackgroundJob): Model::generate on
// the document's text (its continuation so far included) with the knocked-out heads, each new
// token handed to the GUI thread as soon as its attention rows are known (one step of the
// model's layers after it is chosen), the rows put in the feed() the window's compute worker
// extends its maps from.  stop() answers at once: the tokens the thread still delivers are
// dropped, and it ends after the step under way.  Nothing here touches a widget or the document.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>

#include "engine/models/model.h"
#include "ui/compute/background_job.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

class GenerationFeed;

/// The model's continuation of `config`'s text (with config.shownGenerated()): `settings.count`
/// new tokens, fewer when the model's positions end first or it writes its end-of-text
/// token; with config's knocked-out heads.  `on_token` (optional) sees each token as it is
/// chosen and may stop the generation.  Throws UsageError for a masked LM or a text that
/// fills the positions, DataError for a broken model.
/// `on_step` (optional): each new token's rows and logits (models::GenerateOptions::on_step).
models::Generation continue_text(const ComputeConfig& config, const GenerationSettings& settings,
                                 const std::function<bool(std::int64_t)>& on_token = {},
                                 const std::function<void(models::GenerationStep&&)>& on_step = {});

class GenerationRunner : public QObject {
    Q_OBJECT
  public:
    explicit GenerationRunner(QObject* parent = nullptr);
    /// Stops what runs (after its step) without waiting for it, and without ended().
    ~GenerationRunner() override;

    /// Continues `config`'s text (with config.shownGenerated()) by `settings.count` tokens of
    /// its model, fewer when the model's positions end first.  A generation under way is
    /// stopped first; the new one starts once it has ended its step.
    void start(const ComputeConfig& config, const GenerationSettings& settings);
    /// Ends the generation now: no token arrives after it; finished() is not emitted.
    void stop();
    bool isRunning() const { return job_.isRunning(); }
    /// The new tokens' rows, for the compute worker (ComputeController::setGenerationFeed).
    std::shared_ptr<GenerationFeed> feed() const { return feed_; }

  signals:
    /// A new token was chosen, at `chosen_ns` (std::chrono::steady_clock, since its epoch):
    /// tokenGenerated follows once its rows are in the feed.
    void tokenChosen(qint64 id, qint64 chosen_ns);
    /// A new token, in order; with heads knocked out (no rows to hand) as soon as it is chosen.
    void tokenGenerated(qint64 id);
    /// The generation ended by itself: at its count, at the model's end-of-text token (eos),
    /// or at the model's last position.
    void finished(bool eos, bool positions_full);
    void failed(const QString& message);
    /// The writer stopped, however (finished, failed or stop()): the feed is finished.
    void ended();

  private:
    void end();

    std::shared_ptr<GenerationFeed> feed_;
    BackgroundJob job_;
};

}  // namespace attnviz::ui
