// The SIMD softmax kernels (engine/kernels/softmax.h): every variant this machine can run,
// against a double-precision softmax, over awkward lengths, input ranges and masked rows,
// plus the exp polynomial's error in ULPs over its whole range.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/kernels/softmax.h"
#include "test_support.h"

using attnviz::kernels::Isa;
namespace kernels = attnviz::kernels;

Q_DECLARE_METATYPE(attnviz::kernels::Isa)

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// NaNs with payloads, signalling and negative ones: a kernel that builds 2^n from the bits of
/// an intermediate could turn some of these into numbers.
std::vector<float> nan_variants() {
    std::vector<float> v = {kNaN, -kNaN, std::numeric_limits<float>::signaling_NaN()};
    for (std::uint32_t bits : {0x7fc001ffu, 0x7fffffffu, 0xffc00155u, 0x7f800001u}) {
        v.push_back(std::bit_cast<float>(bits));
    }
    return v;
}

// The bounds documented in softmax.h: |y - ref| <= (kSoftmaxRelTol + |x - max| 2^-24) ref
// + kSoftmaxAbsTol, the middle term being the float rounding of x - max.
constexpr double kSoftmaxRelTol = 1e-6;
constexpr double kRoundingPerUnit = 0x1p-24;
constexpr double kSoftmaxAbsTol = 2e-38;  // exp(x - max) < exp(-87.3) is flushed to 0
constexpr double kSumTol = 1e-6;
constexpr double kExpMaxUlp = 2.0;

const std::vector<std::size_t> kLengths = {0,  1,  2,  3,  7,  8,   9,   15,   16,  17,
                                           31, 33, 63, 64, 65, 127, 512, 1000, 4099};
const std::vector<double> kRanges = {1.0, 30.0, 1e4, 3e38};

std::vector<float> random_row(std::size_t n, double range, std::mt19937& rng) {
    std::uniform_real_distribution<double> dist(-range, range);
    std::vector<float> x(n);
    for (auto& v : x)
        v = static_cast<float>(dist(rng));
    return x;
}

/// softmax in double of the float inputs; -inf entries give 0.
std::vector<double> softmax_double(const std::vector<float>& x) {
    double m = -std::numeric_limits<double>::infinity();
    for (float v : x)
        m = std::max(m, static_cast<double>(v));
    std::vector<double> y(x.size());
    double sum = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        y[i] = std::isinf(x[i]) ? 0.0 : std::exp(static_cast<double>(x[i]) - m);
        sum += y[i];
    }
    for (auto& v : y)
        v /= sum;
    return y;
}

struct RowCheck {
    bool ok = true;
    std::string message;
    double max_rel = 0.0;       ///< over outputs above FLT_MIN, where relative error is meaningful
    double max_rel_near = 0.0;  ///< the same for entries within 16 of the max
    double max_rel_excess = 0.0;  ///< max of rel err - |x - max| 2^-24: the part not due to x - max
    double sum = 0.0;
};

/// |y - ref| <= (rel + |x - max| per_unit) ref + abs elementwise, in double; the first violation
/// is described.
RowCheck check_row(const std::vector<float>& x, const std::vector<float>& y, double rel_tol,
                   double per_unit, double abs_tol) {
    const std::vector<double> ref = softmax_double(x);
    double m = -std::numeric_limits<double>::infinity();
    for (float v : x)
        m = std::max(m, static_cast<double>(v));
    RowCheck c;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double err = std::abs(static_cast<double>(y[i]) - ref[i]);
        const double dist = std::isinf(x[i]) ? 0.0 : m - x[i];
        c.sum += y[i];
        if (ref[i] > std::numeric_limits<float>::min()) {
            const double rel = err / ref[i];
            c.max_rel = std::max(c.max_rel, rel);
            if (dist <= 16.0) c.max_rel_near = std::max(c.max_rel_near, rel);
            c.max_rel_excess = std::max(c.max_rel_excess, rel - dist * kRoundingPerUnit);
        }
        if (!(err <= (rel_tol + dist * per_unit) * ref[i] + abs_tol) && c.ok) {
            c.ok = false;
            c.message = "n=" + std::to_string(x.size()) + " index " + std::to_string(i) +
                        ": x=" + std::to_string(x[i]) + " (max - x = " + std::to_string(dist) +
                        ") got " + std::to_string(y[i]) + " expected " + std::to_string(ref[i]) +
                        " (rel err " + std::to_string(err / ref[i]) + ")";
        }
    }
    return c;
}

