// The attention products (engine/kernels/attention.h): every variant this machine can run
// against a plain double-precision loop, over head dimensions of the models (32, 64, 128) and
// awkward ones (1, 3, 17, 100), key counts that are no multiple of any panel, one row and row
// counts that leave partial tiles, strided rows; the padding beside every output row is never
// written, a row's result does not depend on the block it is computed in, and the row copies
// (plain and non-temporal, at every alignment) and sums are exact.
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/kernels/attention.h"
#include "engine/kernels/softmax.h"
#include "test_support.h"

using attnviz::kernels::Isa;
namespace kernels = attnviz::kernels;

Q_DECLARE_METATYPE(attnviz::kernels::Isa)

namespace {

constexpr float kSentinel = -12345.0f;

struct Case {
    std::int64_t rows, keys, d, pad;  // pad: extra floats at the end of every input/output row
};

std::vector<float> random_floats(std::size_t n, std::mt19937& rng, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(rng);
    return v;
}

/// The worst-case rounding of a float sum of k products, relative to sum |a b|: gamma_k.
double tolerance(std::int64_t k) {
    return static_cast<double>(k + 2) * std::ldexp(1.0, -24);
}

/// The first out(i, j) of a rows x cols product off sum_t a(i, t) b(t, j) (in double) by more
/// than gamma_k of sum_t |a b|, described; empty when there is none.
template <class A, class B, class Out>
QString first_mismatch(const char* what, Isa isa, const Case& c, std::int64_t rows,
                       std::int64_t cols, std::int64_t k, A a, B b, Out out) {
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
            double ref = 0, mag = 0;
            for (std::int64_t t = 0; t < k; ++t) {
                const double x = double(a(i, t)) * double(b(t, j));
                ref += x;
                mag += std::abs(x);
            }
            const double got = out(i, j);
            if (std::abs(got - ref) > tolerance(k) * mag + 1e-30)
                return QStringLiteral("%1 rows %2 keys %3 d %4: %5[%6, %7] = %8, double %9")
                    .arg(kernels::isa_name(isa))
                    .arg(c.rows)
                    .arg(c.keys)
                    .arg(c.d)
                    .arg(what)
                    .arg(i)
                    .arg(j)
                    .arg(got, 0, 'g', 9)
                    .arg(ref, 0, 'g', 9);
        }
    return {};
}

const Case kCases[] = {
    {1, 1, 1, 0},     {1, 5, 3, 2},      {7, 33, 17, 1},   {13, 100, 64, 0},
    {24, 128, 32, 3}, {25, 257, 64, 5},  {11, 70, 100, 0}, {48, 300, 128, 7},
    {3, 2048, 64, 0}, {50, 64, 64, 192}, {2, 0, 64, 0},
};

}  // namespace

class AttentionKernelsTest : public QObject {
    Q_OBJECT

    static void add_isa_rows() {
        QTest::addColumn<Isa>("isa");
        for (Isa isa : kernels::available_isas())
            QTest::newRow(kernels::isa_name(isa)) << isa;
    }

  private slots:
    void scores_match_a_double_loop_data() { add_isa_rows(); }
    void scores_match_a_double_loop() {
        QFETCH(Isa, isa);
        std::mt19937 rng(5);
        for (const Case& c : kCases) {
            const std::int64_t ld = c.d + c.pad, lds = c.keys + c.pad;
            const auto q = random_floats(static_cast<std::size_t>(c.rows * ld), rng, -2, 2);
            const auto k = random_floats(static_cast<std::size_t>(c.keys * ld), rng, -2, 2);
            std::vector<float> packed(kernels::packed_keys_floats(isa, c.keys, c.d));
            kernels::pack_keys(isa, k.data(), ld, c.keys, c.d, packed.data());
            std::vector<float> s(static_cast<std::size_t>(c.rows * lds), kSentinel);
            kernels::attention_scores(isa, q.data(), ld, c.rows, c.d, packed.data(), c.keys,
                                      s.data(), lds);
            const auto q_at = [&](std::int64_t i, std::int64_t t) {
                return q[std::size_t(i * ld + t)];
            };
            const auto kt_at = [&](std::int64_t t, std::int64_t j) {
                return k[std::size_t(j * ld + t)];
            };
            const auto s_at = [&](std::int64_t i, std::int64_t j) {
                return s[std::size_t(i * lds + j)];
            };
            const QString error =
                first_mismatch("s", isa, c, c.rows, c.keys, c.d, q_at, kt_at, s_at);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            for (std::int64_t i = 0; i < c.rows; ++i) {
                for (std::int64_t j = c.keys; j < lds; ++j)
                    QCOMPARE(s[std::size_t(i * lds + j)], kSentinel);
            }
        }
    }

