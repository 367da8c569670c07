// Every subcommand's JSON through the attnviz binary, read back by the engine's strict parser
// (engine/io/json.h: RFC 8259, no NaN): tokenize, inspect, attend --out-tokens, predict,
// patch, generate, stats and bench.  Where a subcommand can meet NaN or infinity it is made
// to: a golden model copied with one weight so large that the attention is NaN everywhere, or
// one logit of the head ±infinity; patch on two equal texts (every fraction 0/0).  Those
// numbers must be null; the rest must still be there and right.  Strings with quotes,
// backslashes, control characters and CJK must come back as they went in.
#include <QTest>

#include <QDir>
#include <QFile>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/safetensors.h"
#include "test_support.h"

using namespace attnviz;
namespace json = attnviz::io::json;

namespace {

QByteArray read_file(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// `text` parsed strictly; throws (so the test fails) with the parser's message and the text.
json::Document strict(const QByteArray& text) {
    try {
        return json::parse(std::string_view(text.constData(), std::size_t(text.size())));
    } catch (const json::ParseError& e) {
        throw std::runtime_error(std::string("not strict JSON (") + e.what() +
                                 "): " + text.left(400).toStdString());
    }
}

json::Element at(json::Element v, const char* key) {
    const auto m = json::find(v, key);
    if (!m) throw std::runtime_error(std::string("no \"") + key + "\" in the JSON");
    return *m;
}
json::Element item(json::Element v, std::size_t i) {
    if (v.type() != json::Type::ARRAY || i >= json::Array(v).size())
        throw std::runtime_error("no element " + std::to_string(i) + " in the JSON array");
    return json::Array(v).at(i).value_unsafe();
}
std::size_t size(json::Element v) {
    return v.type() == json::Type::ARRAY ? json::Array(v).size() : 0;
}
std::int64_t integer(json::Element v) {
    const auto i = json::as_int64(v);
    if (!i)
        throw std::runtime_error(std::string("expected an integer, found ") + json::type_name(v));
    return *i;
}
std::string text(json::Element v) {
    const auto s = json::as_string(v);
    if (!s) throw std::runtime_error(std::string("expected a string, found ") + json::type_name(v));
    return std::string(*s);
}
bool is_null(json::Element v) {
    return v.type() == json::Type::NULL_VALUE;
}
/// A finite number (the parser reads no other kind).
bool is_number(json::Element v) {
    return json::as_double(v).has_value();
}

/// stdout of a run that must succeed.
QByteArray run_ok(const QStringList& args) {
    const test::ProcessRun r = test::run_attnviz(args);
    if (r.status != 0)
        throw std::runtime_error("attnviz " + args.join(' ').toStdString() + " exited with " +
                                 std::to_string(r.status) + ": " + r.err.toStdString());
    return r.out;
}

/// A copy of golden model `name` in `dir` (its files, not its reference folder).
void copy_model(const char* name, const QString& dir) {
    QDir().mkpath(dir);
    const QDir src(test::golden_model(name));
    for (const QString& f : src.entryList(QDir::Files)) {
        QFile::remove(dir + "/" + f);
        if (!QFile::copy(src.filePath(f), dir + "/" + f))
            throw std::runtime_error("cannot copy " + f.toStdString());
    }
}

/// `value` written over the float32 weights [first, first + count) of `tensor` in the
/// model.safetensors of `dir`.
void overwrite_weights(const QString& dir, const std::string& tensor, std::size_t first,
                       std::size_t count, float value) {
    const std::string path = (dir + "/model.safetensors").toStdString();
    std::string bytes = io::read_file(path);
    const io::SafetensorsHeader h = io::parse_safetensors_header(bytes, path);
    for (const io::SafetensorsEntry& e : h.tensors) {
        if (e.name != tensor) continue;
        if (e.dtype != "F32" || first + count > e.numel)
            throw std::runtime_error(tensor + " is not float32 or too small");
        for (std::size_t i = first; i < first + count; ++i)
            std::memcpy(bytes.data() + h.data_start + e.begin + 4 * i, &value, 4);
        io::write_file_atomically(path, bytes);
        return;
    }
    throw std::runtime_error("no tensor " + tensor + " in " + path);
}

/// A text with every kind of character an escaper must handle.
const QString kAwkward = QStringLiteral("say \"hi\" \\ back/slash\ttab\nline 我爱 ok");

}  // namespace

class TestCliJson : public QObject {
    Q_OBJECT

    QString nan_model_, inf_model_;

