// Composition and copying scores (engine/models/circuits.h) against the float64 references of
// tests/golden/models/circuits_reference.py (whole hidden x hidden products, whole vocab x vocab
// eigenvalues): every golden case (BERT, RoBERTa, DistilBERT as stored; GPT-2 with LayerNorm's
// centring folded; Llama with GQA, Llama 3 rotary scaling, Qwen2, Qwen3's q/k norms) at the
// default rotary offset and at 7, GGUF files of four of them, and the shipped attn-only-2l, whose
// induction heads must be the ones composing most with a layer-1 head through their keys.  Then
// `attnviz circuits`: its files, and the bad inputs it refuses without writing any.
#include <QTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>

#include "engine/io/npy.h"
#include "engine/models/circuits.h"
#include "engine/models/model_folder.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;
namespace fs = std::filesystem;

namespace {

/// The issue's bar: 1e-5 of the float64 reference (relative for the composition scores, which
/// lie in (0, 1]; absolute for the copying scores, which lie in [-1, 1] and may be near 0).
constexpr double kTol = 1e-5;

std::string models_dir() {
    return test::golden_dir() + "/models";
}

std::string shipped_model() {
    return test::golden_dir() + "/../../resources/models/attn-only-2l";
}

/// Empty when `got` [3, N, N] has NaN exactly where `want` has and is within kTol relative
/// elsewhere, else the first entry that is not, named ("K L1H2 -> L2H3").
QString composition_mismatch(const Tensor& got, const Tensor& want, Index heads) {
    if (got.shape != want.shape)
        return QStringLiteral("shape %1, expected %2")
            .arg(QString::fromStdString(shape_string(got.shape)),
                 QString::fromStdString(shape_string(want.shape)));
    const Index N = want.dim(1);
    const auto name = [&](Index n) {
        return QStringLiteral("L%1H%2").arg(n / heads + 1).arg(n % heads + 1);
    };
    for (Index kind = 0; kind < 3; ++kind)
        for (Index i = 0; i < N; ++i)
            for (Index j = 0; j < N; ++j) {
                const std::size_t at = static_cast<std::size_t>((kind * N + i) * N + j);
                const double g = got.data[at], w = want.data[at];
                const bool ok =
                    std::isnan(w) ? std::isnan(g) : std::abs(g - w) <= kTol * std::abs(w);
                if (!ok)
                    return QStringLiteral("%1 %2 -> %3: %4, expected %5")
                        .arg(QString("QKV")[static_cast<int>(kind)])
                        .arg(name(i), name(j))
                        .arg(g, 0, 'g', 9)
                        .arg(w, 0, 'g', 9);
            }
    return {};
}

/// The copying scores against circuits.json's (null: the model has no causal LM head).
QString copying_mismatch(const models::CircuitScores& s, const QJsonValue& want) {
    if (want.isNull())
        return s.copying.empty() && !s.copying_missing.empty()
                   ? QString()
                   : QStringLiteral("copying scores for a model without a causal LM head");
    const QJsonArray a = want.toArray();
    if (static_cast<qsizetype>(s.copying.size()) != a.size() || a.isEmpty())
        return QStringLiteral("%1 copying scores, expected %2").arg(s.copying.size()).arg(a.size());
    for (qsizetype n = 0; n < a.size(); ++n)
        if (!(std::abs(s.copying[static_cast<std::size_t>(n)] - a[n].toDouble()) <= kTol))
            return QStringLiteral("copying of head %1: %2, expected %3")
                .arg(n)
                .arg(s.copying[static_cast<std::size_t>(n)], 0, 'g', 9)
                .arg(a[n].toDouble(), 0, 'g', 9);
    return {};
}

models::CircuitScores scores_of(const models::Model& m, Index offset = 1, int threads = 1) {
    models::CircuitOptions o;
    o.rope_offset = offset;
    o.num_threads = threads;
    return models::circuit_scores(m, o);
}

/// What a case's scores are compared with, and the result's own fields.
void check_against_reference(const std::string& model_path, const std::string& reference_dir) {
    const auto model = models::open_model_folder(model_path).model;
    const models::ModelConfig& c = model->config();
    const QJsonObject ref = test::read_json(reference_dir + "/circuits.json");
    QVERIFY2(ref.contains("copying"),
             qPrintable("no circuits.json in " + QString::fromStdString(reference_dir)));
    const models::CircuitScores s = scores_of(*model);
    QCOMPARE(s.layers, c.num_layers);
    QCOMPARE(s.heads, c.num_heads);
    QCOMPARE(s.folded_norms, c.pre_norm());
    QCOMPARE(s.rope_offset.has_value(), c.rotary());
    QCOMPARE(ref.value("rope_offset").isNull(), !c.rotary());
    const Tensor want = io::read_npy(reference_dir + "/circuits.npy");
    QString diff = composition_mismatch(s.composition, want, c.num_heads);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    diff = copying_mismatch(s, ref.value("copying"));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    if (c.rotary()) {  // another offset: the rotation is applied, at the distance asked for
        const models::CircuitScores at7 = scores_of(*model, 7);
        QCOMPARE(at7.rope_offset.value_or(-1), Index{7});
        diff = composition_mismatch(
            at7.composition, io::read_npy(reference_dir + "/circuits_offset7.npy"), c.num_heads);
        QVERIFY2(diff.isEmpty(), qPrintable("offset 7: " + diff));
    }
}

/// The best `n` of `values` (indices, best first).
std::vector<Index> top(const std::vector<double>& values, Index n) {
    std::vector<Index> order(values.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = static_cast<Index>(k);
    std::sort(order.begin(), order.end(), [&](Index a, Index b) { return values[a] > values[b]; });
    order.resize(static_cast<std::size_t>(n));
    return order;
}

}  // namespace

class TestCircuits : public QObject {
    Q_OBJECT

