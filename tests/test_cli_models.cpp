// The model subcommands end to end through the attnviz binary: inspect, tokenize --model,
// attend --model (every layer × head, scopes, the memory budget) and bench --model, on the
// committed golden folders; each map the command writes equals the engine's own forward pass
// on the ids the command reports, and bad input gives one line and exit 1 or 2.
#include <QTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <filesystem>
#include <fstream>

#include "engine/io/npy.h"
#include "engine/models/head_statistics.h"
#include "engine/models/model.h"
#include "test_support.h"

using namespace attnviz;

namespace {

QJsonObject json_object(const QString& text) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &err);
    if (err.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << text << err.errorString();
    return doc.object();
}

std::vector<std::int64_t> ids_of(const QJsonObject& encoding) {
    std::vector<std::int64_t> ids;
    for (const QJsonValue v : encoding.value("ids").toArray())
        ids.push_back(v.toInteger());
    return ids;
}

/// The vocabulary line of each token of a vocab.txt (its id).
std::int64_t vocab_id(const QString& folder, const QString& token) {
    std::ifstream in((folder + "/vocab.txt").toStdString());
    std::string line;
    for (std::int64_t i = 0; std::getline(in, line); ++i)
        if (QString::fromStdString(line) == token) return i;
    return -1;
}

/// Every map of the engine's forward on `ids`, [layers, heads, L, L].
Tensor engine_maps(const QString& folder, const std::vector<std::int64_t>& ids,
                   const std::vector<std::int64_t>& type_ids = {}) {
    const auto model = models::load_model(folder.toStdString());
    models::CollectingSink sink;
    models::ModelInput in{ids, type_ids};
    model->forward(in, {}, sink);
    const auto& info = model->info();
    const auto L = static_cast<std::int64_t>(ids.size());
    Tensor all({info.num_layers, info.num_heads, L, L});
    for (std::size_t l = 0; l < sink.results.size(); ++l)
        std::copy(sink.results[l].weights.data.begin(), sink.results[l].weights.data.end(),
                  all.data.begin() + static_cast<std::ptrdiff_t>(l * info.num_heads * L * L));
    return all;
}

}  // namespace

