// The matrix products (engine/kernels/gemm.h, engine/ops/gemm.h): every backend compiled into
// this build against a plain double-precision loop, on awkward shapes (one row, one column,
// sizes that are no multiple of any vector width, k = 0), strided rows, B transposed or not,
// overwriting or accumulating; calls from several threads at once; ops::gemm's checks.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/kernels/gemm.h"
#include "engine/kernels/gemm_bf16.h"
#include "engine/ops/gemm.h"
#include "test_support.h"

namespace kernels = attnviz::kernels;
using kernels::GemmBackend;

Q_DECLARE_METATYPE(attnviz::kernels::GemmBackend)

namespace {

struct Case {
    std::int64_t m, n, k;
    bool b_transposed;
    std::int64_t pad;  // extra floats at the end of every row of A, B and C
    bool accumulate;
};

struct Operands {
    std::int64_t lda, ldb, ldc;
    std::vector<float> a, b, c;
};

constexpr float kSentinel = -12345.0f;  // the padding of C must keep it

Operands make(const Case& t, std::mt19937& rng) {
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    Operands o;
    o.lda = t.k + t.pad;
    o.ldb = (t.b_transposed ? t.k : t.n) + t.pad;
    o.ldc = t.n + t.pad;
    o.a.resize(static_cast<std::size_t>(t.m * o.lda));
    o.b.resize(static_cast<std::size_t>((t.b_transposed ? t.n : t.k) * o.ldb));
    o.c.assign(static_cast<std::size_t>(t.m * o.ldc), kSentinel);
    for (float& v : o.a)
        v = dist(rng);
    for (float& v : o.b)
        v = dist(rng);
    for (std::int64_t i = 0; i < t.m; ++i)
        for (std::int64_t j = 0; j < t.n; ++j)
            o.c[static_cast<std::size_t>(i * o.ldc + j)] = t.accumulate ? dist(rng) : kSentinel;
    return o;
}

/// The product in double from the same float inputs, and sum_k |a_ik b_kj| for the tolerance.
void reference(const Case& t, const Operands& o, std::vector<double>& ref,
               std::vector<double>& magnitude) {
    ref.assign(static_cast<std::size_t>(t.m * t.n), 0.0);
    magnitude.assign(ref.size(), 0.0);
    for (std::int64_t i = 0; i < t.m; ++i)
        for (std::int64_t j = 0; j < t.n; ++j) {
            double sum = t.accumulate ? o.c[static_cast<std::size_t>(i * o.ldc + j)] : 0.0;
            double mag = std::abs(sum);
            for (std::int64_t p = 0; p < t.k; ++p) {
                const double x = o.a[static_cast<std::size_t>(i * o.lda + p)];
                const double y = t.b_transposed ? o.b[static_cast<std::size_t>(j * o.ldb + p)]
                                                : o.b[static_cast<std::size_t>(p * o.ldb + j)];
                sum += x * y;
                mag += std::abs(x * y);
            }
            ref[static_cast<std::size_t>(i * t.n + j)] = sum;
            magnitude[static_cast<std::size_t>(i * t.n + j)] = mag;
        }
}

std::string describe(const Case& t) {
    return std::to_string(t.m) + "x" + std::to_string(t.k) + " * " + std::to_string(t.k) + "x" +
           std::to_string(t.n) + (t.b_transposed ? " (B transposed)" : "") +
           (t.pad ? " pad " + std::to_string(t.pad) : "") + (t.accumulate ? " +=" : "");
}

const Case kCases[] = {
    {1, 1, 1, false, 0, false},       {1, 1, 1, true, 3, true},
    {1, 768, 768, true, 0, false},    {1, 37, 129, false, 5, false},
    {2, 3, 5, false, 0, false},       {3, 5, 7, true, 1, false},
    {7, 1, 33, false, 2, true},       {17, 33, 65, true, 0, false},
    {17, 33, 65, false, 7, true},     {31, 47, 1, true, 0, false},
    {64, 64, 64, true, 0, false},     {65, 63, 129, false, 3, false},
    {129, 97, 257, true, 11, true},   {45, 154, 154, true, 0, false},
    {45, 45, 7, true, 455, false},    {45, 7, 45, false, 455, false},
    {8, 0, 5, false, 0, false},       {0, 8, 5, true, 0, false},
    {6, 9, 0, false, 0, false},       {6, 9, 0, true, 2, true},
    {300, 200, 1000, true, 0, false},
};

}  // namespace

