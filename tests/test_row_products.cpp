// The one-row products (engine/kernels/row_products.h) of the float formats and GGUF's legacy
// blocks: the scalar reference against float64 products of the weights as gguf_quants.cpp
// dequantizes them, the header's bound on the activation's int8 rounding, and the dispatched
// SIMD kernels against the reference.  Shapes: a k of one block, partial SIMD groups, the
// model's 896 and 4864; row counts that leave 1, 2 and 3 rows after the groups of four; a
// permutation of the stored rows, padded and unaligned rows; storing and accumulating.
// CTest runs this suite twice: as the CPU allows, and with ATTNVIZ_ROW_PRODUCTS=avx2.
#include <QTest>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/kernels/row_products.h"

using attnviz::io::GgufType;
using attnviz::kernels::RowFormat;
using attnviz::kernels::RowInput;

namespace {

constexpr RowFormat kFormats[] = {RowFormat::F32,  RowFormat::F16,  RowFormat::BF16,
                                  RowFormat::Q8_0, RowFormat::Q4_0, RowFormat::Q4_1,
                                  RowFormat::Q5_0, RowFormat::Q5_1};

GgufType gguf_type(RowFormat f) {
    switch (f) {
        case RowFormat::F32:
            return GgufType::F32;
        case RowFormat::F16:
            return GgufType::F16;
        case RowFormat::BF16:
            return GgufType::BF16;
        case RowFormat::Q8_0:
            return GgufType::Q8_0;
        case RowFormat::Q4_0:
            return GgufType::Q4_0;
        case RowFormat::Q4_1:
            return GgufType::Q4_1;
        case RowFormat::Q5_0:
            return GgufType::Q5_0;
        default:
            return GgufType::Q5_1;
    }
}

/// Tolerances, relative to the magnitude of a product (see Product::magnitude): about 17
/// float32 epsilons.  Measured worst cases over these cases (printed by the slots): the
/// reference against float64 2.5e-7, the AVX-512 and AVX2 kernels against the reference
/// (other orders of the float sums) 2.4e-7.
constexpr double kReferenceTolerance = 1e-6;
constexpr double kDispatchTolerance = 1e-6;

/// A finite half: random sign and mantissa, exponent field in [lo, hi] (0: subnormal).
std::uint16_t random_half(std::mt19937& rng, int lo, int hi) {
    const auto e = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(lo, hi)(rng));
    const auto m = static_cast<std::uint16_t>(rng() & 0x3FF);
    return static_cast<std::uint16_t>((rng() & 0x8000) | e << 10 | m);
}

void put16(std::byte* p, std::uint16_t v) {
    std::memcpy(p, &v, 2);
}

/// One stored row of k values of f, random but valid: finite values and scales.
void random_row(RowFormat f, std::int64_t k, std::byte* row, std::mt19937& rng) {
    std::normal_distribution<float> normal;
    const auto values = static_cast<std::size_t>(k);
    switch (f) {
        case RowFormat::F32:
            for (std::size_t c = 0; c < values; ++c) {
                const float v = normal(rng);
                std::memcpy(row + 4 * c, &v, 4);
            }
            return;
        case RowFormat::F16:
            for (std::size_t c = 0; c < values; ++c)
                put16(row + 2 * c, random_half(rng, 0, 18));
            return;
        case RowFormat::BF16:
            for (std::size_t c = 0; c < values; ++c) {
                const auto sign = static_cast<std::uint32_t>(rng() & 0x8000);
                const auto e =
                    static_cast<std::uint32_t>(std::uniform_int_distribution<int>(110, 130)(rng));
                put16(row + 2 * c, static_cast<std::uint16_t>(sign | e << 7 | (rng() & 0x7F)));
            }
            return;
        default:
            break;
    }
    // The quants are any bytes; the leading half scale d (and minimum m) must be finite.
    const std::size_t block = attnviz::kernels::row_format_block_bytes(f);
    const bool has_min = f == RowFormat::Q4_1 || f == RowFormat::Q5_1;
    for (std::size_t b = 0; b < values / 32; ++b) {
        std::byte* p = row + b * block;
        for (std::size_t i = 0; i < block; ++i)
            p[i] = static_cast<std::byte>(rng());
        put16(p, random_half(rng, 0, 16));
        if (has_min) put16(p + 2, random_half(rng, 0, 16));
    }
}

