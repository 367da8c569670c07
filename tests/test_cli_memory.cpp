// The memory budget on the command line, run as a process: a configuration over the budget
// exits 1 with one line naming what fits (and each named option really fits, the next
// larger does not); --heads-shown, --mean-only and --window write slices of the full result;
// the budget comes from --memory-budget, ATTNVIZ_MEMORY_BUDGET or the default.
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cstdlib>

#include "engine/io/npy.h"
#include "engine/ops/random.h"
#include "test_support.h"

using namespace attnviz;

namespace {

using Run = test::CliRun;

QString tmp(const QString& name) {
    return QString::fromStdString(test::temp_dir()) + "/" + name;
}

QString weights() {
    return QString::fromStdString(test::golden_dir()) + "/self_basic/weights.safetensors";
}

constexpr int kTokens = 300;

/// attend on a [1, 300, 16] query with self_basic's 4 heads, writing into files named
/// after `tag`, plus `extra` options.
QStringList attend(const QString& tag, const QStringList& extra, bool with_weights = true) {
    QStringList args{"attend",
                     "--weights",
                     weights(),
                     "--query",
                     tmp("q.npy"),
                     "--num-heads",
                     "4",
                     "--out-mean",
                     tmp(tag + "_mean.npy"),
                     "--out-output",
                     tmp(tag + "_out.npy")};
    if (with_weights) args << "--out-weights" << tmp(tag + "_w.npy");
    return args + extra;
}

Tensor load(const QString& path) {
    return io::read_npy(path.toStdString());
}

/// got equals the block of full at (q0, k0), within float rounding.
void verify_slice(const Tensor& got, const Tensor& full, std::int64_t q0, std::int64_t k0) {
    const QString diff = test::slice_mismatch(got, full, q0, k0);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void verify_one_line(const Run& r) {
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, qPrintable(r.err));
}

}  // namespace

