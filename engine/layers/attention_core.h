// The attention step every layer shares: scores, masks, softmax, dropout, the product with V,
// per-head weights and their mean, filled block by block in one pass.  nn.MultiheadAttention
// (layers/multi_head_attention) and the transformer families (models/) project Q, K and V their
// own way (packed or split, rotary, q_norm, grouped-query) and then call attend(), so every
// source uses the same softmax kernel, the same masked-row policy and the same kept window.
//
// Internal to the engine (layers and models); it exposes raw pointers and strides for speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/layers/multi_head_attention.h"
#include "engine/ops/masks.h"

namespace attnviz::layers {

/// The part of the result a forward pass keeps (AttentionForwardOptions' window), checked
/// against the sizes.
struct ResultWindow {
    std::int64_t heads;     ///< per-head weights kept for heads [0, heads)
    std::int64_t q0, rows;  ///< query rows [q0, q0 + rows)
    std::int64_t k0, cols;  ///< key columns [k0, k0 + cols) of S'
    bool full_columns;
};

/// Throws std::invalid_argument when the window does not fit H heads, L queries, Sp keys.
ResultWindow result_window(const AttentionForwardOptions& fwd, std::int64_t H, std::int64_t L,
                           std::int64_t Sp);

/// Query rows per work item: a block's weights (384 KiB per head) stay in cache from the score
/// product to the mean, and with few batch items every thread still gets work.
std::int64_t rows_per_block(std::int64_t rows, std::int64_t Sp, std::int64_t N, int threads);

/// Floats attend() allocates for the packed keys and values of N items' kv_heads heads.
std::size_t packed_heads_floats(std::int64_t N, std::int64_t kv_heads, std::int64_t Sp,
                                std::int64_t head_dim);

/// rows x cols of a row-strided buffer as its own tensor (a head's q, k or v for the steps view).
Tensor copy_block(const float* src, std::int64_t rows, std::int64_t cols, std::int64_t ld);

/// Sizes the score-to-context stages of one head's steps for `rows` queries over `cols` keys;
/// attend() fills them.
void size_stages(HeadSteps& steps, std::int64_t rows, std::int64_t cols, std::int64_t head_dim);

/// Q, K and V after projection, as row-strided views.  Query row r of the window of batch item
/// n, head h starts at q + (n * rows + r) * ldq + h * head_dim and already carries the score
/// scale (1/sqrt(d) for scaled dot products).  Key/value row j of item n for key/value head g
/// starts at k + (n * Sp + j) * ldk + g * head_dim.  Query head h reads key/value head
/// h / (num_heads / num_kv_heads), as grouped-query attention repeats them.
struct ProjectedHeads {
    const float* q = nullptr;
    std::int64_t ldq = 0;
    const float* k = nullptr;
    std::int64_t ldk = 0;
    const float* v = nullptr;
    std::int64_t ldv = 0;
    std::int64_t batch = 0, num_heads = 0, num_kv_heads = 0, head_dim = 0;
    std::int64_t target_len = 0;  ///< L, the whole sequence (dropout streams use absolute rows)
    std::int64_t source_len = 0;  ///< S', every key column
    /// Additive (Bahdanau) scoring: w_h . tanh(q + k) with w [num_heads, head_dim]; null for
    /// scaled dot products.
    const float* additive_v = nullptr;
    float score_scale = 1.0f;  ///< what q carries; undone for the raw scores of the steps view
};

/// Sees every RowBlock attend() computes.  Called from several threads at once; `slot` (in [0,
/// observer_slots(...))) tells them apart: calls with the same slot never overlap, so each slot may
/// accumulate on its own.
using RowObserver = std::function<void(std::size_t slot, const RowBlock& block)>;

/// The slots attend() hands an observer for these sizes (the window's rows).
std::size_t observer_slots(std::int64_t batch, std::int64_t rows, std::int64_t source_len,
                           int threads);

struct AttendOptions {
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    bool need_weights = true;
    float dropout = 0.0f;  ///< applied only when > 0
    std::uint64_t dropout_seed = 0;
    int num_threads = 1;
    /// Sees every block of rows (statistics computed without keeping maps); null: none.
    const RowObserver* observer = nullptr;
    /// Only query heads [first_head, last_head) are computed (-1: to the last): the contexts
    /// of the others are left as they were, and weights and their mean cover these heads
    /// (weights' head k is head first_head + k).
    std::int64_t first_head = 0, last_head = -1;
};

/// Fills `result.weights` ([N, win.heads, win.rows, win.cols]) and `result.mean_weights` when
/// need_weights (allocating them), `result.fully_masked_rows`, the score-to-context stages of
/// `result.steps` when present (the caller sizes them and fills q, k, v), and the heads'
/// contexts into concat [N * win.rows, num_heads * head_dim] with row stride ld_concat.
void attend(const ProjectedHeads& in, const ops::MaskSpec& masks, const ResultWindow& win,
            const AttendOptions& options, AttentionResult& result, float* concat,
            std::int64_t ld_concat);

}  // namespace attnviz::layers
