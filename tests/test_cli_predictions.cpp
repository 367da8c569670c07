// attnviz predict, patch and generate end to end through the binary, on the golden tiny
// checkpoints: each file equals the engine's own computation, and bad input is one line,
// exit 1 or 2, and no file.
#include <QTest>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cmath>

#include "engine/io/npy.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;

namespace {

std::vector<Index> ids_of(const QJsonArray& a) {
    std::vector<Index> out;
    for (const QJsonValue v : a)
        out.push_back(v.toInteger());
    return out;
}

/// `attnviz export --view predictions --out FILE.csv`'s rows, split at commas (no field of
/// the golden models' texts holds one).
QList<QList<QByteArray>> read_csv(const QString& path) {
    QFile f(path);
    QList<QList<QByteArray>> rows;
    if (!f.open(QIODevice::ReadOnly)) return rows;
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    for (const QByteArray& line : lines)
        rows << line.split(',');
    return rows;
}

/// The predictions CSV of export equals predict's JSON of the same text: every position's
/// top 10 (ids and probabilities) and the loss on each next token.
void compare_predictions(const QString& csv, const QString& json, int L) {
    const QList<QList<QByteArray>> rows = read_csv(csv);
    const QJsonObject o = test::read_json(json);
    QCOMPARE(rows.size(), 1 + L * 10);
    QCOMPARE(rows[0].join(','), QByteArray("position,token,next_token,loss,rank,id,prediction,"
                                           "probability"));
    const QJsonArray top = o.value("top").toArray(), next = o.value("next_logprob").toArray();
    for (int r = 1; r < rows.size(); ++r) {
        const QList<QByteArray>& row = rows[r];
        QCOMPARE(row.size(), 8);
        const int position = row[0].toInt(), rank = row[4].toInt();
        const QJsonObject want = top[position - 1].toArray()[rank - 1].toObject();
        QCOMPARE(row[5].toLongLong(), want.value("id").toInteger());
        const double p = row[7].toDouble(), p_want = std::exp(want.value("logprob").toDouble());
        QVERIFY2(std::abs(p - p_want) < 1e-5,
                 qPrintable(QStringLiteral("row %1: %2 vs %3").arg(r).arg(p).arg(p_want)));
        if (position == L) {
            QVERIFY(row[3].isEmpty());  // nothing follows the last piece
        } else {
            const double loss_want = -next[position - 1].toDouble();
            QVERIFY2(std::abs(row[3].toDouble() - loss_want) < 1e-4,
                     qPrintable(QStringLiteral("row %1: loss %2 vs %3")
                                    .arg(r)
                                    .arg(QString::fromUtf8(row[3]))
                                    .arg(loss_want)));
        }
    }
}

/// The mean of the CSV's losses (one per position).
double mean_csv_loss(const QString& csv) {
    double sum = 0.0;
    int n = 0;
    for (const QList<QByteArray>& row : read_csv(csv).mid(1))
        if (row[4] == "1" && !row[3].isEmpty()) {
            sum += row[3].toDouble();
            ++n;
        }
    return n ? sum / n : std::nan("");
}

}  // namespace

class TestCliPredictions : public QObject {
    Q_OBJECT
  private slots:
    void predictWritesTheEnginesLogitsLensAndLoss() {
        const QString dir = test::golden_model("llama_gqa");
        const QString logits = test::temp_path("logits.npy"), js = test::temp_path("p.json");
        const auto r =
            test::run_cli({"predict", "--model", dir, "--text", "Hello world again", "--lens",
                           "--top-k", "3", "--ablate", "1.2,2.4", "--ablate-mode", "mean",
                           "--out-logits", logits, "--out-json", js});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = test::read_json(js);
        const std::vector<Index> ids = ids_of(o.value("ids").toArray());
        const auto m = models::open_model_folder(dir.toStdString());
        models::PredictOptions po;
        po.lens = true;
        po.interventions =
            models::ablations({{0, 1}, {1, 3}}, models::HeadIntervention::Kind::Mean);
        const models::Prediction p = models::predict(*m.model, {ids, {}}, po);
        const Tensor got = io::read_npy(logits.toStdString());
        QCOMPARE(got.shape, p.logits.shape);
        QVERIFY(got.data == p.logits.data);
        const Index V = m.model->info().vocab_size, L = Index(ids.size());
        const QJsonArray top = o.value("top").toArray();
        QCOMPARE(top.size(), L);
        const auto best = models::top_k(p.logits.ptr() + (L - 1) * V, V, 3);
        QCOMPARE(top.last().toArray().size(), 3);
        QCOMPARE(top.last().toArray().at(0).toObject().value("id").toInteger(), best[0].id);
        QCOMPARE(o.value("lens").toArray().size(), m.model->info().num_layers);
        QCOMPARE(o.value("next_logprob").toArray().size(), L - 1);
        QVERIFY(std::abs(o.value("loss").toDouble() - p.loss) < 1e-5);
        QCOMPARE(o.value("ablated").toArray().size(), 2);
    }

