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
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/kernels/softmax.h"
#include "engine/kernels/softmax_impl.h"
#include "test_support.h"

using attnviz::kernels::Isa;
namespace kernels = attnviz::kernels;

Q_DECLARE_METATYPE(attnviz::kernels::Isa)

/// A portable stand-in for the AVX-512 lanes: 16 lanes in plain C++, with the masked loads and
/// stores that make the kernel template take its masked-tail path.  The AVX-512 unit cannot run
/// here; this runs the same template code paths (width 16, masked tails) on any CPU.
struct Emulated16Lanes {
    static constexpr std::size_t kWidth = 16;
    static constexpr bool kHasFma = true;
    struct V {
        float v[16];
    };
    struct M {
        bool m[16];
    };

    template <class F>
    static V map(F f) {
        V r;
        for (std::size_t i = 0; i < kWidth; ++i)
            r.v[i] = f(i);
        return r;
    }
    template <class F>
    static M test(F f) {
        M r;
        for (std::size_t i = 0; i < kWidth; ++i)
            r.m[i] = f(i);
        return r;
    }

    static V load(const float* p) {
        return map([&](std::size_t i) { return p[i]; });
    }
    static void store(float* p, V v) { std::copy(v.v, v.v + kWidth, p); }
    static V load_masked(const float* p, std::size_t count, float fill) {
        return map([&](std::size_t i) { return i < count ? p[i] : fill; });
    }
    static void store_masked(float* p, std::size_t count, V v) { std::copy(v.v, v.v + count, p); }
    static V set1(float f) {
        return map([&](std::size_t) { return f; });
    }
    static V zero() { return set1(0.0f); }

    static V add(V a, V b) {
        return map([&](std::size_t i) { return a.v[i] + b.v[i]; });
    }
    static V sub(V a, V b) {
        return map([&](std::size_t i) { return a.v[i] - b.v[i]; });
    }
    static V mul(V a, V b) {
        return map([&](std::size_t i) { return a.v[i] * b.v[i]; });
    }
    static V max(V a, V b) {
        return map([&](std::size_t i) { return a.v[i] > b.v[i] ? a.v[i] : b.v[i]; });
    }
    static V fma(V a, V b, V c) {
        return map([&](std::size_t i) { return std::fma(a.v[i], b.v[i], c.v[i]); });
    }
    static V shl23_bits(V v) {
        return map([&](std::size_t i) {
            return std::bit_cast<float>(std::bit_cast<std::uint32_t>(v.v[i]) << 23);
        });
    }
    static V add_bits(V a, V b) {
        return map([&](std::size_t i) {
            return std::bit_cast<float>(std::bit_cast<std::uint32_t>(a.v[i]) +
                                        std::bit_cast<std::uint32_t>(b.v[i]));
        });
    }

    static M less(V a, V b) {
        return test([&](std::size_t i) { return a.v[i] < b.v[i]; });
    }
    static M greater(V a, V b) {
        return test([&](std::size_t i) { return a.v[i] > b.v[i]; });
    }
    static M is_nan(V a) {
        return test([&](std::size_t i) { return std::isnan(a.v[i]); });
    }
    static V zero_where(M m, V v) {
        return map([&](std::size_t i) { return m.m[i] ? 0.0f : v.v[i]; });
    }
    static V select(M m, V t, V f) {
        return map([&](std::size_t i) { return m.m[i] ? t.v[i] : f.v[i]; });
    }

    static float reduce_add(V v) {
        float s = 0.0f;
        for (float x : v.v)
            s += x;
        return s;
    }
    static float reduce_max(V v) { return *std::max_element(v.v, v.v + kWidth); }
};

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

/// A softmax and exp implementation under test: every variant dispatch offers on this CPU,
/// through the public API, plus the emulated 16-lane instantiation of the template.
struct Kernel {
    std::string name;
    std::function<bool(const float*, float*, std::size_t)> softmax_row;
    std::function<void(const float*, float*, std::size_t)> exp_array;
    std::function<bool(const float*, float*, std::size_t, double*)> softmax_entropy_row;
};

