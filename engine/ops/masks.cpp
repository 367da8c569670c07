#include "engine/ops/masks.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace attnviz::ops {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

void MaskSpec::validate() const {
    if (key_padding_mask) {
        const Shape want{batch, source_len};
        if (key_padding_mask->shape != want)
            throw std::invalid_argument("key_padding_mask is " +
                                        shape_string(key_padding_mask->shape) + " but keys are " +
                                        shape_string(want) + " (batch, source length)");
    }
    if (attn_mask) {
        const Shape want2{target_len, source_len};
        const Shape want3{batch * num_heads, target_len, source_len};
        if (attn_mask->shape != want2 && attn_mask->shape != want3)
            throw std::invalid_argument("attn_mask is " + shape_string(attn_mask->shape) +
                                        " but should be " + shape_string(want2) + " or " +
                                        shape_string(want3) + " (batch*num_heads, L, S)");
    }
}

void MaskSpec::apply(float* scores, std::int64_t n, std::int64_t h, std::int64_t row_begin,
                     std::int64_t rows, std::int64_t columns) const {
    const std::int64_t L = target_len, ld = source_len + extra_columns;
    const std::int64_t S = columns < 0 ? source_len : std::min(source_len, columns);
    const std::int64_t Sm = source_len;  // the masks' row length
    const std::int64_t i0 = row_begin, i1 = rows < 0 ? L : row_begin + rows;
    float* const first_row = scores - i0 * ld;  // indexed by absolute query row i
    if (attn_mask) {
        const std::int64_t base = attn_mask->shape.size() == 3 ? (n * num_heads + h) * L * Sm : 0;
        const float* m = attn_mask->values.data() + base;
        for (std::int64_t i = i0; i < i1; ++i)
            for (std::int64_t j = 0; j < S; ++j) {
                if (attn_mask->is_bool()) {
                    if (m[i * Sm + j] != 0.0f) first_row[i * ld + j] = kNegInf;
                } else {
                    first_row[i * ld + j] += m[i * Sm + j];
                }
            }
    }
    if (key_padding_mask) {
        for (std::int64_t j = 0; j < S; ++j) {
            const float add = key_padding_mask->additive_at(static_cast<std::size_t>(n * Sm + j));
            if (add == 0.0f) continue;
            for (std::int64_t i = i0; i < i1; ++i)
                first_row[i * ld + j] += add;
        }
    }
    if (causal) {
        for (std::int64_t i = i0; i < i1; ++i)
            for (std::int64_t j = i + 1; j < S; ++j)
                first_row[i * ld + j] = kNegInf;
    }
}

Mask causal_mask(std::int64_t target_len, std::int64_t source_len) {
    Mask m = Mask::additive({target_len, source_len},
                            std::vector<float>(shape_numel({target_len, source_len}), 0.0f));
    for (std::int64_t i = 0; i < target_len; ++i)
        for (std::int64_t j = i + 1; j < source_len; ++j)
            m.values[static_cast<std::size_t>(i * source_len + j)] = kNegInf;
    return m;
}

}  // namespace attnviz::ops
