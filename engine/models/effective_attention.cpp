// Effective attention (effective_attention.h).
#include "engine/models/effective_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/models/vector_sums.h"
#include "engine/ops/gemm.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// Sources per block of f_h(x_j) vectors: a block of a 4,096-wide model's 32 heads is 16 MiB.
constexpr Index kSourceBlock = 32;

}  // namespace

void head_writes(const float* values, Index first, Index count, Index kv_heads, const Tensor& o,
                 Index heads, float* out) {
    const Index E = o.dim(0), d = o.dim(1) / heads, width = kv_heads * d;
    for (Index h = 0; h < heads; ++h)  // f_h(x_j) = v_j · W_O[:, h]ᵀ for every j at once
        ops::gemm(values + first * width + (h / (heads / kv_heads)) * d, count, d, o.ptr() + h * d,
                  E, out + h * E, true, width, heads * d, heads * E);
}

SourceGram::SourceGram(const float* values, Index sources, Index kv_heads, const Tensor& o,
                       Index heads, int threads)
    : sources_(sources), heads_(heads) {
    if (o.rank() != 2 || heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0 ||
        o.dim(1) % heads != 0 || sources < 0)
        throw std::invalid_argument("an output projection " + shape_string(o.shape) + " of " +
                                    std::to_string(heads) + " heads does not fit " +
                                    std::to_string(kv_heads) + " key/value heads");
    const Index E = o.dim(0), H = heads;
    gram_.assign(static_cast<std::size_t>(sources * H * H), 0.0);
    ops::parallel_for(
        static_cast<std::size_t>(sources), threads, [&](std::size_t b, std::size_t e) {
            std::vector<float> u(static_cast<std::size_t>(kSourceBlock * H * E));  // [j, h, E]
            for (auto j0 = static_cast<Index>(b); j0 < static_cast<Index>(e); j0 += kSourceBlock) {
                const Index n = std::min(kSourceBlock, static_cast<Index>(e) - j0);
                head_writes(values, j0, n, kv_heads, o, H, u.data());
                for (Index j = 0; j < n; ++j) {  // G_j = U_j U_jᵀ, U_j the [H, E] of source j
                    const float* uj = u.data() + j * H * E;
                    double* g = gram_.data() + (j0 + j) * H * H;
                    for (Index h = 0; h < H; ++h)
                        for (Index h2 = h; h2 < H; ++h2)
                            g[h * H + h2] = g[h2 * H + h] = detail::dot(uj + h * E, uj + h2 * E, E);
                }
            }
        });
}

double SourceGram::norm(Index j, Index h) const {
    return std::sqrt(at(j, h, h));
}

double SourceGram::combined_squared(Index j, const float* a, Index stride) const {
    const double* g = gram_.data() + j * heads_ * heads_;
    double s = 0.0;
    for (Index h = 0; h < heads_; ++h) {
        const double ah = a[h * stride];
        if (ah == 0.0) continue;  // causal zeros; a NaN still reaches the sum
        double row = 0.5 * g[h * heads_ + h] * ah;
        for (Index h2 = h + 1; h2 < heads_; ++h2)
            row += g[h * heads_ + h2] * a[h2 * stride];
        s += 2.0 * ah * row;
    }
    return s;
}

void effective_maps(const SourceGram& gram, const float* weights, Index rows, Index cols,
                    Index first_source, float* heads_out, Index kept, float* layer_out,
                    int threads) {
    const Index H = gram.heads();
    if (first_source < 0 || rows < 0 || cols < 0 || first_source + cols > gram.sources() ||
        kept < 0 || kept > H)
        throw std::invalid_argument("a map of sources [" + std::to_string(first_source) + ", " +
                                    std::to_string(first_source + cols) + ") and " +
                                    std::to_string(kept) + " heads does not fit " +
                                    std::to_string(gram.sources()) + " sources and " +
                                    std::to_string(H) + " heads");
    const Index plane = rows * cols;
    ops::parallel_for(static_cast<std::size_t>(rows), threads, [&](std::size_t b, std::size_t e) {
        for (auto i = static_cast<Index>(b); i < static_cast<Index>(e); ++i)
            for (Index c = 0; c < cols; ++c) {
                const Index j = first_source + c, at = i * cols + c;
                if (heads_out)
                    for (Index h = 0; h < kept; ++h)
                        heads_out[h * plane + at] =
                            static_cast<float>(weights[h * plane + at] * gram.norm(j, h));
                if (layer_out)  // rounding can take a zero norm a hair below 0
                    layer_out[at] = static_cast<float>(
                        std::sqrt(std::max(0.0, gram.combined_squared(j, weights + at, plane))));
            }
    });
}

EffectiveAttentionSink::EffectiveAttentionSink(const Model& model, AttentionSink& inner,
                                               const AttentionScope& scope, int threads)
    : model_(model), inner_(inner), scope_(scope), threads_(threads) {}

