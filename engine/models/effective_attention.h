// Effective attention (Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing
// Transformers with Vector Norms", EMNLP, §3).  A weight α_ij says how much of source j a head
// reads, not how much arrives: what arrives is α_ij f_h(x_j), with f_h(x_j) = v_j W_O^h (the
// value with its bias, through the head's columns of the output projection, whose own bias is
// added once per token, not per source).  The norm-based maps are ‖α^h_ij f_h(x_j)‖ per head
// and ‖Σ_h α^h_ij f_h(x_j)‖ for the layer (what the heads together add from j), in the shapes
// of the weights.
//
// Neither needs a [tokens, tokens, hidden] block: per source j the Gram matrix of the heads'
// vectors, G_j[h, h'] = f_h(x_j) · f_h'(x_j), gives ‖Σ_h a_h f_h(x_j)‖² = aᵀ G_j a.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/layers/multi_head_attention.h"
#include "engine/models/model.h"

namespace attnviz::models {

/// f_h(x_j) of every head h for sources j in [first, first + count): out [count, heads, hidden].
/// values [sources, kv_heads·d] row-major (row j: every key/value head's v_j, head g in columns
/// [g·d, (g+1)·d)); o the output projection [hidden, heads·d] (nn.Linear's layout).  Query
/// head h reads key/value head h / (heads / kv_heads) and writes through columns
/// [h·d, (h+1)·d) of o.
void head_writes(const float* values, std::int64_t first, std::int64_t count, std::int64_t kv_heads,
                 const Tensor& o, std::int64_t heads, float* out);

/// What every head of a layer writes from each source token, as Gram matrices (float64).
class SourceGram {
  public:
    SourceGram() = default;
    /// values, o and the heads as head_writes() takes them.  Throws std::invalid_argument when
    /// the shapes do not fit.
    SourceGram(const float* values, std::int64_t sources, std::int64_t kv_heads, const Tensor& o,
               std::int64_t heads, int threads = 1);

    std::int64_t sources() const { return sources_; }
    std::int64_t heads() const { return heads_; }
    /// G_j[h, h'].
    double at(std::int64_t j, std::int64_t h, std::int64_t h2) const {
        return gram_[static_cast<std::size_t>((j * heads_ + h) * heads_ + h2)];
    }
    /// ‖f_h(x_j)‖.
    double norm(std::int64_t j, std::int64_t h) const;
    /// ‖Σ_h a[h · stride] f_h(x_j)‖²: aᵀ G_j a (0 when every a is; NaN where one is).
    double combined_squared(std::int64_t j, const float* a, std::int64_t stride) const;

  private:
    std::int64_t sources_ = 0, heads_ = 0;
    std::vector<double> gram_;  ///< [sources, heads, heads]
};

/// The norm-based maps of one layer from its weights [heads, rows, cols] (every head, rows
/// after rows), column c being source first_source + c of `gram`.  heads_out [kept, rows, cols]
/// gets the first `kept` heads' maps (none when null), layer_out [rows, cols] the layer's (none
/// when null).
void effective_maps(const SourceGram& gram, const float* weights, std::int64_t rows,
                    std::int64_t cols, std::int64_t first_source, float* heads_out,
                    std::int64_t kept, float* layer_out, int threads = 1);

/// Passes a forward pass on to `inner` with its maps made norm-based: each kept head's weights
/// become ‖α f_h(x_j)‖ and the mean over heads becomes the layer's map ‖Σ_h α f_h(x_j)‖.
/// Everything else reaches `inner` as the pass hands it over.  Run the pass with pass_options():
/// the layer's map needs every head's weights.
class EffectiveAttentionSink final : public AttentionSink {
  public:
    /// `scope`: the attention `inner` asked for (its heads and window), before pass_options().
    EffectiveAttentionSink(const Model& model, AttentionSink& inner, const AttentionScope& scope,
                           int threads = 1);
    /// `options` with every head's weights computed in the kept layers.  Throws
    /// std::invalid_argument for a pass of one head (scope.only_head).
    static ModelForwardOptions pass_options(ModelForwardOptions options);

    void on_layer(std::int64_t layer, AttentionResult&& attention) override;
    bool wants_values() const override { return true; }
    void on_values(std::int64_t layer, const Tensor& values) override;

    bool wants_hidden_states() const override { return inner_.wants_hidden_states(); }
    void on_hidden_state(std::int64_t index, const Tensor& hidden) override {
        inner_.on_hidden_state(index, hidden);
    }
    bool wants_residuals() const override { return inner_.wants_residuals(); }
    void on_residual(std::int64_t layer, const Tensor& residual) override {
        inner_.on_residual(layer, residual);
    }
    bool wants_contexts() const override { return inner_.wants_contexts(); }
    void on_context(std::int64_t layer, const Tensor& context) override {
        inner_.on_context(layer, context);
    }
    bool wants_rows() const override { return inner_.wants_rows(); }
    void begin_rows(std::int64_t layer, std::size_t slot_count) override {
        inner_.begin_rows(layer, slot_count);
    }
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& rows) override {
        inner_.on_rows(layer, slot, rows);
    }
    void end_rows(std::int64_t layer) override { inner_.end_rows(layer); }
    void on_trace(std::int64_t layer, TraceStep step, const float* values, std::int64_t rows,
                  std::int64_t cols) override {
        inner_.on_trace(layer, step, values, rows, cols);
    }

  private:
    const Model& model_;
    AttentionSink& inner_;
    AttentionScope scope_;
    int threads_;
    std::int64_t values_layer_ = -1;
    Tensor values_;  ///< the layer's values, until its maps arrive
};

/// The norm-based maps of the demo layer (torch.nn.MultiheadAttention): `result` is what
/// mha.forward(query, key, value, fwd) gave with every head's weights (fwd.weights_heads -1),
/// `value` its [N, S, vdim] values; the first `kept_heads` heads' maps are kept (-1: every
/// head, 0: none).  Appended keys write what they hold: bias_v (add_bias_kv) and nothing
/// (add_zero_attn).  Throws std::invalid_argument when result lacks a head's weights or the
/// shapes do not fit.
struct EffectiveAttention {
    Tensor heads;  ///< [N, kept heads, rows, cols]: ‖α^h_ij f_h(x_j)‖; empty with none
    Tensor layer;  ///< [N, rows, cols]: ‖Σ_h α^h_ij f_h(x_j)‖
};
EffectiveAttention effective_attention(const MultiHeadAttention& mha, const Tensor& value,
                                       const AttentionResult& result,
                                       const AttentionForwardOptions& fwd,
                                       std::int64_t kept_heads = -1, int threads = 1);

}  // namespace attnviz::models