  private slots:
    void initTestCase() {
        // Llama's first q_proj at 3e38: the queries overflow, every score and map is NaN, and
        // so is everything after it.
        nan_model_ = test::temp_path("nan_llama");
        copy_model("llama_gqa", nan_model_);
        overwrite_weights(nan_model_, "model.layers.0.self_attn.q_proj.weight", 0, 32 * 32, 3e38f);
        // One weight of the head's row of token 5 at 3e38: that logit overflows to +inf at
        // some positions (every log-probability there NaN or -inf) and -inf at others (token
        // 5's log-probability -inf, the rest finite).
        inf_model_ = test::temp_path("inf_llama");
        copy_model("llama_gqa", inf_model_);
        overwrite_weights(inf_model_, "lm_head.weight", 5 * 32 + 2, 1, 3e38f);
    }

    void tokenize_without_a_model() {
        const json::Document d = strict(run_ok({"tokenize", "--text", kAwkward}));
        std::vector<std::string> tokens;
        for (const json::Element t : json::Array(d.root()))
            tokens.push_back(text(t));
        const std::vector<std::string> want = {"say",   "\"",  "hi",   "\"", "\\", "back", "/",
                                               "slash", "tab", "line", "我", "爱", "ok"};
        QCOMPARE(tokens, want);
    }

    void tokenize_with_a_model() {
        for (const char* model : {"gpt2_lmhead", "llama_gqa"}) {
            const json::Document d = strict(
                run_ok({"tokenize", "--model", test::golden_model(model), "--text", kAwkward}));
            const json::Element ids = at(d.root(), "ids");
            QVERIFY(size(ids) > 10);
            for (const char* list : {"tokens", "text", "offsets", "special", "type_ids"})
                QCOMPARE(size(at(d.root(), list)), size(ids));
            // The pieces as shown hold the quote, backslash, tab and newline as they are.
            std::string shown;
            for (const json::Element t : json::Array(at(d.root(), "text")))
                shown += text(t);
            for (const char* piece : {"\"hi\"", "\\", "\t", "\n"})
                QVERIFY2(shown.find(piece) != std::string::npos, model);
        }
    }

    void inspect_a_folder_with_an_awkward_name() {
        const QString dir = test::temp_path(QStringLiteral("we\"ird\\名字"));
        copy_model("gpt2_lmhead", dir);
        const json::Document d = strict(run_ok({"inspect", "--model", dir}));
        QCOMPARE(text(at(d.root(), "kind")), std::string("model"));
        QCOMPARE(text(at(d.root(), "model_type")), std::string("gpt2"));
        QCOMPARE(integer(at(d.root(), "layers")), std::int64_t(2));
        QCOMPARE(integer(at(d.root(), "heads")), std::int64_t(4));
        QCOMPARE(integer(at(d.root(), "vocab_size")), std::int64_t(297));
        QCOMPARE(json::as_bool(at(d.root(), "causal")), std::optional<bool>(true));
        QVERIFY2(text(at(d.root(), "folder")).find("we\"ird\\名字") != std::string::npos,
                 text(at(d.root(), "folder")).c_str());

        const QString tokenizer =
            QString::fromStdString(test::data_dir() + "/tokenizers/bert-uncased");
        const json::Document t = strict(run_ok({"inspect", "--model", tokenizer}));
        QCOMPARE(text(at(t.root(), "kind")), std::string("tokenizer"));
        QCOMPARE(json::as_bool(at(t.root(), "weights")), std::optional<bool>(false));
        QVERIFY(integer(at(at(t.root(), "special_tokens"), "[CLS]")) >= 0);
    }

    void attend_tokens_file() {
        const QString out = test::temp_path("attend_tokens.json");
        run_ok({"attend", "--model", test::golden_model("gpt2_lmhead"), "--text", kAwkward,
                "--out-mean", test::temp_path("attend_mean.npy"), "--out-tokens", out});
        const json::Document d = strict(read_file(out));
        QCOMPARE(QString::fromStdString(text(at(d.root(), "input"))), kAwkward);
        QCOMPARE(size(at(d.root(), "tokens")), size(at(d.root(), "ids")));
    }

