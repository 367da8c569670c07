#include "app/model_commands.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <time.h>
#include <unistd.h>

#include "app/commands.h"
#include "app/terminal_progress.h"
#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/io/npy.h"
#include "engine/models/attribution.h"
#include "engine/models/circuits.h"
#include "engine/models/effective_attention.h"
#include "engine/models/flops.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/head_statistics.h"
#include "engine/models/information_flow.h"
#include "engine/models/model_folder.h"
#include "engine/models/pass_plan.h"
#include "engine/models/predictions.h"

namespace attnviz::cli {

namespace {

using Clock = std::chrono::steady_clock;

// bench's numbers as it has always printed them.
constexpr io::json::Format kMs = io::json::Format::fixed(3);
constexpr io::json::Format kGflops = io::json::Format::fixed(1);
constexpr io::json::Format kFraction = io::json::Format::fixed(3);

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Copies each kept layer into the output arrays as it arrives, so the pass never holds more
/// than the outputs and one layer.
class OutputSink : public models::AttentionSink {
  public:
    OutputSink(std::int64_t layers, std::int64_t heads, std::int64_t rows, bool weights,
               bool mean) {
        if (weights && heads > 0) weights_ = Tensor({layers, heads, rows, rows});
        if (mean) mean_ = Tensor({layers, rows, rows});
    }
    void on_layer(std::int64_t, AttentionResult&& r) override {
        if (!weights_.empty()) {
            const std::size_t n = r.weights.numel();
            std::copy_n(r.weights.ptr(), n, weights_.ptr() + static_cast<std::size_t>(next_) * n);
        }
        if (!mean_.empty()) {
            const std::size_t n = r.mean_weights.numel();
            std::copy_n(r.mean_weights.ptr(), n, mean_.ptr() + static_cast<std::size_t>(next_) * n);
        }
        ++next_;
    }
    Tensor weights_, mean_;

