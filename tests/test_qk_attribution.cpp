// QK attribution (engine/models/qk_attribution.h, `attnviz qk`) against the float64 references
// of tests/golden/models/qk_reference.py: every causal golden case and the shipped attn-only-2l's
// induction head.  The pairs add up to the score, the scores of a row give the pass's own
// attention, and bad requests are refused with one line.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/models/model.h"
#include "engine/models/qk_attribution.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;
namespace json = io::json;

namespace {

std::string models_dir() {
    return test::golden_dir() + "/models";
}
std::string attn_only_dir() {
    return test::golden_dir() + "/../../resources/models/attn-only-2l";
}

/// One reference of qk_reference.py: a head, a query and a key (from 0) and the pairs.
struct Reference {
    std::string name, model_dir;
    models::ModelInput input;
    models::HeadRef head;
    Index query = 0, key = 0;
    double score = 0.0, row_max_abs = 0.0;
    std::vector<double> row_scores;
    std::vector<std::string> query_terms, key_terms;
    std::vector<double> pairs;  ///< [query terms, key terms]
    std::string text;           ///< the shipped case only
};

std::vector<std::string> strings(json::Element array) {
    std::vector<std::string> out;
    for (json::Element e : json::Array(array))
        out.emplace_back(*json::as_string(e));
    return out;
}

std::vector<double> numbers(json::Element array) {
    std::vector<double> out;
    for (json::Element e : json::Array(array))
        out.push_back(*json::as_double(e));
    return out;
}

Reference read_reference(const std::string& name, const std::string& model_dir,
                         const std::string& file) {
    const json::Document doc = json::parse(io::read_file(file));
    const json::Element r = doc.root();
    const auto integer = [&](const char* key) { return *json::as_int64(*json::find(r, key)); };
    const auto real = [&](const char* key) { return *json::as_double(*json::find(r, key)); };
    Reference out;
    out.name = name;
    out.model_dir = model_dir;
    for (json::Element e : json::Array(*json::find(r, "ids")))
        out.input.ids.push_back(*json::as_int64(e));
    out.head = {integer("layer"), integer("head")};
    out.query = integer("query");
    out.key = integer("key");
    out.score = real("score");
    out.row_max_abs = real("row_max_abs");
    out.row_scores = numbers(*json::find(r, "row_scores"));
    out.query_terms = strings(*json::find(r, "query_terms"));
    out.key_terms = strings(*json::find(r, "key_terms"));
    for (json::Element row : json::Array(*json::find(r, "pairs"))) {
        const std::vector<double> v = numbers(row);
        out.pairs.insert(out.pairs.end(), v.begin(), v.end());
    }
    if (const auto text = json::find(r, "text")) out.text = std::string(*json::as_string(*text));
    return out;
}

/// The causal golden cases (index.json) and the shipped model.
std::vector<Reference> references() {
    std::vector<Reference> out;
    const json::Document index = json::parse(io::read_file(models_dir() + "/index.json"));
    for (json::Element c : json::Array(*json::find(index.root(), "cases"))) {
        const auto head = json::find(c, "lm_head");
        const auto kind = head ? json::as_string(*head) : std::nullopt;
        if (!kind || *kind != "causal") continue;
        const std::string name(*json::as_string(*json::find(c, "name")));
        const std::string dir = models_dir() + "/" + name;
        out.push_back(read_reference(name, dir, dir + "/reference/qk.json"));
    }
    out.push_back(read_reference("attn-only-2l", attn_only_dir(),
                                 models_dir() + "/attn-only-2l/reference/qk.json"));
    return out;
}

std::vector<std::string> names(const std::vector<models::QkTerm>& terms) {
    std::vector<std::string> out;
    for (const models::QkTerm& t : terms)
        out.push_back(t.name());
    return out;
}

double pair_sum(const models::QkAttribution& a) {
    double s = 0.0;
    for (const double v : a.pairs)
        s += v;
    return s;
}

/// Empty when the pairs match within `tol`, else the first that does not.
QString pairs_differ(const models::QkAttribution& a, const Reference& r, double tol) {
    for (std::size_t q = 0; q < a.queries.size(); ++q)
        for (std::size_t k = 0; k < a.keys.size(); ++k) {
            const double got = a.pair(q, k), want = r.pairs[q * r.key_terms.size() + k];
            if (!(std::abs(got - want) <= tol))
                return QStringLiteral("%1 x %2: got %3, expected %4 (tol %5)")
                    .arg(QString::fromStdString(r.query_terms[q]),
                         QString::fromStdString(r.key_terms[k]))
                    .arg(got, 0, 'g', 9)
                    .arg(want, 0, 'g', 9)
                    .arg(tol);
        }
    return {};
}

/// The largest |pair|: (query term, key term).
std::pair<std::string, std::string> top_pair(const models::QkAttribution& a) {
    const auto it = std::max_element(a.pairs.begin(), a.pairs.end(),
                                     [](double x, double y) { return std::abs(x) < std::abs(y); });
    const auto n = static_cast<std::size_t>(it - a.pairs.begin());
    return {a.queries[n / a.keys.size()].name(), a.keys[n % a.keys.size()].name()};
}

json::Document read_json(const QString& path) {
    return json::parse(io::read_file(path.toStdString()));
}

}  // namespace

