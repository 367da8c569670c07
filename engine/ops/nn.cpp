#include "engine/ops/nn.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packet
// erf/tanh/min are inlined here (the intrinsics' undefined "source" operand); a false
// positive that would fail -Werror builds on AVX-512 machines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/ops/gemm.h"
#include "engine/ops/parallel.h"

namespace attnviz::ops {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;
using MutStrided = Eigen::Map<RowMat, 0, Stride>;
using Eigen::Index;

/// Below this many floats an element-wise loop stays on the calling thread: waking the pool
/// costs more than the loop.
constexpr std::size_t kSplitFloats = std::size_t{1} << 16;

int threads_for(std::size_t n, int threads) {
    return n < kSplitFloats ? 1 : threads;
}

/// apply_rotary() on rows r0..r1.
void rotate_rows(float* x, Index r0, Index r1, Index heads, Index head_dim, Index ldx,
                 const std::vector<std::int64_t>& positions, const std::vector<double>& inv_freq);
}  // namespace

void linear(const float* x, Index rows, Index in, const float* w, const float* b, Index out,
            float* y, int threads, Index ldx, Index ldy, bool weight_in_out) {
    if (ldx == 0) ldx = in;
    if (ldy == 0) ldy = out;
    // Columns c0..c1 of y: rows c0..c1 of w stored [out, in] (nn.Linear, used transposed) or
    // columns c0..c1 of w stored [in, out] (Conv1D).
    const auto product = [&](const float* xr, Index n, float* yr, Index c0, Index c1) {
        if (weight_in_out)
            gemm(xr, n, in, w + c0, c1 - c0, yr + c0, false, ldx, out, ldy);
        else
            gemm(xr, n, in, w + c0 * in, c1 - c0, yr + c0, true, ldx, in, ldy);
        if (b)
            MutStrided(yr + c0, n, c1 - c0, Stride(ldy)).rowwise() +=
                Eigen::Map<const Eigen::RowVectorXf>(b + c0, c1 - c0);
    };
    // Few rows (a sentence's tokens) against a large weight: each thread takes a slice of the
    // output columns, so it packs only its slice of the weight.  Split by rows, every thread
    // would pack the whole weight and two threads would barely beat one.  The slices depend
    // only on the thread count, so a given thread count gives the same bits run after run
    // (another count may round differently: the kernels pick their edge cases by size).
    // A weight far wider than the rows (a vocabulary's unembedding) is split by columns too:
    // split by rows, each thread would pack all of its hundreds of megabytes.
    const int t = std::max(1, threads);
    if (t > 1 && (rows < Index{256} * t || out >= Index{32} * rows) && out >= Index{64} * t) {
        const std::size_t blocks = static_cast<std::size_t>((out + 15) / 16);
        parallel_for(blocks, t, [&](std::size_t b0, std::size_t b1) {
            const Index c0 = static_cast<Index>(b0) * 16;
            const Index c1 = std::min<Index>(out, static_cast<Index>(b1) * 16);
            product(x, rows, y, c0, c1);
        });
        return;
    }
    parallel_for(static_cast<std::size_t>(rows), t, [&](std::size_t r0, std::size_t r1) {
        const auto first = static_cast<Index>(r0);
        product(x + first * ldx, static_cast<Index>(r1 - r0), y + first * ldy, 0, out);
    });
}

void transpose(const float* src, Index rows, Index cols, float* dst) {
    constexpr Index kBlock = 64;
    for (Index r0 = 0; r0 < rows; r0 += kBlock)
        for (Index c0 = 0; c0 < cols; c0 += kBlock) {
            const Index r1 = std::min(rows, r0 + kBlock), c1 = std::min(cols, c0 + kBlock);
            for (Index c = c0; c < c1; ++c)
                for (Index r = r0; r < r1; ++r)
                    dst[c * rows + r] = src[r * cols + c];
        }
}

