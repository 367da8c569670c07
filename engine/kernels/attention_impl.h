// The attention kernels of kernels/attention.h, written once as templates over a lanes type and
// compiled once per instruction set by the attention_<isa>.cpp units.  The rules of
// softmax_impl.h hold here too: include it only from those units, after the unit's lanes
// header; everything is in an anonymous namespace and calls no inline standard-library
// function.
//
// Both products are register-blocked: a tile of MR query rows keeps MR x NV accumulator
// vectors, and each step loads NV vectors of the packed operand once and broadcasts one
// element per row against them (sized so that accumulators, operand vectors and the broadcast
// fit the ISA's registers).  Each output element is a plain FMA chain in a fixed order (the
// head dimension for scores, the keys for the context), so a row's result does not depend on
// the tile or block it was computed in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/kernels/lanes_partial.h"

namespace attnviz::kernels {
namespace {

using Index = std::int64_t;

template <class L>
struct AttentionTiles {
    static constexpr Index W = static_cast<Index>(L::kWidth);
    static constexpr bool kWide = L::kRegisters >= 32;
    /// Accumulator vectors per tile: 24 of 32 registers, 12 of 16.
    static constexpr std::size_t kAccumulators = kWide ? 24 : 12;
    /// Scores: kScoreRows queries x kScoreVecs vectors of keys, the keys packed by panels of
    /// kPanel (head_dim x kPanel floats each, a key per column).  Measured one thread, 48 rows x
    /// 2048 keys x 64 (GFLOP/s, Xeon with AVX-512): 6 x 4 vectors 168, 12 x 2 162, 8 x 2 157,
    /// 4 x 4 142; with AVX2 6 x 2 101, 3 x 4 100, 4 x 2 91.
    static constexpr std::size_t kScoreVecs = kWide ? 4 : 2;
    static constexpr std::size_t kScoreRows = 6;
    static constexpr Index kPanel = static_cast<Index>(kScoreVecs) * W;
    /// Context: up to kContextVecs vectors of the head's columns per tile, and as many rows as
    /// the accumulators allow (at most 12).
    static constexpr std::size_t kContextVecs = kWide ? 4 : 2;
    static constexpr std::size_t context_rows(std::size_t vecs) {
        return kAccumulators / vecs < 12 ? kAccumulators / vecs : 12;
    }
    /// Values rows padded to whole vectors.
    static constexpr Index value_stride(Index head_dim) { return (head_dim + W - 1) / W * W; }
    /// Keys per pass of the context product: their values (32 KiB) stay in L1 while every row
    /// tile of the block runs over them (same shape: 8 KiB 129, 16 KiB 156, 32 KiB 175,
    /// 64 KiB 154 GFLOP/s).
    static constexpr Index key_chunk(Index head_dim) {
        const Index c = 8192 / value_stride(head_dim);
        return c < 16 ? 16 : c;
    }
};

// The next key panel (scores) or value chunk (context) is prefetched while the current one is
// used: with every head's keys and values beyond L2, the hardware prefetchers (which stop at
// each 4 KiB page) left the kernels waiting on L3, at 120 GFLOP/s instead of 160 (one thread,
// 48 rows x 2048 keys x 64, 8 heads cycled).  Each row tile fetches one cache line per step,
// tile t the t-th line of each row of the next panel or chunk, so the first few tiles of a
// panel bring in the whole next one.
constexpr Index kLineFloats = 16;
constexpr int kPrefetchLocality = 2;  // into L2 (prefetcht1): 154 GFLOP/s, L1 140, L3 141

template <class L>
void pack_keys_impl(const float* k, Index ldk, Index keys, Index d, float* out) {
    constexpr Index NR = AttentionTiles<L>::kPanel;
    for (Index p0 = 0; p0 < keys; p0 += NR, out += d * NR) {
        const Index n = keys - p0 < NR ? keys - p0 : NR;
        for (Index c = 0; c < d; ++c) {
            float* dst = out + c * NR;
            for (Index j = 0; j < n; ++j)
                dst[j] = k[(p0 + j) * ldk + c];
            for (Index j = n; j < NR; ++j)
                dst[j] = 0.0f;
        }
    }
}

template <class L>
void pack_values_impl(const float* v, Index ldv, Index keys, Index d, float* out) {
    const Index dp = AttentionTiles<L>::value_stride(d);
    for (Index j = 0; j < keys; ++j) {
        for (Index c = 0; c < d; ++c)
            out[j * dp + c] = v[j * ldv + c];
        for (Index c = d; c < dp; ++c)
            out[j * dp + c] = 0.0f;
    }
}

/// s[r, 0..cols) = q[r, :] . panel's keys, for MR rows; cols <= kPanel.
template <class L, std::size_t MR>
void score_tile(const float* q, Index ldq, Index d, const float* panel, float* s, Index lds,
                Index cols, const float* ahead) {
    using V = typename L::V;
    using T = AttentionTiles<L>;
    constexpr std::size_t NV = T::kScoreVecs;
    constexpr Index W = T::W;
    V acc[MR][NV];
    for (std::size_t r = 0; r < MR; ++r)
        for (std::size_t v = 0; v < NV; ++v)
            acc[r][v] = L::zero();
    for (Index c = 0; c < d; ++c) {
        if (ahead) __builtin_prefetch(ahead + c * T::kPanel, 0, kPrefetchLocality);
        V b[NV];
        for (std::size_t v = 0; v < NV; ++v)
            b[v] = L::load(panel + c * T::kPanel + static_cast<Index>(v) * W);
        for (std::size_t r = 0; r < MR; ++r) {
            const V a = L::set1(q[static_cast<Index>(r) * ldq + c]);
            for (std::size_t v = 0; v < NV; ++v)
                acc[r][v] = L::fma(a, b[v], acc[r][v]);
        }
    }
    for (std::size_t r = 0; r < MR; ++r) {
        float* row = s + static_cast<Index>(r) * lds;
        for (std::size_t v = 0; v < NV; ++v) {
            const Index c0 = static_cast<Index>(v) * W;
            if (c0 + W <= cols)
                L::store(row + c0, acc[r][v]);
            else if (c0 < cols)
                store_partial<L>(row + c0, static_cast<std::size_t>(cols - c0), acc[r][v]);
        }
    }
}

/// Rows in tiles of MR, the rest in tiles of MR / 2, ... 1; `next` is the panel to prefetch
/// (or null).
template <class L, std::size_t MR>
void score_rows(const float* q, Index ldq, Index rows, Index d, const float* panel, float* s,
                Index lds, Index cols, const float* next) {
    Index r = 0;
    for (Index t = 0; r + static_cast<Index>(MR) <= rows; r += static_cast<Index>(MR), ++t) {
        const bool fetch = next != nullptr && t * kLineFloats < AttentionTiles<L>::kPanel;
        score_tile<L, MR>(q + r * ldq, ldq, d, panel, s + r * lds, lds, cols,
                          fetch ? next + t * kLineFloats : nullptr);
    }
    if constexpr (MR > 1) {
        if (r < rows)
            score_rows<L, MR / 2>(q + r * ldq, ldq, rows - r, d, panel, s + r * lds, lds, cols,
                                  nullptr);
    }
}

template <class L>
void attention_scores_impl(const float* q, Index ldq, Index rows, Index d, const float* packed,
                           Index keys, float* s, Index lds) {
    using T = AttentionTiles<L>;
    constexpr Index NR = T::kPanel;
    // Panel by panel: a panel (d x kPanel floats) stays in L1 while every row tile uses it.
    for (Index p0 = 0; p0 < keys; p0 += NR, packed += d * NR)
        score_rows<L, T::kScoreRows>(q, ldq, rows, d, packed, s + p0, lds,
                                     keys - p0 < NR ? keys - p0 : NR,
                                     p0 + NR < keys ? packed + d * NR : nullptr);
}

/// Where a context tile prefetches: ahead + j * dp at step j, for j < until.
struct Ahead {
    const float* ahead = nullptr;
    Index until = 0;
};

/// out[r, 0..cols) (+)= p[r, j0..j1) . values[j0..j1, c0..c0 + cols), for MR rows; cols <=
/// NV vectors.  `values` points at column c0 of key 0, rows dp floats apart.
template <class L, std::size_t MR, std::size_t NV>
void context_tile(const float* p, Index ldp, Index j0, Index j1, const float* values, Index dp,
                  float* out, Index ldo, Index cols, bool accumulate, Ahead next) {
    using V = typename L::V;
    constexpr Index W = AttentionTiles<L>::W;
    V acc[MR][NV];
    for (std::size_t r = 0; r < MR; ++r)
        for (std::size_t v = 0; v < NV; ++v) {
            const Index c0 = static_cast<Index>(v) * W;
            const float* o = out + static_cast<Index>(r) * ldo + c0;
            if (!accumulate)
                acc[r][v] = L::zero();
            else if (c0 + W <= cols)
                acc[r][v] = L::load(o);
            else
                acc[r][v] = load_partial<L>(o, static_cast<std::size_t>(cols - c0), 0.0f);
        }
    for (Index j = j0; j < j1; ++j) {
        if (j < next.until) __builtin_prefetch(next.ahead + j * dp, 0, kPrefetchLocality);
        V b[NV];
        for (std::size_t v = 0; v < NV; ++v)
            b[v] = L::load(values + j * dp + static_cast<Index>(v) * W);
        for (std::size_t r = 0; r < MR; ++r) {
            const V a = L::set1(p[static_cast<Index>(r) * ldp + j]);
            for (std::size_t v = 0; v < NV; ++v)
                acc[r][v] = L::fma(a, b[v], acc[r][v]);
        }
    }
    for (std::size_t r = 0; r < MR; ++r)
        for (std::size_t v = 0; v < NV; ++v) {
            const Index c0 = static_cast<Index>(v) * W;
            float* o = out + static_cast<Index>(r) * ldo + c0;
            if (c0 + W <= cols)
                L::store(o, acc[r][v]);
            else
                store_partial<L>(o, static_cast<std::size_t>(cols - c0), acc[r][v]);
        }
}

/// `next`: the first line of the next chunk's rows (ahead + j * dp is key j + j1 - j0), or
/// nothing.
template <class L, std::size_t MR, std::size_t NV>
void context_rows(const float* p, Index ldp, Index rows, Index j0, Index j1, const float* values,
                  Index dp, float* out, Index ldo, Index cols, bool accumulate, Ahead next) {
    Index r = 0;
    for (Index t = 0; r + static_cast<Index>(MR) <= rows; r += static_cast<Index>(MR), ++t) {
        Ahead line;
        if (next.ahead != nullptr && t * kLineFloats < cols)
            line = {next.ahead + t * kLineFloats, next.until};
        context_tile<L, MR, NV>(p + r * ldp, ldp, j0, j1, values, dp, out + r * ldo, ldo, cols,
                                accumulate, line);
    }
    if constexpr (MR > 1) {
        if (r < rows)
            context_rows<L, MR / 2, NV>(p + r * ldp, ldp, rows - r, j0, j1, values, dp,
                                        out + r * ldo, ldo, cols, accumulate, Ahead{});
    }
}

/// One group of NV column vectors (the last one possibly partial) over keys [j0, j1).
template <class L, std::size_t NV>
void context_group(const float* p, Index ldp, Index rows, Index j0, Index j1, const float* values,
                   Index dp, float* out, Index ldo, Index cols, bool accumulate, Ahead next) {
    context_rows<L, AttentionTiles<L>::context_rows(NV), NV>(p, ldp, rows, j0, j1, values, dp, out,
                                                             ldo, cols, accumulate, next);
}

template <class L>
void attention_context_impl(const float* p, Index ldp, Index rows, Index keys, const float* packed,
                            Index d, float* out, Index ldo) {
    using T = AttentionTiles<L>;
    constexpr Index W = T::W;
    constexpr Index G = static_cast<Index>(T::kContextVecs) * W;  // columns per group
    const Index dp = T::value_stride(d);
    if (keys == 0) {
        for (Index r = 0; r < rows; ++r)
            for (Index c = 0; c < d; ++c)
                out[r * ldo + c] = 0.0f;
        return;
    }
    const Index chunk = T::key_chunk(d);
    for (Index j0 = 0; j0 < keys; j0 += chunk) {
        const Index j1 = keys - j0 < chunk ? keys : j0 + chunk;
        const bool accumulate = j0 > 0;
        for (Index c0 = 0; c0 < d; c0 += G) {
            const Index cols = d - c0 < G ? d - c0 : G;
            const float* values = packed + c0;
            float* o = out + c0;
            Ahead next;  // key j of this chunk prefetches key j + (j1 - j0) of the next one
            if (j1 < keys) next = {values + (j1 - j0) * dp, keys - (j1 - j0)};
            switch ((cols + W - 1) / W) {
                case 1:
                    context_group<L, 1>(p, ldp, rows, j0, j1, values, dp, o, ldo, cols, accumulate,
                                        next);
                    break;
                case 2:
                    context_group<L, 2>(p, ldp, rows, j0, j1, values, dp, o, ldo, cols, accumulate,
                                        next);
                    break;
                case 3:
                    context_group<L, 3>(p, ldp, rows, j0, j1, values, dp, o, ldo, cols, accumulate,
                                        next);
                    break;
                default:
                    context_group<L, 4>(p, ldp, rows, j0, j1, values, dp, o, ldo, cols, accumulate,
                                        next);
                    break;
            }
        }
    }
}

template <class L>
void store_rows_impl(const float* src, Index lds, Index rows, Index cols, float scale, float* dst,
                     Index ldd, bool non_temporal) {
    constexpr Index W = AttentionTiles<L>::W;
    constexpr auto kAlign = static_cast<std::uintptr_t>(W) * sizeof(float);
    const typename L::V vs = L::set1(scale);
    for (Index r = 0; r < rows; ++r) {
        const float* s = src + r * lds;
        float* o = dst + r * ldd;
        Index j = 0;
        if (non_temporal) {
            for (; j < cols && reinterpret_cast<std::uintptr_t>(o + j) % kAlign != 0; ++j)
                o[j] = s[j] * scale;
            for (; j + W <= cols; j += W)
                L::stream(o + j, L::mul(L::load(s + j), vs));
        } else {
            for (; j + W <= cols; j += W)
                L::store(o + j, L::mul(L::load(s + j), vs));
        }
        for (; j < cols; ++j)
            o[j] = s[j] * scale;
    }
    if (non_temporal) L::stream_fence();
}

/// store_rows_impl(non-temporal, scale 1) of src into dst and add_rows_impl of src into sum,
/// in one pass over src.
template <class L>
void stream_and_add_rows_impl(const float* src, Index lds, Index rows, Index cols, float* dst,
                              Index ldd, float* sum, Index ldsum, bool accumulate) {
    constexpr Index W = AttentionTiles<L>::W;
    constexpr auto kAlign = static_cast<std::uintptr_t>(W) * sizeof(float);
    for (Index r = 0; r < rows; ++r) {
        const float* s = src + r * lds;
        float* o = dst + r * ldd;
        float* t = sum + r * ldsum;
        Index j = 0;
        for (; j < cols && reinterpret_cast<std::uintptr_t>(o + j) % kAlign != 0; ++j) {
            o[j] = s[j];
            t[j] = accumulate ? t[j] + s[j] : s[j];
        }
        for (; j + W <= cols; j += W) {
            const typename L::V x = L::load(s + j);
            L::stream(o + j, x);
            L::store(t + j, accumulate ? L::add(L::load(t + j), x) : x);
        }
        for (; j < cols; ++j) {
            o[j] = s[j];
            t[j] = accumulate ? t[j] + s[j] : s[j];
        }
    }
    L::stream_fence();
}

template <class L>
void add_rows_impl(const float* src, Index lds, Index rows, Index cols, float* dst, Index ldd,
                   bool accumulate) {
    constexpr Index W = AttentionTiles<L>::W;
    for (Index r = 0; r < rows; ++r) {
        const float* s = src + r * lds;
        float* o = dst + r * ldd;
        Index j = 0;
        if (accumulate) {
            for (; j + W <= cols; j += W)
                L::store(o + j, L::add(L::load(o + j), L::load(s + j)));
            for (; j < cols; ++j)
                o[j] += s[j];
        } else {
            for (; j + W <= cols; j += W)
                L::store(o + j, L::load(s + j));
            for (; j < cols; ++j)
                o[j] = s[j];
        }
    }
}

}  // namespace
}  // namespace attnviz::kernels