/// An activation of mixed scales from block to block, one block of zeros.
std::vector<float> random_activation(std::int64_t k, std::mt19937& rng) {
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> exponent(-2.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(k));
    for (std::size_t b = 0; b < x.size(); b += 32) {
        const float scale = b == 32 ? 0.0f : std::pow(10.0f, exponent(rng));
        for (std::size_t c = b; c < std::min(x.size(), b + 32); ++c)
            x[c] = normal(rng) * scale;
    }
    return x;
}

struct Case {
    RowFormat format;
    std::int64_t k, n;
    bool ordered, accumulate;
    std::size_t misalign, pad;  ///< the rows' base address % 16, bytes between rows

    std::string name() const {
        return std::string(attnviz::kernels::row_format_name(format)) + " k=" + std::to_string(k) +
               " n=" + std::to_string(n) + (ordered ? " ordered" : "") +
               (accumulate ? " accumulate" : "") + " misalign=" + std::to_string(misalign) +
               " pad=" + std::to_string(pad);
    }
};

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    int variant = 0;
    for (const RowFormat f : kFormats) {
        const bool quantized = attnviz::kernels::row_format_quantized(f);
        // Quantized: 1, 3, 5 and 7 blocks leave every partial group; float: every tail length.
        const std::vector<std::int64_t> ks =
            quantized ? std::vector<std::int64_t>{32, 96, 160, 224, 896, 4864}
                      : std::vector<std::int64_t>{1, 15, 17, 45, 896, 4864};
        for (const std::int64_t k : ks)
            for (const std::int64_t n : {1, 6, 11})
                for (const bool ordered : {false, true})
                    for (const bool accumulate : {false, true}) {
                        ++variant;
                        cases.push_back(
                            {f, k, n, ordered, accumulate,
                             static_cast<std::size_t>(variant % 7 == 0 ? 0 : variant % 5),
                             static_cast<std::size_t>(variant % 3 == 0 ? 6 : 0)});
                    }
    }
    return cases;
}

/// A case's stored rows (more than it multiplies, so that `order` picks among them), its
/// activation, and float64 truths per multiplied row.
struct Product {
    Case c;
    std::vector<std::byte> storage;
    const std::byte* base = nullptr;
    std::size_t row_bytes = 0;
    std::vector<std::int64_t> order;
    std::vector<float> x, y0;
    RowInput input;
    /// Per multiplied row: Σ w·x with the real x; Σ w·xq with the activation as the quantized
    /// products read it (d·q; x itself for float formats); the bound of row_products.h on
    /// their difference, Σ_blocks (d_x / 2)·Σ|w|; the magnitude tolerances scale with:
    /// Σ|w·x| + Σ(|d·q| + |m|)·|xq| + |y0|, which bounds every rounded partial sum.
    std::vector<double> exact, exact_q, bound, magnitude;

    explicit Product(const Case& cs, unsigned seed) : c(cs) {
        std::mt19937 rng(seed);
        const std::size_t values = static_cast<std::size_t>(c.k);
        const std::size_t bytes =
            values / static_cast<std::size_t>(attnviz::kernels::row_format_block_values(c.format)) *
            attnviz::kernels::row_format_block_bytes(c.format);
        const std::int64_t stored = c.n + 3;
        row_bytes = bytes + c.pad;
        // The last row ends where the allocation does, so that a read past it leaves the
        // allocation (where AddressSanitizer sees it); malloc aligns to 16 at least.
        storage.resize(c.misalign + static_cast<std::size_t>(stored - 1) * row_bytes + bytes);
        base = storage.data() + c.misalign;
        for (std::int64_t r = 0; r < stored; ++r)
            random_row(c.format, c.k, const_cast<std::byte*>(base) + r * row_bytes, rng);
        for (std::int64_t i = 0; i < c.n; ++i)
            order.push_back(c.ordered ? (i * 5 + 2) % stored : i);
        x = random_activation(c.k, rng);
        std::normal_distribution<float> normal;
        y0.resize(static_cast<std::size_t>(c.n));
        for (float& v : y0)
            v = c.accumulate ? normal(rng) : 0.0f;
        input.reset(x.data(), c.k);
        input.prepare(c.format);
        truths();
    }

    const std::int64_t* order_or_null() const { return c.ordered ? order.data() : nullptr; }