ModelForwardOptions EffectiveAttentionSink::pass_options(ModelForwardOptions options) {
    if (options.scope.only_head >= 0)
        throw std::invalid_argument(
            "effective attention needs every head's weights: a pass of one head has no layer map");
    options.scope.heads = -1;
    return options;
}

void EffectiveAttentionSink::on_values(std::int64_t layer, const Tensor& values) {
    values_layer_ = layer;
    values_ = values;
}

void EffectiveAttentionSink::on_layer(std::int64_t layer, AttentionResult&& attention) {
    const ModelConfig& c = model_.config();
    const Index H = c.num_heads;
    const Tensor& w = attention.weights;
    if (values_layer_ != layer || w.rank() != 4 || w.dim(1) != H)
        throw std::invalid_argument(
            "effective attention needs layer " + std::to_string(layer + 1) +
            "'s values and every head's weights: run the pass with pass_options()");
    const SourceGram gram(values_.ptr(), values_.dim(0), c.num_kv_heads,
                          model_.attention_weights(layer, AttentionParts::Output).o, H, threads_);
    values_ = Tensor();
    const Index rows = w.dim(2), cols = w.dim(3);
    const Index kept = scope_.heads < 0 ? H : std::min(scope_.heads, H);
    Tensor heads = kept > 0 ? Tensor({1, kept, rows, cols}) : Tensor();
    Tensor map({1, rows, cols});
    effective_maps(gram, w.ptr(), rows, cols, scope_.window_begin, kept > 0 ? heads.ptr() : nullptr,
                   kept, map.ptr(), threads_);
    attention.weights = std::move(heads);
    attention.mean_weights = std::move(map);
    inner_.on_layer(layer, std::move(attention));
}

EffectiveAttention effective_attention(const MultiHeadAttention& mha, const Tensor& value,
                                       const AttentionResult& result,
                                       const AttentionForwardOptions& fwd, Index kept_heads,
                                       int threads) {
    const MultiHeadAttentionOptions& o = mha.options();
    const Index E = o.embed_dim, H = o.num_heads, vdim = o.value_dim();
    const Tensor& w = result.weights;
    if (value.rank() != 3 || value.dim(2) != vdim)
        throw std::invalid_argument("values are " + shape_string(value.shape) + ", expected [N,S," +
                                    std::to_string(vdim) + "]");
    const Index N = value.dim(0), S = value.dim(1), Sp = result.source_length;
    if (w.rank() != 4 || w.dim(0) != N || w.dim(1) != H)
        throw std::invalid_argument("the weights are " + shape_string(w.shape) +
                                    ": effective attention needs every one of the " +
                                    std::to_string(H) + " heads of " + std::to_string(N) +
                                    " batch items");
    const Index rows = w.dim(2), cols = w.dim(3), k0 = fwd.key_begin;
    if (k0 < 0 || k0 + cols > Sp || Sp < S)
        throw std::invalid_argument("key columns [" + std::to_string(k0) + ", " +
                                    std::to_string(k0 + cols) + ") are not among the " +
                                    std::to_string(Sp) + " keys");
    const std::map<std::string, Tensor> state = mha.state_dict();
    // W_v [E, vdim]: the last third of a packed in-projection.
    const float* w_v = o.packed_in_proj() ? state.at("in_proj_weight").ptr() + 2 * E * E
                                          : state.at("v_proj_weight").ptr();
    const float* b_v = o.bias ? state.at("in_proj_bias").ptr() + 2 * E : nullptr;
    const Tensor& w_o = state.at("out_proj.weight");

    const Index kept = kept_heads < 0 ? H : std::min(kept_heads, H), plane = rows * cols;
    EffectiveAttention out{kept > 0 ? Tensor({N, kept, rows, cols}) : Tensor(),
                           Tensor({N, rows, cols})};
    std::vector<float> values(static_cast<std::size_t>(Sp * E), 0.0f);
    for (Index n = 0; n < N; ++n) {
        // The layer's values as attention reads them: projected, then bias_v and a zero row
        // appended after the projection, as PyTorch appends them.
        std::fill(values.begin(), values.end(), 0.0f);
        ops::gemm(value.ptr() + n * S * vdim, S, vdim, w_v, E, values.data(), true);
        if (b_v)
            for (Index j = 0; j < S; ++j)
                for (Index e = 0; e < E; ++e)
                    values[static_cast<std::size_t>(j * E + e)] += b_v[e];
        if (o.add_bias_kv) std::copy_n(state.at("bias_v").ptr(), E, values.begin() + S * E);
        const SourceGram gram(values.data(), Sp, H, w_o, H, threads);
        effective_maps(gram, w.ptr() + n * H * plane, rows, cols, k0,
                       kept > 0 ? out.heads.ptr() + n * kept * plane : nullptr, kept,
                       out.layer.ptr() + n * plane, threads);
    }
    return out;
}

}  // namespace attnviz::models
