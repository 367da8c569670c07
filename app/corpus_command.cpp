// `attnviz corpus`: every head over a file of texts (engine/models/corpus.h): the atlas's
// measures with 95% intervals, the labels the heads earn with their agreement, the attention
// keys receive by relative position, each head's top examples, and the joint query–key view of
// the heads asked for (engine/models/qk_embedding.h).  Layers, heads, texts and positions
// count from 1.  Everything is computed before the first file is written, each atomically.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "app/commands.h"
#include "app/terminal_progress.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/npy.h"
#include "engine/models/corpus.h"
#include "engine/models/corpus_texts.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "engine/models/qk_embedding.h"

namespace attnviz::cli {

namespace {

using Index = std::int64_t;
using Clock = std::chrono::steady_clock;

/// The exit status of a run Ctrl-C stopped, as a shell reports a program SIGINT ended: the
/// partial result is written, but a script's next step should not take it for the whole.
constexpr int kInterrupted = 128 + SIGINT;

struct CorpusCommandOptions {
    std::string folder, texts, out, qk;
    std::optional<std::string> format;
    std::optional<Index> max_tokens, limit;
    Index top = 10, context = 6, bins = 20, qk_tokens = 50'000;
    MemoryOptions memory;
    int threads = 1;
};

/// Set by the first Ctrl-C; the run stops after the current text.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int) {
    g_interrupted.store(true);
}

/// Ctrl-C stops the run after its current text while the guard lives; a second Ctrl-C ends the
/// program as usual (SA_RESETHAND).
class InterruptGuard {
  public:
    InterruptGuard() {
        g_interrupted.store(false);
        struct sigaction action = {};
        action.sa_handler = on_interrupt;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previous_);
    }
    ~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

  private:
    struct sigaction previous_ = {};
};

/// --out DIR: a folder, or a name a new one can take (its parent exists); checked before any
/// work.
void require_output_dir(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(path, ec) && !fs::is_directory(path, ec))
        throw DataError("--out '" + path + "' is a file, not a folder");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw DataError("--out '" + path + "': folder '" + parent.string() + "' does not exist");
}

/// The texts' encodings, checked before any pass: a text longer than the model is refused
/// unless --max-tokens cuts it.  Returns the longest (after any cut) and counts those cut.
Index check_lengths(const models::OpenedModel& m, const std::vector<models::CorpusEntry>& texts,
                    const CorpusCommandOptions& o, Index* cut) {
    Index longest = 0;
    *cut = 0;
    for (const models::CorpusEntry& t : texts) {
        bool truncated = false;
        try {
            longest = std::max<Index>(
                longest,
                Index(models::encode_corpus_text(m, t.text, o.max_tokens.value_or(0), &truncated)
                          .input.ids.size()));
        } catch (const models::TextTooLong& e) {
            throw DataError(o.texts + ": line " + std::to_string(t.line) + ": " + e.what() +
                            " (--max-tokens N cuts each text to its first N tokens)");
        } catch (const std::invalid_argument& e) {
            throw DataError(o.texts + ": line " + std::to_string(t.line) + ": " + e.what());
        }
        *cut += truncated ? 1 : 0;
    }
    return longest;
}

/// Where the outputs go, computed whole before the folder is touched.
struct Outputs {
    std::string heads_json;
    Tensor received;
    struct Head {
        std::string name;  ///< "qk_2_8"
        Tensor pca, cosine;
        std::string json;
    };
    std::vector<Head> qk;
};

