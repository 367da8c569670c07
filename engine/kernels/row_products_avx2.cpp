// One-row products (row_products.h) for AVX2 + FMA + F16C: the float formats and GGUF's
// legacy blocks of 32.  Four rows at a time share every load of the activation.  The blocks
// go one at a time (32 values fill a 256-bit vector), their integer products through
// vpmaddubsw (unsigned × signed bytes, pairs summed to int16) and vpmaddwd.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/kernels/row_products_blocks.h"
#include "engine/kernels/row_products_rows.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {

namespace {

using u8 = RowByte;

std::uint16_t u16_at(const u8* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

float sum_lanes(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}

// --- float formats ---------------------------------------------------------------------------

// Each loads 8 weights as float32, exactly (BF16 by a shift: see row_products_avx512.cpp for
// why not vdpbf16ps), or one for the row's last values.
struct F32Weights {
    static constexpr std::size_t kBytes = 4;
    static __m256 load(const u8* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static float one(const u8* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
};
struct F16Weights {
    static constexpr std::size_t kBytes = 2;
    static __m256 load(const u8* p) {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static float one(const u8* p) { return _cvtsh_ss(u16_at(p)); }
};
struct BF16Weights {
    static constexpr std::size_t kBytes = 2;
    static __m256 load(const u8* p) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    }
    static float one(const u8* p) {
        const std::uint32_t bits = std::uint32_t{u16_at(p)} << 16;
        float v;
        std::memcpy(&v, &bits, 4);
        return v;
    }
};

template <class W>
struct FloatKernel {
    const float* x;
    std::int64_t k;

    template <int R>
    void run(const u8* const* rows, const u8* const* ahead, float* out) const {
        constexpr std::size_t kStep = 8 * W::kBytes;
        // Two sums a row, so that a lone row is not one chain of dependent FMAs.
        __m256 a[R], b[R];
        for (int r = 0; r < R; ++r)
            a[r] = b[r] = _mm256_setzero_ps();
        std::int64_t c = 0;
        for (; c + 16 <= k; c += 16) {
            const __m256 x0 = _mm256_loadu_ps(x + c), x1 = _mm256_loadu_ps(x + c + 8);
            const auto at = static_cast<std::size_t>(c) * W::kBytes;
            for (int r = 0; r < R; ++r) {
                prefetch_row(ahead[r], at);
                a[r] = _mm256_fmadd_ps(W::load(rows[r] + at), x0, a[r]);
                b[r] = _mm256_fmadd_ps(W::load(rows[r] + at + kStep), x1, b[r]);
            }
        }
        for (; c + 8 <= k; c += 8) {
            const __m256 x0 = _mm256_loadu_ps(x + c);
            const auto at = static_cast<std::size_t>(c) * W::kBytes;
            for (int r = 0; r < R; ++r)
                a[r] = _mm256_fmadd_ps(W::load(rows[r] + at), x0, a[r]);
        }
        for (int r = 0; r < R; ++r) {
            float tail = 0.0f;
            for (std::int64_t t = c; t < k; ++t)
                tail += W::one(rows[r] + static_cast<std::size_t>(t) * W::kBytes) * x[t];
            out[r] = sum_lanes(_mm256_add_ps(a[r], b[r])) + tail;
        }
    }
};

template <class W>
void float_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    each_row_group(base, row_bytes, order, n, y, accumulate, FloatKernel<W>{x.x, x.k});
}

// --- the legacy blocks of 32 -----------------------------------------------------------------

/// The 32 values of a block as unsigned bytes in order: low nibbles (values 0-15) in the low
/// half, high nibbles in the high half, plus 16 where qh has the value's bit.
template <class B>
[[gnu::always_inline]] inline __m256i nibble_values(const u8* block) {
    const __m256i both = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + B::kQuants)));
    const __m256i q = _mm256_and_si256(
        _mm256_srlv_epi32(both, _mm256_set_epi32(4, 4, 4, 4, 0, 0, 0, 0)), _mm256_set1_epi8(0x0F));
    if constexpr (B::kHigh < 0) {
        return q;
    } else {
        std::uint32_t qh;
        std::memcpy(&qh, block + B::kHigh, 4);
        // Byte i takes qh's byte i / 8 and keeps bit i % 8.
        const __m256i spread = _mm256_shuffle_epi8(
            _mm256_set1_epi32(static_cast<int>(qh)),
            _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0));
        const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201));
        const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
        return _mm256_or_si256(q, _mm256_and_si256(set, _mm256_set1_epi8(16)));
    }
}

