// One-row products (row_products.h) for AVX-512 (F, BW, VL, DQ, VNNI) + F16C: the float
// formats and GGUF's legacy blocks of 32.  A product reads each weight byte once, so these
// loops aim at the memory's read bandwidth: four rows at a time share every load of the
// activation, the rows a few KiB later are prefetched (row_products_rows.h), and the blocks'
// bytes go from two loads straight to the vector lanes that need them (word permutations),
// with no per-byte scalar work.
// GCC 12's AVX-512 intrinsics fill unused lanes from _mm512_undefined_*(), which
// -W(maybe-)uninitialized reports once inlined (GCC PR 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/kernels/row_products_blocks.h"
#include "engine/kernels/row_products_rows.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {
namespace {

using u8 = RowByte;

/// A constant vector's lanes (not std::array: this unit instantiates no standard-library
/// template that another unit could share, see row_products_rows.h).
template <class T, int N>
struct Table {
    alignas(64) T v[N];
};

/// A mask of the first `count` lanes (none when count <= 0).
[[gnu::always_inline]] inline __mmask64 first_bytes(std::int64_t count) {
    if (count <= 0) return 0;
    return count >= 64 ? ~__mmask64{0} : (__mmask64{1} << count) - 1;
}

// --- float formats ---------------------------------------------------------------------------

// Each loads 16 weights as float32, exactly; `m` limits the load to the row's last values.
// BF16 is widened by a shift, not multiplied with vdpbf16ps: that instruction would round the
// activation to bfloat16 too, an error of 2^-9 per value that the float32 contract excludes.
struct F32Weights {
    static constexpr std::size_t kBytes = 4;
    static __m512 load(const u8* p) { return _mm512_loadu_ps(p); }
    static __m512 load(const u8* p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
};
struct F16Weights {
    static constexpr std::size_t kBytes = 2;
    static __m512 load(const u8* p) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static __m512 load(const u8* p, __mmask16 m) {
        return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
    }
};
struct BF16Weights {
    static constexpr std::size_t kBytes = 2;
    static __m512 widen(__m256i h) {
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    static __m512 load(const u8* p) {
        return widen(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static __m512 load(const u8* p, __mmask16 m) { return widen(_mm256_maskz_loadu_epi16(m, p)); }
};

template <class W>
struct FloatKernel {
    const float* x;
    std::int64_t k;

    template <int R>
    void run(const u8* const* rows, const u8* const* ahead, float* out) const {
        constexpr std::size_t kStep = 16 * W::kBytes;
        // Two sums a row: one chain of dependent FMAs would cap a lone row below the
        // memory's speed.
        __m512 a[R], b[R];
        for (int r = 0; r < R; ++r)
            a[r] = b[r] = _mm512_setzero_ps();
        std::int64_t c = 0;
        for (; c + 32 <= k; c += 32) {
            const __m512 x0 = _mm512_loadu_ps(x + c), x1 = _mm512_loadu_ps(x + c + 16);
            const auto at = static_cast<std::size_t>(c) * W::kBytes;
            for (int r = 0; r < R; ++r) {
                for (std::size_t line = 0; line < 2 * kStep; line += 64)
                    prefetch_row(ahead[r], at + line);
                a[r] = _mm512_fmadd_ps(W::load(rows[r] + at), x0, a[r]);
                b[r] = _mm512_fmadd_ps(W::load(rows[r] + at + kStep), x1, b[r]);
            }
        }
        for (; c < k; c += 16) {
            const auto m = static_cast<__mmask16>(first_bytes(k - c));
            const __m512 x0 = _mm512_maskz_loadu_ps(m, x + c);
            const auto at = static_cast<std::size_t>(c) * W::kBytes;
            for (int r = 0; r < R; ++r)
                a[r] = _mm512_fmadd_ps(W::load(rows[r] + at, m), x0, a[r]);
        }
        for (int r = 0; r < R; ++r)
            out[r] = _mm512_reduce_add_ps(_mm512_add_ps(a[r], b[r]));
    }
};

template <class W>
void float_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    each_row_group(base, row_bytes, order, n, y, accumulate, FloatKernel<W>{x.x, x.k});
}

// --- the legacy blocks of 32 -----------------------------------------------------------------
//
// A group of G blocks (4; 2 for Q8_0: 68 to 96 bytes) is read as its first 64 bytes and the
// 4 to 32 after them (rest_of_group), and one word permutation gathers the blocks' quants,
// another their half scales (and minimums, and Q5's high bits).  All offsets in a block are even,
// so words suffice (AVX512BW; byte permutations would need VBMI).  The integer products go through
// vpdpbusd (unsigned weights × signed activation): the 4-bit and 5-bit values are unsigned as
// stored, their zero point (8 or 16) is subtracted as C·Σx, which starts the sum; Q8_0's
// signed values are made unsigned by adding 128 (xor), and 128·Σx is subtracted.  Sums per
// 32-bit lane never exceed 4·255·128, so nothing saturates.

/// A group of G blocks of type B.
template <class B, int G>
struct Layout : B {
    static constexpr int kBlocks = G;
    /// What the products' first sum starts from, per activation value: −C·x.
    static constexpr int kOffset = B::kSigned ? 128 : B::kZero;
};
using Q8_0Layout = Layout<Q8_0Block, 2>;
using Q4_0Layout = Layout<Q4_0Block, 4>;
using Q4_1Layout = Layout<Q4_1Block, 4>;
using Q5_0Layout = Layout<Q5_0Block, 4>;
using Q5_1Layout = Layout<Q5_1Block, 4>;

/// The words of a permutation's output, as indices into the two loads of a group: word w is
/// bytes 2w and 2w + 1 of the group.
template <class L>
struct GroupIndex {
    static constexpr int kGroupBytes = L::kBlocks * L::kBytes;
    /// The quants, block after block (16 words a block for Q8_0, 8 for the nibble types).
    static constexpr Table<short, 32> quants() {
        Table<short, 32> idx{};
        const int per_block = 32 / L::kBlocks;
        for (int i = 0; i < 32; ++i)
            idx.v[i] =
                static_cast<short>((L::kBytes * (i / per_block) + L::kQuants) / 2 + i % per_block);
        return idx;
    }
    /// Words 0-15: d of each block, repeated over the 16 / G lanes its products land in.
    /// Words 16-19: m of each block.  Words 24-31 (the last 128 bits): qh of each block.
    static constexpr Table<short, 32> meta() {
        Table<short, 32> idx{};
        for (int i = 0; i < 16; ++i)
            idx.v[i] = static_cast<short>(L::kBytes * (i / (16 / L::kBlocks)) / 2);
        for (int j = 0; j < L::kBlocks; ++j) {
            if constexpr (L::kMin >= 0)
                idx.v[16 + j] = static_cast<short>((L::kBytes * j + L::kMin) / 2);
            if constexpr (L::kHigh >= 0) {
                idx.v[24 + 2 * j] = static_cast<short>((L::kBytes * j + L::kHigh) / 2);
                idx.v[25 + 2 * j] = static_cast<short>((L::kBytes * j + L::kHigh) / 2 + 1);
            }
        }
        return idx;
    }
};

/// The activation of one group of the nibble types, arranged once per call as their
/// products read it: `lo` holds each block's values 0-15 (a 128-bit lane per block, as the
/// low nibbles come out of the weights), `hi` its values 16-31, `corr` −C·Σx per 32-bit lane
/// of the products (C the type's zero point).  Q8_0 reads the activation as prepared.
struct alignas(64) PackedGroup {
    __m512i lo, hi, corr;
};

/// The activation of one group in registers: also dx, the activation's scale of each lane's
/// block, and s, d·Σq of each block (what the minimums multiply).
struct GroupActivation {
    __m512i lo, hi, corr;
    __m512 dx;
    __m128 s;
};

template <class L>
void pack_activation(const RowInput& x, std::vector<PackedGroup>& pack) {
    const std::int64_t blocks = x.k / 32;
    pack.resize(static_cast<std::size_t>((blocks + 3) / 4));
    const __m512i zero = _mm512_setzero_si512();
    const __m512i c = _mm512_set1_epi8(static_cast<char>(L::kOffset));
    for (std::size_t g = 0; g < pack.size(); ++g) {
        const std::int64_t values = x.k - static_cast<std::int64_t>(g) * 128;
        const std::int8_t* q = x.q32.data() + g * 128;
        const __m512i x0 = _mm512_maskz_loadu_epi8(first_bytes(values), q);
        const __m512i x1 = _mm512_maskz_loadu_epi8(first_bytes(values - 64), byte_address(q, 64));
        PackedGroup& p = pack[g];
        p.lo = _mm512_shuffle_i64x2(x0, x1, _MM_SHUFFLE(2, 0, 2, 0));
        p.hi = _mm512_shuffle_i64x2(x0, x1, _MM_SHUFFLE(3, 1, 3, 1));
        p.corr = _mm512_sub_epi32(zero,
                                  _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(zero, c, p.lo), c, p.hi));
    }
}

/// Group g of the activation, `here` of its blocks present (the rest read as 0).
template <class L, bool Full>
[[gnu::always_inline]] inline GroupActivation activation(const RowInput& x, const PackedGroup* pack,
                                                         std::int64_t g, std::int64_t here,
                                                         __m512i spread) {
    const std::int64_t b0 = g * L::kBlocks;
    const auto m = static_cast<__mmask16>(first_bytes(here));
    GroupActivation a;
    const float* d = x.d32.data() + b0;
    // A full group reads exactly its kBlocks scales: Q8_0's groups hold 2, and a 4-float load
    // would read past the last one.
    __m512 dx;
    if constexpr (L::kBlocks == 4)
        dx = Full ? _mm512_castps128_ps512(_mm_loadu_ps(d)) : _mm512_maskz_loadu_ps(m, d);
    else
        dx = _mm512_maskz_loadu_ps(Full ? static_cast<__mmask16>((1u << L::kBlocks) - 1) : m, d);
    a.dx = _mm512_permutexvar_ps(spread, dx);
    a.s = _mm_setzero_ps();
    if constexpr (L::kMin >= 0) {
        static_assert(L::kBlocks == 4, "a minimum's sums are read four blocks at a time");
        a.s = Full ? _mm_loadu_ps(x.s32.data() + b0)
                   : _mm_maskz_loadu_ps(static_cast<__mmask8>(m), x.s32.data() + b0);
    }
    if constexpr (L::kSigned) {
        // 128·Σx, subtracted: the sum starts from dpbusd(0, 128, −x).
        const std::int8_t* q = x.q32.data() + b0 * 32;
        const __m512i zero = _mm512_setzero_si512();
        a.lo = Full ? _mm512_loadu_si512(q) : _mm512_maskz_loadu_epi8(first_bytes(here * 32), q);
        a.hi = zero;
        a.corr = _mm512_dpbusd_epi32(zero, _mm512_set1_epi8(static_cast<char>(0x80)),
                                     _mm512_sub_epi8(zero, a.lo));
    } else {
        a.lo = pack[g].lo;
        a.hi = pack[g].hi;
        a.corr = pack[g].corr;
    }
    return a;
}

// Q5's high bits: value e of block j (lane j) takes bit e (low half) or 16 + e (high half)
// of qh_j, which sits at bytes 4j..4j+3 of the lane once the last lane is broadcast.
constexpr Table<char, 64> high_bytes(int half) {
    Table<char, 64> t{};
    for (int i = 0; i < 64; ++i)
        t.v[i] = static_cast<char>(4 * (i / 16) + 2 * half + (i % 16) / 8);
    return t;
}

// Lane i of a group's products belongs to block i / (16 / G).
constexpr Table<int, 16> spread_index(int blocks) {
    Table<int, 16> t{};
    for (int i = 0; i < 16; ++i)
        t.v[i] = i / (16 / blocks);
    return t;
}

/// A group's bytes from 64 on (4 to 32 of them).  A 64-byte load that crosses a cache line
/// costs two load slots; these narrower loads rarely cross one, and that makes Q8_0 and Q4_0
/// 30-40% faster in the core.
template <int Bytes>
[[gnu::always_inline]] inline __m512i rest_of_group(const u8* p) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16 || Bytes == 24 || Bytes == 32);
    if constexpr (Bytes == 4) {
        std::int32_t v;
        std::memcpy(&v, p, 4);
        return _mm512_castsi128_si512(_mm_cvtsi32_si128(v));
    } else if constexpr (Bytes == 8) {
        return _mm512_castsi128_si512(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
    } else if constexpr (Bytes == 16) {
        return _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    } else if constexpr (Bytes == 24) {
        return _mm512_castsi256_si512(_mm256_maskz_loadu_epi8(0xFFFFFF, p));
    } else {
        return _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
}

/// The weights' part of a group: permutation tables and bit masks, loaded once per call.
template <class L>
struct GroupConstants {
    static constexpr Table<short, 32> kQuantIndex = GroupIndex<L>::quants();
    static constexpr Table<short, 32> kMetaIndex = GroupIndex<L>::meta();
    static constexpr Table<char, 64> kHighLo = high_bytes(0);
    static constexpr Table<char, 64> kHighHi = high_bytes(1);

    static constexpr Table<int, 16> kSpread = spread_index(L::kBlocks);

    __m512i spread = _mm512_load_si512(kSpread.v);
    __m512i quant_index = _mm512_load_si512(kQuantIndex.v);
    __m512i meta_index = _mm512_load_si512(kMetaIndex.v);
    __m512i high_lo = _mm512_load_si512(kHighLo.v);
    __m512i high_hi = _mm512_load_si512(kHighHi.v);
    __m512i bit = _mm512_set1_epi64(0x8040201008040201);
    __m512i nibble = _mm512_set1_epi8(0x0F);
    __m512i sixteen = _mm512_set1_epi8(16);
    __m512i sign = _mm512_set1_epi8(static_cast<char>(0x80));
};

/// Adds one group of one row (loads a, b) to its sums: acc per lane, acc_min for m·s.
template <class L>
[[gnu::always_inline]] inline void group_product(const GroupConstants<L>& k, __m512i a, __m512i b,
                                                 const GroupActivation& x, __m512& acc,
                                                 __m128& acc_min) {
    const __m512i q = _mm512_permutex2var_epi16(a, k.quant_index, b);
    const __m512i meta = _mm512_permutex2var_epi16(a, k.meta_index, b);
    __m512i dot;
    if constexpr (L::kSigned) {
        dot = _mm512_dpbusd_epi32(x.corr, _mm512_xor_si512(q, k.sign), x.lo);
    } else {
        __m512i lo = _mm512_and_si512(q, k.nibble);
        __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), k.nibble);
        if constexpr (L::kHigh >= 0) {
            const __m512i qh = _mm512_shuffle_i32x4(meta, meta, 0xFF);
            const __mmask64 mlo = _mm512_test_epi8_mask(_mm512_shuffle_epi8(qh, k.high_lo), k.bit);
            const __mmask64 mhi = _mm512_test_epi8_mask(_mm512_shuffle_epi8(qh, k.high_hi), k.bit);
            lo = _mm512_mask_add_epi8(lo, mlo, lo, k.sixteen);
            hi = _mm512_mask_add_epi8(hi, mhi, hi, k.sixteen);
        }
        dot = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(x.corr, lo, x.lo), hi, x.hi);
    }
    const __m512 d = _mm512_cvtph_ps(_mm512_castsi512_si256(meta));
    acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(d, x.dx), acc);
    if constexpr (L::kMin >= 0)
        acc_min = _mm_fmadd_ps(_mm_cvtph_ps(_mm512_extracti32x4_epi32(meta, 2)), x.s, acc_min);
}

