// Multi-head attention with the semantics of torch.nn.MultiheadAttention (batch_first=True),
// plus what a viewer needs: per-head weights, their mean, and on request every
// intermediate of the computation, all filled during the one forward pass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/budget/memory_budget.h"
#include "engine/ops/softmax.h"
#include "engine/tensor.h"

namespace attnviz {

/// How scores are computed.  ScaledDotProduct: q.k / sqrt(d_k) (Vaswani et al.).
/// Additive (Bahdanau): w_h . tanh(q + k) per head, with a learned vector w_h of size
/// head_dim per head (parameter "additive_v", shape [num_heads, head_dim]).
enum class Scoring { ScaledDotProduct, Additive };

// MaskedRowPolicy (ops/softmax.h): what a query row gets when every key is masked.  Zero
// (default): all-zero weights, so the row's context is zero.  Uniform: 1/S' on every key.
// NaN: NaN weights and output, exactly as PyTorch's reference path does.

const char* scoring_name(Scoring s);
Scoring scoring_from_name(const std::string& name);  ///< "dot"/"scaled_dot_product", "additive"
const char* masked_row_policy_name(MaskedRowPolicy p);
MaskedRowPolicy masked_row_policy_from_name(const std::string& name);  ///< zero|uniform|nan
/// Every policy's name, in the enum's order: the command line's choices.
std::vector<std::string> masked_row_policy_names();

struct MultiHeadAttentionOptions {
    std::int64_t embed_dim = 0;
    std::int64_t num_heads = 1;
    std::int64_t kdim = 0;  ///< 0 means embed_dim
    std::int64_t vdim = 0;  ///< 0 means embed_dim
    bool bias = true;
    bool add_bias_kv = false;
    bool add_zero_attn = false;
    float dropout = 0.0f;  ///< on the attention weights, training mode only; in [0, 1)
    Scoring scoring = Scoring::ScaledDotProduct;

    std::int64_t key_dim() const { return kdim ? kdim : embed_dim; }
    std::int64_t value_dim() const { return vdim ? vdim : embed_dim; }
    std::int64_t head_dim() const { return num_heads ? embed_dim / num_heads : 0; }
    /// PyTorch packs Q/K/V projections into in_proj_weight when kdim == vdim == embed_dim.
    bool packed_in_proj() const { return key_dim() == embed_dim && value_dim() == embed_dim; }
    /// Throws std::invalid_argument with a clear message on a bad combination.
    void validate() const;
};

struct AttentionForwardOptions {
    const Mask* key_padding_mask = nullptr;  ///< [N,S], bool (true = ignore) or float (added)
    const Mask* attn_mask = nullptr;         ///< [L,S] or [N*num_heads,L,S], bool or float
    bool causal = false;                     ///< also mask keys j > i (combined with any attn_mask)
    bool training = false;                   ///< dropout applies only when training
    std::uint64_t dropout_seed = 0;
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    bool need_weights = true;         ///< fill per-head weights and their mean
    bool need_intermediates = false;  ///< fill AttentionResult::steps
    int num_threads = 1;              ///< heads x batch items are spread over this many threads

