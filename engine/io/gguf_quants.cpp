#include "engine/io/gguf_quants.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>

#include "engine/errors.h"
#include "engine/io/little_endian.h"
#include "engine/io/safetensors.h"

// gguf-py computes d * q - m as two rounded float32 operations; a fused multiply-add would
// round once and differ in the last bit.  This file is compiled with -ffp-contract=off
// (engine/CMakeLists.txt) so the compiler does not fuse them.

namespace attnviz::io {

namespace {

using u8 = std::uint8_t;

constexpr int kQK = 256;  // values per K-quant super-block

// --- the legacy blocks of 32 -------------------------------------------------------------

[[gnu::always_inline]] inline void q4_0(const u8* b, float* y) {  // half d; u8 qs[16]
    const float d = f16_at(b);
    const u8* qs = b + 2;
    for (int j = 0; j < 16; ++j) {
        y[j] = d * static_cast<float>((qs[j] & 0x0F) - 8);
        y[j + 16] = d * static_cast<float>((qs[j] >> 4) - 8);
    }
}

[[gnu::always_inline]] inline void q4_1(const u8* b, float* y) {  // half d, m; u8 qs[16]
    const float d = f16_at(b), m = f16_at(b + 2);
    const u8* qs = b + 4;
    for (int j = 0; j < 16; ++j) {
        y[j] = d * static_cast<float>(qs[j] & 0x0F) + m;
        y[j + 16] = d * static_cast<float>(qs[j] >> 4) + m;
    }
}

[[gnu::always_inline]] inline void q5_0(const u8* b, float* y) {  // half d; u8 qh[4]; u8 qs[16]
    const float d = f16_at(b);
    const std::uint32_t qh = u32_at(b + 2);
    const u8* qs = b + 6;
    for (int j = 0; j < 16; ++j) {
        const int lo = (qs[j] & 0x0F) | static_cast<int>((qh >> j) & 1) << 4;
        const int hi = (qs[j] >> 4) | static_cast<int>((qh >> (j + 16)) & 1) << 4;
        y[j] = d * static_cast<float>(lo - 16);
        y[j + 16] = d * static_cast<float>(hi - 16);
    }
}

[[gnu::always_inline]] inline void q5_1(const u8* b, float* y) {  // half d, m; u8 qh[4]; u8 qs[16]
    const float d = f16_at(b), m = f16_at(b + 2);
    const std::uint32_t qh = u32_at(b + 4);
    const u8* qs = b + 8;
    for (int j = 0; j < 16; ++j) {
        const int lo = (qs[j] & 0x0F) | static_cast<int>((qh >> j) & 1) << 4;
        const int hi = (qs[j] >> 4) | static_cast<int>((qh >> (j + 16)) & 1) << 4;
        y[j] = d * static_cast<float>(lo) + m;
        y[j + 16] = d * static_cast<float>(hi) + m;
    }
}

[[gnu::always_inline]] inline void q8_0(const u8* b, float* y) {  // half d; i8 qs[32]
    const float d = f16_at(b);
    for (int j = 0; j < 32; ++j)
        y[j] = static_cast<float>(static_cast<std::int8_t>(b[2 + j])) * d;
}

// --- the K-quants: super-blocks of 256 ---------------------------------------------------

[[gnu::always_inline]] inline void q2_k(const u8* b,
                                        float* y) {  // u8 scales[16]; u8 qs[64]; half d, dmin
    const u8* scales = b;
    const u8* qs = b + 16;
    const float d = f16_at(b + 80), dmin = f16_at(b + 82);
    for (int e = 0; e < kQK; ++e) {
        const int g = e / 16;
        const float dl = d * static_cast<float>(scales[g] & 0x0F);
        const float ml = dmin * static_cast<float>(scales[g] >> 4);
        const int c = e / 128, s = (e % 128) / 32, l = e % 32;
        const int q = (qs[c * 32 + l] >> (2 * s)) & 3;
        y[e] = dl * static_cast<float>(q) - ml;
    }
}

[[gnu::always_inline]] inline void q3_k(
    const u8* b, float* y) {  // u8 hmask[32]; u8 qs[64]; u8 scales[12]; half d
    const u8* hmask = b;
    const u8* qs = b + 32;
    const u8* sc = b + 96;
    const float d = f16_at(b + 108);
    float dl[16];
    for (int k = 0; k < 16; ++k) {
        const int low = k < 8 ? (sc[k] & 0x0F) : (sc[k - 8] >> 4);
        const int high = (sc[8 + k % 4] >> (2 * (k / 4))) & 3;
        const auto scale = static_cast<std::int8_t>(static_cast<u8>(low | high << 4) - 32);
        dl[k] = d * static_cast<float>(scale);
    }
    for (int e = 0; e < kQK; ++e) {
        const int c = e / 128, s = (e % 128) / 32, l = e % 32;
        const int low = (qs[c * 32 + l] >> (2 * s)) & 3;
        const int high = ((hmask[l] >> (e / 32)) & 1) ^ 1;  // a set bit means no offset
        y[e] = dl[e / 16] * static_cast<float>(low - (high << 2));
    }
}

// The 6-bit scales and mins of Q4_K and Q5_K, eight of each, packed in 12 bytes.
[[gnu::always_inline]] inline void k_scale_min(const u8* s, int* sc, int* mn) {
    for (int j = 0; j < 4; ++j) {
        sc[j] = s[j] & 0x3F;
        mn[j] = s[4 + j] & 0x3F;
        sc[j + 4] = (s[8 + j] & 0x0F) | ((s[j] >> 2) & 0x30);
        mn[j + 4] = (s[8 + j] >> 4) | ((s[4 + j] >> 2) & 0x30);
    }
}

[[gnu::always_inline]] inline void q4_k(const u8* b,
                                        float* y) {  // half d, dmin; u8 scales[12]; u8 qs[128]
    const float d = f16_at(b), dmin = f16_at(b + 2);
    int sc[8], mn[8];
    k_scale_min(b + 4, sc, mn);
    const u8* qs = b + 16;
    for (int g = 0; g < 8; ++g) {
        const float dg = d * static_cast<float>(sc[g]);
        const float mg = dmin * static_cast<float>(mn[g]);
        const int shift = 4 * (g % 2);
        for (int l = 0; l < 32; ++l) {
            const int q = (qs[(g / 2) * 32 + l] >> shift) & 0x0F;
            y[g * 32 + l] = dg * static_cast<float>(q) - mg;
        }
    }
}

[[gnu::always_inline]] inline void q5_k(
    const u8* b, float* y) {  // half d, dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]
    const float d = f16_at(b), dmin = f16_at(b + 2);
    int sc[8], mn[8];
    k_scale_min(b + 4, sc, mn);
    const u8* qh = b + 16;
    const u8* qs = b + 48;
    for (int g = 0; g < 8; ++g) {
        const float dg = d * static_cast<float>(sc[g]);
        const float mg = dmin * static_cast<float>(mn[g]);
        const int shift = 4 * (g % 2);
        for (int l = 0; l < 32; ++l) {
            const int q = ((qs[(g / 2) * 32 + l] >> shift) & 0x0F) | ((qh[l] >> g) & 1) << 4;
            y[g * 32 + l] = dg * static_cast<float>(q) - mg;
        }
    }
}

[[gnu::always_inline]] inline void q6_k(const u8* b,
                                        float* y) {  // u8 ql[128]; u8 qh[64]; i8 scales[16]; half d
    const float d = f16_at(b + 208);
    // Two halves of 128 values, each four runs of 32 (ggml's dequantize_row_q6_K order), so
    // that the inner loops have fixed shifts and vectorise.
    for (int h = 0; h < 2; ++h) {
        const u8* ql = b + h * 64;
        const u8* qh = b + 128 + h * 32;
        const u8* scales = b + 192 + h * 8;
        for (int k = 0; k < 4; ++k) {
            const int shift = 4 * (k / 2), at = 32 * (k % 2);
            for (int half = 0; half < 2; ++half) {
                const float dg =
                    d * static_cast<float>(static_cast<std::int8_t>(scales[2 * k + half]));
                float* out = y + h * 128 + k * 32 + half * 16;
                for (int l = half * 16; l < half * 16 + 16; ++l) {
                    const int low = (ql[at + l] >> shift) & 0x0F;
                    const int high = (qh[l] >> (2 * k)) & 3;
                    out[l - half * 16] = dg * static_cast<float>((low | high << 4) - 32);
                }
            }
        }
    }
}

using BlockFn = void (*)(const u8*, float*);

constexpr GgufType kBlockTypes[] = {GgufType::Q4_0, GgufType::Q4_1, GgufType::Q5_0, GgufType::Q5_1,
                                    GgufType::Q8_0, GgufType::Q2_K, GgufType::Q3_K, GgufType::Q4_K,
                                    GgufType::Q5_K, GgufType::Q6_K};

// Blocks [b0, b1) with the block function a constant, so that it is inlined into the loop and
// vectorised for the instruction set of the function that instantiates the loop.
template <BlockFn Fn>
[[gnu::always_inline]] inline void each_block(const u8* p, float* y, std::int64_t b0,
                                              std::int64_t b1, const GgufTypeLayout& layout) {
    for (std::int64_t i = b0; i < b1; ++i)
        Fn(p + i * layout.type_size, y + i * layout.block_size);
}

[[gnu::always_inline]] inline void dequantize_blocks(GgufType t, const u8* p, float* y,
                                                     std::int64_t b0, std::int64_t b1,
                                                     const GgufTypeLayout& layout) {
    switch (t) {
        case GgufType::Q4_0:
            return each_block<q4_0>(p, y, b0, b1, layout);
        case GgufType::Q4_1:
            return each_block<q4_1>(p, y, b0, b1, layout);
        case GgufType::Q5_0:
            return each_block<q5_0>(p, y, b0, b1, layout);
        case GgufType::Q5_1:
            return each_block<q5_1>(p, y, b0, b1, layout);
        case GgufType::Q8_0:
            return each_block<q8_0>(p, y, b0, b1, layout);
        case GgufType::Q2_K:
            return each_block<q2_k>(p, y, b0, b1, layout);
        case GgufType::Q3_K:
            return each_block<q3_k>(p, y, b0, b1, layout);
        case GgufType::Q4_K:
            return each_block<q4_k>(p, y, b0, b1, layout);
        case GgufType::Q5_K:
            return each_block<q5_k>(p, y, b0, b1, layout);
        case GgufType::Q6_K:
            return each_block<q6_k>(p, y, b0, b1, layout);
        default:  // not in kBlockTypes
            return;
    }
}

void dequantize_blocks_baseline(GgufType t, const u8* p, float* y, std::int64_t b0, std::int64_t b1,
                                const GgufTypeLayout& layout) {
    dequantize_blocks(t, p, y, b0, b1, layout);
}

#if defined(__x86_64__)
// The same loops compiled for AVX2 (8 floats a vector, variable shifts), picked at run time.
// The operations are the scalar ones, each rounded the same way (no FMA: this file is built
// with -ffp-contract=off and the target adds no "fma"), so the values are the same bits.
__attribute__((target("avx2"))) void dequantize_blocks_avx2(GgufType t, const u8* p, float* y,
                                                            std::int64_t b0, std::int64_t b1,
                                                            const GgufTypeLayout& layout) {
    dequantize_blocks(t, p, y, b0, b1, layout);
}
#endif

using BlocksFn = void (*)(GgufType, const u8*, float*, std::int64_t, std::int64_t,
                          const GgufTypeLayout&);

BlocksFn blocks_function() {
#if defined(__x86_64__)
    static const BlocksFn fn =
        __builtin_cpu_supports("avx2") ? dequantize_blocks_avx2 : dequantize_blocks_baseline;
    return fn;
#else
    return dequantize_blocks_baseline;
#endif
}

bool is_plain_float(GgufType t) {
    return t == GgufType::F32 || t == GgufType::F16 || t == GgufType::BF16;
}

}  // namespace

bool gguf_can_dequantize(std::uint32_t type) {
    const auto t = static_cast<GgufType>(type);
    return gguf_type_layout(type) &&
           (is_plain_float(t) ||
            std::find(std::begin(kBlockTypes), std::end(kBlockTypes), t) != std::end(kBlockTypes));
}

std::size_t dequantize(GgufType type, const std::byte* src, float* dst, std::int64_t n) {
    const auto id = static_cast<std::uint32_t>(type);
    if (!gguf_can_dequantize(id))
        throw std::invalid_argument("dequantize: cannot convert " + gguf_type_name(id));
    const GgufTypeLayout layout = *gguf_type_layout(id);
    if (n < 0 || n % layout.block_size != 0)
        throw std::invalid_argument("dequantize: " + std::to_string(n) + " values of " +
                                    std::string(layout.name) + " are not whole blocks of " +
                                    std::to_string(layout.block_size));
    const auto count = static_cast<std::size_t>(n);
    switch (type) {
        case GgufType::F32:
            return convert_to_float("F32", src, dst, count);
        case GgufType::F16:
            return convert_to_float("F16", src, dst, count);
        case GgufType::BF16:
            return convert_to_float("BF16", src, dst, count);
        default:
            break;
    }
    const BlocksFn run = blocks_function();
    const auto* p = reinterpret_cast<const u8*>(src);
    const std::int64_t blocks = n / layout.block_size;
    // A few kilobytes at a time, checked while they are still in the cache.
    const std::int64_t chunk = std::max<std::int64_t>(1, 2048 / layout.block_size);
    std::size_t first = count;
    for (std::int64_t b0 = 0; b0 < blocks; b0 += chunk) {
        const std::int64_t b1 = std::min(blocks, b0 + chunk);
        run(type, p, dst, b0, b1, layout);
        if (first == count) {
            const auto at = static_cast<std::size_t>(b0 * layout.block_size);
            const auto m = static_cast<std::size_t>((b1 - b0) * layout.block_size);
            const std::size_t bad = first_non_finite(dst + at, m);
            if (bad != m) first = at + bad;
        }
    }
    return first;
}

void require_dequantizable(const GgufFile& file, const GgufTensorInfo& tensor) {
    if (!gguf_can_dequantize(tensor.type))
        throw DataError(file.path() + ": tensor '" + tensor.name + "' is " +
                        gguf_type_name(tensor.type) +
                        ", which AttnViz cannot read (it reads F32, F16, BF16, Q8_0, Q4_0, "
                        "Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K and Q6_K)");
}

void dequantize_tensor(const GgufFile& file, const GgufTensorInfo& tensor, float* dst,
                       std::size_t numel) {
    if (numel != static_cast<std::size_t>(tensor.numel))
        throw std::invalid_argument("dequantize_tensor: '" + tensor.name + "' has " +
                                    std::to_string(tensor.numel) + " values, the buffer " +
                                    std::to_string(numel));
    require_dequantizable(file, tensor);
    const std::string_view bytes = file.tensor_data(tensor);
    const std::size_t i = dequantize(
        tensor.ggml_type(), reinterpret_cast<const std::byte*>(bytes.data()), dst, tensor.numel);
    if (i != numel)
        throw DataError(file.path() + ": tensor '" + tensor.name + "' (" +
                        gguf_type_name(tensor.type) + ") holds " +
                        (std::isnan(dst[i]) ? "NaN" : "an infinite value") + " at index " +
                        std::to_string(i));
}

Tensor load_gguf_tensor(const GgufFile& file, const GgufTensorInfo& tensor) {
    Tensor t(tensor.shape());
    dequantize_tensor(file, tensor, t.ptr(), t.numel());
    return t;
}

}  // namespace attnviz::io