  private slots:
    void golden_cases_data() {
        QTest::addColumn<QString>("name");
        const QJsonArray cases =
            test::read_json(models_dir() + "/index.json").value("cases").toArray();
        // Eleven families' cases: an empty list would pass the test below.
        QVERIFY2(cases.size() >= 11, "index.json lists fewer than 11 cases");
        for (const QJsonValue c : cases) {
            const QByteArray name = c.toObject().value("name").toString().toUtf8();
            QTest::newRow(name.constData()) << QString::fromUtf8(name);
        }
    }
    void golden_cases() {
        QFETCH(QString, name);
        const std::string dir = models_dir() + "/" + name.toStdString();
        check_against_reference(dir, dir + "/reference");
    }

    // GGUF files of four goldens (the loader un-permutes llama.cpp's q/k rows): the same scores.
    void gguf_models_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"gpt2_lmhead", "llama_gqa", "qwen2_bias_bf16", "qwen3_qknorm"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void gguf_models() {
        QFETCH(QString, name);
        check_against_reference(test::data_dir() + "/gguf/models/" + name.toStdString() + ".gguf",
                                models_dir() + "/" + name.toStdString() + "/reference");
    }

    void shipped_model_matches_its_reference() {
        check_against_reference(shipped_model(), models_dir() + "/attn-only-2l/reference");
    }