namespace {
/// Σ f(row[i]) in float64 over 8 fixed lanes (element i in lane i % 8), then the lanes in
/// order: the compiler vectorises it, and it gives the same bits wherever the row lies in
/// memory.  (An Eigen reduction peels an unaligned head off first, so its sum depends on the
/// address: the window and an engine run of the same text then differed in the last bits.)
template <class F>
double lane_sum(const float* row, Index dim, F f) {
    double lane[8] = {};
    Index i = 0;
    for (; i + 8 <= dim; i += 8)
        for (int k = 0; k < 8; ++k)
            lane[k] += f(static_cast<double>(row[i + k]));
    for (; i < dim; ++i)
        lane[i % 8] += f(static_cast<double>(row[i]));
    double sum = 0.0;
    for (const double v : lane)
        sum += v;
    return sum;
}
}  // namespace

void layer_norm(float* x, Index rows, Index dim, const float* gamma, const float* beta, float eps,
                Index ldx) {
    if (ldx == 0) ldx = dim;
    const Eigen::Map<const Eigen::ArrayXf> g(gamma, dim);
    for (Index r = 0; r < rows; ++r) {
        float* data = x + r * ldx;
        // Two passes in double (the mean, then the squares about it): a row of 4096
        // activations of size ~100 keeps 1e-6 accuracy.
        const double mean = lane_sum(data, dim, [](double v) { return v; }) / double(dim);
        const double var =
            lane_sum(data, dim, [mean](double v) { return (v - mean) * (v - mean); }) / double(dim);
        const auto inv = static_cast<float>(1.0 / std::sqrt(var + double(eps)));
        const auto m = static_cast<float>(mean);
        Eigen::Map<Eigen::ArrayXf> row(data, dim);
        if (beta)
            row = (row - m) * inv * g + Eigen::Map<const Eigen::ArrayXf>(beta, dim);
        else
            row = (row - m) * inv * g;
    }
}

void rms_norm(float* x, Index rows, Index dim, const float* weight, float eps, Index ldx) {
    if (ldx == 0) ldx = dim;
    const Eigen::Map<const Eigen::ArrayXf> w(weight, dim);
    for (Index r = 0; r < rows; ++r) {
        float* data = x + r * ldx;
        const double ms = lane_sum(data, dim, [](double v) { return v * v; }) / double(dim);
        const auto inv = static_cast<float>(1.0 / std::sqrt(ms + double(eps)));
        Eigen::Map<Eigen::ArrayXf> row(data, dim);
        row = row * inv * w;
    }
}

Activation activation_from_name(const std::string& name) {
    if (name == "gelu") return Activation::Gelu;
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast")
        return Activation::GeluNew;
    if (name == "silu" || name == "swish") return Activation::Silu;
    if (name == "relu") return Activation::Relu;
    throw std::invalid_argument(
        "activation '" + name +
        "' is not supported (gelu, gelu_new, gelu_pytorch_tanh, silu, relu)");
}

void activate(float* x, std::size_t n, Activation a) {
    // Eigen's packet erf, tanh and exp: vectorised, within a few ULP of the libm functions.  On a
    // buffer of unknown alignment Eigen would compute the elements before the first aligned
    // address and after the last whole packet with the scalar libm functions, which round
    // differently, so the same row at another address (another allocation) would give other
    // bits.  Each chunk goes through an aligned buffer of whole packets instead: every element
    // takes the packet path, and a forward pass repeats its bits.
    constexpr Index kChunk = 256;
    alignas(64) float buf[kChunk];
    Eigen::Map<Eigen::Array<float, kChunk, 1>, Eigen::Aligned64> v(buf);
    for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
        const auto len = static_cast<std::ptrdiff_t>(std::min<std::size_t>(kChunk, n - i0));
        std::fill(std::copy_n(x + i0, len, buf), buf + kChunk, 0.0f);
        switch (a) {
            case Activation::Gelu:
                v = 0.5f * v * (1.0f + (v * 0.70710678118654752f).erf());
                break;
            case Activation::GeluNew: {
                constexpr float k = 0.79788456080286536f;  // sqrt(2 / pi)
                v = 0.5f * v * (1.0f + (k * (v + 0.044715f * v.cube())).tanh());
                break;
            }
            case Activation::Silu:
                v = v / (1.0f + (-v).exp());
                break;
            case Activation::Relu:
                v = v.max(0.0f);
                break;
        }
        std::copy_n(buf, len, x + i0);
    }
}