    void predict_with_the_lens_and_an_ablation() {
        const QString out = test::temp_path("predict.json");
        run_ok({"predict", "--model", test::golden_model("llama_gqa"), "--text", kAwkward,
                "--top-k", "3", "--lens", "--lens-positions", "1,-1", "--ablate", "1.2",
                "--out-json", out});
        const json::Document d = strict(read_file(out));
        const std::size_t L = size(at(d.root(), "ids"));
        QCOMPARE(size(at(d.root(), "top")), L);
        const json::Element first = item(item(at(d.root(), "top"), 0), 0);
        QVERIFY(integer(at(first, "id")) >= 0);
        QVERIFY(*json::as_double(at(first, "logprob")) <= 0.0);
        QCOMPARE(size(at(d.root(), "next_logprob")), L - 1);
        QVERIFY(*json::as_double(at(d.root(), "loss")) > 0.0);
        QCOMPARE(integer(item(at(d.root(), "lens_positions"), 1)), std::int64_t(L));
        QCOMPARE(size(at(d.root(), "lens")), std::size_t(2));  // one per layer
        const json::Element ablated = item(at(d.root(), "ablated"), 0);
        QCOMPARE(integer(at(ablated, "layer")), std::int64_t(1));
        QCOMPARE(integer(at(ablated, "head")), std::int64_t(2));
        QCOMPARE(text(at(ablated, "mode")), std::string("zero"));
    }

    void predict_with_infinite_logits() {
        const QString out = test::temp_path("predict_inf.json");
        run_ok({"predict", "--model", inf_model_, "--text", "abc abc", "--top-k", "342",
                "--out-json", out});
        const json::Document d = strict(read_file(out));
        std::size_t nulls = 0, numbers = 0;
        for (const json::Element row : json::Array(at(d.root(), "top"))) {
            QCOMPARE(size(row), std::size_t(342));
            for (const json::Element c : json::Array(row)) {
                nulls += is_null(at(c, "logprob"));
                numbers += is_number(at(c, "logprob"));
            }
        }
        // Positions where the logit is +inf (all NaN or -inf) and where it is -inf (one).
        QVERIFY2(nulls > 342, qPrintable(QString::number(nulls)));
        QVERIFY2(numbers > 342, qPrintable(QString::number(numbers)));
        QCOMPARE(nulls + numbers, size(at(d.root(), "top")) * 342);
    }

    void predict_with_nan_everywhere() {
        const QString out = test::temp_path("predict_nan.json");
        run_ok({"predict", "--model", nan_model_, "--text", "abc abc", "--out-json", out});
        const json::Document d = strict(read_file(out));
        QCOMPARE(size(at(d.root(), "ids")), std::size_t(7));
        for (const json::Element v : json::Array(at(d.root(), "next_logprob")))
            QVERIFY(is_null(v));
        QVERIFY(is_null(at(d.root(), "loss")));
        QVERIFY(is_null(at(item(item(at(d.root(), "top"), 0), 0), "logprob")));
    }

    void patch_on_equal_texts() {
        // m_clean == m_corrupt: every fraction restored is 0/0.
        const QString out = test::temp_path("patch_equal.json");
        run_ok({"patch", "--model", test::golden_model("llama_gqa"), "--clean", "abc abc",
                "--corrupt", "abc abc", "--target", "b", "--distractor", "c", "--out",
                test::temp_path("pe.npy"), "--out-json", out});
        const json::Document d = strict(read_file(out));
        QCOMPARE(integer(at(d.root(), "position")), std::int64_t(7));
        QCOMPARE(text(at(at(d.root(), "target"), "token")), std::string("\xE2\x96\x81"
                                                                        "b"));
        const double m = *json::as_double(at(d.root(), "m_clean"));
        QCOMPARE(*json::as_double(at(d.root(), "m_corrupt")), m);
        const json::Element heads = at(d.root(), "heads");
        QCOMPARE(size(heads), std::size_t(2 * 4));
        for (const json::Element h : json::Array(heads)) {
            QVERIFY(is_null(at(h, "fraction")));
            QVERIFY(std::abs(*json::as_double(at(h, "m_patched")) - m) < 1e-5);
        }
        QCOMPARE(integer(at(item(heads, 7), "layer")), std::int64_t(2));
        QCOMPARE(integer(at(item(heads, 7), "head")), std::int64_t(4));
    }

    void patch_with_nan_everywhere() {
        const QString out = test::temp_path("patch_nan.json");
        run_ok({"patch", "--model", nan_model_, "--clean", "abc abc", "--corrupt", "abc abd",
                "--target", "b", "--distractor", "c", "--out", test::temp_path("pn.npy"),
                "--out-json", out});
        const json::Document d = strict(read_file(out));
        QVERIFY(is_null(at(d.root(), "m_clean")));
        QVERIFY(is_null(at(d.root(), "m_corrupt")));
        QCOMPARE(integer(at(at(d.root(), "distractor"), "id")), std::int64_t(300));
    }

