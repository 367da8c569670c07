// The head atlas's measures on maps whose answers are known by construction (one head's map
// through measure_head: one-hot and uniform rows, [CLS] and [SEP] where they stand, fully masked
// rows, causal and cross-attention), and the induction sequence and score on a real (tiny)
// model against a direct reading of its maps.
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

#include "engine/models/head_atlas.h"
#include "engine/models/model_folder.h"
#include "test_support.h"

using namespace attnviz;
using namespace attnviz::models;

class TestHeadAtlas : public QObject {
    Q_OBJECT
  private slots:
    // One key a row: entropy 0 and max 1; every key alike: entropy ln S, max 1/S, broadness 1.
    void oneHeadOneHotAndUniformRows() {
        constexpr double tol = 1e-6;
        const std::int64_t S = 5;
        MapLayout layout;
        layout.keys = S;
        std::vector<float> one_hot(std::size_t(S * S), 0.0f), uniform(one_hot.size(), 0.2f);
        for (std::int64_t i = 0; i < S; ++i)
            one_hot[std::size_t(i * S + (S - 1 - i))] = 1.0f;  // the mirror key
        const HeadMeasures peaked = measure_head(one_hot.data(), S, layout);
        QCOMPARE(peaked.rows, S);
        ATTNVIZ_FUZZY(peaked.entropy, 0.0, tol);
        ATTNVIZ_FUZZY(peaked.broadness, 0.0, tol);
        ATTNVIZ_FUZZY(peaked.max_weight, 1.0, tol);
        // |i − (4 − i)| over rows 0..4: 4, 2, 0, 2, 4.
        ATTNVIZ_FUZZY(peaked.mean_distance, 12.0 / 5, tol);
        ATTNVIZ_FUZZY(peaked.self, 1.0 / 5, tol);                   // row 2
        ATTNVIZ_FUZZY(peaked.first, 1.0 / 4, tol);                  // row 4 (row 0 is not counted)
        ATTNVIZ_FUZZY(peaked.previous, 0.0, tol);                   // rows 1..4 look elsewhere
        QVERIFY(std::isnan(peaked.cls) && std::isnan(peaked.sep));  // no such keys
        QCOMPARE(peaked.induction, -1.0);
        const HeadMeasures flat = measure_head(uniform.data(), S, layout);
        ATTNVIZ_FUZZY(flat.entropy, std::log(double(S)), tol);
        ATTNVIZ_FUZZY(flat.broadness, 1.0, tol);
        ATTNVIZ_FUZZY(flat.max_weight, 1.0 / double(S), tol);
        // Σ_j |i − j| over 5 keys: 10, 7, 6, 7, 10 for rows 0..4, each times 1/5.
        ATTNVIZ_FUZZY(flat.mean_distance, (10.0 + 7 + 6 + 7 + 10) / 25, tol);
        ATTNVIZ_FUZZY(flat.first, 0.2, tol);
        ATTNVIZ_FUZZY(flat.self, 0.2, tol);
        ATTNVIZ_FUZZY(flat.previous, 0.2, tol);
    }

