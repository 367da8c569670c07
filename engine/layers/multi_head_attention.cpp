#include "engine/layers/multi_head_attention.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/layers/attention_core.h"
#include "engine/ops/gemm.h"
#include "engine/ops/masks.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"
#include "engine/ops/random.h"

namespace attnviz {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat>;
using MutMap = Eigen::Map<RowMat>;
using Stride = Eigen::OuterStride<>;
using ConstStrided = Eigen::Map<const RowMat, 0, Stride>;
using MutStrided = Eigen::Map<RowMat, 0, Stride>;
using Eigen::Index;

using ops::linear;

std::string tensor_name_and_shape(const std::string& name, const Shape& s) {
    return "'" + name + "' " + shape_string(s);
}

void xavier_uniform(Tensor& t, std::int64_t fan_in, std::int64_t fan_out, ops::Random& rng) {
    const float bound = std::sqrt(6.0f / static_cast<float>(fan_in + fan_out));
    for (float& v : t.data)
        v = rng.uniform(-bound, bound);
}

void check_finite(const std::string& name, const Tensor& t) {
    for (std::size_t i = 0; i < t.numel(); ++i)
        if (!std::isfinite(t.data[i]))
            throw std::invalid_argument("weight " + name + " has a non-finite value (" +
                                        std::to_string(t.data[i]) + ") at index " +
                                        std::to_string(i));
}

using layers::copy_block;

}  // namespace

const char* scoring_name(Scoring s) {
    return s == Scoring::Additive ? "additive" : "scaled_dot_product";
}

Scoring scoring_from_name(const std::string& name) {
    if (name == "dot" || name == "scaled_dot_product" || name == "sdp")
        return Scoring::ScaledDotProduct;
    if (name == "additive" || name == "bahdanau") return Scoring::Additive;
    throw std::invalid_argument("unknown scoring '" + name +
                                "' (expected scaled_dot_product or additive)");
}

const char* masked_row_policy_name(MaskedRowPolicy p) {
    switch (p) {
        case MaskedRowPolicy::Zero:
            return "zero";
        case MaskedRowPolicy::Uniform:
            return "uniform";
        case MaskedRowPolicy::NaN:
            return "nan";
    }
    return "zero";
}

namespace {
constexpr MaskedRowPolicy kMaskedRowPolicies[] = {MaskedRowPolicy::Zero, MaskedRowPolicy::Uniform,
                                                  MaskedRowPolicy::NaN};
}  // namespace

MaskedRowPolicy masked_row_policy_from_name(const std::string& name) {
    for (const MaskedRowPolicy p : kMaskedRowPolicies)
        if (name == masked_row_policy_name(p)) return p;
    throw std::invalid_argument("unknown masked-row policy '" + name +
                                "' (expected zero, uniform or nan)");
}

std::vector<std::string> masked_row_policy_names() {
    std::vector<std::string> names;
    for (const MaskedRowPolicy p : kMaskedRowPolicies)
        names.emplace_back(masked_row_policy_name(p));
    return names;
}

void MultiHeadAttentionOptions::validate() const {
    if (embed_dim <= 0)
        throw std::invalid_argument("embed_dim must be positive, got " + std::to_string(embed_dim));
    if (num_heads <= 0)
        throw std::invalid_argument("num_heads must be positive, got " + std::to_string(num_heads));
    if (embed_dim % num_heads != 0)
        throw std::invalid_argument("embed_dim " + std::to_string(embed_dim) +
                                    " is not divisible by num_heads " + std::to_string(num_heads));
    if (kdim < 0 || vdim < 0)
        throw std::invalid_argument("kdim and vdim must be positive (or 0 for embed_dim)");
    if (!(dropout >= 0.0f && dropout < 1.0f))
        throw std::invalid_argument("dropout must be in [0, 1), got " + std::to_string(dropout));
}