class TestQkAttribution : public QObject {
    Q_OBJECT

  private slots:
    /// Every pair and the score within 1e-5 of the row's largest |score| of the float64
    /// reference, and the pairs add up to the score within 1e-4 of it.
    void matchesTheReference() {
        const std::vector<Reference> refs = references();
        QVERIFY2(refs.size() >= 7, "fewer than 7 QK references");
        for (const Reference& r : refs) {
            const auto model = models::load_model(r.model_dir);
            const models::QkAttribution a =
                models::attribute_qk(*model, r.input, r.head, r.query, r.key);
            QVERIFY2(names(a.queries) == r.query_terms, r.name.c_str());
            QVERIFY2(names(a.keys) == r.key_terms, r.name.c_str());
            QVERIFY2(r.query_terms.size() > 2 && r.pairs.size() == a.pairs.size(), r.name.c_str());
            // The bound for the sum; the float32 pass is ~1e-7 of the row from the
            // float64 reference.
            const double tol = 1e-5 * r.row_max_abs;
            ATTNVIZ_FUZZY(a.score, r.score, tol);
            ATTNVIZ_FUZZY(pair_sum(a), a.score, 1e-4 * r.row_max_abs);
            const QString differ = pairs_differ(a, r, tol);
            QVERIFY2(differ.isEmpty(), qPrintable(QString::fromStdString(r.name) + ": " + differ));
        }
    }

    /// For every key of a query's row, in the head's layer and in layer 1 (the embeddings
    /// alone), the pairs' sums are the scores whose softmax is the pass's own attention row.
    void rowsGiveThePassAttention() {
        for (const Reference& r : references()) {
            const auto model = models::load_model(r.model_dir);
            models::CollectingSink sink;
            model->forward(r.input, {}, sink);
            for (const Index layer : {Index{0}, r.head.layer}) {
                const models::HeadRef head{layer, r.head.head};
                std::vector<double> scores;
                for (Index j = 0; j <= r.query; ++j) {
                    const models::QkAttribution a =
                        models::attribute_qk(*model, r.input, head, r.query, j);
                    if (layer == 0) QCOMPARE(names(a.queries).front(), std::string("embed"));
                    scores.push_back(pair_sum(a));
                }
                if (layer == r.head.layer) {  // the reference's row, every key
                    for (std::size_t j = 0; j < scores.size(); ++j)
                        ATTNVIZ_FUZZY(scores[j], r.row_scores[j], 1e-4 * r.row_max_abs);
                }
                const double top = *std::max_element(scores.begin(), scores.end());
                double total = 0.0;
                for (const double s : scores)
                    total += std::exp(s - top);
                const Tensor& w = sink.results[static_cast<std::size_t>(layer)].weights;
                const Index H = w.dim(1), L = w.dim(2);
                for (std::size_t j = 0; j < scores.size(); ++j) {
                    const double want =
                        w.data[static_cast<std::size_t>(((head.head) * L + r.query) * L) + j];
                    ATTNVIZ_FUZZY(std::exp(scores[j] - top) / total, want, 1e-5);
                }
                QCOMPARE(H, model->config().num_heads);
            }
        }
    }

    /// The shipped model's induction head L2H8, at the string's second copy and the key after
    /// its first copy: the query's own token embedding matching what the previous-token head
    /// L1H4 wrote at the key carries the score (the README states it).
    void inductionHeadReadsThePreviousTokenHead() {
        const Reference r = references().back();
        QCOMPARE(r.name, std::string("attn-only-2l"));
        const auto model = models::load_model(r.model_dir);
        const models::QkAttribution a =
            models::attribute_qk(*model, r.input, r.head, r.query, r.key);
        QCOMPARE(top_pair(a), std::make_pair(std::string("embed"), std::string("L1H4")));
        QVERIFY2(a.pair(0, 4) > 0.3 * a.score, qPrintable(QString::number(a.pair(0, 4))));
    }

