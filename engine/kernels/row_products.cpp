// Run-time choice of the one-row product kernels (row_products.h), the formats' sizes, and the
// activation's int8 quantizations.  Compiled with the baseline flags.
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/kernels/cpu_features.h"
#include "engine/kernels/row_products.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels {

namespace {

struct FormatInfo {
    const char* name;
    std::int64_t values;
    std::size_t bytes;
};

constexpr FormatInfo kFormats[kRowFormatCount] = {
    {"F32", 1, 4},      {"F16", 1, 2},      {"BF16", 1, 2},     {"Q8_0", 32, 34},
    {"Q4_0", 32, 18},   {"Q4_1", 32, 20},   {"Q5_0", 32, 22},   {"Q5_1", 32, 24},
    {"Q2_K", 256, 84},  {"Q3_K", 256, 110}, {"Q4_K", 256, 144}, {"Q5_K", 256, 176},
    {"Q6_K", 256, 210},
};

const FormatInfo& info(RowFormat f) {
    return kFormats[static_cast<int>(f)];
}

enum class Level { Scalar, AVX2, AVX512 };

Level cpu_level() {
#if defined(ATTNVIZ_HAVE_AVX512)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma") && cpu_has_f16c())
        return Level::AVX512;
#endif
#if defined(ATTNVIZ_HAVE_AVX2)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpu_has_f16c())
        return Level::AVX2;
#endif
    return Level::Scalar;
}

/// The widest level allowed: the CPU's, narrowed by ATTNVIZ_ROW_PRODUCTS.
Level chosen_level() {
    Level level = cpu_level();
    if (const char* env = std::getenv("ATTNVIZ_ROW_PRODUCTS"); env && *env) {
        const std::string_view v(env);
        if (v == "scalar") level = Level::Scalar;
        if (v == "avx2" && level == Level::AVX512) level = Level::AVX2;
    }
    return level;
}

/// Where the multi-row tiles widen their weights (detail::RowsTiles): ATTNVIZ_ROW_TILES
/// (registers or widened), else widened on Intel's cores, in registers on others.  On an Intel
/// Xeon the widened tiles ran 1.2× faster on Llama-3-8B's shapes; on Zen 5 the tiles in
/// registers were measured best (docs/benchmarks.md, "Streamed products").
detail::RowsTiles chosen_tiles() {
    if (const char* env = std::getenv("ATTNVIZ_ROW_TILES"); env && *env) {
        const std::string_view v(env);
        if (v == "registers") return detail::RowsTiles::Registers;
        if (v == "widened") return detail::RowsTiles::Widened;
    }
    return cpu_is_intel() ? detail::RowsTiles::Widened : detail::RowsTiles::Registers;
}

struct RowProductsDispatch {
    detail::RowProductTable reference{};
    detail::RowProductTable chosen{};
    const char* isa[kRowFormatCount]{};
    detail::RowsProductTable rows_reference{};
    detail::RowsProductTable rows_chosen{};
    const char* rows_isa[kRowFormatCount]{};
    detail::RowsTiles tiles = chosen_tiles();

