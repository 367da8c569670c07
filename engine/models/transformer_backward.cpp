// The backward pass of the transformer (Model::gradients): reverse-mode differentiation of one
// metric with respect to every head's output and to the input embeddings, in float32.
//
// Only activations are differentiated, never weights, so each linear layer's backward is one
// product as large as its forward (dx = dy · W).  The forward keeps each layer's input; what a
// layer's backward reads of its inside (the attention probabilities, the MLP's pre-activation,
// the norms' inputs) is kept for every layer when it fits in kKeptTapeBytes, else recomputed
// from the layer's input just before its backward, the weights read again as a forward reads
// them (a streamed 8B model converts each layer once forwards and once backwards).  Heads
// knocked out or patched (GradientOptions::interventions) change the forward as a forward's
// interventions do; their slice is a constant, so the backward stops at it.
// As ops/nn.cpp: GCC 12's false -Wmaybe-uninitialized inside Eigen's inlined AVX-512 transposes.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/models/transformer.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models::detail {

/// What the backward of one layer reads of its forward.
struct LayerTape {
    std::vector<float> x_in;       ///< [L, E]: the layer's input (always kept)
    std::vector<float> projected;  ///< [L, ld]: q, k, v before Qwen3's q/k norms (with them only)
    std::vector<float> qkv;        ///< [L, ld]: q and k as the scores read them (unscaled), v
    std::vector<float> probs;      ///< [H, L, L]: the attention weights
    std::vector<float> concat;     ///< [L, H d]: the context, every head's output z
    /// Pre-norm: the stream after the attention (the MLP norm's input); post-norm: attention
    /// output + x_in (the first norm's input).
    std::vector<float> mid;
    std::vector<float> up;  ///< [L, width]: the MLP's pre-activation (gate | up)
    std::vector<float>
        out;  ///< post-norm: MLP output + the first norm's output (the second's input)
    bool recorded() const { return !qkv.empty(); }
    /// Everything but x_in, given back.
    void drop() {
        for (std::vector<float>* v : {&projected, &qkv, &probs, &concat, &mid, &up, &out})
            std::vector<float>().swap(*v);
    }
};

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;
using ConstMap = Eigen::Map<const RowMat, 0, Stride>;
using MutMap = Eigen::Map<RowMat, 0, Stride>;

/// Above this the layers' insides are recomputed during the backward pass rather than kept.
constexpr std::size_t kKeptTapeBytes = std::size_t{1} << 30;

/// The heads' layout in a [L, (H + 2 KV) d] projection.
struct HeadShape {
    Index H = 0, KV = 0, d = 0, L = 0;
    bool causal = false;
    float scale = 1.0f;
    Index ld() const { return (H + 2 * KV) * d; }
    Index group() const { return H / KV; }
};

/// P = softmax(scale q kᵀ) (causal: keys up to the query) and z = P v, for every head.  The
/// backward needs P, which the forward's streaming kernel (layers::attend) never keeps whole.
void attend_keeping(const HeadShape& s, const float* qkv, float* probs, float* concat,
                    int threads) {
    const Index L = s.L, d = s.d, ld = s.ld();
    ops::parallel_for(static_cast<std::size_t>(s.H), threads, [&](std::size_t h0, std::size_t h1) {
        for (auto h = static_cast<Index>(h0); h < static_cast<Index>(h1); ++h) {
            const Index g = h / s.group();
            const ConstMap q(qkv + h * d, L, d, Stride(ld));
            const ConstMap k(qkv + (s.H + g) * d, L, d, Stride(ld));
            const ConstMap v(qkv + (s.H + s.KV + g) * d, L, d, Stride(ld));
            MutMap P(probs + h * L * L, L, L, Stride(L));
            P.noalias() = (q * k.transpose()) * s.scale;
            for (Index r = 0; r < L; ++r) {
                const Index n = s.causal ? r + 1 : L;
                float* row = P.data() + r * L;
                const float top = *std::max_element(row, row + n);
                double sum = 0.0;
                for (Index c = 0; c < n; ++c) {
                    row[c] = std::exp(row[c] - top);
                    sum += row[c];
                }
                const auto inv = static_cast<float>(1.0 / sum);
                for (Index c = 0; c < n; ++c)
                    row[c] *= inv;
                std::fill(row + n, row + L, 0.0f);
            }
            MutMap(concat + h * d, L, d, Stride(s.H * d)).noalias() = P * v;
        }
    });
}

