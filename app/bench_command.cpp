// `attnviz bench`: one attention layer's forward pass, or the SIMD softmax over rows, timed;
// one JSON line on stdout.  Benchmarks are programs, never timed tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "app/commands.h"
#include "app/model_commands.h"
#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "engine/io/json_writer.h"
#include "engine/kernels/gemm.h"
#include "engine/kernels/softmax.h"
#include "engine/layers/multi_head_attention.h"
#include "engine/ops/random.h"
#include "engine/ops/softmax.h"

namespace attnviz::cli {

namespace {

/// Times as bench has always printed them.
constexpr io::json::Format kMs = io::json::Format::fixed(4);

struct BenchOptions {
    bool softmax = false;
    std::optional<std::int64_t> rows, cols;
    std::optional<std::string> isa;
    std::optional<std::int64_t> tokens, embed_dim, num_heads;
    std::int64_t batch = 1;
    bool no_weights = false;
    SeedOptions seeds;
    int threads = 1;
    std::optional<int> repeats;
    MemoryOptions memory;
    std::optional<std::string> model;
    ModelBenchExtras extras;
};

struct Timing {
    double wall_ms;  ///< median wall-clock time
    double cpu_ms;   ///< median CPU time of the process: robust to a busy machine's descheduling
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

template <class Fn>
Timing time_median(int repeats, Fn&& fn) {
    fn();  // warm-up: page faults, first-touch allocation, dispatch
    std::vector<double> wall, cpu;
    for (int i = 0; i < repeats; ++i) {
        const double c0 = process_cpu_ms();
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
        cpu.push_back(process_cpu_ms() - c0);
    }
    return {median(wall), median(cpu)};
}

/// Refuses configurations whose results would not fit in the budget, instead of dying later.
void require_memory(std::size_t bytes, const MemoryOptions& memory) {
    const budget::MemoryBudget b = memory.budget();
    if (bytes > b.bytes)
        throw DataError("needs " + budget::format_bytes(bytes) +
                        ", more than the memory budget of " + budget::describe_budget(b) +
                        "; use fewer tokens, heads or batch items, or a larger --memory-budget");
}

void check(const BenchOptions& o) {
    const auto require = [](const auto& value, const char* option) {
        if (!value) throw UsageError(std::string(option) + " is required");
    };
    if (o.softmax) {
        require(o.rows, "--rows");
        require(o.cols, "--cols");
    } else {
        require(o.tokens, "--tokens");
        require(o.embed_dim, "--embed-dim");
        require(o.num_heads, "--num-heads");
    }
}

int bench_softmax(const BenchOptions& o) {
    const auto rows = static_cast<std::size_t>(*o.rows);
    const auto cols = static_cast<std::size_t>(*o.cols);
    const int repeats = o.repeats.value_or(9);
    require_memory(rows * cols * sizeof(float) * 2, o.memory);
    std::vector<float> input(rows * cols), work(rows * cols);
    ops::Random rng(1);
    for (float& v : input)
        v = rng.normal() * 4.0f;
    // The rows are restored from a copy before every run; the copy's time is subtracted.
    const Timing with_copy = time_median(repeats, [&] {
        std::copy(input.begin(), input.end(), work.begin());
        ops::softmax_rows(work.data(), rows, cols, MaskedRowPolicy::Zero, nullptr, o.threads);
    });
    const Timing copy_only =
        time_median(repeats, [&] { std::copy(input.begin(), input.end(), work.begin()); });
    const double net = std::max(with_copy.wall_ms - copy_only.wall_ms, 1e-6);
    io::json::Writer w;
    w.begin_object()
        .member("bench", "softmax")
        .member("rows", rows)
        .member("cols", cols)
        .member("threads", o.threads)
        .member("isa", kernels::isa_name(kernels::best_isa()))
        .member("median_ms", net, kMs)
        .member("gelem_per_s", static_cast<double>(rows * cols) / (net * 1e6),
                io::json::Format::fixed(4));
    std::printf("%s\n", w.end_object().str().c_str());
    return 0;
}

int bench_attention(const BenchOptions& opt) {
    MultiHeadAttentionOptions o;
    const std::int64_t L = *opt.tokens;
    o.embed_dim = *opt.embed_dim;
    o.num_heads = *opt.num_heads;
    const std::int64_t N = opt.batch;
    const int repeats = opt.repeats.value_or(7);
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    {
        AttentionForwardOptions fwd;
        fwd.num_threads = opt.threads;
        fwd.need_weights = !opt.no_weights;
        require_memory(MultiHeadAttention::estimate_forward_bytes(o, N, L, L, fwd) +
                           MultiHeadAttention::parameter_bytes(o) +
                           std::size_t(N * L * o.embed_dim) * sizeof(float),
                       opt.memory);
    }
    MultiHeadAttention mha(o);
    mha.reset_parameters(static_cast<std::uint64_t>(opt.seeds.seed));
    Tensor x({N, L, o.embed_dim});
    ops::Random rng(2);
    for (float& v : x.data)
        v = rng.normal();
    AttentionForwardOptions fwd;
    fwd.num_threads = opt.threads;
    fwd.need_weights = !opt.no_weights;
    // Each result is given back, as the window's snapshots give theirs back when replaced.
    const Timing t = time_median(repeats, [&] {
        AttentionResult r = mha.forward(x, x, x, fwd);
        recycle(r);
    });
    const double ms = t.wall_ms;
    const double E = static_cast<double>(o.embed_dim), tokens = static_cast<double>(N * L);
    const double flops =
        4.0 * 2.0 * tokens * E * E + 2.0 * 2.0 * tokens * static_cast<double>(L) * E;
    io::json::Writer w;
    w.begin_object()
        .member("bench", "attention")
        .member("tokens", L)
        .member("embed_dim", o.embed_dim)
        .member("num_heads", o.num_heads)
        .member("batch", N)
        .member("need_weights", !opt.no_weights)
        .member("threads", opt.threads)
        .member("isa", kernels::isa_name(kernels::best_isa()))
        .member("gemm", kernels::gemm_backend_description(kernels::gemm_backend()))
        .member("median_ms", ms, kMs)
        .member("cpu_ms", t.cpu_ms, kMs)
        .member("gflops", flops / (ms * 1e6), io::json::Format::fixed(2));
    std::printf("%s\n", w.end_object().str().c_str());
    return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* sub = app.add_subcommand(
        "bench",
        "Times one nn.MultiheadAttention forward pass (self-attention on random inputs and "
        "weights), or with --softmax the SIMD softmax over rows; prints one JSON line with "
        "the median time.  With --model, a trained model's forward pass.");
    sub->footer(
        "Examples:\n"
        "  attnviz bench --tokens 512 --embed-dim 768 --num-heads 12 --threads 2\n"
        "  attnviz bench --softmax --rows 4096 --cols 512\n"
        "  attnviz bench --model DIR --tokens 128 --threads 2\n"
        "  attnviz bench --model DIR --tokens 128 --threads 2 --backward --eap --dla");

    const char* layer = "Attention (the default)";
    CLI::Option* tokens = add_integer(*sub, "--tokens", &o->tokens, 1, 1 << 20, "N",
                                      "sequence length L, required without --softmax");
    CLI::Option* embed_dim = add_integer(*sub, "--embed-dim", &o->embed_dim, 1, 1 << 16, "E",
                                         "model width, required without --softmax");
    CLI::Option* num_heads =
        add_integer(*sub, "--num-heads", &o->num_heads, 1, 1 << 16, "H",
                    "heads, required without --softmax; must divide --embed-dim");
    CLI::Option* batch = add_integer(*sub, "--batch", &o->batch, std::int64_t{1},
                                     std::int64_t{1} << 16, "B", "sequences per pass");
    CLI::Option* no_weights =
        add_flag(*sub, "--no-weights", &o->no_weights,
                 "keep no weights, as nn.MultiheadAttention's need_weights=False: the layer "
                 "without writing its per-head weights and their mean");
    for (CLI::Option* opt : {tokens, embed_dim, num_heads, batch, no_weights})
        opt->group(layer);
    add_seed_options(*sub, &o->seeds, std::numeric_limits<std::int64_t>::max(),
                     SeedUse{.weights = true, .dropout = false});
    CLI::Option* seed = sub->get_option("--seed");

    const char* softmax_group = "Softmax";
    CLI::Option* softmax =
        add_flag(*sub, "--softmax", &o->softmax, "time the softmax over rows instead");
    CLI::Option* rows =
        add_integer(*sub, "--rows", &o->rows, 1, 1 << 24, "R", "rows, required with --softmax");
    CLI::Option* cols =
        add_integer(*sub, "--cols", &o->cols, 1, 1 << 24, "C", "columns, required with --softmax");
    CLI::Option* isa = add_text(*sub, "--isa", &o->isa, "NAME",
                                "accepted for old scripts; the widest instruction set the CPU "
                                "has is used, and named in the output");
    for (CLI::Option* opt : {softmax, rows, cols, isa})
        opt->group(softmax_group);
    for (CLI::Option* opt : {rows, cols, isa})
        opt->needs(softmax);
    for (CLI::Option* opt : {tokens, embed_dim, num_heads, batch, seed, no_weights})
        softmax->excludes(opt);

    add_integer(*sub, "--repeats", &o->repeats, 1, 1000, "R",
                "timed runs after one warm-up; default 7, or 9 with --softmax")
        ->group("Performance");
    add_threads_option(*sub, &o->threads);
    add_memory_budget_option(*sub, &o->memory);

    CLI::Option* model = add_text(*sub, "--model", &o->model, "DIR",
                                  "time a trained model's whole forward pass (every map kept) "
                                  "on --tokens random ids; also the open time and the sgemm peak")
                             ->group("A trained model");
    for (CLI::Option* opt : {embed_dim, num_heads, batch, seed, softmax, no_weights})
        model->excludes(opt);
    for (CLI::Option* opt :
         {add_flag(*sub, "--lm-head", &o->extras.lm_head,
                   "with --model: also the head's logits at every position"),
          add_flag(*sub, "--lens", &o->extras.lens,
                   "with --model: also the logit lens after every layer and its top-10"),
          add_integer(*sub, "--generate", &o->extras.generate, 1, 1 << 20, "M",
                      "with --model: also M new tokens after the --tokens prompt, against one "
                      "pass over as many tokens"),
          add_flag(*sub, "--patch", &o->extras.patch,
                   "with --model: also a patching sweep over every head, against one pass"),
          add_flag(*sub, "--backward", &o->extras.backward,
                   "with --model: also the backward pass (the gradient of log p at the last "
                   "position with respect to every head's output and the input embeddings); "
                   "prints forward_and_backward_passes and backward_passes, the second less the "
                   "one forward pass it runs"),
          add_flag(*sub, "--eap", &o->extras.eap,
                   "with --model: also attribution patching over every head, in passes"),
          add_flag(*sub, "--dla", &o->extras.dla,
                   "with --model: also logit attribution of every head, MLP and the embeddings "
                   "at the last position (pre-norm models), in passes"),
          add_flag(*sub, "--flow", &o->extras.flow,
                   "with --model: also the information flow over every layer and its graph at "
                   "the last position, in passes"),
          add_flag(*sub, "--circuits", &o->extras.circuits,
                   "with --model: also the composition and copying scores of every head, wall "
                   "and CPU seconds (about 10 s a run for a 0.5B model: give --repeats 1)")})
        opt->group("A trained model")->needs(model);

    ctx.on_parsed(
        sub,
        [o] {
            if (o->model) {
                bench_model(*o->model, *o->tokens, o->threads, o->repeats.value_or(7), std::cout,
                            o->extras);
                return 0;
            }
            return o->softmax ? bench_softmax(*o) : bench_attention(*o);
        },
        [o] {
            if (o->model) {
                if (!o->tokens) throw UsageError("--model needs --tokens N");
                return;
            }
            check(*o);
        });
}

}  // namespace attnviz::cli
