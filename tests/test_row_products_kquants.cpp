// The K-quant one-row products (engine/kernels/row_products.h): Q2_K, Q3_K, Q4_K, Q5_K, Q6_K
// on random valid super-blocks.  The scalar reference against float64 sums of the weights as
// dequantize() reads them (engine/io/gguf_quants.h, bit-exact to gguf-py), and every SIMD
// kernel this CPU runs against the reference.
#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/io/half.h"
#include "engine/kernels/row_products.h"
#include "engine/kernels/row_products_variants.h"

namespace {

namespace kernels = attnviz::kernels;
using attnviz::io::GgufType;
using kernels::RowFormat;

/// A K-quant as the test builds it: where its float16 scales are in a super-block.  d_at and
/// dmin_at are written as random finite halves; every other byte is any byte.
struct KQuant {
    RowFormat format;
    GgufType type;
    int d_at;
    int dmin_at;  ///< -1: no min (Q3_K, Q6_K: signed quants)
};

const KQuant kKQuants[] = {
    {RowFormat::Q2_K, GgufType::Q2_K, 80, 82},  {RowFormat::Q3_K, GgufType::Q3_K, 108, -1},
    {RowFormat::Q4_K, GgufType::Q4_K, 0, 2},    {RowFormat::Q5_K, GgufType::Q5_K, 0, 2},
    {RowFormat::Q6_K, GgufType::Q6_K, 208, -1},
};

/// The shapes every check runs: k one block, 19 blocks, 8 blocks; n not a multiple of 4, 8
/// or 16 (the kernels' groups of rows); rows picked through `order` (shuffled, one
/// repeated); padding between rows and an odd base address; y added into.
struct Shape {
    std::int64_t k;
    std::int64_t n;
    bool ordered;
    std::size_t row_padding;
    std::size_t base_offset;
    bool accumulate;
};

const Shape kShapes[] = {
    {256, 1, false, 0, 0, false},  {256, 37, true, 3, 1, false}, {4864, 53, false, 0, 1, true},
    {4864, 21, true, 0, 0, false}, {2048, 67, true, 5, 3, true}, {2048, 16, false, 0, 0, false},
};

struct Problem {
    std::vector<std::byte> storage;
    const std::byte* base = nullptr;
    std::size_t row_bytes = 0;
    std::vector<std::int64_t> order;  ///< empty: rows 0 .. n-1
    std::vector<float> x;
    kernels::RowInput input;
    std::vector<float> y0;  ///< y before an accumulating product
    const KQuant* kq = nullptr;
    Shape shape{};

    std::int64_t row(std::int64_t i) const { return order.empty() ? i : order[i]; }
    const std::int64_t* order_ptr() const { return order.empty() ? nullptr : order.data(); }
};

std::uint16_t random_half(std::mt19937& rng) {
    // Exponents 8 .. 15: magnitudes 2^-7 .. 2, either sign; finite by construction.
    const auto exponent = static_cast<std::uint16_t>(8 + rng() % 8);
    return static_cast<std::uint16_t>((rng() & 1) << 15 | exponent << 10 | (rng() & 0x3FF));
}

void put_half(std::byte* p, std::uint16_t h) {
    p[0] = static_cast<std::byte>(h & 0xFF);
    p[1] = static_cast<std::byte>(h >> 8);
}

Problem make_problem(const KQuant& kq, const Shape& s, std::uint32_t seed) {
    std::mt19937 rng(seed);
    Problem p;
    p.kq = &kq;
    p.shape = s;
    const std::int64_t blocks = s.k / 256;
    const std::size_t block_bytes = kernels::row_format_block_bytes(kq.format);
    p.row_bytes = static_cast<std::size_t>(blocks) * block_bytes + s.row_padding;
    const std::int64_t stored = s.n + 4;
    p.storage.resize(s.base_offset + p.row_bytes * static_cast<std::size_t>(stored));
    for (auto& b : p.storage)
        b = static_cast<std::byte>(rng() & 0xFF);
    p.base = p.storage.data() + s.base_offset;
    for (std::int64_t r = 0; r < stored; ++r)
        for (std::int64_t b = 0; b < blocks; ++b) {
            std::byte* block = p.storage.data() + s.base_offset +
                               static_cast<std::size_t>(r) * p.row_bytes +
                               static_cast<std::size_t>(b) * block_bytes;
            put_half(block + kq.d_at, random_half(rng));
            if (kq.dmin_at >= 0) put_half(block + kq.dmin_at, random_half(rng));
        }
    if (s.ordered) {
        p.order.resize(static_cast<std::size_t>(stored));
        std::iota(p.order.begin(), p.order.end(), 0);
        std::shuffle(p.order.begin(), p.order.end(), rng);
        p.order.resize(static_cast<std::size_t>(s.n));
        p.order.back() = p.order.front();
    }
    // Activations of a different magnitude per block, each with an outlier.
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f), exponent(-3.0f, 2.0f);
    p.x.resize(static_cast<std::size_t>(s.k));
    for (std::int64_t b = 0; b < blocks; ++b) {
        const float scale = std::exp2(exponent(rng) * 3.0f);
        for (std::int64_t c = 0; c < 256; ++c)
            p.x[static_cast<std::size_t>(b * 256 + c)] = scale * uniform(rng);
        p.x[static_cast<std::size_t>(b * 256 + static_cast<std::int64_t>(rng() % 256))] *= 6.0f;
    }
    p.input.reset(p.x.data(), s.k);
    p.input.prepare(kq.format);
    p.y0.resize(static_cast<std::size_t>(s.n));
    for (auto& v : p.y0)
        v = 4.0f * uniform(rng);
    return p;
}

