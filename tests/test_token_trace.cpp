// The whole model at one token (models::trace_token): every vector the trace hands over is the
// engine's own pass's (the residual streams, contexts, attention rows, q/k/v of the steps
// layer and the logits, within 1e-6), the parts add up (residual + attention output = the
// stream after attention, and the MLP likewise), and the layers' outputs match the float64
// reference of tests/golden/models/hf_reference.py.  On every tiny checkpoint of every family
// and on the shipped models.  And the sampling the whole-model view and generate() share.
#include <QTest>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "engine/models/token_trace.h"
#include "test_support.h"

using namespace attnviz;
using models::TraceStep;
using Index = std::int64_t;
namespace json = io::json;

namespace {

std::string resources_dir() {
    return test::golden_dir() + "/../../resources/models";
}

/// Every golden checkpoint (tests/golden/models/index.json) and every shipped model.
std::vector<std::string> model_dirs() {
    std::vector<std::string> out;
    const json::Document doc =
        json::parse(io::read_file(test::golden_dir() + "/models/index.json"));
    for (json::Element c : json::Array(*json::find(doc.root(), "cases")))
        out.push_back(test::golden_dir() + "/models/" +
                      std::string(*json::as_string(*json::find(c, "name"))));
    for (const char* shipped : {"attn-only-2l", "attn-only-zh-en-2l", "char-zh-en-4l"})
        out.push_back(resources_dir() + "/" + shipped);
    return out;
}

models::ModelInput input_of(const std::string& dir, const models::Model& model) {
    models::ModelInput in;
    if (std::filesystem::exists(dir + "/reference/input_ids.npy")) {
        in.ids = test::read_int64_npy(dir + "/reference/input_ids.npy");
        if (std::filesystem::exists(dir + "/reference/token_type_ids.npy"))
            in.token_type_ids = test::read_int64_npy(dir + "/reference/token_type_ids.npy");
    } else {  // a shipped model: a repeated run of ids, what its examples write
        const Index V = model.info().vocab_size;
        for (Index t = 0; t < 12; ++t)
            in.ids.push_back((t % 6) * 7 % V + 1);
    }
    return in;
}

/// Empty when `got` equals `want` within 1e-6 relative (to the row's largest value).
QString differs(const float* got, const float* want, std::size_t n, double tol = 1e-6) {
    double scale = 1.0;
    for (std::size_t i = 0; i < n; ++i)
        scale = std::max(scale, double(std::abs(want[i])));
    for (std::size_t i = 0; i < n; ++i)
        if (!(std::abs(double(got[i]) - double(want[i])) <= tol * scale))
            return QStringLiteral("[%1] %2, expected %3").arg(i).arg(got[i]).arg(want[i]);
    return {};
}

#define SAME(got, want, n, what)                                                        \
    do {                                                                                \
        const QString m_ = differs(got, want, n);                                       \
        QVERIFY2(m_.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(what).arg(m_))); \
    } while (0)

/// Keeps every residual stream, context and (with maps) every layer's attention and steps.
class EverythingSink : public models::StreamSink {
  public:
    EverythingSink() : StreamSink(true) {}
    void on_layer(Index layer, AttentionResult&& a) override {
        if (std::size_t(layer) >= maps.size()) maps.resize(std::size_t(layer) + 1);
        maps[std::size_t(layer)] = std::move(a);
    }
    std::vector<AttentionResult> maps;
};

}  // namespace

class TestTokenTrace : public QObject {
    Q_OBJECT
  private slots:
    void everyModel_data() {
        QTest::addColumn<QString>("dir");
        for (const std::string& d : model_dirs())
            QTest::newRow(std::filesystem::path(d).filename().string().c_str())
                << QString::fromStdString(d);
    }