    RowProductsDispatch() {
        detail::fill_row_products_scalar(reference);
        detail::fill_row_products_kquants_scalar(reference);
        detail::fill_row_products_rows_scalar(rows_reference);
        for (int f = 0; f < kRowFormatCount; ++f) {
            chosen[f] = reference[f];
            isa[f] = "scalar";
            rows_chosen[f] = rows_reference[f];
            rows_isa[f] = "scalar";
        }
        const Level level = chosen_level();
        const auto take = [&](const auto& t, auto& into, const char** names, const char* name) {
            for (int f = 0; f < kRowFormatCount; ++f)
                if (t[f]) {
                    into[f] = t[f];
                    names[f] = name;
                }
        };
#if defined(ATTNVIZ_HAVE_AVX2)
        if (level == Level::AVX2 || level == Level::AVX512) {
            detail::RowProductTable t{};
            detail::fill_row_products_avx2(t);
            detail::fill_row_products_kquants_avx2(t);
            take(t, chosen, isa, "avx2");
            detail::RowsProductTable r{};
            detail::fill_row_products_rows_avx2(r, tiles);
            take(r, rows_chosen, rows_isa, "avx2");
        }
#endif
#if defined(ATTNVIZ_HAVE_AVX512)
        if (level == Level::AVX512) {
            detail::RowProductTable t{};
            detail::fill_row_products_avx512(t);
            detail::fill_row_products_kquants_avx512(t);
            take(t, chosen, isa, "avx512");
            detail::RowsProductTable r{};
            detail::fill_row_products_rows_avx512(r, tiles);
            take(r, rows_chosen, rows_isa, "avx512");
        }
#endif
        (void)level;
    }
};

const RowProductsDispatch& row_products_dispatch() {
    static const RowProductsDispatch d;
    return d;
}

detail::RowProductFn checked(const detail::RowProductTable& t, RowFormat f) {
    const detail::RowProductFn fn = t[static_cast<int>(f)];
    if (!fn)
        throw std::invalid_argument(std::string("row_products: no kernel for ") +
                                    row_format_name(f));
    return fn;
}

detail::RowsProductFn checked_rows(const detail::RowsProductTable& t, RowFormat f, std::int64_t n,
                                   std::int64_t m, std::int64_t ldx, std::int64_t k,
                                   std::int64_t ldy) {
    const auto sizes = [&] {
        return " (m " + std::to_string(m) + ", n " + std::to_string(n) + ", k " +
               std::to_string(k) + ", ldx " + std::to_string(ldx) + ", ldy " + std::to_string(ldy) +
               ")";
    };
    const detail::RowsProductFn fn = t[static_cast<int>(f)];
    if (!fn)
        throw std::invalid_argument(std::string("row_products_rows: no kernel for ") +
                                    row_format_name(f) + ": F32, F16 and BF16 only");
    if (m < 0 || n < 0 || k < 0)
        throw std::invalid_argument("row_products_rows: negative size" + sizes());
    if (m > 1 && (ldx < k || ldy < n))
        throw std::invalid_argument("row_products_rows: rows overlap, ldx < k or ldy < n" +
                                    sizes());
    return fn;
}

}  // namespace

const char* row_format_name(RowFormat f) {
    return info(f).name;
}
std::int64_t row_format_block_values(RowFormat f) {
    return info(f).values;
}
std::size_t row_format_block_bytes(RowFormat f) {
    return info(f).bytes;
}

