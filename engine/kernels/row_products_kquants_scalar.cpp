// The scalar references of the K-quant products (row_products.h): per super-block, the exact
// integer sums of the weight's quants times the activation's Q8_K quants, sub-block by
// sub-block, then the scales applied in float32 as ggml's vec_dot_qK_q8_K does:
//   Q2_K, Q4_K, Q5_K: d_x·d · Σ_j sc_j·Σ(q·q_x) − d_x·dmin · Σ_j m_j·Σq_x
//   Q3_K, Q6_K:       d_x·d · Σ_j sc_j·Σ(q·q_x), q signed (the offset folded in exactly)
// The sums of q_x per 16 are RowInput::bsums.  A row's blocks are summed in float32, in order.
#include <cstdint>

#include "engine/io/little_endian.h"
#include "engine/kernels/row_products_kquants.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {

namespace {

using kq::u8;
using i8 = std::int8_t;
using i16 = std::int16_t;
using io::f16_at;

/// Σ q[l]·qx[l] over n values, exact.
int dot(const int* q, const i8* qx, int n) {
    int s = 0;
    for (int l = 0; l < n; ++l)
        s += q[l] * qx[l];
    return s;
}

/// The 2-bit field `shift` of 32 bytes: Q2_K's and Q3_K's runs of 32 values.
void two_bits(const u8* qs, int shift, int* q) {
    for (int l = 0; l < 32; ++l)
        q[l] = (qs[l] >> shift) & 3;
}

// One super-block's contribution to the product, d_x its activation scale.

float q2_k(const u8* b, const i8* qx, const i16* bsums, float dx) {
    using L = kq::Q2K;
    int sumi = 0, summ = 0, q[32];
    for (int r = 0; r < 8; ++r) {  // runs of 32: bytes r / 4 · 32, bits 2 · (r % 4)
        two_bits(b + L::qs + r / 4 * 32, 2 * (r % 4), q);
        for (int h = 0; h < 2; ++h) {
            const int g = 2 * r + h, sc = b[L::scales + g];
            sumi += (sc & 0x0F) * dot(q + 16 * h, qx + 16 * g, 16);
            summ += (sc >> 4) * bsums[g];
        }
    }
    return dx * f16_at(b + L::d) * static_cast<float>(sumi) -
           dx * f16_at(b + L::dmin) * static_cast<float>(summ);
}

float q3_k(const u8* b, const i8* qx, const i16*, float dx) {
    using L = kq::Q3K;
    std::uint32_t packed[4];
    kq::q3k_scales(b + L::scales, packed);
    const auto* scales = reinterpret_cast<const u8*>(packed);
    int sumi = 0, q[32];
    for (int r = 0; r < 8; ++r) {
        two_bits(b + L::qs + r / 4 * 32, 2 * (r % 4), q);
        for (int l = 0; l < 32; ++l)  // a clear bit of hmask subtracts 4
            q[l] -= (((b[L::hmask + l] >> r) & 1) ^ 1) << 2;
        for (int h = 0; h < 2; ++h) {
            const int g = 2 * r + h;
            sumi += (scales[g] - 32) * dot(q + 16 * h, qx + 16 * g, 16);
        }
    }
    return dx * f16_at(b + L::d) * static_cast<float>(sumi);
}

/// Q4_K and Q5_K: eight sub-blocks of 32, a 6-bit scale and min each; q holds the 256 quants.
float scaled_with_mins(const u8* b, const int* q, const i8* qx, const i16* bsums, float dx) {
    using L = kq::Q4K;  // Q5_K's d, dmin and scales are at the same offsets
    std::uint32_t packed[4];
    kq::q4k_scales_mins(b + L::scales, packed);
    const auto* sm = reinterpret_cast<const u8*>(packed);
    int sumi = 0, summ = 0;
    for (int j = 0; j < 8; ++j) {
        sumi += sm[j] * dot(q + 32 * j, qx + 32 * j, 32);
        summ += sm[8 + j] * (bsums[2 * j] + bsums[2 * j + 1]);
    }
    return dx * f16_at(b + L::d) * static_cast<float>(sumi) -
           dx * f16_at(b + L::dmin) * static_cast<float>(summ);
}

float q4_k(const u8* b, const i8* qx, const i16* bsums, float dx) {
    int q[kq::kValues];
    for (int j = 0; j < 8; ++j)  // sub-block j: nibble j % 2 of bytes j / 2 · 32 ...
        for (int l = 0; l < 32; ++l)
            q[32 * j + l] = (b[kq::Q4K::qs + j / 2 * 32 + l] >> 4 * (j % 2)) & 0x0F;
    return scaled_with_mins(b, q, qx, bsums, dx);
}

float q5_k(const u8* b, const i8* qx, const i16* bsums, float dx) {
    using L = kq::Q5K;
    int q[kq::kValues];
    for (int j = 0; j < 8; ++j)  // ... and bit j of qh[l] on top
        for (int l = 0; l < 32; ++l)
            q[32 * j + l] = ((b[L::qs + j / 2 * 32 + l] >> 4 * (j % 2)) & 0x0F) |
                            ((b[L::qh + l] >> j) & 1) << 4;
    return scaled_with_mins(b, q, qx, bsums, dx);
}

float q6_k(const u8* b, const i8* qx, const i16*, float dx) {
    using L = kq::Q6K;
    int sumi = 0, q[32];
    for (int r = 0; r < 8; ++r) {  // run r of 32: half r / 4, low nibbles of ql[32 · (r % 2)
        const int half = r / 4, k = r % 4;  // ...] (high ones for k ≥ 2), bits 2k of qh
        const u8* ql = b + L::ql + 64 * half + 32 * (k % 2);
        const u8* qh = b + L::qh + 32 * half;
        for (int l = 0; l < 32; ++l)
            q[l] = (((ql[l] >> 4 * (k / 2)) & 0x0F) | ((qh[l] >> 2 * k) & 3) << 4) - 32;
        for (int h = 0; h < 2; ++h) {
            const int g = 2 * r + h;
            sumi += static_cast<i8>(b[L::scales + g]) * dot(q + 16 * h, qx + 16 * g, 16);
        }
    }
    return dx * f16_at(b + L::d) * static_cast<float>(sumi);
}

using BlockFn = float (*)(const u8*, const i8*, const i16*, float);

template <BlockFn Block, int Bytes>
void rows(const std::byte* base, std::size_t row_bytes, const std::int64_t* order, std::int64_t n,
          const RowInput& x, float* y, bool accumulate) {
    const std::int64_t blocks = x.k / kq::kValues;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto* row = reinterpret_cast<const u8*>(base) +
                          static_cast<std::size_t>(order ? order[i] : i) * row_bytes;
        float sum = 0.0f;
        for (std::int64_t b = 0; b < blocks; ++b)
            sum += Block(row + b * Bytes, x.q256.data() + b * kq::kValues,
                         x.bsums.data() + b * (kq::kValues / kq::kBsumValues),
                         x.d256[static_cast<std::size_t>(b)]);
        y[i] = accumulate ? y[i] + sum : sum;
    }
}

}  // namespace

void fill_row_products_kquants_scalar(RowProductTable& table) {
    table[static_cast<int>(RowFormat::Q2_K)] = rows<q2_k, kq::Q2K::bytes>;
    table[static_cast<int>(RowFormat::Q3_K)] = rows<q3_k, kq::Q3K::bytes>;
    table[static_cast<int>(RowFormat::Q4_K)] = rows<q4_k, kq::Q4K::bytes>;
    table[static_cast<int>(RowFormat::Q5_K)] = rows<q5_k, kq::Q5K::bytes>;
    table[static_cast<int>(RowFormat::Q6_K)] = rows<q6_k, kq::Q6K::bytes>;
}

}  // namespace attnviz::kernels::detail
