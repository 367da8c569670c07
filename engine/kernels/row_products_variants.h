// Internal to engine/kernels: the per-ISA kernels behind row_products.h.  Each unit fills the
// entries it has into a table indexed by RowFormat; the dispatcher (row_products.cpp) takes
// the widest filled entry the CPU runs, else the scalar reference.  Declarations only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/kernels/row_products.h"

namespace attnviz::kernels::detail {

using RowProductFn = void (*)(const std::byte* base, std::size_t row_bytes,
                              const std::int64_t* order, std::int64_t n, const RowInput& x,
                              float* y, bool accumulate);
using RowProductTable = RowProductFn[kRowFormatCount];

/// row_products_rows (row_products.h), one entry per format: F32, F16 and BF16 only.
using RowsProductFn = void (*)(const std::byte* base, std::size_t row_bytes,
                               const std::int64_t* order, std::int64_t n, const float* x,
                               std::int64_t m, std::int64_t ldx, std::int64_t k, float* y,
                               std::int64_t ldy, bool accumulate);
using RowsProductTable = RowsProductFn[kRowFormatCount];

/// Where the multi-row tiles widen F16 and BF16 weights to float32 (row_products_tiles.h,
/// TileShape): in registers, as each group of activation rows reads them, or once per chunk of
/// k into L1 for all the groups.  The same bits either way; which is faster depends on the
/// core: Intel's issue the widening on the FMA ports, AMD's Zen on others.
enum class RowsTiles { Registers, Widened };

/// row_products_rows' blocking (row_products_tiles.h explains the sizes): values of k per
/// pass over the tiles, and activation rows packed per pass.  Each thread keeps its packed
/// activations: up to kRowsBlock rows (plus a partial tile's) of kRowsChunk floats.
inline constexpr std::int64_t kRowsChunk = 1024;
inline constexpr std::int64_t kRowsBlock = 128;
inline constexpr std::size_t kRowsScratchBytes = (kRowsBlock + 4) * kRowsChunk * sizeof(float);

// The scalar references: float formats and legacy blocks (row_products_scalar.cpp), K-quants
// (row_products_kquants_scalar.cpp).
void fill_row_products_scalar(RowProductTable& table);
void fill_row_products_kquants_scalar(RowProductTable& table);

// AVX2 + FMA + F16C units, and AVX-512 (F, BW, VL, DQ, VNNI) units.
void fill_row_products_avx2(RowProductTable& table);
void fill_row_products_kquants_avx2(RowProductTable& table);
void fill_row_products_avx512(RowProductTable& table);
void fill_row_products_kquants_avx512(RowProductTable& table);

// The multi-row products: the scalar reference (row_products_scalar.cpp), the tiles
// (row_products_tiles_avx2.cpp, row_products_tiles_avx512.cpp).
void fill_row_products_rows_scalar(RowsProductTable& table);
void fill_row_products_rows_avx2(RowsProductTable& table, RowsTiles tiles);
void fill_row_products_rows_avx512(RowsProductTable& table, RowsTiles tiles);

}  // namespace attnviz::kernels::detail