    void truths() {
        const auto values = static_cast<std::size_t>(c.k);
        const bool quantized = attnviz::kernels::row_format_quantized(c.format);
        const bool has_min = c.format == RowFormat::Q4_1 || c.format == RowFormat::Q5_1;
        std::vector<float> w(values);
        for (std::int64_t i = 0; i < c.n; ++i) {
            const std::byte* row =
                base + static_cast<std::size_t>(order[static_cast<std::size_t>(i)]) * row_bytes;
            attnviz::io::dequantize(gguf_type(c.format), row, w.data(), c.k);
            double e = 0, eq = 0, b = 0, mag = std::fabs(y0[static_cast<std::size_t>(i)]);
            for (std::size_t blk = 0; blk < values; blk += 32) {
                const std::size_t end = std::min(values, blk + 32);
                double abs_w = 0;
                for (std::size_t j = blk; j < end; ++j) {
                    const double xq =
                        quantized ? double(input.d32[j / 32]) * double(input.q32[j]) : double(x[j]);
                    e += double(w[j]) * double(x[j]);
                    eq += double(w[j]) * xq;
                    abs_w += std::fabs(double(w[j]));
                    // The _1 types' terms d·q and m are rounded separately.
                    const double m = has_min ? std::fabs(minimum(row, j / 32)) : 0.0;
                    mag += std::fabs(double(w[j]) * double(x[j])) +
                           (std::fabs(double(w[j])) + 2 * m) * std::fabs(xq);
                }
                if (quantized) b += double(input.d32[blk / 32]) / 2 * abs_w;
            }
            exact.push_back(e);
            exact_q.push_back(eq);
            bound.push_back(b);
            magnitude.push_back(mag);
        }
    }

    double minimum(const std::byte* row, std::size_t block) const {
        std::uint16_t h;
        std::memcpy(&h, row + block * attnviz::kernels::row_format_block_bytes(c.format) + 2, 2);
        float m = 0;
        attnviz::io::dequantize(GgufType::F16, reinterpret_cast<const std::byte*>(&h), &m, 1);
        return m;
    }

    std::vector<float> run(bool reference) const {
        std::vector<float> y = y0;
        (reference ? attnviz::kernels::row_products_reference : attnviz::kernels::row_products)(
            c.format, base, row_bytes, order_or_null(), c.n, input, y.data(), c.accumulate);
        return y;
    }
};

/// The first row whose |got − want| exceeds limit(i), named with both values; empty if none.
template <class Limit>
QString first_miss(const Case& c, const std::vector<float>& got, const std::vector<double>& want,
                   Limit limit) {
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double diff = std::fabs(double(got[i]) - want[i]);
        if (!(diff <= limit(i)))
            return QString::fromStdString(c.name()) +
                   QStringLiteral(": row %1 got %2 expected %3 (|diff| %4 > %5)")
                       .arg(i)
                       .arg(double(got[i]), 0, 'g', 9)
                       .arg(want[i], 0, 'g', 9)
                       .arg(diff, 0, 'g', 3)
                       .arg(limit(i), 0, 'g', 3);
    }
    return {};
}

std::vector<double> plus_y0(const Product& p, const std::vector<double>& v) {
    std::vector<double> r(v);
    for (std::size_t i = 0; i < r.size(); ++i)
        r[i] += p.y0[i];
    return r;
}

std::string expected_isa() {
    // What the CPU runs (CPUID, as the dispatcher reads it), narrowed by the variable.
    std::string isa = attnviz::kernels::row_products_cpu_level();
    const char* env = std::getenv("ATTNVIZ_ROW_PRODUCTS");
    const std::string forced = env ? env : "";
    if (forced == "scalar") isa = "scalar";
    if (forced == "avx2" && isa == "avx512") isa = "avx2";
    return isa;
}

}  // namespace