std::vector<float> dequantized_row(const KQuant& kq, const std::byte* row, std::int64_t k,
                                   int zeroed_half = -1) {
    std::vector<std::byte> copy(
        row, row + kernels::row_format_block_bytes(kq.format) * static_cast<std::size_t>(k / 256));
    if (zeroed_half >= 0)
        for (std::int64_t b = 0; b < k / 256; ++b)
            put_half(copy.data() +
                         static_cast<std::size_t>(b) * kernels::row_format_block_bytes(kq.format) +
                         zeroed_half,
                     0);
    std::vector<float> w(static_cast<std::size_t>(k));
    attnviz::io::dequantize(kq.type, copy.data(), w.data(), k);
    return w;
}

/// Float64 sums of one output.
struct Expected {
    double with_quantized_x = 0;  ///< Σ w·(d256·q256)
    double with_x = 0;            ///< Σ w·x
    /// The size float32 rounding is relative to: Σ |x_q|·(|d·sc·q| + |dmin·m|), the two parts
    /// of each weight apart, since the kernels sum them apart and they may cancel in w.
    double magnitude = 0;
    double magnitude_x = 0;     ///< the same with |x|
    double rounding_bound = 0;  ///< Σ_blocks (|d256| / 2)·Σ|w|: the activation's rounding
};

Expected expected(const Problem& p, std::int64_t i) {
    const KQuant& kq = *p.kq;
    const std::int64_t k = p.shape.k;
    const std::byte* row = p.base + static_cast<std::size_t>(p.row(i)) * p.row_bytes;
    const std::vector<float> w = dequantized_row(kq, row, k);
    // With dmin zeroed, the scaled quants; with d zeroed, the mins.
    const std::vector<float> scaled = kq.dmin_at >= 0 ? dequantized_row(kq, row, k, kq.dmin_at) : w;
    const std::vector<float> mins =
        kq.dmin_at >= 0 ? dequantized_row(kq, row, k, kq.d_at) : std::vector<float>(w.size());
    Expected e;
    for (std::int64_t b = 0; b < k / 256; ++b) {
        const double d = p.input.d256[static_cast<std::size_t>(b)];
        double sum_w = 0;
        for (std::int64_t c = b * 256; c < b * 256 + 256; ++c) {
            const auto u = static_cast<std::size_t>(c);
            const double xq = d * p.input.q256[u],
                         parts = std::abs(double(scaled[u])) + std::abs(double(mins[u]));
            e.with_quantized_x += double(w[u]) * xq;
            e.with_x += double(w[u]) * double(p.x[u]);
            e.magnitude += parts * std::abs(xq);
            e.magnitude_x += parts * std::abs(double(p.x[u]));
            sum_w += std::abs(double(w[u]));
        }
        e.rounding_bound += std::abs(d) / 2 * sum_w;
    }
    return e;
}