class GemmTest : public QObject {
    Q_OBJECT

  private slots:
    void matches_double_loop_data() {
        QTest::addColumn<GemmBackend>("backend");
        for (GemmBackend b : kernels::gemm_backends())
            QTest::newRow(kernels::gemm_backend_name(b)) << b;
    }

    // Each element within the rigorous float32 bound for a sum of k products (any summation
    // order, with or without FMA): |c - ref| <= (k + 2) * 2^-24 * sum |a b| (+ 1e-30 for
    // exact zeros).  In practice the error is far below it; the bound keeps the test exact
    // about what is promised and never flaky.
    void matches_double_loop() {
        QFETCH(GemmBackend, backend);
        std::mt19937 rng(13);
        for (const Case& t : kCases) {
            Operands o = make(t, rng);
            std::vector<double> ref, magnitude;
            reference(t, o, ref, magnitude);
            kernels::sgemm(backend, t.b_transposed, t.m, t.n, t.k, o.a.data(), o.lda, o.b.data(),
                           o.ldb, o.c.data(), o.ldc, t.accumulate);
            for (std::int64_t i = 0; i < t.m; ++i) {
                for (std::int64_t j = 0; j < o.ldc; ++j) {
                    const float got = o.c[static_cast<std::size_t>(i * o.ldc + j)];
                    if (j >= t.n) {
                        QVERIFY2(got == kSentinel,
                                 qPrintable(QString("%1: padding of C row %2 col %3 written (%4)")
                                                .arg(QString::fromStdString(describe(t)))
                                                .arg(i)
                                                .arg(j)
                                                .arg(got)));
                        continue;
                    }
                    const auto e = static_cast<std::size_t>(i * t.n + j);
                    const double tol =
                        static_cast<double>(t.k + 2) * 0x1p-24 * magnitude[e] + 1e-30;
                    QVERIFY2(std::abs(got - ref[e]) <= tol,
                             qPrintable(QString("%1: first mismatch at [%2,%3]: got %4, double "
                                                "loop %5, |diff| %6 > %7")
                                            .arg(QString::fromStdString(describe(t)))
                                            .arg(i)
                                            .arg(j)
                                            .arg(static_cast<double>(got), 0, 'g', 9)
                                            .arg(ref[e], 0, 'g', 9)
                                            .arg(std::abs(got - ref[e]), 0, 'g', 3)
                                            .arg(tol, 0, 'g', 3)));
                }
            }
        }
    }

    void concurrent_calls_repeat_the_bits_data() { matches_double_loop_data(); }

    // The engine's threads call the backend at once (ops/parallel.h) and promise the same
    // output run after run: every call from four threads at once, many times over, must give
    // the bits of one call made alone.  (A block of rows computed alone need not equal that
    // block of a bigger product: every library, Eigen included, picks edge kernels by size,
    // so the engine cuts its work the same way for a given thread count.)
    void concurrent_calls_repeat_the_bits() {
        QFETCH(GemmBackend, backend);
        struct Shape {
            std::int64_t m, n, k;
            bool b_transposed;
        };
        const Shape shapes[] = {{45, 462, 154, true},
                                {130, 192, 64, true},
                                {130, 64, 200, false},
                                {33, 2304, 768, true},
                                {1, 49, 1000, false}};
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (const Shape& s : shapes) {
            std::vector<float> a(static_cast<std::size_t>(s.m * s.k)),
                b(static_cast<std::size_t>(s.k * s.n)), alone(static_cast<std::size_t>(s.m * s.n));
            for (float& v : a)
                v = dist(rng);
            for (float& v : b)
                v = dist(rng);
            const std::int64_t ldb = s.b_transposed ? s.k : s.n;
            kernels::sgemm(backend, s.b_transposed, s.m, s.n, s.k, a.data(), s.k, b.data(), ldb,
                           alone.data(), s.n, false);
            std::atomic<int> differing{0};
            std::vector<std::thread> threads;
            for (int t = 0; t < 4; ++t)
                threads.emplace_back([&] {
                    std::vector<float> got(alone.size());
                    for (int pass = 0; pass < 20; ++pass) {
                        kernels::sgemm(backend, s.b_transposed, s.m, s.n, s.k, a.data(), s.k,
                                       b.data(), ldb, got.data(), s.n, false);
                        if (got != alone) ++differing;
                    }
                });
            for (auto& t : threads)
                t.join();
            QVERIFY2(differing == 0, qPrintable(QString("%1x%2x%3: %4 of 80 concurrent calls "
                                                        "differ from one call alone")
                                                    .arg(s.m)
                                                    .arg(s.k)
                                                    .arg(s.n)
                                                    .arg(differing.load())));
        }
    }

