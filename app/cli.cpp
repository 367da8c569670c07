#include "app/cli.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>

#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/io/options.h"
#include "engine/io/safetensors.h"
#include "engine/kernels/softmax.h"
#include "engine/layers/multi_head_attention.h"
#include "engine/ops/random.h"
#include "engine/ops/softmax.h"
#include "engine/text/tokenizer.h"

namespace attnviz::cli {

namespace {

using io::Options;

constexpr const char* kUsage =
    "usage: attnviz                         open the desktop app\n"
    "       attnviz FILE.attnviz            open a session\n"
    "       attnviz attend --weights W.safetensors --query Q.npy [--key K.npy] [--value V.npy]\n"
    "                      --num-heads H [--key-padding-mask M.npy] [--attn-mask A.npy]\n"
    "                      [--causal] [--add-zero-attn] [--dropout P --train --seed S]\n"
    "                      [--masked-rows zero|uniform|nan] [--threads T]\n"
    "                      [--heads-shown K | --mean-only] [--window START:LEN]\n"
    "                      [--memory-budget SIZE]\n"
    "                      --out-weights A.npy [--out-mean M.npy] [--out-output O.npy]\n"
    "       attnviz tokenize --text TEXT [--lowercase] [--special-tokens]\n"
    "       attnviz bench --tokens N --embed-dim E --num-heads H [--batch B] [--threads T]\n"
    "                     [--repeats R]\n"
    "       attnviz bench --softmax --rows R --cols C [--threads T] [--repeats R]\n"
    "       attnviz export --text TEXT --embed-dim E --num-heads H ... --out FILE.png|svg|pdf\n"
    "                      (see attnviz export --help)\n"
    "\n"
    "Memory: a computation that needs more than the memory budget is refused before\n"
    "anything is allocated (exit 1), with what fits instead.  The budget is\n"
    "--memory-budget SIZE, else ATTNVIZ_MEMORY_BUDGET, else half of the machine's memory\n"
    "(or of its cgroup limit); SIZE is bytes with K, M, G or T (2G, 512M) or a share (60%).\n"
    "attend keeps less of the result, each a slice of the full one:\n"
    "  --heads-shown K      per-head weights [N,K,L,S'] of the first K heads only; the\n"
    "                       mean (--out-mean) is still over every head\n"
    "  --mean-only          no per-head weights: write --out-mean (not --out-weights)\n"
    "  --window START:LEN   query rows and key columns START..START+LEN-1: weights\n"
    "                       [N,H,LEN,LEN], output [N,LEN,E]; the softmax still runs over\n"
    "                       every key, so a row's kept weights may sum to less than 1.\n"
    "                       On a shorter key sequence the window ends at its last token.\n";

const std::set<std::string> kSubcommands{"attend", "tokenize", "bench",    "help",
                                         "--help", "-h",       "--version"};

/// Folder of `path` exists and is a folder: checked before any work, so a run never
/// computes for minutes and then fails to write, and never leaves one output of two.
void require_output_folder(const std::string& path, const char* option) {
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw DataError(std::string(option) + " '" + path + "' is a folder, not a file");
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw DataError(std::string(option) + " '" + path + "': folder '" + parent.string() +
                        "' does not exist");
}

void require_finite(const Tensor& t, const std::string& what) {
    for (std::size_t i = 0; i < t.numel(); ++i)
        if (!std::isfinite(t.data[i]))
            throw DataError(what + ": element " + std::to_string(i) + " is " +
                            (std::isnan(t.data[i]) ? "NaN" : "infinite"));
}

void require_no_nan(const Mask& m, const std::string& what) {
    for (std::size_t i = 0; i < m.numel(); ++i)
        if (std::isnan(m.values[i]))
            throw DataError(what + ": element " + std::to_string(i) + " is NaN");
}

/// The memory budget of this run: --memory-budget, ATTNVIZ_MEMORY_BUDGET or the default.
/// (The window's own preference is not read: a script gives the same answer everywhere.)
budget::MemoryBudget memory_budget(const Options& opt) {
    try {
        return budget::resolve_memory_budget(opt.value_or("memory-budget", ""), "");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

/// Refuses configurations whose results would not fit in the budget, instead of dying later.
void require_memory(std::size_t bytes, const Options& opt) {
    const budget::MemoryBudget b = memory_budget(opt);
    if (bytes > b.bytes)
        throw DataError("needs " + budget::format_bytes(bytes) +
                        ", more than the memory budget of " + budget::describe_budget(b) +
                        "; use fewer tokens, heads or batch items, or a larger --memory-budget");
}

/// --heads-shown, --mean-only and --window as a ResultScope.
budget::ResultScope result_scope(const Options& opt, std::int64_t num_heads) {
    budget::ResultScope scope;
    if (opt.has("heads-shown") && opt.flag("mean-only"))
        throw UsageError("use either --heads-shown or --mean-only, not both");
    if (opt.has("heads-shown"))
        scope.heads_shown = static_cast<int>(opt.integer("heads-shown", 1, num_heads));
    if (opt.flag("mean-only")) scope.heads_shown = 0;
    if (opt.has("window")) {
        const std::string w = opt.required("window");
        const auto colon = w.find(':');
        std::int64_t start = -1, length = -1;
        const auto parse = [](std::string_view text, std::int64_t* out) {
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
            return ec == std::errc() && end == text.data() + text.size() && !text.empty();
        };
        if (colon == std::string::npos || !parse(std::string_view(w).substr(0, colon), &start) ||
            !parse(std::string_view(w).substr(colon + 1), &length) || start < 0 || length < 1)
            throw UsageError(
                "--window needs START:LEN, a first token (from 0) and a length "
                "(from 1), e.g. 0:512, not '" +
                w + "'");
        scope.window_start = start;
        scope.window_length = length;
    }
    return scope;
}

/// The forward options that keep `scope` of a [N, L, S] computation.
std::size_t tensor_bytes(const Tensor& t) {
    return t.numel() * sizeof(float) + 64;
}

Tensor unsqueeze0(Tensor t) {
    t.shape.insert(t.shape.begin(), 1);
    return t;
}

int attend(const Options& opt) {
    opt.allow(
        {"weights",     "query",   "key",           "value",    "num-heads",  "key-padding-mask",
         "attn-mask",   "causal",  "add-zero-attn", "dropout",  "train",      "seed",
         "masked-rows", "threads", "out-weights",   "out-mean", "out-output", "heads-shown",
         "mean-only",   "window",  "memory-budget"});
    const std::string weights_path = opt.required("weights");
    const std::string query_path = opt.required("query");
    const auto num_heads = opt.integer("num-heads", 1, 1 << 20);
    const budget::ResultScope scope = result_scope(opt, num_heads);
    const budget::MemoryBudget memory = memory_budget(opt);
    if (scope.mean_only() && opt.has("out-weights"))
        throw UsageError("--mean-only keeps no per-head weights: write the mean with --out-mean");
    if (scope.mean_only() && !opt.has("out-mean")) throw UsageError("--mean-only needs --out-mean");
    const std::string out_weights = scope.mean_only() ? "" : opt.required("out-weights");
    const float dropout = static_cast<float>(opt.real("dropout", 0.0, 1.0, true).value_or(0.0));
    const bool train = opt.flag("train");
    const auto seed = static_cast<std::uint64_t>(opt.integer_or("seed", 0, 0, INT64_MAX));
    const int threads = static_cast<int>(opt.integer_or("threads", 1, 1, 256));
    const MaskedRowPolicy policy =
        masked_row_policy_from_name(opt.choice("masked-rows", "zero", {"zero", "uniform", "nan"}));
    const std::string out_mean = opt.value_or("out-mean", "");
    const std::string out_output = opt.value_or("out-output", "");
    if (!out_weights.empty()) require_output_folder(out_weights, "--out-weights");
    if (!out_mean.empty()) require_output_folder(out_mean, "--out-mean");
    if (!out_output.empty()) require_output_folder(out_output, "--out-output");

    const io::TensorMap state = io::read_safetensors(weights_path);
    MultiHeadAttentionOptions options;
    try {
        options = options_from_state_dict(state, num_heads);
        options.add_zero_attn = opt.flag("add-zero-attn");
        options.dropout = dropout;
        options.validate();
    } catch (const std::invalid_argument& e) {
        throw DataError(weights_path + ": " + e.what());
    }
    MultiHeadAttention mha(options);
    try {
        mha.load_state_dict(state);
    } catch (const std::invalid_argument& e) {
        throw DataError(weights_path + ": " + e.what());
    }

    Tensor query = io::read_npy(query_path);
    require_finite(query, query_path);
    const std::string key_path = opt.value_or("key", "");
    const std::string value_path = opt.value_or("value", key_path);
    Tensor key = key_path.empty() ? query : io::read_npy(key_path);
    Tensor value = value_path.empty() ? query : io::read_npy(value_path);
    if (!key_path.empty()) require_finite(key, key_path);
    if (!value_path.empty()) require_finite(value, value_path);
    const bool unbatched = query.rank() == 2;  // PyTorch accepts [L, E] for one sequence
    if (unbatched) {
        query = unsqueeze0(std::move(query));
        if (key.rank() == 2) key = unsqueeze0(std::move(key));
        if (value.rank() == 2) value = unsqueeze0(std::move(value));
    }
    std::optional<Mask> kpm, attn_mask;
    if (const auto p = opt.value_or("key-padding-mask", ""); !p.empty()) {
        kpm = io::read_npy_mask(p);
        require_no_nan(*kpm, p);
        if (unbatched && kpm->shape.size() == 1) kpm->shape.insert(kpm->shape.begin(), 1);
    }
    if (const auto p = opt.value_or("attn-mask", ""); !p.empty()) {
        attn_mask = io::read_npy_mask(p);
        require_no_nan(*attn_mask, p);
    }
    AttentionForwardOptions fwd;
    fwd.key_padding_mask = kpm ? &*kpm : nullptr;
    fwd.attn_mask = attn_mask ? &*attn_mask : nullptr;
    fwd.causal = opt.flag("causal");
    fwd.training = train;
    fwd.dropout_seed = seed;
    fwd.masked_rows = policy;
    fwd.num_threads = threads;
    if (query.rank() == 3 && key.rank() == 3) {
        const std::int64_t N = query.dim(0), L = query.dim(1), S = key.dim(1);
        if (scope.windowed() && scope.window_start + scope.window_length > std::max(L, S))
            throw UsageError("--window " + std::to_string(scope.window_start) + ":" +
                             std::to_string(scope.window_length) + " ends after the last of " +
                             std::to_string(std::max(L, S)) + " tokens");
        // Everything this command holds: the inputs and parameters already read, the forward
        // pass, and the largest output file's bytes while it is written.
        std::size_t held = MultiHeadAttention::parameter_bytes(options) + tensor_bytes(query) +
                           tensor_bytes(key) + tensor_bytes(value);
        for (const auto& [name, t] : state)
            held += tensor_bytes(t) + name.size() + 96;
        for (const auto* m : {&kpm, &attn_mask})
            if (*m) held += (*m)->numel() * sizeof(float) + 64;
        const std::int64_t extra = (options.add_bias_kv ? 1 : 0) + (options.add_zero_attn ? 1 : 0);
        const auto footprint = [&](const budget::ResultScope& s) -> std::uint64_t {
            AttentionForwardOptions f = fwd;
            budget::restrict_forward(s, int(options.num_heads), L, S + (s.windowed() ? 0 : extra),
                                     &f);
            const std::size_t engine =
                MultiHeadAttention::estimate_forward_bytes(options, N, L, S, f);
            const budget::AxisWindow q = budget::window_on(s, L);
            const budget::AxisWindow k = budget::window_on(s, S + (s.windowed() ? 0 : extra));
            const double cells = double(N) * double(q.count) * double(k.count);
            const double file = std::max({cells * s.kept_heads(int(options.num_heads)), cells,
                                          double(N) * double(q.count) * double(options.embed_dim)});
            return held + engine + std::uint64_t(file * sizeof(float)) + 4096;
        };
        const budget::MemoryPlan plan = budget::plan_memory(
            footprint, scope, int(options.num_heads), std::max(L, S), memory.bytes);
        if (!plan.fits()) throw budget::MemoryBudgetExceeded(plan, memory);
        budget::restrict_forward(scope, int(options.num_heads), L,
                                 S + (scope.windowed() ? 0 : extra), &fwd);
    }
    AttentionResult r;
    try {
        r = mha.forward(query, key, value, fwd);
    } catch (const std::invalid_argument& e) {
        throw DataError(e.what());
    }
    if (unbatched) {  // PyTorch's unbatched shapes: [H, L, S'], [L, S'], [L, E]
        if (!r.weights.shape.empty()) r.weights.shape.erase(r.weights.shape.begin());
        r.mean_weights.shape.erase(r.mean_weights.shape.begin());
        r.output.shape.erase(r.output.shape.begin());
    }
    if (!out_weights.empty()) io::write_npy(out_weights, r.weights);
    if (!out_mean.empty()) io::write_npy(out_mean, r.mean_weights);
    if (!out_output.empty()) io::write_npy(out_output, r.output);
    return 0;
}

int tokenize(const Options& opt) {
    opt.allow({"text", "lowercase", "special-tokens"});
    const std::string text = opt.required("text");
    text::TokenizerOptions t;
    t.lowercase = opt.flag("lowercase");
    t.add_special_tokens = opt.flag("special-tokens");
    const auto tokens = text::tokenize(text, t);
    if (tokens.empty()) throw DataError("the text has no tokens (it is empty or only spaces)");
    std::printf("%s\n", text::tokens_to_json(tokens).c_str());
    return 0;
}

struct Timing {
    double wall_ms;  ///< median wall-clock time
    double cpu_ms;   ///< median CPU time of the process: robust to a busy machine's descheduling
};

double process_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

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

int bench_softmax(const Options& opt) {
    opt.allow({"softmax", "rows", "cols", "threads", "repeats", "isa", "memory-budget"});
    const auto rows = static_cast<std::size_t>(opt.integer("rows", 1, 1 << 24));
    const auto cols = static_cast<std::size_t>(opt.integer("cols", 1, 1 << 24));
    const int threads = static_cast<int>(opt.integer_or("threads", 1, 1, 256));
    const int repeats = static_cast<int>(opt.integer_or("repeats", 9, 1, 1000));
    require_memory(rows * cols * sizeof(float) * 2, opt);
    std::vector<float> input(rows * cols), work(rows * cols);
    ops::Random rng(1);
    for (float& v : input)
        v = rng.normal() * 4.0f;
    // The rows are restored from a copy before every run; the copy's time is subtracted.
    const Timing with_copy = time_median(repeats, [&] {
        std::copy(input.begin(), input.end(), work.begin());
        ops::softmax_rows(work.data(), rows, cols, MaskedRowPolicy::Zero, nullptr, threads);
    });
    const Timing copy_only =
        time_median(repeats, [&] { std::copy(input.begin(), input.end(), work.begin()); });
    const double net = std::max(with_copy.wall_ms - copy_only.wall_ms, 1e-6);
    std::printf(
        "{\"bench\":\"softmax\",\"rows\":%zu,\"cols\":%zu,\"threads\":%d,\"isa\":\"%s\","
        "\"median_ms\":%.4f,\"gelem_per_s\":%.4f}\n",
        rows, cols, threads, kernels::isa_name(kernels::best_isa()), net,
        static_cast<double>(rows * cols) / (net * 1e6));
    return 0;
}

int bench_attention(const Options& opt) {
    opt.allow({"tokens", "embed-dim", "num-heads", "batch", "threads", "repeats", "seed",
               "memory-budget"});
    MultiHeadAttentionOptions o;
    const auto L = opt.integer("tokens", 1, 1 << 20);
    o.embed_dim = opt.integer("embed-dim", 1, 1 << 16);
    o.num_heads = opt.integer("num-heads", 1, 1 << 16);
    const auto N = opt.integer_or("batch", 1, 1, 1 << 16);
    const int threads = static_cast<int>(opt.integer_or("threads", 1, 1, 256));
    const int repeats = static_cast<int>(opt.integer_or("repeats", 7, 1, 1000));
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    {
        AttentionForwardOptions fwd;
        fwd.num_threads = threads;
        require_memory(MultiHeadAttention::estimate_forward_bytes(o, N, L, L, fwd) +
                           MultiHeadAttention::parameter_bytes(o) +
                           std::size_t(N * L * o.embed_dim) * sizeof(float),
                       opt);
    }
    MultiHeadAttention mha(o);
    mha.reset_parameters(static_cast<std::uint64_t>(opt.integer_or("seed", 0, 0, INT64_MAX)));
    Tensor x({N, L, o.embed_dim});
    ops::Random rng(2);
    for (float& v : x.data)
        v = rng.normal();
    AttentionForwardOptions fwd;
    fwd.num_threads = threads;
    const Timing t = time_median(repeats, [&] { (void)mha.forward(x, x, x, fwd); });
    const double ms = t.wall_ms;
    const double E = static_cast<double>(o.embed_dim), tokens = static_cast<double>(N * L);
    const double flops =
        4.0 * 2.0 * tokens * E * E + 2.0 * 2.0 * tokens * static_cast<double>(L) * E;
    std::printf(
        "{\"bench\":\"attention\",\"tokens\":%lld,\"embed_dim\":%lld,\"num_heads\":%lld,"
        "\"batch\":%lld,\"threads\":%d,\"isa\":\"%s\",\"median_ms\":%.4f,\"cpu_ms\":%.4f,"
        "\"gflops\":%.2f}\n",
        static_cast<long long>(L), static_cast<long long>(o.embed_dim),
        static_cast<long long>(o.num_heads), static_cast<long long>(N), threads,
        kernels::isa_name(kernels::best_isa()), ms, t.cpu_ms, flops / (ms * 1e6));
    return 0;
}

int dispatch(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::printf("attnviz %s\n", ATTNVIZ_VERSION);
        return 0;
    }
    const std::string& cmd = args[0];
    const Options opt = Options::parse(std::vector<std::string>(args.begin() + 1, args.end()));
    if (opt.flag("help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (cmd == "attend") return attend(opt);
    if (cmd == "tokenize") return tokenize(opt);
    if (cmd == "bench") return opt.flag("softmax") ? bench_softmax(opt) : bench_attention(opt);
    throw UsageError("unknown command '" + cmd + "' (expected attend, tokenize, bench or export)");
}

}  // namespace

bool is_subcommand(const std::string& name) {
    return kSubcommands.count(name) > 0;
}

int run(const std::vector<std::string>& args) {
    const std::string prefix = "attnviz" + (args.empty() ? std::string() : " " + args[0]) + ": ";
    try {
        return dispatch(args);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "%s%s\n(see attnviz --help)\n", prefix.c_str(), e.what());
        return 2;
    } catch (const DataError& e) {
        std::fprintf(stderr, "%s%s\n", prefix.c_str(), e.what());
        return 1;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s%s\n", prefix.c_str(), e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%sout of memory\n", prefix.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s%s\n", prefix.c_str(), e.what());
        return 1;
    }
}

}  // namespace attnviz::cli
