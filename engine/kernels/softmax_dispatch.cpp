// Run-time choice of the softmax variant: which units were compiled in (ATTNVIZ_HAVE_*, set by
// engine/CMakeLists.txt) and which of them this CPU can run.  Compiled with the baseline
// flags, so nothing here executes an instruction the CPU may lack.
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/kernels/softmax.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels {

namespace {

constexpr std::array kAllIsas = {Isa::Scalar, Isa::SSE2, Isa::AVX2, Isa::AVX512, Isa::NEON};

bool cpu_runs(Isa isa) {
    switch (isa) {
        case Isa::Scalar:
            return true;
#if defined(ATTNVIZ_HAVE_SSE2)
        case Isa::SSE2:
            return __builtin_cpu_supports("sse2");
#endif
#if defined(ATTNVIZ_HAVE_AVX2)
        case Isa::AVX2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if defined(ATTNVIZ_HAVE_AVX512)
        // The unit is built with -mavx512f -mavx512dq -mavx2 -mfma: require all of them.
        // (libgcc's and compiler-rt's checks include the OS saving the wide registers.)
        case Isa::AVX512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                   __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if defined(ATTNVIZ_HAVE_NEON)
        case Isa::NEON:
            return true;  // Advanced SIMD is mandatory on AArch64.
#endif
        default:
            return false;
    }
}

using RowFn = bool (*)(const float*, float*, std::size_t);
using SumsRowFn = bool (*)(const float*, float*, std::size_t, double*, double*);
using ExpFn = void (*)(const float*, float*, std::size_t);

struct Variant {
    RowFn softmax_row = nullptr;
    SumsRowFn softmax_sums_row = nullptr;
    ExpFn exp_array = nullptr;
};

/// The variant compiled for isa, or nulls if it is not compiled into this binary.
constexpr Variant compiled(Isa isa) {
    switch (isa) {
        case Isa::Scalar:
            return {detail::softmax_row_scalar, detail::softmax_sums_row_scalar,
                    detail::exp_array_scalar};
#if defined(ATTNVIZ_HAVE_SSE2)
        case Isa::SSE2:
            return {detail::softmax_row_sse2, detail::softmax_sums_row_sse2,
                    detail::exp_array_sse2};
#endif
#if defined(ATTNVIZ_HAVE_AVX2)
        case Isa::AVX2:
            return {detail::softmax_row_avx2, detail::softmax_sums_row_avx2,
                    detail::exp_array_avx2};
#endif
#if defined(ATTNVIZ_HAVE_AVX512)
        case Isa::AVX512:
            return {detail::softmax_row_avx512, detail::softmax_sums_row_avx512,
                    detail::exp_array_avx512};
#endif
#if defined(ATTNVIZ_HAVE_NEON)
        case Isa::NEON:
            return {detail::softmax_row_neon, detail::softmax_sums_row_neon,
                    detail::exp_array_neon};
#endif
        default:
            return {};
    }
}

/// Built once: per ISA the functions if this binary has them and this CPU runs them, and the
/// best one.  The hot path is then one table load and an indirect call.
struct Dispatch {
    std::array<Variant, kAllIsas.size()> usable{};
    Isa best = Isa::Scalar;

    Dispatch() {
        for (Isa isa : kAllIsas) {
            const Variant v = compiled(isa);
            if (v.softmax_row == nullptr || !cpu_runs(isa)) continue;
            usable[index(isa)] = v;
            best = isa;  // kAllIsas is ordered narrowest first (NEON is never beside x86 ones)
        }
        // ATTNVIZ_ISA forces a variant, e.g. to test or time a narrower one; a value that
        // is unknown or not available here is ignored.
        if (const char* forced = std::getenv("ATTNVIZ_ISA"); forced != nullptr) {
            try {
                const Isa isa = isa_from_name(forced);
                if (is_available(isa)) best = isa;
            } catch (const std::invalid_argument&) {
            }
        }
    }

    static std::size_t index(Isa isa) { return static_cast<std::size_t>(isa); }
    bool is_available(Isa isa) const {
        return index(isa) < usable.size() && usable[index(isa)].softmax_row != nullptr;
    }
    const Variant& get(Isa isa) const {
        if (!is_available(isa)) {
            throw std::invalid_argument(std::string("softmax variant '") + isa_name(isa) +
                                        "' is not available on this CPU or in this build");
        }
        return usable[index(isa)];
    }
};

const Dispatch& dispatch() {
    static const Dispatch d;
    return d;
}

}  // namespace

const char* isa_name(Isa isa) {
    switch (isa) {
        case Isa::Scalar:
            return "scalar";
        case Isa::SSE2:
            return "sse2";
        case Isa::AVX2:
            return "avx2";
        case Isa::AVX512:
            return "avx512";
        case Isa::NEON:
            return "neon";
    }
    return "unknown";
}

Isa isa_from_name(const char* name) {
    const std::string_view s = name != nullptr ? name : "";
    for (Isa isa : kAllIsas) {
        if (s == isa_name(isa)) return isa;
    }
    throw std::invalid_argument("unknown softmax variant '" + std::string(s) +
                                "' (expected scalar, sse2, avx2, avx512 or neon)");
}

std::vector<Isa> available_isas() {
    std::vector<Isa> isas;
    for (Isa isa : kAllIsas) {
        if (dispatch().is_available(isa)) isas.push_back(isa);
    }
    return isas;
}

Isa best_isa() {
    return dispatch().best;
}

bool softmax_row(Isa isa, const float* x, float* y, std::size_t n) {
    return dispatch().get(isa).softmax_row(x, y, n);
}

bool softmax_row(const float* x, float* y, std::size_t n) {
    const Dispatch& d = dispatch();
    return d.usable[Dispatch::index(d.best)].softmax_row(x, y, n);
}

namespace {

/// H = ln S - T / S from the exp pass's sums (softmax_variants.h); 0 for a fully masked row.
bool with_entropy(SumsRowFn row, const float* x, float* y, std::size_t n, double* entropy) {
    double sum = 0, weighted = 0;
    const bool live = row(x, y, n, &sum, &weighted);
    *entropy = live ? std::log(sum) - weighted / sum : 0.0;
    return live;
}

}  // namespace

bool softmax_entropy_row(Isa isa, const float* x, float* y, std::size_t n, double* entropy) {
    return with_entropy(dispatch().get(isa).softmax_sums_row, x, y, n, entropy);
}

bool softmax_entropy_row(const float* x, float* y, std::size_t n, double* entropy) {
    const Dispatch& d = dispatch();
    return with_entropy(d.usable[Dispatch::index(d.best)].softmax_sums_row, x, y, n, entropy);
}

void exp_array(Isa isa, const float* x, float* y, std::size_t n) {
    dispatch().get(isa).exp_array(x, y, n);
}

}  // namespace attnviz::kernels