/// The scores' backward: from dz [L, H d] into dqkv [L, ld] (zeroed by the caller), dq of the
/// scaled-score query, dk and dv summed over each key/value head's query heads.
void attend_backward(const HeadShape& s, const float* qkv, const float* probs, const float* dz,
                     float* dqkv, int threads) {
    const Index L = s.L, d = s.d, ld = s.ld();
    // By key/value head: its query heads add into the same dk and dv.
    ops::parallel_for(static_cast<std::size_t>(s.KV), threads, [&](std::size_t g0, std::size_t g1) {
        RowMat dP(L, L);
        for (auto g = static_cast<Index>(g0); g < static_cast<Index>(g1); ++g) {
            const ConstMap k(qkv + (s.H + g) * d, L, d, Stride(ld));
            const ConstMap v(qkv + (s.H + s.KV + g) * d, L, d, Stride(ld));
            MutMap dk(dqkv + (s.H + g) * d, L, d, Stride(ld));
            MutMap dv(dqkv + (s.H + s.KV + g) * d, L, d, Stride(ld));
            for (Index h = g * s.group(); h < (g + 1) * s.group(); ++h) {
                const ConstMap q(qkv + h * d, L, d, Stride(ld));
                const ConstMap P(probs + h * L * L, L, L, Stride(L));
                const ConstMap dZ(dz + h * d, L, d, Stride(s.H * d));
                dP.noalias() = dZ * v.transpose();
                // Through the softmax: dS = P ⊙ (dP - Σ_j P_j dP_j), row by row.
                for (Index r = 0; r < L; ++r) {
                    double dot = 0.0;
                    for (Index c = 0; c < L; ++c)
                        dot += double(P(r, c)) * double(dP(r, c));
                    for (Index c = 0; c < L; ++c)
                        dP(r, c) = P(r, c) * (dP(r, c) - static_cast<float>(dot));
                }
                MutMap(dqkv + h * d, L, d, Stride(ld)).noalias() = (dP * k) * s.scale;
                dk.noalias() += (dP.transpose() * q) * s.scale;
                dv.noalias() += P.transpose() * dZ;
            }
        }
    });
}

void add(std::vector<float>& x, const std::vector<float>& y) {
    ops::add_inplace(x.data(), y.data(), x.size());
}

}  // namespace

void Transformer::tape_layer(const LayerWeights& w, Index layer, const std::vector<Index>& pos,
                             const float* x_in, float* x_out, LayerTape& tape, int threads,
                             Scratch& scratch,
                             const std::vector<HeadIntervention>& interventions) const {
    const Index E = config_.hidden_size, H = config_.num_heads, d = config_.head_dim;
    const auto L = static_cast<Index>(pos.size());
    const auto n = static_cast<std::size_t>(L * E);
    const bool pre = config_.pre_norm();
    std::vector<float> h;
    if (pre) {
        h.assign(x_in, x_in + n);
        norm(h.data(), L, w.norm1_w, w.norm1_b, threads);
    }
    const bool qk_norms = !w.q_norm.empty() || !w.k_norm.empty();
    project_qkv(w, pre ? h.data() : x_in, L, pos, threads, scratch, nullptr,
                qk_norms ? &tape.projected : nullptr);
    tape.qkv = scratch.qkv;
    const HeadShape shape{H, config_.num_kv_heads, d, L, config_.causal(), score_scale(layer)};
    tape.probs.resize(static_cast<std::size_t>(H * L * L));
    tape.concat.resize(static_cast<std::size_t>(L * H * d));
    attend_keeping(shape, tape.qkv.data(), tape.probs.data(), tape.concat.data(), threads);
    intervene(layer, tape.concat.data(), L, interventions);
    std::vector<float> a(n);
    weights_.product(tape.concat.data(), L, H * d, w.o_w, w.o_b, E, a.data(), threads, scratch);
    tape.mid.assign(x_in, x_in + n);
    add(tape.mid, a);
    if (pre) {
        std::copy(tape.mid.begin(), tape.mid.end(), x_out);
        if (config_.intermediate_size == 0) return;  // attention-only
        h = tape.mid;
        norm(h.data(), L, w.norm2_w, w.norm2_b, threads);
        mlp(w, h.data(), L, a.data(), threads, scratch, &tape.up);
        ops::add_inplace(x_out, a.data(), n);
        return;
    }
    std::vector<float> y = tape.mid;
    norm(y.data(), L, w.norm1_w, w.norm1_b, threads);
    mlp(w, y.data(), L, a.data(), threads, scratch, &tape.up);
    tape.out = std::move(a);
    add(tape.out, y);
    std::copy(tape.out.begin(), tape.out.end(), x_out);
    norm(x_out, L, w.norm2_w, w.norm2_b, threads);
}