std::vector<double> rope_inv_freq(double theta, std::int64_t dim) {
    std::vector<double> f(static_cast<std::size_t>(dim / 2));
    for (std::size_t i = 0; i < f.size(); ++i)
        f[i] = 1.0 / std::pow(theta, static_cast<double>(2 * i) / static_cast<double>(dim));
    return f;
}

void rope_llama3_scaling(std::vector<double>& inv_freq, double factor, double low_freq_factor,
                         double high_freq_factor, double original_max) {
    const double low_wavelen = original_max / low_freq_factor;
    const double high_wavelen = original_max / high_freq_factor;
    constexpr double kPi = 3.14159265358979323846;
    for (double& f : inv_freq) {
        const double wavelen = 2.0 * kPi / f;
        if (wavelen > low_wavelen) {
            f = f / factor;
        } else if (wavelen >= high_wavelen) {  // medium: blend (HF: not high and not low)
            const double smooth =
                (original_max / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor);
            f = (1.0 - smooth) * f / factor + smooth * f;
        }
    }
}

void apply_rotary(float* x, Index rows, Index heads, Index head_dim, Index ldx,
                  const std::vector<std::int64_t>& positions, const std::vector<double>& inv_freq,
                  int threads) {
    // A short text's rows stay on the calling thread (threads_for), as before the split.
    const auto values = static_cast<std::size_t>(rows * heads * head_dim);
    parallel_for(static_cast<std::size_t>(rows), threads_for(values, threads),
                 [&](std::size_t r0, std::size_t r1) {
                     rotate_rows(x, static_cast<Index>(r0), static_cast<Index>(r1), heads, head_dim,
                                 ldx, positions, inv_freq);
                 });
}

namespace {
void rotate_rows(float* x, Index r0, Index r1, Index heads, Index head_dim, Index ldx,
                 const std::vector<std::int64_t>& positions, const std::vector<double>& inv_freq) {
    const Index half = head_dim / 2;
    std::vector<float> cos_v(static_cast<std::size_t>(half)), sin_v(static_cast<std::size_t>(half));
    for (Index r = r0; r < r1; ++r) {
        const auto pos = static_cast<double>(positions[static_cast<std::size_t>(r)]);
        for (Index i = 0; i < half; ++i) {
            const double angle = pos * inv_freq[static_cast<std::size_t>(i)];
            cos_v[static_cast<std::size_t>(i)] = static_cast<float>(std::cos(angle));
            sin_v[static_cast<std::size_t>(i)] = static_cast<float>(std::sin(angle));
        }
        for (Index h = 0; h < heads; ++h) {
            float* v = x + r * ldx + h * head_dim;
            for (Index i = 0; i < half; ++i) {
                const float x1 = v[i], x2 = v[i + half];
                const float c = cos_v[static_cast<std::size_t>(i)];
                const float s = sin_v[static_cast<std::size_t>(i)];
                v[i] = x1 * c - x2 * s;
                v[i + half] = x2 * c + x1 * s;
            }
        }
    }
}
}  // namespace

void add_inplace(float* x, const float* y, std::size_t n, int threads) {
    parallel_for(n, threads_for(n, threads), [&](std::size_t a, std::size_t e) {
        for (std::size_t i = a; i < e; ++i)
            x[i] += y[i];
    });
}

void copy(const float* src, std::size_t n, float* dst, int threads) {
    parallel_for(n, threads_for(n, threads),
                 [&](std::size_t a, std::size_t e) { std::copy(src + a, src + e, dst + a); });
}

}  // namespace attnviz::ops
