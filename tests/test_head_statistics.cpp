// The statistics pass (engine/models/head_statistics.h) against the same measures read
// directly from full maps, in float64, on every tiny model family and on a shipped model long
// enough that its rows come in several blocks over two threads; the pass against the one
// definition of each measure (measure_head) with [CLS] and [SEP]; broadness on maps whose
// answers are known by construction; its JSON; and one head's map recomputed on demand
// against the full pass, bit for bit.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "engine/io/json.h"
#include "engine/models/head_statistics.h"
#include "engine/models/model_folder.h"
#include "engine/ops/random.h"
#include "test_support.h"

using namespace attnviz;
using namespace attnviz::models;

namespace {

std::vector<std::int64_t> random_ids(const ModelInfo& info, std::int64_t L, std::uint64_t seed) {
    ops::Random rng(seed);
    std::vector<std::int64_t> ids;
    for (std::int64_t i = 0; i < L; ++i)
        ids.push_back(std::int64_t(rng.uniform(0.0f, 1.0f) * float(info.vocab_size - 1)));
    return ids;
}

/// Every layer's maps [H, L, L] from an ordinary pass.
std::vector<Tensor> full_maps(const Model& model, const ModelInput& input, int threads) {
    CollectingSink sink;
    ModelForwardOptions options;
    options.num_threads = threads;
    model.forward(input, options, sink);
    std::vector<Tensor> maps;
    for (AttentionResult& r : sink.results)
        maps.push_back(std::move(r.weights));
    return maps;
}

/// The measures and curves straight from their definitions, in float64, row by row.
void check_against_maps(const HeadStatistics& s, const std::vector<Tensor>& maps, bool causal,
                        const std::string& what) {
    const std::int64_t L = s.length, H = s.heads;
    QCOMPARE(s.layers, std::int64_t(maps.size()));
    constexpr double tol = 1e-5;
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < H; ++h) {
            const float* p = maps[std::size_t(l)].ptr() + std::size_t(h * L * L);
            double entropy = 0, broadness = 0, distance = 0, self = 0, first = 0, previous = 0,
                   max_weight = 0;
            std::int64_t broad_rows = 0;
            std::vector<double> received(std::size_t(L), 0.0);
            for (std::int64_t i = 0; i < L; ++i) {
                const std::int64_t keys = causal ? i + 1 : L;
                double row_entropy = 0, row_max = 0;
                for (std::int64_t j = 0; j < keys; ++j) {
                    const double w = p[i * L + j];
                    row_max = std::max(row_max, w);
                    if (w > 0) row_entropy -= w * std::log(w);
                    distance += w * double(std::abs(i - j));
                    received[std::size_t(j)] += w;
                }
                entropy += row_entropy;
                max_weight += row_max;
                if (keys > 1) {  // a row that sees one key has no spread to measure
                    broadness += row_entropy / std::log(double(keys));
                    ++broad_rows;
                }
                self += p[i * L + i];
                if (i > 0) {
                    first += p[i * L];
                    previous += p[i * L + i - 1];
                }
                const std::string where = what + " layer " + std::to_string(l) + " head " +
                                          std::to_string(h) + " row " + std::to_string(i);
                QVERIFY2(s.first_token_of(l, h)[i] == p[i * L], where.c_str());
            }
            const HeadMeasures& m = s.atlas.at(l, h);
            const std::string where =
                what + " layer " + std::to_string(l) + " head " + std::to_string(h);
            QVERIFY2(std::abs(m.entropy - entropy / double(L)) < tol, where.c_str());
            QVERIFY2(broad_rows > 0, where.c_str());
            QVERIFY2(std::abs(m.broadness - broadness / double(broad_rows)) < tol, where.c_str());
            QVERIFY2(std::abs(m.mean_distance - distance / double(L)) < tol, where.c_str());
            QVERIFY2(std::abs(m.self - self / double(L)) < tol, where.c_str());
            QVERIFY2(std::abs(m.first - first / double(L - 1)) < tol, where.c_str());
            QVERIFY2(std::abs(m.previous - previous / double(L - 1)) < tol, where.c_str());
            QVERIFY2(std::abs(m.max_weight - max_weight / double(L)) < tol, where.c_str());
            QCOMPARE(m.rows, L);
            // No [CLS] or [SEP] was named: those measures do not exist.
            QVERIFY2(std::isnan(m.cls) && std::isnan(m.sep), where.c_str());
            for (std::int64_t j = 0; j < L; ++j) {
                const double expected = received[std::size_t(j)] / double(causal ? L - j : L);
                QVERIFY2(std::abs(s.received_of(l, h)[j] - expected) < tol,
                         (where + " key " + std::to_string(j)).c_str());
            }
        }
}

