// The multi-row products (engine/kernels/row_products.h, row_products_rows) of F32, F16 and BF16
// weights read as stored: the scalar reference and the dispatched SIMD kernel against float64
// sums of the weights converted exactly, on k with every tail (1, 15, 17, 896, 4101: past two
// chunks of 1024 and a partial block), activation and weight row counts that leave every
// partial tile (1 to 13), strides wider than the rows, a permutation of the stored rows,
// storing and accumulating.  Then the header's determinism: a row's result has the same bits
// whatever else is multiplied with it and however the weight rows are split; and the tiles that
// widen the weights in registers and those that widen them into L1 give the same bits.
// CTest runs this suite twice: as the CPU allows, and with ATTNVIZ_ROW_PRODUCTS=avx2 and
// ATTNVIZ_ROW_TILES=registers.
#include <QTest>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/safetensors.h"
#include "engine/kernels/cpu_features.h"
#include "engine/kernels/row_products.h"
#include "engine/kernels/row_products_variants.h"

namespace kernels = attnviz::kernels;
using kernels::RowFormat;

namespace {

constexpr RowFormat kFormats[] = {RowFormat::F32, RowFormat::F16, RowFormat::BF16};

/// Tolerance relative to Σ|w·x| + |y0| (which bounds every rounded partial sum): about 8
/// float32 epsilons.  Measured worst cases (printed by the slots): the reference against
/// float64 ~2e-7, the kernels against the reference ~2e-7.
constexpr double kTolerance = 1e-6;

const char* dtype(RowFormat f) {
    return f == RowFormat::F32 ? "F32" : f == RowFormat::F16 ? "F16" : "BF16";
}

std::size_t value_bytes(RowFormat f) {
    return f == RowFormat::F32 ? 4 : 2;
}

/// n stored rows of k values of f, row_bytes apart, random and finite; the last row ends where
/// the allocation does, so that a read past it leaves the allocation (AddressSanitizer).
struct Weights {
    RowFormat format;
    std::int64_t k, n;
    std::size_t row_bytes;
    std::vector<std::byte> bytes;
    std::vector<float> values;  ///< row-major [n, k], converted exactly

    Weights(RowFormat f, std::int64_t k_, std::int64_t n_, std::size_t pad, std::mt19937& rng)
        : format(f), k(k_), n(n_), row_bytes(static_cast<std::size_t>(k_) * value_bytes(f) + pad) {
        const std::size_t row = static_cast<std::size_t>(k) * value_bytes(f);
        bytes.resize(n > 0 ? static_cast<std::size_t>(n - 1) * row_bytes + row : 0);
        values.resize(static_cast<std::size_t>(n * k));
        std::normal_distribution<float> normal;
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t c = 0; c < k; ++c) {
                std::byte* p = bytes.data() + static_cast<std::size_t>(j) * row_bytes +
                               static_cast<std::size_t>(c) * value_bytes(f);
                if (f == RowFormat::F32) {
                    const float v = normal(rng);
                    std::memcpy(p, &v, 4);
                } else {
                    // F16: exponents 2^-15 (subnormal) to 2^3; BF16: 2^-17 to 2^3.
                    const int e = f == RowFormat::F16
                                      ? std::uniform_int_distribution<int>(0, 18)(rng)
                                      : std::uniform_int_distribution<int>(110, 130)(rng);
                    const auto mantissa = static_cast<unsigned>(rng());
                    const auto h = static_cast<std::uint16_t>(
                        (rng() & 0x8000) | (f == RowFormat::F16 ? (e << 10 | (mantissa & 0x3FF))
                                                                : (e << 7 | (mantissa & 0x7F))));
                    std::memcpy(p, &h, 2);
                }
                attnviz::io::convert_to_float(
                    dtype(f), p, values.data() + static_cast<std::size_t>(j * k + c), 1);
            }
    }
    const std::byte* base() const { return bytes.data(); }
};