class TestCliMemory : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        qunsetenv("ATTNVIZ_MEMORY_BUDGET");
        Tensor q({1, kTokens, 16});
        ops::Random rng(5);
        for (float& v : q.data)
            v = rng.normal();
        io::write_npy(tmp("q.npy").toStdString(), q);
        Tensor unbatched = q;
        unbatched.shape = {kTokens, 16};
        io::write_npy(tmp("q2.npy").toStdString(), unbatched);
        const Run full = test::run_cli(attend("full", {"--memory-budget", "1G"}));
        QVERIFY2(full.status == 0, qPrintable(full.err));
        QCOMPARE(load(tmp("full_w.npy")).shape, (Shape{1, 4, kTokens, kTokens}));
    }

    void over_budget_is_one_line_with_what_fits() {
        const Run r = test::run_cli(attend("over", {"--memory-budget", "2500K"}));
        QCOMPARE(r.status, 1);
        verify_one_line(r);
        for (const char* part :
             {"attnviz attend: needs ",
              "more than the memory budget of 2.44 MiB "
              "(--memory-budget 2500K)",
              "--heads-shown ", "--window 1:", "--mean-only", "or a larger --memory-budget"})
            QVERIFY2(r.err.contains(QLatin1String(part)), qPrintable(r.err));
        QVERIFY(!QFile::exists(tmp("over_w.npy")));  // nothing allocated, nothing written
        QVERIFY(!QFile::exists(tmp("over_mean.npy")));

        // Each option it names fits that budget; one more head or token does not.
        const QRegularExpressionMatch heads =
            QRegularExpression(QStringLiteral("--heads-shown (\\d+)")).match(r.err);
        const QRegularExpressionMatch window =
            QRegularExpression(QStringLiteral("--window 1:(\\d+)")).match(r.err);
        QVERIFY(heads.hasMatch() && window.hasMatch());
        const int k = heads.captured(1).toInt(), w = window.captured(1).toInt();
        QVERIFY(k >= 1 && k < 4);
        QVERIFY(w >= 1 && w < kTokens);
        QCOMPARE(test::run_cli(
                     attend("k", {"--memory-budget", "2500K", "--heads-shown", QString::number(k)}))
                     .status,
                 0);
        QCOMPARE(test::run_cli(attend("k1", {"--memory-budget", "2500K", "--heads-shown",
                                             QString::number(k + 1)}))
                     .status,
                 1);
        QCOMPARE(test::run_cli(attend("win", {"--memory-budget", "2500K", "--window",
                                              QStringLiteral("1:%1").arg(w)}))
                     .status,
                 0);
        const Run longer = test::run_cli(attend(
            "win1", {"--memory-budget", "2500K", "--window", QStringLiteral("1:%1").arg(w + 1)}));
        QCOMPARE(longer.status, 1);
        verify_one_line(longer);
        QCOMPARE(test::run_cli(attend("mean", {"--memory-budget", "2500K", "--mean-only"}, false))
                     .status,
                 0);
    }

    void heads_shown_is_a_slice_of_the_full_result() {
        const Run r = test::run_cli(attend("h2", {"--heads-shown", "2"}));
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Tensor w = load(tmp("h2_w.npy"));
        QCOMPARE(w.shape, (Shape{1, 2, kTokens, kTokens}));
        verify_slice(w, load(tmp("full_w.npy")), 0, 0);
        // The mean is still over all four heads, and the output the same.
        verify_slice(load(tmp("h2_mean.npy")), load(tmp("full_mean.npy")), 0, 0);
        verify_slice(load(tmp("h2_out.npy")), load(tmp("full_out.npy")), 0, 0);
    }

    void window_is_a_slice_of_the_full_result() {
        // Tokens 41 to 140, counted from 1: rows and columns 40 to 139 of the full result.
        const Run r = test::run_cli(attend("win40", {"--window", "41:100", "--causal"}));
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Run full = test::run_cli(attend("causal", {"--causal"}));
        QVERIFY2(full.status == 0, qPrintable(full.err));
        const Tensor w = load(tmp("win40_w.npy"));
        QCOMPARE(w.shape, (Shape{1, 4, 100, 100}));
        verify_slice(w, load(tmp("causal_w.npy")), 40, 40);
        verify_slice(load(tmp("win40_mean.npy")), load(tmp("causal_mean.npy")), 40, 40);
        // Output rows of the window's queries: [1, 100, E] from [1, 300, E].
        Tensor out = load(tmp("win40_out.npy")), out_full = load(tmp("causal_out.npy"));
        QCOMPARE(out.shape, (Shape{1, 100, 16}));
        out.shape = {1, 1, 100, 16};
        out_full.shape = {1, 1, kTokens, 16};
        verify_slice(out, out_full, 40, 0);
    }

    void mean_only() {
        const Run r = test::run_cli(attend("mo", {"--mean-only"}, false));
        QVERIFY2(r.status == 0, qPrintable(r.err));
        verify_slice(load(tmp("mo_mean.npy")), load(tmp("full_mean.npy")), 0, 0);
        // Unbatched input: PyTorch's [L, S] mean, and no per-head weights at all.
        const Run u =
            test::run_cli({"attend", "--weights", weights(), "--query", tmp("q2.npy"),
                           "--num-heads", "4", "--mean-only", "--out-mean", tmp("u_mean.npy")});
        QVERIFY2(u.status == 0, qPrintable(u.err));
        QCOMPARE(load(tmp("u_mean.npy")).shape, (Shape{kTokens, kTokens}));
    }

    void bad_options_are_usage_errors_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("with_weights");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("window without colon")
            << QStringList{"--window", "5"} << true << "--window needs START:LEN";
        QTest::newRow("window words")
            << QStringList{"--window", "a:b"} << true << "--window needs START:LEN";
        QTest::newRow("window negative")
            << QStringList{"--window", "-1:5"} << true << "--window needs START:LEN";
        QTest::newRow("window from 0")  // positions count from 1
            << QStringList{"--window", "0:5"} << true << "--window needs START:LEN";
        QTest::newRow("window empty")
            << QStringList{"--window", "3:0"} << true << "--window needs START:LEN";
        QTest::newRow("window past the end") << QStringList{"--window", "290:20"} << true
                                             << "--window 290:20 ends after the last of 300 tokens";
        // 281:20 is tokens 281 to 300, the last 20; one further is past the end.
        QTest::newRow("window one past the end")
            << QStringList{"--window", "282:20"} << true
            << "--window 282:20 ends after the last of 300 tokens";
        QTest::newRow("too many heads")
            << QStringList{"--heads-shown", "5"} << true << "--heads-shown";
        QTest::newRow("both") << QStringList{"--heads-shown", "2", "--mean-only"} << false
                              << "use either --heads-shown or --mean-only";
        QTest::newRow("mean only with weights")
            << QStringList{"--mean-only"} << true << "--mean-only keeps no per-head weights";
        QTest::newRow("bad budget") << QStringList{"--memory-budget", "plenty"} << true
                                    << "--memory-budget 'plenty' is not a memory size";
        QTest::newRow("tiny budget") << QStringList{"--memory-budget", "10k"} << true
                                     << "is below the smallest budget, 1 MiB";
    }
    void bad_options_are_usage_errors() {
        QFETCH(QStringList, extra);
        QFETCH(bool, with_weights);
        QFETCH(QString, phrase);
        const Run r = test::run_cli(attend("bad", extra, with_weights));
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(phrase), qPrintable(r.err));
    }

    void mean_only_needs_out_mean() {
        const Run r = test::run_cli({"attend", "--weights", weights(), "--query", tmp("q.npy"),
                                     "--num-heads", "4", "--mean-only"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("--mean-only needs --out-mean"), qPrintable(r.err));
    }

    void budget_from_the_environment() {
        qputenv("ATTNVIZ_MEMORY_BUDGET", "1M");
        const Run env = test::run_cli(attend("env", {}));
        const Run option = test::run_cli(attend("opt", {"--memory-budget", "1G"}));
        qputenv("ATTNVIZ_MEMORY_BUDGET", "plenty");
        const Run bad = test::run_cli(attend("envbad", {}));
        qunsetenv("ATTNVIZ_MEMORY_BUDGET");
        QCOMPARE(env.status, 1);
        QVERIFY2(env.err.contains("(ATTNVIZ_MEMORY_BUDGET=1M)"), qPrintable(env.err));
        QCOMPARE(option.status, 0);  // the option wins
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("ATTNVIZ_MEMORY_BUDGET: 'plenty' is not a memory size"),
                 qPrintable(bad.err));
        // Without either: the default, half of this machine's memory, names itself.
        const Run big = test::run_cli({"bench", "--tokens", "200000", "--embed-dim", "64",
                                       "--num-heads", "64", "--repeats", "1"});
        QCOMPARE(big.status, 1);
        QVERIFY2(big.err.contains("(the default: 50% of "), qPrintable(big.err));
    }

    void help_documents_the_options() {
        const Run r = test::run_cli({"--help"});
        QCOMPARE(r.status, 0);
        for (const char* part : {"--heads-shown K", "--mean-only", "--window START:LEN",
                                 "--memory-budget SIZE", "ATTNVIZ_MEMORY_BUDGET"})
            QVERIFY2(r.out.contains(QLatin1String(part)), part);
        const Run e = test::run_cli({"export", "--help"});
        QCOMPARE(e.status, 0);
        for (const char* part :
             {"--heads-shown K", "--mean-only", "--window START:LEN", "--memory-budget SIZE"})
            QVERIFY2(e.out.contains(QLatin1String(part)), part);
    }

    void export_over_budget_and_windowed() {
        QStringList words;
        for (int k = 0; k < 2000; ++k)
            words << QStringLiteral("w%1").arg(k);
        const QString text = words.join(' ');
        const Run over = test::run_cli(
            {"export", "--text", text, "--memory-budget", "64M", "--out", tmp("over.png")});
        QCOMPARE(over.status, 1);
        verify_one_line(over);
        QVERIFY2(over.err.contains("attnviz export: needs ") && over.err.contains("--window 1:"),
                 qPrintable(over.err));
        QVERIFY(!QFile::exists(tmp("over.png")));
        const Run window =
            test::run_cli({"export", "--text", text, "--memory-budget", "64M", "--window",
                           "1000:40", "--heads-shown", "2", "--out", tmp("window.png")});
        QVERIFY2(window.status == 0, qPrintable(window.err));
        QVERIFY(QFile(tmp("window.png")).size() > 1000);
        // The PNG's own canvas counts too.
        const Run canvas = test::run_cli(
            {"export", "--text", "a b", "--memory-budget", "16M", "--out", tmp("canvas.png")});
        QCOMPARE(canvas.status, 1);
        verify_one_line(canvas);
        QVERIFY2(canvas.err.contains("a PNG of 3200 x 2000 pixels needs 48.8 MiB"),
                 qPrintable(canvas.err));
        const Run bad = test::run_cli({"export", "--text", "a b", "--num-heads", "2",
                                       "--heads-shown", "3", "--out", tmp("bad.png")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("--heads-shown 3 is more than --num-heads 2"),
                 qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestCliMemory)
#include "test_cli_memory.moc"
