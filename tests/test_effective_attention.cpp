// Effective attention (engine/models/effective_attention.h, Kobayashi et al. 2020) and
// information-flow routes (engine/models/information_flow.h, Ferrando & Voita 2024) against the
// float64 references of tests/golden/models/flow_reference.py (every causal golden: GPT-2 with
// its c_proj bias, Llama with GQA, Llama 3 rotary scaling, Qwen2's q/k/v biases, Qwen3's q/k
// norms; and the shipped attn-only-2l: o_proj bias, no MLP) and tests/golden/
// effective_reference.py (the demo layer, torch.nn.MultiheadAttention's own weights); then
// what the importances must satisfy, the graph's rules, and `attnviz attend --effective norm`
// and `attnviz flow` end to end, their refusals included.
#include <QTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/models/effective_attention.h"
#include "engine/models/information_flow.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;

namespace {

/// Effective attention: relative to the largest value of the reference (the shipped model's
/// norms reach 26; the goldens' stay near 1).
constexpr double kNormTol = 1e-5;
/// Importances, in [0, 1].
constexpr double kImportanceTol = 1e-5;

std::string repo_root() {
    return test::golden_dir() + "/../..";
}

/// A case of tests/golden/models/flow_index.json, paths from the repository's root.
struct Case {
    std::string model, reference;
    models::ModelInput input;
};

Case case_named(const QString& name) {
    const QJsonObject index = test::read_json(test::golden_dir() + "/models/flow_index.json");
    for (const QJsonValue v : index.value("cases").toArray()) {
        const QJsonObject c = v.toObject();
        if (c.value("name").toString() != name) continue;
        const auto at = [&](const char* key) {
            return repo_root() + "/" + c.value(key).toString().toStdString();
        };
        return {at("model"), at("reference"), {test::read_int64_npy(at("input_ids")), {}}};
    }
    throw std::runtime_error("no case " + name.toStdString() + " in flow_index.json");
}

/// The cases of flow_index.json: six causal goldens and attn-only-2l.
QStringList case_names() {
    QStringList names;
    for (const QJsonValue c :
         test::read_json(test::golden_dir() + "/models/flow_index.json").value("cases").toArray())
        names << c.toObject().value("name").toString();
    return names;
}

void add_cases() {
    QTest::addColumn<QString>("name");
    const QStringList names = case_names();
    // An empty list would pass every test below.
    QVERIFY2(names.size() >= 7, "flow_index.json lists fewer than 7 cases");
    for (const QString& name : names)
        QTest::newRow(name.toUtf8().constData()) << name;
}

/// Flow cases × distance × per head.
void add_flow_cases() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("distance");
    QTest::addColumn<bool>("per_head");
    const QStringList names = case_names();
    QVERIFY2(names.size() >= 7, "flow_index.json lists fewer than 7 cases");
    for (const QString& name : names)
        for (const char* d : {"l1", "l2"})
            for (const bool per_head : {false, true}) {
                const QByteArray tag = (name + "/" + d + (per_head ? "/heads" : "")).toUtf8();
                QTest::newRow(tag.constData()) << name << QString(d) << per_head;
            }
}

double largest(const Tensor& t) {
    double m = 0.0;
    for (const float v : t.data)
        m = std::max(m, double(std::abs(v)));
    return m;
}

/// `got` against `want` within tol × max(1, the largest |want|).
#define COMPARE_SCALED(got, want, tol, what)                                                  \
    do {                                                                                      \
        const Tensor& w_ = (want);                                                            \
        const auto cmp_ = test::compare_tensors((got), w_, (tol)*std::max(1.0, largest(w_))); \
        QVERIFY2(cmp_.ok,                                                                     \
                 qPrintable(QString(what) + ": " + QString::fromStdString(cmp_.message)));    \
    } while (false)

