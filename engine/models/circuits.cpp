// Composition and copying scores from the weights (circuits.h).
//
// Per pair of heads (1 below 2) only [head_dim, head_dim] blocks are formed.  In
// TransformerLens's matrices ([hidden, d] W_Q, W_K, W_V; [d, hidden] W_O), with R_X the [d, d]
// square root of a Gram matrix (R_Xᵀ R_X = W_Xᵀ W_X, so that ‖Y W_Xᵀ‖_F = ‖Y R_Xᵀ‖_F and
// ‖W_X Y‖_F = ‖R_X Y‖_F):
//   Q: ‖W_V¹ W_O¹ · W_Q² W_K²ᵀ‖ = ‖(R_V¹ W_O¹) · (W_Q² R_K²ᵀ)‖
//   K: ‖W_V¹ W_O¹ · W_K² W_Q²ᵀ‖ = ‖(R_V¹ W_O¹) · W_K² · R_Q²ᵀ‖
//   V: ‖W_V¹ W_O¹ · W_V² W_O²‖  = ‖(R_V¹ W_O¹) · W_V² · R_O²ᵀ‖   (R_O from W_O W_Oᵀ)
// Each head keeps its "left" R_V W_O [d, hidden]; a later layer's reading weights (its
// finished Q factors W_Q R_Kᵀ, its W_K and W_V) are multiplied by every earlier head's left in
// one product, and the K and V blocks are finished by the later head's R_Q or R_O, a key/value
// head's block once for its whole group.  The denominators come from the Gram matrices:
// ‖W_Q W_Kᵀ‖² = ⟨W_Qᵀ W_Q, W_Kᵀ W_K⟩.
#include "engine/models/circuits.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's double
// reductions are inlined here, as in engine/models/head_atlas.cpp: a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>

#include "engine/ops/gemm.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;
using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMapF = Eigen::Map<const MatrixF>;

enum Kind : Index { kQ = 0, kK = 1, kV = 2 };

/// The [d, d] square root R of a Gram matrix G (Rᵀ R = G), from its eigenvalues (clipped at 0:
/// rounding may leave a rank-deficient G slightly indefinite).
MatrixD gram_root(const MatrixD& G) {
    Eigen::SelfAdjointEigenSolver<MatrixD> es(G);
    const Eigen::VectorXd root = es.eigenvalues().cwiseMax(0.0).cwiseSqrt();
    return root.asDiagonal() * es.eigenvectors().transpose();
}

/// [rows, cols] of a row-major float buffer, in double.
MatrixD block(const float* p, Index rows, Index cols) {
    return ConstMapF(p, rows, cols).cast<double>();
}

/// ⟨A, B⟩ = Σ a_ij b_ij, so ‖X Yᵀ‖² = ⟨XᵀX, YᵀY⟩ needs only the two Gram matrices.
double inner(const MatrixD& a, const MatrixD& b) {
    return a.cwiseProduct(b).sum();
}

/// Σ x², in double, over independent partial sums (one serial sum would cost its latency per
/// value: a second on Qwen2.5-0.5B's 54,000 pairs).
double squared_norm(const float* x, Index n) {
    constexpr Index kLanes = 16;
    double part[kLanes] = {};
    Index i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (Index k = 0; k < kLanes; ++k)
            part[k] += static_cast<double>(x[i + k]) * x[i + k];
    for (; i < n; ++i)
        part[0] += static_cast<double>(x[i]) * x[i];
    double sum = 0.0;
    for (const double p : part)
        sum += p;
    return sum;
}

/// Σ x² over a [rows, cols] block with row stride ld.
double block_squared_norm(const float* x, Index rows, Index cols, Index ld) {
    double sum = 0.0;
    for (Index r = 0; r < rows; ++r)
        sum += squared_norm(x + r * ld, cols);
    return sum;
}

/// One layer's heads as the scores read them.
struct LayerFactors {
    /// [(H + 2 KV) d, hidden], as nn.Linear keeps weights: per query head its finished Q factor
    /// (W_Q R(D) R_Kᵀ)ᵀ, then W_Kᵀ and W_Vᵀ of each key/value head; every one folded.
    std::vector<float> reads;
    /// [H d, hidden]: each head's left factor R_V W_O.
    std::vector<float> left;
    /// [2, H, d, d]: each query head's second factor of K and V composition (R_Q, R_O), a
    /// group's heads one after the other.
    std::vector<float> other;
    std::vector<double> ov_norm, qk_norm;  ///< [H]: ‖W_OV‖_F, ‖W_QK‖_F
    /// [H d, hidden]: W_O of each head, [d, hidden] (its columns of o, transposed).
    std::vector<float> out_rows;
};

