// Readable views of a model's attention (engine/models/token_views.h): pieces grouped into
// words with real tokenizers, the grouped and renormalised maps against numbers worked out by
// hand, and attention rollout against a hand-computed case and a direct float64 product.
#include <QTest>

#include <random>

#include "engine/models/token_views.h"
#include "test_support.h"

using namespace attnviz;
using namespace attnviz::models;
using text::HfTokenizer;

namespace {

HfTokenizer tokenizer(const char* name) {
    return HfTokenizer::from_folder(test::data_dir() + "/tokenizers/" + name);
}

std::vector<std::string> trimmed_texts(const TokenGrouping& g) {
    std::vector<std::string> out;
    for (std::string t : g.text) {
        while (!t.empty() && t.front() == ' ')
            t.erase(t.begin());
        out.push_back(t);
    }
    return out;
}

/// Every piece in exactly one group, groups in order, members ascending.
void checkPartition(const TokenGrouping& g, std::size_t pieces, bool hidden_specials,
                    const text::Encoding& e) {
    std::vector<int> seen(pieces, 0);
    std::int64_t last_first = -1;
    for (const auto& m : g.members) {
        QVERIFY(!m.empty());
        QVERIFY(m.front() > last_first);
        last_first = m.front();
        for (std::size_t k = 0; k < m.size(); ++k) {
            if (k) QVERIFY(m[k] > m[k - 1]);
            ++seen[std::size_t(m[k])];
        }
    }
    for (std::size_t k = 0; k < pieces; ++k)
        QCOMPARE(seen[k], hidden_specials && e.special[k] ? 0 : 1);
}

}  // namespace

class TestTokenViews : public QObject {
    Q_OBJECT
  private slots:
    void byteLevelPiecesBecomeWordsAndCharacters() {
        const HfTokenizer t = tokenizer("gpt2");
        const std::string text = "Hello unbelievable 猫!";
        const text::Encoding e = t.encode(text);
        QVERIFY(e.size() > 4);  // "unbelievable" and 猫's bytes take several pieces
        const TokenGrouping pieces = group_tokens(e, text, std::nullopt, false, false);
        QVERIFY(pieces.identity(e.size()));
        const TokenGrouping words = group_tokens(e, text, std::nullopt, true, false);
        checkPartition(words, e.size(), false, e);
        QCOMPARE(trimmed_texts(words),
                 (std::vector<std::string>{"Hello", "unbelievable", "猫", "!"}));
        QVERIFY(!words.identity(e.size()));

        // A piece of spaces only joins the word after it; at the end, the word before it.
        const std::string spaced = "Hello  world  ";
        const text::Encoding s = t.encode(spaced);
        const TokenGrouping joined = group_tokens(s, spaced, std::nullopt, true, false);
        checkPartition(joined, s.size(), false, s);
        QCOMPARE(joined.text, (std::vector<std::string>{"Hello", "world"}));
        QVERIFY(joined.members[1].size() >= 2);
        QCOMPARE(joined.members[1].back(), std::int64_t(s.size() - 1));
    }