    // [CLS] and [SEP] are read where the tokens stand (here [CLS] third, [SEP] second and
    // last), every [SEP] summed; fully masked rows count nowhere, whatever their weights.
    void oneHeadSpecialKeysAndMaskedRows() {
        constexpr double tol = 1e-6;
        const std::vector<std::string> tokens{"a", "[SEP]", "[CLS]", "b", "[SEP]"};
        MapLayout layout;
        layout.keys = std::int64_t(tokens.size());
        layout.special = special_keys(tokens);
        QCOMPARE(layout.special.cls, std::vector<std::int64_t>{2});
        QCOMPARE(layout.special.sep, (std::vector<std::int64_t>{1, 4}));
        const std::int64_t L = 4, S = layout.keys;
        // Rows 0 and 2: half on [CLS], a quarter on each [SEP].  Row 1: all on key 3.  Row 3
        // is fully masked and holds NaN: counted, it would spoil every mean.
        std::vector<float> map(std::size_t(L * S), 0.0f);
        for (const std::int64_t i : {0, 2}) {
            map[std::size_t(i * S + 2)] = 0.5f;
            map[std::size_t(i * S + 1)] = map[std::size_t(i * S + 4)] = 0.25f;
        }
        map[std::size_t(1 * S + 3)] = 1.0f;
        for (std::int64_t j = 0; j < S; ++j)
            map[std::size_t(3 * S + j)] = std::numeric_limits<float>::quiet_NaN();
        const std::vector<std::uint8_t> masked{0, 0, 0, 1};
        const HeadMeasures m = measure_head(map.data(), L, layout, masked.data());
        QCOMPARE(m.rows, std::int64_t(3));
        ATTNVIZ_FUZZY(m.cls, 1.0 / 3, tol);  // rows 0 and 2 of three
        ATTNVIZ_FUZZY(m.sep, 1.0 / 3, tol);  // 0.25 + 0.25 in rows 0 and 2
        ATTNVIZ_FUZZY(m.max_weight, (0.5 + 1 + 0.5) / 3, tol);
        const double spread = -(0.5 * std::log(0.5) + 2 * 0.25 * std::log(0.25));  // 1.5 ln 2
        ATTNVIZ_FUZZY(m.entropy, 2 * spread / 3, tol);
        ATTNVIZ_FUZZY(m.self, 0.5 / 3, tol);       // row 2 on [CLS], itself
        ATTNVIZ_FUZZY(m.previous, 0.25 / 2, tol);  // rows 1 and 2: row 2 on key 1
        ATTNVIZ_FUZZY(m.first, 0.0, tol);
        // Every row masked: no measure exists.
        const std::vector<std::uint8_t> all(std::size_t(L), 1);
        const HeadMeasures none = measure_head(map.data(), L, layout, all.data());
        QCOMPARE(none.rows, std::int64_t(0));
        QVERIFY(std::isnan(none.entropy) && std::isnan(none.max_weight) && std::isnan(none.cls) &&
                std::isnan(none.previous));
    }

    // Causal: row i reads only keys j ≤ i (NaN above the diagonal must not matter), and row
    // 0, which has no other key, counts toward neither the first token nor broadness.  One
    // token: no previous, no first, no broadness (NaN), but an entropy of 0.
    void oneHeadCausal() {
        constexpr double tol = 1e-6;
        const std::int64_t L = 3;
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> map{1.0f, nan,  nan,  // row 0 on itself
                                     0.5f, 0.5f, nan,  // row 1 halved
                                     0.5f, 0.0f, 0.5f};
        MapLayout layout;
        layout.keys = L;
        layout.causal = true;
        const HeadMeasures m = measure_head(map.data(), L, layout);
        ATTNVIZ_FUZZY(m.entropy, 2 * std::log(2.0) / 3, tol);
        ATTNVIZ_FUZZY(m.broadness, (1.0 + std::log(2.0) / std::log(3.0)) / 2, tol);
        ATTNVIZ_FUZZY(m.first, 0.5, tol);  // rows 1 and 2
        ATTNVIZ_FUZZY(m.self, (1.0 + 0.5 + 0.5) / 3, tol);
        ATTNVIZ_FUZZY(m.previous, (0.5 + 0.0) / 2, tol);
        ATTNVIZ_FUZZY(m.mean_distance, (0.0 + 0.5 + 1.0) / 3, tol);
        ATTNVIZ_FUZZY(m.max_weight, (1.0 + 0.5 + 0.5) / 3, tol);
        const float one = 1.0f;
        MapLayout single;
        single.keys = 1;
        single.causal = true;
        const HeadMeasures alone = measure_head(&one, 1, single);
        ATTNVIZ_FUZZY(alone.entropy, 0.0, tol);
        ATTNVIZ_FUZZY(alone.self, 1.0, tol);
        QVERIFY(std::isnan(alone.first) && std::isnan(alone.previous) &&
                std::isnan(alone.broadness));
    }