const std::vector<Kernel>& kernels_under_test() {
    static const std::vector<Kernel> all = [] {
        std::vector<Kernel> v;
        for (Isa isa : kernels::available_isas()) {
            v.push_back({kernels::isa_name(isa),
                         [isa](const float* x, float* y, std::size_t n) {
                             return kernels::softmax_row(isa, x, y, n);
                         },
                         [isa](const float* x, float* y, std::size_t n) {
                             kernels::exp_array(isa, x, y, n);
                         },
                         [isa](const float* x, float* y, std::size_t n, double* entropy) {
                             return kernels::softmax_entropy_row(isa, x, y, n, entropy);
                         }});
        }
        v.push_back({"emulated16",
                     [](const float* x, float* y, std::size_t n) {
                         return kernels::softmax_row_impl<Emulated16Lanes>(x, y, n);
                     },
                     [](const float* x, float* y, std::size_t n) {
                         kernels::exp_array_impl<Emulated16Lanes>(x, y, n);
                     },
                     [](const float* x, float* y, std::size_t n, double* entropy) {
                         kernels::ExpTotals t;  // as the dispatcher turns them into H
                         const bool live =
                             kernels::softmax_row_impl<Emulated16Lanes, true>(x, y, n, &t);
                         *entropy = live ? std::log(t.sum) - t.weighted / t.sum : 0.0;
                         return live;
                     }});
        return v;
    }();
    return all;
}

QString describe(const Kernel& k, std::size_t n, double range) {
    return QStringLiteral("%1, n=%2, range=%3")
        .arg(QString::fromStdString(k.name))
        .arg(n)
        .arg(range);
}

}  // namespace

class TestSoftmax : public QObject {
    Q_OBJECT

  private:
    static void add_kernel_rows() {
        QTest::addColumn<int>("kernel");
        const auto& all = kernels_under_test();
        for (std::size_t i = 0; i < all.size(); ++i) {
            QTest::newRow(all[i].name.c_str()) << static_cast<int>(i);
        }
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

    // best_isa() is fixed at first use, so the override is checked in a child process: this
    // binary again, running only this function with ATTNVIZ_ISA set.
    void environmentForcesNarrowerIsa() {
        if (const QByteArray expect = qgetenv("ATTNVIZ_TEST_EXPECT_ISA"); !expect.isEmpty()) {
            QCOMPARE(QByteArray(kernels::isa_name(kernels::best_isa())), expect);
            return;
        }
#if defined(__linux__)
        const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
        const auto run_child = [&](const char* forced, const char* expected) {
            const std::string cmd = std::string("ATTNVIZ_ISA=") + forced +
                                    " ATTNVIZ_TEST_EXPECT_ISA=" + expected + " '" + self +
                                    "' environmentForcesNarrowerIsa >/dev/null 2>&1";
            return std::system(cmd.c_str());
        };
        const Isa widest = kernels::available_isas().back();
        QCOMPARE(run_child("scalar", "scalar"), 0);
        // Unknown or unavailable names are ignored: the widest variant stays.
        QCOMPARE(run_child("bogus", kernels::isa_name(widest)), 0);
        if (widest != Isa::AVX512) QCOMPARE(run_child("avx512", kernels::isa_name(widest)), 0);
        // And the check itself can fail (a child expecting the wrong variant).
        QVERIFY(run_child("scalar", kernels::isa_name(widest)) != 0 || widest == Isa::Scalar);
#else
        QSKIP("needs /proc/self/exe");
#endif
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
        add_kernel_rows();
    }
    void matchesDoubleReference() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
        std::mt19937 rng(1234);
        double max_rel = 0.0, max_rel_near = 0.0, max_excess = 0.0, max_sum_err = 0.0;
        for (double range : kRanges) {
            for (std::size_t n : kLengths) {
                for (int trial = 0; trial < 3; ++trial) {
                    const auto x = random_row(n, range, rng);
                    std::vector<float> y(n, -1.0f);
                    const bool ok = k.softmax_row(x.data(), y.data(), n);
                    QVERIFY2(ok == (n > 0), qPrintable(describe(k, n, range)));
                    if (n == 0) continue;
                    const RowCheck c =
                        check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
                    QVERIFY2(c.ok, qPrintable(describe(k, n, range) + QStringLiteral(": ") +
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
            k.name.c_str(), max_rel, max_rel_near, max_excess, max_sum_err);
    }

    // Attention-logit-like rows: many entries close to the max, where the exp sum matters.
    void longRowsSumToOne_data() {
        add_kernel_rows();
    }
    void longRowsSumToOne() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
        std::mt19937 rng(99);
        for (std::size_t n : {4099u, 32768u, 200000u}) {
            auto x = random_row(n, 0.01, rng);
            std::vector<float> y(n);
            QVERIFY(k.softmax_row(x.data(), y.data(), n));
            const RowCheck c = check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
            QVERIFY2(c.ok, c.message.c_str());
            ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
        }
    }

    void maskedEntriesAreExactlyZero_data() {
        add_kernel_rows();
    }
    void maskedEntriesAreExactlyZero() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
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
            QVERIFY(k.softmax_row(x.data(), y.data(), n));
            for (std::size_t i = 0; i < n; ++i) {
                if (std::isinf(x[i])) {
                    QVERIFY2(y[i] == 0.0f && !std::signbit(y[i]),
                             qPrintable(describe(k, n, 30) + QStringLiteral(" index %1").arg(i)));
                }
            }
            const RowCheck c = check_row(x, y, kSoftmaxRelTol, kRoundingPerUnit, kSoftmaxAbsTol);
            QVERIFY2(c.ok, c.message.c_str());
            ATTNVIZ_FUZZY(c.sum, 1.0, kSumTol);
        }
    }

    void fullyMaskedRowIsZeroAndFalse_data() {
        add_kernel_rows();
    }
    void fullyMaskedRowIsZeroAndFalse() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
        for (std::size_t n : kLengths) {
            const std::vector<float> x(n, -kInf);
            std::vector<float> y(n, 5.0f);
            QVERIFY(!k.softmax_row(x.data(), y.data(), n));
            const std::vector<float> zeros(n, 0.0f);
            ATTNVIZ_COMPARE_ARRAYS(y.data(), zeros.data(), n, 0.0);
        }
        // n == 0 must not touch y.
        float sentinel = 5.0f;
        QVERIFY(!k.softmax_row(nullptr, &sentinel, 0));
        QCOMPARE(sentinel, 5.0f);
    }

