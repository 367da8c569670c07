// The backward pass (Model::gradients), attribution patching and input saliency
// (engine/models/gradient_attribution.h) against the float64 torch-autograd references of
// tests/golden/models/gradient_reference.py: every golden with a language-model head (BERT,
// RoBERTa and DistilBERT masked; GPT-2, Llama with GQA and llama3 rotary scaling, Qwen2's biases,
// Qwen3's q/k norms causal) and the shipped attn-only-2l, intact and with heads knocked out.
// Then the claim about EAP on attn-only-2l, streamed weights, and what is refused.
#include <QTest>

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;
using Kind = models::GradientMetric::Kind;

namespace {

// Tolerances: the engine runs in float32, the reference in float64.
constexpr double kGradTol = 1e-4;       ///< gradients, EAP, saliency: × max(1, max |reference|)
constexpr double kMetricTol = 1e-4;     ///< metric values: × max(1, |reference|)
constexpr double kContextTol = 1e-5;    ///< z and x0: × max |reference| (relative)
constexpr double kStreamedTol = 1e-6;   ///< streamed against kept weights: × max(1, max |kept|)
constexpr Index kIntegratedSteps = 64;  ///< gradient_reference.py's N
constexpr double kCompleteness = 0.01;  ///< |delta| / |m(x) - m(x')| at N, learned positions

/// A case of tests/golden/models/gradient_index.json with its gradients.json.
struct Case {
    std::string model, reference;
    QJsonObject doc;
    models::ModelInput input;
};

QJsonArray index_cases() {
    return test::read_json(test::golden_dir() + "/models/gradient_index.json")
        .value("cases")
        .toArray();
}

std::vector<Index> ids_of(const QJsonValue& v) {
    std::vector<Index> out;
    for (const QJsonValue id : v.toArray())
        out.push_back(id.toInteger());
    return out;
}

/// "gguf:" before a name: the same checkpoint as llama.cpp's converter writes it
/// (tests/data/gguf/models), against the same reference.
Case case_named(QString name) {
    const std::string root = test::golden_dir() + "/../../";
    const bool gguf = name.startsWith("gguf:");
    name = name.section(':', -1);
    for (const QJsonValue v : index_cases()) {
        const QJsonObject c = v.toObject();
        if (c.value("name").toString() != name) continue;
        Case out;
        out.model = gguf ? test::data_dir() + "/gguf/models/" + name.toStdString() + ".gguf"
                         : root + c.value("model").toString().toStdString();
        out.reference = root + c.value("reference").toString().toStdString();
        out.doc = test::read_json(out.reference + "/gradients.json");
        out.input.ids = ids_of(out.doc.value("input_ids"));
        out.input.token_type_ids = ids_of(out.doc.value("token_type_ids"));
        return out;
    }
    throw std::runtime_error("no case " + name.toStdString() + " in gradient_index.json");
}

void add_cases() {
    QTest::addColumn<QString>("name");
    for (const QJsonValue c : index_cases()) {
        const QByteArray name = c.toObject().value("name").toString().toUtf8();
        QTest::newRow(name.constData()) << QString::fromUtf8(name);
    }
}

models::GradientMetric metric_of(const QJsonObject& m) {
    static const std::map<QString, Kind> kinds = {{"Logit", Kind::Logit},
                                                  {"LogitDifference", Kind::LogitDifference},
                                                  {"LogProb", Kind::LogProb},
                                                  {"SpanLoss", Kind::SpanLoss}};
    models::GradientMetric g;
    g.kind = kinds.at(m.value("kind").toString());
    g.position = m.value("position").toInteger();
    g.target = m.value("target").toInteger();
    g.distractor = m.value("distractor").toInteger();  // null: 0, unused
    g.span_begin = m.value("span_begin").toInteger();
    g.span_end = m.value("span_end").toInteger();
    return g;
}

models::GradientOptions two_threads() {
    models::GradientOptions o;
    o.num_threads = 2;
    return o;
}

QString index_string(Index i, const Shape& shape) {
    QStringList parts;
    for (auto d = shape.size(); d-- > 0;) {
        parts.prepend(QString::number(i % shape[d]));
        i /= shape[d];
    }
    return "[" + parts.join(", ") + "]";
}

/// Empty when `got` has `shape` and every value is within tol × scale of `want` (scale: the
/// largest |want|, at least 1 unless `relative`); else the first that is not, with its index
/// in every dimension and both values.
QString differs(const Tensor& got, const float* want, const Shape& shape, double tol,
                bool relative = false) {
    if (got.shape != shape)
        return QStringLiteral("shape %1, expected %2")
            .arg(QString::fromStdString(shape_string(got.shape)),
                 QString::fromStdString(shape_string(shape)));
    double scale = relative ? 0.0 : 1.0;
    for (std::size_t i = 0; i < got.numel(); ++i)
        scale = std::max(scale, double(std::abs(want[i])));
    for (std::size_t i = 0; i < got.numel(); ++i)
        if (!(std::abs(double(got.data[i]) - want[i]) <= tol * scale))
            return QStringLiteral("%1: %2, expected %3 (|diff| %4 > %5)")
                .arg(index_string(Index(i), shape))
                .arg(got.data[i], 0, 'g', 9)
                .arg(want[i], 0, 'g', 9)
                .arg(std::abs(double(got.data[i]) - want[i]), 0, 'g', 3)
                .arg(tol * scale, 0, 'g', 3);
    return {};
}

/// A JSON array (nested or flat) of numbers as floats, row-major.
std::vector<float> floats_of(const QJsonValue& v) {
    std::vector<float> out;
    if (!v.isArray()) return {static_cast<float>(v.toDouble())};
    for (const QJsonValue x : v.toArray()) {
        const std::vector<float> inner = floats_of(x);
        out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
}

#define CHECK_DIFFERS(message, what)                                                \
    do {                                                                            \
        const QString m_ = (message);                                               \
        QVERIFY2(m_.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(what, m_))); \
    } while (false)

/// |got - want| within kMetricTol × max(1, |want|), with both in the message.
#define CHECK_METRIC(got, want, what)                                           \
    do {                                                                        \
        const double g_ = (got), w_ = (want);                                   \
        QVERIFY2(std::abs(g_ - w_) <= kMetricTol * std::max(1.0, std::abs(w_)), \
                 qPrintable(QStringLiteral("%1: %2, expected %3")               \
                                .arg(what)                                      \
                                .arg(g_, 0, 'g', 9)                             \
                                .arg(w_, 0, 'g', 9)));                          \
    } while (false)

QString tag_of(Index k, const QJsonObject& m) {
    return QStringLiteral("metric %1 (%2)").arg(k).arg(m.value("kind").toString());
}

std::vector<double> doubles_of(const Tensor& t) {
    return {t.data.begin(), t.data.end()};
}

models::PatchRequest patch_request(const Case& c) {
    const QJsonObject eap = c.doc.value("eap").toObject();
    models::PatchRequest r;
    r.clean = {ids_of(eap.value("clean_ids")), c.input.token_type_ids};
    r.corrupt = {ids_of(eap.value("corrupt_ids")), c.input.token_type_ids};
    r.target = eap.value("target").toInteger();
    r.distractor = eap.value("distractor").toInteger();
    r.position = eap.value("position").toInteger();
    r.num_threads = 2;
    return r;
}

/// The message of the exception of type E that `f` throws; "" when it throws none or another.
template <class E, class F>
std::string refusal_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception&) {
    }
    return {};
}