/// m activation rows of k values, ldx apart, of scales 10^-2 to 10^1 from row to row; the last
/// row ends where the allocation does.
std::vector<float> activations(std::int64_t m, std::int64_t k, std::int64_t ldx,
                               std::mt19937& rng) {
    std::vector<float> x(m > 0 ? static_cast<std::size_t>((m - 1) * ldx + k) : 0,
                         std::nanf(""));  // the gaps between rows are never read
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> exponent(-2.0f, 1.0f);
    for (std::int64_t i = 0; i < m; ++i) {
        const float scale = std::pow(10.0f, exponent(rng));
        for (std::int64_t c = 0; c < k; ++c)
            x[static_cast<std::size_t>(i * ldx + c)] = normal(rng) * scale;
    }
    return x;
}

struct Case {
    RowFormat format;
    std::int64_t k, m, n;
    std::int64_t ldx_pad, ldy_pad;  ///< ldx = k + ldx_pad, ldy = n + ldy_pad
    bool ordered, accumulate;
    std::size_t pad;  ///< bytes between stored rows

    std::string name() const {
        return std::string(kernels::row_format_name(format)) + " k=" + std::to_string(k) +
               " m=" + std::to_string(m) + " n=" + std::to_string(n) + " ldx=k+" +
               std::to_string(ldx_pad) + " ldy=n+" + std::to_string(ldy_pad) +
               (ordered ? " ordered" : "") + (accumulate ? " accumulate" : "") +
               " pad=" + std::to_string(pad);
    }
};

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    int variant = 0;
    for (const RowFormat f : kFormats)
        for (const std::int64_t k : {1, 15, 17, 896, 4096 + 5})
            for (const std::int64_t m : {1, 2, 3, 4, 5, 7, 13})
                for (const std::int64_t n : {1, 3, 4, 8, 9, 13}) {
                    // Every case costs m·n·k: the widest k takes fewer combinations.
                    if (k > 1000 && (m + n) % 3 != 0) continue;
                    ++variant;
                    cases.push_back({f, k, m, n, variant % 3 == 0 ? 0 : variant % 7,
                                     variant % 4 == 0 ? 0 : variant % 5, variant % 5 == 1,
                                     variant % 2 == 1, static_cast<std::size_t>(variant % 3 * 6)});
                }
    return cases;
}

/// A case's weights (n + 2 stored rows, so that `order` picks among them), activation, the
/// initial y (NaN in the gaps between rows, which must stay untouched), and float64 truths.
struct Product {
    Case c;
    std::mt19937 rng;
    Weights w;
    std::int64_t ldx, ldy;
    std::vector<std::int64_t> order;
    std::vector<float> x, y0;
    std::vector<double> exact, magnitude;  ///< [m, n]: Σ w·x (+ y0); Σ|w·x| + |y0|

    explicit Product(const Case& cs, unsigned seed)
        : c(cs),
          rng(seed),
          w(c.format, c.k, c.n + 2, c.pad, rng),
          ldx(c.k + c.ldx_pad),
          ldy(c.n + c.ldy_pad) {
        for (std::int64_t j = 0; j < c.n; ++j)
            order.push_back(c.ordered ? (j * 5 + 3) % (c.n + 2) : j);
        x = activations(c.m, c.k, ldx, rng);
        std::normal_distribution<float> normal;
        y0.assign(static_cast<std::size_t>((c.m - 1) * ldy + c.n), std::nanf(""));
        for (std::int64_t i = 0; i < c.m; ++i)
            for (std::int64_t j = 0; j < c.n; ++j)
                y0[static_cast<std::size_t>(i * ldy + j)] = c.accumulate ? normal(rng) : -1.0f;
        for (std::int64_t i = 0; i < c.m; ++i)
            for (std::int64_t j = 0; j < c.n; ++j) {
                const float* wr = w.values.data() + order[static_cast<std::size_t>(j)] * c.k;
                const double start = c.accumulate ? y0[static_cast<std::size_t>(i * ldy + j)] : 0;
                double e = start, mag = std::fabs(start);
                for (std::int64_t v = 0; v < c.k; ++v) {
                    const double p =
                        double(wr[v]) * double(x[static_cast<std::size_t>(i * ldx + v)]);
                    e += p;
                    mag += std::fabs(p);
                }
                exact.push_back(e);
                magnitude.push_back(mag);
            }
    }