    void context_matches_a_double_loop_data() { add_isa_rows(); }
    void context_matches_a_double_loop() {
        QFETCH(Isa, isa);
        std::mt19937 rng(6);
        for (const Case& c : kCases) {
            const std::int64_t ld = c.d + c.pad, ldp = c.keys + c.pad;
            const auto p = random_floats(static_cast<std::size_t>(c.rows * ldp), rng, 0, 1);
            const auto v = random_floats(static_cast<std::size_t>(c.keys * ld), rng, -2, 2);
            std::vector<float> packed(kernels::packed_values_floats(isa, c.keys, c.d));
            kernels::pack_values(isa, v.data(), ld, c.keys, c.d, packed.data());
            std::vector<float> out(static_cast<std::size_t>(c.rows * ld), kSentinel);
            kernels::attention_context(isa, p.data(), ldp, c.rows, c.keys, packed.data(), c.d,
                                       out.data(), ld);
            const auto p_at = [&](std::int64_t i, std::int64_t j) {
                return p[std::size_t(i * ldp + j)];
            };
            const auto v_at = [&](std::int64_t j, std::int64_t t) {
                return v[std::size_t(j * ld + t)];
            };
            const auto o_at = [&](std::int64_t i, std::int64_t t) {
                return out[std::size_t(i * ld + t)];
            };
            const QString error =
                first_mismatch("out", isa, c, c.rows, c.d, c.keys, p_at, v_at, o_at);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            for (std::int64_t i = 0; i < c.rows; ++i) {
                for (std::int64_t t = c.d; t < ld; ++t)
                    QCOMPARE(out[std::size_t(i * ld + t)], kSentinel);
            }
        }
    }

    /// attend() splits rows into blocks by thread count and cache size: a row's bits must not
    /// depend on that.
    void a_row_does_not_depend_on_its_block_data() { add_isa_rows(); }
    void a_row_does_not_depend_on_its_block() {
        QFETCH(Isa, isa);
        std::mt19937 rng(7);
        const std::int64_t rows = 29, keys = 203, d = 64;
        const auto q = random_floats(static_cast<std::size_t>(rows * d), rng, -2, 2);
        const auto kv = random_floats(static_cast<std::size_t>(keys * d), rng, -2, 2);
        std::vector<float> pk(kernels::packed_keys_floats(isa, keys, d));
        std::vector<float> pv(kernels::packed_values_floats(isa, keys, d));
        kernels::pack_keys(isa, kv.data(), d, keys, d, pk.data());
        kernels::pack_values(isa, kv.data(), d, keys, d, pv.data());
        std::vector<float> whole(static_cast<std::size_t>(rows * keys));
        std::vector<float> ctx_whole(static_cast<std::size_t>(rows * d));
        kernels::attention_scores(isa, q.data(), d, rows, d, pk.data(), keys, whole.data(), keys);
        kernels::attention_context(isa, whole.data(), keys, rows, keys, pv.data(), d,
                                   ctx_whole.data(), d);
        for (std::int64_t i = 0; i < rows; ++i) {
            std::vector<float> one(static_cast<std::size_t>(keys)),
                ctx(static_cast<std::size_t>(d));
            kernels::attention_scores(isa, q.data() + i * d, d, 1, d, pk.data(), keys, one.data(),
                                      keys);
            kernels::attention_context(isa, one.data(), keys, 1, keys, pv.data(), d, ctx.data(), d);
            for (std::int64_t j = 0; j < keys; ++j)
                QCOMPARE(one[std::size_t(j)], whole[std::size_t(i * keys + j)]);
            for (std::int64_t t = 0; t < d; ++t)
                QCOMPARE(ctx[std::size_t(t)], ctx_whole[std::size_t(i * d + t)]);
        }
    }