    void generate_greedy_and_hot() {
        for (const char* temperature : {"0", "100"}) {
            const QString out =
                test::temp_path(QStringLiteral("generate_%1.json").arg(temperature));
            run_ok({"generate", "--model", test::golden_model("llama_gqa"), "--text", kAwkward,
                    "--max-new-tokens", "4", "--temperature", temperature, "--seed", "7",
                    "--out-tokens", out});
            const json::Document d = strict(read_file(out));
            const std::size_t P = size(at(d.root(), "prompt_ids"));
            QVERIFY(P > 10);
            QCOMPARE(size(at(d.root(), "ids")), std::size_t(4));
            QCOMPARE(size(at(d.root(), "tokens")), std::size_t(4));
            const std::string finish = text(at(d.root(), "finish"));
            QVERIFY2(finish == "length" || finish == "eos", finish.c_str());
            (void)text(at(d.root(), "text"));
        }
    }

    void stats_with_nan_everywhere() {
        for (const QString& model : {test::golden_model("llama_gqa"), nan_model_}) {
            const QString out = test::temp_path("stats.json");
            run_ok({"stats", "--model", model, "--text", kAwkward, "--out-json", out});
            const json::Document d = strict(read_file(out));
            const std::size_t L = size(at(d.root(), "tokens"));
            QCOMPARE(std::size_t(integer(at(d.root(), "length"))), L);
            QCOMPARE(integer(at(d.root(), "layers")), std::int64_t(2));
            QCOMPARE(integer(at(d.root(), "heads_per_layer")), std::int64_t(4));
            QVERIFY(is_number(at(d.root(), "pass_ms")));
            const json::Element heads = at(d.root(), "heads");
            QCOMPARE(size(heads), std::size_t(8));
            const json::Element h = item(heads, 7);
            QCOMPARE(integer(at(h, "layer")), std::int64_t(2));
            QCOMPARE(integer(at(h, "head")), std::int64_t(4));
            QCOMPARE(size(at(h, "received")), L);
            const json::Element entropy = at(h, "entropy");
            if (model == nan_model_)
                QVERIFY(is_null(entropy) && is_null(item(at(h, "received"), 0)));
            else
                QVERIFY(*json::as_double(entropy) >= 0.0);
        }
    }

    void bench_lines() {
        const json::Document s =
            strict(run_ok({"bench", "--softmax", "--rows", "4", "--cols", "8", "--repeats", "1"}));
        QCOMPARE(text(at(s.root(), "bench")), std::string("softmax"));
        QCOMPARE(integer(at(s.root(), "cols")), std::int64_t(8));
        QVERIFY(is_number(at(s.root(), "median_ms")));

        const json::Document a = strict(run_ok(
            {"bench", "--tokens", "4", "--embed-dim", "8", "--num-heads", "2", "--repeats", "1"}));
        QCOMPARE(text(at(a.root(), "bench")), std::string("attention"));
        QCOMPARE(integer(at(a.root(), "num_heads")), std::int64_t(2));
        QVERIFY(!text(at(a.root(), "gemm")).empty());
        QCOMPARE(json::as_bool(at(a.root(), "need_weights")), std::optional<bool>(true));
        // need_weights=False: the same layer, its weights neither written nor averaged.
        const json::Document nw =
            strict(run_ok({"bench", "--tokens", "4", "--embed-dim", "8", "--num-heads", "2",
                           "--repeats", "1", "--no-weights"}));
        QCOMPARE(json::as_bool(at(nw.root(), "need_weights")), std::optional<bool>(false));
        QVERIFY(is_number(at(nw.root(), "median_ms")));

        // One line per measurement: the pass, then each extra.
        const QList<QByteArray> lines =
            run_ok({"bench", "--model", test::golden_model("llama_gqa"), "--tokens", "6",
                    "--repeats", "1", "--lm-head", "--lens", "--generate", "2", "--patch"})
                .trimmed()
                .split('\n');
        QCOMPARE(lines.size(), 5);
        const json::Document pass = strict(lines[0]);
        QCOMPARE(text(at(pass.root(), "model")), std::string("Llama"));
        QCOMPARE(integer(at(pass.root(), "tokens")), std::int64_t(6));
        std::set<std::string> extras;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const json::Document d = strict(lines[i]);
            extras.insert(text(at(d.root(), "bench")));
        }
        QCOMPARE(extras, (std::set<std::string>{"generate", "lens", "lm_head", "patch"}));
    }
};

QTEST_GUILESS_MAIN(TestCliJson)
#include "test_cli_json.moc"
