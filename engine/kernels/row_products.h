// One-row products with the weights read as the file stores them: a generation step multiplies
// one token's activations by every weight of the model once, so it is bound by the bytes it
// reads, not by the arithmetic.  Reading BF16 or F16 weights as stored reads half the bytes of
// a float32 copy; a Q4_K row an eighth.  Each format has a SIMD kernel (AVX-512, AVX2, picked
// at run time) and a scalar reference that defines its result.
//
// Arithmetic, per format:
//  * F32, F16, BF16: each weight converted to float32 exactly, multiplied by the float32
//    activation and summed in float32 (FMA): the float32 product's result up to the order of
//    the sums (a few ULP of Σ|w·x|).
//  * The GGUF block types (Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K … Q6_K) as llama.cpp multiplies
//    them: the activation row is quantized once to int8 (RowInput: blocks of 32 with a float32
//    scale, as llama.cpp's Q8_0/Q8_1; blocks of 256, as its Q8_K, for the K-quants), the
//    integer products are exact, and the blocks' scales are applied in float32.  The
//    activation's rounding is the only error beyond the float sums: at most
//    Σ_blocks (d_x / 2) · Σ|w| of the block (d_x = the block's scale, max|x| / 127 or 128),
//    or d_x · Σ|w| for a 256-block whose +128 is clamped to 127.
//
// row_products_rows multiplies several activation rows at once (a streamed prompt's products)
// by F32, F16 or BF16 rows as stored, compute-bound where the one-row products are
// bandwidth-bound.
//
// Threads: none of their own.  A caller shares the rows among its threads (disjoint y).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attnviz::kernels {

enum class RowFormat : std::uint8_t {
    F32,
    F16,
    BF16,
    Q8_0,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q2_K,
    Q3_K,
    Q4_K,
    Q5_K,
    Q6_K,
};
inline constexpr int kRowFormatCount = 13;

/// "F32", "Q4_K", ... (GGUF's spelling).
const char* row_format_name(RowFormat f);
/// Values per block (1 for F32/F16/BF16, 32 for the legacy types, 256 for the K-quants) and
/// bytes per block (as GGUF stores them).  A row holds a whole number of blocks.
std::int64_t row_format_block_values(RowFormat f);
std::size_t row_format_block_bytes(RowFormat f);
/// True for the GGUF block types: their products read a quantized activation.
inline bool row_format_quantized(RowFormat f) {
    return f >= RowFormat::Q8_0;
}
/// True for Q2_K … Q6_K (256-value super-blocks).
inline bool row_format_k_quant(RowFormat f) {
    return f >= RowFormat::Q2_K;
}

/// An activation row x[k] in the forms the formats read: float32 as given, and (made on
/// demand by prepare()) its int8 quantizations.  One per product input, reused by every
/// product that reads the same x (q, k and v; gate and up).
struct RowInput {
    const float* x = nullptr;
    std::int64_t k = 0;
    /// Blocks of 32 (llama.cpp's Q8_1): q32[k] int8, per block its scale d32 and d32 · Σq
    /// (s32, what the Q4_1/Q5_1 minimum multiplies).
    bool have32 = false;
    std::vector<std::int8_t> q32;
    std::vector<float> d32, s32;
    /// Blocks of 256 (llama.cpp's Q8_K): q256[k] int8, per block its scale d256, and per 16
    /// values their sum bsums (what the K-quants' minimums multiply).  k % 256 == 0 only.
    bool have256 = false;
    std::vector<std::int8_t> q256;
    std::vector<float> d256;
    std::vector<std::int16_t> bsums;

    /// A new activation: forgets the quantizations of the last one.
    void reset(const float* values, std::int64_t count) {
        x = values;
        k = count;
        have32 = have256 = false;
    }
    /// Makes the quantization `f` reads, if it has not been made for this x.  Call before
    /// sharing rows among threads.  std::invalid_argument if k is not a whole number of f's
    /// blocks.
    void prepare(RowFormat f);
};

