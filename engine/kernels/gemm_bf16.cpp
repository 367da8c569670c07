// bfloat16-weight products on AMX (see kernels/gemm_bf16.h).
#include "engine/kernels/gemm_bf16.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "engine/kernels/gemm.h"

#ifdef ATTNVIZ_WITH_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace attnviz::kernels {

namespace {

// Round to nearest even, as torch's float → bfloat16.  A finite value that would round to
// infinity (above 3.39e38) is truncated instead, so that a − hi stays finite.
inline std::uint32_t high_bits(std::uint32_t u) {
    const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    const bool overflow =
        (rounded & 0x7f800000u) == 0x7f800000u && (u & 0x7f800000u) != 0x7f800000u;
    return overflow ? (u & 0xffff0000u) : rounded;
}

inline float as_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

inline std::uint32_t as_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

#ifdef ATTNVIZ_WITH_ONEDNN
using dnnl::memory;

/// One matmul per shape and thread (creating one JIT-compiles its kernel: about 0.1 ms).
struct Key {
    std::int64_t m, k, n, ldb, part_stride;
    bool operator<(const Key& o) const {
        return std::tie(m, k, n, ldb, part_stride) < std::tie(o.m, o.k, o.n, o.ldb, o.part_stride);
    }
};

struct Kernel {
    dnnl::matmul matmul;
    memory::desc src, weights, dst;
    std::string implementation;  ///< oneDNN's name for it: "brg:avx512_core_amx_bf16"
};

const dnnl::engine& cpu_engine() {
    static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

Kernel make_kernel(const Key& key) {
    Kernel kernel;
    // The three parts are a batch of 3 sharing one weight: src [3, m, k], weights [1, k, n]
    // read from B [n, k] (strides: 1 along k, ldb along n), dst [3, m, n].
    kernel.src = memory::desc({3, key.m, key.k}, memory::data_type::bf16,
                              memory::dims{key.part_stride, key.k, 1});
    kernel.weights = memory::desc({1, key.k, key.n}, memory::data_type::bf16,
                                  memory::dims{key.n * key.ldb, 1, key.ldb});
    kernel.dst = memory::desc({3, key.m, key.n}, memory::data_type::f32,
                              memory::dims{key.m * key.n, key.n, 1});
    const dnnl::matmul::primitive_desc pd(
        dnnl::matmul::desc(kernel.src, kernel.weights, kernel.dst), cpu_engine());
    kernel.matmul = dnnl::matmul(pd);
    kernel.implementation = pd.impl_info_str();
    return kernel;
}

bool amx_available() {
    if (const char* v = std::getenv("ATTNVIZ_BF16_PRODUCTS"); v && std::string(v) == "0")
        return false;
    try {
        detail::onednn_one_thread();
        return make_kernel(Key{16, 64, 64, 64, 16 * 64}).implementation.find("amx") !=
               std::string::npos;
    } catch (const dnnl::error&) {
        return false;
    }
}
#endif

}  // namespace

bool bf16_products() {
#ifdef ATTNVIZ_WITH_ONEDNN
    static const bool available = amx_available();
    return available;
#else
    return false;
#endif
}

void split_bf16(const float* a, std::int64_t m, std::int64_t k, std::int64_t lda,
                std::uint16_t* parts, std::int64_t stride) {
    for (std::int64_t i = 0; i < m; ++i) {
        const float* row = a + i * lda;
        std::uint16_t* hi = parts + i * k;
        std::uint16_t* mid = hi + stride;
        std::uint16_t* lo = mid + stride;
        for (std::int64_t j = 0; j < k; ++j) {
            const std::uint32_t u = as_bits(row[j]);
            const std::uint32_t h = high_bits(u);
            const float r1 = row[j] - as_float(h);  // exact: h holds a's leading bits
            const std::uint32_t m1 = high_bits(as_bits(r1));
            const float r2 = r1 - as_float(m1);  // exact, and at most 8 significant bits
            hi[j] = static_cast<std::uint16_t>(h >> 16);
            mid[j] = static_cast<std::uint16_t>(m1 >> 16);
            lo[j] = static_cast<std::uint16_t>(as_bits(r2) >> 16);
        }
    }
}

void gemm_bf16(const std::uint16_t* parts, std::int64_t part_stride, std::int64_t m, std::int64_t k,
               const std::uint16_t* b, std::int64_t n, std::int64_t ldb, const float* bias,
               float* c, std::int64_t ldc, float* scratch) {
    if (m == 0 || n == 0) return;
#ifdef ATTNVIZ_WITH_ONEDNN
    detail::onednn_one_thread();
    thread_local std::map<Key, Kernel> kernels;
    const Key key{m, k, n, ldb, part_stride};
    auto it = kernels.find(key);
    try {
        if (it == kernels.end()) {
            if (kernels.size() > 64) kernels.clear();  // shapes of another model
            it = kernels.emplace(key, make_kernel(key)).first;
        }
        const Kernel& kernel = it->second;
        const dnnl::engine& engine = cpu_engine();
        dnnl::stream stream(engine);
        memory src(kernel.src, engine, const_cast<std::uint16_t*>(parts));
        memory weights(kernel.weights, engine, const_cast<std::uint16_t*>(b));
        memory dst(kernel.dst, engine, scratch);
        kernel.matmul.execute(
            stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
        stream.wait();
    } catch (const dnnl::error& e) {
        throw std::runtime_error(std::string("oneDNN refused a bfloat16 product [") +
                                 std::to_string(m) + "," + std::to_string(k) + "] x [" +
                                 std::to_string(k) + "," + std::to_string(n) + "]: " + e.what());
    }
    const std::int64_t plane = m * n;
    for (std::int64_t i = 0; i < m; ++i) {
        const float* s0 = scratch + i * n;
        const float* s1 = s0 + plane;
        const float* s2 = s1 + plane;
        float* out = c + i * ldc;
        if (bias)
            for (std::int64_t j = 0; j < n; ++j)
                out[j] = (s0[j] + (s1[j] + s2[j])) + bias[j];
        else
            for (std::int64_t j = 0; j < n; ++j)
                out[j] = s0[j] + (s1[j] + s2[j]);
    }
#else
    (void)parts, (void)part_stride, (void)k, (void)b, (void)ldb, (void)bias, (void)c, (void)ldc,
        (void)scratch;
    throw std::runtime_error("bfloat16 products need oneDNN, which this build lacks");
#endif
}

}  // namespace attnviz::kernels