/// fold_layer_norm on reading rows [rows, E] (TransformerLens, HookedTransformer.py): each
/// column times the norm's scale, then, for LayerNorm, each row's mean taken out.
void fold_norm(float* rows, Index n, Index E, const Tensor& scale, bool centre) {
    for (Index r = 0; r < n; ++r) {
        float* row = rows + r * E;
        double mean = 0.0;
        for (Index e = 0; e < E; ++e) {
            row[e] *= scale.ptr()[e];
            mean += row[e];
        }
        if (centre) {
            const auto m = static_cast<float>(mean / static_cast<double>(E));
            for (Index e = 0; e < E; ++e)
                row[e] -= m;
        }
    }
}

/// Qwen3's per-head q/k norm (frozen): its scale multiplies row c % d of every head.
void fold_head_norm(float* rows, Index n, Index d, Index E, const Tensor& scale) {
    if (scale.empty()) return;
    for (Index r = 0; r < n; ++r)
        for (Index e = 0; e < E; ++e)
            rows[r * E + e] *= scale.ptr()[r % d];
}

/// W_Q R(D): every column of the query rows [H d, E] (a query vector of each head) rotated as
/// the forward pass rotates a query at position D.
void rotate_queries(float* rows, Index H, Index d, Index E, Index offset,
                    const std::vector<double>& inv_freq) {
    std::vector<float> t(static_cast<std::size_t>(E * H * d));
    ops::transpose(rows, H * d, E, t.data());
    ops::apply_rotary(t.data(), E, H, d, H * d,
                      std::vector<Index>(static_cast<std::size_t>(E), offset), inv_freq);
    ops::transpose(t.data(), E, H * d, rows);
}

LayerFactors layer_factors(const Model& model, Index layer, const CircuitOptions& options,
                           bool fold) {
    const ModelConfig& c = model.config();
    const Index E = c.hidden_size, H = c.num_heads, KV = c.num_kv_heads, d = c.head_dim;
    const Index group = H / KV;
    const AttentionWeights w = model.attention_weights(layer);
    LayerFactors f;
    f.reads.resize(static_cast<std::size_t>((H + 2 * KV) * d * E));
    float* q = f.reads.data();
    float* k = q + H * d * E;
    float* v = k + KV * d * E;
    std::copy(w.q.data.begin(), w.q.data.end(), q);
    std::copy(w.k.data.begin(), w.k.data.end(), k);
    std::copy(w.v.data.begin(), w.v.data.end(), v);
    if (fold && !w.norm_weight.empty())
        fold_norm(q, (H + 2 * KV) * d, E, w.norm_weight, c.family == Family::Gpt2);
    fold_head_norm(q, H * d, d, E, w.q_norm);
    fold_head_norm(k, KV * d, d, E, w.k_norm);
    if (c.rotary()) rotate_queries(q, H, d, E, options.rope_offset, model.rotary_inv_freq());
    f.out_rows.resize(static_cast<std::size_t>(H * d * E));
    ops::transpose(w.o.ptr(), E, H * d, f.out_rows.data());

    // Gram roots of the key and value heads, then every query head's factors.
    std::vector<MatrixD> gram_k(static_cast<std::size_t>(KV)), gram_v(gram_k), root_k(gram_k),
        root_v(gram_k);
    ops::parallel_for(static_cast<std::size_t>(KV), options.num_threads,
                      [&](std::size_t g0, std::size_t g1) {
                          for (auto g = static_cast<Index>(g0); g < static_cast<Index>(g1); ++g) {
                              const MatrixD kg = block(k + g * d * E, d, E);
                              const MatrixD vg = block(v + g * d * E, d, E);
                              gram_k[g] = kg * kg.transpose();
                              gram_v[g] = vg * vg.transpose();
                              root_k[g] = gram_root(gram_k[g]);
                              root_v[g] = gram_root(gram_v[g]);
                          }
                      });
    f.left.resize(static_cast<std::size_t>(H * d * E));
    f.other.resize(static_cast<std::size_t>(2 * H * d * d));
    f.ov_norm.resize(static_cast<std::size_t>(H));
    f.qk_norm.resize(static_cast<std::size_t>(H));
    ops::parallel_for(
        static_cast<std::size_t>(H), options.num_threads, [&](std::size_t h0, std::size_t h1) {
            for (auto h = static_cast<Index>(h0); h < static_cast<Index>(h1); ++h) {
                const Index g = h / group;
                const MatrixD qh = block(q + h * d * E, d, E);
                const MatrixD oh = block(f.out_rows.data() + h * d * E, d, E);
                const MatrixD gram_q = qh * qh.transpose();
                const MatrixD gram_o = oh * oh.transpose();
                Eigen::Map<MatrixF>(f.left.data() + h * d * E, d, E) =
                    (root_v[g] * oh).cast<float>();
                // The query rows become the finished Q factor: ‖X W_Q W_Kᵀ‖ = ‖X W_Q R_Kᵀ‖.
                Eigen::Map<MatrixF>(q + h * d * E, d, E) = (root_k[g] * qh).cast<float>();
                Eigen::Map<MatrixF>(f.other.data() + h * d * d, d, d) =
                    gram_root(gram_q).cast<float>();
                Eigen::Map<MatrixF>(f.other.data() + (H + h) * d * d, d, d) =
                    gram_root(gram_o).cast<float>();
                f.ov_norm[h] = std::sqrt(std::max(0.0, inner(gram_v[g], gram_o)));
                f.qk_norm[h] = std::sqrt(std::max(0.0, inner(gram_q, gram_k[g])));
            }
        });
    return f;
}

