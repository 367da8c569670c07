// The backward pass on the command line, through the binary: `attnviz attribute --saliency` and
// `--out-grads`, `attnviz patch --method attribution` and `--out-positions`, and the `attnviz
// bench --model` measurements of issue 37's "Fast" list.  The files equal the engine's own
// gradients (engine/models/gradient_attribution.h, itself checked against torch autograd in
// its own tests); integrated gradients add up to m(x) - m(baseline) where the rule is complete;
// attribution patching agrees with the exact sweep on the shipped model's patching example.
// Bad input: test_cli_attribution.
#include <QTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "engine/io/npy.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;

namespace {

QString shipped_model() {
    return QString::fromStdString(test::golden_dir() + "/../../resources/models/attn-only-2l");
}

// The shipped model's patching example (docs/guide.md): the induction head restores the "^"
// that followed the string's first copy.
const QString kClean = "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1";
const QString kCorrupt = "zK8&pW3!rT6~bN1x zK8&pW3!rT6~bN1";
const QString kText = "q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP";

std::vector<double> doubles(const Tensor& t) {
    return {t.data.begin(), t.data.end()};
}

std::size_t argmax(const std::vector<double>& v) {
    return std::size_t(std::max_element(v.begin(), v.end()) - v.begin());
}

QString table(const Tensor& t) {
    QString s;
    for (Index l = 0; l < t.shape[0]; ++l) {
        s += QStringLiteral("\n  layer %1:").arg(l + 1);
        for (Index h = 0; h < t.shape[1]; ++h)
            s += QStringLiteral(" %1").arg(double(t.ptr()[l * t.shape[1] + h]), 7, 'f', 3);
    }
    return s;
}

std::vector<double> json_doubles(const QJsonArray& a) {
    std::vector<double> out;
    for (const QJsonValue v : a)
        out.push_back(v.toDouble());
    return out;
}

void run_ok(const QStringList& args) {
    const auto r = test::run_cli(args);
    QVERIFY2(r.status == 0, qPrintable(QString::number(r.status) + ": " + r.err));
}

/// The engine's gradient of `metric` on `text`, as attribute computes it.
models::Gradients engine_gradients(const QString& folder, const QString& text, const char* target) {
    const auto m = models::open_model_folder(folder.toStdString());
    const models::EncodedText e = models::encode_text(m, text.toStdString());
    models::GradientMetric metric;
    metric.kind = models::GradientMetric::Kind::Logit;
    metric.position = static_cast<Index>(e.input.ids.size()) - 1;
    metric.target = models::single_token_id(m.tokenizer, target, "--target");
    return m.model->gradients(e.input, metric);
}

}  // namespace

