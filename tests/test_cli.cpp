// The attnviz command line, run as a process: results through files match the golden cases,
// and every kind of bad input ends with the right exit status, one message on stderr and no
// output file.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <limits>

#include "app/cli.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "test_support.h"

using namespace attnviz;

namespace {

using Run = test::CliRun;

QString golden(const char* c, const char* f) {
    return QString::fromStdString(test::golden_dir()) + "/" + c + "/" + f;
}

QString tmp(const QString& name) {
    return QString::fromStdString(test::temp_dir()) + "/" + name;
}

void write_bytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

QByteArray read_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// `attnviz ARGS` with no display at all: a window it tried to open would fail, not wait.
Run run_headless(const QStringList& args) {
    const test::ProcessRun p = test::run_attnviz(args, true);
    return {p.status, QString::fromUtf8(p.out), QString::fromUtf8(p.err)};
}

/// A file the build wrote next to the program (the man page, the completion).
QByteArray built_file(const char* name) {
    return read_bytes(QFileInfo(qEnvironmentVariable("ATTNVIZ_CLI")).dir().filePath(name));
}

/// The desktop app's arguments, parsed only (no window).
cli::ParsedCommandLine parse_gui(const QStringList& args) {
    std::vector<std::string> v;
    for (const QString& a : args)
        v.push_back(a.toStdString());
    return cli::parse_command_line(v);
}

/// The words bash's completion offers for `line` (the last word is being completed).
QStringList complete(const QStringList& line) {
    QStringList quoted;
    for (const QString& w : line)
        quoted << "'" + w + "'";
    const QString script = QStringLiteral(
                               "source \"$1\" || exit 3\n"
                               "complete -p attnviz | grep -q -- '-F _attnviz' || exit 4\n"
                               "COMP_WORDS=(%1); COMP_CWORD=%2\n"
                               "_attnviz; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
                               .arg(quoted.join(' '))
                               .arg(line.size() - 1);
    QProcess bash;
    bash.start(
        QStringLiteral("bash"),
        {"--norc", "-c", script, "bash",
         QFileInfo(qEnvironmentVariable("ATTNVIZ_CLI")).dir().filePath("attnviz.bash-completion")});
    if (!bash.waitForFinished(30000) || bash.exitCode() != 0)
        return {QStringLiteral("(bash failed: %1 %2)")
                    .arg(bash.exitCode())
                    .arg(QString::fromUtf8(bash.readAllStandardError()))};
    return QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

/// The subcommands `attnviz --help` must list.
const QStringList kSubcommands{"attend", "tokenize", "inspect", "bench", "predict",
                               "patch",  "generate", "export",  "view"};

/// A valid attend command line on the self_basic golden case, writing to `out`.
QStringList attend_args(const QString& out) {
    return {"attend",
            "--weights",
            golden("self_basic", "weights.safetensors"),
            "--query",
            golden("self_basic", "query.npy"),
            "--num-heads",
            "4",
            "--out-weights",
            out};
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

  private slots:
    void attend_matches_golden_through_files() {
        const QString w = tmp("w.npy"), o = tmp("o.npy"), m = tmp("m.npy");
        const Run r = test::run_cli({"attend",
                                     "--weights",
                                     golden("bias_kv_zero_attn_masks", "weights.safetensors"),
                                     "--query",
                                     golden("bias_kv_zero_attn_masks", "query.npy"),
                                     "--num-heads",
                                     "2",
                                     "--add-zero-attn",
                                     "--key-padding-mask",
                                     golden("bias_kv_zero_attn_masks", "key_padding_mask.npy"),
                                     "--attn-mask",
                                     golden("bias_kv_zero_attn_masks", "attn_mask.npy"),
                                     "--masked-rows",
                                     "nan",
                                     "--out-weights",
                                     w,
                                     "--out-mean",
                                     m,
                                     "--out-output",
                                     o});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY(r.err.isEmpty());
        const auto load = [](const QString& p) { return io::read_npy(p.toStdString()); };
        ATTNVIZ_COMPARE_TENSORS(
            load(w), load(golden("bias_kv_zero_attn_masks", "expected_nan_weights.npy")), 2e-6);
        ATTNVIZ_COMPARE_TENSORS(
            load(m), load(golden("bias_kv_zero_attn_masks", "expected_nan_mean.npy")), 2e-6);
        ATTNVIZ_COMPARE_TENSORS(
            load(o), load(golden("bias_kv_zero_attn_masks", "expected_nan_output.npy")), 2e-5);
    }

    void attend_cross_attention_and_causal() {
        const QString w = tmp("wc.npy");
        Run r = test::run_cli(
            {"attend", "--weights", golden("cross_kdim_vdim", "weights.safetensors"), "--query",
             golden("cross_kdim_vdim", "query.npy"), "--key", golden("cross_kdim_vdim", "key.npy"),
             "--value", golden("cross_kdim_vdim", "value.npy"), "--num-heads", "2", "--out-weights",
             w});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        ATTNVIZ_COMPARE_TENSORS(
            io::read_npy(w.toStdString()),
            io::read_npy(golden("cross_kdim_vdim", "expected_zero_weights.npy").toStdString()),
            2e-6);
        r = test::run_cli({"attend", "--weights", golden("causal", "weights.safetensors"),
                           "--query", golden("causal", "query.npy"), "--num-heads", "4", "--causal",
                           "--out-weights", w});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        ATTNVIZ_COMPARE_TENSORS(
            io::read_npy(w.toStdString()),
            io::read_npy(golden("causal", "expected_zero_weights.npy").toStdString()), 2e-6);
    }

    void dropout_is_reproducible_from_the_seed() {
        const QString a = tmp("da.npy"), b = tmp("db.npy"), c = tmp("dc.npy");
        for (const auto& [path, seed] : {std::pair{a, "7"}, {b, "7"}, {c, "8"}}) {
            const Run r = test::run_cli(attend_args(path) +
                                        QStringList{"--dropout", "0.5", "--train", "--seed", seed});
            QVERIFY2(r.status == 0, qPrintable(r.err));
        }
        QCOMPARE(read_bytes(a), read_bytes(b));
        QVERIFY(read_bytes(a) != read_bytes(c));
        const Tensor t = io::read_npy(a.toStdString());
        const auto zeros = std::count(t.data.begin(), t.data.end(), 0.0f);
        QVERIFY(zeros > 0 && zeros < static_cast<long>(t.numel()));
    }

    void tokenize_prints_json() {
        const Run r = test::run_cli({"tokenize", "--text", QStringLiteral("我爱NLP！ The cat.")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonArray tokens = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QStringList got;
        for (const auto& t : tokens)
            got << t.toString();
        QCOMPARE(got, (QStringList{QStringLiteral("我"), QStringLiteral("爱"), "NLP",
                                   QStringLiteral("！"), "The", "cat", "."}));
    }

    void bench_prints_one_json_line() {
        Run r = test::run_cli(
            {"bench", "--tokens", "16", "--embed-dim", "32", "--num-heads", "4", "--repeats", "2"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QJsonObject o = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
        QVERIFY(o["median_ms"].toDouble() > 0.0);
        QVERIFY(o["gflops"].toDouble() > 0.0);
        r = test::run_cli({"bench", "--softmax", "--rows", "64", "--cols", "33", "--repeats", "2"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        o = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
        QVERIFY(o["gelem_per_s"].toDouble() > 0.0);
        QVERIFY(!o["isa"].toString().isEmpty());
    }

    void bad_input() {
        // Files for the bad cases.
        write_bytes(tmp("empty.npy"), {});
        write_bytes(tmp("garbage.safetensors"), "this is not a safetensors file at all");
        QByteArray lying("\x10\x00\x00\x00\x00\x00\x00\x00", 8);  // header of 16 bytes...
        lying +=
            "{\"a\":{\"dtype\":\"F32\",\"shape\":[1000000000],\"data_offsets\":[0,4000000000]}}";
        write_bytes(tmp("lying.safetensors"), lying);
        QByteArray huge = read_bytes(golden("self_basic", "query.npy"));
        huge.replace("(1, 5, 16)", "(99999999999, 5, 16)");
        write_bytes(tmp("huge.npy"), huge);
        io::write_npy(tmp("wrong_e.npy").toStdString(), Tensor({1, 5, 12}));
        io::write_npy(tmp("kpm_bad.npy").toStdString(), Tensor({1, 9}));
        io::write_npy_bool(tmp("mask_bool.npy").toStdString(),
                           Mask::boolean({1, 5, 16}, std::vector<float>(80, 0.0f)));
        Tensor nan({1, 5, 16});
        nan.data[7] = std::numeric_limits<float>::quiet_NaN();
        io::write_npy(tmp("nan.npy").toStdString(), nan);

        const QString out = tmp("out.npy");
        const QString w = golden("self_basic", "weights.safetensors");
        const QString q = golden("self_basic", "query.npy");
        const struct {
            QStringList args;
            int status;
            const char* needle;
        } cases[] = {
            {{"attend", "--query", q}, 2, "--weights is required"},
            {attend_args(out) + QStringList{"--bogus"}, 2, "unknown option --bogus"},
            {attend_args(out) + QStringList{"--caual"}, 2, "did you mean --causal"},
            {attend_args(out) + QStringList{"--dropout", "1.5", "--train"}, 2,
             "--dropout must be in"},
            {attend_args(out) + QStringList{"--dropout", "abc"}, 2, "--dropout needs a number"},
            {attend_args(out) + QStringList{"--masked-rows", "maybe"}, 2,
             "--masked-rows must be zero, uniform or nan"},
            {attend_args(out) + QStringList{"--threads", "0"}, 2, "--threads must be between"},
            {{"frobnicate"}, 2, "unknown command 'frobnicate'"},
            {{"attend", "--weights", w, "--query", q, "--num-heads", "3", "--out-weights", out},
             1,
             "embed_dim 16 is not divisible by num_heads 3"},
            {{"attend", "--weights", tmp("missing.safetensors"), "--query", q, "--num-heads", "4",
              "--out-weights", out},
             1,
             "missing.safetensors"},
            {{"attend", "--weights", tmp("garbage.safetensors"), "--query", q, "--num-heads", "4",
              "--out-weights", out},
             1,
             "garbage.safetensors"},
            {{"attend", "--weights", tmp("lying.safetensors"), "--query", q, "--num-heads", "4",
              "--out-weights", out},
             1,
             "lying.safetensors"},
            {{"attend", "--weights", w, "--query", tmp("empty.npy"), "--num-heads", "4",
              "--out-weights", out},
             1,
             "empty.npy"},
            {{"attend", "--weights", w, "--query", tmp("huge.npy"), "--num-heads", "4",
              "--out-weights", out},
             1,
             "huge.npy"},
            {{"attend", "--weights", w, "--query", tmp("wrong_e.npy"), "--num-heads", "4",
              "--out-weights", out},
             1,
             "query is [1,5,12]"},
            {{"attend", "--weights", w, "--query", tmp("mask_bool.npy"), "--num-heads", "4",
              "--out-weights", out},
             1,
             "mask_bool.npy"},
            {{"attend", "--weights", w, "--query", tmp("nan.npy"), "--num-heads", "4",
              "--out-weights", out},
             1,
             "element 7 is NaN"},
            {attend_args(out) + QStringList{"--key-padding-mask", tmp("kpm_bad.npy")}, 1,
             "key_padding_mask is [1,9] but keys are [1,5]"},
            {attend_args(tmp("no/such/folder/a.npy")), 1, "does not exist"},
            {attend_args(QString::fromStdString(test::temp_dir())), 1, "is a folder"},
            {{"tokenize", "--text", ""}, 1, "no tokens"},
            {{"tokenize", "--text", "   "}, 1, "no tokens"},
            {{"bench", "--tokens", "8", "--embed-dim", "10", "--num-heads", "3"},
             2,
             "not divisible"},
        };
        for (const auto& c : cases) {
            QFile::remove(out);
            const Run r = test::run_cli(c.args);
            const QString what = c.args.join(' ');
            QVERIFY2(r.status == c.status,
                     qPrintable(QStringLiteral("%1: status %2, want %3; stderr: %4")
                                    .arg(what)
                                    .arg(r.status)
                                    .arg(c.status)
                                    .arg(r.err)));
            QVERIFY2(r.err.contains(QLatin1String(c.needle)),
                     qPrintable(
                         QStringLiteral("%1: stderr '%2' lacks '%3'").arg(what, r.err, c.needle)));
            QVERIFY2(r.err.trimmed().count('\n') <= 1,
                     qPrintable("more than one message: " + r.err));
            QVERIFY2(!QFile::exists(out), qPrintable(what + ": left an output file"));
        }
        // Nothing but our own inputs in the temporary folder: no stray temporary files.
        for (const QString& f :
             QDir(QString::fromStdString(test::temp_dir())).entryList(QDir::Files))
            QVERIFY2(!f.startsWith('.'), qPrintable("stray file " + f));
    }

    void help_is_generated_for_every_subcommand() {
        const Run root = test::run_cli({"--help"});
        QCOMPARE(root.status, 0);
        QVERIFY(root.err.isEmpty());
        for (const QString& sub : kSubcommands) {
            QVERIFY2(root.out.contains(QStringLiteral("\n  %1 ").arg(sub)), qPrintable(sub));
            const Run r = test::run_cli({sub, "--help"});
            QCOMPARE(r.status, 0);
            QVERIFY2(r.out.contains(QStringLiteral("Usage: attnviz %1 [OPTIONS]").arg(sub)),
                     qPrintable(r.out));
            QVERIFY(r.err.isEmpty());
        }
        // The desktop app's usage: what PATH may be, its options and Qt's.
        for (const char* part :
             {"Usage: attnviz [OPTIONS] [PATH]", "\nDesktop app:\n", "--lang en|zh_CN|system",
              "--platform NAME[:OPTIONS]", "also -platform", "a .attnviz session"})
            QVERIFY2(root.out.contains(QLatin1String(part)), part);
        // The hidden options that write the man page and the completion are not offered.
        QVERIFY(!root.out.contains("--man"));
        QVERIFY(!root.out.contains("--completion"));
        // Grouped options, each with its placeholder, range and default.
        const Run attend = test::run_cli({"attend", "--help"});
        for (const char* part :
             {"\nMasks:\n", "\nMemory budget:\n", "\nPerformance:\n", "--threads T",
              "(1 to 256, default 1)", "--masked-rows zero|uniform|nan", "--dropout P",
              "--dropout-seed D"})
            QVERIFY2(attend.out.contains(QLatin1String(part)), part);
        // `help SUB` is SUB --help; --help wins over a bad value given with it.
        QCOMPARE(test::run_cli({"help", "attend"}).out, attend.out);
        const Run both = test::run_cli({"attend", "--threads", "0", "--help"});
        QCOMPARE(both.status, 0);
        QCOMPARE(both.out, attend.out);
        const Run version = test::run_cli({"--version"});
        QCOMPARE(version.status, 0);
        // The version, the matrix-product backend and the SIMD path this machine runs.
        const QStringList lines = version.out.trimmed().split('\n');
        QVERIFY2(lines.size() == 3 && lines[0].startsWith("attnviz "), qPrintable(version.out));
        QVERIFY2(
            lines[1].contains(QRegularExpression("^matrix products: (oneDNN|OpenBLAS|Eigen) ")),
            qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QRegularExpression("^softmax: (scalar|sse2|avx2|avx512|neon)$")),
                 qPrintable(lines[2]));
    }

    void usage_errors_are_one_line_naming_the_subcommand_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        QTest::newRow("given twice") << QStringList{"tokenize", "--text", "a", "--text", "b"}
                                     << "attnviz tokenize: --text is given twice";
        QTest::newRow("no value") << QStringList{"tokenize", "--text"}
                                  << "attnviz tokenize: --text needs a value";
        QTest::newRow("stray") << QStringList{"tokenize", "--text", "a", "stray"}
                               << "attnviz tokenize: unexpected argument 'stray'";
        QTest::newRow("flag with a value")
            << QStringList{"tokenize", "--lowercase=yes", "--text", "a"}
            << "attnviz tokenize: --lowercase takes no value";
        QTest::newRow("near command")
            << QStringList{"atend"} << "attnviz: unknown command 'atend' (did you mean attend?)";
        QTest::newRow("unknown root option")
            << QStringList{"--bogus"} << "attnviz: unknown option --bogus (see attnviz --help)";
        QTest::newRow("unknown short option")
            << QStringList{"-x"} << "attnviz: unknown option -x (see attnviz --help)";
        QTest::newRow("no such subcommand")
            << QStringList{"bogus-subcommand"}
            << "attnviz: unknown command 'bogus-subcommand' (no subcommand, file or folder of that "
               "name) (see attnviz --help)";
        QTest::newRow("no such file")
            << QStringList{"no/such/model"} << "attnviz: no such file or folder 'no/such/model'";
        QTest::newRow("two paths")
            << QStringList{".", ".."} << "attnviz: the desktop app opens one PATH, not also '..'";
        QTest::newRow("unknown language")
            << QStringList{"--lang", "bogus"}
            << "attnviz: --lang must be en, zh_CN or system, not 'bogus'";
        QTest::newRow("Qt option without its value")
            << QStringList{"-platform"} << "attnviz: --platform needs a value";
        QTest::newRow("window option with a subcommand")
            << QStringList{"--lang", "en", "tokenize", "--text", "a"}
            << "attnviz: --lang is for the desktop app: it does not go with attnviz tokenize";
        QTest::newRow("unknown before missing")
            << QStringList{"attend", "--bogus"} << "attnviz attend: unknown option --bogus";
        QTest::newRow("softmax option alone")
            << QStringList{"bench", "--rows", "5"} << "attnviz bench: --rows needs --softmax";
        QTest::newRow("modes mixed")
            << QStringList{"bench", "--softmax", "--rows", "4", "--cols", "4", "--tokens", "8"}
            << "attnviz bench: use either --tokens or --softmax, not both";
        QTest::newRow("no weights to a softmax")
            << QStringList{"bench", "--softmax", "--rows", "4", "--cols", "4", "--no-weights"}
            << "attnviz bench: use either --no-weights or --softmax, not both";
        QTest::newRow("not a number") << QStringList{"bench", "--softmax", "--rows", "0x10"}
                                      << "attnviz bench: --rows needs a whole number, got '0x10'";
        QTest::newRow("seed below 0")
            << attend_args(tmp("never.npy")) + QStringList{"--seed", "-1"}
            << "attnviz attend: --seed must be between 0 and 9223372036854775807, got -1";
        QTest::newRow("export choice")
            << QStringList{"export", "--text", "a", "--colormap", "jet", "--out", tmp("c.png")}
            << "attnviz export: --colormap must be viridis, cividis, magma or grey, not 'jet'";
    }
    void usage_errors_are_one_line_naming_the_subcommand() {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        // With no display: a command line that opened the window would fail, not wait.
        const Run r = run_headless(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.startsWith(line), qPrintable(r.err));
        QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void the_desktop_apps_arguments_are_declared() {
        const QString dir = tmp("gui_model");
        QVERIFY(QDir().mkpath(dir));
        write_bytes(dir + "/config.json", "{}");
        write_bytes(dir + "/model.safetensors", "");
        write_bytes(tmp("lesson.attnviz"), "{}");
        write_bytes(tmp("notes.txt"), "");
        using Kind = cli::ParsedCommandLine::Kind;
        struct Case {
            QStringList args;
            std::string lang, model, session;
            std::vector<std::string> canonical;
            std::vector<std::string> qt = {};  ///< QApplication's arguments
        };
        const std::string d = dir.toStdString(), s = tmp("lesson.attnviz").toStdString();
        const Case cases[] = {
            {{}, "", "", "", {}},
            {{"--lang", "zh_CN", dir}, "zh_CN", d, "", {"--lang", "zh_CN", "--", d}},
            {{"--lang=system", tmp("lesson.attnviz")},
             "system",
             "",
             s,
             {"--lang", "system", "--", s}},
            {{dir + "/config.json"}, "", d, "", {"--", d + "/config.json"}},
            {{dir + "/model.safetensors"}, "", d, "", {"--", d + "/model.safetensors"}},
            // Qt's options, in Qt's spelling or ours, with or without '=', in any order.
            {{"-platform", "offscreen", "-style=fusion", "--reverse", "-qmljsdebugger=port:9",
              "-plugin", "a", "-plugin", "b", "--lang", "en"},
             "en",
             "",
             "",
             {"--lang", "en", "--platform", "offscreen", "--plugin", "a", "--plugin", "b",
              "--qmljsdebugger", "port:9", "--style", "fusion", "--reverse"},
             // As Qt reads them: -qmljsdebugger only with '='.
             {"-platform", "offscreen", "-plugin", "a", "-plugin", "b", "-qmljsdebugger=port:9",
              "-style", "fusion", "-reverse"}},
        };
        for (const Case& c : cases) {
            const cli::ParsedCommandLine p = parse_gui(c.args);
            const QString what = c.args.join(' ');
            QVERIFY2(p.kind == Kind::Gui,
                     qPrintable(what + ": " + QString::fromStdString(p.output)));
            QCOMPARE(p.status, 0);
            QCOMPARE(p.gui.lang, c.lang);
            QCOMPARE(p.gui.model_folder, c.model);
            QCOMPARE(p.gui.session, c.session);
            QCOMPARE(p.canonical, c.canonical);
            QCOMPARE(p.gui.qt_arguments, c.qt);
            std::vector<std::string> again_args = p.canonical;
            const cli::ParsedCommandLine again = cli::parse_command_line(again_args);
            QVERIFY(again.kind == Kind::Gui);
            QCOMPARE(again.canonical, p.canonical);
            QCOMPARE(again.gui.qt_arguments, p.gui.qt_arguments);
        }
        // A file that is neither a model's nor a session: refused, not opened.
        const cli::ParsedCommandLine notes = parse_gui({tmp("notes.txt")});
        QVERIFY(notes.kind == Kind::Error);
        QCOMPARE(notes.status, 2);
        QVERIFY2(QString::fromStdString(notes.output).contains("is neither a model folder"),
                 notes.output.c_str());
    }

    void man_page_covers_the_command_line() {
        const QByteArray man = built_file("attnviz.1");
        QVERIFY2(man.startsWith(".\\\""), "no generated attnviz.1 next to the program");
        QVERIFY(man.contains(".TH ATTNVIZ 1 "));
        for (const QString& sub : kSubcommands)
            QVERIFY2(man.contains(QStringLiteral(".SS \"attnviz %1 [OPTIONS]\"").arg(sub).toUtf8()),
                     qPrintable(sub));
        for (const char* option : {"\\-\\-weights", "\\-\\-colormap", "\\-\\-lang",
                                   "\\-\\-platform", "\\-\\-memory\\-budget"})
            QVERIFY2(man.contains(option), option);
        QVERIFY(!man.contains("\\-\\-man"));
        // groff reads it without a warning (when groff is there to ask).
        QProcess groff;
        groff.start(QStringLiteral("groff"), {"-man", "-Tutf8", "-ww", "-z"});
        if (!groff.waitForStarted()) QSKIP("no groff");
        groff.write(man);
        groff.closeWriteChannel();
        QVERIFY(groff.waitForFinished(30000));
        QCOMPARE(groff.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(groff.readAllStandardError()), QString());
    }

    void bash_completes_subcommands_and_their_options() {
        QCOMPARE(complete({"attnviz", "exp"}), QStringList{"export"});
        QVERIFY(complete({"attnviz", ""}).contains("generate"));
        QCOMPARE(complete({"attnviz", "attend", "--wei"}), QStringList{"--weights"});
        QCOMPARE(complete({"attnviz", "export", "--colormap", ""}),
                 (QStringList{"viridis", "cividis", "magma", "grey"}));
        QCOMPARE(complete({"attnviz", "export", "--view", "c"}),
                 (QStringList{"compare", "circuits"}));
        QCOMPARE(complete({"attnviz", "export", "--view", "pr"}), QStringList{"predictions"});
        QCOMPARE(complete({"attnviz", "export", "--abl"}),
                 (QStringList{"--ablate", "--ablate-mode"}));
        QCOMPARE(complete({"attnviz", "export", "--ablate-mode", ""}),
                 (QStringList{"zero", "mean"}));
        QCOMPARE(complete({"attnviz", "--lang", ""}), (QStringList{"en", "zh_CN", "system"}));
        QCOMPARE(complete({"attnviz", "-platformt"}), QStringList{"-platformtheme"});
        // A number completes to nothing; a subcommand's options are its own.
        QCOMPARE(complete({"attnviz", "bench", "--tokens", ""}), QStringList{});
        QCOMPARE(complete({"attnviz", "tokenize", "--colormap"}), QStringList{});
    }

    void an_empty_value_after_equals_is_the_value() {
        // "--text=" is an empty text, as "--text ''" is: --lowercase stays an option.
        const Run r = test::run_cli({"tokenize", "--text=", "--lowercase"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("no tokens"), qPrintable(r.err));
        // A value may start with '-'.
        const Run dash = test::run_cli({"tokenize", "--text", "-x"});
        QVERIFY2(dash.status == 0, qPrintable(dash.err));
        QCOMPARE(dash.out.trimmed(), QStringLiteral("[\"-\",\"x\"]"));
    }

    void seed_is_the_dropout_seed_unless_dropout_seed() {
        // attend reads its weights from a file, so --seed seeds the dropout mask, and
        // --dropout-seed overrides it: the same rule as export's.
        const QString a = tmp("sa.npy"), b = tmp("sb.npy"), c = tmp("sc.npy");
        const QStringList dropout{"--dropout", "0.5", "--train"};
        for (const auto& [path, seeds] : {std::pair{a, QStringList{"--seed", "7"}},
                                          {b, QStringList{"--seed", "3", "--dropout-seed", "7"}},
                                          {c, QStringList{"--seed", "3"}}}) {
            const Run r = test::run_cli(attend_args(path) + dropout + seeds);
            QVERIFY2(r.status == 0, qPrintable(r.err));
        }
        QCOMPARE(read_bytes(a), read_bytes(b));
        QVERIFY(read_bytes(a) != read_bytes(c));
    }

    void failed_write_keeps_the_previous_file() {
        const QString out = tmp("keep.npy");
        write_bytes(out, "previous contents");
        // An output whose folder is missing is refused before anything is written...
        Run r = test::run_cli(attend_args(out) + QStringList{"--out-output", tmp("nope/o.npy")});
        QCOMPARE(r.status, 1);
        QCOMPARE(read_bytes(out), QByteArray("previous contents"));
        // ...and a successful run replaces it whole.
        r = test::run_cli(attend_args(out));
        QCOMPARE(r.status, 0);
        QVERIFY(read_bytes(out).startsWith("\x93NUMPY"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