    // Cross-attention: the keys are another text's, so there is no "itself" (NaN); the
    // first key counts from row 0 on; the previous key only where it exists (key i − 1 < S).
    void oneHeadCrossAttention() {
        constexpr double tol = 1e-6;
        const std::int64_t L = 4, S = 2;
        const std::vector<float> map{1.0f,  0.0f,   // row 0 on key 0
                                     0.0f,  1.0f,   // row 1 on key 1
                                     0.25f, 0.75f,  // row 2
                                     1.0f,  0.0f};  // row 3: key 2 does not exist
        MapLayout layout;
        layout.keys = S;
        layout.self_attention = false;
        const HeadMeasures m = measure_head(map.data(), L, layout);
        QVERIFY(std::isnan(m.self));
        ATTNVIZ_FUZZY(m.first, (1.0 + 0 + 0.25 + 1) / 4, tol);
        ATTNVIZ_FUZZY(m.previous, (0.0 + 0.75) / 2, tol);  // rows 1 and 2
        // Distances from query i to key j: |i − j| as positions, 0, 0, 0.25·2 + 0.75·1, 3.
        ATTNVIZ_FUZZY(m.mean_distance, (0.0 + 0 + 1.25 + 3) / 4, tol);
    }

    // The statistics pass's form: the row is added to column sums and maxima in the same
    // pass, and its measures are those of the row alone.
    void oneRowAlsoPoolsItsWeights() {
        const std::int64_t S = 37;  // not a multiple of any vector width
        std::vector<float> row(static_cast<std::size_t>(S));
        for (std::int64_t j = 0; j < S; ++j)
            row[std::size_t(j)] = float(j + 1) / float(S * (S + 1) / 2);
        MapLayout layout;
        layout.keys = S;
        std::vector<float> columns(std::size_t(S), 1.0f), maxima(std::size_t(S), 0.5f);
        const RowMeasures pooled =
            measure_row(row.data(), 3, layout, columns.data(), maxima.data());
        const RowMeasures plain = measure_row(row.data(), 3, layout);
        QCOMPARE(pooled.entropy, plain.entropy);
        QCOMPARE(pooled.distance, plain.distance);
        QCOMPARE(plain.max_weight, double(row.back()));
        for (std::size_t j = 0; j < row.size(); ++j) {
            QCOMPARE(columns[j], 1.0f + row[j]);
            QCOMPARE(maxima[j], std::max(0.5f, row[j]));
        }
        double entropy = 0, distance = 0;
        for (std::int64_t j = 0; j < S; ++j) {
            const double p = row[std::size_t(j)];
            entropy -= p * std::log(p);
            distance += p * double(std::abs(3 - j));
        }
        ATTNVIZ_FUZZY(plain.entropy, entropy, 1e-6);
        ATTNVIZ_FUZZY(plain.distance, distance, 1e-5);
        QCOMPARE(*plain.self, double(row[3]));
        QCOMPARE(*plain.previous, double(row[2]));
        QVERIFY(!plain.cls && !plain.sep);
    }