MultiHeadAttentionOptions options_from_state_dict(const std::map<std::string, Tensor>& state,
                                                  std::int64_t num_heads) {
    MultiHeadAttentionOptions o;
    o.num_heads = num_heads;
    auto find = [&](const char* n) -> const Tensor* {
        auto it = state.find(n);
        return it == state.end() ? nullptr : &it->second;
    };
    const Tensor* wo = find("out_proj.weight");
    if (!wo || wo->rank() != 2 || wo->dim(0) != wo->dim(1))
        throw std::invalid_argument("weights have no square 'out_proj.weight' [E,E]");
    o.embed_dim = wo->dim(0);
    if (const Tensor* k = find("k_proj_weight"); k && k->rank() == 2) o.kdim = k->dim(1);
    if (const Tensor* v = find("v_proj_weight"); v && v->rank() == 2) o.vdim = v->dim(1);
    o.bias = find("in_proj_bias") != nullptr || find("out_proj.bias") != nullptr;
    o.add_bias_kv = find("bias_k") != nullptr || find("bias_v") != nullptr;
    if (find("additive_v")) o.scoring = Scoring::Additive;
    return o;
}

MultiHeadAttention::MultiHeadAttention(const MultiHeadAttentionOptions& options)
    : options_(options) {
    options_.validate();
    reset_parameters(0);
}

void MultiHeadAttention::pack_weights() {
    // The products read the weights as [in, out]: oneDNN's sgemm runs 5-10% faster on this
    // layer's shapes than with nn.Linear's [out, in] used transposed (bench/gemm_bench's "B"
    // rows), which is most of what separates the layer from the machine's peak at 128 tokens.
    const auto E = options_.embed_dim;
    w_o_in_out_ = Tensor({E, E});
    ops::transpose(w_o_.ptr(), E, E, w_o_in_out_.ptr());
    w_qkv_ = Tensor();
    if (!options_.packed_in_proj()) return;
    std::vector<float> packed(static_cast<std::size_t>(3 * E * E));
    auto out = packed.begin();
    for (const Tensor* p : {&w_q_, &w_k_, &w_v_})
        out = std::copy(p->data.begin(), p->data.end(), out);
    w_qkv_ = Tensor({E, 3 * E});
    ops::transpose(packed.data(), 3 * E, E, w_qkv_.ptr());
}

void MultiHeadAttention::reset_parameters(std::uint64_t seed) {
    const auto E = options_.embed_dim, kd = options_.key_dim(), vd = options_.value_dim();
    const auto H = options_.num_heads, d = options_.head_dim();
    ops::Random rng(seed);
    w_q_ = Tensor({E, E});
    w_k_ = Tensor({E, kd});
    w_v_ = Tensor({E, vd});
    if (options_.packed_in_proj()) {
        // One xavier_uniform_ over the packed [3E, E] matrix, as PyTorch does.
        for (Tensor* w : {&w_q_, &w_k_, &w_v_})
            xavier_uniform(*w, E, 3 * E, rng);
    } else {
        xavier_uniform(w_q_, E, E, rng);
        xavier_uniform(w_k_, kd, E, rng);
        xavier_uniform(w_v_, vd, E, rng);
    }
    b_in_ = options_.bias ? Tensor({3 * E}) : Tensor();
    w_o_ = Tensor({E, E});
    const float bound = 1.0f / std::sqrt(static_cast<float>(E));  // nn.Linear's default
    for (float& v : w_o_.data)
        v = rng.uniform(-bound, bound);
    b_o_ = options_.bias ? Tensor({E}) : Tensor();
    bias_k_ = bias_v_ = Tensor();
    if (options_.add_bias_kv) {
        bias_k_ = Tensor({E});
        bias_v_ = Tensor({E});
        const float stddev = std::sqrt(2.0f / static_cast<float>(E + E));  // xavier_normal_
        for (Tensor* t : {&bias_k_, &bias_v_})
            for (float& v : t->data)
                v = stddev * rng.normal();
    }
    additive_v_ = Tensor();
    if (options_.scoring == Scoring::Additive) {
        additive_v_ = Tensor({H, d});
        const float b = 1.0f / std::sqrt(static_cast<float>(d));
        for (float& v : additive_v_.data)
            v = rng.uniform(-b, b);
    }
    pack_weights();
}