void Transformer::layer_backward(const LayerWeights& w, Index layer, const std::vector<Index>& pos,
                                 const LayerTape& tape, float* dx, float* dz, int threads,
                                 Scratch& scratch,
                                 const std::vector<HeadIntervention>& interventions) const {
    const Index E = config_.hidden_size, H = config_.num_heads, KV = config_.num_kv_heads;
    const Index d = config_.head_dim, I = config_.intermediate_size;
    const auto L = static_cast<Index>(pos.size());
    const auto n = static_cast<std::size_t>(L * E);
    const bool pre = config_.pre_norm(), gated = config_.family == Family::Llama;
    const Index width = gated ? 2 * I : I;
    const auto eps = static_cast<float>(config_.norm_eps);
    // The MLP's input gradient of g = ∂m/∂(its output), into dh.
    const auto mlp_backward = [&](const float* g, std::vector<float>& dh) {
        std::vector<float> dact(static_cast<std::size_t>(L * I));
        weights_.input_gradient(g, L, E, w.down_w, I, dact.data(), threads, scratch);
        std::vector<float> dup(static_cast<std::size_t>(L * width));
        ops::parallel_for(
            static_cast<std::size_t>(L), threads, [&](std::size_t r0, std::size_t r1) {
                std::vector<float> act(static_cast<std::size_t>(I));
                for (auto r = static_cast<Index>(r0); r < static_cast<Index>(r1); ++r) {
                    const float* up = tape.up.data() + r * width;
                    const float* da = dact.data() + r * I;
                    float* du = dup.data() + r * width;
                    if (!gated) {  // down(act(up))
                        std::copy_n(da, I, du);
                        ops::activation_backward(up, du, static_cast<std::size_t>(I),
                                                 config_.activation);
                        continue;
                    }
                    // down(act(gate) · up): gate is the first I columns
                    std::copy_n(up, I, act.data());
                    ops::activate(act.data(), act.size(), config_.activation);
                    for (Index c = 0; c < I; ++c) {
                        du[c] = da[c] * up[I + c];
                        du[I + c] = da[c] * act[static_cast<std::size_t>(c)];
                    }
                    ops::activation_backward(up, du, static_cast<std::size_t>(I),
                                             config_.activation);
                }
            });
        dh.resize(n);
        weights_.input_gradient(dup.data(), L, width, w.up_w, E, dh.data(), threads, scratch);
    };
    std::vector<float> dh;
    // g: ∂m/∂(attention output + its residual), the stream the attention block added into.
    std::vector<float> g(dx, dx + n);
    if (pre) {
        if (I > 0) {
            mlp_backward(dx, dh);
            norm_backward(tape.mid.data(), dh.data(), L, w.norm2_w);
            add(g, dh);
        }
    } else {
        norm_backward(tape.out.data(), g.data(), L, w.norm2_w);
        mlp_backward(g.data(), dh);
        add(g, dh);  // the MLP's input is also the residual
        norm_backward(tape.mid.data(), g.data(), L, w.norm1_w);
    }
    // The attention: ∂m/∂z through the output projection, then the scores and q, k, v.
    weights_.input_gradient(g.data(), L, E, w.o_w, H * d, dz, threads, scratch);
    // A replaced head's slice is a constant: its gradient stops there (dz keeps it for the
    // caller; the scores' backward reads a copy without it).
    std::vector<float> through;
    for (const HeadIntervention& iv : interventions) {
        if (iv.head.layer != layer) continue;
        if (through.empty()) through.assign(dz, dz + L * H * d);
        for (Index r = 0; r < L; ++r)
            std::fill_n(through.data() + r * H * d + iv.head.head * d, d, 0.0f);
    }
    const HeadShape shape{H, KV, d, L, config_.causal(), score_scale(layer)};
    const Index ld = shape.ld();
    std::vector<float> dqkv(static_cast<std::size_t>(L * ld), 0.0f);
    attend_backward(shape, tape.qkv.data(), tape.probs.data(),
                    through.empty() ? dz : through.data(), dqkv.data(), threads);
    if (config_.rotary()) {  // the rotation's transpose: the same turn backwards
        std::vector<double> back(inv_freq_.size());
        std::transform(inv_freq_.begin(), inv_freq_.end(), back.begin(),
                       [](double f) { return -f; });
        ops::apply_rotary(dqkv.data(), L, H, d, ld, pos, back);
        ops::apply_rotary(dqkv.data() + H * d, L, KV, d, ld, pos, back);
    }
    if (!w.q_norm.empty())
        for (Index hh = 0; hh < H; ++hh)
            ops::rms_norm_backward(tape.projected.data() + hh * d, dqkv.data() + hh * d, L, d,
                                   w.q_norm.ptr, eps, ld);
    if (!w.k_norm.empty())
        for (Index kk = 0; kk < KV; ++kk)
            ops::rms_norm_backward(tape.projected.data() + (H + kk) * d, dqkv.data() + (H + kk) * d,
                                   L, d, w.k_norm.ptr, eps, ld);
    dh.resize(n);
    weights_.input_gradient(dqkv.data(), L, ld, w.qkv_w, E, dh.data(), threads, scratch);
    if (pre) norm_backward(tape.x_in.data(), dh.data(), L, w.norm1_w);
    add(g, dh);
    std::copy(g.begin(), g.end(), dx);
}

