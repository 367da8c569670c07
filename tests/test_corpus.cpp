// Heads across a corpus (engine/models/corpus.h, corpus_texts.h, qk_embedding.h) and `attnviz
// corpus`: the corpus's measures against the texts' own and against a float64 torch reference
// with a bootstrap (tests/golden/models/corpus_reference.py), the top examples against full
// maps, the queries and keys against what the attention reads, PCA on a known low-rank set,
// the shipped models over the bundled corpora, a stopped run, and the command line's outputs
// and refusals.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <atomic>
#include <cmath>
#include <random>
#include <thread>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/models/corpus.h"
#include "engine/models/corpus_texts.h"
#include "engine/models/head_statistics.h"
#include "engine/models/model_folder.h"
#include "engine/models/qk_embedding.h"
#include "test_support.h"

using namespace attnviz;
using models::CorpusFormat;

namespace {

using Index = std::int64_t;

std::string shipped(const char* name) {
    return test::golden_dir() + "/../../resources/models/" + name;
}
std::string bundled(const char* name) {
    return test::golden_dir() + "/../../resources/corpora/" + name;
}

/// The first `count` texts of a corpus file, encoded for `m`.
std::vector<models::CorpusText> corpus_texts(const models::OpenedModel& m, const std::string& file,
                                             std::size_t count) {
    std::vector<models::CorpusText> out;
    for (const models::CorpusEntry& e : models::read_corpus(file)) {
        if (out.size() == count) break;
        bool cut = false;
        models::EncodedText x = models::encode_corpus_text(m, e.text, 0, &cut);
        out.push_back({std::move(x.input), std::move(x.encoding.text), e.line});
    }
    return out;
}

models::CorpusResult analyse(const models::OpenedModel& m,
                             const std::vector<models::CorpusText>& texts,
                             const models::CorpusOptions& options) {
    return models::analyse_corpus(
        *m.model, Index(texts.size()), [&](Index i) { return texts[std::size_t(i)]; }, options);
}

/// The full maps of one text: [layers][H, L, L].
std::vector<Tensor> full_maps(const models::Model& model, const models::ModelInput& input) {
    models::CollectingSink sink;
    model.forward(input, {}, sink);
    std::vector<Tensor> maps;
    for (AttentionResult& r : sink.results)
        maps.push_back(std::move(r.weights));
    return maps;
}

/// The corpus's induction measure of one text's map p [L, L], from its definition.
std::optional<double> induction_of(const float* p, const std::vector<std::int64_t>& ids) {
    const auto L = Index(ids.size());
    double sum = 0;
    Index rows = 0;
    for (Index i = 0; i < L; ++i) {
        double share = 0;
        bool any = false;
        for (Index j = 0; j + 1 < i; ++j)
            if (ids[std::size_t(j)] == ids[std::size_t(i)]) {
                share += p[i * L + j + 1];
                any = true;
            }
        if (any) {
            sum += share;
            ++rows;
        }
    }
    if (rows == 0) return std::nullopt;
    return sum / double(rows);
}

double json_number(const QJsonValue& v) {
    return v.isNull() ? std::nan("") : v.toDouble();
}

/// Writes `bytes` to a file of this test's and returns its path.
QString write_file(const QString& name, const QByteArray& bytes) {
    const QString path = test::temp_path(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

}  // namespace

class CorpusTest : public QObject {
    Q_OBJECT

  private slots:
    // ---- Reading a corpus -------------------------------------------------------------------
    void readsLinesParagraphsAndJsonl() {
        const std::string lines =
            "\xEF\xBB\xBF"
            "one\r\n\r\n  \ntwo words\nthree\n";
        auto t = models::split_corpus(lines, CorpusFormat::Lines, "c.txt");
        QCOMPARE(t.size(), std::size_t(3));
        QCOMPARE(t[0].text, std::string("one"));
        QCOMPARE(t[1].text, std::string("two words"));
        QCOMPARE(t[1].line, Index(4));
        t = models::split_corpus(lines, CorpusFormat::Paragraphs, "c.txt");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[1].text, std::string("two words\nthree"));
        QCOMPARE(t[1].line, Index(4));
        t = models::split_corpus("\"a\\nb\"\n\n{\"text\": \"c\", \"id\": 2}\n", CorpusFormat::Jsonl,
                                 "c.jsonl");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[0].text, std::string("a\nb"));
        QCOMPARE(t[1].text, std::string("c"));
        QCOMPARE(t[1].line, Index(3));
        // The format a file is read in by default.
        QCOMPARE(models::guess_corpus_format("x.jsonl", "\"a\""), CorpusFormat::Jsonl);
        QCOMPARE(models::guess_corpus_format("x.txt", "a\n\nb\n"), CorpusFormat::Paragraphs);
        QCOMPARE(models::guess_corpus_format("x.txt", "\n\na\nb\n\n"), CorpusFormat::Lines);
        // The bundled corpora: a few hundred texts each, read as paragraphs by default.
        for (const char* name : {"fortunes_en.txt", "fortunes_zh.txt"}) {
            const auto texts = models::read_corpus(bundled(name));
            QVERIFY2(texts.size() >= 250 && texts.size() <= 400, name);
            QVERIFY(std::any_of(texts.begin(), texts.end(), [](const models::CorpusEntry& entry) {
                return entry.text.find('\n') != std::string::npos;  // poems keep their lines
            }));
        }
    }