void MultiHeadAttention::load_state_dict(const std::map<std::string, Tensor>& state) {
    const auto E = options_.embed_dim, kd = options_.key_dim(), vd = options_.value_dim();
    std::set<std::string> used;
    auto take = [&](const std::string& name, const Shape& want, bool required) -> const Tensor* {
        auto it = state.find(name);
        if (it == state.end()) {
            if (required)
                throw std::invalid_argument("weights have no tensor '" + name + "' " +
                                            shape_string(want));
            return nullptr;
        }
        // PyTorch stores bias_k/bias_v as [1,1,E]: accept any shape with the right elements.
        const bool same = it->second.shape == want ||
                          ((name == "bias_k" || name == "bias_v") &&
                           it->second.numel() == shape_numel(want) && it->second.rank() == 3);
        if (!same)
            throw std::invalid_argument(
                "weight " + tensor_name_and_shape(name, it->second.shape) +
                " does not fit: expected " + shape_string(want) + " for embed_dim " +
                std::to_string(E) +
                (name.find("proj_weight") != std::string::npos
                     ? ", kdim " + std::to_string(kd) + ", vdim " + std::to_string(vd)
                     : std::string()));
        check_finite(name, it->second);
        used.insert(name);
        return &it->second;
    };

    Tensor wq({E, E}), wk({E, kd}), wv({E, vd});
    if (state.count("in_proj_weight")) {
        if (!options_.packed_in_proj())
            throw std::invalid_argument(
                "weights are packed ('in_proj_weight') but kdim/vdim differ from embed_dim; "
                "PyTorch uses q_proj_weight, k_proj_weight, v_proj_weight then");
        const Tensor* w = take("in_proj_weight", {3 * E, E}, true);
        const auto n = static_cast<std::size_t>(E * E);
        std::copy_n(w->data.begin(), n, wq.data.begin());
        std::copy_n(w->data.begin() + static_cast<std::ptrdiff_t>(n), n, wk.data.begin());
        std::copy_n(w->data.begin() + static_cast<std::ptrdiff_t>(2 * n), n, wv.data.begin());
    } else {
        wq = *take("q_proj_weight", {E, E}, true);
        wk = *take("k_proj_weight", {E, kd}, true);
        wv = *take("v_proj_weight", {E, vd}, true);
    }
    Tensor b_in, b_o, bk, bv, av;
    if (options_.bias) {
        b_in = *take("in_proj_bias", {3 * E}, true);
        b_o = *take("out_proj.bias", {E}, true);
    }
    const Tensor wo = *take("out_proj.weight", {E, E}, true);
    if (options_.add_bias_kv) {
        bk = *take("bias_k", {1, 1, E}, true);
        bv = *take("bias_v", {1, 1, E}, true);
        bk.shape = bv.shape = {E};
    }
    if (options_.scoring == Scoring::Additive)
        av = *take("additive_v", {options_.num_heads, options_.head_dim()}, true);
    for (const auto& [name, t] : state)
        if (!used.count(name))
            throw std::invalid_argument(
                "weights have an unexpected tensor " + tensor_name_and_shape(name, t.shape) +
                " for these options (bias " + (options_.bias ? "on" : "off") + ", add_bias_kv " +
                (options_.add_bias_kv ? "on" : "off") + ")");
    // Everything checked: commit.
    w_q_ = std::move(wq);
    w_k_ = std::move(wk);
    w_v_ = std::move(wv);
    b_in_ = std::move(b_in);
    b_o_ = std::move(b_o);
    w_o_ = wo;
    bias_k_ = std::move(bk);
    bias_v_ = std::move(bv);
    additive_v_ = std::move(av);
    pack_weights();
}

std::map<std::string, Tensor> MultiHeadAttention::state_dict() const {
    const auto E = options_.embed_dim;
    std::map<std::string, Tensor> s;
    if (options_.packed_in_proj()) {
        Tensor w({3 * E, E});
        auto out = w.data.begin();
        for (const Tensor* p : {&w_q_, &w_k_, &w_v_})
            out = std::copy(p->data.begin(), p->data.end(), out);
        s["in_proj_weight"] = std::move(w);
    } else {
        s["q_proj_weight"] = w_q_;
        s["k_proj_weight"] = w_k_;
        s["v_proj_weight"] = w_v_;
    }
    if (options_.bias) {
        s["in_proj_bias"] = b_in_;
        s["out_proj.bias"] = b_o_;
    }
    s["out_proj.weight"] = w_o_;
    if (options_.add_bias_kv) {
        s["bias_k"] = Tensor({1, 1, E}, bias_k_.data);
        s["bias_v"] = Tensor({1, 1, E}, bias_v_.data);
    }
    if (options_.scoring == Scoring::Additive) s["additive_v"] = additive_v_;
    return s;
}