double Transformer::head_backward(const std::vector<float>& x, Index L,
                                  const GradientMetric& metric, const std::vector<Index>& ids,
                                  float* dx, int threads) const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    using Kind = GradientMetric::Kind;
    const bool causal = weights_.lm_head() == LmHeadKind::Causal;
    std::vector<Index> rows;
    if (metric.kind == Kind::SpanLoss)
        for (Index t = metric.span_begin; t < metric.span_end; ++t)
            rows.push_back(t);
    else
        rows.push_back(metric.position);
    const auto R = static_cast<Index>(rows.size());
    std::vector<float> xr(static_cast<std::size_t>(R * E));
    for (Index r = 0; r < R; ++r)
        std::copy_n(x.data() + rows[static_cast<std::size_t>(r)] * E, E, xr.data() + r * E);
    // The head's input, keeping what its backward reads.
    const HeadWeights& hw = weights_.head();
    std::vector<float> hin = xr, dense, active;
    if (causal) {
        const GlobalWeights& g = weights_.globals();
        norm(hin.data(), R, g.final_norm_w, g.final_norm_b, threads);
    } else {
        dense.resize(hin.size());
        ops::linear(xr.data(), R, E, hw.dense_w.ptr, hw.dense_b.ptr, E, dense.data(), threads, 0, 0,
                    hw.dense_w.in_out);
        active = dense;
        ops::activate(active.data(), active.size(), weights_.head_activation());
        hin = active;
        ops::layer_norm(hin.data(), R, E, hw.norm_w.ptr, hw.norm_b.ptr,
                        static_cast<float>(config_.norm_eps));
    }
    // ∂m/∂(head input) through the unembedding: two of its rows for a logit (difference), the
    // whole of it for a log-probability.
    std::vector<float> dh(static_cast<std::size_t>(R * E), 0.0f);
    double m = 0.0;
    if (metric.kind == Kind::Logit || metric.kind == Kind::LogitDifference) {
        std::vector<Index> cols = {metric.target};
        if (metric.kind == Kind::LogitDifference) cols.push_back(metric.distractor);
        const Tensor z = unembed(hin, R, threads, &cols);
        m = double(z.data[0]) - (cols.size() > 1 ? double(z.data[1]) : 0.0);
        std::vector<float> u(cols.size() * static_cast<std::size_t>(E));
        weights_.store().load_rows(weights_.unembed_name(), cols, u.data());
        for (Index e = 0; e < E; ++e)
            dh[static_cast<std::size_t>(e)] =
                u[static_cast<std::size_t>(e)] -
                (cols.size() > 1 ? u[static_cast<std::size_t>(E + e)] : 0.0f);
    } else {
        Tensor z = unembed(hin, R, threads, nullptr);  // [R, V], turned into ∂m/∂z in place
        const double scale = metric.kind == Kind::SpanLoss ? -1.0 / double(R) : 1.0;
        for (Index r = 0; r < R; ++r) {
            float* row = z.ptr() + r * V;
            const Index t =
                metric.kind == Kind::SpanLoss
                    ? ids[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)] + 1)]
                    : metric.target;
            const float top = *std::max_element(row, row + V);
            double sum = 0.0;
            for (Index v = 0; v < V; ++v)
                sum += std::exp(double(row[v]) - double(top));
            const double lse = double(top) + std::log(sum);
            m += scale * (double(row[t]) - lse);
            for (Index v = 0; v < V; ++v)  // ∂ log p(t) / ∂z = onehot(t) - softmax
                row[v] = static_cast<float>(-scale * std::exp(double(row[v]) - lse));
            row[t] += static_cast<float>(scale);
        }
        const HeadWeights& head = weights_.head();
        Weight streamed;
        if (head.unembed.empty()) streamed = streamed_unembedding();
        WeightScratch scratch;
        weights_.input_gradient(z.ptr(), R, V, head.unembed.empty() ? streamed : head.unembed, E,
                                dh.data(), threads, scratch);
        release_buffer(scratch.block);
    }
    // Back through the final norm, or the masked-LM head's transform.
    if (causal) {
        norm_backward(xr.data(), dh.data(), R, weights_.globals().final_norm_w);
    } else {
        ops::layer_norm_backward(active.data(), dh.data(), R, E, hw.norm_w.ptr,
                                 static_cast<float>(config_.norm_eps));
        ops::activation_backward(dense.data(), dh.data(), dh.size(), weights_.head_activation());
        std::vector<float> t(dh.size());
        ops::linear_input_gradient(dh.data(), R, E, hw.dense_w.ptr, E, t.data(), threads,
                                   hw.dense_w.in_out);
        dh = std::move(t);
    }
    std::fill_n(dx, L * E, 0.0f);
    for (Index r = 0; r < R; ++r)
        ops::add_inplace(dx + rows[static_cast<std::size_t>(r)] * E, dh.data() + r * E,
                         static_cast<std::size_t>(E));
    return m;
}