template <class L>
struct BlockKernel {
    const RowInput& x;
    const PackedGroup* pack;

    template <int R>
    void run(const u8* const* rows, const u8* const* ahead, float* out) const {
        using Index = GroupIndex<L>;
        const GroupConstants<L> k;
        __m512 acc[R];
        __m128 acc_min[R];
        for (int r = 0; r < R; ++r) {
            acc[r] = _mm512_setzero_ps();
            acc_min[r] = _mm_setzero_ps();
        }
        const std::int64_t blocks = x.k / 32, full = blocks / L::kBlocks;
        for (std::int64_t g = 0; g < full; ++g) {
            const GroupActivation a = activation<L, true>(x, pack, g, L::kBlocks, k.spread);
            const auto at = static_cast<std::size_t>(g) * Index::kGroupBytes;
            for (int r = 0; r < R; ++r) {
                prefetch_row(ahead[r], at);
                prefetch_row(ahead[r], at + 64);
                group_product(k, _mm512_loadu_si512(rows[r] + at),
                              rest_of_group<Index::kGroupBytes - 64>(rows[r] + at + 64), a, acc[r],
                              acc_min[r]);
            }
        }
        if (const std::int64_t rest = blocks - full * L::kBlocks; rest > 0) {
            // The last blocks, loaded under masks so that nothing past the row is read; the
            // missing blocks' scales load as 0 and so does their activation.
            const GroupActivation a = activation<L, false>(x, pack, full, rest, k.spread);
            const auto at = static_cast<std::size_t>(full) * Index::kGroupBytes;
            const std::int64_t bytes = rest * L::kBytes;
            const __mmask64 m0 = first_bytes(bytes), m1 = first_bytes(bytes - 64);
            for (int r = 0; r < R; ++r)
                group_product(k, _mm512_maskz_loadu_epi8(m0, rows[r] + at),
                              _mm512_maskz_loadu_epi8(m1, byte_address(rows[r], at + 64)), a,
                              acc[r], acc_min[r]);
        }
        for (int r = 0; r < R; ++r) {
            out[r] = _mm512_reduce_add_ps(acc[r]);
            if constexpr (L::kMin >= 0) {
                const __m128 m = _mm_add_ps(acc_min[r], _mm_movehl_ps(acc_min[r], acc_min[r]));
                out[r] += _mm_cvtss_f32(_mm_add_ss(m, _mm_movehdup_ps(m)));
            }
        }
    }
};

template <class L>
void block_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    const PackedGroup* packed = nullptr;
    if constexpr (!L::kSigned) {
        // One pack per thread, kept: a product runs many times per generated token.
        thread_local std::vector<PackedGroup> pack;
        pack_activation<L>(x, pack);
        packed = pack.data();
    }
    each_row_group(base, row_bytes, order, n, y, accumulate, BlockKernel<L>{x, packed});
}

}  // namespace

void fill_row_products_avx512(RowProductTable& table) {
    const auto set = [&](RowFormat f, RowProductFn fn) { table[static_cast<int>(f)] = fn; };
    set(RowFormat::F32, float_rows<F32Weights>);
    set(RowFormat::F16, float_rows<F16Weights>);
    set(RowFormat::BF16, float_rows<BF16Weights>);
    set(RowFormat::Q8_0, block_rows<Q8_0Layout>);
    set(RowFormat::Q4_0, block_rows<Q4_0Layout>);
    set(RowFormat::Q4_1, block_rows<Q4_1Layout>);
    set(RowFormat::Q5_0, block_rows<Q5_0Layout>);
    set(RowFormat::Q5_1, block_rows<Q5_1Layout>);
}

}  // namespace attnviz::kernels::detail