    // kernels/gemm_bf16.h: the three bfloat16 parts add up to the float32 value exactly.
    void bf16_parts_add_up_to_the_value() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
        std::uniform_int_distribution<int> exponent(-100, 100);
        std::vector<float> a;
        for (int i = 0; i < 5000; ++i)
            a.push_back(std::ldexp(mantissa(rng), exponent(rng)));
        for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 1.0f + std::ldexp(1.0f, -23),
                        std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                        3.3895e38f, std::numeric_limits<float>::min()})
            a.push_back(v);
        const auto k = static_cast<std::int64_t>(a.size());
        const std::int64_t stride = k + 5;  // planes apart by more than a row
        std::vector<std::uint16_t> parts(static_cast<std::size_t>(3 * stride), 0xffff);
        kernels::split_bf16(a.data(), 1, k, k, parts.data(), stride);
        const auto value = [](std::uint16_t h) {
            const std::uint32_t u = std::uint32_t{h} << 16;
            float f;
            std::memcpy(&f, &u, sizeof f);
            return f;
        };
        for (std::int64_t j = 0; j < k; ++j) {
            const auto i = static_cast<std::size_t>(j);
            const double hi = value(parts[i]), mid = value(parts[i + std::size_t(stride)]),
                         lo = value(parts[i + 2 * std::size_t(stride)]);
            QVERIFY2(std::isfinite(hi) && hi + mid + lo == double(a[i]),
                     (std::to_string(a[i]) + " split into " + std::to_string(hi) + " + " +
                      std::to_string(mid) + " + " + std::to_string(lo))
                         .c_str());
            // each part holds what the one before could not: |mid| ≤ an ulp of hi (half an ulp
            // when hi is rounded, one when a value near FLT_MAX is truncated)
            QVERIFY(std::abs(mid) <= std::abs(hi) * std::ldexp(1.0, -7));
        }
        QCOMPARE(parts[std::size_t(k)], std::uint16_t{0xffff});  // nothing between the planes
    }

    void bf16_products_match_a_double_loop_data() {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<bool>("bias");
        QTest::newRow("one row") << 1 << 300 << 4096 << false;
        QTest::newRow("odd sizes") << 7 << 33 << 70 << true;
        QTest::newRow("128 tokens") << 128 << 256 << 896 << true;
        QTest::newRow("most rows") << int(kernels::kBf16MaxRows) << 64 << 256 << false;
    }
    void bf16_products_match_a_double_loop() {
        if (!kernels::bf16_products())
            QSKIP(
                "this CPU has no AMX tiles for bfloat16 (or ATTNVIZ_BF16_PRODUCTS=0): models "
                "convert BF16 weights to float32 instead");
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(bool, bias);
        const std::int64_t ldb = k + 3, ldc = n + 2;  // B and C rows with padding
        std::mt19937 rng(11);
        std::normal_distribution<float> normal;
        std::vector<float> a(std::size_t(m) * std::size_t(k));
        for (float& v : a)
            v = normal(rng) * 3.0f;
        std::vector<std::uint16_t> b(std::size_t(n) * std::size_t(ldb));
        std::vector<float> bv(b.size());  // B's values as float32
        for (std::size_t i = 0; i < b.size(); ++i) {
            const float v = normal(rng) * 0.05f;
            std::uint32_t u;
            std::memcpy(&u, &v, sizeof u);
            b[i] = static_cast<std::uint16_t>(u >> 16);
            u = std::uint32_t{b[i]} << 16;
            std::memcpy(&bv[i], &u, sizeof u);
        }
        std::vector<float> bias_values(static_cast<std::size_t>(n));
        for (float& v : bias_values)
            v = normal(rng);
        std::vector<std::uint16_t> parts(std::size_t(3 * m * k));
        kernels::split_bf16(a.data(), m, k, k, parts.data(), std::int64_t(m) * k);
        std::vector<float> scratch(kernels::gemm_bf16_scratch(m, n));
        std::vector<float> c(std::size_t(m) * std::size_t(ldc), -7.0f), again = c;
        kernels::gemm_bf16(parts.data(), std::int64_t(m) * k, m, k, b.data(), n, ldb,
                           bias ? bias_values.data() : nullptr, c.data(), ldc, scratch.data());
        kernels::gemm_bf16(parts.data(), std::int64_t(m) * k, m, k, b.data(), n, ldb,
                           bias ? bias_values.data() : nullptr, again.data(), ldc, scratch.data());
        QVERIFY(c == again);  // the same bits, call after call
        // sgemm on the same values, for its error beside ours
        std::vector<float> s(std::size_t(m) * std::size_t(ldc));
        kernels::sgemm(kernels::gemm_backend(), true, m, n, k, a.data(), k, bv.data(), ldb,
                       s.data(), ldc, false);
        double worst = 0, worst_sgemm = 0;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double ref = bias ? bias_values[std::size_t(j)] : 0.0, scale = std::abs(ref);
                for (int t = 0; t < k; ++t) {
                    const double p =
                        double(a[std::size_t(i) * k + t]) * bv[std::size_t(j) * ldb + t];
                    ref += p;
                    scale += std::abs(p);
                }
                const std::size_t at = std::size_t(i) * std::size_t(ldc) + std::size_t(j);
                worst = std::max(worst, std::abs(c[at] - ref) / scale);
                worst_sgemm = std::max(
                    worst_sgemm,
                    std::abs(s[at] + (bias ? bias_values[std::size_t(j)] : 0.0f) - ref) / scale);
            }
        // Exact products summed in float32: sgemm's accuracy (a few ulp of Σ|a·b|).
        qInfo("max error / sum|ab|: bf16 parts %.2e, sgemm %.2e", worst, worst_sgemm);
        // Measured up to 7e-8 here, sgemm up to 2.2e-7 on the same operands.
        QVERIFY2(worst < 4e-7, std::to_string(worst).c_str());
        for (int i = 0; i < m; ++i)  // the padding of C is left alone
            for (std::int64_t j = n; j < ldc; ++j)
                QCOMPARE(c[std::size_t(i) * std::size_t(ldc) + std::size_t(j)], -7.0f);
    }

    void chosen_backend_is_listed_first() {
        const auto all = kernels::gemm_backends();
        QVERIFY(!all.empty());
        QCOMPARE(all.front(), kernels::gemm_backend());
        for (GemmBackend b : all) {
            QCOMPARE(kernels::gemm_backend_from_name(kernels::gemm_backend_name(b)), b);
            QVERIFY(!kernels::gemm_backend_description(b).empty());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::gemm_backend_from_name("mkl"));
    }

    void bad_shapes_throw_with_sizes() {
        std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 0.0f);
        const auto message = [&](auto&& call) -> std::string {
            try {
                call();
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "(no exception)";
        };
        const std::string stride =
            message([&] { attnviz::ops::gemm(a.data(), 2, 5, b.data(), 3, c.data(), false, 4); });
        QVERIFY2(stride.find("stride 4") != std::string::npos &&
                     stride.find("[2,5] x [5,3]") != std::string::npos,
                 stride.c_str());
        const std::string negative =
            message([&] { attnviz::ops::gemm(a.data(), -1, 5, b.data(), 3, c.data()); });
        QVERIFY2(negative.find("[-1,5]") != std::string::npos, negative.c_str());
        const std::string ldc = message(
            [&] { attnviz::ops::gemm(a.data(), 2, 2, b.data(), 6, c.data(), true, 2, 2, 5); });
        QVERIFY2(ldc.find("C row stride 5") != std::string::npos, ldc.c_str());
        const std::string null =
            message([&] { attnviz::ops::gemm(nullptr, 2, 2, b.data(), 2, c.data()); });
        QVERIFY2(null.find("null") != std::string::npos, null.c_str());
        // Empty products need no buffers.
        attnviz::ops::gemm(nullptr, 0, 3, nullptr, 4, nullptr);
        attnviz::ops::gemm(nullptr, 2, 0, nullptr, 2, c.data());
        QCOMPARE(c[0], 0.0f);
    }
};

QTEST_APPLESS_MAIN(GemmTest)
#include "test_gemm.moc"
