// The softmax and exp kernels, written once as templates over a "lanes" type, and compiled
// once per instruction set by the softmax_<isa>.cpp units (each with its own -m flags).
//
// Include it only from those units, after the lanes header of the unit's ISA.  Everything
// here is in an anonymous namespace, so every unit gets its own copy built for its own ISA,
// and it calls no inline standard-library function: a std:: inline function instantiated in
// an AVX2 unit could be the copy the linker keeps for the whole program (ODR), and an SSE2-only
// CPU would then fault in it.
//
// A lanes type L is a struct of static functions over a vector of L::kWidth floats:
//   V, M                          float vector, comparison mask
//   kRegisters                    vector registers (sizes the attention kernels' tiles)
//   kHasFma                       whether fma() is one fused instruction
//   load/store (unaligned), set1, zero, add, sub, mul, max, fma(a, b, c) = a * b + c
//   stream(p, v) (aligned to the vector, non-temporal where the ISA has it), stream_fence()
//   shl23_bits(v), add_bits(a, b) integer shift / add on the floats' bit patterns
//   less, greater, is_nan -> M
//   zero_where(m, v); select(m, if_true, if_false)
//   reduce_add, reduce_max -> float
//   optional load_masked(p, count, fill) / store_masked(p, count, v) for a partial vector;
//   without them the row tail goes through a small padded buffer.
//   optional scale_by_pow2_or_zero(m, e, n): e * 2^n (n integral), 0 where m is set.
//
// The exp loop works on kBatch vectors in lock-step, one step for all of them before the
// next: exp is a ~40-cycle dependency chain, and written one vector after another the
// out-of-order window holds too few of them to keep the FMA pipes busy.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/kernels/lanes_partial.h"

