// Internal to engine/kernels: the per-ISA attention kernels behind attention.h, one table per
// attention_<isa>.cpp unit.  Declarations only (no inline code), as softmax_variants.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::kernels::detail {

struct AttentionVariant {
    std::int64_t key_panel;  ///< keys per packed panel
    std::int64_t lanes;      ///< packed value rows are padded to a multiple of this
    void (*pack_keys)(const float* k, std::int64_t ldk, std::int64_t keys, std::int64_t d,
                      float* out);
    void (*pack_values)(const float* v, std::int64_t ldv, std::int64_t keys, std::int64_t d,
                        float* out);
    void (*scores)(const float* q, std::int64_t ldq, std::int64_t rows, std::int64_t d,
                   const float* packed, std::int64_t keys, float* s, std::int64_t lds);
    void (*context)(const float* p, std::int64_t ldp, std::int64_t rows, std::int64_t keys,
                    const float* packed, std::int64_t d, float* out, std::int64_t ldo);
    void (*store_rows)(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
                       float scale, float* dst, std::int64_t ldd, bool non_temporal);
    void (*add_rows)(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
                     float* dst, std::int64_t ldd, bool accumulate);
    void (*stream_and_add_rows)(const float* src, std::int64_t lds, std::int64_t rows,
                                std::int64_t cols, float* dst, std::int64_t ldd, float* sum,
                                std::int64_t ldsum, bool accumulate);
};

extern const AttentionVariant attention_scalar;
extern const AttentionVariant attention_sse2;
extern const AttentionVariant attention_avx2;
extern const AttentionVariant attention_avx512;
extern const AttentionVariant attention_neon;

}  // namespace attnviz::kernels::detail