/// Every head's map pooled straight from its definition (test::pooled_reference): the pass's
/// pooled maps must match, the max exactly (the same weights).  With L ≤ the squares, the map
/// itself, bit for bit.
void check_pooled(const HeadStatistics& s, const std::vector<Tensor>& maps, bool causal,
                  std::int64_t max_cells, const std::string& what) {
    const std::int64_t L = s.length, H = s.heads;
    const std::int64_t cell = (L + max_cells - 1) / max_cells, cells = (L + cell - 1) / cell;
    QCOMPARE(s.pooling.cell, cell);
    QCOMPARE(s.pooling.cells, cells);
    QCOMPARE(s.pooled_mean.size(), std::size_t(s.layers * H * cells * cells));
    QCOMPARE(s.pooled_max.size(), s.pooled_mean.size());
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < H; ++h) {
            const float* p = maps[std::size_t(l)].ptr() + std::size_t(h * L * L);
            const std::string where =
                what + " layer " + std::to_string(l) + " head " + std::to_string(h) + ": ";
            QString bad = test::squares_differ(
                s.pooled_mean_of(l, h), test::pooled_reference(p, L, cell, causal, false), 1e-6);
            QVERIFY2(bad.isEmpty(), (where + "mean " + bad.toStdString()).c_str());
            bad = test::squares_differ(s.pooled_max_of(l, h),
                                       test::pooled_reference(p, L, cell, causal, true), 0.0);
            QVERIFY2(bad.isEmpty(), (where + "max " + bad.toStdString()).c_str());
            if (cell == 1)  // one pair a square: the map itself, bit for bit
                for (std::int64_t k = 0; k < L * L; ++k)
                    QVERIFY2(s.pooled_mean_of(l, h)[k] == (causal && k % L > k / L ? 0.0f : p[k]),
                             (where + "square " + std::to_string(k)).c_str());
        }
}

}  // namespace