namespace attnviz::kernels {
namespace {

constexpr float kInf = __builtin_huge_valf();
constexpr float kNaN = __builtin_nanf("");

// exp(x) = 2^n exp(r), n = round(x log2e), r = x - n ln2 in [-ln2/2, ln2/2].
//  * n: fma(x, log2e, shifter) rounds x log2e to an integer (for |x log2e| < 2^22) and leaves
//    it in the low mantissa bits, so shifting the bits left by 23 puts it in the exponent field.
//    softmax (x <= 0) uses kShifterBiased, whose low bits hold n + 127: shifted, they are the
//    float 2^n, and exp(r) * 2^n is an ordinary multiply, through which a NaN input stays NaN
//    whatever its payload (so the row's NaN check comes free with the sum).  The full-range
//    exp needs n up to 128, past 2^127, and adds n to the exponent field of exp(r) instead.
//  * r: with a fused multiply-add, r = fma(n, -ln2, x) in one step; ln2's own float rounding
//    (1.9e-9) then costs |n| * 1.9e-9 relative, below 2.4e-7 at the softmax range end.  Without
//    FMA, and for the full-range exp, ln2 is split Cody-Waite style (Cephes) so that n * kLn2Hi
//    is exact.
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2 = 0.693147180559945309f;
constexpr float kLn2Hi = 0.693359375f;
constexpr float kLn2Lo = -2.12194440e-4f;
constexpr float kExpC2 = 0.499999934517f;
constexpr float kExpC3 = 0.166665206898f;
constexpr float kExpC4 = 0.041668387362f;
constexpr float kExpC5 = 0.00836870982359f;
constexpr float kExpC6 = 0.00138146132241f;
constexpr float kShifter = 0x1.8p23f;
constexpr float kShifterBiased = 0x1.8p23f + 127.0f;
// Below kExpLowest exp(x) is exactly 0: down to there exp(x) >= FLT_MIN and exp(r), which is
// in [1, sqrt 2] when n = -126, keeps the exponent field positive.  Above kExpHighest, the
// largest float whose exp is finite, exp(x) is +inf.
constexpr float kExpLowest = -87.3f;
constexpr float kExpHighest = 88.7228317f;

// Vectors per iteration: of the max and scale loops (independent accumulators hide the
// latency), of the exp loop, and how many exps of those run in lock-step.  The exp loop is
// bound by registers and by how its chains interleave, which the compilers allocate
// differently; measured on Zen 3 (ns per element, 64 x 512): GCC 12 0.43 with 2 vectors in
// lock-step, 0.53 with 4 (its accumulators spill); clang 14 0.49 with 2, 0.45 with 4.
constexpr std::size_t kUnroll = 2;
#if defined(__clang__)
constexpr std::size_t kExpUnroll = 4;
constexpr std::size_t kBatch = 4;
#else
constexpr std::size_t kExpUnroll = 2;
constexpr std::size_t kBatch = 2;
#endif
static_assert(kExpUnroll % kBatch == 0, "whole batches per iteration");
// The exp sum is kept in kExpUnroll float vectors for this many iterations, then folded into
// a compensated (Kahan) vector sum: each float lane adds at most kFlushEvery values, so
// the rounding error of the row sum stays a few ULP whatever the row length.
constexpr unsigned kFlushEvery = 8;
// Rows up to this size prefetch the next row (see softmax_row_impl).
constexpr std::size_t kPrefetchMaxBytes = 16 * 1024;

/// y[u] = exp(x[u]).  x < kExpLowest, -inf included, gives exactly 0.  kFullRange (exp_array):
/// any x; above kExpHighest +inf, NaN gives NaN, and r is always reduced in two steps.
/// Otherwise (softmax): x <= 0, and NaN gives NaN.  Always inlined: it is the exp loop's body,
/// and GCC 12 called it out of line once that loop also summed the entropy's terms, its batch
/// going through memory (the plain softmax 40% slower).
template <class L, bool kFullRange, std::size_t U>
[[gnu::always_inline]] inline void exp_batch(const typename L::V (&x)[U], typename L::V (&y)[U]) {
    using V = typename L::V;
    const V shifter = L::set1(kFullRange ? kShifter : kShifterBiased);
    V t[U], r[U], p[U];
    for (std::size_t u = 0; u < U; ++u)
        t[u] = L::fma(x[u], L::set1(kLog2e), shifter);
    V n[U];
    for (std::size_t u = 0; u < U; ++u) {
        n[u] = L::sub(t[u], shifter);
        if constexpr (L::kHasFma && !kFullRange) {
            r[u] = L::fma(n[u], L::set1(-kLn2), x[u]);
        } else {
            r[u] = L::fma(n[u], L::set1(-kLn2Lo), L::fma(n[u], L::set1(-kLn2Hi), x[u]));
        }
    }
    for (std::size_t u = 0; u < U; ++u)
        p[u] = L::fma(L::set1(kExpC6), r[u], L::set1(kExpC5));
    for (std::size_t u = 0; u < U; ++u)
        p[u] = L::fma(p[u], r[u], L::set1(kExpC4));
    for (std::size_t u = 0; u < U; ++u)
        p[u] = L::fma(p[u], r[u], L::set1(kExpC3));
    for (std::size_t u = 0; u < U; ++u)
        p[u] = L::fma(p[u], r[u], L::set1(kExpC2));
    for (std::size_t u = 0; u < U; ++u)
        p[u] = L::fma(p[u], r[u], L::set1(1.0f));
    for (std::size_t u = 0; u < U; ++u) {
        const V e = L::fma(p[u], r[u], L::set1(1.0f));  // exp(r)
        // Lanes below the range, where 2^n is garbage, become exactly 0; NaN compares false.
        const auto below = L::less(x[u], L::set1(kExpLowest));
        if constexpr (kFullRange) {
            y[u] = L::zero_where(below, L::add_bits(e, L::shl23_bits(t[u])));
            y[u] = L::select(L::greater(x[u], L::set1(kExpHighest)), L::set1(kInf), y[u]);
            y[u] = L::select(L::is_nan(x[u]), x[u], y[u]);
        } else if constexpr (requires { L::scale_by_pow2_or_zero(below, e, e); }) {
            y[u] = L::scale_by_pow2_or_zero(below, e, n[u]);  // the same bits, fewer steps
        } else {
            y[u] = L::zero_where(below, L::mul(e, L::shl23_bits(t[u])));
        }
    }
}

/// v[0] + ... + v[N-1] (or max), pairwise.
template <class L, std::size_t N>
typename L::V tree_add(const typename L::V (&v)[N]) {
    typename L::V t[N];
    for (std::size_t i = 0; i < N; ++i)
        t[i] = v[i];
    for (std::size_t step = 1; step < N; step *= 2) {
        for (std::size_t i = 0; i + step < N; i += 2 * step)
            t[i] = L::add(t[i], t[i + step]);
    }
    return t[0];
}

template <class L, std::size_t N>
typename L::V tree_max(const typename L::V (&v)[N]) {
    typename L::V t[N];
    for (std::size_t i = 0; i < N; ++i)
        t[i] = v[i];
    for (std::size_t step = 1; step < N; step *= 2) {
        for (std::size_t i = 0; i + step < N; i += 2 * step)
            t[i] = L::max(t[i], t[i + step]);
    }
    return t[0];
}

/// max over x[0..n), n >= 1.  A NaN may or may not survive (x86 max returns its second operand
/// when either is NaN); the exp pass turns any NaN into a NaN sum anyway.
template <class L>
float row_max(const float* x, std::size_t n) {
    using V = typename L::V;
    constexpr std::size_t W = L::kWidth;
    V m[kUnroll];
    for (auto& v : m)
        v = L::set1(-kInf);
    std::size_t i = 0;
    for (; i + kUnroll * W <= n; i += kUnroll * W) {
        for (std::size_t u = 0; u < kUnroll; ++u)
            m[u] = L::max(m[u], L::load(x + i + u * W));
    }
    for (; i + W <= n; i += W)
        m[0] = L::max(m[0], L::load(x + i));
    if (i < n) m[0] = L::max(m[0], load_partial<L>(x + i, n - i, -kInf));
    return L::reduce_max(tree_max<L>(m));
}

/// A sum kept in kExpUnroll float vectors for up to kFlushEvery iterations, then folded into a
/// Kahan-compensated vector sum: a few vector adds, no horizontal reduction or conversion
/// inside the loop (a flush that reduced to a double each time cost ~14 cycles, 7% of the loop).
template <class L>
struct ExpAccumulator {
    using V = typename L::V;
    V acc[kExpUnroll];
    V total = L::zero(), compensation = L::zero();

