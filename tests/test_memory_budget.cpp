// The memory budget (engine/budget) and what the engine keeps of a result: sizes parsed and
// printed, the budget's precedence and cgroup limits, the offers of plan_memory (each fits,
// the next larger does not), the kept heads and windows of a forward pass (each exactly a
// slice of the full result up to rounding), and the estimate as an upper bound of what forward()
// really allocates (heap counted by tests/alloc_counter.cpp).
#include <QDir>
#include <QFile>
#include <QTest>

#include <cstdlib>
#include <optional>

#include "alloc_counter.h"
#include "engine/budget/memory_budget.h"
#include "engine/buffers.h"
#include "engine/layers/attention_core.h"
#include "engine/layers/multi_head_attention.h"
#include "engine/ops/random.h"
#include "test_support.h"

using namespace attnviz;
using namespace attnviz::budget;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

Tensor random_tensor(const Shape& shape, std::uint64_t seed) {
    Tensor t(shape);
    ops::Random rng(seed);
    for (float& v : t.data)
        v = rng.normal();
    return t;
}

/// Environment variable set for one scope.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

void write_text(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

/// got[n, h, i, j] == full[n, h, q0 + i, k0 + j] for every element of `got`, reported at
/// the first difference.
void verify_slice4(const Tensor& got, const Tensor& full, std::int64_t q0, std::int64_t k0,
                   const char* what) {
    const QString diff = test::slice_mismatch(got, full, q0, k0);
    QVERIFY2(diff.isEmpty(), qPrintable(QLatin1String(what) + QLatin1Char(' ') + diff));
}

struct Config {
    const char* name;
    std::int64_t N, L, S, E, H;
    bool cross, intermediates, add_bias_kv, add_zero_attn;
    int threads;
    std::int64_t heads_kept, q0, rows, k0, cols;  // -1 counts: to the end
};

}  // namespace

class TestMemoryBudget : public QObject {
    Q_OBJECT

  private slots:
    // --- sizes ---------------------------------------------------------------------------

    void parses_sizes() {
        QCOMPARE(parse_memory_size("2G", 0), 2 * GiB);
        QCOMPARE(parse_memory_size(" 512M ", 0), 512 * MiB);
        QCOMPARE(parse_memory_size("1.5GiB", 0), 3 * GiB / 2);
        QCOMPARE(parse_memory_size("300MB", 0), 300 * MiB);
        QCOMPARE(parse_memory_size("2048k", 0), 2 * MiB);
        QCOMPARE(parse_memory_size("1t", 0), 1024 * GiB);
        QCOMPARE(parse_memory_size("2000000", 0), std::uint64_t(2000000));
        QCOMPARE(parse_memory_size("60%", 10 * GiB), std::uint64_t(6 * GiB));
        QCOMPARE(parse_memory_size("100 %", 8 * GiB), 8 * GiB);
    }

