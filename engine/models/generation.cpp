// Generation with a key/value cache (transformer.h): the prompt in one pass, then each new
// token as one row of attention per head, chosen by a Sampler (sampling.h).
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "engine/buffers.h"
#include "engine/layers/attention_core.h"
#include "engine/models/sampling.h"
#include "engine/models/transformer.h"
#include "engine/ops/masks.h"

namespace attnviz::models::detail {

namespace {

/// ATTNVIZ_ROW_PRODUCTS=off multiplies a new token as a pass does (for comparisons).
bool row_products_allowed() {
    static const bool allowed = [] {
        const char* env = std::getenv("ATTNVIZ_ROW_PRODUCTS");
        return !(env && std::string_view(env) == "off");
    }();
    return allowed;
}

}  // namespace

/// One generate() call's state, shared by its steps.
struct GenerationRun {
    explicit GenerationRun(const GenerateOptions& o) : options(o), sampler(o) {}
    const GenerateOptions& options;
    Index P = 0, T = 0;  ///< prompt tokens; prompt and every new token allowed
    int threads = 1;
    /// A new token's step: for a small model the pool's wake-ups cost more than the rows of
    /// its products (generate()).
    int step_threads = 1;
    bool stream = false;      ///< the layers stream (TransformerWeights::begin_pass)
    bool intervened = false;  ///< heads knocked out: every step runs the whole text
    bool stepped = false;     ///< each new token is handed to options.on_step
    std::vector<Index> ids;   ///< the prompt and the new tokens so far
    KvCache cache;
    Generation g;
    GenerationStep handed;  ///< the new token's step being filled for on_step
    Scratch scratch;
    Sampler sampler;
};

void Transformer::cached_block(Index layer, float* x, Index n, Index t0, KvCache& cache,
                               AttentionResult* weights, int threads, bool stream,
                               Scratch& scratch) const {
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index E = config_.hidden_size, ld = (H + 2 * KV) * d, kvw = KV * d;
    const LayerWeights& w = weights_.layer(layer, stream, scratch, threads);
    std::vector<float> h(x, x + n * E), a(static_cast<std::size_t>(n * E));
    norm(h.data(), n, w.norm1_w, w.norm1_b, threads);
    std::vector<Index> pos(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        pos[static_cast<std::size_t>(i)] = t0 + i;
    std::vector<float>& qkv = scratch.qkv;
    project_qkv(w, h.data(), n, pos, threads, scratch);
    std::vector<float>& K = cache.k[static_cast<std::size_t>(layer)];
    std::vector<float>& Vc = cache.v[static_cast<std::size_t>(layer)];
    const float scale = score_scale(layer);
    for (Index i = 0; i < n; ++i) {
        float* row = qkv.data() + i * ld;
        std::copy_n(row + H * d, kvw, K.data() + (t0 + i) * kvw);
        std::copy_n(row + H * d + kvw, kvw, Vc.data() + (t0 + i) * kvw);
        for (Index c = 0; c < H * d; ++c)
            row[c] *= scale;
    }
    const Index S = t0 + n;
    layers::ProjectedHeads in = projected(K.data(), Vc.data(), kvw, ld, 1, S, scale);
    in.q = qkv.data();
    const ops::MaskSpec masks{nullptr, nullptr, true, 1, H, S, S, 0};
    AttentionForwardOptions part;
    part.query_begin = t0;
    part.query_count = n;
    layers::AttendOptions opt;
    opt.num_threads = threads;
    opt.need_weights = weights != nullptr;
    AttentionResult discarded;
    std::vector<float> concat(static_cast<std::size_t>(n * H * d));
    layers::attend(in, masks, layers::result_window(part, H, S, S), opt,
                   weights ? *weights : discarded, concat.data(), H * d);
    weights_.product(concat.data(), n, H * d, w.o_w, w.o_b, E, a.data(), threads, scratch);
    ops::add_inplace(x, a.data(), a.size());
    if (config_.intermediate_size > 0) {
        std::copy_n(x, n * E, h.data());
        norm(h.data(), n, w.norm2_w, w.norm2_b, threads);
        mlp(w, h.data(), n, a.data(), threads, scratch);
        ops::add_inplace(x, a.data(), a.size());
    }
}

Tensor Transformer::generation_step(GenerationRun& run, Index n, Index t0) const {
    const Index N = config_.num_layers, H = config_.num_heads, E = config_.hidden_size;
    const GenerateOptions& options = run.options;
    const Index P = run.P, T = run.T;
    Generation& g = run.g;
    GenerationStep& handed = run.handed;
    const int run_threads = n == 1 ? run.step_threads : run.threads;
    // A new token's products read each weight once, as the file stores it (a BF16 file: half
    // the bytes of a float32 copy); the prompt's many rows are multiplied as a pass's are.
    run.scratch.row_products = n == 1 && run.scratch.generating;
    ModelInput in;
    in.ids.assign(run.ids.end() - n, run.ids.end());
    std::vector<Index> pos(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        pos[static_cast<std::size_t>(i)] = t0 + i;
    std::vector<float> x(static_cast<std::size_t>(n * E));
    embed(in, pos, x.data());
    // The prompt's step is not a new token's: its rows are forward()'s.
    const bool hand = run.stepped && t0 >= P && !g.stopped;
    const Index S = t0 + n;
    if (hand) handed.attention = Tensor({N, H, S});
    for (Index l = 0; l < N; ++l) {
        AttentionResult r;
        cached_block(l, x.data(), n, t0, run.cache, options.attention || hand ? &r : nullptr,
                     run_threads, run.stream, run.scratch);
        if (hand)
            for (Index h = 0; h < H; ++h)
                std::copy_n(r.weights.ptr() + h * S, S, handed.attention.ptr() + (l * H + h) * S);
        if (options.attention)
            for (Index h = 0; h < H; ++h)
                for (Index i = 0; i < n; ++i)
                    std::copy_n(r.weights.ptr() + (h * n + i) * S, S,
                                g.attention.ptr() + ((l * H + h) * T + t0 + i) * T);
        if (options.attention || hand) recycle(r);
    }
    if (hand) {
        handed.position = t0;
        handed.id = run.ids[static_cast<std::size_t>(t0)];
        options.on_step(std::move(handed));
        handed = GenerationStep();
    }
    return Tensor({1, E}, std::vector<float>(x.end() - E, x.end()));
}

Tensor Transformer::next_logits(const Tensor& last, int threads, Scratch& scratch) const {
    if (!scratch.generating) return logits(last, {0}, threads, nullptr);
    // A causal head has no bias: the final norm, then the unembedding's rows, read as stored by
    // a new token's step, converted a block at a time by the prompt's (never kept as float32
    // for a generation: Qwen's is 544 MB).
    const Index E = config_.hidden_size, V = config_.vocab_size;
    std::vector<float> x = last.data;
    head_input(x, 1, threads);
    const Weight u = streamed_unembedding();
    Tensor out = take_tensor({1, V});
    weights_.product(x.data(), 1, E, u, Weight(), V, out.ptr(), threads, scratch);
    return out;
}

Tensor Transformer::intervened_generation_pass(GenerationRun& run, bool keep_attention) const {
    const Index N = config_.num_layers, H = config_.num_heads, T = run.T;
    ModelInput in;
    in.ids = run.ids;
    ModelForwardOptions o;
    o.attention = keep_attention;
    o.interventions = run.options.interventions;
    o.num_threads = run.threads;
    if (!keep_attention) {
        FinalStreamSink sink(N);
        forward(in, o, sink);
        return logits(sink.final, {static_cast<Index>(run.ids.size()) - 1}, run.threads, nullptr);
    }
    CollectingSink sink;
    forward(in, o, sink);
    const auto S = static_cast<Index>(run.ids.size());
    for (std::size_t k = 0; k < sink.results.size(); ++k)
        for (Index h = 0; h < H; ++h)
            for (Index i = 0; i < S; ++i)
                std::copy_n(sink.results[k].weights.ptr() + (h * S + i) * S, S,
                            run.g.attention.ptr() + ((sink.layers[k] * H + h) * T + i) * T);
    return Tensor();
}

Generation Transformer::generate(const std::vector<Index>& prompt,
                                 const GenerateOptions& options) const {
    if (!config_.causal())
        throw std::invalid_argument("generation needs a causal language model; " +
                                    config_.display_name() + " is a masked language model");
    const auto P = static_cast<Index>(prompt.size());
    if (P == 0) throw std::invalid_argument("the prompt has no tokens");
    if (options.max_new_tokens < 1)
        throw std::invalid_argument("max_new_tokens must be at least 1");
    const Index T = P + options.max_new_tokens;
    if (T > config_.max_positions)
        throw std::invalid_argument(
            std::to_string(P) + " prompt tokens and " + std::to_string(options.max_new_tokens) +
            " new ones are more than the " + std::to_string(config_.max_positions) +
            " positions of " + config_.display_name());
    for (const HeadIntervention& iv : options.interventions)
        if (iv.kind == HeadIntervention::Kind::Patch)
            throw std::invalid_argument(
                "generation takes knocked-out heads (zero, mean), not "
                "patched ones");
    const Index N = config_.num_layers, H = config_.num_heads, V = config_.vocab_size;
    GenerationRun run(options);
    run.P = P;
    run.T = T;
    run.intervened = !options.interventions.empty();
    run.threads = std::max(1, options.num_threads);
    const int threads = run.threads;
    if (!run.intervened) {
        const auto kv = static_cast<std::size_t>(T * config_.num_kv_heads * config_.head_dim);
        run.cache.k.assign(static_cast<std::size_t>(N), std::vector<float>(kv));
        run.cache.v.assign(static_cast<std::size_t>(N), std::vector<float>(kv));
        run.stream = weights_.begin_pass(std::nullopt);
        run.scratch.generating =
            options.stored_products && row_products_allowed() && weights_.rows_readable();
    }
    Generation& g = run.g;
    if (options.attention) g.attention = Tensor({N, H, T, T});
    std::vector<float> step_logits;
    run.ids = prompt;
    // A new token is one row: for a small model the pool's wake-ups cost more than the rows
    // of its products, so its steps run on the calling thread (a step of char-zh-en-4l: 1.35
    // ms on two threads, 0.23 ms on one); a large one streams its weights on every thread.
    run.step_threads = weight_bytes() >= (std::size_t{64} << 20) ? threads : 1;
    // Each new token's step for on_step: the logits it was chosen from, then its rows.
    run.stepped = options.on_step && !run.intervened;
    // The prompt in one pass, then one token at a time.
    Index t0 = 0, n = P;
    for (;;) {
        Tensor last = run.intervened
                          ? intervened_generation_pass(run, false)
                          : next_logits(generation_step(run, n, t0),
                                        n == 1 ? run.step_threads : threads, run.scratch);
        const Index next = run.sampler.pick(last.data);
        if (run.stepped) run.handed.logits = Tensor({V}, last.data);
        if (options.keep_logits)
            step_logits.insert(step_logits.end(), last.data.begin(), last.data.end());
        release_buffer(last);  // the next step's logits take it: no fresh pages each token
        g.ids.push_back(next);
        run.ids.push_back(next);
        g.eos = std::find(options.eos_ids.begin(), options.eos_ids.end(), next) !=
                options.eos_ids.end();
        g.stopped = options.on_token && !options.on_token(next);
        if (g.eos || g.stopped || static_cast<Index>(g.ids.size()) == options.max_new_tokens) break;
        t0 += n;
        n = 1;
    }
    const auto steps = static_cast<Index>(g.ids.size());
    if (options.keep_logits) g.logits = Tensor({steps, V}, std::move(step_logits));
    if (run.stepped && !g.stopped && !options.attention)
        generation_step(run, 1, P + steps - 1);  // the last rows
    if (options.attention) {
        // The last token's own row: one more step, without its logits.
        const Index total = P + steps;
        if (run.intervened)
            intervened_generation_pass(run, true);
        else
            generation_step(run, 1, total - 1);
        Tensor cropped({N, H, total, total});
        for (Index lh = 0; lh < N * H; ++lh)
            for (Index i = 0; i < total; ++i)
                std::copy_n(g.attention.ptr() + (lh * T + i) * T, total,
                            cropped.ptr() + (lh * total + i) * total);
        g.attention = std::move(cropped);
    }
    return std::move(run.g);
}

}  // namespace attnviz::models::detail