class TestCliModels : public QObject {
    Q_OBJECT
  private slots:
    void inspectDescribesTheModel() {
        const auto r = test::run_cli({"inspect", "--model", test::golden_model("llama_gqa")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = json_object(r.out);
        QCOMPARE(o.value("model_type").toString(), QStringLiteral("llama"));
        QCOMPARE(o.value("layers").toInt(), 2);
        QCOMPARE(o.value("heads").toInt(), 4);
        QCOMPARE(o.value("kv_heads").toInt(), 2);
        QCOMPARE(o.value("head_dim").toInt(), 8);
        QCOMPARE(o.value("hidden_size").toInt(), 32);
        QCOMPARE(o.value("dtype").toString(), QStringLiteral("F32"));
        QVERIFY(o.value("parameters").toDouble() > 10000);
        QVERIFY(o.value("causal").toBool());
        QCOMPARE(o.value("position_encoding").toString(), QStringLiteral("rotary"));
        QVERIFY2(!o.value("tokenizer").toString().isEmpty(), qPrintable(r.out));
        QVERIFY(o.value("special_tokens").toObject().contains("<s>"));
    }

    void tokenizeGivesTheBertPairEncoding() {
        const QString dir = test::golden_model("bert_mlm_prefix");
        const auto r = test::run_cli(
            {"tokenize", "--model", dir, "--text", "The cat sat", "--text2", "on the mat"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = json_object(r.out);
        std::vector<std::int64_t> expected;
        for (const char* t : {"[CLS]", "the", "cat", "sat", "[SEP]", "on", "the", "mat", "[SEP]"})
            expected.push_back(vocab_id(dir, QString::fromUtf8(t)));
        QCOMPARE(ids_of(o), expected);
        QStringList types;
        for (const QJsonValue v : o.value("type_ids").toArray())
            types << QString::number(v.toInt());
        QCOMPARE(types.join(","), QStringLiteral("0,0,0,0,0,1,1,1,1"));
        QCOMPARE(o.value("text").toArray().at(1).toString(), QStringLiteral("The"));
        QCOMPARE(o.value("special").toArray().at(0).toBool(), true);
        QCOMPARE(o.value("special").toArray().at(1).toBool(), false);
        const QJsonArray cat = o.value("offsets").toArray().at(2).toArray();
        QCOMPARE(cat.at(0).toInt(), 4);
        QCOMPARE(cat.at(1).toInt(), 7);
    }

    void attendWritesEveryLayerAndHeadOfTheForwardPass_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"bert_mlm_prefix", "gpt2_lmhead", "llama_gqa", "qwen2_bias_bf16"})
            QTest::newRow(n) << QString::fromUtf8(n);
    }
    void attendWritesEveryLayerAndHeadOfTheForwardPass() {
        QFETCH(QString, name);
        const QString dir = test::golden_model(name.toUtf8().constData());
        const QString maps = test::temp_path(name + "_maps.npy"),
                      mean = test::temp_path(name + "_mean.npy");
        const QString tokens = test::temp_path(name + "_tokens.json");
        const auto r = test::run_cli({"attend", "--model", dir, "--text", "the cat sat on the mat",
                                      "--threads", "2", "--out-weights", maps, "--out-mean", mean,
                                      "--out-tokens", tokens});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QFile f(tokens);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject enc = json_object(QString::fromUtf8(f.readAll()));
        const std::vector<std::int64_t> ids = ids_of(enc);
        QVERIFY(ids.size() >= 3);
        const Tensor got = io::read_npy(maps.toStdString());
        const Tensor expected = engine_maps(dir, ids);
        QCOMPARE(got.shape, expected.shape);
        ATTNVIZ_COMPARE_TENSORS(got, expected, 1e-6);
        // The mean over heads, per layer.
        const Tensor m = io::read_npy(mean.toStdString());
        const std::int64_t Ly = got.dim(0), H = got.dim(1), L = got.dim(2);
        QCOMPARE(m.shape, (Shape{Ly, L, L}));
        for (std::int64_t l = 0; l < Ly; ++l)
            for (std::int64_t c = 0; c < L * L; ++c) {
                double sum = 0;
                for (std::int64_t h = 0; h < H; ++h)
                    sum += got.data[static_cast<std::size_t>((l * H + h) * L * L + c)];
                ATTNVIZ_FUZZY(m.data[static_cast<std::size_t>(l * L * L + c)], sum / double(H),
                              1e-6);
            }
    }

    void attendKeepsTheAskedLayersHeadsAndWindow() {
        const QString dir = test::golden_model("qwen3_qknorm");
        const QString full = test::temp_path("q3_full.npy"), part = test::temp_path("q3_part.npy");
        const QString text = QStringLiteral("the cat sat on the mat and the dog ran");
        auto r = test::run_cli({"attend", "--model", dir, "--text", text, "--out-weights", full});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        // Layer 2 and tokens 2 to 4, counted from 1: index 1 of each inside.
        r = test::run_cli({"attend", "--model", dir, "--text", text, "--layers", "2",
                           "--heads-shown", "2", "--window", "2:3", "--out-weights", part});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Tensor a = io::read_npy(full.toStdString()), b = io::read_npy(part.toStdString());
        QCOMPARE(b.shape, (Shape{1, 2, 3, 3}));
        const std::int64_t H = a.dim(1), L = a.dim(2);
        for (std::int64_t h = 0; h < 2; ++h)
            for (std::int64_t i = 0; i < 3; ++i)
                for (std::int64_t j = 0; j < 3; ++j)
                    ATTNVIZ_FUZZY(
                        b.data[static_cast<std::size_t>((h * 3 + i) * 3 + j)],
                        a.data[static_cast<std::size_t>(((1 * H + h) * L + 1 + i) * L + 1 + j)],
                        1e-6);
    }

    void streamedWeightsWriteTheSameMapsAndNoProgressBarWhenPiped() {
        // ATTNVIZ_WEIGHT_CACHE=0: every layer converted into one buffer as it runs.  stderr is
        // a pipe here: the progress bar (a terminal's) stays off, so stderr stays empty.
        for (const char* n : {"gpt2_bf16", "bert_f16_sharded", "qwen2_bias_bf16"}) {
            const QString dir = test::golden_model(n);
            const QString kept = test::temp_path(QString(n) + "_kept.npy");
            const QString streamed = test::temp_path(QString(n) + "_streamed.npy");
            const QStringList args = {
                "attend", "--model",      dir, "--text", "the cat sat on the mat", "--threads",
                "2",      "--out-weights"};
            auto r = test::run_cli(args + QStringList{kept});
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QCOMPARE(r.err, QString());
            qputenv(models::kWeightCacheEnvironmentVariable, "0");
            r = test::run_cli(args + QStringList{streamed});
            qunsetenv(models::kWeightCacheEnvironmentVariable);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QCOMPARE(r.err, QString());
            const Tensor a = io::read_npy(kept.toStdString());
            const Tensor b = io::read_npy(streamed.toStdString());
            QCOMPARE(b.shape, a.shape);
            QVERIFY2(a.data == b.data, n);
        }
    }

    // attnviz stats keeps no map, yet its measures and curves are those of the maps attend
    // writes for the same text, and the head it recomputes with --map is attend's, bit for bit.
    void statsEqualTheMeasuresOfTheFullMaps() {
        const QString dir = test::golden_model("llama_gqa");
        const QString text = "the cat sat on the mat and the dog sat on the log";
        const QString maps = test::temp_path("stats_full.npy"),
                      tokens = test::temp_path("stats_tokens.json");
        auto r = test::run_cli({"attend", "--model", dir, "--text", text, "--out-weights", maps,
                                "--out-tokens", tokens});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QString json = test::temp_path("stats.json"),
                      received = test::temp_path("stats_received.npy"),
                      first = test::temp_path("stats_first.npy"),
                      csv = test::temp_path("stats.csv"), map = test::temp_path("stats_map.npy"),
                      text_file = test::temp_path("stats_text.txt");
        {
            QFile f(text_file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
        }
        r = test::run_cli({"stats", "--model", dir, "--text-file", text_file, "--out-json", json,
                           "--out-npy", received, "--out-first", first, "--out-csv", csv, "--map",
                           "2.3", "--out-map", map});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // piped: no progress bar
        const Tensor full = io::read_npy(maps.toStdString());
        const std::int64_t layers = full.dim(0), heads = full.dim(1), L = full.dim(2);
        std::vector<Tensor> per_layer;
        for (std::int64_t l = 0; l < layers; ++l) {
            const auto at = full.data.begin() + std::ptrdiff_t(l * heads * L * L);
            per_layer.emplace_back(Shape{heads, L, L},
                                   std::vector<float>(at, at + std::ptrdiff_t(heads * L * L)));
        }
        const models::HeadStatistics expected = models::statistics_from_maps(per_layer, true);
        const Tensor got_received = io::read_npy(received.toStdString());
        const Tensor got_first = io::read_npy(first.toStdString());
        QCOMPARE(got_received.shape, (Shape{layers, heads, L}));
        QCOMPARE(got_first.shape, (Shape{layers, heads, L}));
        for (std::size_t i = 0; i < got_received.numel(); ++i) {
            QVERIFY(std::abs(got_received.data[i] - expected.received[i]) < 1e-5f);
            QCOMPARE(got_first.data[i], expected.first_token[i]);
        }
        // Layer 2, head 3 (from 1), as attend wrote it.
        const Tensor got_map = io::read_npy(map.toStdString());
        QCOMPARE(got_map.shape, (Shape{L, L}));
        QVERIFY(std::equal(got_map.data.begin(), got_map.data.end(),
                           full.data.begin() + std::ptrdiff_t((1 * heads + 2) * L * L)));
        // The JSON: tokens, and per head the measures of the maps.
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(o.value("length").toInteger(), L);
        QCOMPARE(o.value("tokens").toArray().size(), qsizetype(L));
        const QJsonArray per_head = o.value("heads").toArray();
        QCOMPARE(per_head.size(), qsizetype(layers * heads));
        for (const QJsonValue v : per_head) {
            const QJsonObject h = v.toObject();
            const models::HeadMeasures& m = expected.atlas.at(h.value("layer").toInteger() - 1,
                                                              h.value("head").toInteger() - 1);
            QVERIFY(std::abs(h.value("entropy").toDouble() - m.entropy) < 1e-5);
            QVERIFY(std::abs(h.value("mean_distance").toDouble() - m.mean_distance) < 1e-5);
            QVERIFY(std::abs(h.value("previous").toDouble() - m.previous) < 1e-5);
            QCOMPARE(h.value("received").toArray().size(), qsizetype(L));
        }
        QFile cf(csv);
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(cf.readAll()).count('\n'), int(layers * heads + 1));
    }

    void statsRefusesWhatItCannotDo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("phrase");
        const QString dir = test::golden_model("llama_gqa");
        const QString out = test::temp_path("never.npy");
        QTest::newRow("no output")
            << QStringList{"stats", "--model", dir, "--text", "a b"} << 2 << "nothing to write";
        QTest::newRow("no text") << QStringList{"stats", "--model", dir, "--out-npy", out} << 2
                                 << "--text-file";
        QTest::newRow("two texts")
            << QStringList{"stats",       "--model", dir,         "--text", "a",
                           "--text-file", out,       "--out-npy", out}
            << 2 << "one of them";
        QTest::newRow("missing text file") << QStringList{"stats",
                                                          "--model",
                                                          dir,
                                                          "--text-file",
                                                          test::temp_path("no_such.txt"),
                                                          "--out-npy",
                                                          out}
                                           << 1 << "no_such.txt";
        QTest::newRow("no such head")
            << QStringList{"stats", "--model", dir,         "--text", "a b",
                           "--map", "9.1",     "--out-map", out}
            << 2 << "--map";
        QTest::newRow("map without out")
            << QStringList{"stats", "--model", dir,         "--text", "a b",
                           "--map", "1.1",     "--out-npy", out}
            << 2 << "--out-map";
        QTest::newRow("empty text")
            << QStringList{"stats", "--model", dir, "--text", "", "--out-npy", out} << 1 << "empty";
        QTest::newRow("unwritable") << QStringList{"stats",
                                                   "--model",
                                                   dir,
                                                   "--text",
                                                   "a b",
                                                   "--out-npy",
                                                   test::temp_path("no/such/folder/r.npy")}
                                    << 1 << "does not exist";
        QTest::newRow("over the budget")
            << QStringList{"stats", "--model",         dir, "--text", "a b", "--out-npy",
                           out,     "--memory-budget", "1M"}
            << 1 << "memory budget";
    }
    void statsRefusesWhatItCannotDo() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, phrase);
        const auto r = test::run_cli(args);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ": " + r.err));
        QVERIFY2(r.err.contains(phrase, Qt::CaseInsensitive), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(test::temp_path("never.npy")));
    }

    void overTheBudgetNamesWhatFitsAndWritesNothing() {
        const QString out = test::temp_path("budget.npy");
        const auto r = test::run_cli({"attend", "--model", test::golden_model("bert_mlm_prefix"),
                                      "--text", "the cat sat on the mat", "--memory-budget", "1M",
                                      "--out-weights", out});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("memory budget"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void badInputIsOneLineAndAnExitCode_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("phrase");
        const QString bert = test::golden_model("bert_mlm_prefix");
        const QString out = test::temp_path("never.npy");
        QTest::newRow("no folder")
            << QStringList{"inspect", "--model", test::temp_path("missing")} << 1 << "config.json";
        QTest::newRow("empty text")
            << QStringList{"attend", "--model", bert, "--text", "", "--out-weights", out} << 1
            << "empty";
        QTest::newRow("no such layer")
            << QStringList{"attend", "--model",       bert, "--text", "the cat", "--layers",
                           "7",      "--out-weights", out}
            << 2 << "layers";
        QTest::newRow("too many heads")
            << QStringList{"attend", "--model",       bert, "--text", "the cat", "--heads-shown",
                           "9",      "--out-weights", out}
            << 2 << "heads";
        QTest::newRow("output folder missing")
            << QStringList{"attend",
                           "--model",
                           bert,
                           "--text",
                           "the cat",
                           "--out-weights",
                           test::temp_path("no/such/folder/a.npy")}
            << 1 << "does not exist";
        QTest::newRow("no output")
            << QStringList{"attend", "--model", bert, "--text", "the cat"} << 2 << "out";
    }
    void badInputIsOneLineAndAnExitCode() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, phrase);
        const auto r = test::run_cli(args);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ": " + r.err));
        QVERIFY2(r.err.contains(phrase, Qt::CaseInsensitive), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QVERIFY(!QFile::exists(test::temp_path("never.npy")));
    }

    // A folder of tokenizer files alone (AutoTokenizer.save_pretrained), with a config.json
    // that has no layer sizes or none at all: tokenize reads it, at any length (warning past
    // the positions, as Hugging Face does); inspect says what it is; attend says why not.
    void tokenizerOnlyFolders() {
        const QString data = QString::fromStdString(test::data_dir()) + "/tokenizers/";
        const QString dir = test::temp_path("llama3_tokenizer_only");
        QDir(dir).removeRecursively();
        QVERIFY(QDir().mkpath(dir));
        for (const char* f : {"tokenizer.json", "tokenizer_config.json"})
            QVERIFY(QFile::copy(data + "llama3_tiny/" + f, dir + "/" + f));
        QFile config(dir + "/config.json");
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "llama", "vocab_size": 268, "max_position_embeddings": 8})");
        config.close();

        auto r = test::run_cli({"tokenize", "--model", dir, "--text", "Hello world"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        const QJsonObject short_text = json_object(r.out);
        QCOMPARE(short_text.value("ids").toArray().at(0).toInt(), 266);  // <|begin_of_text|>

        const QString long_text = QStringLiteral("Hello world ").repeated(10);
        r = test::run_cli({"tokenize", "--model", dir, "--text", long_text});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = json_object(r.out);
        const int count = int(o.value("ids").toArray().size());
        QVERIFY2(count > 8, qPrintable(r.out));
        QVERIFY2(r.err.contains(QString::number(count) + " tokens, more than the 8 positions"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);

        r = test::run_cli({"inspect", "--model", dir});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject i = json_object(r.out);
        QCOMPARE(i.value("kind").toString(), QStringLiteral("tokenizer"));
        QCOMPARE(i.value("weights").toBool(true), false);
        QCOMPARE(i.value("model_type").toString(), QStringLiteral("llama"));
        QCOMPARE(i.value("max_positions").toInt(), 8);
        QCOMPARE(i.value("tokenizer_vocab_size").toInt(), 268);
        QVERIFY(i.value("special_tokens").toObject().contains("<|end_of_text|>"));

        r = test::run_cli({"attend", "--model", dir, "--text", "Hello", "--out-weights",
                           test::temp_path("never.npy")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("a tokenizer without weights"), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(test::temp_path("never.npy")));

        // Without config.json: BERT's vocab.txt alone; no positions known, so no warning.
        const QString bare = test::temp_path("bert_vocab_only");
        QDir(bare).removeRecursively();
        QVERIFY(QDir().mkpath(bare));
        for (const char* f : {"vocab.txt", "tokenizer_config.json"})
            QVERIFY(QFile::copy(data + "bert-uncased/" + f, bare + "/" + f));
        r = test::run_cli({"tokenize", "--model", bare, "--text", long_text});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QCOMPARE(json_object(r.out).value("ids").toArray().size(), 22);  // [CLS] 20 [SEP]
        r = test::run_cli({"inspect", "--model", bare});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QCOMPARE(json_object(r.out).value("config_json").toBool(true), false);
        QCOMPARE(json_object(r.out).value("max_positions").toInt(), 512);  // model_max_length
    }

    // Tokenizing has no length limit; attending keeps its clear refusal.
    void tokenizeIsNotLimitedByPositions() {
        const QString dir = test::golden_model("bert_mlm_prefix");
        const QString text = QStringLiteral("the cat sat ").repeated(30);
        auto r = test::run_cli({"tokenize", "--model", dir, "--text", text});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const int count = int(json_object(r.out).value("ids").toArray().size());
        QVERIFY(count > 64);
        QVERIFY2(r.err.contains(QString::number(count) + " tokens, more than the 64 positions"),
                 qPrintable(r.err));
        r = test::run_cli({"attend", "--model", dir, "--text", text, "--out-weights",
                           test::temp_path("never.npy")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("more than the 64 positions"), qPrintable(r.err));
        QVERIFY(!QFile::exists(test::temp_path("never.npy")));
    }

    void benchReportsAForwardPass() {
        const auto r = test::run_cli({"bench", "--model", test::golden_model("gpt2_bf16"),
                                      "--tokens", "16", "--repeats", "2"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = json_object(r.out);
        QCOMPARE(o.value("tokens").toInt(), 16);
        QCOMPARE(o.value("layers").toInt(), 3);
        QVERIFY(o.value("median_ms").toDouble() > 0);
        QVERIFY(o.value("sgemm_peak_gflops").toDouble() > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliModels)
#include "test_cli_models.moc"