namespace {

using layers::result_window;
using layers::ResultWindow;
using layers::rows_per_block;

// A heap block costs its size rounded up to 16 bytes plus an 8-byte header (glibc); small
// tensors pay that on their shape vector too.
constexpr double kBlockOverhead = 32.0;

}  // namespace

void recycle(AttentionResult& result) {
    for (Tensor* t : {&result.output, &result.weights, &result.mean_weights})
        release_buffer(*t);
}

std::size_t MultiHeadAttention::parameter_bytes(const MultiHeadAttentionOptions& o) {
    const double E = double(o.embed_dim), kd = double(o.key_dim()), vd = double(o.value_dim());
    double floats = E * E + E * kd + E * vd + E * E + 3 * E + E + 2 * E;  // w_q,k,v, w_o, biases
    floats += E * E;                                                      // w_o_in_out_
    if (o.packed_in_proj()) floats += 3 * E * E;                          // w_qkv_
    if (o.scoring == Scoring::Additive) floats += E;
    return static_cast<std::size_t>(floats * sizeof(float) + 12 * kBlockOverhead);
}

std::size_t MultiHeadAttention::estimate_forward_bytes(const MultiHeadAttentionOptions& o,
                                                       std::int64_t batch, std::int64_t target_len,
                                                       std::int64_t source_len,
                                                       const AttentionForwardOptions& fwd) {
    const Index extra = (o.add_bias_kv ? 1 : 0) + (o.add_zero_attn ? 1 : 0);
    const Index Sp = source_len + extra;
    const ResultWindow w = result_window(fwd, o.num_heads, target_len, Sp);
    const double E = double(o.embed_dim), H = double(o.num_heads), N = double(batch);
    const double L = double(target_len), S = double(source_len), Spd = double(Sp);
    const double d = o.num_heads ? E / H : 0.0;
    const double rows = double(w.rows), cols = double(w.cols), kept = double(w.heads);
    const int threads = std::max(1, fwd.num_threads);

    // Projections: fused [N*L, 3E], or Q for the window rows, K and V (and K's unpadded copy).
    const double fused = 3 * N * L * E;
    const double split = N * rows * E + 2 * N * Spd * E + (extra ? N * S * E : 0.0);
    double floats = std::max(fused, split);
    if (fwd.need_intermediates) floats += N * rows * E;  // unscaled Q
    if (fwd.need_weights) floats += N * kept * rows * cols + N * rows * cols;
    floats += 2 * N * rows * E;  // concat, output
    double bytes = floats * sizeof(float);
    bytes += N * H * rows;  // fully masked rows
    double blocks = 8;
    if (fwd.need_intermediates) {
        // Per (item, head): q, k, v, five [rows, S'] stages and the context.
        bytes += N * H * (2 * rows * d + 2 * Spd * d + 5 * rows * Spd) * sizeof(float);
        bytes += N * H * sizeof(HeadSteps);
        blocks += N * H * 18;  // each tensor's data and shape
    }
    // Every head's keys and values packed for the attention kernels, once per pass.
    bytes += double(layers::packed_heads_floats(batch, o.num_heads, Sp, Index(d))) * sizeof(float) +
             2 * kBlockOverhead;
    // Per thread: the scratch rows of one block and the sum of its heads' kept columns, and the
    // packed operands of the projections' matrix products (the GEMM backend's
    // blocking, bounded by the operands themselves) plus the backend's own workspace.
    const double rpb = double(rows_per_block(w.rows, Sp, batch, threads));
    const double per_thread = rpb * Spd + (fwd.need_weights ? rpb * cols : 0.0) + E * (rpb + E);
    bytes += threads * (per_thread * sizeof(float) + 4 * kBlockOverhead +
                        static_cast<double>(ops::gemm_scratch_bytes()));
    bytes += blocks * kBlockOverhead;
    return bytes >= static_cast<double>(std::numeric_limits<std::size_t>::max())
               ? std::numeric_limits<std::size_t>::max()
               : static_cast<std::size_t>(bytes);
}

