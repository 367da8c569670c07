// Sums over float vectors for the analyses of engine/models (effective_attention.cpp,
// information_flow.cpp): independent float partial sums, which the compiler keeps in SIMD
// registers (a single running sum would chain every addition on the one before), added up in
// double at the end.  Each partial sum covers n / 64 terms, so the error stays near a float's
// for the lengths of a hidden state.
#pragma once

#include <cmath>
#include <cstdint>

namespace attnviz::models::detail {

inline constexpr std::int64_t kLanes = 16;         ///< one AVX-512 register of floats
inline constexpr std::int64_t kWide = 4 * kLanes;  ///< four of them, to hide the latency

/// Σ_k term(k) for k in [0, n).
template <class Term>
double lane_sum(std::int64_t n, Term&& term) {
    float acc[kWide] = {};
    std::int64_t k = 0;
    for (; k + kWide <= n; k += kWide)
        for (std::int64_t t = 0; t < kWide; ++t)
            acc[t] += term(k + t);
    for (; k + kLanes <= n; k += kLanes)
        for (std::int64_t t = 0; t < kLanes; ++t)
            acc[t] += term(k + t);
    for (std::int64_t t = 0; t < kLanes; ++t)
        acc[t] += acc[t + kLanes] + acc[t + 2 * kLanes] + acc[t + 3 * kLanes];
    double s = 0.0;
    for (std::int64_t t = 0; t < kLanes; ++t)
        s += acc[t];
    for (; k < n; ++k)
        s += term(k);
    return s;
}

/// a · b.
inline double dot(const float* a, const float* b, std::int64_t n) {
    return lane_sum(n, [&](std::int64_t k) { return a[k] * b[k]; });
}

/// Σ_k |y_k − scale · z_k|.
inline double l1_distance(const float* y, const float* z, float scale, std::int64_t n) {
    return lane_sum(n, [&](std::int64_t k) { return std::fabs(y[k] - scale * z[k]); });
}

/// Σ_k |y_k − Σ_h a_h u[h·n + k]| for `heads` rows u of n: the sum over the heads is made
/// kWide values of k at a time in registers, never stored.
inline double l1_distance_of_sum(const float* y, const float* u, const float* a, std::int64_t heads,
                                 std::int64_t n) {
    float acc[kWide] = {};
    std::int64_t k = 0;
    for (; k + kWide <= n; k += kWide) {
        float z[kWide] = {};
        for (std::int64_t h = 0; h < heads; ++h) {
            const float ah = a[h];
            const float* uh = u + h * n + k;
            for (std::int64_t t = 0; t < kWide; ++t)
                z[t] += ah * uh[t];
        }
        for (std::int64_t t = 0; t < kWide; ++t)
            acc[t] += std::fabs(y[k + t] - z[t]);
    }
    double s = 0.0;
    for (const float v : acc)
        s += v;
    for (; k < n; ++k) {
        double z = 0.0;
        for (std::int64_t h = 0; h < heads; ++h)
            z += static_cast<double>(a[h]) * u[h * n + k];
        s += std::fabs(y[k] - z);
    }
    return s;
}

}  // namespace attnviz::models::detail