/// Σ w·x per 32-bit lane (4 values each) of one block of row weights against the activation
/// block xq; `corr` holds −kZero·Σx per lane.  Signed Q8_0 goes as |w| × (x with w's sign),
/// at most 2·128·127 per pair, so vpmaddubsw cannot saturate; the nibble values are ≤ 31.
template <class B>
[[gnu::always_inline]] inline __m256i block_dot(const u8* block, __m256i xq, __m256i corr) {
    const __m256i ones = _mm256_set1_epi16(1);
    if constexpr (B::kSigned) {
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + B::kQuants));
        return _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_abs_epi8(w), _mm256_sign_epi8(xq, w)),
                                 ones);
    } else {
        const __m256i dot =
            _mm256_madd_epi16(_mm256_maddubs_epi16(nibble_values<B>(block), xq), ones);
        return B::kZero ? _mm256_add_epi32(dot, corr) : dot;
    }
}

template <class B>
struct BlockKernel {
    const RowInput& x;

    template <int R>
    void run(const u8* const* rows, const u8* const* ahead, float* out) const {
        __m256 acc[R];
        float acc_min[R];
        for (int r = 0; r < R; ++r) {
            acc[r] = _mm256_setzero_ps();
            acc_min[r] = 0.0f;
        }
        const std::size_t blocks = static_cast<std::size_t>(x.k / 32);
        for (std::size_t b = 0; b < blocks; ++b) {
            const __m256i xq =
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.q32.data() + b * 32));
            const __m256i corr =
                B::kZero ? _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(B::kZero), xq),
                                             _mm256_set1_epi16(-1))
                         : _mm256_setzero_si256();
            const float dx = x.d32[b];
            for (int r = 0; r < R; ++r) {
                const u8* block = rows[r] + b * B::kBytes;
                prefetch_row(ahead[r], b * B::kBytes);
                const __m256 dot = _mm256_cvtepi32_ps(block_dot<B>(block, xq, corr));
                const float d = _cvtsh_ss(u16_at(block)) * dx;
                acc[r] = _mm256_fmadd_ps(dot, _mm256_set1_ps(d), acc[r]);
                if constexpr (B::kMin >= 0)
                    acc_min[r] += _cvtsh_ss(u16_at(block + B::kMin)) * x.s32[b];
            }
        }
        for (int r = 0; r < R; ++r)
            out[r] = sum_lanes(acc[r]) + acc_min[r];
    }
};

template <class B>
void block_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    each_row_group(base, row_bytes, order, n, y, accumulate, BlockKernel<B>{x});
}

}  // namespace

void fill_row_products_avx2(RowProductTable& table) {
    const auto set = [&](RowFormat f, RowProductFn fn) { table[static_cast<int>(f)] = fn; };
    set(RowFormat::F32, float_rows<F32Weights>);
    set(RowFormat::F16, float_rows<F16Weights>);
    set(RowFormat::BF16, float_rows<BF16Weights>);
    set(RowFormat::Q8_0, block_rows<Q8_0Block>);
    set(RowFormat::Q4_0, block_rows<Q4_0Block>);
    set(RowFormat::Q4_1, block_rows<Q4_1Block>);
    set(RowFormat::Q5_0, block_rows<Q5_0Block>);
    set(RowFormat::Q5_1, block_rows<Q5_1Block>);
}

}  // namespace attnviz::kernels::detail