std::size_t MultiHeadAttention::estimate_forward_bytes(const MultiHeadAttentionOptions& o,
                                                       std::int64_t batch, std::int64_t target_len,
                                                       std::int64_t source_len,
                                                       bool need_intermediates) {
    AttentionForwardOptions fwd;
    fwd.need_intermediates = need_intermediates;
    return estimate_forward_bytes(o, batch, target_len, source_len, fwd);
}

namespace {

/// One forward pass's sizes: N items, L queries of which the window's rows [q0, q0 + Lw),
/// S keys and S' = S + extra columns (bias_k, zero attention), E = H * d wide.
struct ForwardShape {
    Index N = 0, L = 0, S = 0, extra = 0, Sp = 0;
    Index E = 0, H = 0, d = 0;
    Index q0 = 0, Lw = 0;
    int threads = 1;
};

/// The sizes of query, key and value checked against the options and each other.
ForwardShape checked_shape(const MultiHeadAttentionOptions& o, const Tensor& query,
                           const Tensor& key, const Tensor& value) {
    const Index E = o.embed_dim, kd = o.key_dim(), vd = o.value_dim();
    if (query.rank() != 3 || query.dim(2) != E)
        throw std::invalid_argument("query is " + shape_string(query.shape) +
                                    " but should be [N, L, " + std::to_string(E) + "] (embed_dim " +
                                    std::to_string(E) + ")");
    const Index N = query.dim(0), L = query.dim(1);
    if (key.rank() != 3 || key.dim(0) != N || key.dim(2) != kd)
        throw std::invalid_argument("key is " + shape_string(key.shape) + " but should be [" +
                                    std::to_string(N) + ", S, " + std::to_string(kd) + "] (kdim " +
                                    std::to_string(kd) + ")");
    const Index S = key.dim(1);
    if (value.rank() != 3 || value.dim(0) != N || value.dim(1) != S || value.dim(2) != vd)
        throw std::invalid_argument("value is " + shape_string(value.shape) + " but should be [" +
                                    std::to_string(N) + ", " + std::to_string(S) + ", " +
                                    std::to_string(vd) + "] (vdim " + std::to_string(vd) + ")");
    if (N == 0 || L == 0)
        throw std::invalid_argument("query " + shape_string(query.shape) + " has no tokens");
    if (S == 0 && !o.add_bias_kv && !o.add_zero_attn)
        throw std::invalid_argument("key " + shape_string(key.shape) + " has no tokens");
    ForwardShape z;
    z.N = N;
    z.L = L;
    z.S = S;
    z.extra = (o.add_bias_kv ? 1 : 0) + (o.add_zero_attn ? 1 : 0);
    z.Sp = S + z.extra;
    z.E = E;
    z.H = o.num_heads;
    z.d = o.head_dim();
    return z;
}

/// Q, K and V after projection, in buffers of this pass, as row-strided views: q row r of the
/// window (all items) at q + r * ldq; k and v rows of batch item n at (n * Sp + j) * ld.
struct Projected {
    std::vector<float> qkv, q_own, k_own, v_own;
    float *q = nullptr, *k = nullptr, *v = nullptr;
    Index ldq = 0, ldk = 0, ldv = 0;
};

/// Self-attention with packed weights: one [N*L, E] x [E, 3E] product instead of three.
Projected project_fused(const Tensor& x, const Tensor& w_qkv, const float* b,
                        const ForwardShape& z) {
    const Index E = z.E;
    Projected pr;
    pr.qkv = take_buffer(static_cast<std::size_t>(z.N * z.L * 3 * E));
    linear(x.ptr(), z.N * z.L, E, w_qkv.ptr(), b, 3 * E, pr.qkv.data(), z.threads, 0, 0, true);
    pr.q = pr.qkv.data();
    pr.k = pr.qkv.data() + E;
    pr.v = pr.qkv.data() + 2 * E;
    pr.ldq = pr.ldk = pr.ldv = 3 * E;
    return pr;
}

/// One input's projection to E columns: x W + b, W with in_dim rows.  bias_row (null: none)
/// is bias_k or bias_v, appended after the keys.
struct InputProjection {
    const Tensor& weight;
    const float* bias;
    Index in_dim;
    const float* bias_row = nullptr;
};

/// K or V as [N, S', E]: the projected keys, then bias_k, then a zero row.
std::vector<float> project_kv(const Tensor& in, const InputProjection& p, const ForwardShape& z) {
    const Index N = z.N, S = z.S, Sp = z.Sp, E = z.E;
    std::vector<float> out(static_cast<std::size_t>(N * Sp * E), 0.0f);
    if (z.extra == 0) {
        linear(in.ptr(), N * S, p.in_dim, p.weight.ptr(), p.bias, E, out.data(), z.threads);
        return out;
    }
    std::vector<float> tmp(static_cast<std::size_t>(N * S * E));
    linear(in.ptr(), N * S, p.in_dim, p.weight.ptr(), p.bias, E, tmp.data(), z.threads);
    for (Index n = 0; n < N; ++n) {
        std::copy_n(tmp.data() + n * S * E, S * E, out.data() + n * Sp * E);
        if (p.bias_row) std::copy_n(p.bias_row, E, out.data() + (n * Sp + S) * E);
    }
    return out;
}

struct SplitProjections {
    InputProjection q, k, v;
};

/// Three products: only the window's query rows, and every key and value.
Projected project_split(const Tensor& query, const Tensor& key, const Tensor& value,
                        const SplitProjections& w, const ForwardShape& z) {
    const Index E = z.E, Lw = z.Lw;
    Projected pr;
    pr.q_own = take_buffer(static_cast<std::size_t>(z.N * Lw * E));
    for (Index n = 0; n < z.N; ++n)
        linear(query.ptr() + (n * z.L + z.q0) * E, Lw, E, w.q.weight.ptr(), w.q.bias, E,
               pr.q_own.data() + n * Lw * E, z.threads);
    pr.k_own = project_kv(key, w.k, z);
    pr.v_own = project_kv(value, w.v, z);
    pr.q = pr.q_own.data();
    pr.k = pr.k_own.data();
    pr.v = pr.v_own.data();
    pr.ldq = pr.ldk = pr.ldv = E;
    return pr;
}

/// The steps view's per-head q (unscaled), k and v, with its later stages sized.
void start_steps(AttentionResult& result, const std::vector<float>& q_unscaled, const Projected& pr,
                 const ForwardShape& z) {
    const Index H = z.H, d = z.d, E = z.E, Lw = z.Lw, Sp = z.Sp;
    const auto heads_total = static_cast<std::size_t>(z.N * H);
    result.steps.emplace();
    result.steps->heads.resize(heads_total);
    for (std::size_t t = 0; t < heads_total; ++t) {
        const Index n = static_cast<Index>(t) / H, h = static_cast<Index>(t) % H;
        HeadSteps& st = result.steps->heads[t];
        st.q = copy_block(q_unscaled.data() + n * Lw * E + h * d, Lw, d, E);
        st.k = copy_block(pr.k + n * Sp * pr.ldk + h * d, Sp, d, pr.ldk);
        st.v = copy_block(pr.v + n * Sp * pr.ldv + h * d, Sp, d, pr.ldv);
        layers::size_stages(st, Lw, Sp, d);
        st.kv_head = h;
    }
}

layers::ProjectedHeads projected_heads(const Projected& pr, const ForwardShape& z,
                                       const float* additive_v, float scale) {
    layers::ProjectedHeads heads;
    heads.q = pr.q;
    heads.ldq = pr.ldq;
    heads.k = pr.k;
    heads.ldk = pr.ldk;
    heads.v = pr.v;
    heads.ldv = pr.ldv;
    heads.batch = z.N;
    heads.num_heads = heads.num_kv_heads = z.H;
    heads.head_dim = z.d;
    heads.target_len = z.L;
    heads.source_len = z.Sp;
    heads.additive_v = additive_v;
    heads.score_scale = scale;
    return heads;
}

layers::AttendOptions attend_options(const AttentionForwardOptions& fwd, float dropout,
                                     int threads) {
    layers::AttendOptions attend;
    attend.masked_rows = fwd.masked_rows;
    attend.need_weights = fwd.need_weights;
    attend.dropout = fwd.training ? dropout : 0.0f;
    attend.dropout_seed = fwd.dropout_seed;
    attend.num_threads = threads;
    return attend;
}

}  // namespace