class TestCliGradients : public QObject {
    Q_OBJECT
  private slots:
    void integratedGradientsAddUpToTheMetricLessTheBaseline_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("complete");  // the 64-step rule is complete within 1%
        // Learned positions stay in the baseline: the path is smooth (gradient_attribution.h).
        QTest::newRow("gpt2, learned positions")
            << test::golden_model("gpt2_lmhead") << QStringLiteral("the cat sat on the mat")
            << QStringLiteral("t") << true;
        // Rotary: the all-zero baseline, where RMSNorm makes the path steep near 0; the delta
        // reports the rule's gap (0.8% here, not promised).
        QTest::newRow("attn-only-2l, rotary")
            << shipped_model() << kText << QStringLiteral("8") << false;
    }
    void integratedGradientsAddUpToTheMetricLessTheBaseline() {
        QFETCH(QString, model);
        QFETCH(QString, text);
        QFETCH(QString, target);
        QFETCH(bool, complete);
        const QString js = test::temp_path("ig.json");
        QFile::remove(js);
        run_ok({"attribute", "--model", model, "--text", text, "--target", target, "--saliency",
                "ig:64", "--out-json", js});
        const QJsonObject o = test::read_json(js);
        QCOMPARE(o.value("saliency_method").toString(), QStringLiteral("ig"));
        QCOMPARE(o.value("saliency_steps").toInteger(), qint64(64));
        const double total = o.value("total").toDouble();
        const double baseline = o.value("saliency_baseline").toDouble();
        QVERIFY(o.value("saliency_baseline").isDouble());
        const std::vector<double> s = json_doubles(o.value("saliency").toArray());
        const auto m = models::open_model_folder(model.toStdString());
        QCOMPARE(Index(s.size()),
                 Index(models::encode_text(m, text.toStdString()).input.ids.size()));
        const double sum = std::accumulate(s.begin(), s.end(), 0.0);
        // The delta is the completeness gap of what the file holds (7 digits each).
        ATTNVIZ_FUZZY(o.value("saliency_delta").toDouble(), sum - (total - baseline),
                      1e-5 * std::max(1.0, std::abs(total)));
        // Completeness (Sundararajan et al. 2017), up to the midpoint rule's error at N = 64.
        if (complete)
            QVERIFY2(std::abs(sum - (total - baseline)) <= 0.01 * std::abs(total - baseline),
                     qPrintable(QStringLiteral("Σ saliency %1, total %2 - baseline %3 = %4")
                                    .arg(sum)
                                    .arg(total)
                                    .arg(baseline)
                                    .arg(total - baseline)));
        // Not a degenerate split: the target is read from a few tokens.
        QVERIFY2(std::abs(total - baseline) > 0.5, qPrintable(QString::number(total - baseline)));
    }

    void gradientTimesInputIsTheEnginesAndDiffersFromIntegratedGradients() {
        const QString model = shipped_model();
        const QString gi = test::temp_path("gi.json"), ig = test::temp_path("ig8.json");
        run_ok({"attribute", "--model", model, "--text", kText, "--target", "8", "--saliency",
                "grad-input", "--out-json", gi});
        run_ok({"attribute", "--model", model, "--text", kText, "--target", "8", "--saliency",
                "ig:8", "--out-json", ig});
        const QJsonObject o = test::read_json(gi);
        QCOMPARE(o.value("saliency_method").toString(), QStringLiteral("grad-input"));
        QCOMPARE(o.value("saliency_steps").toInteger(), qint64(0));
        QVERIFY(o.value("saliency_baseline").isNull());
        const std::vector<double> s = json_doubles(o.value("saliency").toArray());
        const std::vector<double> i = json_doubles(test::read_json(ig).value("saliency").toArray());
        // Σ_e w_e ∂m/∂x0_e per token, from the engine's own backward pass (w the token
        // embedding: x0 itself in this rotary model, which has no learned positions).
        const models::Gradients g = engine_gradients(model, kText, "8");
        const Index L = g.embeddings.shape[0], E = g.embeddings.shape[1];
        QCOMPARE(Index(s.size()), L);
        QCOMPARE(Index(i.size()), L);
        double differ = 0.0;
        for (Index t = 0; t < L; ++t) {
            double want = 0.0;
            for (Index e = 0; e < E; ++e)
                want += double(g.embeddings.ptr()[t * E + e]) *
                        double(g.embedding_gradients.ptr()[t * E + e]);
            QVERIFY(std::isfinite(s[std::size_t(t)]));
            ATTNVIZ_FUZZY(s[std::size_t(t)], want, 1e-5 * std::max(1.0, std::abs(want)));
            differ = std::max(differ, std::abs(s[std::size_t(t)] - i[std::size_t(t)]));
        }
        QVERIFY2(differ > 1e-2, qPrintable(QString::number(differ)));
    }

    // --ablate with --saliency and --out-grads: the knocked-out model's, as the engine gives
    // them with the same interventions (GradientOptions::interventions), and not the intact
    // model's.
    void ablatedSaliencyAndGradientsAreTheKnockedOutModels() {
        const QString model = shipped_model();
        const QString js = test::temp_path("knocked.json"), npy = test::temp_path("knocked.npy");
        QFile::remove(npy);
        run_ok({"attribute", "--model", model, "--text", kText, "--target", "8", "--ablate",
                "1.4,2.8", "--ablate-mode", "mean", "--saliency", "ig:8", "--out-grads", npy,
                "--out-json", js});
        const QJsonObject o = test::read_json(js);
        QCOMPARE(o.value("ablated").toArray().size(), qsizetype(2));
        const auto m = models::open_model_folder(model.toStdString());
        const models::EncodedText e = models::encode_text(m, kText.toStdString());
        models::GradientMetric metric;
        metric.kind = models::GradientMetric::Kind::Logit;
        metric.position = static_cast<Index>(e.input.ids.size()) - 1;
        metric.target = models::single_token_id(m.tokenizer, "8", "--target");
        models::GradientOptions options;
        options.interventions =
            models::ablations({{0, 3}, {1, 7}}, models::HeadIntervention::Kind::Mean);
        const models::Saliency want = models::saliency(*m.model, e.input, metric, 8, options);
        const std::vector<double> got = json_doubles(o.value("saliency").toArray());
        QCOMPARE(got.size(), want.tokens.size());
        for (std::size_t t = 0; t < got.size(); ++t)
            ATTNVIZ_FUZZY(got[t], want.tokens[t], 1e-6 * std::max(1.0, std::abs(want.tokens[t])));
        // The parts' total and the gradients' metric are one logit, of the same model.
        ATTNVIZ_FUZZY(o.value("total").toDouble(), want.metric, 1e-5 * std::abs(want.metric));
        ATTNVIZ_FUZZY(o.value("saliency_baseline").toDouble(), want.baseline, 1e-5);
        const Tensor g = io::read_npy(npy.toStdString());
        const Index L = want.gradients.shape[1], H = 8, D = 16;
        QCOMPARE(g.shape, (Shape{2, H, L, D}));
        for (Index l = 0; l < 2; ++l)
            for (Index h = 0; h < H; ++h)
                for (Index t = 0; t < L; ++t)
                    for (Index c = 0; c < D; ++c)
                        ATTNVIZ_FUZZY(g.ptr()[((l * H + h) * L + t) * D + c],
                                      want.gradients.ptr()[(l * L + t) * H * D + h * D + c], 1e-6);
        // Knocking the induction head out moves the shares: not the intact model's numbers.
        const models::Saliency intact = models::saliency(*m.model, e.input, metric, 8);
        double differ = 0.0;
        for (std::size_t t = 0; t < got.size(); ++t)
            differ = std::max(differ, std::abs(got[t] - intact.tokens[t]));
        QVERIFY2(differ > 0.1, qPrintable(QString::number(differ)));
    }

    void outGradsIsEachHeadsGradient_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("saliency");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("head_dim");
        QTest::newRow("attn-only-2l, with integrated gradients")
            << shipped_model() << kText << QStringList{"--saliency", "ig:4"} << 2 << 8 << 16;
        // Query heads share key/value heads: the gradient is per query head.
        QTest::newRow("llama gqa, alone")
            << test::golden_model("llama_gqa") << QStringLiteral("the cat sat on the mat")
            << QStringList{} << 2 << 4 << 8;
    }
    void outGradsIsEachHeadsGradient() {
        QFETCH(QString, model);
        QFETCH(QString, text);
        QFETCH(QStringList, saliency);
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(int, head_dim);
        const QString js = test::temp_path("g.json"), npy = test::temp_path("g.npy");
        QFile::remove(npy);
        run_ok(QStringList{"attribute", "--model", model, "--text", text, "--target", "t",
                           "--out-json", js, "--out-grads", npy} +
               saliency);
        const models::Gradients want = engine_gradients(model, text, "t");
        const Index L = want.head_gradients.shape[1], H = heads, D = head_dim;
        const Tensor g = io::read_npy(npy.toStdString());
        QCOMPARE(g.shape, (Shape{layers, H, L, D}));
        QCOMPARE(want.head_gradients.shape, (Shape{layers, L, H * D}));
        double largest = 0.0;
        for (Index l = 0; l < layers; ++l)
            for (Index h = 0; h < H; ++h)
                for (Index t = 0; t < L; ++t)
                    for (Index d = 0; d < D; ++d) {
                        const float got = g.ptr()[((l * H + h) * L + t) * D + d];
                        const float w = want.head_gradients.ptr()[((l * L + t) * H + h) * D + d];
                        QVERIFY2(std::abs(got - w) <= 1e-5f * std::max(1.0f, std::abs(w)),
                                 qPrintable(QStringLiteral("L%1H%2 token %3 [%4]: %5 vs %6")
                                                .arg(l + 1)
                                                .arg(h + 1)
                                                .arg(t + 1)
                                                .arg(d)
                                                .arg(got)
                                                .arg(w)));
                        largest = std::max(largest, double(std::abs(got)));
                    }
        QVERIFY2(largest > 1e-3, qPrintable(QString::number(largest)));  // not all zeros
    }

    void attributionPatchingAgreesWithTheExactSweep() {
        const QString model = shipped_model();
        const QStringList inputs = {"--model", model,      "--clean", kClean,         "--corrupt",
                                    kCorrupt,  "--target", "^",       "--distractor", "x"};
        const QString exact = test::temp_path("exact.npy"),
                      exact_js = test::temp_path("exact.json");
        const QString eap = test::temp_path("eap.npy"), eap_js = test::temp_path("eap.json");
        const QString positions = test::temp_path("eap_positions.npy");
        run_ok(QStringList{"patch"} + inputs + QStringList{"--out", exact, "--out-json", exact_js});
        run_ok(QStringList{"patch"} + inputs +
               QStringList{"--method", "attribution", "--out", eap, "--out-json", eap_js,
                           "--out-positions", positions});
        const Tensor e = io::read_npy(exact.toStdString()), a = io::read_npy(eap.toStdString());
        QCOMPARE(e.shape, (Shape{2, 8}));
        QCOMPARE(a.shape, e.shape);
        const double rho = test::spearman(doubles(a), doubles(e));
        const std::size_t top_exact = argmax(doubles(e)), top_eap = argmax(doubles(a));
        qInfo().noquote() << "exact sweep:" << table(e) << "\nattribution patching:" << table(a)
                          << "\nSpearman" << rho << "top head exact L" << top_exact / 8 + 1 << "H"
                          << top_exact % 8 + 1 << ", EAP L" << top_eap / 8 + 1 << "H"
                          << top_eap % 8 + 1;
        QCOMPARE(top_eap, top_exact);
        QCOMPARE(top_exact, std::size_t(8 + 7));  // the induction head L2H8
        QVERIFY2(rho >= 0.8, qPrintable(QString::number(rho)));

        // The same metric on both texts; m_patched = m_corrupt + estimate.
        const QJsonObject oe = test::read_json(exact_js), oa = test::read_json(eap_js);
        QCOMPARE(oe.value("method").toString(), QStringLiteral("exact"));
        QCOMPARE(oa.value("method").toString(), QStringLiteral("attribution"));
        const double m_clean = oa.value("m_clean").toDouble(),
                     m_corrupt = oa.value("m_corrupt").toDouble();
        ATTNVIZ_FUZZY(m_clean, oe.value("m_clean").toDouble(), 1e-4 * std::abs(m_clean));
        ATTNVIZ_FUZZY(m_corrupt, oe.value("m_corrupt").toDouble(),
                      1e-4 * std::max(1.0, std::abs(m_corrupt)));
        const QJsonArray heads = oa.value("heads").toArray();
        QCOMPARE(heads.size(), 16);
        for (const QJsonValue v : heads) {
            const QJsonObject h = v.toObject();
            const auto at =
                (h.value("layer").toInteger() - 1) * 8 + h.value("head").toInteger() - 1;
            const double f = a.ptr()[at];
            ATTNVIZ_FUZZY(h.value("fraction").toDouble(), f, 1e-5);
            ATTNVIZ_FUZZY(h.value("m_patched").toDouble(), m_corrupt + f * (m_clean - m_corrupt),
                          1e-4 * std::max(1.0, std::abs(m_clean)));
        }

        // By position: [layers, heads, tokens], summing over tokens to the fractions.
        const Tensor p = io::read_npy(positions.toStdString());
        const Index L = p.shape[2];
        QCOMPARE(p.shape, (Shape{2, 8, L}));
        QVERIFY(L > 30);
        for (Index lh = 0; lh < 16; ++lh) {
            double sum = 0.0;
            for (Index t = 0; t < L; ++t)
                sum += p.ptr()[lh * L + t];
            ATTNVIZ_FUZZY(sum, a.ptr()[lh], 1e-4 * std::max(1.0, std::abs(double(a.ptr()[lh]))));
        }
    }

    void attributionPatchingKeepsTheHeadsAsked() {
        const QString all = test::temp_path("eap_all.npy"), some = test::temp_path("eap_some.npy");
        const QString some_js = test::temp_path("eap_some.json"),
                      some_positions = test::temp_path("eap_some_positions.npy");
        const QStringList inputs = {
            "patch",    "--model", shipped_model(), "--clean", kClean,     "--corrupt",  kCorrupt,
            "--target", "^",       "--distractor",  "x",       "--method", "attribution"};
        run_ok(inputs + QStringList{"--out", all});
        run_ok(inputs + QStringList{"--heads", "2.8,1.4", "--out", some, "--out-json", some_js,
                                    "--out-positions", some_positions});
        const Tensor a = io::read_npy(all.toStdString()), s = io::read_npy(some.toStdString());
        const Tensor p = io::read_npy(some_positions.toStdString());
        const Index L = p.shape[2];
        const std::set<Index> kept = {8 + 7, 3};
        for (Index lh = 0; lh < 16; ++lh) {
            if (kept.count(lh)) {
                QCOMPARE(s.ptr()[lh], a.ptr()[lh]);
                QVERIFY(std::isfinite(p.ptr()[lh * L]));
            } else {
                QVERIFY2(std::isnan(s.ptr()[lh]), qPrintable(QString::number(lh)));
                QVERIFY(std::isnan(p.ptr()[lh * L + L - 1]));
            }
        }
        QCOMPARE(test::read_json(some_js).value("heads").toArray().size(), 2);
    }

    void benchTimesEachMeasurement() {
        const auto r = test::run_cli({"bench", "--model", test::golden_model("gpt2_lmhead"),
                                      "--tokens", "6", "--repeats", "1", "--backward", "--eap",
                                      "--dla", "--flow", "--circuits"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 6);  // the pass, then one line each
        QCOMPARE(QJsonDocument::fromJson(lines[0].toUtf8()).object().value("tokens").toInteger(),
                 qint64(6));
        std::set<QString> benches;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            const QString bench = o.value("bench").toString();
            benches.insert(bench);
            if (bench == "circuits") {
                QCOMPARE(o.value("heads").toInteger(), qint64(2 * 4));
                QVERIFY(o.value("wall_s").toDouble() > 0.0);
                QVERIFY(o.value("cpu_s").isDouble());
                continue;
            }
            QCOMPARE(o.value("tokens").toInteger(), qint64(6));
            QVERIFY2(o.value("passes").toDouble() > 0.0 ||
                         o.value("forward_and_backward_passes").toDouble() > 0.0,
                     qPrintable(lines[i]));
            QVERIFY2(o.value("pass_ms").toDouble() > 0.0, qPrintable(lines[i]));
        }
        QCOMPARE(benches, (std::set<QString>{"backward", "eap", "dla", "flow", "circuits"}));
    }
};

QTEST_MAIN(TestCliGradients)
#include "test_cli_gradients.moc"