    // What of the result is kept, so that a long input can be looked at within a memory
    // budget.  Every kept number is the same element of the full result (up to float
    // rounding: the matrix products then run on fewer rows).
    /// Per-head weights are kept for heads [0, weights_heads) only: -1 every head, 0 none (the
    /// mean only).  The mean is always over every head.
    std::int64_t weights_heads = -1;
    /// Query rows [query_begin, query_begin + query_count) are computed (-1: to the last):
    /// output, weights, fully masked rows and steps cover only them.
    std::int64_t query_begin = 0;
    std::int64_t query_count = -1;
    /// Weights and mean keep key columns [key_begin, key_begin + key_count) of S' (-1: to the
    /// last).  The softmax still runs over every key, so kept rows need not sum to one.
    std::int64_t key_begin = 0;
    std::int64_t key_count = -1;
};

/// What `scope` (the memory budget's plan) keeps of a forward pass of `num_heads` heads over L
/// queries and S' keys, as the layer's options: the first kept heads' weights and, when
/// windowed, the window's rows and columns.  The CLI and the window both compute through this.
void restrict_forward(const budget::ResultScope& scope, int num_heads, std::int64_t L,
                      std::int64_t S, AttentionForwardOptions* fwd);

/// Every stage of the computation for one (batch item, head), for teaching views.
struct HeadSteps {
    Tensor q;        ///< [L, d]   query projection of this head (before scaling)
    Tensor k;        ///< [S', d]  key projection (with bias_k / zero row if enabled)
    Tensor v;        ///< [S', d]
    Tensor scores;   ///< [L, S']  raw q.k^T (additive: w . tanh(q + k))
    Tensor scaled;   ///< [L, S']  scores / sqrt(d) (additive: same as scores)
    Tensor masked;   ///< [L, S']  scaled + additive mask (-inf where masked)
    Tensor softmax;  ///< [L, S']  softmax, after the masked-row policy
    Tensor dropped;  ///< [L, S']  after dropout (== softmax when not training)
    Tensor context;  ///< [L, d]   dropped x V
    // Rotary models (models/): q and k before the rotation (q, k above are after it), and
    // which key/value head this query head reads under grouped-query attention.
    Tensor q_unrotated;        ///< [L, d]  empty without a rotation
    Tensor k_unrotated;        ///< [S', d] empty without a rotation
    std::int64_t kv_head = 0;  ///< == the head itself without grouped-query attention
};

struct AttentionSteps {
    std::vector<HeadSteps> heads;  ///< index n * num_heads + h
    Tensor concat;                 ///< [N, L, H * d] heads concatenated, before out_proj
    /// Models (models/) only: [1, L, hidden] what the projections read (after the layer's
    /// input norm in pre-norm families).  A model's steps also set AttentionResult::output to
    /// the output projection's result, before the residual.
    Tensor input;
};

/// Shapes with the defaults of AttentionForwardOptions; a window or fewer kept heads shrink
/// them: L to query_count, S' to key_count (weights and mean only), H to weights_heads
/// (weights only).
struct AttentionResult {
    Tensor output;        ///< [N, L, E]
    Tensor weights;       ///< [N, H, L, S'] per-head, post-dropout (empty if !need_weights)
    Tensor mean_weights;  ///< [N, L, S'] mean over heads
    /// [N, H, L]: 1 where every key was masked for that query row (policy applied).
    std::vector<std::uint8_t> fully_masked_rows;
    std::int64_t source_length = 0;  ///< S' = S + bias_kv + zero_attn columns
    std::optional<AttentionSteps> steps;
};

/// A block of attention rows as they are computed, after the softmax (before dropout): head
/// `head` of batch item `item`, absolute query rows [first_row, first_row + rows), row r at
/// row(r), `keys` floats apart.  Row r holds only its first valid(r) weights; the rest are
/// unspecified.  With `causal_tail` (a causal mask whose masked keys the attention core skips)
/// that is the keys up to the query, j <= first_row + r: the keys after it are 0 in the map,
/// and writing those zeros for a statistics pass, which keeps no map, was 2% of its time (as
/// much as the softmax's exp pass).  A fully masked row is whole (its policy, ops/softmax.h, fills
/// every key).  Every observer reads only the valid weights, or fills the rest itself.  Valid only
/// during the call it is given to.
struct RowBlock {
    std::int64_t item = 0, head = 0, first_row = 0, rows = 0, keys = 0;
    const float* weights = nullptr;
    bool causal_tail = false;
    /// [rows]: nonzero where the row was fully masked; null: none was.
    const std::uint8_t* fully_masked = nullptr;
    /// [rows]: each row's entropy -sum_j p_j ln p_j over its valid weights, in nats, from the
    /// softmax's own exp pass (kernels::softmax_entropy_row); null when not computed.
    const double* entropy = nullptr;