Tensor slice(const Tensor& t, Index i) {
    Shape rest(t.shape.begin() + 1, t.shape.end());
    const auto n = static_cast<Index>(t.numel() / static_cast<std::size_t>(t.dim(0)));
    return Tensor(rest, std::vector<float>(t.ptr() + i * n, t.ptr() + (i + 1) * n));
}

/// Rows [r0, r0 + rows) and columns [c0, c0 + cols) of the last two axes, the first `planes`
/// planes of the axis before them ([..., planes, R, C]).
Tensor block(const Tensor& t, Index planes, Index r0, Index rows, Index c0, Index cols) {
    const Index R = t.dim(t.rank() - 2), C = t.dim(t.rank() - 1);
    Tensor out({planes, rows, cols});
    for (Index p = 0; p < planes; ++p)
        for (Index r = 0; r < rows; ++r)
            std::copy_n(t.ptr() + (p * R + r0 + r) * C + c0, cols,
                        out.ptr() + (p * rows + r) * cols);
    return out;
}

/// Every kept layer's maps of one pass through EffectiveAttentionSink.
std::vector<AttentionResult> effective_pass(const models::Model& model,
                                            const models::ModelInput& input,
                                            const models::AttentionScope& scope) {
    models::CollectingSink inner;
    models::EffectiveAttentionSink sink(model, inner, scope, 2);
    models::ModelForwardOptions o;
    o.scope = scope;
    o.num_threads = 2;
    model.forward(input, models::EffectiveAttentionSink::pass_options(o), sink);
    return std::move(inner.results);
}

/// The flow of the current add_flow_cases() row.
struct FlowRun {
    Case c;
    std::unique_ptr<models::Model> model;
    QString distance;
    bool per_head = false;
    models::InformationFlow flow;
};

FlowRun flow_of_row() {
    QFETCH(QString, name);
    QFETCH(QString, distance);
    QFETCH(bool, per_head);
    FlowRun r{case_named(name), nullptr, distance, per_head, {}};
    r.model = models::load_model(r.c.model);
    models::FlowOptions o;
    o.distance = distance == "l2" ? models::FlowDistance::L2 : models::FlowDistance::L1;
    o.per_head = per_head;
    o.num_threads = 2;
    r.flow = models::information_flow(*r.model, r.c.input, o);
    return r;
}

/// An edge as the reference's JSON and the CLI's name it.
using EdgeKey = std::tuple<Index, Index, Index, Index, std::string>;

std::map<EdgeKey, double> edges_of(const QJsonArray& edges) {
    std::map<EdgeKey, double> out;
    for (const QJsonValue v : edges) {
        const QJsonObject e = v.toObject();
        const QJsonArray f = e.value("from").toArray(), t = e.value("to").toArray();
        out[{f[0].toInteger(), f[1].toInteger(), t[0].toInteger(), t[1].toInteger(),
             e.value("via").toString().toStdString()}] = e.value("importance").toDouble();
    }
    return out;
}

std::map<EdgeKey, double> edges_of(const models::FlowGraph& g) {
    std::map<EdgeKey, double> out;
    for (const models::FlowEdge& e : g.edges)
        out[{e.from.layer, e.from.position + 1, e.to.layer, e.to.position + 1, e.via_name()}] =
            e.importance;
    return out;
}

/// Empty when both graphs hold the same edges with importances within kImportanceTol.
QString graphs_differ(const std::map<EdgeKey, double>& got, const std::map<EdgeKey, double>& want) {
    const auto name = [](const EdgeKey& k) {
        return QStringLiteral("[%1,%2] -> [%3,%4] via %5")
            .arg(std::get<0>(k))
            .arg(std::get<1>(k))
            .arg(std::get<2>(k))
            .arg(std::get<3>(k))
            .arg(QString::fromStdString(std::get<4>(k)));
    };
    for (const auto& [k, v] : want) {
        const auto it = got.find(k);
        if (it == got.end()) return "missing " + name(k);
        if (std::abs(it->second - v) > kImportanceTol)
            return name(k) + QStringLiteral(": %1, expected %2").arg(it->second).arg(v);
    }
    for (const auto& [k, v] : got)
        if (!want.count(k)) return "extra " + name(k);
    return {};
}