    void patchWritesTheFractionsRestored() {
        const QString dir = test::golden_model("gpt2_lmhead");
        const QString npy = test::temp_path("patch.npy"), js = test::temp_path("patch.json");
        // Two texts one word apart; single bytes are tokens of any byte-level vocabulary.
        const auto r = test::run_cli({"patch", "--model", dir, "--clean", "the cat sat on the",
                                      "--corrupt", "the dog sat on the", "--target", "t",
                                      "--distractor", "c", "--out", npy, "--out-json", js});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Tensor got = io::read_npy(npy.toStdString());
        const QJsonObject o = test::read_json(js);
        QCOMPARE(got.shape, (Shape{2, 4}));
        const double m_clean = o.value("m_clean").toDouble(),
                     m_corrupt = o.value("m_corrupt").toDouble();
        const QJsonArray heads = o.value("heads").toArray();
        QCOMPARE(heads.size(), 8);
        for (const QJsonValue h : heads) {
            const QJsonObject x = h.toObject();
            const Index at = (x.value("layer").toInt() - 1) * 4 + x.value("head").toInt() - 1;
            const double f = (x.value("m_patched").toDouble() - m_corrupt) / (m_clean - m_corrupt);
            QVERIFY(std::abs(got.data[std::size_t(at)] - f) < 1e-3 * std::max(1.0, std::abs(f)));
        }
    }

    void exportViewPatchWritesTheSweep() {
        // attnviz export --view patch, spelled as attnviz patch: the array equals the engine's
        // sweep, and the figure is a whole file.
        const QString dir = test::golden_model("gpt2_lmhead");
        const QStringList inputs = {
            "--clean", "the cat sat on the", "--corrupt", "the dog sat on the", "--target",
            "t",       "--distractor",       "c"};
        const QString npy = test::temp_path("export_patch.npy"),
                      csv = test::temp_path("export_patch.csv"),
                      pdf = test::temp_path("export_patch.pdf");
        for (const QString& out : {npy, csv, pdf}) {
            const auto r = test::run_cli(QStringList{"export", "--model", dir, "--view", "patch"} +
                                         inputs + QStringList{"--out", out});
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        }
        const auto m = models::open_model_folder(dir.toStdString());
        models::PatchRequest request =
            models::patch_request(m, {"the cat sat on the", "the dog sat on the", "t", "c", -1});
        request.num_threads = std::max(1, QThread::idealThreadCount());
        const models::PatchResult want = models::patch_sweep(*m.model, request);
        const Tensor got = io::read_npy(npy.toStdString());
        QCOMPARE(got.shape, (Shape{2, 4}));
        const auto c = test::compare_arrays(got.ptr(), want.fraction.ptr(), 8, 1e-6, 0.0);
        QVERIFY2(c.ok, c.message.c_str());
        QFile table(csv);
        QVERIFY(table.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = table.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 8);
        QVERIFY(std::abs(lines[1].split(',')[4].toDouble() - want.m_clean) < 1e-5);
        QFile figure(pdf);
        QVERIFY(figure.open(QIODevice::ReadOnly));
        QVERIFY(figure.readAll().startsWith("%PDF"));
    }