    void knownHeadsGetTheirMeasuresAndLabels() {
        const std::int64_t L = 6;
        // Head 0 looks at the previous token (row 0 at itself), head 1 at the first token,
        // head 2 evenly at every key it may see (causal).
        Tensor maps({3, L, L});
        auto at = [&](int h, std::int64_t i, std::int64_t j) -> float& {
            return maps.data[std::size_t((h * L + i) * L + j)];
        };
        for (std::int64_t i = 0; i < L; ++i) {
            at(0, i, std::max<std::int64_t>(i - 1, 0)) = 1.0f;
            at(1, i, 0) = 1.0f;
            for (std::int64_t j = 0; j <= i; ++j)
                at(2, i, j) = 1.0f / float(i + 1);
        }
        const HeadAtlas atlas = measure_heads({maps}, true);
        QCOMPARE(atlas.layers(), std::int64_t(1));
        QCOMPARE(atlas.heads(), std::int64_t(3));
        const HeadMeasures& prev = atlas.at(0, 0);
        QCOMPARE(prev.previous, 1.0);
        QCOMPARE(prev.entropy, 0.0);
        QCOMPARE(prev.mean_distance, double(L - 1) / double(L));  // rows 1..5 at distance 1
        QCOMPARE(prev.labels, std::vector<std::string>{"previous token"});
        const HeadMeasures& sink = atlas.at(0, 1);
        QCOMPARE(sink.first, 1.0);
        QCOMPARE(sink.self, 1.0 / double(L));
        QVERIFY(std::find(sink.labels.begin(), sink.labels.end(), "sink") != sink.labels.end());
        const HeadMeasures& flat = atlas.at(0, 2);
        double entropy = 0;
        for (std::int64_t i = 0; i < L; ++i)
            entropy += std::log(double(i + 1));
        QVERIFY(std::abs(flat.entropy - entropy / double(L)) < 1e-6);
        QVERIFY(std::abs(flat.broadness - 1.0) < 1e-6);
        QCOMPARE(flat.labels, std::vector<std::string>{"broad"});
        QCOMPARE(flat.induction, -1.0);
        // The CSV has a header and one line per head.
        const std::string csv = atlas.to_csv();
        QVERIFY(csv.rfind("layer,head,entropy,broadness,mean_distance,first,self,previous,"
                          "induction,labels\n",
                          0) == 0);
        QVERIFY(csv.find("\n1,1,0,0,0.833333,") != std::string::npos);  // counted from 1
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 4L);
    }

    void inductionScoreReadsTheRepeatedSequence() {
        const auto seq = induction_sequence(1, 10, 100, 200, 7);
        QCOMPARE(seq.size(), std::size_t(21));
        QCOMPARE(seq.front(), std::int64_t(1));
        for (std::size_t k = 1; k <= 10; ++k) {
            QCOMPARE(seq[k], seq[k + 10]);
            QVERIFY(seq[k] >= 100 && seq[k] < 200);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, induction_sequence(1, 1, 0, 10, 0));

        // On a real model: the score is exactly the mean of the cells it names.
        const OpenedModel m = open_model_folder(ATTNVIZ_TEST_GOLDEN_DIR "/models/llama_gqa");
        HeadAtlas atlas(m.model->info().num_layers, m.model->info().num_heads);
        add_induction_scores(*m.model, 1, &atlas, 20, 3, 1);
        ModelInput input;
        input.ids =
            induction_sequence(1, 20, std::min<std::int64_t>(m.model->info().vocab_size / 4, 256),
                               m.model->info().vocab_size, 3);
        CollectingSink sink;
        m.model->forward(input, ModelForwardOptions{}, sink);
        const std::int64_t L = std::int64_t(input.ids.size()), H = atlas.heads();
        for (std::size_t l = 0; l < sink.results.size(); ++l)
            for (std::int64_t h = 0; h < H; ++h) {
                double sum = 0;
                for (std::int64_t i = 21; i < L; ++i)
                    sum += sink.results[l].weights.data[std::size_t((h * L + i) * L + i - 19)];
                QVERIFY(std::abs(atlas.at(std::int64_t(l), h).induction - sum / double(L - 21)) <
                        1e-9);
            }
    }

    void inductionScoreOfAStringSaidTwiceAfterSomeText() {
        // "x y | a b c | a b c": 2 tokens before the string, period 3, L = 8.  The second
        // copy's queries are 5, 6, 7 and their targets 3, 4, 5 (the token after each one's
        // earlier occurrence).  Row i puts 0.1 * (i + 1) there and the rest on token 0.
        const std::int64_t L = 8, period = 3;
        std::vector<float> p(std::size_t(L * L), 0.0f);
        for (std::int64_t i = 0; i < L; ++i) {
            const float w = 0.1f * float(i + 1);
            p[std::size_t(i * L + (i >= 5 ? i - period + 1 : 0))] += w;
            p[std::size_t(i * L)] += 1.0f - w;
        }
        QVERIFY(std::abs(induction_score(p.data(), L, period) - (0.6 + 0.7 + 0.8) / 3) < 1e-6);
    }
};

QTEST_MAIN(TestHeadAtlas)
#include "test_head_atlas.moc"