/// Runs `fn` on the problem; with the shape's `accumulate`, on y0 and checks that it added
/// (y = y0 + the plain product, exactly), and returns the plain product either way.
QString run(kernels::detail::RowProductFn fn, const Problem& p, std::vector<float>& y) {
    const auto n = static_cast<std::size_t>(p.shape.n);
    y.assign(n + 1, -7.0f);  // one sentinel past the end
    fn(p.base, p.row_bytes, p.order_ptr(), p.shape.n, p.input, y.data(), false);
    if (y[n] != -7.0f) return "wrote past y[n - 1]";
    if (!p.shape.accumulate) return {};
    std::vector<float> added = p.y0;
    fn(p.base, p.row_bytes, p.order_ptr(), p.shape.n, p.input, added.data(), true);
    for (std::size_t i = 0; i < n; ++i)
        if (added[i] != p.y0[i] + y[i])
            return QString("accumulate: y[%1] = %2, expected %3 + %4")
                .arg(i)
                .arg(added[i], 0, 'g', 9)
                .arg(p.y0[i], 0, 'g', 9)
                .arg(y[i], 0, 'g', 9);
    return {};
}

/// The first y[i] that differs from the reference's by more than 1e-6 of the output's
/// magnitude (empty if none); `worst` keeps the largest difference / magnitude seen.
QString first_mismatch(const Problem& p, const std::vector<float>& got,
                       const std::vector<float>& want, double& worst) {
    for (std::int64_t i = 0; i < p.shape.n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const double magnitude = expected(p, i).magnitude;
        const double diff = std::abs(double(got[u]) - double(want[u]));
        worst = std::max(worst, diff / magnitude);
        if (diff > 1e-6 * magnitude)
            return QString("y[%1] = %2, reference %3 (|diff| %4 > %5)")
                .arg(i)
                .arg(got[u], 0, 'g', 9)
                .arg(want[u], 0, 'g', 9)
                .arg(diff)
                .arg(1e-6 * magnitude);
    }
    return {};
}

QString label(const Problem& p) {
    return QString("%1 k=%2 n=%3%4%5 base+%6%7")
        .arg(kernels::row_format_name(p.kq->format))
        .arg(p.shape.k)
        .arg(p.shape.n)
        .arg(p.shape.ordered ? " ordered" : "")
        .arg(p.shape.row_padding ? QString(" row+%1").arg(p.shape.row_padding) : QString())
        .arg(p.shape.base_offset)
        .arg(p.shape.accumulate ? " accumulate" : "");
}

kernels::detail::RowProductFn reference_kernel(RowFormat f) {
    kernels::detail::RowProductTable t{};
    kernels::detail::fill_row_products_kquants_scalar(t);
    return t[static_cast<int>(f)];
}

/// Every problem: each K-quant on each shape, with its own seed; stops at the first failure.
template <class Check>
void for_each_problem(Check check) {
    std::uint32_t seed = 1;
    for (const KQuant& kq : kKQuants)
        for (const Shape& s : kShapes) {
            check(make_problem(kq, s, seed++));
            if (QTest::currentTestFailed()) return;
        }
}

}  // namespace

class TestRowProductsKQuants : public QObject {
    Q_OBJECT
  private slots:
    // (1) The reference is the float64 product of dequantize()'s weights and the quantized
    // activation up to float32 rounding: its integer sums and scales read the blocks right.
    void reference_is_dequantized_weights_times_quantized_x() {
        double worst = 0;
        for_each_problem([&](const Problem& p) {
            std::vector<float> y;
            const QString bad = run(reference_kernel(p.kq->format), p, y);
            QVERIFY2(bad.isEmpty(), qPrintable(label(p) + ": " + bad));
            for (std::int64_t i = 0; i < p.shape.n; ++i) {
                const Expected e = expected(p, i);
                const double diff = std::abs(y[static_cast<std::size_t>(i)] - e.with_quantized_x);
                const double tol = 4e-7 * e.magnitude;
                worst = std::max(worst, diff / e.magnitude);
                QVERIFY2(diff <= tol,
                         qPrintable(QString("%1: y[%2] = %3, float64 %4 (|diff| %5 > %6)")
                                        .arg(label(p))
                                        .arg(i)
                                        .arg(y[static_cast<std::size_t>(i)], 0, 'g', 9)
                                        .arg(e.with_quantized_x, 0, 'g', 12)
                                        .arg(diff)
                                        .arg(tol)));
            }
        });
        qInfo("worst |reference - float64| / magnitude: %.3g", worst);
    }

