// `attnviz view --attentions A --tokens T` checks the maps before any window opens, and
// `attnviz export --attentions` draws from them: bad data exits 1 with one line naming the file
// and the problem, a usage mistake exits 2.  (The window
// on good files: ui_attention_maps_test.)  Files: tests/data/attention_maps/make_attention_maps.py.
#include <QTest>

#include <cmath>
#include <vector>

#include "engine/io/attention_arrays.h"
#include "engine/io/npy.h"
#include "test_support.h"

using namespace attnviz;

namespace {
QString maps_file(const char* name) {
    return QString::fromStdString(test::data_dir()) + QStringLiteral("/attention_maps/") +
           QLatin1String(name);
}
}  // namespace

class TestCliAttentionMaps : public QObject {
    Q_OBJECT

  private slots:
    void refusesBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const auto view = [](const char* maps, const char* tokens) {
            QStringList a{QStringLiteral("view"), QStringLiteral("--attentions"), maps_file(maps)};
            if (tokens) a << QStringLiteral("--tokens") << maps_file(tokens);
            return a;
        };
        QTest::newRow("wrong L") << view("maps_f32.npy", "bad_tokens_9.json") << 1
                                 << "bad_tokens_9.json: 9 tokens but the maps in";
        QTest::newRow("NaN") << view("bad_nan.npy", "tokens.json") << 1
                             << "bad_nan.npy: layer 2, head 3, row 5, column 1 is NaN "
                                "(counted from 1); attention maps must be finite";
        QTest::newRow("not square") << view("bad_not_square.npy", nullptr) << 1
                                    << "bad_not_square.npy: the maps are 10 × 9";
        QTest::newRow("bad shape") << view("bad_2d.npy", nullptr) << 1
                                   << "bad_2d.npy: the maps are [10,10]; expected [layers, heads";
        QTest::newRow("safetensors names") << view("bad_names.safetensors", nullptr) << 1
                                           << "tensor 'attn.1' is not one of layer.0";
        QTest::newRow("tokens file broken")
            << view("maps_f32.npy", "maps_f16.npy") << 1 << "maps_f16.npy: not valid JSON";
        QTest::newRow("no --attentions")
            << QStringList{QStringLiteral("view"), QStringLiteral("--tokens"),
                           maps_file("tokens.json")}
            << 2 << "--attentions is required";
        const QString lonely =
            QString::fromStdString(test::fresh_dir("lonely")) + QStringLiteral("/A.npy");
        QFile::copy(maps_file("maps_f32.npy"), lonely);
        QTest::newRow("no tokens beside")
            << QStringList{QStringLiteral("view"), QStringLiteral("--attentions"), lonely} << 2
            << "--tokens is required: there is no tokens.json beside";
    }
    void exportRefusesAsViewDoes_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QString out = test::temp_path(QStringLiteral("x.png"));
        QTest::newRow("NaN in a layer the figure does not show")
            << QStringList{QStringLiteral("export"), QStringLiteral("--attentions"),
                           maps_file("bad_nan.npy"), QStringLiteral("--out"), out}
            << 1 << "layer 2, head 3, row 5, column 1 is NaN";
        QTest::newRow("steps need the model")
            << QStringList{QStringLiteral("export"),
                           QStringLiteral("--attentions"),
                           maps_file("maps_f32.npy"),
                           QStringLiteral("--view"),
                           QStringLiteral("steps"),
                           QStringLiteral("--out"),
                           out}
            << 2 << "--view steps needs a model: maps read from a file hold only its result";
        QTest::newRow("no text with maps") << QStringList{QStringLiteral("export"),
                                                          QStringLiteral("--attentions"),
                                                          maps_file("maps_f32.npy"),
                                                          QStringLiteral("--text"),
                                                          QStringLiteral("a b"),
                                                          QStringLiteral("--out"),
                                                          out}
                                           << 2 << "--attentions brings its own tokens";
        QTest::newRow("layer past the file's") << QStringList{QStringLiteral("export"),
                                                              QStringLiteral("--attentions"),
                                                              maps_file("maps_f32.npy"),
                                                              QStringLiteral("--layer"),
                                                              QStringLiteral("3"),
                                                              QStringLiteral("--out"),
                                                              out}
                                               << 2 << "--layer 3: maps_f32.npy has 2 layers";
    }
    void exportRefusesAsViewDoes() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        const test::CliRun r = test::run_cli(args);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.startsWith(QStringLiteral("attnviz export: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("x.png"))));
    }

    void exportsTheAtlasOfMapsFromAFile() {
        // Every head measured from the file; the induction score needs the model (-1); the
        // rows' warning on stderr, not a refusal.
        const QString out = test::temp_path(QStringLiteral("atlas.csv"));
        const test::CliRun r =
            test::run_cli({QStringLiteral("export"), QStringLiteral("--attentions"),
                           maps_file("rows_not_one.npy"), QStringLiteral("--attention-tokens"),
                           maps_file("tokens_list.json"), QStringLiteral("--view"),
                           QStringLiteral("atlas"), QStringLiteral("--out"), out});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.contains(QStringLiteral("warning: ")) &&
                     r.err.contains(QStringLiteral("layer 2, head 3, row 7 sums to 0.9")),
                 qPrintable(r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 2 * 4);
        QVERIFY(lines.front().startsWith(QStringLiteral("layer,head,entropy")));
        for (const QString& line : lines.mid(1))
            QCOMPARE(line.split(QLatin1Char(',')).at(8), QStringLiteral("-1"));  // induction
    }

    void attendsOwnFilesRoundTripWithWords_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("window");
        QTest::newRow("gpt2, whole") << "gpt2_lmhead"
                                     << "";
        QTest::newRow("bert, whole") << "bert_mlm_prefix"
                                     << "";
        QTest::newRow("qwen2, window 2:4") << "qwen2_bias_bf16"
                                           << "2:4";
    }
    void attendsOwnFilesRoundTripWithWords() {
        // attend --out-weights --out-tokens writes what view --attentions --tokens reads: one
        // token per row (the window's with --window), the tokenizer's ids and pieces, and the
        // offsets with the "input" they count in, so the Words box can group the pieces: each
        // piece's label is its span of the input.
        QFETCH(QString, model);
        QFETCH(QString, window);
        const QString text = QStringLiteral("The caf\u00e9's cat sat, unhappily, on 2 mats.");
        const QString dir = QString::fromStdString(test::golden_dir() + "/models/") + model;
        const QString maps = test::temp_path(model + QStringLiteral("_A.npy"));
        const QString tokens = test::temp_path(model + QStringLiteral("_T.json"));
        QStringList args{QStringLiteral("attend"),
                         QStringLiteral("--model"),
                         dir,
                         QStringLiteral("--text"),
                         text,
                         QStringLiteral("--out-weights"),
                         maps,
                         QStringLiteral("--out-tokens"),
                         tokens};
        if (!window.isEmpty()) args << QStringLiteral("--window") << window;
        test::CliRun r = test::run_cli(args);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = test::run_cli({QStringLiteral("tokenize"), QStringLiteral("--model"), dir,
                           QStringLiteral("--text"), text});
        QCOMPARE(r.status, 0);
        const io::AttentionTokens all = io::parse_attention_tokens(r.out.toStdString(), "tokenize");
        const io::AttentionTokens t = io::read_attention_tokens(tokens.toStdString());
        const io::AttentionArrays a = io::AttentionArrays::open(maps.toStdString());
        io::check_tokens(a, t, tokens.toStdString());  // one token per row, or DataError
        std::size_t begin = 0, count = all.size();
        if (!window.isEmpty()) {
            begin = window.section(QLatin1Char(':'), 0, 0).toULongLong() - 1;  // from 1
            count = window.section(QLatin1Char(':'), 1, 1).toULongLong();
        }
        QCOMPARE(t.size(), count);
        QCOMPARE(t.input, text.toStdString());
        QCOMPARE(t.offsets.size(), count);
        const std::u32string input = text.toStdU32String();
        for (std::size_t k = 0; k < count; ++k) {
            QCOMPARE(t.ids[k], all.ids[begin + k]);
            QCOMPARE(t.text[k], all.text[begin + k]);
            QCOMPARE(t.offsets[k], all.offsets[begin + k]);
            if (t.special[k]) continue;
            const auto [b, e] = t.offsets[k];
            const QString span = QString::fromStdU32String(
                input.substr(static_cast<std::size_t>(b), static_cast<std::size_t>(e - b)));
            QVERIFY2(QString::fromStdString(t.text[k]).trimmed() == span.trimmed() ||
                         QString::fromStdString(t.text[k]).contains(QLatin1Char('[')),
                     qPrintable(QStringLiteral("token %1: \"%2\" but the input has \"%3\"")
                                    .arg(k)
                                    .arg(QString::fromStdString(t.text[k]), span)));
        }
        // The window's words: the file opens with its tokens and draws grouped.
        const QString png = test::temp_path(model + QStringLiteral("_words.png"));
        r = test::run_cli({QStringLiteral("export"), QStringLiteral("--attentions"), maps,
                           QStringLiteral("--attention-tokens"), tokens, QStringLiteral("--words"),
                           QStringLiteral("--out"), png});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(png));
    }

    void comparesTwoCheckpointsWrittenByAttend_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("head");  // from 1; 0: the mean over heads
        QTest::newRow("head 2 of layer 2") << "compare:2" << 2;
        QTest::newRow("mean of layer 2") << "compare" << 0;
    }
    void comparesTwoCheckpointsWrittenByAttend() {
        // Two checkpoints of one architecture and tokenizer (BERT with and without its MLM head's
        // training) on the same text, written by attend, compared by export: the CSV holds every
        // cell of A, B and B - A as the two files have them.
        QFETCH(QString, view);
        QFETCH(int, head);
        const QString text = QStringLiteral("the cat sat on the mat");
        QString files[2];
        const char* models[] = {"bert_gamma_beta", "bert_mlm_prefix"};
        for (int k = 0; k < 2; ++k) {
            const QString dir = QString::fromStdString(
                test::fresh_dir(std::string("ckpt") + char('1' + k) + "_" +
                                view.toStdString().substr(0, 7) + std::to_string(head)));
            files[k] = dir + QStringLiteral("/A.npy");
            const test::CliRun r = test::run_cli(
                {QStringLiteral("attend"), QStringLiteral("--model"),
                 QString::fromStdString(test::golden_dir() + "/models/") + QLatin1String(models[k]),
                 QStringLiteral("--text"), text, QStringLiteral("--out-weights"), files[k],
                 QStringLiteral("--out-tokens"), dir + QStringLiteral("/tokens.json")});
            QVERIFY2(r.status == 0, qPrintable(r.err));
        }
        const QString csv = test::temp_path(QStringLiteral("compare_%1.csv").arg(head));
        const test::CliRun r = test::run_cli(
            {QStringLiteral("export"), QStringLiteral("--attentions"), files[0],
             QStringLiteral("--b-attentions"), files[1], QStringLiteral("--layer"),
             QStringLiteral("2"), QStringLiteral("--view"), view, QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // the same tokens: no warning
        const io::AttentionArrays a = io::AttentionArrays::open(files[0].toStdString());
        const io::AttentionArrays b = io::AttentionArrays::open(files[1].toStdString());
        const auto L = int(a.length()), H = int(a.heads());
        QCOMPARE(L, 8);  // [CLS] the cat sat on the mat [SEP]
        std::vector<float> la(a.layer_values()), lb(b.layer_values());
        a.read_layer(1, la.data());
        b.read_layer(1, lb.data());
        const auto weight = [&](const std::vector<float>& maps, int i, int j) {
            if (head > 0) return double(maps[std::size_t(((head - 1) * L + i) * L + j)]);
            double sum = 0.0;
            for (int h = 0; h < H; ++h)
                sum += double(maps[std::size_t((h * L + i) * L + j)]);
            return sum / H;
        };
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + L * L);
        QCOMPARE(lines.front(), QStringLiteral("query,key,a_query_token,a_key_token,b_query_token,"
                                               "b_key_token,a,b,b_minus_a"));
        double largest = 0.0;
        for (const QString& line : lines.mid(1)) {
            const QStringList c = line.split(QLatin1Char(','));
            QCOMPARE(c.size(), 9);
            const int i = c[0].toInt() - 1, j = c[1].toInt() - 1;
            const double wa = weight(la, i, j), wb = weight(lb, i, j);
            // A head: the file's float itself (9 digits round-trip a float); the mean: float sums.
            const auto same = [&](const QString& cell, double want) {
                return head > 0 ? float(cell.toDouble()) == float(want)
                                : std::abs(cell.toDouble() - want) <= 1e-6;
            };
            QVERIFY2(
                same(c[6], wa) && same(c[7], wb) && std::abs(c[8].toDouble() - (wb - wa)) <= 1e-6,
                qPrintable(QStringLiteral("cell (%1, %2): %3 but the files give %4, %5")
                               .arg(i + 1)
                               .arg(j + 1)
                               .arg(line)
                               .arg(wa)
                               .arg(wb)));
            QCOMPARE(c[2], c[4]);  // the same tokens on both sides
            largest = std::max(largest, std::abs(wb - wa));
        }
        QVERIFY(largest > 0.05);  // two checkpoints: their maps really differ
        QCOMPARE(lines[1 + 2].section(QLatin1Char(','), 2, 3), QStringLiteral("[CLS],cat"));

        // The figure of the same comparison, and `attnviz view` accepts the pair.
        const QString png = test::temp_path(QStringLiteral("compare_%1.png").arg(head));
        const test::CliRun fig =
            test::run_cli({QStringLiteral("export"), QStringLiteral("--attentions"), files[0],
                           QStringLiteral("--b-attentions"), files[1], QStringLiteral("--view"),
                           view, QStringLiteral("--out"), png});
        QVERIFY2(fig.status == 0, qPrintable(fig.err));
        QFile image(png);
        QVERIFY(image.open(QIODevice::ReadOnly));
        QVERIFY(image.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    }

    void tokensSpelledDifferentlyAreAWarning() {
        // The same count of tokens, one spelled otherwise (another tokenizer's pieces): compared
        // position by position, with one warning line naming the first difference.
        const QString csv = test::temp_path(QStringLiteral("other_tokens.csv"));
        const test::CliRun r = test::run_cli(
            {QStringLiteral("export"), QStringLiteral("--attentions"), maps_file("maps_f32.npy"),
             QStringLiteral("--b-attentions"), maps_file("other_tokens/maps_f32.npy"),
             QStringLiteral("--view"), QStringLiteral("compare"), QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("attnviz export: warning: the tokens of ")) &&
                     r.err.contains(QStringLiteral("at 1 of 10 positions (first: position 2, "
                                                   "'I' against 'İ')")),
                 qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        // Row 2, key 1: A's "İ" against B's "I"; the same maps, so no difference anywhere.
        QVERIFY2(lines[1 + 10].startsWith(QStringLiteral("2,1,İ,z,I,z,")), qPrintable(lines[11]));
        QVERIFY(lines[11].endsWith(QStringLiteral(",0")));
    }

    void refusesMapsThatDoNotFit_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QString out = test::temp_path(QStringLiteral("x.png"));
        const auto compare = [&](const char* b, QStringList more = {}) {
            return QStringList{QStringLiteral("export"),
                               QStringLiteral("--attentions"),
                               maps_file("maps_f32.npy"),
                               QStringLiteral("--b-attentions"),
                               maps_file(b),
                               QStringLiteral("--view"),
                               QStringLiteral("compare"),
                               QStringLiteral("--out"),
                               out} +
                   more;
        };
        QTest::newRow("layers") << compare("maps_one_layer.npy") << 1
                                << "maps_one_layer.npy: its maps are [1, 4, 10, 10] but those of "
                                   "/";
        QTest::newRow("layers, named") << compare("maps_one_layer.npy") << 1
                                       << "(layers 1 against 2): two maps compare only with the "
                                          "same layers, heads and tokens";
        QTest::newRow("heads") << compare("maps_3_heads.npy") << 1 << "(heads 3 against 4)";
        QTest::newRow("tokens L") << compare("maps_9_tokens.npy",
                                             {QStringLiteral("--b-attention-tokens"),
                                              maps_file("bad_tokens_9.json")})
                                  << 1 << "(tokens L 9 against 10)";
        QTest::newRow("B's tokens do not fit B")
            << compare("maps_f16.npy",
                       {QStringLiteral("--b-attention-tokens"), maps_file("bad_tokens_9.json")})
            << 1 << "bad_tokens_9.json: 9 tokens but the maps in";
        QTest::newRow("NaN in B") << compare("bad_nan.npy") << 1 << "is NaN";
        QTest::newRow("the same file") << compare("maps_f32.npy") << 2 << "B is the same as A";
        QTest::newRow("a sentence for maps")
            << compare("maps_f16.npy", {QStringLiteral("--b-text"), QStringLiteral("a b")}) << 2
            << "--b-text needs --model: maps read from a file have no sentence to change";
        QTest::newRow("no --view compare") << QStringList{QStringLiteral("export"),
                                                          QStringLiteral("--attentions"),
                                                          maps_file("maps_f32.npy"),
                                                          QStringLiteral("--b-attentions"),
                                                          maps_file("maps_one_layer.npy"),
                                                          QStringLiteral("--out"),
                                                          out}
                                           << 2 << "--b-attentions needs --view compare";
        QTest::newRow("no A") << QStringList{QStringLiteral("export"),
                                             QStringLiteral("--text"),
                                             QStringLiteral("a b"),
                                             QStringLiteral("--b-attentions"),
                                             maps_file("maps_f16.npy"),
                                             QStringLiteral("--view"),
                                             QStringLiteral("compare"),
                                             QStringLiteral("--out"),
                                             out}
                              << 2
                              << "--b-attentions compares two maps files: give A's with "
                                 "--attentions";
        QTest::newRow("tokens without maps") << QStringList{QStringLiteral("export"),
                                                            QStringLiteral("--attentions"),
                                                            maps_file("maps_f32.npy"),
                                                            QStringLiteral("--b-attention-tokens"),
                                                            maps_file("tokens.json"),
                                                            QStringLiteral("--view"),
                                                            QStringLiteral("compare"),
                                                            QStringLiteral("--out"),
                                                            out}
                                             << 2 << "--b-attention-tokens needs --b-attentions";
        const auto view = [](const char* b) {
            return QStringList{QStringLiteral("view"), QStringLiteral("--attentions"),
                               maps_file("maps_f32.npy"), QStringLiteral("--b-attentions"),
                               maps_file(b)};
        };
        QTest::newRow("view: heads") << view("maps_3_heads.npy") << 1 << "(heads 3 against 4)";
        QTest::newRow("view: B broken")
            << view("bad_not_square.npy") << 1 << "bad_not_square.npy: the maps are 10 × 9";
        QTest::newRow("view: tokens without maps")
            << QStringList{QStringLiteral("view"), QStringLiteral("--attentions"),
                           maps_file("maps_f32.npy"), QStringLiteral("--b-tokens"),
                           maps_file("tokens.json")}
            << 2 << "--b-tokens needs --b-attentions";
    }
    void refusesMapsThatDoNotFit() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        const test::CliRun r = test::run_cli(args);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.startsWith(QStringLiteral("attnviz ") + args.front() + QStringLiteral(": ")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("x.png"))));
    }

    void exportEffectiveNormWritesAttendsNumbers_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("head");  // from 1; 0: the heads together (attend's --out-mean)
        QTest::newRow("head 8 of layer 2 vs layer 1") << "compare:8" << 8;
        QTest::newRow("the heads together") << "compare" << 0;
    }
    void exportEffectiveNormWritesAttendsNumbers() {
        // The map views' numbers (compare's CSV: A, B and B - A of every cell) with --effective
        // norm are the norm-based maps attend --effective norm writes, on the shipped model.
        QFETCH(QString, view);
        QFETCH(int, head);
        const QString model = QString::fromStdString(test::golden_dir()) +
                              QStringLiteral("/../../resources/models/attn-only-2l");
        const QString text = QStringLiteral("q7Xv2LmR9tBw4ZkP8sYc3Nq7Xv2LmR9tBw4ZkP8sYc3N");
        const QString dir =
            QString::fromStdString(test::fresh_dir("effective_" + std::to_string(head)));
        const test::CliRun attend = test::run_cli(
            {QStringLiteral("attend"), QStringLiteral("--model"), model, QStringLiteral("--text"),
             text, QStringLiteral("--effective"), QStringLiteral("norm"),
             QStringLiteral("--out-weights"), dir + QStringLiteral("/W.npy"),
             QStringLiteral("--out-mean"), dir + QStringLiteral("/M.npy")});
        QVERIFY2(attend.status == 0, qPrintable(attend.err));
        const QString csv = dir + QStringLiteral("/compare.csv");
        const test::CliRun r = test::run_cli(
            {QStringLiteral("export"), QStringLiteral("--model"), model, QStringLiteral("--text"),
             text, QStringLiteral("--layer"), QStringLiteral("2"), QStringLiteral("--b-layer"),
             QStringLiteral("1"), QStringLiteral("--view"), view, QStringLiteral("--effective"),
             QStringLiteral("norm"), QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0 && r.err.isEmpty(), qPrintable(r.err));
        const Tensor w = io::read_npy((dir + QStringLiteral("/W.npy")).toStdString());
        const Tensor m = io::read_npy((dir + QStringLiteral("/M.npy")).toStdString());
        constexpr int L = 45;  // <|bos|> and the 44 characters
        QCOMPARE(w.shape, (Shape{2, 8, L, L}));
        const auto norm = [&](int layer, int i, int j) {
            return head > 0 ? double(w.data[std::size_t(((layer * 8 + head - 1) * L + i) * L + j)])
                            : double(m.data[std::size_t((layer * L + i) * L + j)]);
        };
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + L * L);
        double largest = 0.0;
        for (const QString& line : lines.mid(1)) {
            const QStringList c = line.split(QLatin1Char(','));
            const int i = c[0].toInt() - 1, j = c[1].toInt() - 1;
            const double a = norm(1, i, j), b = norm(0, i, j);
            QVERIFY2(std::abs(c[6].toDouble() - a) <= 1e-6 && std::abs(c[7].toDouble() - b) <= 1e-6,
                     qPrintable(QStringLiteral("cell (%1, %2): %3, but attend wrote %4 and %5")
                                    .arg(i + 1)
                                    .arg(j + 1)
                                    .arg(line)
                                    .arg(a)
                                    .arg(b)));
            largest = std::max(largest, a);
        }
        QVERIFY(largest > 1.0);  // norms, not weights (each at most 1)
    }

    void effectiveIsRefusedWhereNoMapIsDrawn_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString model = QString::fromStdString(test::golden_dir()) +
                              QStringLiteral("/../../resources/models/attn-only-2l");
        const QString out = test::temp_path(QStringLiteral("x.png"));
        for (const char* view : {"dla", "flow", "circuits", "why", "saliency", "patch", "lens",
                                 "predictions", "steps", "atlas"})
            QTest::newRow(view) << QStringList{QStringLiteral("export"),
                                               QStringLiteral("--model"),
                                               model,
                                               QStringLiteral("--text"),
                                               QStringLiteral("abcabc"),
                                               QStringLiteral("--view"),
                                               QLatin1String(view),
                                               QStringLiteral("--effective"),
                                               QStringLiteral("norm"),
                                               QStringLiteral("--out"),
                                               out}
                                << QStringLiteral("--effective needs a view of attention maps");
        QTest::newRow("maps from a file") << QStringList{QStringLiteral("export"),
                                                         QStringLiteral("--attentions"),
                                                         maps_file("maps_f32.npy"),
                                                         QStringLiteral("--effective"),
                                                         QStringLiteral("norm"),
                                                         QStringLiteral("--out"),
                                                         out}
                                          << QStringLiteral(
                                                 "--effective norm needs the model's "
                                                 "values");
    }
    void effectiveIsRefusedWhereNoMapIsDrawn() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const test::CliRun r = test::run_cli(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("attnviz export: ")) && r.err.contains(message),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("x.png"))));
    }

    void refusesBadInput() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        const test::CliRun r = test::run_cli(args);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.startsWith(QStringLiteral("attnviz view: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);  // one line
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliAttentionMaps)
#include "test_cli_attention_maps.moc"