QString temp_file(const QString& name) {
    return QString::fromStdString(test::fresh_dir("cli")) + "/" + name;
}

const char* kInductionText = "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1^";

QString shipped_model() {
    return QString::fromStdString(repo_root() + "/resources/models/attn-only-2l");
}

}  // namespace

class TestEffectiveAttention : public QObject {
    Q_OBJECT
  private slots:
    void modelMaps_data() { add_cases(); }
    // Every layer's per-head and layer maps of a pass through EffectiveAttentionSink.
    void modelMaps() {
        QFETCH(QString, name);
        const Case c = case_named(name);
        const auto model = models::load_model(c.model);
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const auto L = static_cast<Index>(c.input.ids.size());
        const Tensor heads = io::read_npy(c.reference + "/effective_heads.npy");
        const Tensor layer = io::read_npy(c.reference + "/effective_layer.npy");
        QCOMPARE(heads.shape, (Shape{N, H, L, L}));
        const std::vector<AttentionResult> got = effective_pass(*model, c.input, {});
        QCOMPARE(Index(got.size()), N);
        for (Index l = 0; l < N; ++l) {
            const AttentionResult& r = got[static_cast<std::size_t>(l)];
            COMPARE_SCALED(Tensor({H, L, L}, r.weights.data), slice(heads, l), kNormTol,
                           QStringLiteral("layer %1 heads").arg(l + 1));
            COMPARE_SCALED(Tensor({L, L}, r.mean_weights.data), slice(layer, l), kNormTol,
                           QStringLiteral("layer %1 map").arg(l + 1));
        }
    }

