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

// The scalar references: float formats and legacy blocks (row_products_scalar.cpp), K-quants
// (row_products_kquants_scalar.cpp).
void fill_row_products_scalar(RowProductTable& table);
void fill_row_products_kquants_scalar(RowProductTable& table);

// AVX2 + FMA + F16C units, and AVX-512 (F, BW, VL, DQ, VNNI) units.
void fill_row_products_avx2(RowProductTable& table);
void fill_row_products_kquants_avx2(RowProductTable& table);
void fill_row_products_avx512(RowProductTable& table);
void fill_row_products_kquants_avx512(RowProductTable& table);

}  // namespace attnviz::kernels::detail