class TestHeadStatistics : public QObject {
    Q_OBJECT
  private slots:
    void statisticsPassEqualsTheMeasuresOfFullMaps_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("squares");  // the pooled maps' largest side
        const QString golden = QString::fromStdString(test::golden_dir() + "/models/");
        // 24 tokens, 64 squares: each pooled map is the map.
        for (const char* name : {"bert_gamma_beta", "roberta", "distilbert", "gpt2_lmhead",
                                 "llama_gqa", "qwen2_bias_bf16", "qwen3_qknorm"})
            QTest::newRow(name) << golden + name << 24 << 1 << 64;
        // Two blocks on two slots; squares of 5 tokens, the last one of 4.
        QTest::newRow("bert, 24 tokens in 5 squares, 2 threads")
            << golden + "bert_gamma_beta" << 24 << 2 << 5;
        QTest::newRow("gpt2, 24 tokens in 5 squares, 2 threads")
            << golden + "gpt2_lmhead" << 24 << 2 << 5;
        // 512 rows over two threads: several blocks, two slots summed in order.
        const QString shipped =
            QString::fromStdString(test::golden_dir() + "/../../resources/models/");
        QTest::newRow("attn-only-2l, 512 tokens, 2 threads")
            << shipped + "attn-only-2l" << 512 << 2 << 64;
        // 300 tokens: squares of 5, 60 of them; the blocks' rows cross the squares' edges.
        QTest::newRow("attn-only-2l, 300 tokens, 2 threads")
            << shipped + "attn-only-2l" << 300 << 2 << 64;
        QTest::newRow("char-zh-en-4l, 300 tokens") << shipped + "char-zh-en-4l" << 300 << 1 << 64;
    }
    void statisticsPassEqualsTheMeasuresOfFullMaps() {
        QFETCH(QString, folder);
        QFETCH(int, tokens);
        QFETCH(int, threads);
        QFETCH(int, squares);
        const auto model = load_model(folder.toStdString());
        const ModelInfo& info = model->info();
        ModelInput input;
        input.ids = random_ids(info, std::min<std::int64_t>(tokens, info.max_positions), 7);
        const std::vector<Tensor> maps = full_maps(*model, input, threads);
        StatisticsOptions options;
        options.num_threads = threads;
        options.pooled_cells = squares;
        const StatisticsRun run = compute_statistics(*model, input, options);
        QCOMPARE(run.statistics.heads, info.num_heads);
        QCOMPARE(run.statistics.length, std::int64_t(input.ids.size()));
        QVERIFY(run.residuals.empty());
        check_against_maps(run.statistics, maps, info.causal, folder.toStdString());
        // From the maps themselves (a file computed elsewhere): the same numbers.
        check_pooled(run.statistics, maps, info.causal, squares, folder.toStdString());
        const HeadStatistics from_maps = statistics_from_maps(maps, info.causal, squares);
        check_against_maps(from_maps, maps, info.causal, "from maps " + folder.toStdString());
        check_pooled(from_maps, maps, info.causal, squares, "from maps " + folder.toStdString());
        // One map pooled alone (the mean over heads, the rollout): the same squares.
        const PooledMap one =
            pool_map(maps.back().ptr(), std::int64_t(input.ids.size()), info.causal, squares);
        const std::int64_t last = run.statistics.layers - 1;
        QCOMPARE(one.pooling.cells, run.statistics.pooling.cells);
        for (std::size_t k = 0; k < one.mean.size(); ++k) {
            QVERIFY(std::abs(one.mean[k] - run.statistics.pooled_mean_of(last, 0)[k]) < 1e-6);
            QCOMPARE(one.max[k], run.statistics.pooled_max_of(last, 0)[k]);
        }
    }

    /// The pass reduces rows as they come, yet each head's measures are exactly those of
    /// measure_head on its whole map: one definition.  [CLS] and [SEP] named at positions
    /// that are not the ends, so causal rows before them see them not.
    void statisticsPassIsMeasureHead_data() {
        QTest::addColumn<QString>("folder");
        const QString golden = QString::fromStdString(test::golden_dir() + "/models/");
        QTest::newRow("bert") << golden + "bert_gamma_beta";
        QTest::newRow("gpt2") << golden + "gpt2_lmhead";
    }
    void statisticsPassIsMeasureHead() {
        QFETCH(QString, folder);
        const auto model = load_model(folder.toStdString());
        const ModelInfo& info = model->info();
        ModelInput input;
        input.ids = random_ids(info, 20, 11);
        const std::int64_t L = std::int64_t(input.ids.size());
        std::vector<std::string> tokens(std::size_t(L), "x");
        tokens[3] = "[CLS]";
        tokens[1] = tokens[12] = "[SEP]";
        const std::vector<Tensor> maps = full_maps(*model, input, 1);
        const HeadStatistics s =
            statistics_from_maps(maps, info.causal, kPooledCells, special_keys(tokens));
        // measure_heads pools every map into one square (the generation's extended maps are
        // measured so, every token): the measures must not depend on the pooling.
        const HeadAtlas unpooled = measure_heads(maps, info.causal);
        MapLayout plain;  // measure_heads names no [CLS] or [SEP]
        plain.keys = L;
        plain.causal = info.causal;
        MapLayout layout = plain;
        layout.special = special_keys(tokens);
        for (std::int64_t l = 0; l < s.layers; ++l)
            for (std::int64_t h = 0; h < s.heads; ++h) {
                const float* map = maps[std::size_t(l)].ptr() + std::size_t(h * L * L);
                const HeadMeasures expected = measure_head(map, L, layout);
                const HeadMeasures& got = s.atlas.at(l, h);
                const std::string where =
                    "layer " + std::to_string(l) + " head " + std::to_string(h) + ": ";
                for (const std::string& name : head_measure_names())
                    if (name != "induction") {
                        QVERIFY2(head_measure(got, name) == head_measure(expected, name),
                                 (where + name).c_str());
                        QVERIFY2(head_measure(unpooled.at(l, h), name) ==
                                     head_measure(measure_head(map, L, plain), name),
                                 (where + name + " in one square").c_str());
                    }
                QCOMPARE(got.max_weight, expected.max_weight);
                QCOMPARE(got.cls, expected.cls);
                QCOMPARE(got.sep, expected.sep);
                // Against the weights themselves: the share on keys 3 and 1 + 12.
                double cls = 0, sep = 0;
                for (std::int64_t i = 0; i < L; ++i) {
                    cls += map[i * L + 3];
                    sep += map[i * L + 1] + map[i * L + 12];
                }
                QVERIFY2(std::abs(got.cls - cls / double(L)) < 1e-6, (where + "cls").c_str());
                QVERIFY2(std::abs(got.sep - sep / double(L)) < 1e-6, (where + "sep").c_str());
            }
    }

    /// `attnviz stats --out-json`: valid JSON, numbers as %.6g, and null where a measure does
    /// not exist (NaN, which JSON cannot spell).
    void statisticsJsonIsValidWithNullForMissing() {
        const std::int64_t L = 3;
        Tensor maps({2, L, L});
        for (std::int64_t h = 0; h < 2; ++h)
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t j = 0; j < L; ++j)
                    maps.data[std::size_t((h * L + i) * L + j)] = h == 0 ? 1.0f / 3 : float(i == j);
        const std::vector<std::string> tokens{"[CLS]", "a \"b\"", "c"};
        const std::string json = statistics_json(
            statistics_from_maps({maps}, false, kPooledCells, special_keys(tokens)), tokens);
        QVERIFY_THROWS_NO_EXCEPTION(io::json::parse(json));
        QVERIFY2(json.find("nan") == std::string::npos, json.c_str());
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
        QCOMPARE(o.value("tokens").toArray().at(1).toString(), QStringLiteral("a \"b\""));
        QCOMPARE(o.value("heads_per_layer").toInt(), 2);
        QCOMPARE(o.value("length").toInt(), int(L));
        QCOMPARE(o.value("causal").toBool(true), false);
        const QJsonArray heads = o.value("heads").toArray();
        QCOMPARE(heads.size(), qsizetype(2));
        const QJsonObject flat = heads.at(0).toObject(), self = heads.at(1).toObject();
        // Six significant digits: within 1e-5 of these values.
        QCOMPARE(flat.value("head").toInt(), 1);
        QCOMPARE(self.value("head").toInt(), 2);
        QCOMPARE(flat.value("layer").toInt(), 1);
        ATTNVIZ_FUZZY(flat.value("entropy").toDouble(), std::log(3.0), 1e-5);
        ATTNVIZ_FUZZY(flat.value("max_weight").toDouble(), 1.0 / 3, 1e-5);
        ATTNVIZ_FUZZY(flat.value("cls").toDouble(), 1.0 / 3, 1e-5);
        ATTNVIZ_FUZZY(self.value("self").toDouble(), 1.0, 1e-5);
        ATTNVIZ_FUZZY(self.value("cls").toDouble(), 1.0 / 3, 1e-5);  // row 0, on itself
        QVERIFY(flat.value("sep").isNull());                         // no [SEP] among the tokens
        QVERIFY(!flat.contains("induction"));                        // not measured by this pass
        // %.6g: six significant digits.
        QVERIFY2(json.find("\"entropy\":1.09861,") != std::string::npos, json.c_str());
        QCOMPARE(flat.value("received").toArray().size(), qsizetype(L));
        QCOMPARE(self.value("labels").toArray().at(0).toString(), QStringLiteral("self"));
    }

    /// Broadness, each row's entropy over the log of the keys it sees averaged over the rows
    /// that see more than one, on maps whose answers are known by construction.
    void broadnessOfMapsWithKnownAnswers() {
        constexpr double tol = 1e-6;
        const std::int64_t L = 4;
        Tensor maps({4, L, L});
        const auto at = [&](std::int64_t h, std::int64_t i, std::int64_t j) -> float& {
            return maps.data[std::size_t((h * L + i) * L + j)];
        };
        for (std::int64_t i = 0; i < L; ++i) {
            at(0, i, (i + 1) % L) = 1.0f;          // one key a row
            at(2, i, 0) = at(2, i, L - 1) = 0.5f;  // half on each of two keys
            for (std::int64_t j = 0; j < L; ++j) {
                at(1, i, j) = 0.25f;                          // every key alike
                at(3, i, j) = i < 2 ? 0.25f : float(j == i);  // two rows alike, two on one key
            }
        }
        const HeadStatistics s = statistics_from_maps({maps}, false);
        const double ln2 = std::log(2.0), ln4 = std::log(4.0);
        ATTNVIZ_FUZZY(s.atlas.at(0, 0).broadness, 0.0, tol);
        ATTNVIZ_FUZZY(s.atlas.at(0, 1).broadness, 1.0, tol);
        ATTNVIZ_FUZZY(s.atlas.at(0, 2).broadness, ln2 / ln4, tol);  // 1/2
        ATTNVIZ_FUZZY(s.atlas.at(0, 3).broadness, 0.5, tol);
        // Entropy is in nats, not divided by anything.
        ATTNVIZ_FUZZY(s.atlas.at(0, 0).entropy, 0.0, tol);
        ATTNVIZ_FUZZY(s.atlas.at(0, 1).entropy, ln4, tol);
        ATTNVIZ_FUZZY(s.atlas.at(0, 2).entropy, ln2, tol);
        ATTNVIZ_FUZZY(s.atlas.at(0, 3).entropy, ln4 / 2, tol);
        const auto broad = [&](std::int64_t h) {
            const auto& labels = s.atlas.at(0, h).labels;
            return std::find(labels.begin(), labels.end(), "broad") != labels.end();
        };
        QVERIFY(!broad(0));
        QVERIFY(broad(1));
        QVERIFY(!broad(2));

        // Causal: row i sees i + 1 keys.  Row 0 sees one and is left out; rows 1 and 2 put half
        // on the first key and half on themselves: ln 2 / ln 2 and ln 2 / ln 3.
        const std::int64_t C = 3;
        Tensor causal({1, C, C});
        causal.data[0] = 1.0f;
        for (std::int64_t i = 1; i < C; ++i)
            causal.data[std::size_t(i * C)] = causal.data[std::size_t(i * C + i)] = 0.5f;
        const HeadStatistics c = statistics_from_maps({causal}, true);
        ATTNVIZ_FUZZY(c.atlas.at(0, 0).broadness, (1.0 + ln2 / std::log(3.0)) / 2, tol);
        ATTNVIZ_FUZZY(c.atlas.at(0, 0).entropy, 2 * ln2 / double(C), tol);
    }

    void oneHeadIsRecomputedBitForBit() {
        const auto model = load_model(test::golden_dir() + "/../../resources/models/char-zh-en-4l");
        ModelInput input;
        input.ids = random_ids(model->info(), 200, 3);
        const std::int64_t L = std::int64_t(input.ids.size());
        const std::vector<Tensor> maps = full_maps(*model, input, 2);
        StatisticsOptions options;
        options.num_threads = 2;
        options.keep_residuals = true;
        const StatisticsRun run = compute_statistics(*model, input, options);
        QCOMPARE(run.residuals.size(), std::size_t(model->info().num_layers));
        const auto bytes = std::size_t(L * L) * sizeof(float);
        for (std::int64_t layer : {std::int64_t(0), model->info().num_layers - 1})
            for (std::int64_t head : {std::int64_t(0), model->info().num_heads - 1}) {
                const float* expected = maps[std::size_t(layer)].ptr() + head * L * L;
                const Tensor resumed = head_map(*model, input, layer, head,
                                                run.residuals[std::size_t(layer)].get(), 2);
                QCOMPARE(resumed.shape, (Shape{L, L}));
                QVERIFY(std::memcmp(resumed.ptr(), expected, bytes) == 0);
                const Tensor from_start = head_map(*model, input, layer, head, nullptr, 2);
                QVERIFY(std::memcmp(from_start.ptr(), expected, bytes) == 0);
            }
    }

    void oneHeadPassesRefuseWhatTheyCannotGive() {
        const auto model = load_model(test::golden_dir() + "/models/llama_gqa");
        ModelInput input;
        input.ids = {1, 2, 3, 4};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 head_map(*model, input, 0, model->info().num_heads));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 head_map(*model, input, model->info().num_layers, 0));
        ModelForwardOptions options;  // every layer: the pass would need every head's context
        options.scope.only_head = 0;
        CollectingSink sink;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->forward(input, options, sink));
    }
};

QTEST_MAIN(TestHeadStatistics)
#include "test_head_statistics.moc"
