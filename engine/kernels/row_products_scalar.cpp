// The scalar references of the one-row products (row_products.h) for the float formats and
// GGUF's legacy blocks of 32: the definitions the SIMD kernels are tested against, written
// as plain loops over the bytes as GGUF lays them out (engine/io/gguf_quants.cpp).
#include <bit>
#include <cstdint>

#include "engine/io/little_endian.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {

namespace {

using u8 = std::uint8_t;
using io::f16_at;
using io::u32_at;

float bf16_at(const u8* p) {
    return std::bit_cast<float>(std::uint32_t{io::load_le<std::uint16_t>(p)} << 16);
}

/// Calls dot(row) for each of the n rows and stores (or adds) the results.
template <class Dot>
void each_row(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
              std::int64_t n, float* y, bool accumulate, Dot dot) {
    for (std::int64_t i = 0; i < n; ++i) {
        const auto r = static_cast<std::size_t>(order ? order[i] : i);
        const float v = dot(reinterpret_cast<const u8*>(base + r * row_bytes));
        y[i] = accumulate ? y[i] + v : v;
    }
}

template <float (*Value)(const u8*), std::size_t Bytes>
void float_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    each_row(base, row_bytes, order, n, y, accumulate, [&](const u8* w) {
        float sum = 0.0f;
        for (std::int64_t c = 0; c < x.k; ++c)
            sum += Value(w + static_cast<std::size_t>(c) * Bytes) * x.x[c];
        return sum;
    });
}

float f32_at(const u8* p) {
    return std::bit_cast<float>(u32_at(p));
}

// One legacy block against block b of the activation: the weights' integer values q[32]
// (stored offset included), the exact integer dot with the activation's int8 values, then the
// scales in float32 as llama.cpp applies them.  `Offset` is the signed types' zero point (8
// or 16; 0 for Q8_0, whose values are signed already); `HasMin` adds m · s32 (Q4_1, Q5_1).
template <int Offset, bool HasMin>
float block_dot(const int* q, float d, float m, const RowInput& x, std::size_t b) {
    const std::int8_t* qx = x.q32.data() + b * 32;
    int sum = 0;
    for (int j = 0; j < 32; ++j)
        sum += (q[j] - Offset) * qx[j];
    const float scaled = d * x.d32[b] * static_cast<float>(sum);
    return HasMin ? scaled + m * x.s32[b] : scaled;
}

// The integer values of one block, per type (layouts as engine/io/gguf_quants.cpp).
void nibbles(const u8* qs, int* q) {
    for (int j = 0; j < 16; ++j) {
        q[j] = qs[j] & 0x0F;
        q[j + 16] = qs[j] >> 4;
    }
}
void nibbles_high_bit(const u8* qh_bytes, const u8* qs, int* q) {
    const std::uint32_t qh = u32_at(qh_bytes);
    nibbles(qs, q);
    for (int j = 0; j < 32; ++j)
        q[j] |= static_cast<int>((qh >> j) & 1) << 4;
}

float q8_0(const u8* b, const RowInput& x, std::size_t i) {  // half d; i8 qs[32]
    int q[32];
    for (int j = 0; j < 32; ++j)
        q[j] = static_cast<std::int8_t>(b[2 + j]);
    return block_dot<0, false>(q, f16_at(b), 0.0f, x, i);
}
float q4_0(const u8* b, const RowInput& x, std::size_t i) {  // half d; u8 qs[16]
    int q[32];
    nibbles(b + 2, q);
    return block_dot<8, false>(q, f16_at(b), 0.0f, x, i);
}
float q4_1(const u8* b, const RowInput& x, std::size_t i) {  // half d, m; u8 qs[16]
    int q[32];
    nibbles(b + 4, q);
    return block_dot<0, true>(q, f16_at(b), f16_at(b + 2), x, i);
}
float q5_0(const u8* b, const RowInput& x, std::size_t i) {  // half d; u8 qh[4]; u8 qs[16]
    int q[32];
    nibbles_high_bit(b + 2, b + 6, q);
    return block_dot<16, false>(q, f16_at(b), 0.0f, x, i);
}
float q5_1(const u8* b, const RowInput& x, std::size_t i) {  // half d, m; u8 qh[4]; u8 qs[16]
    int q[32];
    nibbles_high_bit(b + 4, b + 8, q);
    return block_dot<0, true>(q, f16_at(b), f16_at(b + 2), x, i);
}

/// The blocks' results summed in float32, in block order.
template <float (*Block)(const u8*, const RowInput&, std::size_t), std::size_t Bytes>
void block_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    const auto blocks = static_cast<std::size_t>(x.k / 32);
    each_row(base, row_bytes, order, n, y, accumulate, [&](const u8* w) {
        float sum = 0.0f;
        for (std::size_t b = 0; b < blocks; ++b)
            sum += Block(w + b * Bytes, x, b);
        return sum;
    });
}

/// The multi-row products' definition: each product of weight and activation in float32,
/// summed in k's order.
template <float (*Value)(const u8*), std::size_t Bytes>
void float_rows_of_rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                        std::int64_t n, const float* x, std::int64_t m, std::int64_t ldx,
                        std::int64_t k, float* y, std::int64_t ldy, bool accumulate) {
    for (std::int64_t j = 0; j < n; ++j) {
        const auto r = static_cast<std::size_t>(order ? order[j] : j);
        const auto* w = reinterpret_cast<const u8*>(base + r * row_bytes);
        for (std::int64_t i = 0; i < m; ++i) {
            float sum = 0.0f;
            for (std::int64_t c = 0; c < k; ++c)
                sum += Value(w + static_cast<std::size_t>(c) * Bytes) * x[i * ldx + c];
            float& out = y[i * ldy + j];
            out = accumulate ? out + sum : sum;
        }
    }
}

}  // namespace

void fill_row_products_rows_scalar(RowsProductTable& table) {
    table[static_cast<int>(RowFormat::F32)] = float_rows_of_rows<f32_at, 4>;
    table[static_cast<int>(RowFormat::F16)] = float_rows_of_rows<f16_at, 2>;
    table[static_cast<int>(RowFormat::BF16)] = float_rows_of_rows<bf16_at, 2>;
}

void fill_row_products_scalar(RowProductTable& table) {
    const auto set = [&](RowFormat f, RowProductFn fn) { table[static_cast<int>(f)] = fn; };
    set(RowFormat::F32, float_rows<f32_at, 4>);
    set(RowFormat::F16, float_rows<f16_at, 2>);
    set(RowFormat::BF16, float_rows<bf16_at, 2>);
    set(RowFormat::Q8_0, block_rows<q8_0, 34>);
    set(RowFormat::Q4_0, block_rows<q4_0, 18>);
    set(RowFormat::Q4_1, block_rows<q4_1, 20>);
    set(RowFormat::Q5_0, block_rows<q5_0, 22>);
    set(RowFormat::Q5_1, block_rows<q5_1, 24>);
}

}  // namespace attnviz::kernels::detail