    /// A record of a text's pass (record_stream) gives every cell the very numbers of a pass of
    /// its own, in the first layer, the head's and the last, and holds what
    /// stream_record_bytes says; a position past it and a record of another model are refused.
    void aRecordedPassGivesTheSameNumbers() {
        for (const Reference& r : references()) {
            const auto model = models::load_model(r.model_dir);
            const models::StreamRecord record = models::record_stream(*model, r.input);
            const auto L = static_cast<Index>(r.input.ids.size());
            QCOMPARE(record.tokens(), L);
            std::size_t bytes = 0;
            for (const auto* part : {&record.residuals, &record.contexts})
                for (const Tensor& t : *part)
                    bytes += t.numel() * sizeof(float);
            QCOMPARE(bytes, models::stream_record_bytes(model->config(), L));
            const Index N = model->config().num_layers;
            for (const Index layer : {Index{0}, r.head.layer, N - 1})
                for (const Index key : {Index{0}, r.key, r.query}) {
                    const models::HeadRef head{layer, r.head.head};
                    const models::QkAttribution want =
                        models::attribute_qk(*model, r.input, head, r.query, key);
                    const models::QkAttribution got =
                        models::attribute_qk(*model, record, head, r.query, key);
                    const std::string at = r.name + " layer " + std::to_string(layer + 1) +
                                           " key " + std::to_string(key + 1);
                    QVERIFY2(got.score == want.score, at.c_str());
                    QVERIFY2(got.pairs.size() == want.pairs.size(), at.c_str());
                    for (std::size_t n = 0; n < want.pairs.size(); ++n)
                        QVERIFY2(got.pairs[n] == want.pairs[n],
                                 (at + " pair " + std::to_string(n) + ": " +
                                  std::to_string(got.pairs[n]) + " against " +
                                  std::to_string(want.pairs[n]))
                                     .c_str());
                }
        }
        const Reference r = references().back();
        const auto model = models::load_model(r.model_dir);
        const models::StreamRecord record = models::record_stream(*model, r.input);
        const auto refused = [&](const models::Model& m, Index query, const char* phrase) {
            try {
                models::attribute_qk(m, record, {0, 0}, query, 0);
            } catch (const std::invalid_argument& e) {
                return std::string(e.what()).find(phrase) != std::string::npos;
            }
            return false;
        };
        QVERIFY(refused(*model, record.tokens(), "query position"));
        // A golden model of another width or depth: the record is not of it.
        bool other_refused = false;
        for (const Reference& o : references()) {
            const auto another = models::load_model(o.model_dir);
            const models::ModelConfig& c = another->config();
            if (c.hidden_size == model->config().hidden_size &&
                c.num_layers == model->config().num_layers)
                continue;
            QVERIFY2(refused(*another, 1, "the record holds"), o.name.c_str());
            other_refused = true;
            break;
        }
        QVERIFY(other_refused);
    }