/// y[i] = Σ_c w_i[c] · x[c] for i in [0, n): row i of the weight at
/// base + (order ? order[i] : i) · row_bytes, k = x.k values in f's format (x.prepare(f) made).
/// With `accumulate`, y[i] += instead.
void row_products(RowFormat f, const std::byte* base, std::size_t row_bytes,
                  const std::int64_t* order, std::int64_t n, const RowInput& x, float* y,
                  bool accumulate = false);

/// The scalar reference row_products is tested against: the same definition in plain loops.
void row_products_reference(RowFormat f, const std::byte* base, std::size_t row_bytes,
                            const std::int64_t* order, std::int64_t n, const RowInput& x, float* y,
                            bool accumulate = false);

/// Several activation rows at once, for a prompt's products with weights read as stored:
/// y[i·ldy + j] = Σ_c x[i·ldx + c] · w_j[c] for i < m, j < n (+= with `accumulate`), weight
/// row j at base + (order ? order[j] : j) · row_bytes, k values in format f: F32, F16 or BF16
/// (std::invalid_argument for the GGUF block types, and for ldx < k or ldy < n with m > 1).
///
/// Arithmetic: as row_products' float formats (each weight converted to float32 exactly, BF16
/// by a shift; float32 FMA; a few ULP of Σ|w·x| from the reference's sums in k's order).
/// Speed: register tiles of activation rows × weight rows (AVX-512 3 × 8 or 4 × 6, AVX2 3 × 4),
/// each weight vector widened once for all the tile's rows, in registers or, on Intel's cores,
/// into L1 (row_products_rows_tiles); the weights' bytes read from memory once
/// per call for up to 128 rows (once per 128 beyond).  On Llama-3-8B's shapes with ~100 rows
/// it runs at ~1.3× the engine's float32 sgemm on weights converted in advance, per CPU-second
/// (docs/benchmarks.md, "Streamed products").
/// Determinism: y[i][j] depends only on x row i, weight row j, k (and the y it adds to), not
/// on m, n, the row's place among the others, ldx, ldy or how a caller splits the rows among
/// threads: the same bits for a row whatever is multiplied with it, on one instruction set.
void row_products_rows(RowFormat f, const std::byte* base, std::size_t row_bytes,
                       const std::int64_t* order, std::int64_t n, const float* x, std::int64_t m,
                       std::int64_t ldx, std::int64_t k, float* y, std::int64_t ldy,
                       bool accumulate = false);

/// The memory row_products_rows keeps per thread that has called it (its packed activations,
/// about 0.5 MB), for memory estimates.
std::size_t row_products_rows_scratch_bytes();

/// The scalar reference row_products_rows is tested against: plain loops, sums in k's order.
void row_products_rows_reference(RowFormat f, const std::byte* base, std::size_t row_bytes,
                                 const std::int64_t* order, std::int64_t n, const float* x,
                                 std::int64_t m, std::int64_t ldx, std::int64_t k, float* y,
                                 std::int64_t ldy, bool accumulate = false);

/// The instruction set row_products_rows runs `f` on here (as row_products_isa).
const char* row_products_rows_isa(RowFormat f);

/// Where row_products_rows' SIMD tiles widen F16 and BF16 weights to float32: "widened" (once
/// per chunk of k into L1, for every group of activation rows: Intel's cores) or "registers"
/// (as each group reads them: other cores).  ATTNVIZ_ROW_TILES=registers|widened chooses, for
/// tests and benchmarks.  Both give the same bits.
const char* row_products_rows_tiles();

/// The widest kernels this CPU runs, whatever ATTNVIZ_ROW_PRODUCTS says: "avx512" (AVX-512 F,
/// BW, VL, DQ, VNNI with AVX2, FMA, F16C), "avx2" (AVX2, FMA, F16C) or "scalar".
const char* row_products_cpu_level();

/// The instruction set row_products runs `f` on here: "avx512", "avx2" or "scalar"
/// (ATTNVIZ_ROW_PRODUCTS=scalar|avx2 forces a narrower one, for tests and benchmarks).
const char* row_products_isa(RowFormat f);

}  // namespace attnviz::kernels