    // The classroom's circuit (Elhage et al. 2021, "Induction heads"): the previous-token head of
    // layer 1 writes what the induction heads of layer 2 read through their keys.  The layer-2
    // heads that compose most with a layer-1 head through K are the three with the highest
    // induction scores measured when the model was trained (scores.json), and the strongest
    // pair of all starts at the best previous-token head.  The induction heads copy (the
    // strongest one's OV circuit has a copying score above 0.9).
    void shipped_induction_heads_compose_through_keys() {
        const auto model = models::load_model(shipped_model());
        const models::CircuitScores s = scores_of(*model);
        const QJsonObject measured = test::read_json(shipped_model() + "/scores.json");
        const QJsonArray induction =
            measured.value("heads").toObject().value("induction").toArray();
        QCOMPARE(induction.size(), qsizetype{2});
        const Index H = s.heads, N = 2 * H;
        QCOMPARE(s.layers, Index{2});
        std::vector<double> induction2, best_k(static_cast<std::size_t>(H));
        for (const QJsonValue v : induction[1].toArray())
            induction2.push_back(v.toDouble());
        QCOMPARE(static_cast<Index>(induction2.size()), H);
        Index best_from = -1, best_to = -1;
        double best = -1.0;
        for (Index j = 0; j < H; ++j)
            for (Index i = 0; i < H; ++i) {
                const double k =
                    s.composition.data[static_cast<std::size_t>((1 * N + i) * N + H + j)];
                best_k[static_cast<std::size_t>(j)] =
                    std::max(best_k[static_cast<std::size_t>(j)], k);
                if (k > best) {
                    best = k;
                    best_from = i;
                    best_to = j;
                }
            }
        auto by_k = top(best_k, 3), by_induction = top(induction2, 3);
        std::sort(by_k.begin(), by_k.end());
        std::sort(by_induction.begin(), by_induction.end());
        QCOMPARE(by_k, by_induction);
        const QJsonObject prev = measured.value("best_previous_token_head_layer_1").toObject();
        const QJsonObject ind = measured.value("best_induction_head").toObject();
        QCOMPARE(best_from + 1, Index(prev.value("head").toInt()));
        QCOMPARE(best_to + 1, Index(ind.value("head").toInt()));
        QVERIFY2(s.copying[static_cast<std::size_t>(H + best_to)] > 0.9,
                 qPrintable(QString::number(s.copying[static_cast<std::size_t>(H + best_to)])));
    }

    // Two threads split the vocabulary's sum another way: the same scores within rounding.
    void threads_agree() {
        const auto model = models::load_model(models_dir() + "/llama_gqa");
        const models::CircuitScores one = scores_of(*model, 1, 1), two = scores_of(*model, 1, 2);
        const QString diff = composition_mismatch(two.composition, one.composition, one.heads);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(two.copying.size(), one.copying.size());
        for (std::size_t n = 0; n < one.copying.size(); ++n)
            ATTNVIZ_FUZZY(two.copying[n], one.copying[n], 1e-6);
    }

    void refuses_offsets_outside_the_positions() {
        const auto model = models::load_model(models_dir() + "/llama_gqa");
        const Index positions = model->config().max_positions;
        for (const Index offset : {Index{-1}, positions}) {
            bool thrown = false;
            try {
                scores_of(*model, offset);
            } catch (const std::invalid_argument& e) {
                thrown = std::string(e.what()).find(std::to_string(positions)) != std::string::npos;
            }
            QVERIFY2(thrown, qPrintable(QStringLiteral("offset %1").arg(offset)));
        }
        QCOMPARE(scores_of(*model, positions - 1).rope_offset.value_or(-1), positions - 1);
    }

    void stops_when_asked() {
        const auto model = models::load_model(models_dir() + "/gpt2_lmhead");
        std::atomic<bool> stop{true};
        models::CircuitOptions o;
        o.control.stop = &stop;
        QVERIFY_THROWS_EXCEPTION(Cancelled, models::circuit_scores(*model, o));
    }