    void nan_and_inf_propagate_data() { add_isa_rows(); }
    void nan_and_inf_propagate() {
        QFETCH(Isa, isa);
        const std::int64_t keys = 40, d = 8;
        std::vector<float> k(static_cast<std::size_t>(keys * d), 1.0f);
        k[std::size_t(5 * d + 2)] = std::numeric_limits<float>::quiet_NaN();
        std::vector<float> q(static_cast<std::size_t>(d), 0.5f);
        std::vector<float> pk(kernels::packed_keys_floats(isa, keys, d));
        kernels::pack_keys(isa, k.data(), d, keys, d, pk.data());
        std::vector<float> s(static_cast<std::size_t>(keys));
        kernels::attention_scores(isa, q.data(), d, 1, d, pk.data(), keys, s.data(), keys);
        for (std::int64_t j = 0; j < keys; ++j)
            QCOMPARE(std::isnan(s[std::size_t(j)]), j == 5);
        // A zero weight on an infinite value gives NaN, as in IEEE arithmetic (and BLAS).
        std::vector<float> v(static_cast<std::size_t>(keys * d), 1.0f);
        v[std::size_t(3 * d)] = std::numeric_limits<float>::infinity();
        std::vector<float> pv(kernels::packed_values_floats(isa, keys, d));
        kernels::pack_values(isa, v.data(), d, keys, d, pv.data());
        std::vector<float> p(static_cast<std::size_t>(keys), 0.0f),
            out(static_cast<std::size_t>(d));
        kernels::attention_context(isa, p.data(), keys, 1, keys, pv.data(), d, out.data(), d);
        QVERIFY(std::isnan(out[0]));
        QCOMPARE(out[1], 0.0f);
    }

    void row_copies_and_sums_are_exact_data() { add_isa_rows(); }
    void row_copies_and_sums_are_exact() {
        QFETCH(Isa, isa);
        std::mt19937 rng(8);
        const std::int64_t rows = 5, cols = 77, lds = 90;
        const auto src = random_floats(static_cast<std::size_t>(rows * lds), rng, -3, 3);
        for (const bool non_temporal : {false, true})
            for (std::int64_t offset = 0; offset < 17; ++offset) {  // every alignment of dst
                const std::int64_t ldd = cols + 3;
                std::vector<float> dst(static_cast<std::size_t>(offset + rows * ldd), kSentinel);
                kernels::store_rows(isa, src.data(), lds, rows, cols, 0.25f, dst.data() + offset,
                                    ldd, non_temporal);
                for (std::int64_t i = 0; i < offset; ++i)
                    QCOMPARE(dst[std::size_t(i)], kSentinel);
                for (std::int64_t r = 0; r < rows; ++r) {
                    for (std::int64_t c = 0; c < cols; ++c)
                        QCOMPARE(dst[std::size_t(offset + r * ldd + c)],
                                 src[std::size_t(r * lds + c)] * 0.25f);
                    for (std::int64_t c = cols; c < ldd; ++c)
                        QCOMPARE(dst[std::size_t(offset + r * ldd + c)], kSentinel);
                }
            }
        for (std::int64_t offset = 0; offset < 17; ++offset) {
            const std::int64_t ldd = cols + 3;
            std::vector<float> dst(static_cast<std::size_t>(offset + rows * ldd), kSentinel);
            std::vector<float> total(static_cast<std::size_t>(rows * cols), 1.0f);
            kernels::stream_and_add_rows(isa, src.data(), lds, rows, cols, dst.data() + offset, ldd,
                                         total.data(), cols, offset % 2 == 1);
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t c = 0; c < cols; ++c) {
                    const float x = src[std::size_t(r * lds + c)];
                    QCOMPARE(dst[std::size_t(offset + r * ldd + c)], x);
                    QCOMPARE(total[std::size_t(r * cols + c)], offset % 2 == 1 ? 1.0f + x : x);
                }
            for (std::int64_t i = 0; i < offset; ++i)
                QCOMPARE(dst[std::size_t(i)], kSentinel);
        }
        std::vector<float> sum(static_cast<std::size_t>(rows * cols), kSentinel);
        kernels::add_rows(isa, src.data(), lds, rows, cols, sum.data(), cols, false);
        kernels::add_rows(isa, src.data() + 1, lds, rows, cols, sum.data(), cols, true);
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
                QCOMPARE(sum[std::size_t(r * cols + c)],
                         src[std::size_t(r * lds + c)] + src[std::size_t(r * lds + c + 1)]);
    }

    void an_unavailable_variant_is_refused() {
        const auto isas = kernels::available_isas();
        for (Isa isa : {Isa::Scalar, Isa::SSE2, Isa::AVX2, Isa::AVX512, Isa::NEON}) {
            if (std::find(isas.begin(), isas.end(), isa) != isas.end()) continue;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernels::packed_keys_floats(isa, 4, 4));
        }
    }
};

QTEST_APPLESS_MAIN(AttentionKernelsTest)
#include "test_attention_kernels.moc"