/// `expr` throws E with a one-line message that says `phrase`.
#define EXPECT_THROWS_SAYING(E, expr, phrase)                                                \
    do {                                                                                     \
        const std::string m_ = refusal_of<E>([&] { (void)(expr); });                         \
        QVERIFY2(m_.find(phrase) != std::string::npos && m_.find('\n') == std::string::npos, \
                 qPrintable(QStringLiteral("%1: \"%2\", expected %3 saying \"%4\"")          \
                                .arg(QStringLiteral(#expr), QString::fromStdString(m_),      \
                                     QStringLiteral(#E), QString::fromUtf8(phrase))));       \
    } while (false)

}  // namespace

class TestGradients : public QObject {
    Q_OBJECT
  private slots:
    // An empty index would pass every test below: every family, both kinds of head, every
    // metric kind and the shipped model must be there.
    void caseList() {
        const QJsonArray cases = index_cases();
        QVERIFY2(cases.size() >= 10, "gradient_index.json lists fewer than 10 cases");
        std::set<std::string> families;
        std::set<models::LmHeadKind> heads;
        std::set<QString> kinds;
        for (const QJsonValue v : cases) {
            const Case c = case_named(v.toObject().value("name").toString());
            const auto model = models::load_model(c.model);
            families.insert(model->info().model_type);
            heads.insert(model->lm_head());
            for (const QJsonValue m : c.doc.value("metrics").toArray())
                kinds.insert(m.toObject().value("kind").toString());
        }
        QCOMPARE(families, (std::set<std::string>{"bert", "distilbert", "gpt2", "llama", "qwen2",
                                                  "qwen3", "roberta"}));
        QCOMPARE(heads, (std::set<models::LmHeadKind>{models::LmHeadKind::Causal,
                                                      models::LmHeadKind::Masked}));
        QCOMPARE(kinds, (std::set<QString>{"Logit", "LogitDifference", "LogProb", "SpanLoss"}));
        QVERIFY(case_named("attn_induction").input.ids.size() == 34);
    }

    void gradients_data() {
        add_cases();
        for (const char* name :
             {"gguf:gpt2_lmhead", "gguf:llama_gqa", "gguf:qwen2_bias_bf16", "gguf:qwen3_qknorm"})
            QTest::newRow(name) << QString(name);
    }
    // Every metric of every case: its value, z and x0, ∂m/∂z and ∂m/∂x0.
    void gradients() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = models::open_model_folder(c.model).model;
        const models::ModelInfo& info = model->info();
        const Index N = info.num_layers, E = info.hidden_size;
        const Index Z = info.num_heads * info.head_dim;
        const auto L = static_cast<Index>(c.input.ids.size());
        const QJsonArray metrics = c.doc.value("metrics").toArray();
        const auto M = static_cast<Index>(metrics.size());
        QVERIFY(M >= 2);
        const Tensor contexts = io::read_npy(c.reference + "/gradients_contexts.npy");
        const Tensor embeddings = io::read_npy(c.reference + "/gradients_embeddings.npy");
        const Tensor heads = io::read_npy(c.reference + "/gradients_heads.npy");
        const Tensor inputs = io::read_npy(c.reference + "/gradients_inputs.npy");
        QCOMPARE(heads.shape, (Shape{M, N, L, Z}));
        QCOMPARE(inputs.shape, (Shape{M, L, E}));
        for (Index k = 0; k < M; ++k) {
            const QJsonObject m = metrics[int(k)].toObject();
            const QString tag = tag_of(k, m);
            const models::Gradients g = model->gradients(c.input, metric_of(m), two_threads());
            CHECK_METRIC(g.metric, m.value("value").toDouble(), tag + " value");
            CHECK_DIFFERS(differs(g.contexts, contexts.ptr(), {N, L, Z}, kContextTol, true),
                          tag + " contexts");
            CHECK_DIFFERS(differs(g.embeddings, embeddings.ptr(), {L, E}, kContextTol, true),
                          tag + " embeddings");
            CHECK_DIFFERS(
                differs(g.head_gradients, heads.ptr() + k * N * L * Z, {N, L, Z}, kGradTol),
                tag + " head_gradients");
            CHECK_DIFFERS(
                differs(g.embedding_gradients, inputs.ptr() + k * L * E, {L, E}, kGradTol),
                tag + " embedding_gradients");
        }
        // Without the heads' gradients: nothing of them, the same gradient of x0.
        models::GradientOptions o = two_threads();
        o.head_gradients = false;
        const models::GradientMetric first = metric_of(metrics[0].toObject());
        const models::Gradients lean = model->gradients(c.input, first, o);
        QCOMPARE(lean.head_gradients.numel(), std::size_t(0));
        QCOMPARE(lean.contexts.numel(), std::size_t(0));
        CHECK_DIFFERS(differs(lean.embedding_gradients, inputs.ptr(), {L, E}, kGradTol),
                      QStringLiteral("head_gradients off: embedding_gradients"));
    }

    void saliency_data() { add_cases(); }
    // Gradient × input and integrated gradients over 64 steps of the token embeddings, per
    // token, with m(x), m(x') and the completeness gap.
    void saliency() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = models::load_model(c.model);
        const auto L = static_cast<Index>(c.input.ids.size());
        const QJsonArray metrics = c.doc.value("metrics").toArray();
        const Tensor inputs = io::read_npy(c.reference + "/gradients_inputs.npy");
        const Index E = inputs.dim(2);
        // Completeness holds at 64 steps only with learned positions: a rotary model's baseline
        // is the all-zero input, where its RMSNorms stay scale-invariant down to tiny scales
        // (engine/models/gradient_attribution.h), so its delta is compared, not bounded.
        const bool learned = model->info().position_encoding == "learned";
        QVERIFY(learned || model->info().position_encoding == "rotary");
        double worst = 0.0;
        for (Index k = 0; k < Index(metrics.size()); ++k) {
            const QJsonObject m = metrics[int(k)].toObject();
            const QJsonObject want = m.value("saliency").toObject();
            QCOMPARE(want.value("steps").toInteger(), kIntegratedSteps);
            const QString tag = tag_of(k, m);
            const models::GradientMetric metric = metric_of(m);

            const models::Saliency gi = models::saliency(*model, c.input, metric, 0, two_threads());
            QCOMPARE(gi.steps, Index(0));
            QVERIFY(std::isnan(gi.baseline));
            QVERIFY(std::isnan(gi.delta()));
            CHECK_METRIC(gi.metric, want.value("metric").toDouble(), tag + " m(x)");
            std::vector<float> want_tokens = floats_of(want.value("gradient_x_input"));
            CHECK_DIFFERS(
                differs(Tensor({L}, std::vector<float>(gi.tokens.begin(), gi.tokens.end())),
                        want_tokens.data(), {L}, kGradTol),
                tag + " gradient × input");

            const models::Saliency ig =
                models::saliency(*model, c.input, metric, kIntegratedSteps, two_threads());
            QCOMPARE(ig.steps, kIntegratedSteps);
            CHECK_METRIC(ig.metric, want.value("metric").toDouble(), tag + " m(x)");
            CHECK_METRIC(ig.baseline, want.value("baseline").toDouble(), tag + " m(x')");
            CHECK_METRIC(ig.delta(), want.value("delta").toDouble(), tag + " delta");
            want_tokens = floats_of(want.value("integrated_gradients"));
            CHECK_DIFFERS(
                differs(Tensor({L}, std::vector<float>(ig.tokens.begin(), ig.tokens.end())),
                        want_tokens.data(), {L}, kGradTol),
                tag + " integrated gradients");
            const double span = std::abs(ig.metric - ig.baseline);
            QVERIFY2(span > 1e-3, qPrintable(tag + " m(x) - m(x') " + QString::number(span)));
            const double gap = std::abs(ig.delta()) / span;
            worst = std::max(worst, gap);
            if (learned)
                QVERIFY2(gap <= kCompleteness,
                         qPrintable(QStringLiteral("%1: |delta| %2 is %3% of |m(x) - m(x')| %4")
                                        .arg(tag)
                                        .arg(ig.delta(), 0, 'g', 4)
                                        .arg(100.0 * gap, 0, 'g', 4)
                                        .arg(span, 0, 'g', 6)));
            // The gradients at x come with it: Model::gradients' own.
            CHECK_DIFFERS(
                differs(ig.embedding_gradients, inputs.ptr() + k * L * E, {L, E}, kGradTol),
                tag + " saliency's embedding_gradients");
        }
        qInfo("%s (%s positions): integrated gradients' worst |delta| / |m(x) - m(x')| %.4f%%",
              qPrintable(name), learned ? "learned" : "rotary", 100.0 * worst);
    }

    void knockedOut_data() {
        add_cases();
        QTest::newRow("gguf:qwen2_bias_bf16") << QStringLiteral("gguf:qwen2_bias_bf16");
    }
    // Heads knocked out (GradientOptions::interventions; one zeroed, one mean-knocked): the
    // knocked-out model's metric, z, ∂m/∂z and ∂m/∂x0, its gradient × input and integrated
    // gradients (the mean held along the path), against gradient_reference.py's; the metric is
    // the one a forward pass with the same knock-outs gives.
    void knockedOut() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const QJsonObject doc = test::read_json(c.reference + "/gradients_knocked.json");
        const auto model = models::open_model_folder(c.model).model;
        const models::ModelInfo& info = model->info();
        const Index N = info.num_layers, E = info.hidden_size;
        const Index Z = info.num_heads * info.head_dim;
        const auto L = static_cast<Index>(c.input.ids.size());
        std::vector<models::HeadIntervention> knocked;
        for (const QJsonValue v : doc.value("interventions").toArray()) {
            const QJsonObject k = v.toObject();
            const QString mode = k.value("mode").toString();
            QVERIFY(mode == "zero" || mode == "mean");
            knocked.push_back({{k.value("layer").toInteger(), k.value("head").toInteger()},
                               mode == "mean" ? models::HeadIntervention::Kind::Mean
                                              : models::HeadIntervention::Kind::Zero,
                               nullptr});
        }
        QCOMPARE(knocked.size(), std::size_t(2));
        const QJsonObject m = doc.value("metric").toObject();
        const models::GradientMetric metric = metric_of(m);
        models::GradientOptions o = two_threads();
        o.interventions = knocked;
        const models::Gradients g = model->gradients(c.input, metric, o);
        CHECK_METRIC(g.metric, m.value("value").toDouble(), QStringLiteral("value"));
        const Tensor contexts = io::read_npy(c.reference + "/gradients_knocked_contexts.npy");
        const Tensor heads = io::read_npy(c.reference + "/gradients_knocked_heads.npy");
        const Tensor inputs = io::read_npy(c.reference + "/gradients_knocked_inputs.npy");
        CHECK_DIFFERS(differs(g.contexts, contexts.ptr(), {N, L, Z}, kContextTol, true),
                      QStringLiteral("contexts"));
        CHECK_DIFFERS(differs(g.head_gradients, heads.ptr(), {N, L, Z}, kGradTol),
                      QStringLiteral("head_gradients"));
        CHECK_DIFFERS(differs(g.embedding_gradients, inputs.ptr(), {L, E}, kGradTol),
                      QStringLiteral("embedding_gradients"));
        // A forward pass of the same knocked-out model: the same logit difference.
        models::PredictOptions p;
        p.interventions = knocked;
        p.num_threads = 2;
        const Tensor logits = models::predict(*model, c.input, p).logits;
        const Index V = logits.dim(1);
        const float* row = logits.ptr() + metric.position * V;
        CHECK_METRIC(double(row[metric.target]) - double(row[metric.distractor]), g.metric,
                     QStringLiteral("the forward's logit difference"));

        const QJsonObject want = m.value("saliency").toObject();
        const models::Saliency gi = models::saliency(*model, c.input, metric, 0, o);
        std::vector<float> tokens = floats_of(want.value("gradient_x_input"));
        CHECK_DIFFERS(differs(Tensor({L}, std::vector<float>(gi.tokens.begin(), gi.tokens.end())),
                              tokens.data(), {L}, kGradTol),
                      QStringLiteral("gradient × input"));
        const models::Saliency ig = models::saliency(*model, c.input, metric, kIntegratedSteps, o);
        CHECK_METRIC(ig.baseline, want.value("baseline").toDouble(), QStringLiteral("m(x')"));
        CHECK_METRIC(ig.delta(), want.value("delta").toDouble(), QStringLiteral("delta"));
        tokens = floats_of(want.value("integrated_gradients"));
        CHECK_DIFFERS(differs(Tensor({L}, std::vector<float>(ig.tokens.begin(), ig.tokens.end())),
                              tokens.data(), {L}, kGradTol),
                      QStringLiteral("integrated gradients"));
        if (info.position_encoding == "learned") {
            const double gap = std::abs(ig.delta()) / std::abs(ig.metric - ig.baseline);
            QVERIFY2(gap <= kCompleteness, qPrintable(QString::number(gap)));
        }
        // The caller asked for the head gradients: they are the knocked-out model's too.
        CHECK_DIFFERS(differs(ig.gradients, heads.ptr(), {N, L, Z}, kGradTol),
                      QStringLiteral("saliency's gradients"));
    }

    void attributionPatching_data() { add_cases(); }
    // EAP of every head on the case's patching pair: m_clean, m_corrupt, the estimate, the
    // fraction and the fraction by position; the positions add up to the head's fraction.
    void attributionPatching() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = models::load_model(c.model);
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const QJsonObject want = c.doc.value("eap").toObject();
        const models::PatchRequest request = patch_request(c);
        const auto L = static_cast<Index>(request.clean.ids.size());
        const models::AttributionPatching a =
            models::attribution_patching(*model, request, two_threads());
        QCOMPARE(a.position, want.value("position").toInteger());
        CHECK_METRIC(a.m_clean, want.value("m_clean").toDouble(), QStringLiteral("m_clean"));
        CHECK_METRIC(a.m_corrupt, want.value("m_corrupt").toDouble(), QStringLiteral("m_corrupt"));
        for (const char* key : {"estimate", "fraction"}) {
            const std::vector<float> w = floats_of(want.value(key));
            const Tensor& got = key == std::string("estimate") ? a.estimate : a.fraction;
            CHECK_DIFFERS(differs(got, w.data(), {N, H}, kGradTol), QString(key));
        }
        const Tensor by_position = io::read_npy(c.reference + "/gradients_eap_by_position.npy");
        CHECK_DIFFERS(differs(a.fraction_by_position, by_position.ptr(), {N, H, L}, kGradTol),
                      QStringLiteral("fraction_by_position"));
        for (Index lh = 0; lh < N * H; ++lh) {
            double sum = 0.0;
            for (Index t = 0; t < L; ++t)
                sum += a.fraction_by_position.ptr()[lh * L + t];
            const double f = a.fraction.ptr()[lh];
            QVERIFY2(std::abs(sum - f) <= 1e-5 * std::max(1.0, std::abs(f)),
                     qPrintable(
                         QStringLiteral("head %1: Σ positions %2 vs %3").arg(lh).arg(sum).arg(f)));
        }
    }

    // The claim on the shipped model's patching example (docs/guide.md): EAP and the
    // exact sweep pick the same top head and rank the 16 heads alike (Spearman ≥ 0.8).
    void shippedEapAgreesWithExactSweep() {
        const Case c = case_named("attn_induction");
        const auto model = models::load_model(c.model);
        const models::PatchRequest request = patch_request(c);
        const models::AttributionPatching eap =
            models::attribution_patching(*model, request, two_threads());
        const models::PatchResult exact = models::patch_sweep(*model, request);
        QCOMPARE(exact.fraction.numel(), std::size_t(16));
        const std::vector<float> want =
            floats_of(c.doc.value("eap").toObject().value("exact_fraction"));
        CHECK_DIFFERS(differs(exact.fraction, want.data(), {2, 8}, kGradTol),
                      QStringLiteral("the exact sweep against the reference's"));
        const std::vector<double> e = doubles_of(eap.fraction), x = doubles_of(exact.fraction);
        const Index top_e = std::max_element(e.begin(), e.end()) - e.begin();
        const Index top_x = std::max_element(x.begin(), x.end()) - x.begin();
        const double rho = test::spearman(e, x);
        qInfo("attn-only-2l: EAP top head L%dH%d (%.3f), exact L%dH%d (%.3f), Spearman %.3f",
              int(top_e / 8 + 1), int(top_e % 8 + 1), e[std::size_t(top_e)], int(top_x / 8 + 1),
              int(top_x % 8 + 1), x[std::size_t(top_x)], rho);
        QCOMPARE(top_e, top_x);
        QCOMPARE(top_x, Index(15));  // L2H8, the induction head
        QVERIFY2(rho >= 0.8, qPrintable(QString::number(rho)));
        // The engine's own rank correlation (the window's scatter) says the same.
        QVERIFY2(std::abs(models::spearman(e, x) - rho) <= 1e-12,
                 qPrintable(QString::number(models::spearman(e, x), 'g', 17)));
        // The estimate as a sweep's result: the same fractions, m_patched = m_corrupt + estimate.
        const models::PatchResult p = models::estimated_patch_result(eap);
        QCOMPARE(p.fraction.data, eap.fraction.data);
        QCOMPARE(p.position, eap.position);
        for (std::size_t i = 0; i < p.m_patched.data.size(); ++i)
            QVERIFY(std::abs(double(p.m_patched.data[i]) -
                             (eap.m_corrupt + double(eap.estimate.data[i]))) <= 1e-5);
    }

    // Spearman's rank correlation against values worked by hand: ties take the mean of their
    // ranks; a constant side or fewer than two pairs has none; NaN and uneven sizes are refused.
    void spearmanRanks() {
        // Ranks {0,1,2,3,4} against {0,1,2.5,4,2.5}: 8 / sqrt(10 · 9.5).
        QVERIFY(std::abs(models::spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}) -
                         8.0 / std::sqrt(95.0)) <= 1e-15);
        QCOMPARE(models::spearman({0.1, 0.5, 9.0}, {-3.0, 2.0, 2.5}), 1.0);  // monotone
        QCOMPARE(models::spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
        QVERIFY(std::isnan(models::spearman({1, 1, 1}, {1, 2, 3})));
        QVERIFY(std::isnan(models::spearman({1}, {2})));
        QVERIFY(std::isnan(models::spearman({}, {})));
        const double nan = std::nan("");
        EXPECT_THROWS_SAYING(std::invalid_argument, models::spearman({1, 2}, {1, 2, 3}),
                             "2 values against 3");
        EXPECT_THROWS_SAYING(std::invalid_argument, models::spearman({1, nan}, {1, 2}),
                             "value 1 is NaN");
    }

    // Streaming every layer from the file in each pass gives the numbers kept weights give.
    void streamedWeights() {
        for (const char* name : {"gpt2_lmhead", "qwen2_bias_bf16", "llama3_rope_sharded"}) {
            const Case c = case_named(name);
            const auto model = models::load_model(c.model);
            const models::GradientMetric metric =
                metric_of(c.doc.value("metrics").toArray()[1].toObject());
            models::GradientOptions streamed = two_threads();
            streamed.weight_cache_bytes = 0;
            const models::Gradients kept = model->gradients(c.input, metric, two_threads());
            const models::Gradients s = model->gradients(c.input, metric, streamed);
            QVERIFY2(std::abs(s.metric - kept.metric) <=
                         kStreamedTol * std::max(1.0, std::abs(kept.metric)),
                     name);
            for (const auto& [what, got, want] :
                 {std::tuple{"contexts", &s.contexts, &kept.contexts},
                  std::tuple{"head_gradients", &s.head_gradients, &kept.head_gradients},
                  std::tuple{"embedding_gradients", &s.embedding_gradients,
                             &kept.embedding_gradients}})
                CHECK_DIFFERS(differs(*got, want->ptr(), want->shape, kStreamedTol),
                              QStringLiteral("%1 streamed: %2").arg(name, what));
        }
    }

    // Metrics the input or the head cannot give, and a model without a head: one line each,
    // positions counted from 1.
    void refusals() {
        const auto gpt2 = models::load_model(test::golden_dir() + "/models/gpt2_lmhead");
        const models::ModelInput four{{5, 6, 7, 8}, {}};
        const Index V = gpt2->info().vocab_size;
        QCOMPARE(V, Index(297));
        const auto metric = [](Kind kind, Index position, Index target, Index distractor = 0) {
            models::GradientMetric m;
            m.kind = kind;
            m.position = position;
            m.target = target;
            m.distractor = distractor;
            return m;
        };
        const auto span = [](Index begin, Index end) {
            models::GradientMetric m;
            m.kind = Kind::SpanLoss;
            m.span_begin = begin;
            m.span_end = end;
            return m;
        };
        using std::invalid_argument;
        EXPECT_THROWS_SAYING(invalid_argument, gpt2->gradients(four, metric(Kind::Logit, 4, 1)),
                             "position 5 is not one of the 4 tokens");
        EXPECT_THROWS_SAYING(invalid_argument, gpt2->gradients(four, metric(Kind::LogProb, -1, 1)),
                             "position 0");
        EXPECT_THROWS_SAYING(invalid_argument, gpt2->gradients(four, metric(Kind::Logit, 3, V)),
                             "token id 297 is outside the vocabulary of 297");
        EXPECT_THROWS_SAYING(invalid_argument,
                             gpt2->gradients(four, metric(Kind::LogitDifference, 3, 1, -1)),
                             "token id -1");
        EXPECT_THROWS_SAYING(invalid_argument, gpt2->gradients(four, span(0, 4)), "span");
        EXPECT_THROWS_SAYING(invalid_argument, gpt2->gradients(four, span(2, 2)), "span");
        EXPECT_THROWS_SAYING(invalid_argument,
                             models::saliency(*gpt2, four, metric(Kind::Logit, 3, 1), -1), "step");
        // A knocked-out head the model lacks (gpt2_lmhead: 2 layers of 4 heads).
        models::GradientOptions missing;
        missing.interventions = {{{1, 4}, models::HeadIntervention::Kind::Zero, nullptr}};
        EXPECT_THROWS_SAYING(invalid_argument,
                             gpt2->gradients(four, metric(Kind::Logit, 3, 1), missing),
                             "head 4 of layer 1 does not exist");
        missing.interventions = {{{2, 0}, models::HeadIntervention::Kind::Mean, nullptr}};
        EXPECT_THROWS_SAYING(invalid_argument,
                             models::saliency(*gpt2, four, metric(Kind::Logit, 3, 1), 4, missing),
                             "does not exist");
        models::PatchRequest uneven;
        uneven.clean = four;
        uneven.corrupt = {{5, 6, 7}, {}};
        uneven.target = 1;
        uneven.distractor = 2;
        EXPECT_THROWS_SAYING(invalid_argument, models::attribution_patching(*gpt2, uneven),
                             "as many tokens");
        // In range at both ends.
        QCOMPARE(gpt2->gradients(four, metric(Kind::LogitDifference, 0, V - 1, 0)).contexts.dim(1),
                 Index(4));
        QCOMPARE(gpt2->gradients(four, span(0, 3)).embedding_gradients.dim(0), Index(4));

        const auto bert = models::load_model(test::golden_dir() + "/models/bert_mlm_prefix");
        EXPECT_THROWS_SAYING(invalid_argument, bert->gradients(four, span(0, 3)), "causal");

        const auto bare = models::load_model(test::golden_dir() + "/models/bert_gamma_beta");
        QCOMPARE(bare->lm_head(), models::LmHeadKind::None);
        EXPECT_THROWS_SAYING(DataError, bare->gradients(four, metric(Kind::Logit, 0, 1)),
                             "no masked-LM head");
        uneven.corrupt = four;
        EXPECT_THROWS_SAYING(DataError, models::attribution_patching(*bare, uneven),
                             "no masked-LM head");
    }
};

QTEST_MAIN(TestGradients)
#include "test_gradients.moc"