    void refusesWhatIsNoTextCorpus() {
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::split_corpus(std::string("ok\nbin\0ary\n", 11), CorpusFormat::Lines, "b"),
            "b: line 2", "NUL byte");
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::split_corpus("ok\nok\n\xC3\x28\n", CorpusFormat::Lines, "u"), "u: line 3",
            "not UTF-8");
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::split_corpus("\"a\"\n{\"text\": 1}\n", CorpusFormat::Jsonl, "j"), "j: line 2",
            "not a JSON string or an object");
        ATTNVIZ_EXPECT_DATA_ERROR(models::split_corpus("\"a\"\n[1,\n", CorpusFormat::Jsonl, "j"),
                                  "j: line 2", "is not JSON");
        ATTNVIZ_EXPECT_DATA_ERROR(models::split_corpus("\"\"\n", CorpusFormat::Jsonl, "j"),
                                  "j: line 1", "empty text");
        for (const char* empty : {"", " \n\n\t\n"}) {
            try {
                models::split_corpus(empty, CorpusFormat::Lines, "e");
                QFAIL("an empty corpus was read");
            } catch (const FileError& e) {
                QCOMPARE(e.code(), ErrorCode::FileEmpty);
                QVERIFY(std::string(e.what()).find("no texts") != std::string::npos);
            }
        }
    }

    // ---- The numbers ------------------------------------------------------------------------
    void studentQuantiles() {
        // Tables' values (and scipy.stats.t.ppf).
        ATTNVIZ_FUZZY(models::student_t_quantile(0.975, 1), 12.706204736174698, 1e-8);
        ATTNVIZ_FUZZY(models::student_t_quantile(0.975, 10), 2.2281388519649385, 1e-9);
        ATTNVIZ_FUZZY(models::student_t_quantile(0.975, 389), 1.96608106404671, 1e-8);
        ATTNVIZ_FUZZY(models::student_t_quantile(0.025, 10), -2.2281388519649385, 1e-9);
        ATTNVIZ_FUZZY(models::student_t_quantile(0.5, 3), 0.0, 1e-12);
    }

    // Corpus measures equal the mean of the single-text measures (the statistics pass of each
    // text, and the induction measure from each text's full maps), and the intervals are the
    // t-intervals of those values.
    void corpusMeasuresAreTheMeansOfTheTexts() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        const auto texts = corpus_texts(m, bundled("fortunes_en.txt"), 12);
        models::CorpusOptions options;
        options.num_threads = 2;
        const models::CorpusResult r = analyse(m, texts, options);
        QCOMPARE(r.texts, Index(12));
        QVERIFY(!r.partial);
        const auto& names = models::head_measure_names();
        for (Index l = 0; l < 2; ++l)
            for (Index h = 0; h < 8; ++h) {
                std::vector<std::vector<double>> values(names.size());
                for (const models::CorpusText& t : texts) {
                    const auto s = models::compute_statistics(*m.model, t.input);
                    const auto maps = full_maps(*m.model, t.input);
                    const auto L = Index(t.input.ids.size());
                    for (std::size_t k = 0; k < names.size(); ++k) {
                        if (names[k] == "induction") {
                            if (const auto v = induction_of(maps[std::size_t(l)].ptr() + h * L * L,
                                                            t.input.ids))
                                values[k].push_back(*v);
                        } else {
                            values[k].push_back(
                                models::head_measure(s.statistics.atlas.at(l, h), names[k]));
                        }
                    }
                }
                for (std::size_t k = 0; k < names.size(); ++k) {
                    const models::MeasureSummary& got = r.at(l, h).measures[k];
                    const std::vector<double>& v = values[k];
                    QCOMPARE(got.texts, Index(v.size()));
                    double mean = 0, ss = 0;
                    for (const double x : v)
                        mean += x / double(v.size());
                    for (const double x : v)
                        ss += (x - mean) * (x - mean);
                    const double half = models::student_t_quantile(0.975, double(v.size() - 1)) *
                                        std::sqrt(ss / double(v.size() - 1)) /
                                        std::sqrt(double(v.size()));
                    ATTNVIZ_FUZZY(got.mean, mean, 1e-6);
                    ATTNVIZ_FUZZY(got.low, mean - half, 1e-6);
                    ATTNVIZ_FUZZY(got.high, mean + half, 1e-6);
                }
            }
    }

    // Against the float64 torch reference on 40 texts: the measures, the t-intervals and a
    // percentile bootstrap, the labels and their agreement, the received curve by position,
    // the top examples and the joint query–key view.
    void matchesTheTorchReference() {
        const std::string dir = test::golden_dir() + "/shipped/corpus/attn_en";
        const QJsonObject golden = test::read_json(dir + "/corpus.json");
        QVERIFY(!golden.isEmpty());
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        const QJsonArray ids = golden["texts"].toArray();
        const auto texts = corpus_texts(m, bundled("fortunes_en.txt"), std::size_t(ids.size()));
        for (std::size_t t = 0; t < texts.size(); ++t) {  // the same tokens as the reference's
            const QJsonArray expected = ids[qsizetype(t)].toArray();
            QCOMPARE(Index(texts[t].input.ids.size()), Index(expected.size()));
            for (qsizetype i = 0; i < expected.size(); ++i)
                QCOMPARE(texts[t].input.ids[std::size_t(i)], Index(expected[i].toInteger()));
        }
        models::CorpusOptions options;
        options.top_k = golden["top"].toInt();
        options.bins = golden["bins"].toInt();
        options.qk_max_tokens = golden["qk_tokens"].toInt();
        for (const QJsonValue q : golden["qk"].toArray())
            options.qk_heads.push_back({q["layer"].toInt() - 1, q["head"].toInt() - 1});
        const models::CorpusResult r = analyse(m, texts, options);
        const auto& names = models::head_measure_names();
        const double n = double(ids.size());
        for (const QJsonValue value : golden["heads"].toArray()) {
            const QJsonObject g = value.toObject();
            const Index l = g["layer"].toInt() - 1, h = g["head"].toInt() - 1;
            const models::CorpusHead& got = r.at(l, h);
            const QString where = QStringLiteral("L%1H%2 ").arg(l + 1).arg(h + 1);
            for (std::size_t k = 0; k < names.size(); ++k) {
                const QJsonObject e = g["measures"][QString::fromStdString(names[k])].toObject();
                const models::MeasureSummary& s = got.measures[k];
                const double scale = std::max(1.0, std::abs(e["mean"].toDouble()));
                QCOMPARE(s.texts, Index(e["texts"].toInt()));
                ATTNVIZ_FUZZY(s.mean, e["mean"].toDouble(), 1e-5 * scale);
                ATTNVIZ_FUZZY(s.low, e["low"].toDouble(), 1e-5 * scale);
                ATTNVIZ_FUZZY(s.high, e["high"].toDouble(), 1e-5 * scale);
                // The t-interval against the bootstrap: within a fifth of its width (the worst,
                // mean distance's skewed texts, is 0.135).
                const double width = e["boot_high"].toDouble() - e["boot_low"].toDouble();
                QVERIFY2(std::abs(s.low - e["boot_low"].toDouble()) <= 0.2 * width &&
                             std::abs(s.high - e["boot_high"].toDouble()) <= 0.2 * width,
                         qPrintable(where + QString::fromStdString(names[k])));
            }
            QStringList labels;
            for (const std::string& label : got.labels)
                labels << QString::fromStdString(label);
            QCOMPARE(labels, g["labels"].toVariant().toStringList());
            for (const models::LabelAgreement& a : got.agreement)  // a text at the threshold
                ATTNVIZ_FUZZY(a.share, g["agreement"][QString::fromStdString(a.label)].toDouble(),
                              1.0 / n + 1e-9);
            check_examples(got, g, where);
        }
        const Tensor received = io::read_npy(dir + "/received.npy");
        ATTNVIZ_COMPARE_ARRAYS(r.received.data(), received.ptr(), received.numel(), 1e-5);
        for (std::size_t k = 0; k < r.qk.size(); ++k)
            check_joint_view(r.qk[k], golden["qk"].toArray()[qsizetype(k)].toObject(), dir);
    }

    // The top examples are the arg-max cells of the full maps, whatever the threads.
    void topExamplesAreTheArgMaxCells() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        std::vector<models::CorpusText> texts;
        for (const auto& t : corpus_texts(m, bundled("fortunes_en.txt"), 30))
            if (t.input.ids.size() <= 48) texts.push_back(t);
        QVERIFY(texts.size() >= 6);
        models::CorpusOptions options;
        options.top_k = 7;
        options.context = 2;
        const models::CorpusResult one = analyse(m, texts, options);
        options.num_threads = 2;
        const models::CorpusResult two = analyse(m, texts, options);
        struct Cell {
            float weight;
            Index text, query, key;
        };
        std::vector<std::vector<Cell>> cells(16);
        for (std::size_t t = 0; t < texts.size(); ++t) {
            const auto maps = full_maps(*m.model, texts[t].input);
            const auto L = Index(texts[t].input.ids.size());
            for (Index l = 0; l < 2; ++l)
                for (Index h = 0; h < 8; ++h)
                    for (Index i = 0; i < L; ++i)
                        for (Index j = 1; j < i; ++j)
                            cells[std::size_t(l * 8 + h)].push_back(
                                {maps[std::size_t(l)].ptr()[(h * L + i) * L + j], Index(t), i, j});
        }
        for (Index k = 0; k < 16; ++k) {
            auto& c = cells[std::size_t(k)];
            std::stable_sort(c.begin(), c.end(),
                             [](const Cell& a, const Cell& b) { return a.weight > b.weight; });
            const auto& got = one.per_head[std::size_t(k)].examples;
            QCOMPARE(got.size(), std::size_t(7));
            for (std::size_t e = 0; e < got.size(); ++e) {
                const QString where = QStringLiteral("head %1, example %2").arg(k).arg(e);
                QVERIFY2(got[e].weight == c[e].weight, qPrintable(where));
                QVERIFY2(got[e].text == c[e].text && got[e].query == c[e].query &&
                             got[e].key == c[e].key,
                         qPrintable(where));
                const auto& other = two.per_head[std::size_t(k)].examples[e];
                QVERIFY2(other.text == got[e].text && other.query == got[e].query &&
                             other.key == got[e].key && other.weight == got[e].weight,
                         qPrintable(where + QStringLiteral(" on 2 threads")));
                // The context: the tokens within 2 of the key and of the query.
                const auto& tokens = texts[std::size_t(got[e].text)].tokens;
                std::vector<std::string> joined;
                for (const models::TokenSpan& s : got[e].context)
                    for (std::size_t i = 0; i < s.tokens.size(); ++i) {
                        QCOMPARE(s.tokens[i], tokens[std::size_t(s.first) + i]);
                        joined.push_back(s.tokens[i]);
                    }
                QCOMPARE(got[e].context.front().first, std::max<Index>(0, got[e].key - 2));
                QCOMPARE(got[e].context.back().first + Index(got[e].context.back().tokens.size()),
                         std::min<Index>(Index(tokens.size()), got[e].query + 3));
            }
        }
    }

    // The queries and keys rebuilt from the stream are those the attention reads (the pass's
    // own steps): pre-norm LayerNorm (GPT-2), RMSNorm and rotation with grouped-query heads
    // (Llama), Qwen3's q/k norms, and a post-norm encoder (BERT).
    void queriesAndKeysAreWhatTheAttentionReads() {
        struct Case {
            std::string folder;
            models::HeadRef head;
        };
        const std::vector<Case> cases{
            {shipped("attn-only-2l"), {1, 7}},
            {test::golden_model("gpt2_lmhead").toStdString(), {1, 2}},
            {test::golden_model("llama_gqa").toStdString(), {1, 3}},
            {test::golden_model("qwen3_qknorm").toStdString(), {1, 1}},
            {test::golden_model("bert_gamma_beta").toStdString(), {1, 1}},
        };
        for (const Case& c : cases) {
            const models::OpenedModel m = models::open_model_folder(c.folder);
            models::ModelInput input;
            for (Index i = 0; i < 19; ++i)
                input.ids.push_back((7 * i + 3) % std::min<Index>(m.model->info().vocab_size, 90));
            models::StreamSink stream;
            models::ModelForwardOptions plain;
            plain.attention = false;
            m.model->forward(input, plain, stream);
            const models::QueryKeyReader reader(*m.model, c.head);
            std::vector<float> q, k;
            reader.read(stream.residuals[std::size_t(c.head.layer)], &q, &k);
            models::CollectingSink sink;
            models::ModelForwardOptions steps;
            steps.scope.layers = {c.head.layer};
            steps.steps_layer = c.head.layer;
            m.model->forward(input, steps, sink);
            const HeadSteps& s = sink.results.front().steps->heads[std::size_t(c.head.head)];
            QVERIFY2(test::compare_arrays(q.data(), s.q.ptr(), s.q.numel(), 1e-5, 1e-5).ok,
                     c.folder.c_str());
            QVERIFY2(test::compare_arrays(k.data(), s.k.ptr(), s.k.numel(), 1e-5, 1e-5).ok,
                     c.folder.c_str());
        }
    }

    // PCA of a known low-rank set recovers its axes and the shares of variance; the joint
    // view's normalisation keeps every score up to a constant per query.
    void principalComponentsRecoverALowRankSet() {
        constexpr Index kDim = 12, kRows = 4000;
        std::mt19937 rng(7);
        std::normal_distribution<double> normal;
        // Two orthonormal directions (Gram-Schmidt on random ones).
        std::vector<double> u(kDim), v(kDim);
        double uu = 0, uv = 0, vv = 0;
        for (Index e = 0; e < kDim; ++e) {
            u[std::size_t(e)] = normal(rng);
            v[std::size_t(e)] = normal(rng);
            uu += u[std::size_t(e)] * u[std::size_t(e)];
        }
        for (Index e = 0; e < kDim; ++e) {
            u[std::size_t(e)] /= std::sqrt(uu);
            uv += u[std::size_t(e)] * v[std::size_t(e)];
        }
        for (Index e = 0; e < kDim; ++e) {
            v[std::size_t(e)] -= uv * u[std::size_t(e)];
            vv += v[std::size_t(e)] * v[std::size_t(e)];
        }
        for (double& x : v)
            x /= std::sqrt(vv);
        // Coordinates along them: centred and uncorrelated in the sample itself, so that
        // the sample's principal axes are u and v (up to the small noise).
        std::vector<double> a(kRows), b(kRows);
        double mean_a = 0, mean_b = 0;
        for (Index r = 0; r < kRows; ++r) {
            a[std::size_t(r)] = 3.0 * normal(rng);
            b[std::size_t(r)] = 1.5 * normal(rng);
            mean_a += a[std::size_t(r)] / double(kRows);
            mean_b += b[std::size_t(r)] / double(kRows);
        }
        double ab = 0, aa = 0, var_a = 0, var_b = 0;
        for (Index r = 0; r < kRows; ++r) {
            a[std::size_t(r)] -= mean_a;
            b[std::size_t(r)] -= mean_b;
            ab += a[std::size_t(r)] * b[std::size_t(r)];
            aa += a[std::size_t(r)] * a[std::size_t(r)];
        }
        for (Index r = 0; r < kRows; ++r) {
            b[std::size_t(r)] -= ab / aa * a[std::size_t(r)];
            var_a += a[std::size_t(r)] * a[std::size_t(r)] / double(kRows);
            var_b += b[std::size_t(r)] * b[std::size_t(r)] / double(kRows);
        }
        std::vector<float> x(std::size_t(kRows * kDim));
        for (Index r = 0; r < kRows; ++r)
            for (Index e = 0; e < kDim; ++e)
                x[std::size_t(r * kDim + e)] =
                    float(5.0 + a[std::size_t(r)] * u[std::size_t(e)] +
                          b[std::size_t(r)] * v[std::size_t(e)] + 0.01 * normal(rng));
        const models::Projection2d p = models::principal_components_2d(x.data(), kRows, kDim);
        for (Index axis = 0; axis < 2; ++axis) {
            double dot = 0;
            for (Index e = 0; e < kDim; ++e)
                dot += p.axes[std::size_t(axis * kDim + e)] * (axis == 0 ? u : v)[std::size_t(e)];
            QVERIFY2(std::abs(dot) > 0.99999, qPrintable(QString::number(dot)));
            // The points' coordinates are the set's own, up to the sign.
            double err = 0;
            const std::vector<double>& c = axis == 0 ? a : b;
            for (Index r = 0; r < kRows; ++r)
                err = std::max(err, std::abs(std::abs(p.points[std::size_t(r * 2 + axis)]) -
                                             std::abs(c[std::size_t(r)])));
            QVERIFY2(err < 0.05, qPrintable(QString::number(err)));
        }
        // The shares of the variances along u and v, of theirs and the noise's (12 · 1e-4).
        const double total = var_a + var_b + 12e-4;
        ATTNVIZ_FUZZY(p.explained[0], var_a / total, 1e-4);
        ATTNVIZ_FUZZY(p.explained[1], var_b / total, 1e-4);

        // Queries and keys of different centres and spreads.
        std::vector<float> q(x.begin(), x.begin() + 200 * kDim),
            k(x.begin() + 200 * kDim, x.begin() + 400 * kDim);
        for (float& value : k)
            value = 0.2f * value - 3.0f;
        const models::JointQueryKeys j = models::joint_query_keys(q, k, kDim);
        const double c = j.normalisation.query_scale;
        // One centre: the mean normalised query is the mean normalised key.
        for (Index e = 0; e < kDim; ++e) {
            double centre_q = 0, centre_k = 0;
            for (Index r = 0; r < 200; ++r) {
                centre_q += c * q[std::size_t(r * kDim + e)] / 200;
                centre_k +=
                    (k[std::size_t(r * kDim + e)] / c + j.normalisation.key_shift[std::size_t(e)]) /
                    200;
            }
            ATTNVIZ_FUZZY(centre_q, centre_k, 1e-4);
        }
        QCOMPARE(j.pca.points.size(), std::size_t(2 * 400));
    }

    // ---- The shipped models over the bundled corpora ---------------------------------------
    // Held-out English fortunes through attn-only-2l: layer 1 head 4 is its previous-token
    // head with a tight interval; layer 2 head 8 its induction head, at nearly twice any other
    // head (L1H8: 0.106), though plain English keeps it below the atlas's 0.3.
    void shippedModelOverTheEnglishCorpus() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        const auto texts = corpus_texts(m, bundled("fortunes_en.txt"), 1000);
        models::CorpusOptions options;
        options.num_threads = 2;
        options.top_k = 0;
        const models::CorpusResult r = analyse(m, texts, options);
        QCOMPARE(r.texts, Index(390));
        QCOMPARE(r.texts_with_repeats, Index(389));
        const models::CorpusHead& prev = r.at(0, 3);
        QCOMPARE(prev.labels, std::vector<std::string>{"previous token"});
        ATTNVIZ_FUZZY(prev.measure("previous").mean, 0.498, 0.002);
        QVERIFY(prev.measure("previous").high - prev.measure("previous").low < 0.008);
        QVERIFY(prev.agreement[0].interval_clears);
        QVERIFY(prev.agreement[0].share >= 0.97);
        const models::MeasureSummary& ind = r.at(1, 7).measure("induction");
        ATTNVIZ_FUZZY(ind.mean, 0.189, 0.002);
        QVERIFY(ind.high - ind.low < 0.015);
        for (Index k = 0; k < 16; ++k)
            if (k != 15)
                QVERIFY(r.per_head[std::size_t(k)].measure("induction").high < ind.low / 1.6);
        QCOMPARE(r.received.size(), std::size_t(2 * 8 * 20));
    }

    // Held-out Chinese through attn-only-zh-en-2l: its previous-token head, and three heads of
    // layer 2 that earn "induction" on poems that repeat their characters.
    void shippedModelOverTheChineseCorpus() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-zh-en-2l"));
        const auto texts = corpus_texts(m, bundled("fortunes_zh.txt"), 1000);
        models::CorpusOptions options;
        options.num_threads = 2;
        options.top_k = 0;
        const models::CorpusResult r = analyse(m, texts, options);
        QCOMPARE(r.texts, Index(254));
        ATTNVIZ_FUZZY(r.at(0, 3).measure("previous").mean, 0.659, 0.002);
        QCOMPARE(r.at(0, 3).labels, std::vector<std::string>{"previous token"});
        for (const auto& [head, mean] :
             {std::pair{Index{3}, 0.394}, std::pair{Index{4}, 0.363}, std::pair{Index{6}, 0.319}}) {
            const models::CorpusHead& c = r.at(1, head);
            QVERIFY(std::find(c.labels.begin(), c.labels.end(), "induction") != c.labels.end());
            ATTNVIZ_FUZZY(c.measure("induction").mean, mean, 0.002);
            QVERIFY(c.measure("induction").high - c.measure("induction").low < 0.045);
        }
    }

    // Stopped between texts, or within one: the result is that of the texts done, marked
    // partial, and the asked head's vectors are theirs.
    void aStoppedRunIsConsistentAndPartial() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        const auto texts = corpus_texts(m, bundled("fortunes_en.txt"), 8);
        std::atomic<bool> stop{false};
        models::CorpusOptions options;
        options.qk_heads = {{1, 7}};
        options.control.stop = &stop;
        options.control.progress = [&](Index done, Index) { stop = done == 3; };
        const models::CorpusResult stopped = analyse(m, texts, options);
        QVERIFY(stopped.partial);
        QCOMPARE(stopped.texts, Index(3));
        stop = false;
        options.control = {};
        const std::vector<models::CorpusText> first(texts.begin(), texts.begin() + 3);
        const models::CorpusResult three = analyse(m, first, options);
        QVERIFY(!three.partial);
        QCOMPARE(stopped.tokens, three.tokens);
        QCOMPARE(stopped.at(1, 7).measure("previous").mean,
                 three.at(1, 7).measure("previous").mean);
        QCOMPARE(stopped.qk[0].queries, three.qk[0].queries);
        QCOMPARE(Index(stopped.qk[0].tokens.size()), three.tokens);

        // A stop within a pass: the text counts nowhere, whenever the stop comes.
        models::CorpusAnalysis analysis(*m.model, options);
        analysis.add(texts[0]);
        std::atomic<bool> now{true};
        models::CorpusOptions stopping = options;
        stopping.control.stop = &now;
        models::CorpusAnalysis stopped_analysis(*m.model, stopping);
        QVERIFY_THROWS_EXCEPTION(Cancelled, stopped_analysis.add(texts[0]));
        QCOMPARE(stopped_analysis.texts(), Index(0));
        QVERIFY(stopped_analysis.result().qk[0].queries.empty());
        std::atomic<bool> later{false};
        stopping.control.stop = &later;
        models::CorpusAnalysis racing(*m.model, stopping);
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
            later = true;
        });
        Index added = 0;
        try {
            for (const models::CorpusText& t : texts) {
                racing.add(t);
                ++added;
            }
        } catch (const Cancelled&) {
        }
        stopper.join();
        const models::CorpusResult r = racing.result();
        QCOMPARE(r.texts, added);
        Index tokens = 0;
        for (Index t = 0; t < added; ++t)
            tokens += Index(texts[std::size_t(t)].input.ids.size());
        QCOMPARE(r.tokens, tokens);
        QCOMPARE(Index(r.qk[0].tokens.size()), tokens);
        QCOMPARE(Index(r.qk[0].queries.size()), tokens * r.qk[0].dim);
    }

    // ---- The command line -------------------------------------------------------------------
    void cliWritesWhatTheEngineComputes() {
        const models::OpenedModel m = models::open_model_folder(shipped("attn-only-2l"));
        QByteArray corpus;
        const auto entries = models::read_corpus(bundled("fortunes_en.txt"));
        for (std::size_t t = 0; t < 25; ++t)
            corpus += QByteArray::fromStdString(entries[t].text) + "\n\n";
        const QString file = write_file(QStringLiteral("cli.txt"), corpus);
        const QString out = test::temp_path(QStringLiteral("cli-out"));
        const test::CliRun run = test::run_cli(
            {QStringLiteral("corpus"), QStringLiteral("--model"),
             QString::fromStdString(shipped("attn-only-2l")), QStringLiteral("--texts"), file,
             QStringLiteral("--qk"), QStringLiteral("2.8"), QStringLiteral("--top"),
             QStringLiteral("3"), QStringLiteral("--threads"), QStringLiteral("2"),
             QStringLiteral("--out"), out});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY(run.err.isEmpty());
        QCOMPARE(test::entries(out), (QStringList{"heads.json", "qk_2_8.json", "qk_2_8.npy",
                                                  "qk_2_8_cosine.npy", "received.npy"}));

        models::CorpusOptions options;  // as the command asked, threads too: the same sums
        options.top_k = 3;
        options.qk_heads = {{1, 7}};
        options.num_threads = 2;
        const models::CorpusResult r =
            analyse(m, corpus_texts(m, file.toStdString(), 100), options);
        const QJsonObject heads = test::read_json(out + QStringLiteral("/heads.json"));
        QCOMPARE(heads["texts"].toInt(), 25);
        QCOMPARE(heads["partial"].toBool(), false);
        QCOMPARE(heads["truncated"].toInt(), 0);
        QCOMPARE(heads["tokens"].toInteger(), r.tokens);
        const QJsonArray list = heads["heads"].toArray();
        QCOMPARE(list.size(), 16);
        const QJsonObject l2h8 = list[15].toObject();
        QCOMPARE(l2h8["layer"].toInt(), 2);
        QCOMPARE(l2h8["head"].toInt(), 8);
        const models::CorpusHead& head = r.at(1, 7);
        for (const std::string& name : models::head_measure_names()) {
            const QJsonObject e = l2h8["measures"][QString::fromStdString(name)].toObject();
            const auto& s = head.measure(name);
            for (const auto& [key, v] :
                 {std::pair{"mean", s.mean}, std::pair{"low", s.low}, std::pair{"high", s.high}})
                ATTNVIZ_FUZZY(json_number(e[QLatin1String(key)]), v,
                              1e-5 * std::max(1.0, std::abs(v)));
        }
        const QJsonObject example = l2h8["examples"][0].toObject();
        QCOMPARE(example["text"].toInteger(), head.examples[0].text + 1);
        QCOMPARE(example["query"].toInteger(), head.examples[0].query + 1);
        QCOMPARE(example["key"].toInteger(), head.examples[0].key + 1);
        QCOMPARE(example["line"].toInteger(),
                 models::read_corpus(file.toStdString())[std::size_t(head.examples[0].text)].line);
        const Tensor received = io::read_npy((out + QStringLiteral("/received.npy")).toStdString());
        QCOMPARE(received.shape, (Shape{2, 8, 20}));
        QCOMPARE(received.data, r.received);
        const models::JointQueryKeys joint =
            models::joint_query_keys(r.qk[0].queries, r.qk[0].keys, r.qk[0].dim);
        const Tensor pca = io::read_npy((out + QStringLiteral("/qk_2_8.npy")).toStdString());
        QCOMPARE(pca.shape, (Shape{2 * r.tokens, 2}));
        QCOMPARE(pca.data, joint.pca.points);
        const QJsonObject points = test::read_json(out + QStringLiteral("/qk_2_8.json"));
        QCOMPARE(points["tokens"].toInteger(), r.tokens);
        const QJsonArray p = points["points"].toArray();
        QCOMPARE(p.size(), qsizetype(2 * r.tokens));
        QCOMPARE(p[0]["kind"].toString(), QStringLiteral("query"));
        QCOMPARE(p[0]["token"].toString(), QStringLiteral("<|bos|>"));
        QCOMPARE(p[qsizetype(r.tokens) + 1]["kind"].toString(), QStringLiteral("key"));
        QCOMPARE(p[qsizetype(r.tokens) + 1]["position"].toInt(), 2);
        QCOMPARE(p[qsizetype(r.tokens) + 1]["token"].toString(),
                 QString::fromStdString(r.qk[0].tokens[1].token));
    }

    // Bad input: one line on stderr, exit 1 (the data) or 2 (the command), nothing written.
    void cliRefusesBadInput() {
        const QString model = QString::fromStdString(shipped("attn-only-2l"));
        const QString good = write_file(QStringLiteral("good.txt"), "one\ntwo\n");
        const QString empty = write_file(QStringLiteral("empty.txt"), "");
        const QString binary =
            write_file(QStringLiteral("binary.txt"), QByteArray("ab\ncd\0e\n", 8));
        const QString latin1 = write_file(QStringLiteral("latin1.txt"), "ok\ncaf\xE9\n");
        const QString jsonl =
            write_file(QStringLiteral("bad.jsonl"), "\"a\"\n\"b\"\n{\"txt\": 1}\n");
        const QString long_text =
            write_file(QStringLiteral("long.txt"), "short\n" + QByteArray(600, 'a') + "\n");
        const QString out = test::temp_path(QStringLiteral("refused"));
        struct Case {
            QStringList args;
            int status;
            QString says;
        };
        const QStringList base{QStringLiteral("corpus"),
                               QStringLiteral("--model"),
                               model,
                               QStringLiteral("--out"),
                               out,
                               QStringLiteral("--texts")};
        const std::vector<Case> cases{
            {base + QStringList{empty}, 1, QStringLiteral("no texts")},
            {base + QStringList{binary}, 1, QStringLiteral("line 2 holds a NUL byte")},
            {base + QStringList{latin1}, 1, QStringLiteral("line 2 is not UTF-8")},
            {base + QStringList{jsonl}, 1, QStringLiteral("line 3 is an object")},
            {base + QStringList{long_text}, 1, QStringLiteral("line 2: the text is 601 tokens")},
            {base + QStringList{good, QStringLiteral("--format"), QStringLiteral("xml")}, 2,
             QStringLiteral("--format")},
            {base + QStringList{good, QStringLiteral("--qk"), QStringLiteral("3.1")}, 2,
             QStringLiteral("--qk")},
            {base + QStringList{good, QStringLiteral("--top"), QStringLiteral("-1")}, 2,
             QStringLiteral("--top")},
            {base.mid(0, 5), 2, QStringLiteral("--texts")},
            // The --qk vectors count: a million tokens of one head are 340 MiB.
            {base + QStringList{good, QStringLiteral("--qk"), QStringLiteral("1.1"),
                                QStringLiteral("--qk-tokens"), QStringLiteral("1000000"),
                                QStringLiteral("--memory-budget"), QStringLiteral("100M")},
             1, QStringLiteral("more than the memory budget")},
            {QStringList{QStringLiteral("corpus"), QStringLiteral("--model"), model,
                         QStringLiteral("--texts"), good, QStringLiteral("--out"), good},
             1, QStringLiteral("is a file, not a folder")},
        };
        for (const Case& c : cases) {
            const test::CliRun run = test::run_cli(c.args);
            const QString what = c.args.join(u' ') + QStringLiteral(": ") + run.err;
            QVERIFY2(run.status == c.status, qPrintable(what));
            QVERIFY2(run.err.contains(c.says), qPrintable(what));
            QVERIFY2(run.err.count(u'\n') == 1 && run.err.endsWith(u'\n'), qPrintable(what));
            QVERIFY2(!QFileInfo::exists(out), qPrintable(what));
        }
        // --max-tokens cuts the long text instead, and says so.
        const test::CliRun cut = test::run_cli(
            base + QStringList{long_text, QStringLiteral("--max-tokens"), QStringLiteral("100")});
        QVERIFY2(cut.status == 0, qPrintable(cut.err));
        const QJsonObject heads = test::read_json(out + QStringLiteral("/heads.json"));
        QCOMPARE(heads["truncated"].toInt(), 1);
        QCOMPARE(heads["tokens"].toInt(), 6 + 100);
    }

    // Ctrl-C after the second text: the two texts' result, marked partial, and exit 130.
    void cliInterruptedWritesAPartialResult() {
        QByteArray corpus;
        for (int t = 0; t < 8; ++t)
            corpus += "Text number " + QByteArray::number(t) + " of a short corpus.\n";
        const QString file = write_file(QStringLiteral("eight.txt"), corpus);
        const QString out = test::temp_path(QStringLiteral("interrupted"));
        qputenv("ATTNVIZ_CORPUS_INTERRUPT_AFTER", "2");
        const test::CliRun run =
            test::run_cli({QStringLiteral("corpus"), QStringLiteral("--model"),
                           QString::fromStdString(shipped("attn-only-2l")),
                           QStringLiteral("--texts"), file, QStringLiteral("--out"), out});
        qunsetenv("ATTNVIZ_CORPUS_INTERRUPT_AFTER");
        QVERIFY2(run.status == 130, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("stopped after 2 of 8 texts")),
                 qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        const QJsonObject heads = test::read_json(out + QStringLiteral("/heads.json"));
        QCOMPARE(heads["partial"].toBool(), true);
        QCOMPARE(heads["texts"].toInt(), 2);
        QCOMPARE(heads["texts_in_file"].toInt(), 8);
    }

  private:
    static void check_examples(const models::CorpusHead& got, const QJsonObject& g,
                               const QString& where) {
        const QJsonArray expected = g["examples"].toArray(), candidates = g["candidates"].toArray();
        QCOMPARE(qsizetype(got.examples.size()), expected.size());
        for (std::size_t e = 0; e < got.examples.size(); ++e) {
            const models::CorpusExample& x = got.examples[e];
            ATTNVIZ_FUZZY(x.weight, expected[qsizetype(e)][3].toDouble(), 1e-5);
            // The cell is one the reference ranks there, up to float32's near-ties.
            bool found = false;
            for (const QJsonValue c : candidates)
                found = found ||
                        (c[0].toInteger() == x.text && c[1].toInteger() == x.query &&
                         c[2].toInteger() == x.key && std::abs(c[3].toDouble() - x.weight) < 1e-5);
            QVERIFY2(found, qPrintable(where + QStringLiteral("example %1").arg(e)));
        }
    }

    static void check_joint_view(const models::CorpusQueryKeys& qk, const QJsonObject& g,
                                 const std::string& dir) {
        QCOMPARE(Index(qk.tokens.size()), Index(g["tokens"].toInt()));
        const models::JointQueryKeys j = models::joint_query_keys(qk.queries, qk.keys, qk.dim);
        ATTNVIZ_FUZZY(j.normalisation.query_scale, g["query_scale"].toDouble(), 1e-5);
        ATTNVIZ_FUZZY(j.normalisation.spread, g["spread"].toDouble(), 1e-4);
        for (int a = 0; a < 2; ++a) {
            ATTNVIZ_FUZZY(j.pca.explained[std::size_t(a)], g["pca_explained"][a].toDouble(), 1e-5);
            ATTNVIZ_FUZZY(j.cosine.explained[std::size_t(a)], g["cosine_explained"][a].toDouble(),
                          1e-5);
        }
        const std::string name = dir + "/qk_" + std::to_string(qk.head.layer + 1) + "_" +
                                 std::to_string(qk.head.head + 1);
        for (const auto& [file, p] :
             {std::pair{name + ".npy", &j.pca}, std::pair{name + "_cosine.npy", &j.cosine}}) {
            const Tensor expected = io::read_npy(file);
            QCOMPARE(expected.numel(), p->points.size());
            ATTNVIZ_COMPARE_ARRAYS(p->points.data(), expected.ptr(), expected.numel(), 1e-4);
        }
    }
};

QTEST_GUILESS_MAIN(CorpusTest)
#include "test_corpus.moc"