    void refusesBadRequests() {
        const Reference r = references().back();
        const auto model = models::load_model(r.model_dir);
        const Index L = static_cast<Index>(r.input.ids.size());
        const auto refused = [&](models::HeadRef head, Index query, Index key, const char* phrase) {
            try {
                models::attribute_qk(*model, r.input, head, query, key);
            } catch (const std::invalid_argument& e) {
                return std::string(e.what()).find(phrase) != std::string::npos;
            }
            return false;
        };
        QVERIFY(refused({2, 0}, 5, 1, "head 3.1 does not exist"));
        QVERIFY(refused({1, 8}, 5, 1, "head 2.9 does not exist"));
        QVERIFY(refused({1, 7}, L, 1, "query position"));
        QVERIFY(refused({1, 7}, 5, -1, "key position 0"));
        QVERIFY(refused({1, 7}, 5, 6, "causal mask"));
        const auto bert = models::load_model(models_dir() + "/bert_gamma_beta");
        models::ModelInput in;
        in.ids = test::read_int64_npy(models_dir() + "/bert_gamma_beta/reference/input_ids.npy");
        try {
            models::attribute_qk(*bert, in, {1, 0}, 3, 1);
            QFAIL("a post-norm model was attributed");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("post-norm") != std::string::npos, e.what());
        }
    }

    /// `attnviz qk`: every pair, sorted by |value|, adding up to the reference's score; with
    /// --top N the others summed as `rest`.
    void commandWritesThePairs() {
        const Reference r = references().back();
        const QString out = test::temp_path("qk.json"), top = test::temp_path("qk_top.json");
        const QStringList base{"qk",
                               "--model",
                               QString::fromStdString(r.model_dir),
                               "--text",
                               QString::fromStdString(r.text),
                               "--head",
                               "2.8",
                               "--query",
                               QString::number(r.query + 1),
                               "--key",
                               QString::number(r.key + 1),
                               "--out-json"};
        auto run = test::run_cli(base + QStringList{out});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        run = test::run_cli(base + QStringList{top, "--top", "5"});
        QVERIFY2(run.status == 0, qPrintable(run.err));

        const json::Document all = read_json(out), best = read_json(top);
        const double tol = 1e-4 * r.row_max_abs;
        const auto score = *json::as_double(*json::find(all.root(), "score"));
        ATTNVIZ_FUZZY(score, r.score, tol);
        const auto head = *json::find(all.root(), "head");
        QCOMPARE(*json::as_int64(*json::find(head, "layer")), Index{2});
        QCOMPARE(*json::as_int64(*json::find(*json::find(all.root(), "key"), "position")),
                 r.key + 1);
        QVERIFY(!json::find(all.root(), "rest"));
        double sum = 0.0, last = INFINITY;
        std::size_t count = 0;
        for (json::Element p : json::Array(*json::find(all.root(), "pairs"))) {
            const double v = *json::as_double(*json::find(p, "value"));
            QVERIFY2(std::abs(v) <= last, "pairs not sorted by |value|");
            last = std::abs(v);
            sum += v;
            if (count++ == 0) {
                QCOMPARE(*json::as_string(*json::find(p, "query")), std::string_view("embed"));
                QCOMPARE(*json::as_string(*json::find(p, "key")), std::string_view("L1H4"));
            }
        }
        QCOMPARE(count, r.pairs.size());
        ATTNVIZ_FUZZY(sum, score, tol);

        double top_sum = *json::as_double(*json::find(best.root(), "rest"));
        std::size_t shown = 0;
        for (json::Element p : json::Array(*json::find(best.root(), "pairs"))) {
            top_sum += *json::as_double(*json::find(p, "value"));
            ++shown;
        }
        QCOMPARE(shown, std::size_t{5});
        QCOMPARE(*json::as_int64(*json::find(best.root(), "rest_pairs")),
                 static_cast<Index>(r.pairs.size() - 5));
        ATTNVIZ_FUZZY(top_sum, score, tol);
    }

    void commandRefusesBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("phrase");
        QTest::addColumn<int>("status");  // 2: the command line's mistake; 1: the model's
        const QString model = QString::fromStdString(attn_only_dir());
        const QString bert = QString::fromStdString(models_dir() + "/bert_gamma_beta");
        const auto with = [&](const QString& dir, const QStringList& more) {
            return QStringList{"qk",
                               "--model",
                               dir,
                               "--text",
                               "abcdefgh",
                               "--out-json",
                               test::temp_path("never.json")} +
                   more;
        };
        QTest::newRow("layer") << with(model, {"--head", "3.1", "--query", "5", "--key", "2"})
                               << "does not exist" << 2;
        QTest::newRow("head") << with(model, {"--head", "2.9", "--query", "5", "--key", "2"})
                              << "does not exist" << 2;
        QTest::newRow("not L.H") << with(model, {"--head", "2", "--query", "5", "--key", "2"})
                                 << "LAYER.HEAD" << 2;
        QTest::newRow("query") << with(model, {"--head", "2.8", "--query", "10", "--key", "2"})
                               << "--query 10" << 2;
        QTest::newRow("key 0") << with(model, {"--head", "2.8", "--query", "5", "--key", "0"})
                               << "--key 0" << 2;
        QTest::newRow("masked key")
            << with(model, {"--head", "2.8", "--query", "5", "--key", "6"}) << "causal mask" << 2;
        QTest::newRow("post-norm")
            << with(bert, {"--head", "2.1", "--query", "2", "--key", "1"}) << "post-norm" << 1;
    }
    void commandRefusesBadInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, phrase);
        QFETCH(int, status);
        const auto r = test::run_cli(args);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ": " + r.err));
        QVERIFY2(r.err.contains(phrase), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(test::temp_path("never.json")));
    }
};

QTEST_MAIN(TestQkAttribution)
#include "test_qk_attribution.moc"
