// Products with bfloat16 weights read straight from a checkpoint, on CPUs with AMX tiles.
//
// A BF16 checkpoint that streams (Llama-3-8B: 16 GB on disk, 30 GiB as float32) was computed by
// converting each block of a matrix to float32 and calling sgemm on it; with 128 tokens every
// weight is used only 128 times, so the conversion and the float32 copy's traffic cost a third
// of the product's time.  AMX multiplies bfloat16 pairs exactly and sums them in float32, many
// times faster than float32 FMAs, so the weights can be used as they are in the file.  The
// activations are float32: each is split into three bfloat16 values whose sum is it exactly
// (hi = bf16(a), mid = bf16(a − hi), lo = a − hi − mid: 8 + 8 + 8 bits of a 24-bit significand),
// and the three products hi·Wᵀ, mid·Wᵀ, lo·Wᵀ are added.  Each product is exact, each sum is
// float32, so the result is as close to the float64 product as sgemm's: measured 8e-9 to
// 7e-8 of Σ|a·w| against a float64 loop, where sgemm gives 3.5e-8 to 2.2e-7 (test_gemm).  It
// is not sgemm's bits: the sums run in another order.
//
// Measured on a 2-core Xeon with AMX (oneDNN 2.6.3, one thread, 128 tokens): an 8B layer's
// [4096 x 14336] and [14336 x 4096] products take 0.75–0.8x the time of converting and calling
// sgemm, and a whole 8B pass at 128 tokens 0.68–0.76x its CPU time (README, Big
// checkpoints).  At 2,048 rows the two cost the same, so models use this up to kBf16MaxRows.
//
// Without AMX, models convert as before: AVX-512 BF16 multiplies bfloat16 pairs at most twice
// as fast as float32, so three products cannot beat one product of converted weights, and
// AVX2 has no bfloat16 products.  bf16_products() is then false.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::kernels {

/// True when this build has oneDNN and the CPU has AMX tiles for bfloat16 (oneDNN's
/// avx512_core_amx), and ATTNVIZ_BF16_PRODUCTS is not "0".  Decided once.
bool bf16_products();

/// Rows multiplied by one call of gemm_bf16 at most.  Models use these products up to it and
/// convert beyond it: at 2,048 rows converting a block of weights costs no more than the
/// three products (measured on Qwen2.5-0.5B's shapes: a statistics pass at 2,048 tokens took
/// the same time either way).
constexpr std::int64_t kBf16MaxRows = 512;

/// The three bfloat16 parts of a [m, k] float32 matrix (row stride lda), written as three
/// [m, k] planes `part_stride` values apart: the high part, the middle, the low;
/// hi + mid + lo == a exactly for every normal float32 value (the low parts of values below
/// 2^-110 are flushed, as AMX does).
void split_bf16(const float* a, std::int64_t m, std::int64_t k, std::int64_t lda,
                std::uint16_t* parts, std::int64_t part_stride);

/// C[m, n] = A · Bᵀ (+ bias[n]) with A as split_bf16's parts ([3, m, k], part stride
/// `part_stride` values, row stride k) and B bfloat16 [n, k] with row stride ldb (an
/// nn.Linear weight as a checkpoint stores it).  `scratch` holds gemm_bf16_scratch(m, n)
/// floats.  m ≤ kBf16MaxRows.  One thread: call from several at once on disjoint C.
/// Throws std::runtime_error if oneDNN refuses (never when bf16_products() is true and the
/// arguments are in range).
void gemm_bf16(const std::uint16_t* parts, std::int64_t part_stride, std::int64_t m, std::int64_t k,
               const std::uint16_t* b, std::int64_t n, std::int64_t ldb, const float* bias,
               float* c, std::int64_t ldc, float* scratch);

/// Floats of scratch gemm_bf16 needs for m rows and n columns.
inline std::size_t gemm_bf16_scratch(std::int64_t m, std::int64_t n) {
    return static_cast<std::size_t>(3 * m * n);
}

}  // namespace attnviz::kernels
