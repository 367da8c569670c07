// Run-time choice of the attention kernels: the variant of the Isa asked for, which must be
// one softmax.h's dispatch found compiled in and runnable here.  Compiled with the baseline
// flags, so nothing here executes an instruction the CPU may lack.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/kernels/attention.h"
#include "engine/kernels/attention_variants.h"

namespace attnviz::kernels {

namespace {

using detail::AttentionVariant;

const AttentionVariant* compiled_attention(Isa isa) {
    switch (isa) {
        case Isa::Scalar:
            return &detail::attention_scalar;
#if defined(ATTNVIZ_HAVE_SSE2)
        case Isa::SSE2:
            return &detail::attention_sse2;
#endif
#if defined(ATTNVIZ_HAVE_AVX2)
        case Isa::AVX2:
            return &detail::attention_avx2;
#endif
#if defined(ATTNVIZ_HAVE_AVX512)
        case Isa::AVX512:
            return &detail::attention_avx512;
#endif
#if defined(ATTNVIZ_HAVE_NEON)
        case Isa::NEON:
            return &detail::attention_neon;
#endif
        default:
            return nullptr;
    }
}

/// The variants this binary has and this CPU runs (the softmax's), by Isa; built once.
const AttentionVariant& variant(Isa isa) {
    static const auto usable = [] {
        std::array<const AttentionVariant*, 5> t{};
        for (Isa i : available_isas())
            if (static_cast<std::size_t>(i) < t.size())
                t[static_cast<std::size_t>(i)] = compiled_attention(i);
        return t;
    }();
    const auto i = static_cast<std::size_t>(isa);
    if (i >= usable.size() || usable[i] == nullptr)
        throw std::invalid_argument(std::string("attention kernel variant '") + isa_name(isa) +
                                    "' is not available on this CPU or in this build");
    return *usable[i];
}

}  // namespace

std::size_t packed_keys_floats(Isa isa, std::int64_t keys, std::int64_t head_dim) {
    const std::int64_t panel = variant(isa).key_panel;
    return static_cast<std::size_t>((keys + panel - 1) / panel * panel * head_dim);
}

void pack_keys(Isa isa, const float* k, std::int64_t ldk, std::int64_t keys, std::int64_t head_dim,
               float* packed) {
    variant(isa).pack_keys(k, ldk, keys, head_dim, packed);
}

std::size_t packed_values_floats(Isa isa, std::int64_t keys, std::int64_t head_dim) {
    const std::int64_t lanes = variant(isa).lanes;
    return static_cast<std::size_t>(keys * ((head_dim + lanes - 1) / lanes * lanes));
}

void pack_values(Isa isa, const float* v, std::int64_t ldv, std::int64_t keys,
                 std::int64_t head_dim, float* packed) {
    variant(isa).pack_values(v, ldv, keys, head_dim, packed);
}

void attention_scores(Isa isa, const float* q, std::int64_t ldq, std::int64_t rows,
                      std::int64_t head_dim, const float* packed_keys, std::int64_t keys, float* s,
                      std::int64_t lds) {
    variant(isa).scores(q, ldq, rows, head_dim, packed_keys, keys, s, lds);
}

void attention_context(Isa isa, const float* p, std::int64_t ldp, std::int64_t rows,
                       std::int64_t keys, const float* packed_values, std::int64_t head_dim,
                       float* out, std::int64_t ldo) {
    variant(isa).context(p, ldp, rows, keys, packed_values, head_dim, out, ldo);
}

void store_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
                float scale, float* dst, std::int64_t ldd, bool non_temporal) {
    variant(isa).store_rows(src, lds, rows, cols, scale, dst, ldd, non_temporal);
}

void add_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
              float* dst, std::int64_t ldd, bool accumulate) {
    variant(isa).add_rows(src, lds, rows, cols, dst, ldd, accumulate);
}

void stream_and_add_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows,
                         std::int64_t cols, float* dst, std::int64_t ldd, float* sum,
                         std::int64_t ldsum, bool accumulate) {
    variant(isa).stream_and_add_rows(src, lds, rows, cols, dst, ldd, sum, ldsum, accumulate);
}

}  // namespace attnviz::kernels
