// Internal to engine/kernels: the multi-row products of row_products.h (row_products_rows),
// written once over a tile-traits type and compiled per instruction set by
// row_products_tiles_<isa>.cpp.  Include it only from those units, after their traits: it is
// in an anonymous namespace and calls no inline standard-library function (softmax_impl.h
// explains why per-ISA units share nothing).
//
// A traits type T (one per ISA) gives:
//   V, kWidth                   a float32 vector of kWidth lanes
//   zero(), load(p), fma(a, b, c) = a·b + c, store(p, v)
//   reduce(const V* acc) -> V   lane a = the sum of acc[a]'s lanes, for a < kWidth, by the
//                               same tree of adds for every a
//   split_even_odd(p, out)      out[0, W) = p[0, 2, ..], out[W, 2W) = p[1, 3, ..] (W = kWidth)
// and per weight format F (T::F32, T::F16, T::BF16):
//   kBytes                      bytes per value
//   kEvenOdd                    whether lo/hi hold the block's even/odd values (else its halves)
//   lo(p), hi(p)                the block of 2W values at p as two float32 vectors, exactly
// and a TileShape S, how the tiles run (below).
//
// Arithmetic: the tile keeps one vector accumulator per (activation row, weight row), lane l
// summing the products of the values that land in lane l, FMA after FMA along k; every kChunk
// values the accumulators are reduced (T::reduce) and added to y.  Every step of that depends on
// k alone: not on m, n, the tile a row falls in, ldx or ldy.  So a row's result has the same
// bits whatever else is multiplied with it, and however a caller splits n among threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <xmmintrin.h>