    std::vector<float> run(bool reference) const {
        std::vector<float> y = y0;
        (reference ? kernels::row_products_rows_reference : kernels::row_products_rows)(
            c.format, w.base(), w.row_bytes, c.ordered ? order.data() : nullptr, c.n, x.data(), c.m,
            ldx, c.k, y.data(), ldy, c.accumulate);
        return y;
    }

    /// y as one kernel of a unit's table computes it.
    std::vector<float> run(kernels::detail::RowsProductFn fn) const {
        std::vector<float> y = y0;
        fn(w.base(), w.row_bytes, c.ordered ? order.data() : nullptr, c.n, x.data(), c.m, ldx, c.k,
           y.data(), ldy, c.accumulate);
        return y;
    }

    /// The first y[i][j] farther than the tolerance from want (or a gap written), named with
    /// both values; empty if none.  worst: the largest |got − want| / magnitude.
    QString first_miss(const std::vector<float>& y, const std::vector<double>& want,
                       double& worst) const {
        for (std::int64_t i = 0; i < c.m; ++i)
            for (std::int64_t j = 0; j < ldy && i * ldy + j < std::int64_t(y.size()); ++j) {
                const float got = y[static_cast<std::size_t>(i * ldy + j)];
                if (j >= c.n) {
                    if (!std::isnan(got))
                        return QString::fromStdString(c.name()) +
                               QStringLiteral(": wrote y[%1][%2] past the row's n").arg(i).arg(j);
                    continue;
                }
                const auto at = static_cast<std::size_t>(i * c.n + j);
                const double diff = std::fabs(double(got) - want[at]);
                worst = std::max(worst, diff / magnitude[at]);
                if (!(diff <= kTolerance * magnitude[at]))
                    return QString::fromStdString(c.name()) +
                           QStringLiteral(": y[%1][%2] = %3, expected %4 (|diff| %5 > %6)")
                               .arg(i)
                               .arg(j)
                               .arg(double(got), 0, 'g', 9)
                               .arg(want[at], 0, 'g', 9)
                               .arg(diff, 0, 'g', 3)
                               .arg(kTolerance * magnitude[at], 0, 'g', 3);
            }
        return {};
    }
};

std::string expected_isa() {
    std::string isa = kernels::row_products_cpu_level();
    const char* env = std::getenv("ATTNVIZ_ROW_PRODUCTS");
    const std::string forced = env ? env : "";
    if (forced == "scalar") isa = "scalar";
    if (forced == "avx2" && isa == "avx512") isa = "avx2";
    return isa;
}

/// y = row_products_rows of activation rows [i0, i0 + m) by weight rows [j0, j0 + n) of a
/// [rows, k] activation and a weight, into a fresh [m, ldy] y (accumulating onto y0's values
/// there when y0 is given).
std::vector<float> part(const Weights& w, const std::vector<float>& x, std::int64_t ldx,
                        std::int64_t i0, std::int64_t m, std::int64_t j0, std::int64_t n,
                        std::int64_t ldy, const std::vector<float>* y0, std::int64_t y0_ld) {
    std::vector<float> y(static_cast<std::size_t>(m * ldy), 0.0f);
    if (y0)
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                y[static_cast<std::size_t>(i * ldy + j)] =
                    (*y0)[static_cast<std::size_t>((i0 + i) * y0_ld + j0 + j)];
    kernels::row_products_rows(w.format, w.base() + static_cast<std::size_t>(j0) * w.row_bytes,
                               w.row_bytes, nullptr, n, x.data() + i0 * ldx, m, ldx, w.k, y.data(),
                               ldy, y0 != nullptr);
    return y;
}

}  // namespace