namespace {

/// The metric's own checks: what no pass can compute.
void check_metric(const ModelConfig& c, LmHeadKind head, const GradientMetric& m, Index L) {
    using Kind = GradientMetric::Kind;
    const Index V = c.vocab_size;
    if (m.kind == Kind::SpanLoss) {
        if (head != LmHeadKind::Causal)
            throw std::invalid_argument(
                "a masked language model predicts no next token: the loss over a span needs a "
                "causal model");
        if (m.span_begin < 0 || m.span_begin >= m.span_end || m.span_end > L - 1)
            throw std::invalid_argument("the span [" + std::to_string(m.span_begin + 1) + ", " +
                                        std::to_string(m.span_end) + "] is not within the " +
                                        std::to_string(L - 1) + " positions with a next token");
        return;
    }
    if (m.position < 0 || m.position >= L)
        throw std::invalid_argument("position " + std::to_string(m.position + 1) +
                                    " is not one of the " + std::to_string(L) + " tokens");
    for (const Index id : {m.target, m.kind == Kind::LogitDifference ? m.distractor : m.target})
        if (id < 0 || id >= V)
            throw std::invalid_argument("token id " + std::to_string(id) +
                                        " is outside the vocabulary of " + std::to_string(V));
}

/// Bytes one layer's tape holds at L tokens.
std::size_t tape_bytes(const ModelConfig& c, Index L) {
    const Index ld = (c.num_heads + 2 * c.num_kv_heads) * c.head_dim;
    const Index width = c.family == Family::Llama ? 2 * c.intermediate_size : c.intermediate_size;
    const Index floats =
        L * (3 * c.hidden_size + 2 * ld + c.num_heads * c.head_dim + width) + c.num_heads * L * L;
    return static_cast<std::size_t>(floats) * sizeof(float);
}

/// Whether a pass keeps every layer's tape (else each is recomputed before its backward).
bool keeps_tapes(const ModelConfig& c, Index L) {
    return tape_bytes(c, L) * static_cast<std::size_t>(c.num_layers) <= kKeptTapeBytes;
}

}  // namespace