    void exportViewPredictionsEqualsPredict() {
        // The same text through attnviz predict and attnviz export --view predictions, intact
        // and with heads knocked out (--ablate spelled alike): the same top 10 and losses.
        const QString dir = test::golden_model("gpt2_lmhead");
        const QString text = "the cat sat on the mat";
        for (const QStringList& ablate :
             {QStringList{}, QStringList{"--ablate", "2.1,1.3"},
              QStringList{"--ablate", "2.1", "--ablate-mode", "mean"}}) {
            const QString tag = ablate.join('_').remove('-').replace(',', '_').remove('.');
            const QString js = test::temp_path("pred" + tag + ".json"),
                          csv = test::temp_path("pred" + tag + ".csv");
            auto r = test::run_cli(QStringList{"predict", "--model", dir, "--text", text, "--top-k",
                                               "10", "--out-json", js} +
                                   ablate);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            r = test::run_cli(QStringList{"export", "--model", dir, "--text", text, "--view",
                                          "predictions", "--out", csv} +
                              ablate);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
            const int L = int(test::read_json(js).value("ids").toArray().size());
            QCOMPARE(L, 10);
            compare_predictions(csv, js, L);
            QVERIFY(std::abs(mean_csv_loss(csv) - test::read_json(js).value("loss").toDouble()) <
                    1e-4);
        }
        // Knocking heads out changes the loss, in the export as in predict.
        const double intact = mean_csv_loss(test::temp_path("pred.csv"));
        const double knocked = mean_csv_loss(test::temp_path("predablate_21_13.csv"));
        QVERIFY2(std::abs(knocked - intact) > 1e-3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(knocked).arg(intact)));
    }

    void exportViewPredictionsDrawsAFigure() {
        // A shipped model on a string said twice: its induction head gets the second copy right.
        const QString dir =
            QString::fromStdString(test::golden_dir()) + "/../../resources/models/attn-only-2l";
        const QStringList base = {"export",
                                  "--model",
                                  dir,
                                  "--text",
                                  "q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Q",
                                  "--view",
                                  "predictions",
                                  "--width",
                                  "900",
                                  "--height",
                                  "700"};
        const QString png1 = test::temp_path("pred1.png"), png2 = test::temp_path("pred2.png");
        auto r = test::run_cli(base + QStringList{"--scale", "1", "--out", png1});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = test::run_cli(base + QStringList{"--scale", "2", "--out", png2});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage one(png1), two(png2);
        QVERIFY(!one.isNull());
        // Cut to its content (a short text: less than the canvas asked for), never more.
        QVERIFY2(one.width() > 300 && one.width() <= 900, qPrintable(QString::number(one.width())));
        QVERIFY2(one.height() > 300 && one.height() < 700,
                 qPrintable(QString::number(one.height())));
        QCOMPARE(two.size(), one.size() * 2);
        // The correct guesses' green cells and the box's blue bars are drawn.
        int green = 0, blue = 0;
        for (int y = 0; y < one.height(); ++y)
            for (int x = 0; x < one.width(); ++x) {
                const QRgb c = one.pixel(x, y);
                green += c == qRgb(214, 240, 228);
                blue += c == qRgb(0, 114, 178);
            }
        QVERIFY2(green > 50, qPrintable(QString::number(green)));
        QVERIFY2(blue > 50, qPrintable(QString::number(blue)));
        // A PDF of text and rectangles: no image in it.
        const QString pdf = test::temp_path("pred.pdf");
        r = test::run_cli(base + QStringList{"--ablate", "2.1", "--out", pdf});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(!bytes.contains("/Subtype /Image"));
    }

    void exportAblateChangesEveryModelView() {
        // Layer 2's maps read layer 1's output: a head of layer 1 knocked out changes them,
        // and the logit lens's.
        const QString dir = test::golden_model("gpt2_lmhead");
        const QStringList base = {"export", "--model", dir, "--text", "the cat sat on the mat"};
        auto bytes = [&](const QStringList& args, const QString& name) {
            const QString out = test::temp_path(name);
            const auto r = test::run_cli(base + args + QStringList{"--out", out});
            QFile f(out);
            return r.status == 0 && f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray lens = bytes({"--view", "lens"}, "lens.csv"),
                         lens_knocked = bytes({"--view", "lens", "--ablate", "1.1"}, "lens_k.csv");
        QVERIFY(!lens.isEmpty() && !lens_knocked.isEmpty());
        QVERIFY(lens != lens_knocked);
        const QByteArray grid = bytes({"--view", "mean", "--layer", "2"}, "grid.svg"),
                         grid_knocked = bytes({"--view", "mean", "--layer", "2", "--ablate", "1.1"},
                                              "grid_k.svg");
        QVERIFY(!grid.isEmpty() && !grid_knocked.isEmpty());
        QVERIFY(grid != grid_knocked);
    }

    void exportViewPredictionsOfAMaskedLm() {
        // A masked LM: the top 10 at each mask, no loss.
        const QString csv = test::temp_path("mlm.csv");
        const auto r =
            test::run_cli({"export", "--model", test::golden_model("bert_mlm_prefix"), "--text",
                           "the [MASK] sat", "--view", "predictions", "--out", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QList<QByteArray>> rows = read_csv(csv);
        QCOMPARE(rows.size(), 1 + 10);
        for (const QList<QByteArray>& row : rows.mid(1)) {
            QCOMPARE(row[0], QByteArray("3"));  // [CLS] the [MASK]
            QCOMPARE(row[1], QByteArray("[MASK]"));
            QVERIFY(row[3].isEmpty());
        }
    }

    void generateContinuesWithTheCacheAndItsMapsEqualAttend() {
        const QString dir = test::golden_model("qwen3_qknorm");
        const QString js = test::temp_path("g.json"), maps = test::temp_path("g.npy"),
                      a = test::temp_path("a.npy");
        auto r = test::run_cli({"generate", "--model", dir, "--text", "Hello", "--max-new-tokens",
                                "5", "--out-tokens", js, "--out-weights", maps});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = test::read_json(js);
        std::vector<Index> all = ids_of(o.value("prompt_ids").toArray());
        const std::vector<Index> fresh = ids_of(o.value("ids").toArray());
        QVERIFY(!fresh.empty());
        QVERIFY(o.value("finish").toString() == "eos" || fresh.size() == 5);
        QCOMPARE(o.value("tokens").toArray().size(), Index(fresh.size()));
        all.insert(all.end(), fresh.begin(), fresh.end());
        const auto m = models::open_model_folder(dir.toStdString());
        models::GenerateOptions g;
        g.max_new_tokens = 5;
        g.eos_ids = m.model->config().eos_token_ids;
        QCOMPARE(m.model->generate(ids_of(o.value("prompt_ids").toArray()), g).ids, fresh);
        const Tensor got = io::read_npy(maps.toStdString());
        const auto T = Index(all.size());
        QCOMPARE(got.shape, (Shape{2, 4, T, T}));
        models::CollectingSink sink;
        m.model->forward({all, {}}, {}, sink);
        for (std::size_t l = 0; l < sink.results.size(); ++l) {
            const auto c =
                test::compare_arrays(got.ptr() + l * 4 * T * T, sink.results[l].weights.ptr(),
                                     std::size_t(4 * T * T), 1e-6, 0.0);
            QVERIFY2(c.ok, c.message.c_str());
        }
        // The same seed, the same text.
        const QStringList sample = {"generate", "--model",          dir,  "--text",
                                    "Hello",    "--max-new-tokens", "6",  "--temperature",
                                    "0.8",      "--top-k",          "40", "--top-p",
                                    "0.95",     "--seed",           "3",  "--out-tokens"};
        r = test::run_cli(sample + QStringList{test::temp_path("s1.json")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = test::run_cli(sample + QStringList{test::temp_path("s2.json")});
        QCOMPARE(test::read_json(test::temp_path("s1.json")),
                 test::read_json(test::temp_path("s2.json")));
    }

    void exportGenerateDrawsTheContinuedText() {
        // --generate N: the text continued by the model as `attnviz generate` continues it,
        // greedy and sampled with a seed, with heads knocked out as the window's Continue.
        const QString dir = test::golden_model("qwen3_qknorm");
        for (const QStringList& how :
             {QStringList{}, QStringList{"--temperature", "0.8", "--top-k", "40", "--seed", "3"}}) {
            const QString tag = how.isEmpty() ? "greedy" : "sampled";
            const QString js = test::temp_path("gen_" + tag + ".json"),
                          csv = test::temp_path("gen_" + tag + ".csv");
            QStringList gen = {"generate", "--model",      dir,
                               "--text",   "Hello",        "--max-new-tokens",
                               "5",        "--out-tokens", js};
            QStringList ex = {"export", "--model", dir,           "--text", "Hello", "--generate",
                              "5",      "--view",  "predictions", "--out",  csv};
            if (!how.isEmpty()) {
                // The window's seed moves with the text's length: the generate command's seed
                // for the same draw is 3 * 1000003 + the prompt's tokens.
                const auto m = models::open_model_folder(dir.toStdString());
                const auto P = m.tokenizer.encode("Hello").ids.size();
                gen << "--temperature"
                    << "0.8"
                    << "--top-k"
                    << "40"
                    << "--seed" << QString::number(3 * 1000003 + qint64(P));
                ex << how;
            }
            auto r = test::run_cli(gen);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            r = test::run_cli(ex);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            const QJsonObject o = test::read_json(js);
            std::vector<Index> ids = ids_of(o.value("prompt_ids").toArray());
            const std::vector<Index> fresh = ids_of(o.value("ids").toArray());
            ids.insert(ids.end(), fresh.begin(), fresh.end());
            // The CSV's rank-1 rows name every position's token: prompt and continuation.
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QStringList lines =
                QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
            int positions = 0;
            for (const QString& line : lines.mid(1))
                positions = std::max(positions, line.section(',', 0, 0).toInt());
            QCOMPARE(positions, int(ids.size()));
        }
        // A figure of the continued text.
        const QString png = test::temp_path("gen.png");
        const auto r = test::run_cli({"export", "--model", dir, "--text", "Hello", "--generate",
                                      "4", "--ablate", "1.1", "--view", "grid", "--out", png});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY(QImage(png).width() > 100);
    }

    void badInputIsOneLineAndNoFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("phrase");
        const QString gpt2 = test::golden_model("gpt2_lmhead"),
                      bert = test::golden_model("bert_gamma_beta");
        const QString out = test::temp_path("never.out");
        QTest::newRow("ablate past the heads")
            << QStringList{"predict",  "--model", gpt2,         "--text", "the cat",
                           "--ablate", "2.5",     "--out-json", out}
            << 2 << "does not exist";
        QTest::newRow("top-k 0") << QStringList{"predict", "--model",    gpt2,
                                                "--text",  "the cat",    "--top-k",
                                                "0",       "--out-json", out}
                                 << 2 << "top-k";
        QTest::newRow("no head") << QStringList{"predict", "--model",      bert, "--text",
                                                "the cat", "--out-logits", out}
                                 << 1 << "no masked-LM head";
        QTest::newRow("masked generate")
            << QStringList{"generate", "--model", test::golden_model("roberta"),
                           "--text",   "the cat", "--out-tokens",
                           out}
            << 2 << "causal";
        QTest::newRow("too many new tokens")
            << QStringList{"generate",         "--model", gpt2,           "--text", "the cat",
                           "--max-new-tokens", "100",     "--out-tokens", out}
            << 2 << "positions";
        QTest::newRow("lengths differ")
            << QStringList{"patch",     "--model",     gpt2,       "--clean", "the cat",
                           "--corrupt", "the cat sat", "--target", "t",       "--distractor",
                           "c",         "--out",       out}
            << 2 << "as many tokens";
        QTest::newRow("target of two tokens")
            << QStringList{"patch",     "--model", gpt2,       "--clean", "the cat",
                           "--corrupt", "the dog", "--target", "the cat", "--distractor",
                           "c",         "--out",   out}
            << 2 << "not one";
        // export --view patch: the texts, the target and the out file changed one at a time.
        const auto export_patch = [&](const QString& model, const QString& corrupt,
                                      const QString& target, const QString& file) {
            QStringList args = {"export",  "--model", model,       "--view", "patch",
                                "--clean", "the cat", "--corrupt", corrupt};
            if (!target.isEmpty()) args << "--target" << target;
            return args + QStringList{"--distractor", "c", "--out", file};
        };
        const QString never_npy = test::temp_path("never.npy");
        QTest::newRow("export patch: lengths differ")
            << export_patch(gpt2, "the cat sat", "t", never_npy) << 2 << "as many tokens";
        QTest::newRow("export patch: a target of two tokens")
            << export_patch(gpt2, "the dog", "the cat", never_npy) << 2 << "not one";
        QTest::newRow("export patch: no target")
            << export_patch(gpt2, "the dog", "", never_npy) << 2
            << "needs --clean, --corrupt, --target and --distractor";
        QTest::newRow("export patch: a format it cannot write")
            << export_patch(gpt2, "the dog", "t", out) << 2 << "cannot tell the format";
        QTest::newRow("export patch: a model without a head")
            << export_patch(bert, "the dog", "t", never_npy) << 1 << "no masked-LM head";
        QTest::newRow("export: --clean without --view patch")
            << QStringList{"export",  "--model", gpt2,
                           "--text",  "the cat", "--clean",
                           "the cat", "--out",   test::temp_path("never.png")}
            << 2 << "need --view patch";
        // export --ablate, as predict spells it.
        const auto export_ablate = [&](const QStringList& extra) {
            return QStringList{"export",      "--model", gpt2,
                               "--text",      "the cat", "--view",
                               "predictions", "--out",   test::temp_path("never.png")} +
                   extra;
        };
        QTest::newRow("export: ablate past the heads")
            << export_ablate({"--ablate", "2.5"}) << 2 << "does not exist";
        QTest::newRow("export: ablate past the layers")
            << export_ablate({"--ablate", "3.1"}) << 2 << "has layers 1-2";
        QTest::newRow("export: ablate not L.H")
            << export_ablate({"--ablate", "2"}) << 2 << "expected LAYER.HEAD";
        QTest::newRow("export: ablate mode without ablate")
            << export_ablate({"--ablate-mode", "mean"}) << 2 << "--ablate-mode needs --ablate";
        QTest::newRow("export: ablate mode unknown")
            << export_ablate({"--ablate", "1.1", "--ablate-mode", "half"}) << 2 << "ablate-mode";
        QTest::newRow("export: ablate without a model") << QStringList{"export",
                                                                       "--text",
                                                                       "the cat",
                                                                       "--ablate",
                                                                       "1.1",
                                                                       "--out",
                                                                       test::temp_path("never.png")}
                                                        << 2 << "--ablate needs --model";
        QTest::newRow("export: predictions of a model without a head")
            << QStringList{"export",      "--model", bert,
                           "--text",      "the cat", "--view",
                           "predictions", "--out",   test::temp_path("never.png")}
            << 1 << "no masked-LM head";
        QTest::newRow("export: predictions without a model")
            << QStringList{"export",
                           "--text",
                           "the cat",
                           "--view",
                           "predictions",
                           "--out",
                           test::temp_path("never.png")}
            << 2 << "--view predictions needs --model";
        QTest::newRow("export: focus past the text")
            << export_ablate({"--focus-token", "40"}) << 2 << "--focus-token 40";
        QTest::newRow("export: generate without a model")
            << QStringList{"export",
                           "--text",
                           "the cat",
                           "--generate",
                           "3",
                           "--out",
                           test::temp_path("never.png")}
            << 2 << "--generate needs --model";
        QTest::newRow("export: sampling without generate")
            << export_ablate({"--temperature", "0.7"}) << 2 << "need --generate";
        QTest::newRow("export: generate 0")
            << export_ablate({"--generate", "0"}) << 2 << "--generate";
        QTest::newRow("export: generate with a pair")
            << export_ablate({"--generate", "3", "--text2", "a dog"}) << 2 << "single text";
        QTest::newRow("export: generate with a masked LM")
            << QStringList{"export", "--model", test::golden_model("bert_mlm_prefix"),
                           "--text", "the cat", "--generate",
                           "3",      "--out",   test::temp_path("never.png")}
            << 2 << "masked language model";
        QTest::newRow("export: generate past the positions")
            << export_ablate({"--generate", "64"}) << 2 << "positions";
        QTest::newRow("bench a missing head")
            << QStringList{"bench", "--model", bert, "--tokens", "4", "--lens"} << 1
            << "no masked-LM head";
        QTest::newRow("bench generation past the positions")
            << QStringList{"bench", "--model", gpt2, "--tokens", "40", "--generate", "40"} << 2
            << "64 positions";
        QTest::newRow("nothing to write")
            << QStringList{"predict", "--model", gpt2, "--text", "the cat"} << 2 << "nothing";
    }
    void badInputIsOneLineAndNoFile() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, phrase);
        const auto r = test::run_cli(args);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ": " + r.err));
        QVERIFY2(r.err.contains(phrase, Qt::CaseInsensitive), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));  // nothing timed or printed first
        for (const char* name : {"never.out", "never.npy", "never.png"})
            QVERIFY(!QFile::exists(test::temp_path(name)));
    }
};

QTEST_MAIN(TestCliPredictions)
#include "test_cli_predictions.moc"