    ExpAccumulator() { clear(); }
    void clear() {
        for (auto& v : acc)
            v = L::zero();
    }
    void flush() {
        const V block = L::sub(tree_add<L>(acc), compensation);
        const V t = L::add(total, block);
        compensation = L::sub(L::sub(t, total), block);
        total = t;
        clear();
    }
    double value() const {
        return static_cast<double>(L::reduce_add(total)) -
               static_cast<double>(L::reduce_add(compensation));
    }
};

/// What exp_store_sum sums: S = sum_i y_i and, with kWeighted, T = sum_i y_i (x_i - m) (the
/// row's entropy is ln S - T / S); NaN if the row holds a NaN.
struct ExpTotals {
    double sum = 0, weighted = 0;
};

/// y_i = exp(x_i - m) for a finite m, and their sums.  x_i - m is rounded to float, as in every
/// float32 softmax: that adds up to |x - m| * 2^-24 relative error (5.2e-6 at the -87.3 end,
/// below 1e-6 within 16 of the max).  Recovering the rounding error exactly (TwoSum, five
/// adds) was measured at +30% time for this loop, which the 8x speed target could not afford.
/// T takes x_i - m clamped at kExpLowest, where y_i is exactly 0 anyway: a -inf entry (or
/// padding) adds 0, not 0 * -inf = NaN; a NaN entry still makes y_i, and so both sums, NaN.
template <class L, bool kWeighted>
ExpTotals exp_store_sum(const float* x, float* y, std::size_t n, float m) {
    using V = typename L::V;
    constexpr std::size_t W = L::kWidth;
    const V neg_m = L::set1(-m), lowest = L::set1(kExpLowest);
    ExpAccumulator<L> sum, weighted;
    const auto flush = [&] {
        sum.flush();
        if constexpr (kWeighted) weighted.flush();
    };
    // y = exp(d) for the shifted d = x - m of U vectors, added to the sums' vectors from `at`.
    const auto exp_add = [&]<std::size_t U>(V(&d)[U], V(&e)[U], std::size_t at) {
        exp_batch<L, false>(d, e);
        for (std::size_t u = 0; u < U; ++u) {
            sum.acc[at + u] = L::add(sum.acc[at + u], e[u]);
            if constexpr (kWeighted)
                weighted.acc[at + u] = L::fma(e[u], L::max(d[u], lowest), weighted.acc[at + u]);
        }
    };
    constexpr std::size_t kStep = kExpUnroll * W;
    std::size_t i = 0;
    while (i + kStep <= n) {
        const std::size_t steps = (n - i) / kStep < kFlushEvery ? (n - i) / kStep : kFlushEvery;
        const std::size_t end = i + steps * kStep;
        for (; i < end; i += kStep) {
            for (std::size_t g = 0; g < kExpUnroll; g += kBatch) {
                V d[kBatch], e[kBatch];
                for (std::size_t u = 0; u < kBatch; ++u)
                    d[u] = L::add(L::load(x + i + (g + u) * W), neg_m);
                exp_add(d, e, g);
                for (std::size_t u = 0; u < kBatch; ++u)
                    L::store(y + i + (g + u) * W, e[u]);
            }
        }
        flush();
    }
    for (; i + W <= n; i += W) {
        V d[1] = {L::add(L::load(x + i), neg_m)}, e[1];
        exp_add(d, e, 0);
        L::store(y + i, e[0]);
    }
    if (i < n) {
        // Padding lanes are -inf, so their exp is 0 and adds nothing to the sums.
        V d[1] = {L::add(load_partial<L>(x + i, n - i, -kInf), neg_m)}, e[1];
        exp_add(d, e, 0);
        store_partial<L>(y + i, n - i, e[0]);
    }
    flush();
    return {sum.value(), kWeighted ? weighted.value() : 0.0};
}

template <class L>
void scale_row(float* y, std::size_t n, float s) {
    using V = typename L::V;
    constexpr std::size_t W = L::kWidth;
    const V vs = L::set1(s);
    std::size_t i = 0;
    for (; i + kUnroll * W <= n; i += kUnroll * W) {
        for (std::size_t u = 0; u < kUnroll; ++u) {
            L::store(y + i + u * W, L::mul(L::load(y + i + u * W), vs));
        }
    }
    for (; i + W <= n; i += W)
        L::store(y + i, L::mul(L::load(y + i), vs));
    if (i < n) store_partial<L>(y + i, n - i, L::mul(load_partial<L>(y + i, n - i, 0.0f), vs));
}

inline bool contains_nan(const float* x, std::size_t n) {
    bool nan = false;
    for (std::size_t i = 0; i < n; ++i)
        nan |= x[i] != x[i];
    return nan;
}

inline void fill_row(float* y, std::size_t n, float v) {
    for (std::size_t i = 0; i < n; ++i)
        y[i] = v;
}

/// The softmax of kernels/softmax.h.  Three passes over the row: max, exp stored and summed,
/// scale by the reciprocal of the sum.  A row is processed whole before the next, so for
/// attention-sized rows (a few thousand floats) passes 2 and 3 run from L1/L2, and memory
/// sees one read of x and one write of y.  With kWeighted the exp pass also sums T for the
/// entropy (exp_store_sum), into `totals`; y is the same either way, bit for bit.  A fully
/// masked row leaves totals 0 (and returns false), a NaN row NaN.
template <class L, bool kWeighted = false>
bool softmax_row_impl(const float* x, float* y, std::size_t n, ExpTotals* totals = nullptr) {
    const auto give = [&](ExpTotals t) {
        if constexpr (kWeighted) *totals = t;
    };
    if (n == 0) {
        give({});
        return false;
    }
    const float m = row_max<L>(x, n);
    if (!(m > -kInf)) {
        // Every entry is -inf (fully masked), unless a NaN slipped past the max.
        if (m != m || contains_nan(x, n)) {
            fill_row(y, n, kNaN);
            give({kNaN, kNaN});
            return true;
        }
        fill_row(y, n, 0.0f);
        give({});
        return false;
    }
    if (m == kInf) {
        fill_row(y, n, kNaN);
        give({kNaN, kNaN});
        return true;
    }
    // Rows usually lie back to back (a [rows, n] tensor): start loading the next one while
    // the exp pass is compute-bound, so that its max pass finds it in L1.  Measured +4% on
    // 4096 x 512 and steadier under memory contention.  If the guess is wrong it costs n / 16
    // prefetches, which cannot fault; long rows are left to the hardware prefetcher.
    // (Addresses as integers: a pointer past x + n would be undefined even if never read.)
    if (n * sizeof(float) <= kPrefetchMaxBytes) {
        const auto next = reinterpret_cast<std::uintptr_t>(x + n);
        for (std::size_t b = 0; b < n * sizeof(float); b += 64)
            __builtin_prefetch(reinterpret_cast<const void*>(next + b), 0, 3);
    }
    // A NaN entry makes the sum NaN, and the scaling spreads it over the whole row.
    const ExpTotals t = exp_store_sum<L, kWeighted>(x, y, n, m);
    give(t);
    scale_row<L>(y, n, static_cast<float>(1.0 / t.sum));
    return true;
}

template <class L>
void exp_array_impl(const float* x, float* y, std::size_t n) {
    using V = typename L::V;
    constexpr std::size_t W = L::kWidth;
    std::size_t i = 0;
    for (; i + W <= n; i += W) {
        V in[1] = {L::load(x + i)}, e[1];
        exp_batch<L, true>(in, e);
        L::store(y + i, e[0]);
    }
    if (i < n) {
        V in[1] = {load_partial<L>(x + i, n - i, 0.0f)}, e[1];
        exp_batch<L, true>(in, e);
        store_partial<L>(y + i, n - i, e[0]);
    }
}

}  // namespace
}  // namespace attnviz::kernels