class TestRowProductsRows : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        cases_ = all_cases();
        qInfo("row_products_rows runs on %s, %zu cases",
              kernels::row_products_rows_isa(RowFormat::BF16), cases_.size());
    }

    /// The reference is the float64 product of the weights converted exactly, up to float32
    /// sums; it writes y[i][j] for j < n only.
    void referenceMatchesFloat64() {
        double worst = 0;
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Product p(cases_[i], static_cast<unsigned>(i));
            const QString miss = p.first_miss(p.run(true), p.exact, worst);
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
        }
        qInfo("worst |reference - float64| / magnitude: %.3g", worst);
    }

    /// The kernel row_products_rows picks: within the tolerance of the float64 product and of
    /// the reference (another order of the float32 sums).
    void dispatchedMatchesReferenceAndFloat64() {
        double worst_exact = 0, worst_reference = 0;
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Product p(cases_[i], static_cast<unsigned>(i));
            const std::vector<float> got = p.run(false), ref = p.run(true);
            QString miss = p.first_miss(got, p.exact, worst_exact);
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
            std::vector<double> want;
            for (std::int64_t r = 0; r < p.c.m; ++r)
                for (std::int64_t j = 0; j < p.c.n; ++j)
                    want.push_back(ref[static_cast<std::size_t>(r * p.ldy + j)]);
            miss = p.first_miss(got, want, worst_reference);
            QVERIFY2(miss.isEmpty(), qPrintable(miss));
        }
        qInfo("worst |%s - float64| / magnitude: %.3g, |%s - reference| / magnitude: %.3g",
              kernels::row_products_rows_isa(RowFormat::BF16), worst_exact,
              kernels::row_products_rows_isa(RowFormat::BF16), worst_reference);
    }

    /// y[i][j] depends on x row i, weight row j and k only: the same bits when row i is
    /// multiplied alone or among others, at another place in its tile, by a slice of the weight
    /// rows (as threads split them), with other strides; accumulating too.
    void aRowsResultDoesNotDependOnTheOthers_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<qint64>("k");
        for (const RowFormat f : kFormats)
            for (const std::int64_t k : {1, 17, 896, 2048 + 33})
                QTest::newRow(
                    (std::string(kernels::row_format_name(f)) + " k=" + std::to_string(k)).c_str())
                    << static_cast<int>(f) << qint64(k);
    }
    void aRowsResultDoesNotDependOnTheOthers() {
        QFETCH(int, format);
        QFETCH(qint64, k);
        constexpr std::int64_t M = 13, N = 19;
        std::mt19937 rng(static_cast<unsigned>(format * 1000 + k));
        const Weights w(static_cast<RowFormat>(format), k, N, 0, rng);
        const std::int64_t ldx = k + 3;
        const std::vector<float> x = activations(M, k, ldx, rng);
        std::vector<float> y0(static_cast<std::size_t>(M * N));
        std::normal_distribution<float> normal;
        for (float& v : y0)
            v = normal(rng);
        for (const bool accumulate : {false, true}) {
            const std::vector<float>* start = accumulate ? &y0 : nullptr;
            const std::vector<float> all = part(w, x, ldx, 0, M, 0, N, N, start, N);
            // Activation rows [i0, i0 + m) by weight rows [j0, j0 + n), with a wider y.
            const std::int64_t slices[][4] = {{0, 1, 0, 1},   {5, 1, 0, N},  {0, M, 7, 1},
                                              {1, 12, 3, 5},  {2, 7, 11, 8}, {4, 9, 0, 10},
                                              {12, 1, 18, 1}, {0, 4, 9, 10}};
            for (const auto& s : slices) {
                const std::int64_t i0 = s[0], m = s[1], j0 = s[2], n = s[3], ldy = n + 5;
                const std::vector<float> y = part(w, x, ldx, i0, m, j0, n, ldy, start, N);
                for (std::int64_t i = 0; i < m; ++i)
                    for (std::int64_t j = 0; j < n; ++j) {
                        const float got = y[static_cast<std::size_t>(i * ldy + j)];
                        const float want = all[static_cast<std::size_t>((i0 + i) * N + j0 + j)];
                        QVERIFY2(std::memcmp(&got, &want, sizeof got) == 0,
                                 qPrintable(QStringLiteral("rows %1+%2 by %3+%4%5: y[%6][%7] = %8, "
                                                           "alone %9")
                                                .arg(i0)
                                                .arg(m)
                                                .arg(j0)
                                                .arg(n)
                                                .arg(accumulate ? " accumulating" : "")
                                                .arg(i0 + i)
                                                .arg(j0 + j)
                                                .arg(double(want), 0, 'g', 9)
                                                .arg(double(got), 0, 'g', 9)));
                    }
            }
        }
    }

    /// Each SIMD unit's tiles give the same bits whether they widen F16 and BF16 weights in
    /// registers or once into L1 (the dispatcher picks by the CPU's maker), on every case:
    /// partial tiles, chunks and blocks, orders, strides and accumulation.
    void bothTilesGiveTheSameBits() {
        using kernels::detail::RowsTiles;
        using Fill = void (*)(kernels::detail::RowsProductTable&, RowsTiles);
        std::vector<std::pair<const char*, Fill>> units;
        const std::string level = kernels::row_products_cpu_level();
        if (level == "avx2" || level == "avx512")
            units.emplace_back("avx2", kernels::detail::fill_row_products_rows_avx2);
        if (level == "avx512")
            units.emplace_back("avx512", kernels::detail::fill_row_products_rows_avx512);
        if (units.empty()) QSKIP("this CPU runs no SIMD tiles");
        for (const auto& [name, fill] : units) {
            kernels::detail::RowsProductTable registers{}, widened{};
            fill(registers, RowsTiles::Registers);
            fill(widened, RowsTiles::Widened);
            for (std::size_t i = 0; i < cases_.size(); ++i) {
                const Product p(cases_[i], static_cast<unsigned>(i));
                const auto f = static_cast<int>(p.c.format);
                const std::vector<float> a = p.run(registers[f]), b = p.run(widened[f]);
                QVERIFY2(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0,
                         qPrintable(QStringLiteral("%1 %2: the widened tiles' bits differ")
                                        .arg(name)
                                        .arg(QString::fromStdString(p.c.name()))));
            }
        }
    }

    /// The GGUF block types have no multi-row kernel; overlapping rows are refused, and the
    /// messages carry the sizes.
    void refusesBlockFormatsAndOverlappingRows() {
        const std::vector<std::byte> w(34 * 4);
        const std::vector<float> x(64);
        std::vector<float> y(4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 kernels::row_products_rows(RowFormat::Q8_0, w.data(), 34, nullptr,
                                                            2, x.data(), 2, 32, 32, y.data(), 2));
        try {
            kernels::row_products_rows(RowFormat::BF16, w.data(), 64, nullptr, 2, x.data(), 2, 16,
                                       32, y.data(), 2);
            QFAIL("ldx < k was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("k 32, ldx 16") != std::string::npos, e.what());
        }
    }

    /// k = 0 stores zeros (or leaves y as it is when accumulating), as a float32 product does.
    void emptyProducts() {
        std::vector<float> y = {5.0f, 6.0f, 7.0f, 8.0f};
        const float x = 1.0f;
        kernels::row_products_rows(RowFormat::F32, nullptr, 0, nullptr, 2, &x, 2, 0, 0, y.data(), 2,
                                   true);
        QCOMPARE(y, (std::vector<float>{5.0f, 6.0f, 7.0f, 8.0f}));
        kernels::row_products_rows(RowFormat::F32, nullptr, 0, nullptr, 2, &x, 2, 0, 0, y.data(),
                                   2);
        QCOMPARE(y, (std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f}));
        kernels::row_products_rows(RowFormat::BF16, nullptr, 0, nullptr, 0, &x, 2, 0, 0, y.data(),
                                   2);  // n = 0: nothing read or written
    }

    /// The widest kernel the CPU runs, narrowed by ATTNVIZ_ROW_PRODUCTS, for every format, and
    /// its tiles.
    void dispatchPicksWidestAllowedIsa() {
        const std::string expected = expected_isa();
        for (const RowFormat f : kFormats)
            QCOMPARE(std::string(kernels::row_products_rows_isa(f)), expected);
        // The tiles: as ATTNVIZ_ROW_TILES says, else widened on Intel's cores.
        const char* env = std::getenv("ATTNVIZ_ROW_TILES");
        const std::string forced = env ? env : "";
        const std::string tiles = forced == "registers" || forced == "widened" ? forced
                                  : kernels::cpu_is_intel()                    ? "widened"
                                                                               : "registers";
        QCOMPARE(std::string(kernels::row_products_rows_tiles()), tiles);
    }

  private:
    std::vector<Case> cases_;
};

QTEST_APPLESS_MAIN(TestRowProductsRows)
#include "test_row_products_rows.moc"