    void bertPairsKeepTheirSequencesAndHideTheirSpecialTokens() {
        const HfTokenizer t = tokenizer("bert-uncased");
        const std::string a = "The tokenization sat.", b = "猫坐着";
        const text::Encoding e = t.encode(a, std::string_view(b));
        const TokenGrouping words = group_tokens(e, a, std::string_view(b), true, false);
        checkPartition(words, e.size(), false, e);
        QCOMPARE(words.text, (std::vector<std::string>{"[CLS]", "The", "tokenization", "sat", ".",
                                                       "[SEP]", "猫", "坐", "着", "[SEP]"}));
        QCOMPARE(words.special, (std::vector<std::uint8_t>{1, 0, 0, 0, 0, 1, 0, 0, 0, 1}));
        QCOMPARE(words.sequence, (std::vector<std::int32_t>{-1, 0, 0, 0, 0, -1, 1, 1, 1, -1}));
        QCOMPARE(words.members[2].size(), std::size_t(2));  // token ##ization

        const TokenGrouping shown = group_tokens(e, a, std::string_view(b), true, true);
        checkPartition(shown, e.size(), true, e);
        QCOMPARE(shown.text,
                 (std::vector<std::string>{"The", "tokenization", "sat", ".", "猫", "坐", "着"}));
        QCOMPARE(shown.sequence, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1, 1}));
        // Hiding alone keeps the pieces.
        const TokenGrouping hidden = group_tokens(e, a, std::string_view(b), false, true);
        QCOMPARE(hidden.size(), e.size() - 3);
        QCOMPARE(hidden.text.front(), std::string("The"));  // as typed: the offsets show it
    }

    void onlySpecialTokensCannotAllBeHidden() {
        const HfTokenizer t = tokenizer("bert-uncased");
        const text::Encoding e = t.encode("");
        QCOMPARE(e.size(), std::size_t(2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 group_tokens(e, "", std::nullopt, true, true));
    }

    void wordsSumKeyPiecesAndAverageQueryPieces() {
        // Pieces 0..3; words {0}, {1, 2}, {3}.
        Tensor maps({1, 4, 4}, std::vector<float>{1.0f, 0.0f, 0.0f, 0.0f,  //
                                                  0.5f, 0.5f, 0.0f, 0.0f,  //
                                                  0.2f, 0.3f, 0.5f, 0.0f,  //
                                                  0.1f, 0.2f, 0.3f, 0.4f});
        TokenGrouping g;
        g.members = {{0}, {1, 2}, {3}};
        g.words = true;
        const Tensor out = group_maps(maps, g);
        QCOMPARE(out.shape, (Shape{1, 3, 3}));
        const float expected[] = {1.0f, 0.0f, 0.0f, 0.35f, 0.65f, 0.0f, 0.1f, 0.5f, 0.4f};
        for (int k = 0; k < 9; ++k)
            QVERIFY2(std::abs(out.data[std::size_t(k)] - expected[k]) < 1e-6f,
                     std::to_string(k).c_str());

        // Piece 0 hidden (a [CLS]): what is left of each row is scaled back to 1.
        g.members = {{1, 2}, {3}};
        g.hide_special = true;
        const Tensor shown = group_maps(maps, g);
        const float renormalised[] = {1.0f, 0.0f, 5.0f / 9.0f, 4.0f / 9.0f};
        for (int k = 0; k < 4; ++k)
            QVERIFY2(std::abs(shown.data[std::size_t(k)] - renormalised[k]) < 1e-6f,
                     std::to_string(k).c_str());

        // A row whose every weight went to hidden tokens stays zero, never NaN.
        g.members = {{0}, {3}};
        Tensor sink({4, 4}, 0.0f);
        for (int i = 0; i < 4; ++i)
            sink.data[std::size_t(i * 4 + 1)] = 1.0f;
        const Tensor z = group_maps(sink, g);
        for (const float v : z.data)
            QCOMPARE(v, 0.0f);

        g.members = {{0}, {4}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, group_maps(maps, g));
    }

    void rolloutMatchesAWorkedExample() {
        const std::vector<Tensor> means = {Tensor({2, 2}, {1.0f, 0.0f, 0.6f, 0.4f}),
                                           Tensor({2, 2}, {1.0f, 0.0f, 0.2f, 0.8f})};
        const std::vector<Tensor> r = attention_rollout(means);
        QCOMPARE(r.size(), std::size_t(2));
        // Â1 = [[1, 0], [0.3, 0.7]], Â2 = [[1, 0], [0.1, 0.9]], R2 = Â2 · Â1.
        const float r1[] = {1.0f, 0.0f, 0.3f, 0.7f}, r2[] = {1.0f, 0.0f, 0.37f, 0.63f};
        for (int k = 0; k < 4; ++k) {
            QVERIFY(std::abs(r[0].data[std::size_t(k)] - r1[k]) < 1e-6f);
            QVERIFY(std::abs(r[1].data[std::size_t(k)] - r2[k]) < 1e-6f);
        }
    }

    void rolloutMatchesADirectProductOnRandomMaps() {
        const std::int64_t L = 37;
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::vector<Tensor> means;
        for (int l = 0; l < 4; ++l) {
            Tensor m({L, L});
            for (std::int64_t i = 0; i < L; ++i) {
                double sum = 0.0;
                std::vector<double> row(static_cast<std::size_t>(L), 0.0);
                for (std::int64_t j = 0; j <= i; ++j)
                    sum += row[std::size_t(j)] = u(rng);
                for (std::int64_t j = 0; j <= i; ++j)
                    m.data[std::size_t(i * L + j)] = float(row[std::size_t(j)] / sum);
            }
            means.push_back(m);
        }
        std::vector<double> r(std::size_t(L * L), 0.0);
        for (std::int64_t i = 0; i < L; ++i)
            r[std::size_t(i * L + i)] = 1.0;
        const std::vector<Tensor> got = attention_rollout(means);
        for (std::size_t l = 0; l < means.size(); ++l) {
            std::vector<double> next(std::size_t(L * L), 0.0);
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t k = 0; k < L; ++k) {
                    const double a =
                        0.5 * means[l].data[std::size_t(i * L + k)] + (i == k ? 0.5 : 0.0);
                    for (std::int64_t j = 0; j < L; ++j)
                        next[std::size_t(i * L + j)] += a * r[std::size_t(k * L + j)];
                }
            r = next;
            for (std::int64_t i = 0; i < L; ++i) {
                double row = 0.0;
                for (std::int64_t j = 0; j < L; ++j) {
                    const double g = got[l].data[std::size_t(i * L + j)];
                    QVERIFY2(std::abs(g - r[std::size_t(i * L + j)]) < 1e-5,
                             (std::to_string(l) + "," + std::to_string(i) + "," + std::to_string(j))
                                 .c_str());
                    row += g;
                }
                QVERIFY(std::abs(row - 1.0) < 1e-5);  // rows of the rollout still sum to 1
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 attention_rollout({Tensor({2, 2}), Tensor({3, 3})}));
    }

    // A window keeps rows and columns [begin, begin + count) of each map, and the rollout
    // accumulated a layer at a time equals the whole one.
    void cropAndAccumulatedRollout() {
        Tensor maps({2, 4, 4});
        for (std::size_t k = 0; k < maps.numel(); ++k)
            maps.data[k] = float(k);
        const Tensor c = crop_maps(maps, 1, 2);
        QCOMPARE(c.shape, (Shape{2, 2, 2}));
        QCOMPARE(c.data, (std::vector<float>{5, 6, 9, 10, 21, 22, 25, 26}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, crop_maps(maps, 3, 2));

        std::vector<Tensor> means;
        for (int l = 0; l < 3; ++l) {
            Tensor m({3, 3});
            for (std::int64_t i = 0; i < 3; ++i)
                for (std::int64_t j = 0; j < 3; ++j)
                    m.data[std::size_t(i * 3 + j)] = float(1 + ((i + 2 * j + l) % 3)) / 6.0f;
            means.push_back(m);
        }
        const std::vector<Tensor> whole = attention_rollout(means);
        RolloutAccumulator acc;
        for (std::size_t l = 0; l < means.size(); ++l)
            QCOMPARE(acc.add(means[l]).data, whole[l].data);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acc.add(Tensor({2, 2})));
    }

    void sliceEncodingCutsEveryField() {
        text::Encoding e;
        e.ids = {101, 7, 8, 102};
        e.tokens = {"[CLS]", "a", "##b", "[SEP]"};
        e.text = {"[CLS]", "a", "b", "[SEP]"};
        e.offsets = {{0, 0}, {0, 1}, {1, 2}, {0, 0}};
        e.special = {1, 0, 0, 1};
        e.type_ids = {0, 0, 0, 0};
        e.sequence = {-1, 0, 0, -1};
        const text::Encoding s = slice_encoding(e, 1, 2);
        QCOMPARE(s.ids, (std::vector<std::int64_t>{7, 8}));
        QCOMPARE(s.tokens, (std::vector<std::string>{"a", "##b"}));
        QCOMPARE(s.offsets.back(), (std::pair<std::int64_t, std::int64_t>{1, 2}));
        QCOMPARE(s.special, (std::vector<std::uint8_t>{0, 0}));
        QCOMPARE(s.sequence, (std::vector<std::int32_t>{0, 0}));
        // the window's pieces group into the words they belong to
        const TokenGrouping g = group_tokens(s, "ab", std::nullopt, true, false);
        QCOMPARE(g.size(), std::size_t(1));
        QCOMPARE(g.members[0], (std::vector<std::int64_t>{0, 1}));
    }
};

QTEST_GUILESS_MAIN(TestTokenViews)
#include "test_token_views.moc"