  private:
    std::int64_t next_ = 0;
};

}  // namespace

void inspect_model(const std::string& folder, std::ostream& out) {
    if (models::is_tokenizer_only(folder)) {
        out << models::inspect_json(models::open_tokenizer_folder(folder)) << "\n";
        return;
    }
    const models::OpenedModel m = models::open_model_folder(folder);
    out << models::inspect_json(m) << "\n";
}

void tokenize_with_model(const std::string& folder, const std::string& text,
                         const std::optional<std::string>& text2, std::ostream& out,
                         std::ostream& err) {
    const models::OpenedTokenizer t = models::open_tokenizer_folder(folder);
    const text::Encoding e = models::encode_pieces(
        t.tokenizer, text, text2 ? std::optional<std::string_view>(*text2) : std::nullopt);
    const auto L = static_cast<std::int64_t>(e.ids.size());
    if (const std::int64_t max = t.max_positions(); max > 0 && L > max)
        err << "attnviz tokenize: warning: " << L << " tokens, more than the " << max
            << " positions of this model; attend and the window take at most " << max << "\n";
    out << models::encoding_json(e) << "\n";
}

void attend_with_model(const ModelAttendRequest& r) {
    if (r.out_weights.empty() && r.out_mean.empty())
        throw UsageError("nothing to write: give --out-weights and/or --out-mean");
    if (!r.out_weights.empty() && r.scope.mean_only())
        throw UsageError("--mean-only keeps no per-head weights for --out-weights; use --out-mean");
    for (const auto& [path, option] :
         {std::pair{&r.out_weights, "--out-weights"}, std::pair{&r.out_mean, "--out-mean"},
          std::pair{&r.out_tokens, "--out-tokens"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(r.folder);
    const models::ModelInfo& info = m.model->info();
    std::vector<std::int64_t> layers;
    try {
        layers = budget::parse_layers_spec(r.layers, info.num_layers);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (r.scope.heads_shown > info.num_heads)
        throw UsageError("--heads-shown " + std::to_string(r.scope.heads_shown) + ": " +
                         info.display_name + " has " + std::to_string(info.num_heads) + " heads");
    const models::EncodedText e = models::encode_text(
        m, r.text, r.text2 ? std::optional<std::string_view>(*r.text2) : std::nullopt);
    const auto L = static_cast<std::int64_t>(e.input.ids.size());

    const std::uint64_t streaming = m.model->streaming_weight_bytes();
    models::ModelForwardOptions o;
    o.num_threads = r.threads;
    const auto footprint = [&](const budget::ResultScope& s) -> std::uint64_t {
        models::ModelForwardOptions scoped = o;
        scoped.scope = models::attention_scope(s, layers, info.num_heads, L);
        const double kept = double(scoped.scope.layers.size());
        const double rows = double(scoped.scope.window_length);
        const double heads = double(scoped.scope.heads);
        const double outputs =
            kept * ((r.out_weights.empty() ? 0.0 : heads) + (r.out_mean.empty() ? 0.0 : 1.0)) *
            rows * rows * 4.0;
        return m.model->estimate_forward_bytes(L, scoped) + static_cast<std::uint64_t>(outputs) +
               streaming;
    };
    const models::PassPlan plan =
        models::plan_pass(*m.model, footprint, r.scope, L, r.budget, 0, layers);
    o.scope = models::attention_scope(r.scope, layers, info.num_heads, L);
    o.weight_cache_bytes = plan.weight_cache_bytes();
    const std::int64_t heads = o.scope.heads;
    OutputSink sink(static_cast<std::int64_t>(o.scope.layers.size()), heads, o.scope.window_length,
                    !r.out_weights.empty(), !r.out_mean.empty());
    models::ModelForwardOptions run =
        r.effective ? models::EffectiveAttentionSink::pass_options(o) : o;
    run.masked_rows = r.masked_rows;
    models::EffectiveAttentionSink effective(*m.model, sink, o.scope, r.threads);
    {
        const TerminalProgress bar(plan.weights.stream ? "weights streamed from the files" : "");
        run.control.progress = bar.callback();
        if (r.effective)
            m.model->forward(e.input, run, effective);
        else
            m.model->forward(e.input, run, sink);
    }
    // Every output is computed before the first is written.
    std::string tokens_json;
    if (!r.out_tokens.empty())
        tokens_json = models::attention_tokens_json(
                          e.encoding, o.scope.window_begin, o.scope.window_length,
                          r.text2 ? std::nullopt : std::optional<std::string_view>(r.text)) +
                      "\n";
    if (!r.out_weights.empty()) io::write_npy(r.out_weights, sink.weights_);
    if (!r.out_mean.empty()) io::write_npy(r.out_mean, sink.mean_);
    if (!r.out_tokens.empty()) io::write_file_atomically(r.out_tokens, tokens_json);
}

void stats_with_model(const StatsRequest& r) {
    if (r.out_json.empty() && r.out_npy.empty() && r.out_first.empty() && r.out_csv.empty() &&
        r.out_map.empty())
        throw UsageError(
            "nothing to write: give --out-json, --out-npy, --out-first, --out-csv "
            "and/or --map with --out-map");
    for (const auto& [path, option] :
         {std::pair{&r.out_json, "--out-json"}, std::pair{&r.out_npy, "--out-npy"},
          std::pair{&r.out_first, "--out-first"}, std::pair{&r.out_csv, "--out-csv"}})
        if (!path->empty()) require_output_folder(*path, option);
    if (r.map.empty() != r.out_map.empty())
        throw UsageError("--map L.H and --out-map M.npy go together");
    if (!r.out_map.empty()) require_output_folder(r.out_map, "--out-map");
    const models::OpenedModel m = models::open_model_folder(r.folder);
    const models::ModelInfo& info = m.model->info();
    std::optional<models::HeadRef> head;
    if (!r.map.empty()) {
        const std::vector<models::HeadRef> heads = models::parse_head_list(r.map, info, "--map");
        if (heads.size() != 1) throw UsageError("--map takes one head (L.H, from 1)");
        head = heads.front();
    }
    const models::EncodedText e = models::encode_text(m, r.text, std::nullopt);
    const auto L = static_cast<std::int64_t>(e.input.ids.size());

    // Nothing grows with L² here: the pass's activations, the curves and one layer's weights.
    models::ModelForwardOptions forward;
    forward.attention = false;
    forward.num_threads = r.threads;
    const std::uint64_t streaming = m.model->streaming_weight_bytes();
    const std::uint64_t others =
        m.model->estimate_forward_bytes(L, forward) +
        models::statistics_bytes(info, L, head.has_value(), r.threads) +
        (head ? static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(L) * 2 * sizeof(float)
              : 0);  // the map, and its blocks' scratch
    models::plan_pass(
        *m.model, [&](const budget::ResultScope&) { return others + streaming; }, {}, L, r.budget);

    models::StatisticsOptions options;
    options.num_threads = r.threads;
    // One pass converts each layer's weights once whether they are kept or streamed: keeping
    // them would only cost memory (2 GB of float32 for Qwen2.5-0.5B).  --map converts its
    // layer once more.
    options.weight_cache_bytes = 0;
    // The head's map is recomputed from the residual stream before its layer: kept by the pass.
    options.keep_residuals = head.has_value();
    options.special = models::special_keys(e.encoding.text);
    models::StatisticsRun run;
    const auto t0 = Clock::now();
    {
        const TerminalProgress bar("");
        options.control.progress = bar.callback();
        run = models::compute_statistics(*m.model, e.input, options);
    }
    const double pass_ms = ms_since(t0);
    Tensor map;
    double map_ms = 0;
    if (head) {
        const auto t1 = Clock::now();
        map =
            models::head_map(*m.model, e.input, head->layer, head->head,
                             run.residuals[static_cast<std::size_t>(head->layer)].get(), r.threads);
        map_ms = ms_since(t1);
    }
    run.residuals.clear();
    const models::HeadStatistics& s = run.statistics;
    // Every output is computed before the first is written.
    const Shape curves{s.layers, s.heads, s.length};
    std::string json;
    if (!r.out_json.empty()) {
        json = models::statistics_json(s, e.encoding.text, [&](io::json::Writer& w) {
            w.member("pass_ms", pass_ms, io::json::Format::fixed(1))
                .member("map_ms", map_ms, io::json::Format::fixed(1))
                .member("threads", r.threads);
        });
        json += "\n";
    }
    if (head) io::write_npy(r.out_map, map);
    if (!r.out_npy.empty()) io::write_npy(r.out_npy, Tensor(curves, s.received));
    if (!r.out_first.empty()) io::write_npy(r.out_first, Tensor(curves, s.first_token));
    if (!r.out_csv.empty()) io::write_file_atomically(r.out_csv, s.atlas.to_csv());
    if (!r.out_json.empty()) io::write_file_atomically(r.out_json, json);
}

namespace {
/// Notes when the first layer's attention arrives: the end of "open until the first layer ran".
class FirstLayerSink : public models::CollectingSink {
  public:
    void on_layer(std::int64_t layer, AttentionResult&& attention) override {
        if (!first) first = Clock::now();
        CollectingSink::on_layer(layer, std::move(attention));
    }
    std::optional<Clock::time_point> first;
};
}  // namespace

namespace {

/// The median of `repeats` runs of `f`, in ms.
template <class F>
double median_ms(int repeats, F&& f) {
    std::vector<double> runs;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        const auto t0 = Clock::now();
        f();
        runs.push_back(ms_since(t0));
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

/// The patching problem --patch and --eap time: a fifth of the tokens changed, the metric
/// logit(1) - logit(2) at the last position.
models::PatchRequest bench_patch_request(const models::ModelInput& input, int threads) {
    models::PatchRequest r;
    r.clean = input;
    r.corrupt = input;
    for (std::size_t i = 1; i < r.corrupt.ids.size(); i += 5)
        r.corrupt.ids[i] = r.clean.ids[(i + 1) % r.clean.ids.size()];
    r.target = 1;
    r.distractor = 2;
    r.num_threads = threads;
    return r;
}

/// One line of bench --model's extras: `ms` as `name` and as passes of the run's forward pass.
void write_against_pass(std::ostream& out, const char* bench, std::int64_t tokens, const char* name,
                        double ms, double pass_ms) {
    io::json::Writer w;
    w.begin_object()
        .member("bench", bench)
        .member("tokens", tokens)
        .member(name, ms, kMs)
        .member("pass_ms", pass_ms, kMs)
        .member("passes", ms / pass_ms, io::json::Format::fixed(2));
    out << w.end_object().str() << "\n";
}

/// Issue 37's "Fast" measurements, one JSON line each, against the forward pass of the same
/// run (`pass_ms`, every map kept, as --patch's): the metric and target are arbitrary (the
/// time does not depend on them), at the last position.
void bench_why(const models::OpenedModel& m, const models::ModelInput& input, int threads,
               int repeats, double pass_ms, const ModelBenchExtras& extras, std::ostream& out) {
    const models::ModelInfo& info = m.model->info();
    const auto L = static_cast<std::int64_t>(input.ids.size());
    if (extras.backward) {
        models::GradientMetric metric;
        metric.kind = models::GradientMetric::Kind::LogProb;
        metric.position = L - 1;
        metric.target = 1;
        models::GradientOptions g;
        g.num_threads = threads;
        const double ms = median_ms(repeats, [&] { m.model->gradients(input, metric, g); });
        io::json::Writer w;
        w.begin_object()
            .member("bench", "backward")
            .member("tokens", L)
            .member("metric", "logprob")
            .member("gradients_ms", ms, kMs)
            .member("pass_ms", pass_ms, kMs)
            // Model::gradients runs a forward pass of its own: the backward alone is the rest.
            .member("forward_and_backward_passes", ms / pass_ms, io::json::Format::fixed(2))
            .member("backward_passes", (ms - pass_ms) / pass_ms, io::json::Format::fixed(2));
        out << w.end_object().str() << "\n";
    }
    if (extras.eap) {
        const models::PatchRequest r = bench_patch_request(input, threads);
        models::GradientOptions g;
        g.num_threads = threads;
        write_against_pass(
            out, "eap", L, "eap_ms",
            median_ms(repeats, [&] { models::attribution_patching(*m.model, r, g); }), pass_ms);
    }
    if (extras.dla) {
        models::LogitTarget what;
        what.position = L - 1;
        what.target = 1;
        models::AttributionOptions a;
        a.num_threads = threads;
        write_against_pass(
            out, "dla", L, "dla_ms",
            median_ms(repeats, [&] { models::attribute_logit(*m.model, input, what, a); }),
            pass_ms);
    }
    if (extras.flow) {
        models::FlowOptions f;
        f.num_threads = threads;
        // The graph at `attnviz flow`'s default threshold, with the importances it reads.
        const auto graph = [&] {
            models::flow_graph(models::information_flow(*m.model, input, f), L - 1, 0.04);
        };
        write_against_pass(out, "flow", L, "flow_ms", median_ms(repeats, graph), pass_ms);
    }
    if (extras.circuits) {
        models::CircuitOptions c;
        c.num_threads = threads;
        std::vector<double> cpu;
        const double wall = median_ms(repeats, [&] {
            const double c0 = process_cpu_ms();
            models::circuit_scores(*m.model, c);
            cpu.push_back(process_cpu_ms() - c0);
        });
        std::sort(cpu.begin(), cpu.end());
        io::json::Writer w;
        w.begin_object()
            .member("bench", "circuits")
            .member("heads", info.num_layers * info.num_heads)
            .member("wall_s", wall * 1e-3, io::json::Format::general(4))
            .member("cpu_s", cpu[cpu.size() / 2] * 1e-3, io::json::Format::general(4))
            .member("runs", cpu.size());
        out << w.end_object().str() << "\n";
    }
}

/// Each extra of bench --model as one JSON line, timed against the forward pass of the same
/// run (`pass_ms`, every map kept) and the sgemm peak measured in it.
void bench_predictions(const models::OpenedModel& m, const models::ModelInput& input, int threads,
                       int repeats, double pass_ms, double peak, const ModelBenchExtras& extras,
                       std::ostream& out) {
    const models::ModelInfo& info = m.model->info();
    if (m.model->lm_head() == models::LmHeadKind::None) throw DataError(m.model->lm_head_missing());
    const auto L = static_cast<std::int64_t>(input.ids.size());
    const double E = double(info.hidden_size), V = double(info.vocab_size);
    const double layers = double(info.num_layers);
    models::ModelForwardOptions streams;
    streams.attention = false;
    streams.num_threads = threads;
    models::StreamSink sink;
    m.model->forward(input, streams, sink);
    std::vector<std::int64_t> all(static_cast<std::size_t>(L));
    for (std::int64_t t = 0; t < L; ++t)
        all[static_cast<std::size_t>(t)] = t;
    if (extras.lm_head) {
        const double ms =
            median_ms(repeats, [&] { m.model->logits(sink.residuals.back(), all, threads); });
        const double gflops = 2.0 * double(L) * E * V / (ms * 1e6);
        io::json::Writer w;
        w.begin_object()
            .member("bench", "lm_head")
            .member("tokens", L)
            .member("vocab", info.vocab_size)
            .member("median_ms", ms, kMs)
            .member("gflops", gflops, kGflops)
            .member("fraction_of_peak", gflops / (peak * threads), kFraction)
            .member("pass_ms", pass_ms, kMs);
        out << w.end_object().str() << "\n";
    }
    if (extras.lens) {
        Tensor lens;
        // Each repeat gives its result back (467 MB for Qwen at 32 tokens), as the window's
        // kept results are: the products are timed, not page faults on fresh memory.
        const double ms = median_ms(repeats, [&] {
            if (!lens.data.empty()) release_buffer(lens);
            lens = models::lens_logits(*m.model, sink.residuals, all, threads);
        });
        const double topk_ms = median_ms(repeats, [&] { models::top_k_rows(lens, 10, threads); });
        const double gflops = 2.0 * layers * double(L) * E * V / (ms * 1e6);
        io::json::Writer w;
        w.begin_object()
            .member("bench", "lens")
            .member("tokens", L)
            .member("layers", info.num_layers)
            .member("products_ms", ms, kMs)
            .member("gflops", gflops, kGflops)
            .member("fraction_of_peak", gflops / (peak * threads), kFraction)
            .member("top10_ms", topk_ms, kMs)
            .member("top10_fraction", topk_ms / ms, kFraction)
            .member("pass_ms", pass_ms, kMs);
        out << w.end_object().str() << "\n";
    }
    if (extras.generate > 0) {
        models::GenerateOptions g;
        g.max_new_tokens = extras.generate;
        g.num_threads = threads;
        // The first generation after a pass is timed on its own: it pays once for what the
        // steps read that a pass does not (the unembedding's rows, the mapping's pages).  The
        // median is of the runs after it, as llama-bench times its runs after a warm-up.
        const auto cold = Clock::now();
        m.model->generate(input.ids, g);
        const double first_ms = ms_since(cold);
        const double gen_ms = median_ms(repeats, [&] { m.model->generate(input.ids, g); });
        // One forward pass over as many tokens as the prompt and the new ones, every map kept.
        models::ModelInput longer = input;
        for (std::int64_t i = 0; i < extras.generate; ++i)
            longer.ids.push_back(input.ids[static_cast<std::size_t>(i % L)]);
        models::ModelForwardOptions o;
        o.num_threads = threads;
        const double full_ms = median_ms(repeats, [&] {
            models::CollectingSink keep;
            m.model->forward(longer, o, keep);
        });
        io::json::Writer w;
        w.begin_object()
            .member("bench", "generate")
            .member("prompt", L)
            .member("new_tokens", extras.generate)
            .member("median_ms", gen_ms, kMs)
            .member("ms_per_token", gen_ms / double(extras.generate), kMs)
            .member("first_ms", first_ms, kMs)
            .member("pass_of_total_ms", full_ms, kMs)
            .member("ratio", gen_ms / full_ms, kFraction);
        out << w.end_object().str() << "\n";
    }
    if (extras.patch) {
        models::PatchRequest r = bench_patch_request(input, threads);
        const double heads = double(info.num_layers * info.num_heads);
        const double batched = median_ms(repeats, [&] { models::patch_sweep(*m.model, r); });
        r.batch = 1;
        const double single =
            median_ms(std::max(1, repeats / 2), [&] { models::patch_sweep(*m.model, r); });
        io::json::Writer w;
        w.begin_object()
            .member("bench", "patch")
            .member("tokens", L)
            .member("heads", heads, io::json::Format::fixed(0))
            .member("sweep_ms", batched, kMs)
            .member("sweep_one_head_a_pass_ms", single, kMs)
            .member("pass_ms", pass_ms, kMs)
            .member("passes", batched / pass_ms, io::json::Format::fixed(2))
            .member("fraction_of_heads_passes", batched / (pass_ms * heads), kFraction);
        out << w.end_object().str() << "\n";
    }
}

}  // namespace

void bench_model(const std::string& folder, std::int64_t tokens, int threads, int repeats,
                 std::ostream& out, const ModelBenchExtras& extras) {
    const auto opened = Clock::now();
    auto t0 = opened;
    const models::OpenedModel m = models::open_model_folder(folder);
    const double open_ms = ms_since(t0);
    const models::ModelInfo& info = m.model->info();
    const bool predictions = extras.lm_head || extras.lens || extras.generate > 0 || extras.patch;
    const bool why = extras.backward || extras.eap || extras.dla || extras.flow || extras.circuits;
    // Checked before anything is timed or printed.
    if ((predictions || extras.backward || extras.eap || extras.dla) &&
        m.model->lm_head() == models::LmHeadKind::None)
        throw DataError(m.model->lm_head_missing());
    if (extras.dla && !info.pre_norm)
        throw DataError("--dla: " + info.display_name +
                        " is a post-norm model, and logit attribution needs a pre-norm one "
                        "(GPT-2, Llama, Qwen)");
    if (extras.generate > 0 && !info.causal)
        throw UsageError("--generate needs a causal language model; " + info.display_name +
                         " is a masked language model");
    if (tokens < 1 || tokens > info.max_positions)
        throw UsageError("--tokens " + std::to_string(tokens) + ": " + info.display_name +
                         " takes 1 to " + std::to_string(info.max_positions) + " tokens");
    if (extras.generate > 0 && tokens + extras.generate > info.max_positions)
        throw UsageError("--generate " + std::to_string(extras.generate) + " after " +
                         std::to_string(tokens) + " tokens: " + info.display_name + " has " +
                         std::to_string(info.max_positions) + " positions");
    // Ids drawn from the vocabulary with a fixed seed: the speed does not depend on them.
    models::ModelInput input;
    std::mt19937_64 rng(1);
    const std::int64_t vocab = std::min(
        info.vocab_size, m.tokenizer.vocab_size() > 0 ? m.tokenizer.vocab_size() : info.vocab_size);
    for (std::int64_t t = 0; t < tokens; ++t)
        input.ids.push_back(static_cast<std::int64_t>(
            rng() % static_cast<std::uint64_t>(std::max<std::int64_t>(vocab, 1))));
    models::ModelForwardOptions o;
    o.num_threads = threads;
    t0 = Clock::now();
    double first_layer_ms = 0.0;
    {
        FirstLayerSink sink;
        m.model->forward(input, o, sink);
        if (sink.first)
            first_layer_ms =
                std::chrono::duration<double, std::milli>(*sink.first - opened).count();
    }
    const double first_ms = ms_since(t0);
    std::vector<double> runs;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        models::CollectingSink sink;
        t0 = Clock::now();
        m.model->forward(input, o, sink);
        runs.push_back(ms_since(t0));
    }
    std::vector<double> sorted = runs;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    const double gflops = models::forward_flops(m.model->config(), tokens) / (median * 1e6);
    const double peak = models::measure_sgemm_gflops();
    io::json::Writer w;
    w.begin_object()
        .member("model", info.display_name)
        .member("layers", info.num_layers)
        .member("heads", info.num_heads)
        .member("tokens", tokens)
        .member("threads", threads)
        .member("open_ms", open_ms, io::json::Format::fixed(2))
        .member("first_layer_ms", first_layer_ms, io::json::Format::fixed(2))
        .member("first_pass_ms", first_ms, io::json::Format::fixed(2))
        .member("median_ms", median, kMs)
        .member("runs", runs.size())
        .member("gflops", gflops, kGflops)
        .member("sgemm_peak_gflops", peak, kGflops)
        .member("fraction_of_peak", peak > 0 ? gflops / (peak * threads) : 0.0, kFraction);
    out << w.end_object().str() << "\n";
    if (predictions) bench_predictions(m, input, threads, repeats, median, peak, extras, out);
    if (why) bench_why(m, input, threads, repeats, median, extras, out);
}

double process_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

void add_inspect_command(CLI::App& app, CommandContext& ctx) {
    auto folder = std::make_shared<std::string>();
    CLI::App* sub = app.add_subcommand(
        "inspect",
        "A Hugging Face model folder as one JSON object: architecture, layers, heads, kv heads, "
        "head_dim, hidden size, vocabulary, dtype, parameters, tokenizer and special tokens.");
    sub->footer("Example: attnviz inspect --model ~/models/bert-base-chinese");
    add_text(*sub, "--model", folder.get(), "DIR",
             "the folder (config.json, safetensors weights, tokenizer files)")
        ->required();
    ctx.on_parsed(sub, [folder] {
        inspect_model(*folder, std::cout);
        return 0;
    });
}

}  // namespace attnviz::cli