    const float* row(std::int64_t r) const { return weights + r * keys; }
    std::int64_t valid(std::int64_t r) const {
        const bool whole = !causal_tail || (fully_masked && fully_masked[r]);
        return whole ? keys : std::min(keys, first_row + r + 1);
    }
};

/// Gives the result's output, weights and mean back to the engine's kept buffers
/// (engine/buffers.h), for the next forward pass of the same size; they are left empty.
void recycle(AttentionResult& result);

/// The options a PyTorch state_dict implies for a given head count: embed_dim from
/// out_proj.weight, kdim/vdim from split projections, bias, add_bias_kv, additive scoring.
/// Throws std::invalid_argument if there is no out_proj.weight.
MultiHeadAttentionOptions options_from_state_dict(const std::map<std::string, Tensor>& state,
                                                  std::int64_t num_heads);

class MultiHeadAttention {
  public:
    /// Validates the options and initialises the weights with seed 0.
    explicit MultiHeadAttention(const MultiHeadAttentionOptions& options);

    const MultiHeadAttentionOptions& options() const { return options_; }

    /// PyTorch's scheme with our own seeded generator: xavier-uniform in-projection
    /// (packed [3E,E] or each split matrix), zero in_proj_bias and out_proj.bias,
    /// out_proj.weight uniform(+-1/sqrt(E)) like nn.Linear's default, bias_k/bias_v
    /// xavier-normal, additive_v uniform(+-1/sqrt(head_dim)).
    void reset_parameters(std::uint64_t seed);

    /// PyTorch's state_dict names: in_proj_weight (packed) or q_proj_weight/k_proj_weight/
    /// v_proj_weight (split), in_proj_bias, bias_k, bias_v, out_proj.weight, out_proj.bias;
    /// plus additive_v for additive scoring.  Either layout is accepted when both fit.
    /// Throws std::invalid_argument naming the tensor on a missing name or a wrong shape.
    void load_state_dict(const std::map<std::string, Tensor>& state);
    std::map<std::string, Tensor> state_dict() const;

    /// query [N,L,E], key [N,S,kdim], value [N,S,vdim] (batch first).  Throws
    /// std::invalid_argument with the actual sizes when shapes do not fit.
    AttentionResult forward(const Tensor& query, const Tensor& key, const Tensor& value,
                            const AttentionForwardOptions& fwd = {}) const;

    /// An upper bound of the bytes forward() allocates on the heap for these sizes and
    /// options (results, projections, per-thread scratch, steps), for memory budgets.  The
    /// layer's own parameters are not included (parameter_bytes()).
    static std::size_t estimate_forward_bytes(const MultiHeadAttentionOptions& options,
                                              std::int64_t batch, std::int64_t target_len,
                                              std::int64_t source_len,
                                              const AttentionForwardOptions& fwd);
    static std::size_t estimate_forward_bytes(const MultiHeadAttentionOptions& options,
                                              std::int64_t batch, std::int64_t target_len,
                                              std::int64_t source_len, bool need_intermediates);
    /// Bytes of a layer's parameters (and their packed copy).
    static std::size_t parameter_bytes(const MultiHeadAttentionOptions& options);

  private:
    void pack_weights();

    MultiHeadAttentionOptions options_;
    // Row-major parameters, PyTorch layout.
    Tensor w_q_, w_k_, w_v_;  ///< [E,E], [E,kdim], [E,vdim]
    Tensor b_in_;             ///< [3E] (empty when !bias)
    Tensor bias_k_, bias_v_;  ///< [E] each (empty unless add_bias_kv)
    Tensor w_o_, b_o_;        ///< [E,E], [E]
    Tensor additive_v_;       ///< [H, d] (additive scoring only)
    // Copies laid out [in, out] for the products (pack_weights).
    Tensor w_qkv_;       ///< [E,3E] = [w_q; w_k; w_v]ᵀ when packed, for fused self-attention
    Tensor w_o_in_out_;  ///< [E,E] = w_oᵀ
};

}  // namespace attnviz