/// Scores of every head below `layer` (whose left factors are `lefts`, [heads below · d, E])
/// into layer `layer`'s heads, written into out [3, N, N].
void compose_into(const Model& model, Index layer, const LayerFactors& later,
                  const std::vector<float>& lefts, const std::vector<double>& ov_norms, int threads,
                  Tensor& out) {
    const ModelConfig& c = model.config();
    const Index E = c.hidden_size, H = c.num_heads, KV = c.num_kv_heads, d = c.head_dim;
    const Index group = H / KV, N = c.num_layers * H, below = layer * H;
    const Index cols = (H + 2 * KV) * d, width = group * d;
    const auto score = [&](Index kind, Index i, Index j, double squared) {
        const double right = kind == kV ? later.ov_norm[j] : later.qk_norm[j];
        const double denominator = ov_norms[i] * right;
        out.ptr()[(kind * N + i) * N + below + j] =
            static_cast<float>(denominator > 0.0 ? std::sqrt(squared) / denominator : 0.0);
    };
    // Blocks of ~512 rows of earlier heads: one product each with every reading weight, then
    // one per key/value head with its group's second factors side by side.
    const Index per_block = std::max<Index>(1, 512 / d);
    const Index blocks = (below + per_block - 1) / per_block;
    ops::parallel_for(
        static_cast<std::size_t>(blocks), threads, [&](std::size_t b0, std::size_t b1) {
            std::vector<float> s(static_cast<std::size_t>(per_block * d * cols));
            std::vector<float> t(static_cast<std::size_t>(per_block * d * width));
            for (auto b = static_cast<Index>(b0); b < static_cast<Index>(b1); ++b) {
                const Index i0 = b * per_block, n = std::min(per_block, below - i0);
                ops::gemm(lefts.data() + i0 * d * E, n * d, E, later.reads.data(), cols, s.data(),
                          true);
                for (Index i = 0; i < n; ++i)
                    for (Index j = 0; j < H; ++j)
                        score(kQ, i0 + i, j,
                              block_squared_norm(s.data() + i * d * cols + j * d, d, d, cols));
                for (const Index kind : {kK, kV})
                    for (Index g = 0; g < KV; ++g) {
                        ops::gemm(s.data() + (H + (kind - kK) * KV + g) * d, n * d, d,
                                  later.other.data() + ((kind - kK) * H + g * group) * d * d, width,
                                  t.data(), true, cols);
                        for (Index i = 0; i < n; ++i)
                            for (Index jj = 0; jj < group; ++jj)
                                score(kind, i0 + i, g * group + jj,
                                      block_squared_norm(t.data() + i * d * width + jj * d, d, d,
                                                         width));
                    }
            }
        });
}

/// W_U W_E [E, E] (TransformerLens's orientation: W_U [E, vocab] through the folded final norm,
/// W_E [vocab, E]), summed over the vocabulary in blocks of rows.
std::vector<float> unembed_embed(const Model& model, const CircuitOptions& options) {
    const ModelConfig& c = model.config();
    const Index E = c.hidden_size, V = c.vocab_size;
    constexpr Index kRows = 2048;
    const Index blocks = (V + kRows - 1) / kRows;
    const std::size_t chunks =
        ops::chunk_count(static_cast<std::size_t>(blocks), options.num_threads);
    std::vector<std::vector<float>> partial(chunks,
                                            std::vector<float>(static_cast<std::size_t>(E * E)));
    ops::parallel_chunks(
        static_cast<std::size_t>(blocks), options.num_threads,
        [&](std::size_t chunk, std::size_t b0, std::size_t b1) {
            std::vector<Index> ids;
            std::vector<float> ut;
            for (auto b = static_cast<Index>(b0); b < static_cast<Index>(b1); ++b) {
                options.control.check();
                ids.resize(static_cast<std::size_t>(std::min(kRows, V - b * kRows)));
                for (std::size_t r = 0; r < ids.size(); ++r)
                    ids[r] = b * kRows + static_cast<Index>(r);
                const auto rows = static_cast<Index>(ids.size());
                Readout u = model.readout(ids);
                fold_norm(u.unembed.ptr(), rows, E, u.norm_weight, !u.rms);
                const Tensor emb = model.embedding_rows(ids);
                ut.resize(static_cast<std::size_t>(E * rows));
                ops::transpose(u.unembed.ptr(), rows, E, ut.data());
                ops::gemm(ut.data(), E, rows, emb.ptr(), E, partial[chunk].data(), false, 0, 0, 0,
                          true);
            }
        });
    for (std::size_t k = 1; k < chunks; ++k)
        ops::add_inplace(partial[0].data(), partial[k].data(), partial[0].size());
    return std::move(partial[0]);
}