#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels {
namespace {

using TileByte = std::uint8_t;

// Values of k per pass over the tiles (detail::kRowsChunk): the activation's 1024 columns
// (400 KB for 100 rows) stay in the L2 cache while every weight tile passes, and a tile's rows
// (8 × 2 KB of BF16) in L1 while every row group reads them.  Measured on 8B shapes, 96 rows,
// AVX-512: 1024 gave 3-5% more than 512, 256 lost 10% to the reductions.  (Prefetching the
// next tile's rows changed nothing measurable: the hardware's streams cover 8 rows of 2 KB.)
constexpr std::int64_t kChunk = detail::kRowsChunk;

// Activation rows packed per pass at most (detail::kRowsBlock): 128 × 1024 floats, 512 KB,
// half of Zen 5's L2.  A call with more rows reads its weights once per 128.
constexpr std::int64_t kRowBlock = detail::kRowsBlock;

[[gnu::always_inline]] inline std::int64_t smaller(std::int64_t a, std::int64_t b) {
    return a < b ? a : b;
}

/// The register tile, kRows activation rows × kCols weight rows, and where F16 and BF16
/// weights are widened to float32: in registers as each group of kRows activation rows reads
/// them (kWiden false), or once per chunk into a buffer in L1 (a tile's kCols rows of kChunk
/// floats) that every group then reads as float32.  Widening costs one instruction per vector
/// of weights; on Intel's cores it takes an FMA port, so in registers a 3-row tile spends a
/// quarter of the FMA ports' slots on it (row_products_variants.h, RowsTiles).  The results
/// are the same bits either way: each accumulator sees the same FMAs in the same order.
/// Widening tiles read their rows in one burst and then leave the hardware prefetchers nothing
/// to follow while the groups run, so each group prefetches a share of the next tile's rows.
template <int R, int N, bool Widen>
struct TileShape {
    static constexpr int kRows = R, kCols = N;
    static constexpr bool kWiden = Widen;
};

/// A packed activation chunk: for each group of kRows rows, block after block of 2W values,
/// row after row, each block in the order the format's lo and hi read it; zeros past k and
/// past the last row.
template <class T>
struct alignas(64) PackedBlock {
    float v[2 * T::kWidth];
};

template <class T, class F, class S>
void pack_chunk(const float* x, std::int64_t rows, std::int64_t ldx, std::int64_t c0,
                std::int64_t values, std::vector<PackedBlock<T>>& pack) {
    constexpr std::int64_t W = T::kWidth, R = S::kRows;
    const std::int64_t blocks = (values + 2 * W - 1) / (2 * W);
    const std::int64_t groups = (rows + R - 1) / R;
    // Reserved whole the first time, so that what a thread keeps is what memory estimates
    // count (row_products_rows_scratch_bytes), whatever row counts come first.
    static_assert(detail::kRowsScratchBytes >= (kRowBlock + R - 1) * kChunk * sizeof(float));
    if (pack.capacity() == 0) pack.reserve(detail::kRowsScratchBytes / sizeof(PackedBlock<T>));
    pack.resize(static_cast<std::size_t>(groups * blocks * R));
    for (std::int64_t g = 0; g < groups; ++g)
        for (std::int64_t b = 0; b < blocks; ++b)
            for (std::int64_t r = 0; r < R; ++r) {
                float* out = pack[static_cast<std::size_t>((g * blocks + b) * R + r)].v;
                const std::int64_t i = g * R + r, c = b * 2 * W;
                if (i >= rows) {
                    std::memset(out, 0, sizeof(float) * 2 * W);
                    continue;
                }
                const float* in = x + i * ldx + c0 + c;
                if (c + 2 * W <= values) {
                    if constexpr (F::kEvenOdd)
                        T::split_even_odd(in, out);
                    else
                        std::memcpy(out, in, sizeof(float) * 2 * W);
                    continue;
                }
                for (std::int64_t l = 0; l < 2 * W; ++l) {
                    const std::int64_t at = F::kEvenOdd ? 2 * (l % W) + l / W : l;
                    out[l] = c + at < values ? in[at] : 0.0f;
                }
            }
}

/// v, held in a register: GCC 12 would rather fold an activation's load into each of the N
/// FMAs that read it (a load per FMA, with the weights' loads more than the two a cycle the
/// load units take) and spill accumulators besides.
template <class V>
[[gnu::always_inline]] inline V in_register(V v) {
    asm("" : "+v"(v));
    return v;
}

/// One tile over a chunk: acc[r][j] += x row r · weight row j over `blocks` blocks at w[j] (and
/// one more block at tail[j] when tail is set), then the sums, row-major, into out.  x holds
/// groups of S::kRows rows, of which the tile reads the first R.
template <class T, class F, class S, int R, int N>
[[gnu::always_inline]] inline void tile(const TileByte* const* w, const TileByte* const* tail,
                                        const float* x, std::int64_t blocks, float* out) {
    using V = typename T::V;
    constexpr std::int64_t W = T::kWidth;
    V acc[R][N];
    for (int r = 0; r < R; ++r)
        for (int j = 0; j < N; ++j)
            acc[r][j] = T::zero();
    const auto block = [&](const TileByte* const* rows, std::size_t at, const float* xb) {
        // x as loaded once for all N rows; each weight vector widened once for all R rows.
        V xv[R];
        for (int r = 0; r < R; ++r)
            xv[r] = in_register(T::load(xb + r * 2 * W));
        for (int j = 0; j < N; ++j) {
            const V v = F::lo(rows[j] + at);
            for (int r = 0; r < R; ++r)
                acc[r][j] = T::fma(v, xv[r], acc[r][j]);
        }
        for (int r = 0; r < R; ++r)
            xv[r] = in_register(T::load(xb + r * 2 * W + W));
        for (int j = 0; j < N; ++j) {
            const V v = F::hi(rows[j] + at);
            for (int r = 0; r < R; ++r)
                acc[r][j] = T::fma(v, xv[r], acc[r][j]);
        }
    };
    for (std::int64_t b = 0; b < blocks; ++b)
        block(w, static_cast<std::size_t>(b * 2 * W) * F::kBytes, x + b * S::kRows * 2 * W);
    if (tail) block(tail, 0, x + blocks * S::kRows * 2 * W);
    // Reduced kWidth accumulators at a time (the last group padded with zeros).
    constexpr int kSums = R * N, kGroups = (kSums + W - 1) / W;
    for (int g = 0; g < kGroups; ++g) {
        V group[W];
        for (int a = 0; a < W; ++a) {
            const int s = g * static_cast<int>(W) + a;
            group[a] = s < kSums ? acc[s / N][s % N] : T::zero();
        }
        T::store(out + g * W, T::reduce(group));
    }
}

/// The arguments of one call, as the loops pass them down.
struct TileCall {
    const std::byte* base;
    std::size_t row_bytes;
    const std::int64_t* order;
    std::int64_t n;
    float* y;
    std::int64_t ldy;
};

/// tile() of the first `here` (<= R) rows of a group.
template <class T, class F, class S, int N, int R = S::kRows>
[[gnu::always_inline]] inline void tile_of_rows(std::int64_t here, const TileByte* const* w,
                                                const TileByte* const* tail, const float* x,
                                                std::int64_t blocks, float* out) {
    if (here == R)
        tile<T, F, S, R, N>(w, tail, x, blocks, out);
    else if constexpr (R > 1)
        tile_of_rows<T, F, S, N, R - 1>(here, w, tail, x, blocks, out);
}

template <class T, class F, class S, int N>
void tile_column(const TileCall& call, std::int64_t j0, std::int64_t rows, std::int64_t c0,
                 std::int64_t values, const float* packed, bool store) {
    constexpr std::int64_t W = T::kWidth, R = S::kRows;
    const auto row = [&](std::int64_t j) {
        const auto index = static_cast<std::size_t>(call.order ? call.order[j] : j);
        return reinterpret_cast<const TileByte*>(call.base + index * call.row_bytes) +
               static_cast<std::size_t>(c0) * F::kBytes;
    };
    const std::int64_t full = values / (2 * W), groups = (rows + R - 1) / R;
    const TileByte* w[N];
    for (int j = 0; j < N; ++j)
        w[j] = row(j0 + j);
    // The last values of the row short of a block, copied beside zeros: read as a block, the
    // zeros times the packed activation's zeros add nothing, and nothing past a row is read.
    alignas(64) TileByte tail_bytes[N][2 * W * F::kBytes];
    const TileByte* tail[N];
    const std::int64_t rest = values - full * 2 * W;
    if (rest > 0)
        for (int j = 0; j < N; ++j) {
            std::memset(tail_bytes[j], 0, sizeof tail_bytes[j]);
            std::memcpy(tail_bytes[j], w[j] + full * 2 * W * F::kBytes,
                        static_cast<std::size_t>(rest) * F::kBytes);
            tail[j] = tail_bytes[j];
        }
    const std::int64_t stride = call.ldy;
    // The groups of R activation rows by weight rows `rows_of` of format G, `blocks` whole
    // blocks (and the tail's block at tail_of, when set).
    // `ahead`, when set: the next tile's rows, whose chunk each group prefetches a share of.
    const auto each_group = [&]<class G>(const TileByte* const* rows_of,
                                         const TileByte* const* tail_of, std::int64_t blocks,
                                         const TileByte* const* ahead) {
        const std::int64_t packed_blocks = full + (rest > 0 ? 1 : 0);
        const std::int64_t row_lines = (values * static_cast<std::int64_t>(F::kBytes) + 63) / 64;
        const std::int64_t share = (N * row_lines + groups - 1) / groups;
        for (std::int64_t g = 0; g < groups; ++g) {
            if (ahead)
                for (std::int64_t l = g * share; l < smaller((g + 1) * share, N * row_lines); ++l)
                    _mm_prefetch(
                        reinterpret_cast<const char*>(ahead[l / row_lines] + l % row_lines * 64),
                        _MM_HINT_T1);
            const float* xg = packed + g * packed_blocks * R * 2 * W;
            alignas(64) float out[((R * N + W - 1) / W) * W];
            const std::int64_t here = smaller(R, rows - g * R);
            tile_of_rows<T, G, S, N>(here, rows_of, tail_of, xg, blocks, out);
            for (std::int64_t r = 0; r < here; ++r) {
                float* y = call.y + (g * R + r) * stride + j0;
                for (int j = 0; j < N; ++j)
                    y[j] = store ? out[r * N + j] : y[j] + out[r * N + j];
            }
        }
    };
    // S::kWiden: the next tile's rows, whose chunk the groups prefetch.
    const bool more = S::kWiden && j0 + 2 * N <= call.n;
    const TileByte* next[N];
    for (int j = 0; j < N; ++j)
        next[j] = more ? row(j0 + N + j) : nullptr;
    if constexpr (S::kWiden && F::kBytes != sizeof(float)) {
        // The N rows' blocks (the tail's too) as float32, in the order lo and hi read them:
        // T::F32 reads back the very vectors F would have made.
        alignas(64) float wide[N][kChunk];
        const TileByte* wide_rows[N];
        const std::int64_t blocks = full + (rest > 0 ? 1 : 0);
        for (int j = 0; j < N; ++j) {
            for (std::int64_t b = 0; b < blocks; ++b) {
                const TileByte* in = b < full ? w[j] + b * 2 * W * F::kBytes : tail[j];
                T::store(wide[j] + b * 2 * W, F::lo(in));
                T::store(wide[j] + b * 2 * W + W, F::hi(in));
            }
            wide_rows[j] = reinterpret_cast<const TileByte*>(wide[j]);
        }
        each_group.template operator()<typename T::F32>(wide_rows, nullptr, blocks,
                                                        more ? next : nullptr);
    } else {
        each_group.template operator()<F>(w, rest > 0 ? tail : nullptr, full,
                                          more ? next : nullptr);
    }
}

/// Columns [0, n) of the tile rows at `packed`, kCols at a time (the last tile narrower).
template <class T, class F, class S, int N = S::kCols>
void tile_columns(const TileCall& call, std::int64_t rows, std::int64_t c0, std::int64_t values,
                  const float* packed, bool store) {
    constexpr std::int64_t C = S::kCols;
    const std::int64_t whole = call.n / C * C;
    if constexpr (N == C) {
        for (std::int64_t j0 = 0; j0 < whole; j0 += C)
            tile_column<T, F, S, C>(call, j0, rows, c0, values, packed, store);
        if (call.n > whole) tile_columns<T, F, S, C - 1>(call, rows, c0, values, packed, store);
    } else if constexpr (N >= 1) {
        if (call.n - whole == N)
            tile_column<T, F, S, N>(call, whole, rows, c0, values, packed, store);
        else
            tile_columns<T, F, S, N - 1>(call, rows, c0, values, packed, store);
    }
}

/// row_products_rows (row_products.h) of format F: the chunks of k, the blocks of rows, the
/// tiles.  The loop order reads each weight byte from memory once per block of rows.
template <class T, class F, class S>
void tile_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
               std::int64_t n, const float* x, std::int64_t m, std::int64_t ldx, std::int64_t k,
               float* y, std::int64_t ldy, bool accumulate) {
    // One pack per thread, kept: its type is this unit's own, so is its vector's code.
    thread_local std::vector<PackedBlock<T>> pack;
    if (m == 0 || n == 0) return;
    if (k == 0) {
        if (!accumulate)
            for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j)
                    y[i * ldy + j] = 0.0f;
        return;
    }
    for (std::int64_t c0 = 0; c0 < k; c0 += kChunk) {
        const std::int64_t values = smaller(kChunk, k - c0);
        for (std::int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
            const std::int64_t rows = smaller(kRowBlock, m - i0);
            pack_chunk<T, F, S>(x + i0 * ldx, rows, ldx, c0, values, pack);
            const TileCall call{base, row_bytes, order, n, y + i0 * ldy, ldy};
            tile_columns<T, F, S>(call, rows, c0, values, pack.front().v, c0 == 0 && !accumulate);
        }
    }
}

/// The table entries of a unit's traits T and shape S: its F32, F16 and BF16 products.
template <class T, class S>
void fill_tiles(detail::RowsProductTable& table) {
    table[static_cast<int>(RowFormat::F32)] = tile_rows<T, typename T::F32, S>;
    table[static_cast<int>(RowFormat::F16)] = tile_rows<T, typename T::F16, S>;
    table[static_cast<int>(RowFormat::BF16)] = tile_rows<T, typename T::BF16, S>;
}

}  // namespace
}  // namespace attnviz::kernels