    void nanOrPlusInfPoisonsTheRow_data() {
        add_kernel_rows();
    }
    void nanOrPlusInfPoisonsTheRow() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
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
                    QVERIFY(k.softmax_row(x.data(), y.data(), n));
                    QVERIFY2(all_nan(y),
                             qPrintable(describe(k, n, 10) +
                                        QStringLiteral(" bad=%1 at %2").arg(bad).arg(pos)));
                    // The same among masked entries: the max is -inf, the NaN must still win.
                    std::fill(x.begin(), x.end(), -kInf);
                    x[pos] = bad;
                    QVERIFY(k.softmax_row(x.data(), y.data(), n));
                    QVERIFY2(all_nan(y),
                             qPrintable(describe(k, n, 0) +
                                        QStringLiteral(" masked, bad=%1 at %2").arg(bad).arg(pos)));
                }
            }
        }
    }

    // The entropy from the exp pass: the same y as softmax_row, bit for bit, and H against
    // -sum y ln y in double over the float y, within softmax.h's 1e-6 (1 + H); over random rows,
    // rows with masked entries and with entries whose exp underflows, fully masked and NaN rows.
    void entropyFromTheExpPass_data() {
        add_kernel_rows();
    }
    void entropyFromTheExpPass() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
        std::mt19937 rng(41);
        double worst = 0.0;
        const auto check = [&](const std::vector<float>& x, const QString& what) {
            const std::size_t n = x.size();
            std::vector<float> y(n, -1.0f), plain(n, -2.0f);
            double h = -1.0;
            const bool live = k.softmax_entropy_row(x.data(), y.data(), n, &h);
            QCOMPARE(live, k.softmax_row(x.data(), plain.data(), n));
            QVERIFY2(std::memcmp(y.data(), plain.data(), n * sizeof(float)) == 0,
                     qPrintable(what + QStringLiteral(": y differs from softmax_row")));
            double ref = 0.0;
            for (float v : y)
                if (v > 0.0f) ref -= double(v) * std::log(double(v));
            worst = std::max(worst, std::abs(h - ref) / (1.0 + ref));
            QVERIFY2(
                std::abs(h - ref) <= 1e-6 * (1.0 + ref),
                qPrintable(
                    what +
                    QStringLiteral(": H %1, expected %2").arg(h, 0, 'g', 10).arg(ref, 0, 'g', 10)));
        };
        for (double range : kRanges)
            for (std::size_t n : kLengths) {
                if (n == 0) continue;
                auto x = random_row(n, range, rng);
                check(x, describe(k, n, range));
                for (std::size_t i = 1; i < n; i += 3)
                    x[i] = -kInf;
                if (n > 4) x[n - 2] = x[0] - 200.0f;  // exp underflows to exactly 0
                check(x, describe(k, n, range) + QStringLiteral(" masked"));
            }
        // A near-uniform long row: H close to ln n, where an error would show most.
        check(random_row(32768, 0.01, rng), describe(k, 32768, 0.01));
        const std::vector<float> masked(9, -kInf);
        std::vector<float> y(9, 5.0f);
        double h = -1.0;
        QVERIFY(!k.softmax_entropy_row(masked.data(), y.data(), 9, &h));
        QCOMPARE(h, 0.0);
        auto bad = random_row(17, 10.0, rng);
        bad[5] = kNaN;
        y.resize(bad.size());
        QVERIFY(k.softmax_entropy_row(bad.data(), y.data(), bad.size(), &h));
        QVERIFY(std::isnan(h));
        qDebug("%s: entropy's largest |H - ref| / (1 + ref) %.3g", k.name.c_str(), worst);
    }

    void inPlaceAndUnaligned_data() {
        add_kernel_rows();
    }
    void inPlaceAndUnaligned() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
        std::mt19937 rng(11);
        for (std::size_t n : kLengths) {
            const auto x = random_row(n, 5.0, rng);
            std::vector<float> expected(n);
            k.softmax_row(x.data(), expected.data(), n);

            // In place, on a pointer one float off any vector alignment.
            std::vector<float> buf(n + 1);
            std::copy(x.begin(), x.end(), buf.begin() + 1);
            k.softmax_row(buf.data() + 1, buf.data() + 1, n);
            ATTNVIZ_COMPARE_ARRAYS(buf.data() + 1, expected.data(), n, 0.0);

            // Out of place, input and output both misaligned; neighbours untouched.
            std::vector<float> in(n + 1), out(n + 2, 7.0f);
            std::copy(x.begin(), x.end(), in.begin() + 1);
            k.softmax_row(in.data() + 1, out.data() + 1, n);
            ATTNVIZ_COMPARE_ARRAYS(out.data() + 1, expected.data(), n, 0.0);
            QCOMPARE(out.front(), 7.0f);
            QCOMPARE(out.back(), 7.0f);
        }
    }

    void expUlpError_data() {
        add_kernel_rows();
    }
    void expUlpError() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
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
        k.exp_array(x.data(), y.data(), x.size());
        double max_ulp = 0.0;
        float worst_x = 0.0f;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double e = ulp_error(y[i], std::exp(static_cast<double>(x[i])));
            if (e > max_ulp) {
                max_ulp = e;
                worst_x = x[i];
            }
        }
        qDebug("%s: exp max error %.3f ULP at x=%.9g over [-87.3, 88]", k.name.c_str(), max_ulp,
               static_cast<double>(worst_x));
        QVERIFY2(max_ulp <= kExpMaxUlp,
                 qPrintable(QStringLiteral("%1 ULP at x=%2").arg(max_ulp).arg(worst_x, 0, 'g', 9)));
    }

    void expSpecialValues_data() {
        add_kernel_rows();
    }
    void expSpecialValues() {
        QFETCH(int, kernel);
        const Kernel& k = kernels_under_test()[static_cast<std::size_t>(kernel)];
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
                k.exp_array(in.data(), out.data(), n);
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