AttentionResult MultiHeadAttention::forward(const Tensor& query, const Tensor& key,
                                            const Tensor& value,
                                            const AttentionForwardOptions& fwd) const {
    const auto& o = options_;
    ForwardShape z = checked_shape(o, query, key, value);
    const Index N = z.N, L = z.L, E = z.E, H = z.H;
    ops::MaskSpec masks{fwd.key_padding_mask, fwd.attn_mask, fwd.causal, N, H, L, z.S, z.extra};
    masks.validate();
    const ResultWindow win = result_window(fwd, H, L, z.Sp);
    z.q0 = win.q0;
    z.Lw = win.rows;
    z.threads = std::max(1, fwd.num_threads);
    const Index Lw = z.Lw;
    const bool dot = o.scoring == Scoring::ScaledDotProduct;

    // Projections, PyTorch layout: in_proj_bias = [b_q; b_k; b_v].
    const float* bq = o.bias ? b_in_.ptr() : nullptr;
    const float* bk = o.bias ? b_in_.ptr() + E : nullptr;
    const float* bv = o.bias ? b_in_.ptr() + 2 * E : nullptr;
    const float scale = dot ? 1.0f / std::sqrt(static_cast<float>(z.d)) : 1.0f;
    const bool fused = !w_qkv_.empty() && z.extra == 0 && query.ptr() == key.ptr() &&
                       key.ptr() == value.ptr() && query.shape == key.shape && Lw == L;
    const float* bias_k = o.add_bias_kv ? bias_k_.ptr() : nullptr;
    const float* bias_v = o.add_bias_kv ? bias_v_.ptr() : nullptr;
    Projected pr = fused ? project_fused(query, w_qkv_, bq, z)
                         : project_split(query, key, value,
                                         {{w_q_, bq, E},
                                          {w_k_, bk, o.key_dim(), bias_k},
                                          {w_v_, bv, o.value_dim(), bias_v}},
                                         z);
    // Unscaled Q for the steps view, then fold 1/sqrt(d) into Q once (PyTorch scales q too).
    std::vector<float> q_unscaled;
    if (fwd.need_intermediates) {
        q_unscaled.resize(static_cast<std::size_t>(N * Lw * E));
        MutMap(q_unscaled.data(), N * Lw, E) = ConstStrided(pr.q, N * Lw, E, Stride(pr.ldq));
    }
    if (dot) MutStrided(pr.q, N * Lw, E, Stride(pr.ldq)) *= scale;

    AttentionResult result;
    std::vector<float> concat = take_buffer(static_cast<std::size_t>(N * Lw * E));
    if (fwd.need_intermediates) start_steps(result, q_unscaled, pr, z);
    layers::attend(projected_heads(pr, z, dot ? nullptr : additive_v_.ptr(), scale), masks, win,
                   attend_options(fwd, o.dropout, z.threads), result, concat.data(), E);

    result.output = take_tensor({N, Lw, E});
    linear(concat.data(), N * Lw, E, w_o_in_out_.ptr(), o.bias ? b_o_.ptr() : nullptr, E,
           result.output.ptr(), z.threads, 0, 0, true);
    if (fwd.need_intermediates) result.steps->concat = Tensor({N, Lw, E}, std::move(concat));
    for (std::vector<float>* b : {&pr.qkv, &pr.q_own, &pr.k_own, &pr.v_own, &concat})
        release_buffer(*b);
    return result;
}

void restrict_forward(const budget::ResultScope& scope, int num_heads, std::int64_t L,
                      std::int64_t S, AttentionForwardOptions* fwd) {
    const int kept = scope.kept_heads(num_heads);
    fwd->weights_heads = kept == num_heads ? -1 : kept;
    if (!scope.windowed()) return;
    const budget::AxisWindow q = budget::window_on(scope, L), k = budget::window_on(scope, S);
    fwd->query_begin = q.begin;
    fwd->query_count = q.count;
    fwd->key_begin = k.begin;
    fwd->key_count = k.count;
}

}  // namespace attnviz