void write_outputs(const std::string& dir, const Outputs& out) {
    std::error_code ec;
    std::filesystem::create_directory(dir, ec);
    if (ec) throw DataError("cannot make the folder '" + dir + "': " + ec.message());
    const std::string at = dir + "/";
    io::write_npy(at + "received.npy", out.received);
    for (const Outputs::Head& h : out.qk) {
        io::write_npy(at + h.name + ".npy", h.pca);
        io::write_npy(at + h.name + "_cosine.npy", h.cosine);
        io::write_file_atomically(at + h.name + ".json", h.json);
    }
    io::write_file_atomically(at + "heads.json", out.heads_json);
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int corpus(const CorpusCommandOptions& o) {
    require_output_dir(o.out);
    const std::optional<models::CorpusFormat> format =
        o.format ? models::corpus_format_from_name(*o.format) : std::nullopt;
    std::vector<models::CorpusEntry> texts = models::read_corpus(o.texts, format);
    const auto in_file = Index(texts.size());
    if (o.limit && Index(texts.size()) > *o.limit) texts.resize(std::size_t(*o.limit));
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelInfo& info = m.model->info();

    models::CorpusOptions options;
    options.num_threads = o.threads;
    options.top_k = o.top;
    options.context = o.context;
    options.bins = o.bins;
    options.qk_max_tokens = o.qk_tokens;
    if (!o.qk.empty()) options.qk_heads = models::parse_head_list(o.qk, info, "--qk");
    Index truncated = 0;
    const Index longest = check_lengths(m, texts, o, &truncated);

    // One text's pass at the longest length, beside what the analysis keeps.
    models::ModelForwardOptions forward;
    forward.attention = false;
    forward.num_threads = o.threads;
    options.weight_cache_bytes =
        planned_weight_cache(*m.model,
                             m.model->estimate_forward_bytes(longest, forward) +
                                 models::corpus_bytes(info, longest, options),
                             longest, o.memory);

    const auto encode = [&](Index i) {
        const models::CorpusEntry& t = texts[std::size_t(i)];
        bool cut = false;
        models::EncodedText e =
            models::encode_corpus_text(m, t.text, o.max_tokens.value_or(0), &cut);
        return models::CorpusText{std::move(e.input), std::move(e.encoding.text), t.line};
    };
    // Testing only: behave as if Ctrl-C came after that many texts (the handler's own path).
    const char* stop_after = std::getenv("ATTNVIZ_CORPUS_INTERRUPT_AFTER");
    models::CorpusResult r;
    const auto t0 = Clock::now();
    {
        const InterruptGuard guard;
        const TerminalProgress bar("", "text");
        options.control.progress = [&, draw = bar.callback()](Index done, Index total) {
            if (draw) draw(done, total);
            if (stop_after && done == std::atoll(stop_after)) std::raise(SIGINT);
        };
        r = models::analyse_corpus(*m.model, Index(texts.size()), encode, options, &g_interrupted);
    }
    const double pass_ms = ms_since(t0);

    Outputs out;
    std::vector<double> qk_ms;
    for (const models::CorpusQueryKeys& qk : r.qk) {
        const auto t1 = Clock::now();
        const models::JointQueryKeys joint = models::joint_query_keys(qk.queries, qk.keys, qk.dim);
        qk_ms.push_back(ms_since(t1));
        const Index points = 2 * joint.count;
        out.qk.push_back(
            {"qk_" + std::to_string(qk.head.layer + 1) + "_" + std::to_string(qk.head.head + 1),
             Tensor({points, 2}, joint.pca.points), Tensor({points, 2}, joint.cosine.points),
             models::query_keys_json(qk, joint)});
    }
    out.received = Tensor({r.layers, r.heads, r.bins}, r.received);
    out.heads_json = models::corpus_json(r, [&](io::json::Writer& w) {
        w.member("model", info.folder)
            .member("corpus", o.texts)
            .member("texts_in_file", in_file)
            .member("truncated", truncated)
            .member("threads", o.threads)
            .member("pass_ms", pass_ms, io::json::Format::fixed(1));
        w.key("qk_ms").begin_array();
        for (const double ms : qk_ms)
            w.value(ms, io::json::Format::fixed(1));
        w.end_array();
    });
    write_outputs(o.out, out);
    if (!r.partial) return 0;
    std::cerr << "attnviz corpus: stopped after " << r.texts << " of " << texts.size() << " texts; "
              << o.out << " holds their result, marked partial\n";
    return kInterrupted;
}

}  // namespace

void add_corpus_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<CorpusCommandOptions>();
    CLI::App* sub = app.add_subcommand(
        "corpus",
        "Every head over a file of texts, one statistics pass per text (no map kept): each "
        "atlas measure's mean over the texts with its 95% t-interval (entropy, broadness, mean "
        "distance, first, self, previous, and induction over the texts that repeat a token), "
        "the labels the means earn with the share of texts that agree, the attention keys "
        "receive by relative position, each head's top examples (its largest weights on keys "
        "neither first nor itself, with their context), and the joint query-key view of the "
        "heads asked for (AttentionViz's normalisation; PCA of the points and of their "
        "directions). Ctrl-C stops after "
        "the current text and writes the texts done, marked partial (exit status 130).");
    sub->footer(
        "In --out DIR: heads.json (per head, layer and head from 1: measures {mean, low, high, "
        "sd, texts}, labels, agreement [{label, share, interval_clears}], examples [{text, "
        "line, query, key, weight, context}]; texts, tokens, truncated, partial); received.npy "
        "float32 [layers, heads, bins]; per --qk head qk_L_H.npy float32 [2n, 2] (n queries, "
        "then their n keys, by PCA), qk_L_H_cosine.npy (the same of their directions) and "
        "qk_L_H.json (token, text, position and kind of each point).\n\n"
        "Example:\n  attnviz corpus --model resources/models/attn-only-2l --texts "
        "resources/corpora/fortunes_en.txt --qk 1.4,2.8 --out corpus-en");
    add_text(*sub, "--model", &o->folder, "DIR|FILE.gguf", "a Hugging Face model folder or GGUF")
        ->required();
    add_text(*sub, "--texts", &o->texts, "FILE", "the corpus: a UTF-8 text file")->required();
    add_choice(*sub, "--format", &o->format, {"lines", "jsonl", "paragraphs"},
               "one text per line, per JSON Lines record (a string or {\"text\": ...}), or per "
               "paragraph (texts between blank lines); default: jsonl for a .jsonl file, "
               "paragraphs when the file has blank lines between texts, else lines");
    add_integer(*sub, "--max-tokens", &o->max_tokens, 1, Index{1} << 24, "N",
                "cut each text to its first N tokens (at most the model's positions); without "
                "it a text longer than the model is refused");
    add_integer(*sub, "--limit", &o->limit, 1, Index{1} << 40, "K", "only the first K texts");
    add_integer(*sub, "--top", &o->top, 0, 1000, "K", "examples kept per head");
    add_integer(*sub, "--context", &o->context, 0, 100, "W",
                "tokens on each side of an example's key and query");
    add_integer(*sub, "--bins", &o->bins, 1, 1000, "B",
                "bins of relative position of received.npy");
    add_text(*sub, "--qk", &o->qk, "L.H,...",
             "heads (layer.head, from 1) whose queries and keys are kept and projected");
    add_integer(*sub, "--qk-tokens", &o->qk_tokens, 1, 10'000'000, "N",
                "the corpus's first N tokens make each --qk head's points");
    add_memory_budget_option(*sub, &o->memory);
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of each pass");
    add_text(*sub, "--out", &o->out, "DIR", "the folder written (made if missing)")->required();
    ctx.on_parsed(sub, [o] { return corpus(*o); });
}

}  // namespace attnviz::cli