Gradients Transformer::gradients(const ModelInput& input, const GradientMetric& metric,
                                 const GradientOptions& options) const {
    const auto L = static_cast<Index>(input.ids.size());
    if (L == 0) throw std::invalid_argument("the input has no tokens");
    if (weights_.lm_head() == LmHeadKind::None) throw DataError(weights_.lm_head_missing());
    check_metric(config_, weights_.lm_head(), metric, L);
    std::vector<const HeadIntervention*> every;
    for (const HeadIntervention& iv : options.interventions)
        every.push_back(&iv);
    check_interventions(L, every);
    const Index E = config_.hidden_size, N = config_.num_layers;
    const Index Z = config_.num_heads * config_.head_dim;
    const auto n = static_cast<std::size_t>(L * E);
    const int threads = std::max(1, options.num_threads);
    const std::vector<Index> pos = positions(input);
    Gradients out;
    out.embeddings = Tensor({L, E});
    if (options.input_embeddings) {
        if (options.input_embeddings->numel() != n)
            throw std::invalid_argument(
                "input_embeddings has " + std::to_string(options.input_embeddings->numel()) +
                " values for " + std::to_string(L) + " tokens × " + std::to_string(E));
        out.embeddings.data = options.input_embeddings->data;
    } else {
        embedding_sum(input, pos, out.embeddings.ptr());
    }
    const GlobalWeights& g = weights_.globals();
    std::vector<float> x = out.embeddings.data, next(n);
    if (!g.emb_norm_w.empty()) norm(x.data(), L, g.emb_norm_w, g.emb_norm_b, threads);

    // Forwards, each layer's input kept (and its inside, when every layer's fits).
    const bool keep = keeps_tapes(config_, L);
    std::vector<LayerTape> tapes(static_cast<std::size_t>(N));
    const bool stream = weights_.begin_pass(options.weight_cache_bytes);
    Scratch scratch;
    const Index steps = 2 * N;
    for (Index i = 0; i < N; ++i) {
        options.control.check();
        LayerTape& tape = tapes[static_cast<std::size_t>(i)];
        tape.x_in = x;
        const LayerWeights& w = weights_.layer(i, stream, scratch, threads);
        tape_layer(w, i, pos, x.data(), next.data(), tape, threads, scratch, options.interventions);
        if (!keep) tape.drop();
        x.swap(next);
        options.control.report(i + 1, steps);
    }
    std::vector<float> dx(n);
    out.metric = head_backward(x, L, metric, input.ids, dx.data(), threads);

    // Backwards, layer by layer.
    if (options.head_gradients) {
        out.contexts = Tensor({N, L, Z});
        out.head_gradients = Tensor({N, L, Z});
    }
    std::vector<float> dz(static_cast<std::size_t>(L * Z));
    for (Index i = N - 1; i >= 0; --i) {
        options.control.check();
        LayerTape& tape = tapes[static_cast<std::size_t>(i)];
        const LayerWeights& w = weights_.layer(i, stream, scratch, threads);
        if (!tape.recorded())
            tape_layer(w, i, pos, tape.x_in.data(), next.data(), tape, threads, scratch,
                       options.interventions);
        layer_backward(w, i, pos, tape, dx.data(), dz.data(), threads, scratch,
                       options.interventions);
        if (options.head_gradients) {
            std::copy(tape.concat.begin(), tape.concat.end(), out.contexts.ptr() + i * L * Z);
            std::copy(dz.begin(), dz.end(), out.head_gradients.ptr() + i * L * Z);
        }
        tape = LayerTape();
        options.control.report(2 * N - i, steps);
    }
    if (!g.emb_norm_w.empty()) norm_backward(out.embeddings.ptr(), dx.data(), L, g.emb_norm_w);
    out.embedding_gradients = Tensor({L, E}, std::move(dx));
    TransformerWeights::release_stream(scratch);
    return out;
}

}  // namespace attnviz::models::detail

namespace attnviz::models {

std::size_t gradient_bytes(const ModelConfig& c, std::int64_t tokens, const GradientMetric& metric,
                           bool head_gradients) {
    using detail::tape_bytes;
    const auto L = static_cast<std::size_t>(tokens);
    const auto N = static_cast<std::size_t>(c.num_layers);
    const auto E = static_cast<std::size_t>(c.hidden_size);
    const auto Z = static_cast<std::size_t>(c.num_heads * c.head_dim);
    const std::size_t tapes = detail::keeps_tapes(c, tokens)
                                  ? N * tape_bytes(c, tokens)
                                  : N * L * E * sizeof(float) + tape_bytes(c, tokens);
    // The head's logits and their gradient: every row of a span, else one.
    const std::size_t rows = metric.kind == GradientMetric::Kind::SpanLoss ? L : 1;
    const std::size_t head = 2 * rows * static_cast<std::size_t>(c.vocab_size) * sizeof(float);
    // A layer's backward buffers: the stream's gradients, q/k/v's, the MLP's and a [L, L] one.
    const auto width = static_cast<std::size_t>(2 * c.intermediate_size);
    const std::size_t layer =
        (4 * L * E + 2 * L * (Z + 2 * E) + 2 * L * width + L * L) * sizeof(float);
    const std::size_t outputs = (head_gradients ? 2 * N * L * Z : 0) + 4 * L * E;
    return tapes + head + layer + outputs * sizeof(float);
}

}  // namespace attnviz::models
