// The input gradients of nn.h's blocks, for Model::gradients.  Each is the derivative of the
// forward op as nn.cpp computes it (the same norms' eps, the same activation formulas); row sums
// in double, as the forward norms take theirs.
#include "engine/ops/nn.h"

// As nn.cpp: GCC 12's false -Wmaybe-uninitialized inside Eigen's inlined AVX-512 packet math.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>

#include "engine/ops/gemm.h"
#include "engine/ops/parallel.h"

namespace attnviz::ops {

namespace {
using Index = std::int64_t;

/// Σ f(a[i], b[i]) in double.
template <typename F>
double pair_sum(const float* a, const float* b, Index n, F f) {
    double s = 0.0;
    for (Index i = 0; i < n; ++i)
        s += f(double(a[i]), double(b[i]));
    return s;
}
}  // namespace

void linear_input_gradient(const float* dy, Index rows, Index out, const float* w, Index in,
                           float* dx, int threads, bool weight_in_out, bool accumulate, Index lddy,
                           Index lddx) {
    if (lddy == 0) lddy = out;
    if (lddx == 0) lddx = in;
    // Columns c0..c1 of dx: columns c0..c1 of w stored [out, in], or its rows c0..c1 stored
    // [in, out] used transposed.  Split by columns, as linear() splits its outputs, so each
    // thread reads only its slice of the weight.
    const auto part = [&](Index c0, Index c1) {
        if (weight_in_out)
            gemm(dy, rows, out, w + c0 * out, c1 - c0, dx + c0, true, lddy, out, lddx, accumulate);
        else
            gemm(dy, rows, out, w + c0, c1 - c0, dx + c0, false, lddy, in, lddx, accumulate);
    };
    const int t = std::max(1, threads);
    const std::size_t blocks = static_cast<std::size_t>((in + 15) / 16);
    if (t == 1 || in < Index{64} * t) {
        part(0, in);
        return;
    }
    parallel_for(blocks, t, [&](std::size_t b0, std::size_t b1) {
        part(static_cast<Index>(b0) * 16, std::min<Index>(in, static_cast<Index>(b1) * 16));
    });
}

void layer_norm_backward(const float* x, float* g, Index rows, Index dim, const float* gamma,
                         float eps, Index ldx) {
    if (ldx == 0) ldx = dim;
    std::vector<double> gx(static_cast<std::size_t>(dim));
    for (Index r = 0; r < rows; ++r) {
        const float* xr = x + r * ldx;
        float* gr = g + r * ldx;
        double mean = 0.0;
        for (Index i = 0; i < dim; ++i)
            mean += xr[i];
        mean /= double(dim);
        double var = 0.0;
        for (Index i = 0; i < dim; ++i)
            var += (xr[i] - mean) * (xr[i] - mean);
        const double inv = 1.0 / std::sqrt(var / double(dim) + double(eps));
        // dx = inv (gx - mean(gx) - x̂ mean(gx x̂)), gx = g γ, x̂ = (x - mean) inv.
        double sum = 0.0, dot = 0.0;
        for (Index i = 0; i < dim; ++i) {
            const double v = double(gr[i]) * (gamma ? double(gamma[i]) : 1.0);
            gx[static_cast<std::size_t>(i)] = v;
            sum += v;
            dot += v * (xr[i] - mean) * inv;
        }
        sum /= double(dim);
        dot /= double(dim);
        for (Index i = 0; i < dim; ++i)
            gr[i] = static_cast<float>(
                inv * (gx[static_cast<std::size_t>(i)] - sum - (xr[i] - mean) * inv * dot));
    }
}

void rms_norm_backward(const float* x, float* g, Index rows, Index dim, const float* weight,
                       float eps, Index ldx) {
    if (ldx == 0) ldx = dim;
    for (Index r = 0; r < rows; ++r) {
        const float* xr = x + r * ldx;
        float* gr = g + r * ldx;
        const double ms =
            pair_sum(xr, xr, dim, [](double a, double b) { return a * b; }) / double(dim);
        const double inv = 1.0 / std::sqrt(ms + double(eps));
        // dx = inv gx - x inv³ mean(gx x), gx = g w.
        double dot = 0.0;
        for (Index i = 0; i < dim; ++i)
            dot += double(gr[i]) * double(weight[i]) * double(xr[i]);
        dot /= double(dim);
        const double c = inv * inv * inv * dot;
        for (Index i = 0; i < dim; ++i)
            gr[i] = static_cast<float>(inv * double(gr[i]) * double(weight[i]) - double(xr[i]) * c);
    }
}

void activation_backward(const float* x, float* g, std::size_t n, Activation a) {
    // Eigen's packet functions over aligned chunks, as activate() runs them: the MLP's
    // intermediate is the largest elementwise buffer of a layer.
    constexpr Index kChunk = 256;
    alignas(64) float buf[kChunk];
    Eigen::Map<Eigen::Array<float, kChunk, 1>, Eigen::Aligned64> v(buf);
    Eigen::Array<float, kChunk, 1> d;
    for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
        const auto len = static_cast<std::ptrdiff_t>(std::min<std::size_t>(kChunk, n - i0));
        std::fill(std::copy_n(x + i0, len, buf), buf + kChunk, 0.0f);
        switch (a) {
            case Activation::Gelu:  // Φ(x) + x φ(x)
                d = 0.5f * (1.0f + (v * 0.70710678118654752f).erf()) +
                    v * 0.39894228040143268f * (-0.5f * v * v).exp();
                break;
            case Activation::GeluNew: {  // 0.5 (1 + t) + 0.5 x (1 - t²) k (1 + 3 c x²)
                constexpr float k = 0.79788456080286536f;
                const Eigen::Array<float, kChunk, 1> t = (k * (v + 0.044715f * v.cube())).tanh();
                d = 0.5f * (1.0f + t) +
                    0.5f * v * (1.0f - t * t) * k * (1.0f + 3.0f * 0.044715f * v * v);
                break;
            }
            case Activation::Silu: {  // s (1 + x (1 - s))
                const Eigen::Array<float, kChunk, 1> s = 1.0f / (1.0f + (-v).exp());
                d = s * (1.0f + v * (1.0f - s));
                break;
            }
            case Activation::Relu:
                d = (v > 0.0f).cast<float>();
                break;
        }
        for (std::ptrdiff_t i = 0; i < len; ++i)
            g[i0 + static_cast<std::size_t>(i)] *= d[i];
    }
}

}  // namespace attnviz::ops