/// Each head's copying score: Σλ / Σ|λ| over the eigenvalues of W_O (W_U W_E) W_V [d, d].
void copying_scores(const Model& model, const LayerFactors& f, Index layer,
                    const std::vector<float>& ue, int threads, std::vector<double>& out) {
    const ModelConfig& c = model.config();
    const Index E = c.hidden_size, H = c.num_heads, KV = c.num_kv_heads, d = c.head_dim;
    std::vector<float> x(static_cast<std::size_t>(H * d * E));  // W_O (W_U W_E), [H d, E]
    ops::parallel_for(static_cast<std::size_t>(H), threads, [&](std::size_t h0, std::size_t h1) {
        const auto n = static_cast<Index>(h1 - h0);
        ops::gemm(f.out_rows.data() + static_cast<Index>(h0) * d * E, n * d, E, ue.data(), E,
                  x.data() + static_cast<Index>(h0) * d * E);
        std::vector<float> m(static_cast<std::size_t>(d * d));
        for (auto h = static_cast<Index>(h0); h < static_cast<Index>(h1); ++h) {
            const float* v = f.reads.data() + (H + KV + h / (H / KV)) * d * E;
            ops::gemm(x.data() + h * d * E, d, E, v, d, m.data(), true);
            const Eigen::EigenSolver<Eigen::MatrixXd> es(block(m.data(), d, d), false);
            double sum = 0.0, magnitude = 0.0;
            for (const std::complex<double>& l : es.eigenvalues()) {
                sum += l.real();
                magnitude += std::abs(l);
            }
            out[static_cast<std::size_t>(layer * H + h)] =
                magnitude > 0.0 ? sum / magnitude : std::numeric_limits<double>::quiet_NaN();
        }
    });
}

}  // namespace

CircuitScores circuit_scores(const Model& model, const CircuitOptions& options) {
    const ModelConfig& c = model.config();
    if (options.rope_offset < 0 || options.rope_offset >= std::max<Index>(c.max_positions, 1))
        throw std::invalid_argument("rope offset " + std::to_string(options.rope_offset) +
                                    " is not a distance between two of the " +
                                    std::to_string(c.max_positions) + " positions (0 to " +
                                    std::to_string(c.max_positions - 1) + ")");
    const Index layers = c.num_layers, H = c.num_heads, N = layers * H;
    CircuitScores out;
    out.layers = layers;
    out.heads = H;
    if (c.rotary()) out.rope_offset = options.rope_offset;
    out.folded_norms = c.pre_norm();
    out.composition = Tensor({3, N, N}, std::numeric_limits<float>::quiet_NaN());

    std::vector<float> ue;
    if (model.lm_head() == LmHeadKind::Causal) {
        ue = unembed_embed(model, options);
        out.copying.assign(static_cast<std::size_t>(N), 0.0);
    } else {
        out.copying_missing =
            model.lm_head() == LmHeadKind::None
                ? model.lm_head_missing()
                : c.display_name() +
                      "'s masked-LM head reads the stream through a dense layer and an "
                      "activation, so no W_U is linear in it";
    }
    std::vector<float> lefts;  // [heads so far · d, E]
    lefts.reserve(static_cast<std::size_t>(N * c.head_dim * c.hidden_size));
    std::vector<double> ov_norms;
    for (Index l = 0; l < layers; ++l) {
        options.control.check();
        const LayerFactors f = layer_factors(model, l, options, out.folded_norms);
        if (l > 0) compose_into(model, l, f, lefts, ov_norms, options.num_threads, out.composition);
        if (!ue.empty()) copying_scores(model, f, l, ue, options.num_threads, out.copying);
        lefts.insert(lefts.end(), f.left.begin(), f.left.end());
        ov_norms.insert(ov_norms.end(), f.ov_norm.begin(), f.ov_norm.end());
        options.control.report(l + 1, layers);
    }
    return out;
}

}  // namespace attnviz::models