double ulp_error(float got, double exact) {
    if (exact == 0.0) return got == 0.0f ? 0.0 : kInf;
    const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(exact)) - 23);
    return std::abs(static_cast<double>(got) - exact) / ulp;
}

bool all_nan(const std::vector<float>& y) {
    return std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); });
}

QString describe(Isa isa, std::size_t n, double range) {
    return QStringLiteral("%1, n=%2, range=%3").arg(kernels::isa_name(isa)).arg(n).arg(range);
}

}  // namespace

class TestSoftmax : public QObject {
    Q_OBJECT

  private:
    static void add_isa_rows() {
        QTest::addColumn<Isa>("isa");
        for (Isa isa : kernels::available_isas())
            QTest::newRow(kernels::isa_name(isa)) << isa;
    }

  private slots:
    void dispatcherOffersWhatTheCpuHas() {
        const auto isas = kernels::available_isas();
        QVERIFY(!isas.empty());
        QCOMPARE(isas.front(), Isa::Scalar);
        QVERIFY(std::is_sorted(isas.begin(), isas.end()));
#if defined(__x86_64__) || defined(__i386__)
        const auto has = [&](Isa isa) {
            return std::find(isas.begin(), isas.end(), isa) != isas.end();
        };
        QVERIFY(has(Isa::SSE2));
        // A broken dispatcher must not silently fall back to a narrower variant.
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            QVERIFY2(has(Isa::AVX2), "the CPU has AVX2+FMA but the AVX2 softmax is not offered");
        }
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
            QVERIFY(has(Isa::AVX512));
        }
