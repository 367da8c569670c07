// The head atlas's measures on maps whose answers are known by construction, and the
// induction sequence and score on a real (tiny) model against a direct reading of its maps.
#include <QTest>

#include <cmath>

#include "engine/models/head_atlas.h"
#include "engine/models/model_folder.h"
#include "test_support.h"

using namespace attnviz;
using namespace attnviz::models;

class TestHeadAtlas : public QObject {
    Q_OBJECT
  private slots:
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