void RowInput::prepare(RowFormat f) {
    if (!row_format_quantized(f)) return;
    const std::int64_t block = row_format_block_values(f);
    if (k % block != 0)
        throw std::invalid_argument(std::string("row_products: ") + std::to_string(k) +
                                    " values are not a whole number of " + row_format_name(f) +
                                    " blocks of " + std::to_string(block));
    const auto n = static_cast<std::size_t>(k);
    if (!row_format_k_quant(f)) {
        if (have32) return;
        // llama.cpp's quantize_row_q8_1: d = max|x| / 127, q = round(x / d), s = d · Σq.
        q32.resize(n);
        d32.resize(n / 32);
        s32.resize(n / 32);
        for (std::size_t b = 0; b < n / 32; ++b) {
            const float* v = x + b * 32;
            float amax = 0.0f;
            for (int j = 0; j < 32; ++j)
                amax = std::fmax(amax, std::fabs(v[j]));
            const float d = amax / 127.0f, id = d != 0.0f ? 1.0f / d : 0.0f;
            int sum = 0;
            for (int j = 0; j < 32; ++j) {
                const auto q = static_cast<std::int8_t>(std::lround(v[j] * id));
                q32[b * 32 + static_cast<std::size_t>(j)] = q;
                sum += q;
            }
            d32[b] = d;
            s32[b] = d * static_cast<float>(sum);
        }
        have32 = true;
        return;
    }
    if (have256) return;
    // llama.cpp's quantize_row_q8_K: the value of largest magnitude maps to -128 ... 127
    // (iscale = -128 / max), d = 1 / iscale, q clamped to 127; bsums per 16.
    q256.resize(n);
    d256.resize(n / 256);
    bsums.resize(n / 16);
    for (std::size_t b = 0; b < n / 256; ++b) {
        const float* v = x + b * 256;
        float amax = 0.0f, max = 0.0f;
        for (int j = 0; j < 256; ++j)
            if (std::fabs(v[j]) > amax) {
                amax = std::fabs(v[j]);
                max = v[j];
            }
        std::int8_t* q = q256.data() + b * 256;
        if (amax == 0.0f) {
            d256[b] = 0.0f;
            for (int j = 0; j < 256; ++j)
                q[j] = 0;
        } else {
            const float iscale = -128.0f / max;
            for (int j = 0; j < 256; ++j) {
                const long r = std::lround(iscale * v[j]);
                q[j] = static_cast<std::int8_t>(r > 127 ? 127 : r);
            }
            d256[b] = 1.0f / iscale;
        }
        for (int g = 0; g < 16; ++g) {
            int sum = 0;
            for (int j = 0; j < 16; ++j)
                sum += q[g * 16 + j];
            bsums[b * 16 + static_cast<std::size_t>(g)] = static_cast<std::int16_t>(sum);
        }
    }
    have256 = true;
}

void row_products(RowFormat f, const std::byte* base, std::size_t row_bytes,
                  const std::int64_t* order, std::int64_t n, const RowInput& x, float* y,
                  bool accumulate) {
    checked(row_products_dispatch().chosen, f)(base, row_bytes, order, n, x, y, accumulate);
}

void row_products_reference(RowFormat f, const std::byte* base, std::size_t row_bytes,
                            const std::int64_t* order, std::int64_t n, const RowInput& x, float* y,
                            bool accumulate) {
    checked(row_products_dispatch().reference, f)(base, row_bytes, order, n, x, y, accumulate);
}

void row_products_rows(RowFormat f, const std::byte* base, std::size_t row_bytes,
                       const std::int64_t* order, std::int64_t n, const float* x, std::int64_t m,
                       std::int64_t ldx, std::int64_t k, float* y, std::int64_t ldy,
                       bool accumulate) {
    checked_rows(row_products_dispatch().rows_chosen, f, n, m, ldx, k, ldy)(
        base, row_bytes, order, n, x, m, ldx, k, y, ldy, accumulate);
}

void row_products_rows_reference(RowFormat f, const std::byte* base, std::size_t row_bytes,
                                 const std::int64_t* order, std::int64_t n, const float* x,
                                 std::int64_t m, std::int64_t ldx, std::int64_t k, float* y,
                                 std::int64_t ldy, bool accumulate) {
    checked_rows(row_products_dispatch().rows_reference, f, n, m, ldx, k, ldy)(
        base, row_bytes, order, n, x, m, ldx, k, y, ldy, accumulate);
}

std::size_t row_products_rows_scratch_bytes() {
    return detail::kRowsScratchBytes;
}

const char* row_products_rows_isa(RowFormat f) {
    return row_products_dispatch().rows_isa[static_cast<int>(f)];
}

const char* row_products_rows_tiles() {
    return row_products_dispatch().tiles == detail::RowsTiles::Widened ? "widened" : "registers";
}

const char* row_products_cpu_level() {
    switch (cpu_level()) {
        case Level::AVX512:
            return "avx512";
        case Level::AVX2:
            return "avx2";
        default:
            return "scalar";
    }
}

const char* row_products_isa(RowFormat f) {
    return row_products_dispatch().isa[static_cast<int>(f)];
}

}  // namespace attnviz::kernels