#endif
        QVERIFY(std::find(isas.begin(), isas.end(), kernels::best_isa()) != isas.end());
        if (qEnvironmentVariableIsEmpty("ATTNVIZ_ISA")) QCOMPARE(kernels::best_isa(), isas.back());
        QString list;
        for (Isa isa : isas)
            list += QString::fromUtf8(kernels::isa_name(isa)) + QLatin1Char(' ');
        qDebug("available: %s; best: %s", qPrintable(list), kernels::isa_name(kernels::best_isa()));
    }

    void isaNamesRoundTrip() {
        for (Isa isa : {Isa::Scalar, Isa::SSE2, Isa::AVX2, Isa::AVX512, Isa::NEON}) {
            QCOMPARE(kernels::isa_from_name(kernels::isa_name(isa)), isa);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::isa_from_name("avx3"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::isa_from_name(nullptr));
    }

    void unavailableIsaThrows() {
        const auto isas = kernels::available_isas();
        for (Isa isa : {Isa::SSE2, Isa::AVX2, Isa::AVX512, Isa::NEON}) {
            if (std::find(isas.begin(), isas.end(), isa) != isas.end()) continue;
            float x = 1.0f, y = 0.0f;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::softmax_row(isa, &x, &y, 1));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::exp_array(isa, &x, &y, 1));
        }
    }

    void matchesDoubleReference_data() {
        add_isa_rows();
    }
    void matchesDoubleReference() {
        QFETCH(Isa, isa);
        std::mt19937 rng(1234);
        double max_rel = 0.0, max_rel_near = 0.0, max_excess = 0.0, max_sum_err = 0.0;
        for (double range : kRanges) {
            for (std::size_t n : kLengths) {
                for (int trial = 0; trial < 3; ++trial) {
                    const auto x = random_row(n, range, rng);
                    std::vector<float> y(n, -1.0f);
                    const bool ok = kernels::softmax_row(isa, x.data(), y.data(), n);
                    QVERIFY2(ok == (n > 0), qPrintable(describe(isa, n, range)));
                    if (n == 0) continue;
                    const RowCheck c =
                        check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
                    QVERIFY2(c.ok, qPrintable(describe(isa, n, range) + QStringLiteral(": ") +
                                              QString::fromStdString(c.message)));
                    ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
                    max_rel = std::max(max_rel, c.max_rel);
                    max_rel_near = std::max(max_rel_near, c.max_rel_near);
                    max_excess = std::max(max_excess, c.max_rel_excess);
                    max_sum_err = std::max(max_sum_err, std::abs(c.sum - 1.0));
                }
            }
        }
        qDebug(
            "%s: relative error vs double: max %.3g, within 16 of the max %.3g, beyond the "
            "x - max rounding %.3g; max |sum - 1| %.3g",
            kernels::isa_name(isa), max_rel, max_rel_near, max_excess, max_sum_err);
    }

    // Attention-logit-like rows: many entries close to the max, where the exp sum matters.
    void longRowsSumToOne_data() {
        add_isa_rows();
    }
    void longRowsSumToOne() {
        QFETCH(Isa, isa);
        std::mt19937 rng(99);
        for (std::size_t n : {4099u, 32768u, 200000u}) {
            auto x = random_row(n, 0.01, rng);
            std::vector<float> y(n);
            QVERIFY(kernels::softmax_row(isa, x.data(), y.data(), n));
            const RowCheck c = check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
            QVERIFY2(c.ok, c.message.c_str());
            ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
        }
    }

    void maskedEntriesAreExactlyZero_data() {
        add_isa_rows();
    }
    void maskedEntriesAreExactlyZero() {
        QFETCH(Isa, isa);
        std::mt19937 rng(7);
        for (std::size_t n : kLengths) {
            if (n == 0) continue;
            auto x = random_row(n, 30.0, rng);
            for (std::size_t i = 0; i < n; i += 3)
                x[i] = -kInf;
            if (n == 1) x[0] = 2.0f;  // keep one finite entry
            // Also entries far below the max: their exp underflows to exactly 0 too.
            if (n > 4) x[n - 2] = x[1] - 200.0f;
            std::vector<float> y(n);
            QVERIFY(kernels::softmax_row(isa, x.data(), y.data(), n));
            for (std::size_t i = 0; i < n; ++i) {
                if (std::isinf(x[i])) {
                    QVERIFY2(y[i] == 0.0f && !std::signbit(y[i]),
                             qPrintable(describe(isa, n, 30) + QStringLiteral(" index %1").arg(i)));
                }
            }
            const RowCheck c = check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
            QVERIFY2(c.ok, c.message.c_str());
            ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
        }
    }

    void fullyMaskedRowIsZeroAndFalse_data() {
        add_isa_rows();
    }
    void fullyMaskedRowIsZeroAndFalse() {
        QFETCH(Isa, isa);
        for (std::size_t n : kLengths) {
            const std::vector<float> x(n, -kInf);
            std::vector<float> y(n, 5.0f);
            QVERIFY(!kernels::softmax_row(isa, x.data(), y.data(), n));
            const std::vector<float> zeros(n, 0.0f);
            ATTNVIZ_COMPARE_ARRAYS(y.data(), zeros.data(), n, 0.0);
        }
        // n == 0 must not touch y.
        float sentinel = 5.0f;
        QVERIFY(!kernels::softmax_row(isa, nullptr, &sentinel, 0));
        QCOMPARE(sentinel, 5.0f);
    }

    void nanOrPlusInfPoisonsTheRow_data() {
        add_isa_rows();
    }
    void nanOrPlusInfPoisonsTheRow() {
        QFETCH(Isa, isa);
        std::mt19937 rng(3);
        for (std::size_t n : kLengths) {
            if (n == 0) continue;
            for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
                auto bads = nan_variants();
                bads.push_back(kInf);
                for (float bad : bads) {
                    auto x = random_row(n, 10.0, rng);
                    x[pos] = bad;
                    std::vector<float> y(n, 0.0f);
                    QVERIFY(kernels::softmax_row(isa, x.data(), y.data(), n));
                    QVERIFY2(all_nan(y),
                             qPrintable(describe(isa, n, 10) +
                                        QStringLiteral(" bad=%1 at %2").arg(bad).arg(pos)));
                    // The same among masked entries: the max is -inf, the NaN must still win.
                    std::fill(x.begin(), x.end(), -kInf);
                    x[pos] = bad;
                    QVERIFY(kernels::softmax_row(isa, x.data(), y.data(), n));
                    QVERIFY2(all_nan(y),
                             qPrintable(describe(isa, n, 0) +
                                        QStringLiteral(" masked, bad=%1 at %2").arg(bad).arg(pos)));
                }
            }
        }
    }

    void inPlaceAndUnaligned_data() {
        add_isa_rows();
    }
    void inPlaceAndUnaligned() {
        QFETCH(Isa, isa);
        std::mt19937 rng(11);
        for (std::size_t n : kLengths) {
            const auto x = random_row(n, 5.0, rng);
            std::vector<float> expected(n);
            kernels::softmax_row(isa, x.data(), expected.data(), n);

            // In place, on a pointer one float off any vector alignment.
            std::vector<float> buf(n + 1);
            std::copy(x.begin(), x.end(), buf.begin() + 1);
            kernels::softmax_row(isa, buf.data() + 1, buf.data() + 1, n);
            ATTNVIZ_COMPARE_ARRAYS(buf.data() + 1, expected.data(), n, 0.0);

            // Out of place, input and output both misaligned; neighbours untouched.
            std::vector<float> in(n + 1), out(n + 2, 7.0f);
            std::copy(x.begin(), x.end(), in.begin() + 1);
            kernels::softmax_row(isa, in.data() + 1, out.data() + 1, n);
            ATTNVIZ_COMPARE_ARRAYS(out.data() + 1, expected.data(), n, 0.0);
            QCOMPARE(out.front(), 7.0f);
            QCOMPARE(out.back(), 7.0f);
        }
    }

    void expUlpError_data() {
        add_isa_rows();
    }
    void expUlpError() {
        QFETCH(Isa, isa);
        // A dense uniform sweep of [-87.3, 88] plus the range ends.
        constexpr std::size_t kPoints = std::size_t{1} << 22;
        std::vector<float> x(kPoints + 2);
        for (std::size_t i = 0; i < kPoints; ++i) {
            x[i] =
                static_cast<float>(-87.3 + (88.0 + 87.3) * static_cast<double>(i) / (kPoints - 1));
        }
        x[kPoints] = -87.3f;
        x[kPoints + 1] = 88.0f;
        std::vector<float> y(x.size());
        kernels::exp_array(isa, x.data(), y.data(), x.size());
        double max_ulp = 0.0;
        float worst_x = 0.0f;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double e = ulp_error(y[i], std::exp(static_cast<double>(x[i])));
            if (e > max_ulp) {
                max_ulp = e;
                worst_x = x[i];
            }
        }
        qDebug("%s: exp max error %.3f ULP at x=%.9g over [-87.3, 88]", kernels::isa_name(isa),
               max_ulp, static_cast<double>(worst_x));
        QVERIFY2(max_ulp <= kExpMaxUlp,
                 qPrintable(QStringLiteral("%1 ULP at x=%2").arg(max_ulp).arg(worst_x, 0, 'g', 9)));
    }

    void expSpecialValues_data() {
        add_isa_rows();
    }
    void expSpecialValues() {
        QFETCH(Isa, isa);
        // Lengths 1 and 19 so the values go through both the vector body and the tail.
        std::vector<float> x = {-kInf, -1e30f, -87.31f, -100.0f, 0.0f,   -0.0f, 1.0f,
                                88.8f, 1e30f,  kInf,    kNaN,    -88.0f, 88.72f};
        std::vector<float> expected = {0.0f,
                                       0.0f,
                                       0.0f,
                                       0.0f,
                                       1.0f,
                                       1.0f,
                                       std::exp(1.0f),
                                       kInf,
                                       kInf,
                                       kInf,
                                       kNaN,
                                       0.0f,
                                       std::exp(88.72f)};
        for (float nan : nan_variants()) {
            x.push_back(nan);
            expected.push_back(kNaN);
        }
        for (std::size_t i = 0; i < x.size(); ++i) {
            for (std::size_t n : {std::size_t{1}, std::size_t{19}}) {
                std::vector<float> in(n, x[i]), out(n);
                kernels::exp_array(isa, in.data(), out.data(), n);
                const std::vector<float> want(n, expected[i]);
                const auto cmp =
                    attnviz::test::compare_arrays(out.data(), want.data(), n, 0.0, 3e-7);
                QVERIFY2(cmp.ok, qPrintable(QStringLiteral("exp(%1): ").arg(x[i]) +
                                            QString::fromStdString(cmp.message)));
            }
        }
    }

    // The std::exp loop the benchmark compares against meets the same contract.
    void referenceLoop() {
        std::mt19937 rng(5);
        for (std::size_t n : kLengths) {
            const auto x = random_row(n, 30.0, rng);
            std::vector<float> y(n);
            QCOMPARE(kernels::softmax_row_reference(x.data(), y.data(), n), n > 0);
            if (n == 0) continue;
            const RowCheck c = check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
            QVERIFY2(c.ok, c.message.c_str());
            ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
        }
        std::vector<float> masked(9, -kInf), y(9);
        QVERIFY(!kernels::softmax_row_reference(masked.data(), y.data(), 9));
        masked[4] = kNaN;
        QVERIFY(kernels::softmax_row_reference(masked.data(), y.data(), 9));
        QVERIFY(all_nan(y));
    }

    void bestIsaMatchesExplicitCall() {
        std::mt19937 rng(8);
        const auto x = random_row(1000, 4.0, rng);
        std::vector<float> a(x.size()), b(x.size());
        QVERIFY(kernels::softmax_row(x.data(), a.data(), x.size()));
        QVERIFY(kernels::softmax_row(kernels::best_isa(), x.data(), b.data(), x.size()));
        ATTNVIZ_COMPARE_ARRAYS(a.data(), b.data(), x.size(), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestSoftmax)
#include "test_softmax.moc"