    void everyModel() {
        QFETCH(QString, dir);
        const std::string d = dir.toStdString();
        const models::OpenedModel opened = models::open_model_folder(d);
        const models::Model& model = *opened.model;
        const models::ModelInfo& info = model.info();
        const models::ModelInput in = input_of(d, model);
        const auto L = Index(in.ids.size());
        const Index N = info.num_layers, H = info.num_heads, KV = info.num_kv_heads;
        const Index E = info.hidden_size, hd = info.head_dim;
        const bool rotary = info.position_encoding == "rotary";
        const bool mlp = info.intermediate_size > 0;
        const Tensor* golden = nullptr;
        Tensor hidden;
        if (std::filesystem::exists(d + "/reference/hidden_states.npy")) {
            hidden = io::read_npy(d + "/reference/hidden_states.npy");
            golden = &hidden;
        }

        for (const Index t : {Index(0), L / 2, L - 1}) {
            const models::TokenTrace tr = models::trace_token(model, in, t, {}, 2);
            QCOMPARE(tr.position, t);
            QCOMPARE(tr.id, in.ids[std::size_t(t)]);
            QCOMPARE(tr.layers, N);

            // The engine's own pass, with everything kept, one layer's steps at a time.
            for (Index layer = 0; layer < N; ++layer) {
                EverythingSink all;
                models::ModelForwardOptions fo;
                fo.steps_layer = layer;
                fo.num_threads = 2;
                model.forward(in, fo, all);
                const float* x_in = all.residuals[std::size_t(layer)].ptr() + t * E;
                const float* x_out = all.residuals[std::size_t(layer) + 1].ptr() + t * E;
                if (layer == 0) {
                    const models::TraceVector* emb = tr.find(-1, TraceStep::Embedding);
                    QVERIFY(emb);
                    SAME(emb->values.data(), x_in, std::size_t(E), "embedding");
                    const models::TraceVector* tok = tr.find(-1, TraceStep::TokenEmbedding);
                    QVERIFY(tok);
                    QCOMPARE(tok->cols, E);
                    QCOMPARE(bool(tr.find(-1, TraceStep::PositionEmbedding)), !rotary);
                }
                const auto at = [&](TraceStep s) {
                    const models::TraceVector* v = tr.find(layer, s);
                    if (!v) qFatal("layer %d has no %s", int(layer), models::trace_step_name(s));
                    return v;
                };
                // Attention: each head's row over the keys, as the maps give it.
                const models::TraceVector* att = at(TraceStep::Attention);
                QCOMPARE(att->rows, H);
                QCOMPARE(att->cols, L);
                const AttentionResult& map = all.maps[std::size_t(layer)];
                for (Index h = 0; h < H; ++h)
                    SAME(att->values.data() + h * L, map.weights.ptr() + (h * L + t) * L,
                         std::size_t(L),
                         QStringLiteral("layer %1 head %2 attention").arg(layer).arg(h));
                // Q, K, V of the steps layer (before the rotation where there is one).
                QVERIFY(map.steps);
                for (Index h = 0; h < H; ++h) {
                    const HeadSteps& st = map.steps->heads[std::size_t(h)];
                    const Tensor& q = rotary ? st.q_unrotated : st.q;
                    SAME(at(TraceStep::Query)->values.data() + h * hd, q.ptr() + t * hd,
                         std::size_t(hd), "query");
                    if (rotary)
                        SAME(at(TraceStep::QueryRotated)->values.data() + h * hd,
                             st.q.ptr() + t * hd, std::size_t(hd), "rotated query");
                    const Index g = st.kv_head;
                    const Tensor& k = rotary ? st.k_unrotated : st.k;
                    SAME(at(TraceStep::Key)->values.data() + g * hd, k.ptr() + t * hd,
                         std::size_t(hd), "key");
                    SAME(at(TraceStep::Value)->values.data() + g * hd, st.v.ptr() + t * hd,
                         std::size_t(hd), "value");
                }
                QCOMPARE(at(TraceStep::Key)->rows, KV);
                SAME(at(TraceStep::Context)->values.data(),
                     all.contexts[std::size_t(layer)]->ptr() + t * H * hd, std::size_t(H * hd),
                     "context");
                SAME(at(TraceStep::AttentionOutput)->values.data(), map.output.ptr() + t * E,
                     std::size_t(E), "attention output");
                // The parts add up, and the layer's output is the next residual stream.
                const float* o = at(TraceStep::AttentionOutput)->values.data();
                std::vector<float> sum(static_cast<std::size_t>(E));
                for (Index e = 0; e < E; ++e)
                    sum[std::size_t(e)] = x_in[e] + o[e];
                SAME(at(TraceStep::AttentionResidual)->values.data(), sum.data(), std::size_t(E),
                     "x + attention");
                const TraceStep out_step = !info.pre_norm ? TraceStep::MlpResidualNorm
                                           : mlp          ? TraceStep::MlpResidual
                                                          : TraceStep::AttentionResidual;
                SAME(at(out_step)->values.data(), x_out, std::size_t(E), "layer output");
                if (mlp) {
                    const float* before = at(info.pre_norm ? TraceStep::AttentionResidual
                                                           : TraceStep::AttentionResidualNorm)
                                              ->values.data();
                    const float* down = at(TraceStep::MlpOutput)->values.data();
                    for (Index e = 0; e < E; ++e)
                        sum[std::size_t(e)] = before[e] + down[e];
                    SAME(at(TraceStep::MlpResidual)->values.data(), sum.data(), std::size_t(E),
                         "stream + MLP");
                    QCOMPARE(at(TraceStep::Up)->cols, info.intermediate_size);
                    QCOMPARE(bool(tr.find(layer, TraceStep::Gate)),
                             model.config().family == models::Family::Llama);
                }
                if (golden) {  // against transformers' own modeling code, in float64
                    const Index last = golden->dim(0) - 1;
                    if (layer + 1 < last || !info.pre_norm) {
                        const float* want = golden->ptr() + ((layer + 1) * L + t) * E;
                        const QString m = differs(x_out, want, std::size_t(E), 1e-4);
                        QVERIFY2(m.isEmpty(), qPrintable(QStringLiteral("layer %1 against the "
                                                                        "reference: %2")
                                                             .arg(layer + 1)
                                                             .arg(m)));
                    }
                }
                if (layer + 1 == N && model.lm_head() != models::LmHeadKind::None) {
                    const Tensor z = model.logits(all.residuals[std::size_t(N)], {t});
                    QCOMPARE(Index(tr.logits.size()), info.vocab_size);
                    SAME(tr.logits.data(), z.ptr(), tr.logits.size(), "logits");
                    const bool causal = model.lm_head() == models::LmHeadKind::Causal;
                    QCOMPARE(bool(tr.find(N, TraceStep::FinalNorm)), causal);
                    QCOMPARE(bool(tr.find(N, TraceStep::HeadNorm)), !causal);
                    if (golden && causal && info.pre_norm) {  // the last hidden state: normed
                        const QString m =
                            differs(tr.find(N, TraceStep::FinalNorm)->values.data(),
                                    golden->ptr() + (N * L + t) * E, std::size_t(E), 1e-4);
                        QVERIFY2(m.isEmpty(), qPrintable("final norm: " + m));
                    }
                }
            }
            if (model.lm_head() == models::LmHeadKind::None) QVERIFY(tr.logits.empty());
        }
    }

