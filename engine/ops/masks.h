// Attention masks as PyTorch combines them: a key_padding_mask [N,S] and an attn_mask [L,S]
// or [N*H,L,S] (bool: true = masked; float: added), plus an optional causal mask (key j > query
// i masked).  Columns past S (bias_k / zero-attention columns) are never masked, exactly as
// PyTorch pads both masks with a zero column for them.
#pragma once

#include <cstdint>

#include "engine/tensor.h"

namespace attnviz::ops {

struct MaskSpec {
    const Mask* key_padding_mask = nullptr;
    const Mask* attn_mask = nullptr;
    bool causal = false;
    std::int64_t batch = 0, num_heads = 0, target_len = 0, source_len = 0;
    std::int64_t extra_columns = 0;  ///< bias_k and zero-attention columns after the S keys

    bool any() const { return key_padding_mask || attn_mask || causal; }
    /// Throws std::invalid_argument with the expected and actual shapes.
    void validate() const;
    /// scores holds rows [row_begin, row_begin + rows) of the [L, S + extra_columns] scores of
    /// batch item n, head h (rows < 0: to the last row); the mask is added to their columns
    /// [0, columns) (columns < 0: all of them; the others are left as they are).
    void apply(float* scores, std::int64_t n, std::int64_t h, std::int64_t row_begin = 0,
               std::int64_t rows = -1, std::int64_t columns = -1) const;
};

/// A float [L,S] mask with -inf above the diagonal (key j > query i), 0 elsewhere.
Mask causal_mask(std::int64_t target_len, std::int64_t source_len);

}  // namespace attnviz::ops
