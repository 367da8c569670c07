// Residual decomposition and direct logit attribution (engine/models/attribution.h) against the
// float64 references of tests/golden/models/attribution_reference.py: every causal golden
// (GPT-2 with its c_proj bias, Llama with GQA, Llama 3 rotary scaling, Qwen2's q/k/v biases,
// Qwen3's q/k norms) and the shipped attn-only-2l (o_proj bias, no MLP).  Then the sums the parts
// must add up to, and what is refused.
#include <QTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/models/attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"

using namespace attnviz;
using models::StreamComponent;
using Index = std::int64_t;

namespace {

constexpr double kStreamTol = 1e-5;  ///< decomposition: relative to the stream's norm
constexpr double kLogitTol = 1e-4;   ///< DLA: × max(1, |value|)

std::string repo_root() {
    return test::golden_dir() + "/../..";
}

/// A case of tests/golden/models/attribution_index.json, paths from the repository's root.
/// "gguf:" before a name: the same checkpoint as llama.cpp's converter writes it
/// (tests/data/gguf/models); "streamed:": every layer streamed from the file in each pass.
struct Case {
    std::string model, reference;
    models::ModelInput input;
    std::optional<std::size_t> weight_cache_bytes;
};

Case case_named(QString name) {
    Case out;
    if (name.startsWith("streamed:")) out.weight_cache_bytes = 0;
    const bool gguf = name.startsWith("gguf:");
    name = name.section(':', -1);
    const QJsonObject index =
        test::read_json(test::golden_dir() + "/models/attribution_index.json");
    for (const QJsonValue v : index.value("cases").toArray()) {
        const QJsonObject c = v.toObject();
        if (c.value("name").toString() != name) continue;
        const auto at = [&](const char* key) {
            return repo_root() + "/" + c.value(key).toString().toStdString();
        };
        out.model =
            gguf ? test::data_dir() + "/gguf/models/" + name.toStdString() + ".gguf" : at("model");
        out.reference = at("reference");
        out.input.ids = test::read_int64_npy(at("input_ids"));
        return out;
    }
    throw std::runtime_error("no case " + name.toStdString() + " in attribution_index.json");
}

std::unique_ptr<models::Model> open(const Case& c) {
    return models::open_model_folder(c.model).model;
}

models::AttributionOptions options_of(const Case& c) {
    models::AttributionOptions o;
    o.num_threads = 2;
    o.weight_cache_bytes = c.weight_cache_bytes;
    return o;
}

void add_cases() {
    QTest::addColumn<QString>("name");
    const QJsonObject index =
        test::read_json(test::golden_dir() + "/models/attribution_index.json");
    const QJsonArray cases = index.value("cases").toArray();
    // Six causal goldens and attn-only-2l: an empty list would pass every test below.
    QVERIFY2(cases.size() >= 7, "attribution_index.json lists fewer than 7 cases");
    for (const QJsonValue c : cases) {
        const QByteArray name = c.toObject().value("name").toString().toUtf8();
        QTest::newRow(name.constData()) << QString::fromUtf8(name);
    }
    // The weights as a GGUF file holds them (GPT-2's Conv1D stored [out, in], llama's q/k
    // rows permuted), and streamed from the file.
    for (const char* name :
         {"gguf:gpt2_lmhead", "gguf:llama_gqa", "gguf:qwen2_bias_bf16", "gguf:qwen3_qknorm",
          "streamed:qwen2_bias_bf16", "streamed:gpt2_lmhead"})
        QTest::newRow(name) << QString::fromUtf8(name);
}

double norm_of(const float* v, Index n) {
    double s = 0.0;
    for (Index i = 0; i < n; ++i)
        s += double(v[i]) * v[i];
    return std::sqrt(s);
}

/// Empty when every [E] vector of `got` [P, C, E] is within tol × ‖stream_p‖ of `want`'s, else
/// the first that is not.
QString parts_mismatch(const Tensor& got, const Tensor& want, const Tensor& stream,
                       const std::vector<std::string>& names) {
    if (got.shape != want.shape)
        return QStringLiteral("%1 values, expected %2").arg(got.numel()).arg(want.numel());
    const Index P = got.dim(0), C = got.dim(1), E = got.dim(2);
    for (Index p = 0; p < P; ++p) {
        const double tol = kStreamTol * norm_of(stream.ptr() + p * E, E);
        for (Index c = 0; c < C; ++c)
            for (Index e = 0; e < E; ++e) {
                const Index i = (p * C + c) * E + e;
                if (!(std::abs(got.data[i] - want.data[i]) <= tol))
                    return QStringLiteral("position %1, %2, element %3: %4, expected %5 (tol %6)")
                        .arg(p)
                        .arg(QString::fromStdString(names[c]))
                        .arg(e)
                        .arg(got.data[i], 0, 'g', 9)
                        .arg(want.data[i], 0, 'g', 9)
                        .arg(tol);
            }
    }
    return {};
}

/// |got - want| within kLogitTol × max(1, |want|), with both in the message.
#define CHECK_LOGIT(got, want, what)                                           \
    do {                                                                       \
        const double g_ = (got), w_ = (want);                                  \
        QVERIFY2(std::abs(g_ - w_) <= kLogitTol * std::max(1.0, std::abs(w_)), \
                 qPrintable(QStringLiteral("%1: %2, expected %3")              \
                                .arg(what)                                     \
                                .arg(g_, 0, 'g', 9)                            \
                                .arg(w_, 0, 'g', 9)));                         \
    } while (false)

/// The exception `f` throws, as its type's name and message ("" when it throws none).
std::pair<std::string, std::string> thrown_by(const std::function<void()>& f) {
    try {
        f();
    } catch (const DataError& e) {
        return {"DataError", e.what()};
    } catch (const std::invalid_argument& e) {
        return {"invalid_argument", e.what()};
    } catch (const std::exception& e) {
        return {"exception", e.what()};
    }
    return {};
}

/// `expr` throws `type` ("DataError", "invalid_argument") with a one-line message that says
/// `phrase`.
#define EXPECT_REFUSAL(expr, type, phrase)                                                         \
    do {                                                                                           \
        const auto [t_, m_] = thrown_by([&] { (void)(expr); });                                    \
        const std::string say_ = std::string(#expr) + " threw " + (t_.empty() ? "nothing" : t_) +  \
                                 " \"" + m_ + "\", expected " + (type) + " saying \"" + (phrase) + \
                                 "\" on one line";                                                 \
        QVERIFY2(t_ == (type) && m_.find(phrase) != std::string::npos &&                           \
                     m_.find('\n') == std::string::npos,                                           \
                 say_.c_str());                                                                    \
    } while (false)

/// Every scalar of `a` against the reference's `want` (total, constant, embeddings, the frozen
/// scale, each head, attention bias and MLP, null where the model has none), and the parts plus
/// the constant against the total; `tag` opens each message.  Call, then return if
/// QTest::currentTestFailed().
void check_parts(const models::LogitAttribution& a, const QJsonObject& want, const QString& tag) {
    const Index N = a.heads.dim(0), H = a.heads.dim(1);
    CHECK_LOGIT(a.total, want.value("total").toDouble(), tag + "total");
    CHECK_LOGIT(a.constant, want.value("constant").toDouble(), tag + "constant");
    CHECK_LOGIT(a.embeddings, want.value("embeddings").toDouble(), tag + "embeddings");
    QVERIFY2(std::abs(a.norm_scale / want.value("norm_scale").toDouble() - 1.0) < 1e-5,
             qPrintable(QString::number(a.norm_scale)));
    const QJsonArray heads = want.value("heads").toArray();
    QCOMPARE(heads.size(), N);
    double sum = a.embeddings + a.constant;
    for (Index l = 0; l < N; ++l) {
        for (Index h = 0; h < H; ++h) {
            const double got = a.heads.ptr()[l * H + h];
            CHECK_LOGIT(got, heads[l].toArray()[h].toDouble(),
                        tag + QStringLiteral("L%1H%2").arg(l + 1).arg(h + 1));
            sum += got;
        }
        for (const auto& [key, values] :
             {std::pair{"attention_bias", &a.attention_bias}, std::pair{"mlps", &a.mlps}}) {
            const QJsonValue w = want.value(key).toArray()[l];
            const double g = (*values)[static_cast<std::size_t>(l)];
            const QString what_part = tag + QStringLiteral("%1[%2]").arg(key).arg(l + 1);
            QVERIFY2(std::isnan(g) == w.isNull(), qPrintable(what_part + ": null?"));
            if (!w.isNull()) {
                CHECK_LOGIT(g, w.toDouble(), what_part);
                sum += g;
            }
        }
    }
    // The parts plus the constant are the total.
    CHECK_LOGIT(sum, a.total, tag + "Σ parts + constant");
}

Tensor slice(const Tensor& t, Index i) {
    Shape rest(t.shape.begin() + 1, t.shape.end());
    const auto n = static_cast<Index>(t.numel() / static_cast<std::size_t>(t.dim(0)));
    return Tensor(rest, std::vector<float>(t.ptr() + i * n, t.ptr() + (i + 1) * n));
}

/// A reference's target: its position, target and distractor (null: none).
models::LogitTarget target_of(const QJsonObject& want) {
    models::LogitTarget what;
    what.position = want.value("position").toInteger();
    what.target = want.value("target").toInteger();
    if (!want.value("distractor").isNull()) what.distractor = want.value("distractor").toInteger();
    return what;
}

/// The knock-outs of the reference's attribution_knockout.json: the last layer's largest head
/// by zeros, the first layer's by its mean.
std::vector<models::HeadIntervention> reference_knock_outs(const QJsonObject& ref) {
    std::vector<models::HeadIntervention> out;
    for (const QJsonValue v : ref.value("knocked_out").toArray()) {
        const QJsonObject k = v.toObject();
        models::HeadIntervention iv;
        iv.head = {k.value("layer").toInteger(), k.value("head").toInteger()};
        iv.kind = k.value("mode").toString() == QLatin1String("mean")
                      ? models::HeadIntervention::Kind::Mean
                      : models::HeadIntervention::Kind::Zero;
        out.push_back(iv);
    }
    return out;
}

/// Empty when `got` equals `want` bit for bit (NaN where `want` has NaN), but for the sources of
/// the heads in `loose` (layer · H + head), which may differ by `tol`; else the first
/// difference, with both values.
QString attribution_difference(const models::LogitAttribution& got,
                               const models::LogitAttribution& want,
                               const std::vector<Index>& loose = {}, double tol = 0.0) {
    const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    const auto say = [](const QString& what, double a, double b) {
        return QStringLiteral("%1: %2, expected %3")
            .arg(what)
            .arg(a, 0, 'g', 17)
            .arg(b, 0, 'g', 17);
    };
    for (const auto& [what, a, b] : {std::tuple{"total", got.total, want.total},
                                     std::tuple{"constant", got.constant, want.constant},
                                     std::tuple{"embeddings", got.embeddings, want.embeddings},
                                     std::tuple{"norm_scale", got.norm_scale, want.norm_scale}})
        if (!same(a, b)) return say(what, a, b);
    if (got.heads.shape != want.heads.shape || got.by_source.shape != want.by_source.shape ||
        got.mlps.size() != want.mlps.size() ||
        got.attention_bias.size() != want.attention_bias.size())
        return QStringLiteral("the shapes differ");
    for (std::size_t i = 0; i < want.heads.numel(); ++i)
        if (!same(got.heads.data[i], want.heads.data[i]))
            return say(QStringLiteral("head %1").arg(i), got.heads.data[i], want.heads.data[i]);
    for (std::size_t l = 0; l < want.mlps.size(); ++l) {
        if (!same(got.mlps[l], want.mlps[l]))
            return say(QStringLiteral("mlp %1").arg(l), got.mlps[l], want.mlps[l]);
        if (!same(got.attention_bias[l], want.attention_bias[l]))
            return say(QStringLiteral("attention bias %1").arg(l), got.attention_bias[l],
                       want.attention_bias[l]);
    }
    const Index L = want.by_source.dim(2);
    for (std::size_t i = 0; i < want.by_source.numel(); ++i) {
        const bool lax = std::find(loose.begin(), loose.end(), Index(i) / L) != loose.end();
        const double a = got.by_source.data[i], b = want.by_source.data[i];
        if (lax ? !(std::abs(a - b) <= tol) : !same(a, b))
            return say(QStringLiteral("source %1 of head %2").arg(Index(i) % L).arg(Index(i) / L),
                       a, b);
    }
    return {};
}

}  // namespace

class TestAttribution : public QObject {
    Q_OBJECT
  private slots:
    void decomposition_data() { add_cases(); }
    // Every component at two positions, before the middle layer and after the last, against the
    // reference; and they add up to the pass's own stream.
    void decomposition() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = open(c);
        const QJsonObject ref = test::read_json(c.reference + "/attribution.json");
        std::vector<Index> positions;
        for (const QJsonValue p : ref.value("positions").toArray())
            positions.push_back(p.toInteger());
        QCOMPARE(positions.size(), std::size_t(2));
        const Tensor streams = io::read_npy(c.reference + "/attribution_stream.npy");
        const QJsonArray layers = ref.value("layers").toArray();
        const QJsonObject names = ref.value("components").toObject();
        const char* which[] = {"mid", "last"};
        const Index E = model->info().hidden_size;
        const models::AttributionOptions options = options_of(c);
        for (int k = 0; k < 2; ++k) {
            const Index layer = layers[k].toInteger();
            const models::Decomposition d =
                models::decompose(*model, c.input, layer, positions, options);
            QCOMPARE(d.layer, layer);
            std::vector<std::string> got_names, want_names;
            for (const StreamComponent& s : d.components)
                got_names.push_back(s.name());
            for (const QJsonValue n : names.value(which[k]).toArray())
                want_names.push_back(n.toString().toStdString());
            QCOMPARE(got_names, want_names);

            const Tensor stream = slice(streams, k);
            const QString ms = parts_mismatch(Tensor({2, 1, E}, d.stream.data),
                                              Tensor({2, 1, E}, stream.data), stream, {"stream"});
            QVERIFY2(ms.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(which[k], ms)));
            const Tensor want =
                io::read_npy(c.reference + "/attribution_parts_" + which[k] + ".npy");
            const QString m = parts_mismatch(d.parts, want, stream, got_names);
            QVERIFY2(m.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(which[k], m)));