    void refuses_what_is_not_a_size_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("phrase");
        const char* const not_a_size = "is not a memory size (e.g. 2G, 512M or 60%)";
        QTest::newRow("empty") << "" << not_a_size;
        QTest::newRow("word") << "lots" << not_a_size;
        QTest::newRow("negative") << "-1G" << not_a_size;
        QTest::newRow("plus") << "+1G" << not_a_size;
        QTest::newRow("unit") << "2X" << not_a_size;
        QTest::newRow("exponent") << "1e9" << not_a_size;
        QTest::newRow("hex") << "0x10G" << not_a_size;
        QTest::newRow("inf") << "inf" << not_a_size;
        QTest::newRow("nan") << "nan" << not_a_size;
        QTest::newRow("zero") << "0" << not_a_size;
        QTest::newRow("percent alone") << "%" << not_a_size;
        QTest::newRow("over 100%") << "150%"
                                   << "is more than 100% of the memory";
        QTest::newRow("tiny") << "64k"
                              << "is below the smallest budget, 1 MiB";
        QTest::newRow("huge") << "99999999T"
                              << "is more memory than any machine has";
    }
    void refuses_what_is_not_a_size() {
        QFETCH(QString, text);
        QFETCH(QString, phrase);
        try {
            parse_memory_size(text.toStdString(), 8 * GiB);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(phrase) && message.contains(QLatin1Char('\'') + text),
                     qPrintable(message));
        }
    }

    void percent_needs_known_memory() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_memory_size("50%", 0));
    }

    void formats_sizes() {
        QCOMPARE(format_bytes(0), std::string("0 B"));
        QCOMPARE(format_bytes(1023), std::string("1023 B"));
        QCOMPARE(format_bytes(1024), std::string("1 KiB"));
        QCOMPARE(format_bytes(1536), std::string("1.5 KiB"));
        QCOMPARE(format_bytes(2 * GiB), std::string("2 GiB"));
        QCOMPARE(format_bytes(12 * MiB + 300 * KiB), std::string("12.3 MiB"));
        QCOMPARE(format_bytes(512 * MiB), std::string("512 MiB"));
        QCOMPARE(format_bytes(MiB - 100), std::string("1 MiB"));  // not "1024 KiB"
    }

    // --- the budget in force ---------------------------------------------------------------

    void budget_precedence() {
        const std::uint64_t memory = 16 * GiB;
        {
            ScopedEnv env(kBudgetEnvironmentVariable, nullptr);
            const MemoryBudget d = resolve_memory_budget("", "", memory);
            QCOMPARE(d.bytes, 8 * GiB);
            QVERIFY(d.source == MemoryBudget::Source::Default);
            QCOMPARE(describe_budget(d), std::string("8 GiB (the default: 50% of 16 GiB)"));
            const MemoryBudget s = resolve_memory_budget("", "3G", memory);
            QCOMPARE(s.bytes, 3 * GiB);
            QVERIFY(s.source == MemoryBudget::Source::Setting);
            QCOMPARE(describe_budget(s), std::string("3 GiB (the app's setting)"));
            // A broken setting is the default, never an error the command line cannot fix.
            QCOMPARE(resolve_memory_budget("", "garbage", memory).bytes, 8 * GiB);
        }
        {
            ScopedEnv env(kBudgetEnvironmentVariable, "25%");
            const MemoryBudget e = resolve_memory_budget("", "3G", memory);
            QCOMPARE(e.bytes, 4 * GiB);
            QVERIFY(e.source == MemoryBudget::Source::Environment);
            QCOMPARE(describe_budget(e), std::string("4 GiB (ATTNVIZ_MEMORY_BUDGET=25%)"));
            const MemoryBudget o = resolve_memory_budget("512M", "3G", memory);
            QCOMPARE(o.bytes, 512 * MiB);
            QCOMPARE(describe_budget(o), std::string("512 MiB (--memory-budget 512M)"));
        }
        {
            ScopedEnv env(kBudgetEnvironmentVariable, "plenty");
            try {
                resolve_memory_budget("", "", memory);
                QFAIL("no exception for a bad ATTNVIZ_MEMORY_BUDGET");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).startsWith("ATTNVIZ_MEMORY_BUDGET: 'plenty'"), e.what());
            }
            try {
                resolve_memory_budget("2Q", "", memory);
                QFAIL("no exception for a bad option");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).startsWith("--memory-budget '2Q'"), e.what());
            }
        }
    }

    void reads_cgroup_limits() {
        const QString root = QString::fromStdString(test::temp_dir()) + "/cgroup";
        // v2: the lowest limit along the path counts; "max" is no limit.
        write_text(root + "/app.slice/memory.max", "1073741824\n");
        write_text(root + "/app.slice/term.scope/memory.max", "max\n");
        QCOMPARE(cgroup_memory_limit("0::/app.slice/term.scope\n", root.toStdString()),
                 std::optional<std::uint64_t>(GiB));
        // v1: the memory controller's own hierarchy; its "unlimited" is a huge number.
        write_text(root + "/memory/job/memory.limit_in_bytes", "536870912\n");
        write_text(root + "/memory/memory.limit_in_bytes", "9223372036854771712\n");
        QCOMPARE(cgroup_memory_limit("4:memory:/job\n1:cpu:/\n0::/\n", root.toStdString()),
                 std::optional<std::uint64_t>(512 * MiB));
        QCOMPARE(cgroup_memory_limit("4:cpu,memory:/\n", root.toStdString()),
                 std::optional<std::uint64_t>());
        QCOMPARE(cgroup_memory_limit("garbage\n", root.toStdString()),
                 std::optional<std::uint64_t>());
        QCOMPARE(cgroup_memory_limit("0::/nowhere\n", "/nonexistent"),
                 std::optional<std::uint64_t>());
        // The machine's own: something, and never more than sysconf says.
        QVERIFY(usable_memory_bytes() > 64 * MiB);
    }

    // --- windows and offers ------------------------------------------------------------------

    void windows_on_sequences() {
        ResultScope s;
        QCOMPARE(window_on(s, 10), (AxisWindow{0, 10}));
        s.window_start = 3;
        s.window_length = 4;
        QCOMPARE(window_on(s, 10), (AxisWindow{3, 4}));
        QCOMPARE(window_on(s, 5), (AxisWindow{1, 4}));  // moved back to end at the last token
        QCOMPARE(window_on(s, 4), (AxisWindow{0, 4}));  // the whole (shorter) sequence
        QCOMPARE(window_on(s, 0), (AxisWindow{0, 0}));
        QCOMPARE(s.kept_heads(8), 8);
        s.heads_shown = 3;
        QCOMPARE(s.kept_heads(8), 3);
        s.heads_shown = 0;
        QCOMPARE(s.kept_heads(8), 0);
    }

    void offers_are_the_largest_that_fit() {
        // A footprint like the attention's: a fixed part, per-head weights k*W*W, the mean.
        const int H = 8;
        const std::int64_t T = 1000;
        const FootprintFn f = [&](const ResultScope& s) {
            const double w = double(window_on(s, T).count);
            return std::uint64_t(1e6 + 4.0 * w * w * (s.kept_heads(H) + 1));
        };
        const std::uint64_t budget = 20'000'000;
        const MemoryPlan plan = plan_memory(f, ResultScope{}, H, T, budget);
        QVERIFY(!plan.fits());
        QCOMPARE(plan.needed, f(ResultScope{}));
        QVERIFY(plan.fewer_heads);
        QVERIFY(plan.window);
        QVERIFY(plan.mean_only);
        const int k = plan.fewer_heads->heads_shown;
        QCOMPARE(k, 3);  // 1e6 + 4e6 * 4 fits, 1e6 + 4e6 * 5 does not
        QVERIFY(f(*plan.fewer_heads) <= budget);
        ResultScope more = *plan.fewer_heads;
        ++more.heads_shown;
        QVERIFY(f(more) > budget);
        const std::int64_t w = plan.window->window_length;
        QVERIFY(f(*plan.window) <= budget);
        ResultScope longer = *plan.window;
        ++longer.window_length;
        QVERIFY(f(longer) > budget);
        QCOMPARE(plan.window->heads_shown, -1);  // only the window changed
        QCOMPARE(w, std::int64_t(726));          // sqrt(19e6 / 36)
        QCOMPARE(plan.mean_only->heads_shown, 0);
        QCOMPARE(plan.window_bytes, f(*plan.window));

        // The same from a window already asked for: a shorter one from the same start, or
        // the start moved back when the shorter one would still end past the text.
        ResultScope windowed;
        windowed.window_start = 900;
        windowed.window_length = 100;
        const MemoryPlan small = plan_memory(f, windowed, H, T, 1'300'000);
        QVERIFY(small.window);
        QCOMPARE(small.window->window_start, std::int64_t(900));
        QVERIFY(small.window->window_length < 100);

        // A cap on the window offered (the window's: long windows take long to draw).
        const MemoryPlan capped = plan_memory(f, ResultScope{}, H, T, budget, 100);
        QCOMPARE(capped.window->window_length, std::int64_t(100));
        QCOMPARE(capped.fewer_heads->heads_shown, 3);

        // Nothing fits: no offers, and the message says so.
        const MemoryPlan none = plan_memory(f, ResultScope{}, H, T, 500'000);
        QVERIFY(!none.any_offer());
        MemoryBudget b;
        b.bytes = 500'000;
        b.source = MemoryBudget::Source::Option;
        b.text = "500000";
        const std::string m = plan_message(none, b);
        QVERIFY2(m.find("nothing smaller fits either") != std::string::npos, m.c_str());

        // The one-line message names each option that fits.
        MemoryBudget d;
        d.bytes = budget;
        d.memory = 2 * budget;
        const std::string line = plan_message(plan, d);
        QVERIFY2(line.find('\n') == std::string::npos, line.c_str());
        for (const char* part : {"needs ", "more than the memory budget of ", "--heads-shown 3",
                                 "--window 1:726", "--mean-only", "or a larger --memory-budget"})
            QVERIFY2(line.find(part) != std::string::npos, line.c_str());
        // Within the budget: no offers at all.
        QVERIFY(plan_memory(f, ResultScope{}, H, T, f(ResultScope{})).fits());
    }

    // --- weights ----------------------------------------------------------------------------

    void weights_are_kept_when_they_fit_beside_the_rest() {
        const std::uint64_t kept = 32ull << 30, streaming = 900ull << 20, budget = 12ull << 30;
        // An 8B model in float32 (32 GiB) beside 1 GiB of maps: streamed.
        WeightsPlan p = plan_weights(kept, streaming, 1ull << 30, budget);
        QVERIFY(p.stream);
        QCOMPARE(p.resident(), streaming);
        // A small one: kept, up to the last byte of the budget.
        p = plan_weights(2ull << 30, 100ull << 20, budget - (2ull << 30), budget);
        QVERIFY(!p.stream);
        QCOMPARE(p.resident(), 2ull << 30);
        QVERIFY(plan_weights(2ull << 30, 100ull << 20, budget - (2ull << 30) + 1, budget).stream);
        // The rest alone over the budget (plan_memory refuses it): streamed, never wrapped.
        QVERIFY(plan_weights(2ull << 30, 100ull << 20, budget + 1, budget).stream);
        // A buffer is never counted as more than the weights themselves.
        QCOMPARE(plan_weights(1000, 5000, 0, 10).streaming, std::uint64_t(1000));
    }

    void the_message_counts_the_streamed_weights() {
        // Maps of 1 MB a head beside weights that stream through 3 MB: 4 heads need 7 MB.
        const FootprintFn f = [](const ResultScope& s) -> std::uint64_t {
            return std::uint64_t(s.kept_heads(4)) * 1'000'000 + 3'000'000;
        };
        MemoryPlan plan = plan_memory(f, ResultScope{}, 4, 100, 5'500'000);
        plan.weights = 3'000'000;
        QVERIFY(!plan.fits());
        QCOMPARE(plan.fewer_heads->heads_shown, 2);
        const std::string m = plan_message(plan, resolve_memory_budget("5500000", ""));
        QVERIFY2(m.find("needs 6.68 MiB (2.86 MiB of it for the weights, streamed layer by "
                        "layer), more than the memory budget of") == 0,
                 m.c_str());
        QVERIFY2(m.find("--heads-shown 2") != std::string::npos, m.c_str());
    }

    // --- the engine keeps slices of the full result ------------------------------------------

    void kept_parts_are_slices_of_the_full_result_data() {
        QTest::addColumn<int>("config");
        for (int k = 0; k < 7; ++k)
            QTest::newRow(std::to_string(k).c_str()) << k;
    }
    void kept_parts_are_slices_of_the_full_result() {
        QFETCH(int, config);
        static const Config kConfigs[] = {
            {"2 of 4 heads", 1, 13, 13, 16, 4, false, false, false, false, 1, 2, 0, -1, 0, -1},
            {"mean only", 2, 9, 9, 12, 3, false, false, false, false, 2, 0, 0, -1, 0, -1},
            {"window", 1, 40, 40, 16, 2, false, true, false, false, 1, -1, 11, 17, 11, 17},
            {"window, 1 head, 3 threads", 2, 70, 70, 24, 4, false, false, false, false, 3, 1, 50,
             20, 50, 20},
            {"cross, extra columns", 2, 12, 19, 8, 2, true, true, true, true, 1, 1, 3, 5, 15, 6},
            {"rows only", 1, 30, 30, 8, 2, false, false, false, false, 2, -1, 29, 1, 0, -1},
            {"columns only", 1, 30, 30, 8, 2, false, false, false, true, 1, -1, 0, -1, 29, 2},
        };
        const Config& c = kConfigs[config];
        MultiHeadAttentionOptions o;
        o.embed_dim = c.E;
        o.num_heads = c.H;
        o.add_bias_kv = c.add_bias_kv;
        o.add_zero_attn = c.add_zero_attn;
        o.dropout = 0.25f;
        MultiHeadAttention mha(o);
        mha.reset_parameters(7);
        const Tensor q = random_tensor({c.N, c.L, c.E}, 1);
        const Tensor kv = c.cross ? random_tensor({c.N, c.S, c.E}, 2) : q;
        // Every mask at once, and dropout, whose streams must not depend on the window.
        std::vector<float> padding(std::size_t(c.N * c.S), 0.0f);
        padding[1] = 1.0f;
        const Mask kpm = Mask::boolean({c.N, c.S}, padding);
        std::vector<float> attn(std::size_t(c.L * c.S), 0.0f);
        for (std::size_t i = 0; i < attn.size(); i += 7)
            attn[i] = -0.5f;
        const Mask am = Mask::additive({c.L, c.S}, attn);
        AttentionForwardOptions fwd;
        fwd.key_padding_mask = &kpm;
        fwd.attn_mask = &am;
        fwd.causal = !c.cross;
        fwd.training = true;
        fwd.dropout_seed = 11;
        fwd.need_intermediates = c.intermediates;
        fwd.num_threads = c.threads;
        const AttentionResult full = mha.forward(q, kv, kv, fwd);

        AttentionForwardOptions part = fwd;
        part.weights_heads = c.heads_kept;
        part.query_begin = c.q0;
        part.query_count = c.rows;
        part.key_begin = c.k0;
        part.key_count = c.cols;
        const AttentionResult got = mha.forward(q, kv, kv, part);
        const std::int64_t rows = c.rows < 0 ? c.L - c.q0 : c.rows;
        const std::int64_t cols = c.cols < 0 ? full.source_length - c.k0 : c.cols;
        const std::int64_t kept = c.heads_kept < 0 ? c.H : c.heads_kept;
        if (kept == 0) {
            QVERIFY(got.weights.empty());
        } else {
            QCOMPARE(got.weights.shape, (Shape{c.N, kept, rows, cols}));
            verify_slice4(got.weights, full.weights, c.q0, c.k0, "weights");
        }
        QCOMPARE(got.mean_weights.shape, (Shape{c.N, rows, cols}));
        verify_slice4(got.mean_weights, full.mean_weights, c.q0, c.k0, "mean");
        Tensor out_full = full.output, out_got = got.output;
        out_full.shape = {c.N, 1, c.L, c.E};
        out_got.shape = {c.N, 1, rows, c.E};
        verify_slice4(out_got, out_full, c.q0, 0, "output");
        QCOMPARE(got.fully_masked_rows.size(), std::size_t(c.N * c.H * rows));
        for (std::int64_t t = 0; t < c.N * c.H; ++t)
            for (std::int64_t i = 0; i < rows; ++i)
                QCOMPARE(got.fully_masked_rows[std::size_t(t * rows + i)],
                         full.fully_masked_rows[std::size_t(t * c.L + c.q0 + i)]);
        if (c.intermediates) {
            QVERIFY(got.steps.has_value());
            const HeadSteps& a = got.steps->heads.back();
            const HeadSteps& b = full.steps->heads.back();
            Tensor sa = a.dropped, sb = b.dropped;
            sa.shape = {1, 1, rows, full.source_length};
            sb.shape = {1, 1, c.L, full.source_length};
            verify_slice4(sa, sb, c.q0, 0, "steps dropped");
        }
    }

    void bad_windows_are_refused() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 8;
        o.num_heads = 2;
        MultiHeadAttention mha(o);
        const Tensor q = random_tensor({1, 5, 8}, 1);
        auto expect = [&](auto set, const char* phrase) {
            AttentionForwardOptions f;
            set(f);
            try {
                (void)mha.forward(q, q, q, f);
                QFAIL(phrase);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).contains(phrase), e.what());
            }
        };
        expect([](auto& f) { f.weights_heads = 3; }, "weights_heads 3 is not in [-1, 2]");
        expect([](auto& f) { f.query_begin = 5; },
               "query window from 5 of length -1 does not fit 5 queries");
        expect([](auto& f) { f.query_count = 0; }, "query window from 0 of length 0");
        expect([](auto& f) { f.key_begin = 2, f.key_count = 4; },
               "key window from 2 of length 4 does not fit 5 keys");
    }

    // --- the estimate is an upper bound of what forward() allocates ----------------------------

    void estimate_bounds_real_allocations_data() {
        QTest::addColumn<int>("config");
        for (int k = 0; k < 6; ++k)
            QTest::newRow(std::to_string(k).c_str()) << k;
    }
    void estimate_bounds_real_allocations() {
        if (!test::heap_counting_available()) QSKIP("the heap belongs to a sanitizer here");
        QFETCH(int, config);
        static const Config kConfigs[] = {
            {"sentence", 1, 12, 12, 64, 4, false, false, false, false, 1, -1, 0, -1, 0, -1},
            {"steps", 1, 40, 40, 64, 8, false, true, false, false, 1, -1, 0, -1, 0, -1},
            {"cross batch", 2, 300, 150, 96, 6, true, false, true, true, 2, -1, 0, -1, 0, -1},
            {"1000 tokens, 2 threads", 1, 1000, 1000, 64, 4, false, false, false, false, 2, -1, 0,
             -1, 0, -1},
            {"window of 2000", 1, 2000, 2000, 32, 4, false, false, false, false, 2, 1, 500, 300,
             500, 300},
            {"mean only", 1, 800, 800, 128, 8, false, false, false, true, 1, 0, 0, -1, 0, -1},
        };
        const Config& c = kConfigs[config];
        MultiHeadAttentionOptions o;
        o.embed_dim = c.E;
        o.num_heads = c.H;
        o.add_bias_kv = c.add_bias_kv;
        o.add_zero_attn = c.add_zero_attn;
        MultiHeadAttention mha(o);
        const Tensor q = random_tensor({c.N, c.L, c.E}, 1);
        const Tensor kv = c.cross ? random_tensor({c.N, c.S, c.E}, 2) : q;
        AttentionForwardOptions fwd;
        fwd.causal = true;
        fwd.need_intermediates = c.intermediates;
        fwd.num_threads = c.threads;
        fwd.weights_heads = c.heads_kept;
        fwd.query_begin = c.q0;
        fwd.query_count = c.rows;
        fwd.key_begin = c.k0;
        fwd.key_count = c.cols;
        (void)mha.forward(q, kv, kv, fwd);  // warm-up: thread-local and BLAS buffers

        // The largest of three passes: two threads' scratch only adds up when their blocks
        // run at the same time, which a busy machine may not grant every pass.
        std::int64_t peak = 0;
        for (int pass = 0; pass < 3; ++pass) {
            drop_kept_buffers();  // what a first pass allocates, none of it handed back
            const std::int64_t before = test::heap_live_bytes();
            test::reset_heap_peak();
            const AttentionResult r = mha.forward(q, kv, kv, fwd);
            peak = std::max(peak, test::heap_peak_bytes() - before);
        }
        const auto estimate =
            std::int64_t(MultiHeadAttention::estimate_forward_bytes(o, c.N, c.L, c.S, fwd));
        qInfo("%s: estimate %lld bytes, peak %lld bytes", c.name, (long long)estimate,
              (long long)peak);
        QVERIFY2(peak > 0, "nothing was counted");
        QVERIFY2(estimate >= peak,
                 qPrintable(QStringLiteral("estimate %1 < peak %2").arg(estimate).arg(peak)));
        // An upper bound that is still a useful estimate: within twice the peak and 1 MiB,
        // and the scratch rows of the threads beyond the first, whose blocks a busy machine
        // may run one after the other (the estimate counts them at once).
        const std::int64_t Sp = c.S + (c.add_bias_kv ? 1 : 0) + (c.add_zero_attn ? 1 : 0);
        const std::int64_t rows = c.rows < 0 ? c.L - c.q0 : c.rows;
        const std::int64_t unshared = (c.threads - 1) *
                                      layers::rows_per_block(rows, Sp, c.N, c.threads) * Sp *
                                      std::int64_t(sizeof(float));
        QVERIFY2(
            estimate <= 2 * peak + std::int64_t(MiB) + unshared,
            qPrintable(
                QStringLiteral("estimate %1 is far above the peak %2").arg(estimate).arg(peak)));
    }

    /// The offers of plan_memory over the engine's own estimate, run: each stays within the
    /// budget it was offered for.
    void offers_run_within_the_budget() {
        if (!test::heap_counting_available()) QSKIP("the heap belongs to a sanitizer here");
        MultiHeadAttentionOptions o;
        o.embed_dim = 64;
        o.num_heads = 8;
        MultiHeadAttention mha(o);
        const std::int64_t L = 1200;
        const Tensor q = random_tensor({1, L, o.embed_dim}, 3);
        const auto fwd_for = [&](const ResultScope& s) {
            AttentionForwardOptions f;
            f.num_threads = 2;
            f.weights_heads = s.heads_shown;
            if (s.windowed()) {
                const AxisWindow w = window_on(s, L);
                f.query_begin = f.key_begin = w.begin;
                f.query_count = f.key_count = w.count;
            }
            return f;
        };
        const FootprintFn footprint = [&](const ResultScope& s) {
            return std::uint64_t(
                MultiHeadAttention::estimate_forward_bytes(o, 1, L, L, fwd_for(s)));
        };
        const std::uint64_t budget = 28 * MiB;  // all 8 heads need over 55 MB
        const MemoryPlan plan = plan_memory(footprint, ResultScope{}, 8, L, budget);
        QVERIFY(!plan.fits());
        QVERIFY(plan.fewer_heads);
        QVERIFY(plan.window);
        QVERIFY(plan.mean_only);
        (void)mha.forward(q, q, q, fwd_for(ResultScope{}));  // warm-up
        for (const ResultScope& offer : {*plan.fewer_heads, *plan.window, *plan.mean_only}) {
            drop_kept_buffers();
            const std::int64_t before = test::heap_live_bytes();
            test::reset_heap_peak();
            { const AttentionResult r = mha.forward(q, q, q, fwd_for(offer)); }
            const std::int64_t peak = test::heap_peak_bytes() - before;
            QVERIFY2(peak <= std::int64_t(budget),
                     qPrintable(QStringLiteral("offer used %1 bytes").arg(peak)));
        }
    }
    void layer_specs_round_trip() {
        QCOMPARE(parse_layers_spec("all", 4), (std::vector<std::int64_t>{0, 1, 2, 3}));
        // Counted from 1, as every layer a user sees.
        QCOMPARE(parse_layers_spec("4,1-2", 12), (std::vector<std::int64_t>{0, 1, 3}));
        QCOMPARE(parse_layers_spec("-1", 12), (std::vector<std::int64_t>{11}));
        QCOMPARE(parse_layers_spec("11-12,3,3", 12), (std::vector<std::int64_t>{2, 10, 11}));
        QCOMPARE(layers_spec({0, 1, 2, 3, 7, 9, 10}), std::string("1-4,8,10,11"));
        QCOMPARE(layers_spec({5}), std::string("6"));
        for (const std::int64_t n : {2, 7, 12})  // a spec written out reads back as itself
            QCOMPARE(parse_layers_spec(layers_spec({0, n - 1}), 12),
                     (std::vector<std::int64_t>{0, n - 1}));
        for (const char* bad : {"0", "13", "a", "3-1", "1,", "-13", "1-", ""})
            if (std::string_view(bad).empty())
                QCOMPARE(parse_layers_spec(bad, 12).size(), std::size_t{12});
            else
                QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_layers_spec(bad, 12));
    }

    void offers_fewer_layers_of_a_model() {
        // A model's maps: 12 layers x 12 heads x L^2 floats; only the layers kept count.
        const std::int64_t L = 1000;
        const std::vector<std::int64_t> layers = parse_layers_spec("all", 12);
        const FootprintFn footprint = [&](const ResultScope& s) {
            const double kept_layers = s.layers_shown < 0 ? 12.0 : double(s.layers_shown);
            const double heads = s.heads_shown < 0 ? 12.0 : double(s.heads_shown);
            return std::uint64_t(kept_layers * (heads + 1) * double(L) * double(L) * 4.0);
        };
        const std::uint64_t budget = 200 * MiB;  // every layer needs about 595 MiB
        const MemoryPlan plan = plan_memory(footprint, ResultScope{}, 12, L, budget, 0, layers);
        QVERIFY(!plan.fits());
        QVERIFY(plan.fewer_layers);
        QCOMPARE(plan.fewer_layers->layers_shown, 4);  // 4 x 13 x 4 MB = 198 MiB
        QVERIFY(plan.fewer_layers_bytes <= budget);
        const std::string message = plan_message(plan, resolve_memory_budget("200M", ""));
        QVERIFY2(message.find("--layers 1-4") != std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "test_memory_budget.moc"