    // (2) Against the real activation, the reference is off by at most the header's bound:
    // the activation's rounding, Σ_blocks (d_x / 2)·Σ|w|, plus float32 slack.
    void reference_within_activation_rounding_bound() {
        double worst = 0;
        for_each_problem([&](const Problem& p) {
            std::vector<float> y;
            QVERIFY(run(reference_kernel(p.kq->format), p, y).isEmpty());
            for (std::int64_t i = 0; i < p.shape.n; ++i) {
                const Expected e = expected(p, i);
                const double diff = std::abs(y[static_cast<std::size_t>(i)] - e.with_x);
                const double bound = e.rounding_bound + 1e-6 * e.magnitude_x;
                worst = std::max(worst, diff / bound);
                QVERIFY2(diff <= bound,
                         qPrintable(QString("%1: y[%2] = %3, float64 with x %4 "
                                            "(|diff| %5 > bound %6)")
                                        .arg(label(p))
                                        .arg(i)
                                        .arg(y[static_cast<std::size_t>(i)], 0, 'g', 9)
                                        .arg(e.with_x, 0, 'g', 12)
                                        .arg(diff)
                                        .arg(bound)));
            }
        });
        qInfo("worst |reference - float64 with x| / bound: %.3g", worst);
    }

    // (3) Each SIMD kernel this CPU runs against the reference: the same integer sums, the
    // float32 sums in another order.
    void kernels_match_reference() {
        struct Kernel {
            const char* name;
            kernels::detail::RowProductTable table{};
        };
        std::vector<Kernel> ks;
#if defined(__x86_64__)
        const std::string level = kernels::row_products_cpu_level();
        if (level == "avx2" || level == "avx512") {
            ks.push_back({"avx2"});
            kernels::detail::fill_row_products_kquants_avx2(ks.back().table);
        }
        if (level == "avx512") {
            ks.push_back({"avx512"});
            kernels::detail::fill_row_products_kquants_avx512(ks.back().table);
        }
#endif
        if (ks.empty()) QSKIP("no SIMD kernel runs on this CPU");
        double worst = 0;
        for_each_problem([&](const Problem& p) {
            const RowFormat f = p.kq->format;
            std::vector<float> want;
            QVERIFY(run(reference_kernel(f), p, want).isEmpty());
            for (const Kernel& kernel : ks) {
                const kernels::detail::RowProductFn fn = kernel.table[static_cast<int>(f)];
                const QString name = QString(kernel.name) + " " + label(p);
                QVERIFY2(fn, qPrintable(name + ": no kernel"));
                std::vector<float> got;
                const QString bad = run(fn, p, got);
                QVERIFY2(bad.isEmpty(), qPrintable(name + ": " + bad));
                const QString mismatch = first_mismatch(p, got, want, worst);
                QVERIFY2(mismatch.isEmpty(), qPrintable(name + ": " + mismatch));
            }
        });
        qInfo("worst |kernel - reference| / magnitude: %.3g", worst);
    }

    // row_products runs the kernel row_products_isa names for each type.
    void dispatched_matches_reference() {
        double worst = 0;
        for_each_problem([&](const Problem& p) {
            const RowFormat f = p.kq->format;
            std::vector<float> want(static_cast<std::size_t>(p.shape.n)), got(want.size());
            kernels::row_products_reference(f, p.base, p.row_bytes, p.order_ptr(), p.shape.n,
                                            p.input, want.data());
            kernels::row_products(f, p.base, p.row_bytes, p.order_ptr(), p.shape.n, p.input,
                                  got.data());
            const QString mismatch = first_mismatch(p, got, want, worst);
            QVERIFY2(mismatch.isEmpty(), qPrintable(QString("%1 (%2): %3")
                                                        .arg(label(p))
                                                        .arg(kernels::row_products_isa(f))
                                                        .arg(mismatch)));
        });
    }
};

QTEST_APPLESS_MAIN(TestRowProductsKQuants)
#include "test_row_products_kquants.moc"