    // A window and fewer kept heads: the same numbers as the full maps' block, and the layer
    // map still over every head.
    void modelMapsWindowed() {
        const Case c = case_named("llama_gqa");
        const auto model = models::load_model(c.model);
        const Index N = model->info().num_layers;
        const Tensor heads = io::read_npy(c.reference + "/effective_heads.npy");
        const Tensor layer = io::read_npy(c.reference + "/effective_layer.npy");
        models::AttentionScope scope;
        scope.heads = 2;
        scope.window_begin = 3;
        scope.window_length = 5;
        const std::vector<AttentionResult> got = effective_pass(*model, c.input, scope);
        QCOMPARE(Index(got.size()), N);
        for (Index l = 0; l < N; ++l) {
            const AttentionResult& r = got[static_cast<std::size_t>(l)];
            QCOMPARE(r.weights.shape, (Shape{1, 2, 5, 5}));
            COMPARE_SCALED(Tensor({2, 5, 5}, r.weights.data), block(slice(heads, l), 2, 3, 5, 3, 5),
                           kNormTol, "windowed heads");
            COMPARE_SCALED(Tensor({1, 5, 5}, r.mean_weights.data),
                           block(Tensor({1, 11, 11}, slice(layer, l).data), 1, 3, 5, 3, 5),
                           kNormTol, "windowed layer map");
        }
        models::ModelForwardOptions one;
        one.scope.only_head = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 models::EffectiveAttentionSink::pass_options(one));
    }

    void flowImportances_data() { add_flow_cases(); }
    // Every layer's importances, both blocks, against the reference; each row sums to 1.
    void flowImportances() {
        const FlowRun run = flow_of_row();
        const models::InformationFlow& f = run.flow;
        const std::string prefix = run.c.reference + "/flow_" + run.distance.toStdString();
        const Tensor want = io::read_npy(prefix + (run.per_head ? "_heads.npy" : "_attention.npy"));
        ATTNVIZ_COMPARE_TENSORS(f.attention, want, kImportanceTol);
        const bool has_mlp = run.model->config().intermediate_size > 0;
        QCOMPARE(f.mlp.empty(), !has_mlp);
        if (has_mlp)
            ATTNVIZ_COMPARE_TENSORS(f.mlp, io::read_npy(prefix + "_mlp.npy"), kImportanceTol);
        for (const Tensor* t : {&f.attention, &f.mlp}) {
            if (t->empty()) continue;
            const Index terms = t->dim(2);
            for (Index r = 0; r < t->dim(0) * t->dim(1); ++r) {
                double sum = 0.0;
                for (Index k = 0; k < terms; ++k)
                    sum += t->ptr()[r * terms + k];
                ATTNVIZ_FUZZY(sum, 1.0, kImportanceTol);
            }
        }
    }

    void flowGraph_data() { add_flow_cases(); }
    // The graph of the last position at the reference's threshold: the same edges; every edge
    // at least the threshold, between nodes of the graph, each node but the output leading on
    // to another; with a threshold below every nonzero importance each node's incoming edges
    // sum to 1.
    void flowGraph() {
        const FlowRun run = flow_of_row();
        const models::InformationFlow& f = run.flow;
        const models::Model* model = run.model.get();
        const QJsonObject ref = test::read_json(run.c.reference + "/flow_graph.json");
        const double threshold = ref.value("threshold").toDouble();
        const Index position = ref.value("position").toInteger() - 1;
        const QJsonObject want = ref.value("graphs")
                                     .toObject()
                                     .value(run.distance + (run.per_head ? "_heads" : ""))
                                     .toObject();
        QVERIFY(!want.value("edges").toArray().isEmpty());
        const models::FlowGraph g = models::flow_graph(f, position, threshold);
        const QString diff = graphs_differ(edges_of(g), edges_of(want.value("edges").toArray()));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(Index(g.nodes.size()), Index(want.value("nodes").toArray().size()));

        const std::set<models::FlowNode> nodes(g.nodes.begin(), g.nodes.end());
        std::set<models::FlowNode> leading;  // nodes with an edge out
        for (const models::FlowEdge& e : g.edges) {
            QVERIFY(e.importance >= threshold);
            QVERIFY(nodes.count(e.from) && nodes.count(e.to));
            leading.insert(e.from);
        }
        const models::FlowNode output{model->info().num_layers, position,
                                      model->config().intermediate_size > 0
                                          ? models::FlowNode::After::Mlp
                                          : models::FlowNode::After::Attention};
        QVERIFY(nodes.count(output));
        for (const models::FlowNode& n : g.nodes)
            QVERIFY2(n == output || leading.count(n),
                     qPrintable(QStringLiteral("node [%1,%2] %3 leads nowhere")
                                    .arg(n.layer)
                                    .arg(n.position + 1)
                                    .arg(n.after_name())));

        const models::FlowGraph all = models::flow_graph(f, position, 1e-12);
        std::map<models::FlowNode, double> incoming;
        for (const models::FlowEdge& e : all.edges)
            incoming[e.to] += e.importance;
        const auto embeddings =
            std::count_if(all.nodes.begin(), all.nodes.end(),
                          [](const models::FlowNode& n) { return n.layer == 0; });
        QCOMPARE(incoming.size(), all.nodes.size() - std::size_t(embeddings));
        for (const auto& [node, sum] : incoming)
            ATTNVIZ_FUZZY(sum, 1.0, kImportanceTol);
    }

    // What information_flow and flow_graph refuse, each with a one-line reason.
    void flowRefusals() {
        const auto bert = models::load_model(test::golden_dir() + "/models/bert_gamma_beta");
        try {
            (void)models::information_flow(*bert, {{2, 5, 7, 3}, {}});
            QFAIL("a post-norm model was accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("post-norm") != std::string::npos, e.what());
        }
        const Case c = case_named("gpt2_lmhead");
        const auto model = models::load_model(c.model);
        const models::InformationFlow f = models::information_flow(*model, c.input);
        const auto L = static_cast<Index>(c.input.ids.size());
        for (const auto& [position, threshold] :
             {std::pair<Index, double>{L, 0.04}, {-1, 0.04}, {0, 0.0}, {0, 1.5}, {0, NAN}})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                     models::flow_graph(f, position, threshold));
    }

    void demoLayer_data() {
        QTest::addColumn<QString>("name");
        const QJsonObject index = test::read_json(test::golden_dir() + "/effective/index.json");
        const QJsonArray cases = index.value("cases").toArray();
        QVERIFY2(cases.size() >= 10, "tests/golden/effective/index.json lists fewer than 10 cases");
        for (const QJsonValue v : cases) {
            const QByteArray n = v.toString().toUtf8();
            QTest::newRow(n.constData()) << QString::fromUtf8(n);
        }
    }
    // `attnviz attend --effective norm` on the demo layer's goldens: the maps against
    // nn.MultiheadAttention's weights made norm-based in float64.
    void demoLayer() {
        QFETCH(QString, name);
        const QString dir = QString::fromStdString(test::golden_dir()) + "/" + name + "/";
        const QJsonObject config = test::read_json((dir + "config.json").toStdString());
        QStringList args{"attend",
                         "--weights",
                         dir + "weights.safetensors",
                         "--query",
                         dir + "query.npy",
                         "--num-heads",
                         QString::number(config.value("num_heads").toInt()),
                         "--effective",
                         "norm",
                         "--threads",
                         "2"};
        for (const char* input : {"key", "value", "key_padding_mask", "attn_mask"})
            if (QFile::exists(dir + input + ".npy"))
                args << QStringLiteral("--%1").arg(QString(input).replace('_', '-'))
                     << dir + input + ".npy";
        if (config.value("causal").toBool()) args << "--causal";
        if (config.value("add_zero_attn").toBool()) args << "--add-zero-attn";
        const QString heads = temp_file("heads.npy"), layer = temp_file("layer.npy");
        const test::CliRun r =
            test::run_cli(args + QStringList{"--out-weights", heads, "--out-mean", layer});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const std::string want = test::golden_dir() + "/effective/" + name.toStdString() + "/";
        COMPARE_SCALED(io::read_npy(heads.toStdString()), io::read_npy(want + "expected_heads.npy"),
                       kNormTol, "heads");
        COMPARE_SCALED(io::read_npy(layer.toStdString()), io::read_npy(want + "expected_layer.npy"),
                       kNormTol, "layer");
    }

    // --effective with a window and fewer heads on the demo layer, and on a model folder; a bad
    // choice is a usage error.
    void attendCommand() {
        const QString dir =
            QString::fromStdString(test::golden_dir()) + "/bias_kv_zero_attn_masks/";
        const Tensor full_heads = io::read_npy(
            test::golden_dir() + "/effective/bias_kv_zero_attn_masks/expected_heads.npy");
        const QString heads = temp_file("heads.npy");
        test::CliRun r = test::run_cli({"attend",
                                        "--weights",
                                        dir + "weights.safetensors",
                                        "--query",
                                        dir + "query.npy",
                                        "--key-padding-mask",
                                        dir + "key_padding_mask.npy",
                                        "--attn-mask",
                                        dir + "attn_mask.npy",
                                        "--num-heads",
                                        "2",
                                        "--add-zero-attn",
                                        "--heads-shown",
                                        "1",
                                        "--window",
                                        "2:4",
                                        "--effective",
                                        "norm",
                                        "--out-weights",
                                        heads});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Tensor got = io::read_npy(heads.toStdString());
        QCOMPARE(got.shape, (Shape{3, 1, 4, 4}));
        for (Index n = 0; n < 3; ++n)
            COMPARE_SCALED(slice(got, n), block(slice(full_heads, n), 1, 1, 4, 1, 4), kNormTol,
                           QStringLiteral("item %1").arg(n));

        const QString maps = temp_file("maps.npy"), mean = temp_file("mean.npy");
        r = test::run_cli({"attend", "--model", shipped_model(), "--text", kInductionText,
                           "--effective", "norm", "--out-weights", maps, "--out-mean", mean});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const std::string ref = repo_root() + "/tests/golden/shipped/flow/attn_induction/";
        COMPARE_SCALED(io::read_npy(maps.toStdString()), io::read_npy(ref + "effective_heads.npy"),
                       kNormTol, "model heads");
        COMPARE_SCALED(io::read_npy(mean.toStdString()), io::read_npy(ref + "effective_layer.npy"),
                       kNormTol, "model layer map");

        r = test::run_cli({"attend", "--model", shipped_model(), "--text", kInductionText,
                           "--effective", "norms", "--out-mean", temp_file("no.npy")});
        QCOMPARE(r.status, 2);
        QVERIFY(!QFile::exists(temp_file("no.npy")));
    }

    // `attnviz flow` on the shipped induction text: the reference's graphs, per head and not,
    // and the JSON's own fields.
    void flowCommand() {
        const QJsonObject ref = test::read_json(
            repo_root() + "/tests/golden/shipped/flow/attn_induction/flow_graph.json");
        const QString threshold = QString::number(ref.value("threshold").toDouble());
        for (const bool per_head : {false, true}) {
            const QString out = temp_file("g.json");
            QStringList args{"flow",
                             "--model",
                             shipped_model(),
                             "--text",
                             kInductionText,
                             "--threshold",
                             threshold,
                             "--out-json",
                             out,
                             "--threads",
                             "2"};
            if (per_head) args << "--per-head";
            const test::CliRun r = test::run_cli(args);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            const QJsonObject g = test::read_json(out.toStdString());
            QCOMPARE(g.value("position").toInt(), 34);
            QCOMPARE(g.value("distance").toString(), QString("l1"));
            QCOMPARE(g.value("per_head").toBool(), per_head);
            QCOMPARE(g.value("tokens").toArray().size(), 34);
            const QJsonObject want =
                ref.value("graphs").toObject().value(per_head ? "l1_heads" : "l1").toObject();
            const QString diff = graphs_differ(edges_of(g.value("edges").toArray()),
                                               edges_of(want.value("edges").toArray()));
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
            QCOMPARE(g.value("nodes").toArray(), want.value("nodes").toArray());
        }
    }

    // Bad input: one line on stderr, exit 2 (usage) or 1 (data), and no file.
    void flowCommandRefusals() {
        const QString out = temp_file("g.json");
        const QString bert = QString::fromStdString(test::golden_dir() + "/models/bert_gamma_beta");
        const QStringList base{"flow", "--model", shipped_model(), "--text", kInductionText};
        const struct {
            QStringList args;
            int status;
            const char* says;
        } cases[] = {
            {base + QStringList{"--threshold", "0", "--out-json", out}, 2, "--threshold"},
            {base + QStringList{"--threshold", "1.5", "--out-json", out}, 2, "--threshold"},
            {base + QStringList{"--threshold", "nan", "--out-json", out}, 2, "--threshold"},
            {base + QStringList{"--position", "35", "--out-json", out}, 2, "--position 35"},
            {base + QStringList{"--position", "0", "--out-json", out}, 2, "--position 0"},
            {base + QStringList{"--distance", "l3", "--out-json", out}, 2, "--distance"},
            {base + QStringList{"--out-json", temp_file("missing/g.json")}, 1, "does not exist"},
            {{"flow", "--model", bert, "--text", "the cat", "--out-json", out}, 1, "post-norm"},
        };
        for (const auto& c : cases) {
            const test::CliRun r = test::run_cli(c.args);
            const QString what = c.args.join(' ') + " -> " + r.err;
            QVERIFY2(r.status == c.status, qPrintable(what));
            QVERIFY2(r.err.contains(c.says), qPrintable(what));
            QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(what));
            QVERIFY2(!QFile::exists(out), qPrintable(what));
        }
    }
};

QTEST_GUILESS_MAIN(TestEffectiveAttention)
#include "test_effective_attention.moc"