    void cli_writes_both_files() {
        const std::string dir = test::fresh_dir("circuits_cli");
        const QString json = QString::fromStdString(dir + "/C.json"),
                      npy = QString::fromStdString(dir + "/K.npy");
        const auto r =
            test::run_cli({"circuits", "--model", QString::fromStdString(shipped_model()),
                           "--out-json", json, "--out-npy", npy, "--threads", "2"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY(r.err.isEmpty());
        const QJsonObject c = test::read_json(json.toStdString());
        QCOMPARE(c.value("rope_offset").toInt(), 1);
        QCOMPARE(c.value("folded_norms").toBool(), true);
        const QJsonArray heads = c.value("heads").toArray();
        QCOMPARE(heads.size(), qsizetype{16});
        QCOMPARE(heads[0].toString(), QStringLiteral("L1H1"));
        QCOMPARE(heads[15].toString(), QStringLiteral("L2H8"));
        QCOMPARE(c.value("copying").toArray().size(), qsizetype{16});
        const QJsonObject strongest_k =
            c.value("top_pairs").toObject().value("K").toArray()[0].toObject();
        QCOMPARE(strongest_k.value("from").toString(), QStringLiteral("L1H4"));
        QCOMPARE(strongest_k.value("to").toString(), QStringLiteral("L2H8"));
        QCOMPARE(c.value("top_pairs").toObject().value("V").toArray().size(), qsizetype{10});
        // The file holds what the engine computes; its score is the pair's entry.
        const auto model = models::load_model(shipped_model());
        const models::CircuitScores s = scores_of(*model);
        const Tensor k = io::read_npy(npy.toStdString());
        QCOMPARE(k.shape, (Shape{3, 16, 16}));
        const QString diff = composition_mismatch(k, s.composition, 8);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        ATTNVIZ_FUZZY(strongest_k.value("score").toDouble(), k.data[(16 + 3) * 16 + 15], 1e-6);
    }

    // A BERT has no norm on a head's input and no unembedding: composition of the weights as
    // stored, no copying, no rotary offset.
    void cli_bert_has_no_copying() {
        const std::string dir = test::fresh_dir("circuits_bert");
        const QString json = QString::fromStdString(dir + "/C.json");
        const auto r = test::run_cli({"circuits", "--model",
                                      QString::fromStdString(models_dir() + "/bert_gamma_beta"),
                                      "--out-json", json});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject c = test::read_json(json.toStdString());
        QVERIFY(c.contains("copying") && c.value("copying").isNull());
        QVERIFY(c.contains("rope_offset") && c.value("rope_offset").isNull());
        QCOMPARE(c.value("folded_norms").toBool(true), false);
        QCOMPARE(c.value("top_pairs").toObject().value("Q").toArray().size(), qsizetype{10});
    }

    void cli_refuses_bad_input_and_writes_nothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("needle");
        const QString shipped = QString::fromStdString(shipped_model());
        const QString gpt2 = QString::fromStdString(models_dir() + "/gpt2_lmhead");
        QTest::newRow("negative offset")
            << QStringList{"--model", shipped, "--rope-offset", "-1"} << 2 << "--rope-offset";
        QTest::newRow("offset past the positions")
            << QStringList{"--model", shipped, "--rope-offset", "512"} << 2 << "512 positions";
        QTest::newRow("offset not a number")
            << QStringList{"--model", shipped, "--rope-offset", "1.5"} << 2 << "--rope-offset";
        QTest::newRow("offset of learned positions")
            << QStringList{"--model", gpt2, "--rope-offset", "1"} << 2 << "learned positions";
        QTest::newRow("no model") << QStringList{"--model", "/nonexistent/model"} << 1
                                  << "/nonexistent/model";
        QTest::newRow("unwritable npy")
            << QStringList{"--model", shipped, "--out-npy", "/nonexistent/K.npy"} << 1
            << "does not exist";
        QTest::newRow("npy is a folder")
            << QStringList{"--model", shipped, "--out-npy", "@DIR@"} << 1 << "is a folder";
    }
    void cli_refuses_bad_input_and_writes_nothing() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, needle);
        const std::string dir = test::fresh_dir("circuits_bad");
        const QString json = QString::fromStdString(dir + "/C.json");
        args.replaceInStrings("@DIR@", QString::fromStdString(dir));
        const auto r =
            test::run_cli(QStringList{"circuits"} + args + QStringList{"--out-json", json});
        QVERIFY2(r.status == status, qPrintable(QStringLiteral("status %1, want %2; stderr: %3")
                                                    .arg(r.status)
                                                    .arg(status)
                                                    .arg(r.err)));
        QVERIFY2(r.err.contains(needle),
                 qPrintable(QStringLiteral("stderr '%1' lacks '%2'").arg(r.err, needle)));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable("more than one line: " + r.err));
        QVERIFY2(test::entries(dir).isEmpty(), qPrintable(test::entries(dir).join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestCircuits)
#include "test_circuits.moc"
