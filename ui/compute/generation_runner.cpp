#include "ui/compute/generation_runner.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>

#include "engine/errors.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/mailbox.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
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
    : QObject(parent), box_(new Mailbox(this)), feed_(std::make_shared<GenerationFeed>()) {}

GenerationRunner::~GenerationRunner() {
    const QSignalBlocker quiet(this);  // whoever listens may be half destroyed
    stop();
    if (thread_.joinable()) thread_.join();
}

void GenerationRunner::stop() {
    if (stop_) stop_->store(true);
    ++generation_;  // drops what the thread still hands over
    if (running_) end();
}

void GenerationRunner::end() {
    running_ = false;
    feed_->finish();  // the window closes it once it has drawn the last token (settle)
    emit ended();
}

void GenerationRunner::start(const ComputeConfig& config, const GenerationSettings& settings) {
    stop();
    if (thread_.joinable()) thread_.join();  // at most one step of the model
    auto stop_flag = std::make_shared<std::atomic<bool>>(false);
    stop_ = stop_flag;
    running_ = true;
    feed_->open(config);
    const std::uint64_t generation = generation_;
    Mailbox* box = box_;
    GenerationFeed* feed = feed_.get();
    // Knocked-out heads change every row as the text grows: the engine hands no rows then.
    const bool rows = config.knocked_out.empty();
    // The thread is joined before box_, feed_ and this are destroyed, so all outlive it.
    thread_ = std::thread([this, box, feed, rows, generation, config, settings, stop_flag] {
        const auto deliver = [this, box, generation](auto call) {
            box->post([this, generation, call] {
                if (generation == generation_) call();
            });
        };
        const auto on_token = [&](std::int64_t id) {
            const qint64 at = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count();
            deliver([this, id, at, rows] {
                emit tokenChosen(qint64(id), at);
                if (!rows) emit tokenGenerated(qint64(id));
            });
            return !stop_flag->load();
        };
        const auto on_step = [&](models::GenerationStep&& step) {
            const std::int64_t id = step.id;
            feed->add(fed_token(std::move(step)));
            deliver([this, id] { emit tokenGenerated(qint64(id)); });
        };
        try {
            const models::Generation g = continue_text(config, settings, on_token, on_step);
            if (g.stopped) return;
            // Fewer than asked, and no end-of-text token: the positions ran out.
            const bool full = !g.eos && std::int64_t(g.ids.size()) < settings.count;
            deliver([this, eos = g.eos, full] {
                end();
                emit finished(eos, full);
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            deliver([this, message] {
                end();
                emit failed(message);
            });
        }
    });
}

}  // namespace attnviz::ui