    // Knocked-out heads: the trace is the intervened pass's.
    void knockedOutHeads() {
        const models::OpenedModel m = models::open_model_folder(resources_dir() + "/attn-only-2l");
        models::ModelInput in;
        in.ids = {5, 9, 12, 7, 5, 9, 12};
        const auto off = models::ablations({{1, 0}, {1, 1}}, models::HeadIntervention::Kind::Zero);
        const models::TokenTrace plain = models::trace_token(*m.model, in, 6);
        const models::TokenTrace out = models::trace_token(*m.model, in, 6, off);
        const models::TraceVector* c = out.find(1, TraceStep::Context);
        const Index hd = m.model->info().head_dim;
        for (Index i = 0; i < 2 * hd; ++i)
            QCOMPARE(c->values[std::size_t(i)], 0.0f);
        models::PredictOptions po;
        po.interventions = off;
        const models::Prediction p = models::predict(*m.model, in, po);
        const Index V = m.model->info().vocab_size;
        SAME(out.logits.data(), p.logits.ptr() + 6 * V, std::size_t(V), "knocked-out logits");
        QVERIFY(out.logits != plain.logits);
    }

    void badPositions() {
        const models::OpenedModel m = models::open_model_folder(resources_dir() + "/attn-only-2l");
        models::ModelInput in;
        in.ids = {5, 9, 12};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::trace_token(*m.model, in, 3));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::trace_token(*m.model, in, -1));
        in.ids.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::trace_token(*m.model, in, 0));
    }

    void sampling() {
        const std::vector<float> z = {1.0f, 3.0f, 2.0f, 3.0f, -1.0f};
        const auto V = Index(z.size());
        // Greedy: the highest logit, the lower id on a tie.
        models::SamplingDistribution d = models::sampling_distribution(z.data(), V, {0.0, 0, 1.0});
        QCOMPARE(d.ids, (std::vector<Index>{1}));
        // T = 1: the softmax, most likely first.
        d = models::sampling_distribution(z.data(), V, {1.0, 0, 1.0});
        QCOMPARE(d.ids, (std::vector<Index>{1, 3, 2, 0, 4}));
        const std::vector<double> logp = models::log_softmax(z.data(), V);
        double total = 0.0;
        for (std::size_t i = 0; i < d.ids.size(); ++i) {
            QVERIFY(std::abs(d.probability(i) - std::exp(logp[std::size_t(d.ids[i])])) < 1e-12);
            total += d.probability(i);
        }
        QVERIFY(std::abs(total - 1.0) < 1e-12);
        // A high temperature flattens, a low one sharpens.
        const auto hot = models::sampling_distribution(z.data(), V, {10.0, 0, 1.0});
        const auto cold = models::sampling_distribution(z.data(), V, {0.1, 0, 1.0});
        QVERIFY(hot.probability(0) < d.probability(0) && d.probability(0) < cold.probability(0));
        QVERIFY(std::abs(cold.probability(0) - 0.5) < 1e-4);  // two tied logits share it
        // top-k keeps k and renormalises; top-p the smallest prefix reaching p.
        d = models::sampling_distribution(z.data(), V, {1.0, 2, 1.0});
        QCOMPARE(d.ids.size(), std::size_t(2));
        QVERIFY(std::abs(d.probability(0) - 0.5) < 1e-12);
        d = models::sampling_distribution(z.data(), V, {1.0, 0, 0.5});
        QCOMPARE(d.ids, (std::vector<Index>{1, 3}));  // 0.42 + 0.42 >= 0.5
        d = models::sampling_distribution(z.data(), V, {1.0, 0, 0.01});
        QCOMPARE(d.ids.size(), std::size_t(1));
        QCOMPARE(d.probability(0), 1.0);
        // The draw: u below the first candidate's share picks it, above it the next.
        d = models::sampling_distribution(z.data(), V, {1.0, 0, 1.0});
        QCOMPARE(d.draw(0.0), Index(1));
        QCOMPARE(d.draw(d.probability(0) + 1e-9), Index(3));
        QCOMPARE(d.draw(0.999999999), Index(4));
        // The generator is the same for the same seed, different for another.
        models::SampleGenerator a(7), b(7), c(8);
        const double ua = a.uniform();
        QCOMPARE(ua, b.uniform());
        QVERIFY(ua != c.uniform());
        QVERIFY(ua >= 0.0 && ua < 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 models::sampling_distribution(z.data(), 0, {}));
    }
};

QTEST_APPLESS_MAIN(TestTokenTrace)
#include "test_token_trace.moc"
