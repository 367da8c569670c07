#include "ui/compute/generation_runner.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>

#include "engine/errors.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
/// How long the writer waits at most for the window's worker to take a token's rows.
constexpr std::chrono::milliseconds kWindowWait{100};
/// Steps shorter than this do not wait for the window.
constexpr std::chrono::milliseconds kLongStep{10};

struct GenerationText {
    Q_DECLARE_TR_FUNCTIONS(Generation)
};
// lupdate reads "models::Generation name(...) {" as a member of a class "models".
using Continuation = models::Generation;
}  // namespace

Continuation continue_text(const ComputeConfig& config, const GenerationSettings& settings,
                           const std::function<bool(std::int64_t)>& on_token,
                           const std::function<void(models::GenerationStep&&)>& on_step) {
    const ModelPtr m = open_model(config.model_folder);
    const models::Model& model = *m->model;
    const models::ModelInfo& info = model.info();
    if (!info.causal)
        throw UsageError(GenerationText::tr("%1 is a masked language model: only a causal "
                                            "model (GPT-2, Llama, Qwen) continues a text.")
                             .arg(model_display_name(*m))
                             .toStdString());
    const models::EncodedText enc = encode_model_text(*m, config);
    const auto P = std::int64_t(enc.input.ids.size());
    const std::int64_t room = info.max_positions - P;
    if (room < 1)
        throw UsageError(GenerationText::tr("The text fills all %1 positions of %2: there is no "
                                            "room for another token.")
                             .arg(info.max_positions)
                             .arg(model_display_name(*m))
                             .toStdString());
    models::GenerateOptions o;
    o.max_new_tokens = std::min<std::int64_t>(settings.count, room);
    o.temperature = settings.temperature;
    o.top_k = settings.top_k;
    o.top_p = settings.top_p;
    // Each Continue of a sampled text draws afresh, yet the same session gives the same
    // text: the seed moves with the tokens already there.
    o.seed = std::uint64_t(settings.seed) * 1000003u + std::uint64_t(P);
    o.eos_ids = model.config().eos_token_ids;
    o.interventions = model_knock_outs(config, info);
    o.num_threads = worker_threads();
    o.on_token = on_token;
    o.on_step = on_step;
    return model.generate(enc.input.ids, o);
}

GenerationRunner::GenerationRunner(QObject* parent)
    : QObject(parent), feed_(std::make_shared<GenerationFeed>()) {}

GenerationRunner::~GenerationRunner() {
    const QSignalBlocker quiet(this);  // whoever listens may be half destroyed
    stop();
}

void GenerationRunner::stop() {
    const bool running = job_.isRunning();
    job_.drop();  // what the thread still hands over is dropped
    if (running) end();
}

void GenerationRunner::end() {
    feed_->finish();  // the window closes it once it has drawn the last token (settle)
    emit ended();
}

void GenerationRunner::start(const ComputeConfig& config, const GenerationSettings& settings) {
    stop();
    // The writer before this one, still ending its step, adds nothing more: it is not this one.
    const std::uint64_t writer = feed_->open(config);
    // Knocked-out heads change every row as the text grows: the engine hands no rows then.
    const bool rows = config.knocked_out.empty();
    struct Written {
        bool eos = false, full = false;
    };
    // `this` is only used in what is posted: it runs on the GUI thread while the job is current.
    job_.start(
        [this, feed = feed_, writer, rows, config, settings](const JobControl& control) {
            const auto on_token = [&](std::int64_t id) {
                const qint64 at = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count();
                control.post([this, id, at, rows] {
                    emit tokenChosen(qint64(id), at);
                    if (!rows) emit tokenGenerated(qint64(id));
                });
                return !control.stopped();
            };
            std::chrono::steady_clock::time_point last_step{};
            const auto on_step = [&](models::GenerationStep&& step) {
                const std::int64_t id = step.id;
                feed->add(fed_token(std::move(step)), writer);
                control.post([this, id] { emit tokenGenerated(qint64(id)); });
                const auto now = std::chrono::steady_clock::now();
                const bool long_step = now - last_step >= kLongStep;
                last_step = now;
                // The writer hands over a token's rows, then waits until the window has shown
                // them before it computes the next logits: on two cores its step (both threads)
                // otherwise took the cores from the worker extending the maps and from the GUI
                // thread drawing them, so each token was drawn later.  Waiting only until the
                // worker had taken the rows still left the drawing beside the next step.
                // ui_bench, Qwen2.5-0.5B's shape, three alternated runs each: drawn 83-85 ms
                // after it was chosen against 99-108 when waiting until taken (and 131-137
                // against 85-86 at load 3.7 without any wait, an earlier session); 24 tokens in
                // 2.7-2.9 s against 2.5-2.6.  Bounded, for a window whose worker is busy
                // elsewhere.  Not after short steps (a small model's, on one thread): its writer
                // took no core from the window for long, and waiting for each token's maps made
                // 24 tokens of attn-only-2l take 0.3 s, not 35 ms.
                if (long_step) feed->waitShown(kWindowWait);
            };
            const models::Generation g = continue_text(config, settings, on_token, on_step);
            if (g.stopped) throw Cancelled();  // stop(): nothing more is delivered
            // Fewer than asked, and no end-of-text token: the positions ran out.
            return Written{g.eos, !g.eos && std::int64_t(g.ids.size()) < settings.count};
        },
        {.finished =
             [this](Written w) {
                 end();
                 emit finished(w.eos, w.full);
             },
         .failed =
             [this](const QString& message) {
                 end();
                 emit failed(message);
             }});
}

}  // namespace attnviz::ui