            // Σ components = the stream, within 1e-5 of its norm.
            const Index C = static_cast<Index>(d.components.size());
            for (Index p = 0; p < 2; ++p) {
                const float* x = d.stream.ptr() + p * E;
                const double tol = kStreamTol * norm_of(x, E);
                for (Index e = 0; e < E; ++e) {
                    double sum = 0.0;
                    for (Index i = 0; i < C; ++i)
                        sum += d.parts.ptr()[(p * C + i) * E + e];
                    QVERIFY2(std::abs(sum - x[e]) <= tol,
                             qPrintable(QStringLiteral("%1 position %2 element %3: Σ %4 vs %5")
                                            .arg(which[k])
                                            .arg(p)
                                            .arg(e)
                                            .arg(sum)
                                            .arg(x[e])));
                }
            }
        }
    }

    void logitAttribution_data() { add_cases(); }
    // The logit of the argmax token, and its difference with the second: every part, the
    // constant, the frozen scale and the split by source against the reference; the parts add
    // up to the total, the total is the model's own logit, each head's sources add up to it.
    void logitAttribution() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = open(c);
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const auto L = static_cast<Index>(c.input.ids.size());
        const QJsonArray dla =
            test::read_json(c.reference + "/attribution.json").value("dla").toArray();
        QCOMPARE(dla.size(), 2);
        const Tensor sources = io::read_npy(c.reference + "/attribution_by_source.npy");
        QCOMPARE(sources.shape, (Shape{2, N, H, L}));
        models::PredictOptions po;
        const models::Prediction pred = models::predict(*model, c.input, po);
        const Index V = pred.logits.dim(1);
        const models::AttributionOptions options = options_of(c);
        for (int k = 0; k < 2; ++k) {
            const QJsonObject want = dla[k].toObject();
            const models::LogitTarget what = target_of(want);
            QCOMPARE(what.distractor.has_value(), k == 1);
            const models::LogitAttribution a =
                models::attribute_logit(*model, c.input, what, options);
            const QString tag = k ? QStringLiteral("difference ") : QStringLiteral("logit ");
            QCOMPARE(a.heads.shape, (Shape{N, H}));
            check_parts(a, want, tag);
            if (QTest::currentTestFailed()) return;
            // The total is the model's own logit.
            const float* row = pred.logits.ptr() + what.position * V;
            CHECK_LOGIT(a.total, row[what.target] - (k ? row[*what.distractor] : 0.0f),
                        tag + "the model's logit");

            QCOMPARE(a.by_source.shape, (Shape{N, H, L}));
            const auto cmp = test::compare_tensors(a.by_source, slice(sources, k), kLogitTol);
            QVERIFY2(cmp.ok, qPrintable(tag + "by source: " + QString::fromStdString(cmp.message)));
            for (Index lh = 0; lh < N * H; ++lh) {
                double row_sum = 0.0;
                for (Index j = 0; j < L; ++j)
                    row_sum += a.by_source.ptr()[lh * L + j];
                const double head = a.heads.ptr()[lh];
                QVERIFY2(std::abs(row_sum - head) <= 1e-5 * std::max(1.0, std::abs(head)),
                         qPrintable(tag + QStringLiteral("head %1: Σ sources %2 vs %3")
                                              .arg(lh)
                                              .arg(row_sum)
                                              .arg(head)));
                // Causal: nothing comes from a later token.
                for (Index j = what.position + 1; j < L; ++j)
                    QCOMPARE(a.by_source.ptr()[lh * L + j], 0.0f);
            }
        }
    }

    void knockedOutHeads_data() { add_cases(); }
    // The reference's knock-outs (the last layer's largest head by zeros, the first layer's by
    // its mean): every part, the total and the split by source of the knocked-out model; the
    // zero-knocked head's share and sources are exact zeros; the parts add up to the
    // knocked-out model's own logit, which predict() with the same heads gives.
    void knockedOutHeads() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = open(c);
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const auto L = static_cast<Index>(c.input.ids.size());
        const QJsonObject ref = test::read_json(c.reference + "/attribution_knockout.json");
        const QJsonObject want = ref.value("dla").toObject();
        models::AttributionOptions options = options_of(c);
        options.interventions = reference_knock_outs(ref);
        QCOMPARE(options.interventions.size(), std::size_t(2));
        QCOMPARE(options.interventions[0].kind, models::HeadIntervention::Kind::Zero);
        QCOMPARE(options.interventions[1].kind, models::HeadIntervention::Kind::Mean);
        const models::LogitTarget what = target_of(want);
        const models::LogitAttribution a = models::attribute_logit(*model, c.input, what, options);
        QCOMPARE(a.heads.shape, (Shape{N, H}));
        check_parts(a, want, QStringLiteral("knocked out: "));
        if (QTest::currentTestFailed()) return;
        const auto cmp = test::compare_tensors(
            a.by_source, io::read_npy(c.reference + "/attribution_knockout_by_source.npy"),
            kLogitTol);
        QVERIFY2(cmp.ok, qPrintable("by source: " + QString::fromStdString(cmp.message)));
        // The mean-knocked head's sources (its column means) add up to its share.
        const models::HeadRef mean = options.interventions[1].head;
        double mean_sources = 0.0;
        for (Index j = 0; j < L; ++j)
            mean_sources += a.by_source.ptr()[(mean.layer * H + mean.head) * L + j];
        ATTNVIZ_FUZZY(mean_sources, a.heads.ptr()[mean.layer * H + mean.head], 1e-5);
        // Zero-knocked: nothing at all, not a rounding's worth.
        const models::HeadRef zero = options.interventions[0].head;
        QCOMPARE(a.heads.ptr()[zero.layer * H + zero.head], 0.0f);
        for (Index j = 0; j < L; ++j)
            QCOMPARE(a.by_source.ptr()[(zero.layer * H + zero.head) * L + j], 0.0f);
        models::PredictOptions po;
        po.interventions = options.interventions;
        const models::Prediction pred = models::predict(*model, c.input, po);
        CHECK_LOGIT(a.total, pred.logits.ptr()[what.position * pred.logits.dim(1) + what.target],
                    "the knocked-out model's logit");
    }

    void attributionFromARecord_data() { add_cases(); }
    // A record of the text's pass (record_stream with the attention) gives the very numbers of
    // attribute_logit's own pass, logit and difference, and with the reference's knock-outs
    // (recorded with them) too, but the mean-knocked head's sources: the pass sums its
    // attention's columns thread by thread, the record row by row, so they may differ by a
    // float's rounding (1e-6).  Both against the reference; the record holds what
    // stream_record_bytes says.
    void attributionFromARecord() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = open(c);
        const Index H = model->info().num_heads;
        const auto L = static_cast<Index>(c.input.ids.size());
        const QJsonObject ref = test::read_json(c.reference + "/attribution.json");
        const QJsonArray dla = ref.value("dla").toArray();
        QCOMPARE(dla.size(), 2);
        const models::AttributionOptions options = options_of(c);
        const models::StreamRecord record = models::record_stream(
            *model, c.input, options, models::RecordedParts::StreamAndAttention);
        QVERIFY(record.has_attention());
        std::size_t bytes = 0;
        for (const auto* part :
             {&record.residuals, &record.contexts, &record.values, &record.attention})
            for (const Tensor& t : *part)
                bytes += t.numel() * sizeof(float);
        QCOMPARE(bytes, models::stream_record_bytes(model->config(), L,
                                                    models::RecordedParts::StreamAndAttention));
        for (int k = 0; k < 2; ++k) {
            const QJsonObject want = dla[k].toObject();
            const models::LogitTarget what = target_of(want);
            const models::LogitAttribution got =
                models::attribute_logit(*model, record, what, options);
            const QString tag = k ? QStringLiteral("difference ") : QStringLiteral("logit ");
            check_parts(got, want, tag);
            if (QTest::currentTestFailed()) return;
            const QString d = attribution_difference(
                got, models::attribute_logit(*model, c.input, what, options));
            QVERIFY2(d.isEmpty(), qPrintable(tag + d));
        }

        const QJsonObject knockout = test::read_json(c.reference + "/attribution_knockout.json");
        models::AttributionOptions knocked = options;
        knocked.interventions = reference_knock_outs(knockout);
        QCOMPARE(knocked.interventions.size(), std::size_t(2));
        const QJsonObject want = knockout.value("dla").toObject();
        const models::LogitTarget what = target_of(want);
        // The record of the intact pass is not the knocked-out model's: refused.
        EXPECT_REFUSAL(models::attribute_logit(*model, record, what, knocked), "invalid_argument",
                       "other heads knocked out");
        const models::StreamRecord knocked_record = models::record_stream(
            *model, c.input, knocked, models::RecordedParts::StreamAndAttention);
        QVERIFY(knocked_record.is_pass_of(c.input,
                                          {knocked.interventions[1], knocked.interventions[0]}));
        QVERIFY(!knocked_record.is_pass_of(c.input, {knocked.interventions[1]}));
        QVERIFY(!knocked_record.is_pass_of({{c.input.ids.front()}, {}}, knocked.interventions));
        EXPECT_REFUSAL(models::attribute_logit(*model, knocked_record, what, options),
                       "invalid_argument", "other heads knocked out");
        const models::LogitAttribution got =
            models::attribute_logit(*model, knocked_record, what, knocked);
        check_parts(got, want, QStringLiteral("knocked out: "));
        if (QTest::currentTestFailed()) return;
        const models::HeadRef mean = knocked.interventions[1].head;
        const QString d =
            attribution_difference(got, models::attribute_logit(*model, c.input, what, knocked),
                                   {mean.layer * H + mean.head}, 1e-6);
        QVERIFY2(d.isEmpty(), qPrintable("knocked out: " + d));
    }

    // A viewer's own pass, its maps handed on, records the stream and the attention the
    // attribution reads: the record gives the numbers of attribute_logit's pass (the maps do not
    // change the stream), the viewer gets every layer it gets without the recorder; a pass that
    // hands the rows of some layers only records the stream alone, which decompose() reads and
    // attribute_logit() refuses.
    void aViewersPassIsRecordedAsItRuns() {
        const auto model = models::load_model(test::golden_dir() + "/models/llama_gqa");
        const Index N = model->info().num_layers;
        const models::ModelInput in{{5, 6, 7, 8, 9, 10, 11}, {}};
        models::ModelForwardOptions forward;
        forward.num_threads = 2;
        models::CollectingSink maps;
        models::StreamRecorder recorder(model->config(), in, forward,
                                        models::RecordedParts::StreamAndAttention, &maps);
        model->forward(in, forward, recorder);
        const models::StreamRecord record = recorder.take();
        QCOMPARE(maps.layers.size(), std::size_t(N));
        QVERIFY(record.has_attention());
        // The recorded weights are the maps the viewer was given.
        for (Index l = 0; l < N; ++l)
            QCOMPARE(record.attention[std::size_t(l)].data,
                     maps.results[std::size_t(l)].weights.data);
        models::AttributionOptions options;
        options.num_threads = 2;
        for (const Index position : {Index{0}, Index{3}, Index{6}}) {
            const models::LogitTarget what{position, 9, 11};
            const QString d =
                attribution_difference(models::attribute_logit(*model, record, what, options),
                                       models::attribute_logit(*model, in, what, options));
            QVERIFY2(d.isEmpty(),
                     qPrintable(QStringLiteral("position %1: %2").arg(position).arg(d)));
        }

        models::ModelForwardOptions first = forward;
        first.scope.layers = {0};
        models::CollectingSink one;
        models::StreamRecorder partial(model->config(), in, first,
                                       models::RecordedParts::StreamAndAttention, &one);
        model->forward(in, first, partial);
        const models::StreamRecord stream = partial.take();
        QCOMPARE(one.layers, std::vector<std::int64_t>{0});
        QVERIFY(!stream.has_attention());
        QCOMPARE(models::decompose(*model, stream, N, {6}).parts.data,
                 models::decompose(*model, in, N, {6}).parts.data);
        EXPECT_REFUSAL(models::attribute_logit(*model, stream, {6, 9, {}}), "invalid_argument",
                       "no attention weights");
        models::ModelForwardOptions variants = forward;
        variants.attention = false;
        variants.variants = {{}, {}};
        EXPECT_REFUSAL(
            models::StreamRecorder(model->config(), in, variants, models::RecordedParts::Stream),
            "invalid_argument", "2 variants");
    }

    // A patched head's source run is not the attribution's: refused; a head the model lacks
    // is refused as every pass refuses it.
    void patchedHeadsAreRefused() {
        const auto model = models::load_model(test::golden_dir() + "/models/gpt2_lmhead");
        const models::ModelInput in{{5, 6, 7, 8}, {}};
        models::AttributionOptions o;
        models::HeadIntervention iv;
        iv.kind = models::HeadIntervention::Kind::Patch;
        o.interventions = {iv};
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {3, 1, {}}, o), "invalid_argument",
                       "not patched ones");
        o.interventions = {{{0, 9}, models::HeadIntervention::Kind::Zero, nullptr}};
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {3, 1, {}}, o), "invalid_argument",
                       "head 9 of layer 0 does not exist");
    }

    // BERT, RoBERTa and DistilBERT normalise the stream between blocks: refused, with why.
    void postNormIsRefused() {
        for (const char* name : {"bert_mlm_prefix", "roberta", "distilbert"}) {
            const auto model = models::load_model(test::golden_dir() + "/models/" + name);
            const models::ModelInput in{{1, 2, 3}, {}};
            EXPECT_REFUSAL(models::decompose(*model, in, 1, {0}), "DataError", "post-norm");
            EXPECT_REFUSAL(models::attribute_logit(*model, in, {0, 1, {}}), "DataError",
                           "post-norm");
        }
    }

    // A bare encoder has no logits to attribute: the same reason predict gives.
    void noLanguageModelHeadIsRefused() {
        const auto model = models::load_model(test::golden_dir() + "/models/bert_gamma_beta");
        QCOMPARE(model->lm_head(), models::LmHeadKind::None);
        EXPECT_REFUSAL(models::attribute_logit(*model, {{1, 2, 3}, {}}, {0, 1, {}}), "DataError",
                       "no masked-LM head");
    }

    // Layers, positions and ids outside the model or the text, counted from 1 in the message.
    void outOfRangeIsRefused() {
        const auto model = models::load_model(test::golden_dir() + "/models/gpt2_lmhead");
        const models::ModelInput in{{5, 6, 7, 8}, {}};
        const Index N = model->info().num_layers, V = model->info().vocab_size;
        QCOMPARE(N, Index(2));
        QCOMPARE(V, Index(297));
        EXPECT_REFUSAL(models::decompose(*model, in, N + 1, {0}), "invalid_argument", "layer 4");
        EXPECT_REFUSAL(models::decompose(*model, in, -1, {0}), "invalid_argument", "layer 0");
        EXPECT_REFUSAL(models::decompose(*model, in, 1, {4}), "invalid_argument",
                       "position 5 is not one of the 4 tokens");
        EXPECT_REFUSAL(models::decompose(*model, in, 1, {-1}), "invalid_argument", "position 0");
        EXPECT_REFUSAL(models::decompose(*model, in, 1, {}), "invalid_argument", "no positions");
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {4, 1, {}}), "invalid_argument",
                       "position 5");
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {3, V, {}}), "invalid_argument",
                       "token id 297 is outside the vocabulary of 297");
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {3, -1, {}}), "invalid_argument",
                       "token id -1");
        EXPECT_REFUSAL(models::attribute_logit(*model, in, {3, 1, V + 5}), "invalid_argument",
                       "token id 302");
        // In range at both ends: the first position, the stream after the last layer.
        QCOMPARE(models::decompose(*model, in, N, {0, 3}).parts.dim(0), Index(2));
        QCOMPARE(models::attribute_logit(*model, in, {0, V - 1, 0}).by_source.dim(2), Index(4));
    }

    // The awkward ends: before the first layer the stream is the embeddings alone; with one
    // token every head reads only itself, so its one source carries its whole share.
    void edgeShapes() {
        const auto model = models::load_model(test::golden_dir() + "/models/llama_gqa");
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const models::ModelInput three{{5, 6, 7}, {}};
        const models::Decomposition d = models::decompose(*model, three, 0, {2});
        QCOMPARE(d.components.size(), std::size_t(1));
        QCOMPARE(d.components[0].name(), std::string("embed"));
        QCOMPARE(d.parts.data, d.stream.data);
        const models::LogitAttribution a = models::attribute_logit(*model, {{5}, {}}, {0, 9, 11});
        QCOMPARE(a.by_source.shape, (Shape{N, H, 1}));
        for (Index lh = 0; lh < N * H; ++lh)
            ATTNVIZ_FUZZY(a.by_source.ptr()[lh], a.heads.ptr()[lh], 1e-6);
        double sum = a.constant + a.embeddings;
        for (Index l = 0; l < N; ++l) {
            QVERIFY(std::isnan(a.attention_bias[std::size_t(l)]));  // llama without a bias
            sum += a.mlps[std::size_t(l)];
            for (Index h = 0; h < H; ++h)
                sum += a.heads.ptr()[l * H + h];
        }
        ATTNVIZ_FUZZY(sum, a.total, 1e-4 * std::max(1.0, std::abs(a.total)));
    }

    // Names as the command line prints them: layers and heads from 1.
    void componentNames() {
        using K = StreamComponent::Kind;
        QCOMPARE(StreamComponent({K::Embedding, -1, -1}).name(), std::string("embed"));
        QCOMPARE(StreamComponent({K::Head, 2, 3}).name(), std::string("L3H4"));
        QCOMPARE(StreamComponent({K::AttentionBias, 1, -1}).name(), std::string("L2.attn_bias"));
        QCOMPARE(StreamComponent({K::Mlp, 1, -1}).name(), std::string("L2.mlp"));
    }
};

QTEST_MAIN(TestAttribution)
#include "test_attribution.moc"
