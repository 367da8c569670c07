#include "ui/compute/corpus_runner.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <mutex>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/models/corpus_texts.h"
#include "engine/models/pass_plan.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {
using Index = std::int64_t;

/// The texts of the request's file, read in the format it names (none: guessed from the whole
/// file): DataError naming the line of a binary or broken file, FileError for an empty one.
void read_source(CorpusRequest* r) {
    const std::string path = QFile::encodeName(r->source).toStdString();
    const std::string bytes = io::read_file(path);
    const models::CorpusFormat format = models::corpus_format_from_name(r->format.toStdString())
                                            .value_or(models::guess_corpus_format(path, bytes));
    r->format = QLatin1String(models::corpus_format_name(format));
    for (const models::CorpusEntry& e :
         models::split_corpus(bytes, format, QFileInfo(r->source).fileName().toStdString())) {
        r->texts << QString::fromStdString(e.text);
        r->lines.push_back(e.line);
    }
}

/// What the texts are, before any pass: how many are measured, the longest, those cut.
struct Survey {
    Index count = 0, longest = 0;
    std::vector<bool> cut;
};

/// Text `i` as the model sees it, cut to `max_tokens`; DataError naming its line when it is
/// too long for the model (max_tokens 0) or cannot be encoded.
models::EncodedText encode(const models::OpenedModel& m, const CorpusRequest& r, Index i,
                           Index max_tokens, bool* cut) {
    try {
        return models::encode_corpus_text(m, r.texts[i].toStdString(), max_tokens, cut);
    } catch (const std::invalid_argument& e) {  // TextTooLong is one
        const QString name =
            r.source.isEmpty() ? QStringLiteral("text") : QFileInfo(r.source).fileName();
        const Index line = i < Index(r.lines.size()) ? r.lines[std::size_t(i)] : i + 1;
        throw DataError(name.toStdString() + ": line " + std::to_string(line) + ": " + e.what());
    }
}

Survey survey(const models::OpenedModel& m, const CorpusRequest& r, Index max_tokens,
              const PassControl& control) {
    Survey s;
    const Index given = Index(r.texts.size());
    const Index wanted = r.count < 0 ? given : std::min(r.count, given);
    Index tokens = 0;
    for (Index i = 0; i < wanted; ++i) {
        if (i % 64 == 0) control.check();
        bool cut = false;
        const Index n = Index(encode(m, r, i, max_tokens, &cut).input.ids.size());
        s.longest = std::max(s.longest, n);
        s.cut.push_back(cut);
        s.count = i + 1;
        tokens += n;
        // One head's points are the corpus's first tokens: the texts after them add none.
        if (r.base && tokens >= r.options.qk_max_tokens) break;
    }
    return s;
}

/// The pass's weights under the budget: MemoryBudgetExceeded (the engine's message) when one
/// text's pass and what the analysis keeps do not fit.
std::size_t planned_weight_cache(const models::Model& model, Index longest,
                                 const models::CorpusOptions& options,
                                 const budget::MemoryBudget& memory) {
    models::ModelForwardOptions forward;
    forward.attention = false;
    forward.num_threads = options.num_threads;
    const std::uint64_t bytes = model.estimate_forward_bytes(longest, forward) +
                                models::corpus_bytes(model.info(), longest, options) +
                                model.streaming_weight_bytes();
    return models::plan_pass(
               model, [&](const budget::ResultScope&) { return bytes; }, {}, longest, memory)
        .weight_cache_bytes();
}
}  // namespace

CorpusMeasured measure_corpus(const models::OpenedModel& m, CorpusRequest request,
                              const PassControl& control, std::int64_t max_tokens) {
    if (request.texts.isEmpty() && !request.source.isEmpty()) read_source(&request);
    const Survey s = survey(m, request, max_tokens, control);
    models::CorpusOptions options = request.options;
    options.num_threads = worker_threads();
    options.weight_cache_bytes = planned_weight_cache(*m.model, s.longest, options, request.budget);
    options.control = control;
    const auto text = [&](Index i) {
        bool cut = false;
        models::EncodedText e = encode(m, request, i, max_tokens, &cut);
        const Index line = i < Index(request.lines.size()) ? request.lines[std::size_t(i)] : 0;
        return models::CorpusText{std::move(e.input), std::move(e.encoding.text), line};
    };
    CorpusMeasured out;
    out.result = models::analyse_corpus(*m.model, s.count, text, options);
    out.truncated = Index(std::count(s.cut.begin(), s.cut.begin() + out.result.texts, true));
    out.request = std::move(request);
    return out;
}

namespace {
std::mutex corpus_hook_mutex;
std::function<void(std::int64_t, std::int64_t)> text_hook;
}  // namespace

void CorpusRunner::setTextHookForTesting(
    std::function<void(std::int64_t done, std::int64_t total)> hook) {
    const std::lock_guard lock(corpus_hook_mutex);
    text_hook = std::move(hook);
}

CorpusRunner::CorpusRunner(QObject* parent) : QObject(parent) {}

CorpusRunner::~CorpusRunner() = default;

void CorpusRunner::cancel() {
    job_.cancel();
}

void CorpusRunner::start(ModelPtr model, CorpusRequest asked) {
    head_run_ = asked.base != nullptr;
    job_.start(
        [model, asked = std::move(asked)](const JobControl& control) {
            PassControl watched;
            watched.stop = control.stop;
            watched.progress = [&control, last = Index(-1)](Index done, Index total) mutable {
                {
                    const std::lock_guard lock(corpus_hook_mutex);
                    if (text_hook) text_hook(done, total);
                }
                // One hand-over per percent: many short texts would flood the queue.
                const Index percent = 100 * done / std::max<Index>(total, 1);
                if (percent == last && done != total) return;
                last = percent;
                control.report(done, total);
            };
            CorpusMeasured m = measure_corpus(*model, asked, watched, kModelPositions);
            // Nothing measured, or one head's points cut short: nothing worth keeping.
            if (m.result.texts == 0 || (m.request.base && m.result.partial)) throw Cancelled();
            return assemble(
                std::move(m.result), m.request,
                QFileInfo(QString::fromStdString(model->model->info().folder)).absoluteFilePath(),
                m.truncated);
        },
        {.finished = [this](const CorpusPtr& corpus) { emit finished(corpus); },
         .failed = [this](const QString& message) { emit failed(message); },
         .cancelled = [this] { emit cancelled(); },
         .progressed = [this](std::int64_t done,
                              std::int64_t total) { emit progressed(done, total); }});
}

CorpusPtr CorpusRunner::assemble(models::CorpusResult result, const CorpusRequest& request,
                                 const QString& model_folder, std::int64_t truncated) {
    auto c = std::make_shared<CorpusData>();
    if (request.base) {
        *c = *request.base;
    } else {
        c->source = request.source;
        c->format = request.format;
        c->model_folder = model_folder;
        c->texts_given = Index(request.texts.size());
        c->truncated = truncated;
        c->texts.assign(request.texts.begin(), request.texts.end());
    }
    for (const models::CorpusQueryKeys& qk : result.qk) {
        std::erase_if(c->qk, [&](const CorpusQkView& v) { return v.head == qk.head; });
        c->qk.push_back(make_qk_view(qk));
    }
    result.qk.clear();  // the views keep the points: the vectors go
    if (!request.base) c->result = std::move(result);
    return c;
}

}  // namespace attnviz::ui