class TestRowProducts : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        cases_ = all_cases();
        qInfo("row_products runs on %s", attnviz::kernels::row_products_isa(RowFormat::Q4_0));
    }

    /// The reference is the float64 product of the dequantized weights and the activation as
    /// it reads it (x, or the int8 blocks' d·q) up to float32 sums.
    void referenceMatchesDequantizedProduct() {
        double worst = 0;
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Product p(cases_[i], static_cast<unsigned>(i));
            const std::vector<float> y = p.run(true);
            const QString miss = first_miss(p.c, y, plus_y0(p, p.exact_q), [&](std::size_t r) {
                return kReferenceTolerance * p.magnitude[r];
            });
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
            for (std::size_t r = 0; r < y.size(); ++r)
                worst =
                    std::max(worst, std::fabs(y[r] - (p.exact_q[r] + p.y0[r])) / p.magnitude[r]);
        }
        qInfo("worst |reference - float64| / magnitude: %.3g", worst);
    }

    /// With the real activation the only further error is its int8 rounding, within the
    /// header's bound Σ_blocks (d_x / 2)·Σ|w| (0 for the float formats).
    void referenceWithinActivationRoundingBound() {
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Product p(cases_[i], static_cast<unsigned>(i));
            const std::vector<float> y = p.run(true);
            const QString miss = first_miss(p.c, y, plus_y0(p, p.exact), [&](std::size_t r) {
                return p.bound[r] + kReferenceTolerance * p.magnitude[r];
            });
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
        }
    }

    /// The bound is reached when every rounding error of the activation has the sign of its
    /// weight: values (n + 0.6)·d round away by 0.4·d (0.8 of the bound; 1.2 if rounding
    /// truncated), d = 1/128 exact, weights of the sign of x − d·q (Q8_0, d_w = 1).
    void activationRoundingBoundIsNearlyReached() {
        constexpr std::int64_t k = 256;
        std::mt19937 rng(7);
        std::vector<float> x(k);
        std::vector<std::byte> row(static_cast<std::size_t>(k / 32) * 34);
        for (std::size_t b = 0; b < k / 32; ++b) {
            put16(row.data() + b * 34, 0x3C00);  // d_w = 1
            for (std::size_t j = 0; j < 32; ++j) {
                const int n = std::uniform_int_distribution<int>(0, 120)(rng);
                const float sign = rng() & 1 ? 1.0f : -1.0f;
                // Value 0 of the block sets its scale (127·d) and has no rounding error.
                x[b * 32 + j] = j == 0 ? 127.0f / 128 : sign * (static_cast<float>(n) + 0.6f) / 128;
                const int q = j == 0 ? 0 : std::uniform_int_distribution<int>(1, 127)(rng);
                row[b * 34 + 2 + j] = static_cast<std::byte>(static_cast<std::int8_t>(-sign * q));
            }
        }
        RowInput input;
        input.reset(x.data(), k);
        input.prepare(RowFormat::Q8_0);
        std::vector<float> w(k);
        attnviz::io::dequantize(GgufType::Q8_0, row.data(), w.data(), k);
        double exact = 0, bound = 0;
        for (std::size_t c = 0; c < w.size(); ++c) {
            exact += double(w[c]) * double(x[c]);
            bound += double(input.d32[c / 32]) / 2 * std::fabs(double(w[c]));
        }
        for (const bool reference : {true, false}) {
            float y = 0;
            (reference ? attnviz::kernels::row_products_reference : attnviz::kernels::row_products)(
                RowFormat::Q8_0, row.data(), row.size(), nullptr, 1, input, &y, false);
            const double ratio = std::fabs(double(y) - exact) / bound;
            QVERIFY2(ratio > 0.79 && ratio < 0.81,
                     qPrintable(QStringLiteral("%1: error %2 of the bound, expected 0.8")
                                    .arg(reference ? "reference" : "row_products")
                                    .arg(ratio)));
        }
    }

    /// The SIMD kernel row_products picks agrees with the reference up to the order of its
    /// float sums; it stores into (or adds to) y exactly the rows asked for.
    void dispatchedMatchesReference() {
        double worst = 0;
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Product p(cases_[i], static_cast<unsigned>(i));
            const std::vector<float> ref = p.run(true), got = p.run(false);
            const std::vector<double> want(ref.begin(), ref.end());
            const QString miss = first_miss(
                p.c, got, want, [&](std::size_t r) { return kDispatchTolerance * p.magnitude[r]; });
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
            for (std::size_t r = 0; r < got.size(); ++r)
                worst = std::max(worst, std::fabs(double(got[r]) - want[r]) / p.magnitude[r]);
        }
        qInfo("worst |%s - reference| / magnitude: %.3g",
              attnviz::kernels::row_products_isa(RowFormat::Q4_0), worst);
    }

    /// The widest kernel the CPU runs, narrowed by ATTNVIZ_ROW_PRODUCTS, for every format.
    void dispatchPicksWidestAllowedIsa() {
        const std::string expected = expected_isa();
        for (const RowFormat f : kFormats)
            QCOMPARE(std::string(attnviz::kernels::row_products_isa(f)), expected);
    }

  private:
    std::vector<Case> cases_;
};

QTEST_APPLESS_MAIN(TestRowProducts)
#include "test_row_products.moc"
