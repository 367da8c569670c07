// Token embeddings: deterministic per token and seed, sinusoidal positional encoding checked
// against values computed here in double, and the padded batch layout.

#include <QTest>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/ops/random.h"
#include "engine/text/embedding.h"
#include "test_support.h"

using attnviz::Tensor;
using attnviz::text::embed_tokens;
using attnviz::text::EmbeddingOptions;

namespace {

EmbeddingOptions options(std::int64_t embed_dim, std::uint64_t seed, bool pe) {
    EmbeddingOptions o;
    o.embed_dim = embed_dim;
    o.seed = seed;
    o.positional_encoding = pe;
    return o;
}

// Row r of a rank-2 tensor as a [E] tensor.
Tensor row(const Tensor& t, std::int64_t r) {
    const std::int64_t e = t.dim(1);
    return Tensor({e}, std::vector<float>(t.data.begin() + r * e, t.data.begin() + (r + 1) * e));
}

// Row (b, t) of a rank-3 tensor.
Tensor row(const Tensor& t, std::int64_t b, std::int64_t pos) {
    const std::int64_t l = t.dim(1), e = t.dim(2);
    const auto begin = t.data.begin() + (b * l + pos) * e;
    return Tensor({e}, std::vector<float>(begin, begin + e));
}

// The textbook formula, in double: PE[pos, 2i] = sin(pos / 10000^(2i/d)),
// PE[pos, 2i+1] = cos(pos / 10000^(2i/d)).
double expected_pe(std::int64_t pos, std::int64_t col, std::int64_t d) {
    const std::int64_t two_i = col - col % 2;
    const double angle = double(pos) / std::pow(10000.0, double(two_i) / double(d));
    return col % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

template <typename F>
QString thrown_message(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class TestEmbedding : public QObject {
    Q_OBJECT

  private slots:
    void same_token_same_vector();
    void seed_and_token_change_the_vector();
    void vector_comes_from_the_token_hash();
    void components_have_unit_variance();
    void positional_encoding_values_data();
    void positional_encoding_values();
    void positional_encoding_first_rows();
    void embed_adds_positional_encoding();
    void empty_token_list();
    void batch_layout();
    void batch_without_padding();
    void errors();
};

void TestEmbedding::same_token_same_vector() {
    const Tensor x = embed_tokens({"cat", "dog", "cat"}, options(16, 7, false));
    QCOMPARE(x.shape, (attnviz::Shape{3, 16}));
    ATTNVIZ_COMPARE_TENSORS(row(x, 2), row(x, 0), 0.0);  // bit-identical without PE
    // And across calls.
    const Tensor again = embed_tokens({"the", "cat"}, options(16, 7, false));
    ATTNVIZ_COMPARE_TENSORS(row(again, 1), row(x, 0), 0.0);
}

void TestEmbedding::seed_and_token_change_the_vector() {
    const Tensor a = embed_tokens({"cat", "dog"}, options(16, 7, false));
    const Tensor b = embed_tokens({"cat"}, options(16, 8, false));
    const auto differs = [](const Tensor& u, const Tensor& v) {
        return !attnviz::test::compare_tensors(u, v, 1e-3).ok;
    };
    QVERIFY(differs(row(a, 0), row(a, 1)));  // another token
    QVERIFY(differs(row(a, 0), row(b, 0)));  // another seed
}

void TestEmbedding::vector_comes_from_the_token_hash() {
    // The documented recipe: Random(hash_bytes(token, seed)), N(0,1) values (nn.Embedding's init).
    const std::int64_t e = 5;
    const std::string token = "我";
    const Tensor x = embed_tokens({token}, options(e, 42, false));
    attnviz::ops::Random random(attnviz::ops::hash_bytes(token, 42));
    std::vector<float> expected;
    for (std::int64_t j = 0; j < e; ++j)
        expected.push_back(random.normal());
    ATTNVIZ_COMPARE_TENSORS(x, Tensor({1, e}, expected), 1e-7);
}

void TestEmbedding::components_have_unit_variance() {
    // N(0, 1) components: |x|^2 / E ~ 1.
    std::vector<std::string> tokens;
    for (int i = 0; i < 400; ++i)
        tokens.push_back("token" + std::to_string(i));
    const std::int64_t e = 64;
    const Tensor x = embed_tokens(tokens, options(e, 1, false));
    double sum_sq = 0.0;
    for (float v : x.data)
        sum_sq += double(v) * v;
    ATTNVIZ_FUZZY(sum_sq / double(tokens.size()) / double(e), 1.0, 0.05);
}

void TestEmbedding::positional_encoding_values_data() {
    QTest::addColumn<qint64>("embed_dim");
    QTest::newRow("even 8") << qint64(8);
    QTest::newRow("odd 5") << qint64(5);
    QTest::newRow("odd 1") << qint64(1);
    QTest::newRow("wide 512") << qint64(512);
}

void TestEmbedding::positional_encoding_values() {
    QFETCH(qint64, embed_dim);
    const std::int64_t length = 1200;
    const Tensor pe = attnviz::text::sinusoidal_positional_encoding(length, embed_dim);
    QCOMPARE(pe.shape, (attnviz::Shape{length, embed_dim}));
    for (std::int64_t pos : {0, 1, 2, 7, 50, 1199}) {
        std::vector<float> expected;
        for (std::int64_t c = 0; c < embed_dim; ++c)
            expected.push_back(float(expected_pe(pos, c, embed_dim)));
        ATTNVIZ_COMPARE_TENSORS(row(pe, pos), Tensor({embed_dim}, expected), 1e-6);
    }
    // Odd width: the last column is the sine of the unpaired frequency.
    if (embed_dim % 2 == 1) {
        const std::int64_t last = embed_dim - 1;
        const double angle = 3.0 / std::pow(10000.0, double(last) / double(embed_dim));
        ATTNVIZ_FUZZY(pe.data[std::size_t(3 * embed_dim + last)], std::sin(angle), 1e-6);
    }
}

void TestEmbedding::positional_encoding_first_rows() {
    // Hand-checkable values for d = 4: frequencies 1 and 1/100.
    const Tensor pe = attnviz::text::sinusoidal_positional_encoding(2, 4);
    const Tensor expected({2, 4}, {0.0f, 1.0f, 0.0f, 1.0f,  //
                                   float(std::sin(1.0)), float(std::cos(1.0)),
                                   float(std::sin(0.01)), float(std::cos(0.01))});
    ATTNVIZ_COMPARE_TENSORS(pe, expected, 1e-7);
}

void TestEmbedding::embed_adds_positional_encoding() {
    const std::vector<std::string> tokens{"a", "b", "a", "c", "d"};
    for (std::int64_t e : {6, 7}) {
        const Tensor plain = embed_tokens(tokens, options(e, 3, false));
        const Tensor with_pe = embed_tokens(tokens, options(e, 3, true));
        const Tensor pe = attnviz::text::sinusoidal_positional_encoding(5, e);
        Tensor sum = plain;
        for (std::size_t i = 0; i < sum.data.size(); ++i)
            sum.data[i] += pe.data[i];
        ATTNVIZ_COMPARE_TENSORS(with_pe, sum, 1e-6);
    }
}

void TestEmbedding::empty_token_list() {
    const Tensor x = embed_tokens({}, options(8, 0, true));
    QCOMPARE(x.shape, (attnviz::Shape{0, 8}));
    QVERIFY(x.empty());
}

void TestEmbedding::batch_layout() {
    const std::int64_t e = 4;
    const auto opts = options(e, 9, true);
    const std::vector<std::vector<std::string>> sentences{
        {"the", "cat", "sat"}, {"hi"}, {"a", "b"}};
    const auto batch = attnviz::text::embed_batch(sentences, opts);

    QCOMPARE(batch.x.shape, (attnviz::Shape{3, 3, e}));
    QCOMPARE(batch.lengths, (std::vector<std::int64_t>{3, 1, 2}));
    QVERIFY(batch.has_padding());
    QVERIFY(batch.key_padding_mask.is_bool());
    QCOMPARE(batch.key_padding_mask.shape, (attnviz::Shape{3, 3}));
    QCOMPARE(batch.key_padding_mask.values, (std::vector<float>{0, 0, 0,  //
                                                                0, 1, 1,  //
                                                                0, 0, 1}));
    const std::string pad = attnviz::text::kPadToken;
    QCOMPARE(batch.tokens, (std::vector<std::vector<std::string>>{
                               {"the", "cat", "sat"}, {"hi", pad, pad}, {"a", "b", pad}}));

    // Real rows equal embed_tokens of the sentence alone (with PE); padding rows are zero.
    const Tensor zero({e}, 0.0f);
    for (std::int64_t b = 0; b < 3; ++b) {
        const Tensor alone = embed_tokens(sentences[std::size_t(b)], opts);
        for (std::int64_t t = 0; t < 3; ++t) {
            if (t < batch.lengths[std::size_t(b)])
                ATTNVIZ_COMPARE_TENSORS(row(batch.x, b, t), row(alone, t), 0.0);
            else
                ATTNVIZ_COMPARE_TENSORS(row(batch.x, b, t), zero, 0.0);
        }
    }
}

void TestEmbedding::batch_without_padding() {
    const auto batch = attnviz::text::embed_batch({{"a", "b"}, {"c", "d"}}, options(3, 0, false));
    QVERIFY(!batch.has_padding());
    QCOMPARE(batch.x.shape, (attnviz::Shape{2, 2, 3}));
    QCOMPARE(batch.key_padding_mask.values, (std::vector<float>{0, 0, 0, 0}));
}

void TestEmbedding::errors() {
    using attnviz::text::embed_batch;
    for (std::int64_t e : {0, -3}) {
        QVERIFY(thrown_message([&] {
                    embed_tokens({"a"}, options(e, 0, true));
                }).contains(QLatin1String("embed_dim")));
        QVERIFY(!thrown_message([&] {
                     attnviz::text::sinusoidal_positional_encoding(4, e);
                 }).isEmpty());
        QVERIFY(!thrown_message([&] { embed_batch({{"a"}}, options(e, 0, true)); }).isEmpty());
    }
    QVERIFY(
        !thrown_message([] { attnviz::text::sinusoidal_positional_encoding(-1, 4); }).isEmpty());
    QVERIFY(thrown_message([] {
                embed_batch({}, options(4, 0, true));
            }).contains(QLatin1String("no sentences")));
    const QString message = thrown_message([] {
        embed_batch({{"a"}, {}, {"b"}}, options(4, 0, true));
    });
    QVERIFY2(message.contains(QLatin1String("sentence 2 has no tokens")), qPrintable(message));
}

QTEST_APPLESS_MAIN(TestEmbedding)
#include "test_embedding.moc"
