// attnviz attribute end to end through the binary, on the golden tiny checkpoints: the JSON and
// S.npy equal the engine's own attribution (engine/models/attribution.h, itself checked against
// float64 in test_attribution), the parts add up to the total, and bad input (here also that of
// the backward pass's options: attribute --saliency and --out-grads, patch --method, bench's
// extras) is one line, exit 1 or 2, and no file.
#include <QTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

#include "engine/io/npy.h"
#include "engine/models/attribution.h"
#include "engine/models/model_folder.h"
#include "test_support.h"

using namespace attnviz;
using Index = std::int64_t;

namespace {

/// The JSON keeps 7 significant digits.
bool close7(double got, double want) {
    return std::abs(got - want) <= 1e-6 * std::max(1e-3, std::abs(want));
}

#define CHECK_CLOSE7(got, want, what)                                                \
    QVERIFY2(close7((got), (want)), qPrintable(QStringLiteral("%1: %2, expected %3") \
                                                   .arg(what)                        \
                                                   .arg(double(got), 0, 'g', 9)      \
                                                   .arg(double(want), 0, 'g', 9)))

}  // namespace

class TestCliAttribution : public QObject {
    Q_OBJECT
  private slots:
    void attributeWritesTheEnginesParts_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("extra");    // --distractor, --position
        QTest::addColumn<bool>("attention_bias");  // GPT-2's c_proj bias; Qwen2 has none
        QTest::newRow("gpt2, the last position")
            << test::golden_model("gpt2_lmhead") << QStringList{} << true;
        QTest::newRow("qwen2, a difference at position 3")
            << test::golden_model("qwen2_bias_bf16")
            << QStringList{"--distractor", "c", "--position", "3"} << false;
        QTest::newRow("llama gqa, position -2")
            << test::golden_model("llama_gqa") << QStringList{"--position", "-2"} << false;
    }
    void attributeWritesTheEnginesParts() {
        QFETCH(QString, model);
        QFETCH(QStringList, extra);
        QFETCH(bool, attention_bias);
        const QString js = test::temp_path("a.json"), npy = test::temp_path("s.npy");
        QFile::remove(js);
        QFile::remove(npy);
        const QString text = "the cat sat on the mat";
        const auto r =
            test::run_cli(QStringList{"attribute", "--model", model, "--text", text, "--target",
                                      "t", "--out-json", js, "--out-npy", npy} +
                          extra);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));

        // The engine's own attribution of the same request.
        const auto m = models::open_model_folder(model.toStdString());
        const models::EncodedText e = models::encode_text(m, text.toStdString());
        const auto L = static_cast<Index>(e.input.ids.size());
        const Index N = m.model->info().num_layers, H = m.model->info().num_heads;
        models::LogitTarget what;
        const int at = int(extra.indexOf("--position"));
        const Index p = at < 0 ? -1 : extra[at + 1].toLongLong();
        what.position = p < 0 ? L + p : p - 1;
        what.target = models::single_token_id(m.tokenizer, "t", "--target");
        if (extra.contains("--distractor"))
            what.distractor = models::single_token_id(m.tokenizer, "c", "--distractor");
        const models::LogitAttribution want = models::attribute_logit(*m.model, e.input, what);

        const QJsonObject o = test::read_json(js);
        QStringList keys = o.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{"attention_bias", "constant", "distractor", "embeddings",
                                    "heads", "mlps", "norm_scale", "position", "saliency",
                                    "saliency_baseline", "saliency_delta", "saliency_method",
                                    "saliency_steps", "target", "total"}));
        // Without --saliency (test_cli_gradients asks for it).
        for (const char* key : {"saliency", "saliency_baseline", "saliency_delta",
                                "saliency_method", "saliency_steps"})
            QVERIFY2(o.value(key).isNull(), key);
        QCOMPARE(o.value("position").toInteger(), what.position + 1);  // from 1
        const QJsonObject target = o.value("target").toObject();
        QCOMPARE(target.value("id").toInteger(), what.target);
        // The vocabulary's string ("t", or SentencePiece's "▁t").
        QCOMPARE(target.value("token").toString().toStdString(),
                 m.tokenizer.id_to_token(what.target));
        if (what.distractor) {
            QCOMPARE(o.value("distractor").toObject().value("id").toInteger(), *what.distractor);
            QCOMPARE(o.value("distractor").toObject().value("token").toString().toStdString(),
                     m.tokenizer.id_to_token(*what.distractor));
        } else {
            QVERIFY(o.value("distractor").isNull());
        }
        const double total = o.value("total").toDouble();
        CHECK_CLOSE7(total, want.total, "total");
        CHECK_CLOSE7(o.value("constant").toDouble(), want.constant, "constant");
        CHECK_CLOSE7(o.value("embeddings").toDouble(), want.embeddings, "embeddings");
        CHECK_CLOSE7(o.value("norm_scale").toDouble(), want.norm_scale, "norm_scale");
        double sum = o.value("constant").toDouble() + o.value("embeddings").toDouble();
        const QJsonArray heads = o.value("heads").toArray();
        QCOMPARE(heads.size(), N);
        for (Index l = 0; l < N; ++l) {
            const QJsonArray row = heads[l].toArray();
            QCOMPARE(row.size(), H);
            for (Index h = 0; h < H; ++h) {
                CHECK_CLOSE7(row[h].toDouble(), want.heads.ptr()[l * H + h],
                             QStringLiteral("L%1H%2").arg(l + 1).arg(h + 1));
                sum += row[h].toDouble();
            }
            const QJsonValue bias = o.value("attention_bias").toArray()[l];
            QCOMPARE(bias.isNull(), !attention_bias);
            if (attention_bias) {
                CHECK_CLOSE7(bias.toDouble(), want.attention_bias[std::size_t(l)], "bias");
                sum += bias.toDouble();
            }
            const QJsonValue mlp = o.value("mlps").toArray()[l];
            QVERIFY(mlp.isDouble());  // every golden here has MLPs
            CHECK_CLOSE7(mlp.toDouble(), want.mlps[std::size_t(l)], "mlp");
            sum += mlp.toDouble();
        }
        QCOMPARE(o.value("attention_bias").toArray().size(), N);
        QCOMPARE(o.value("mlps").toArray().size(), N);
        // The parts as written add up to the total (7 digits each).
        QVERIFY2(std::abs(sum - total) <= 1e-4 * std::max(1.0, std::abs(total)),
                 qPrintable(QStringLiteral("Σ parts %1, total %2").arg(sum).arg(total)));

        // S.npy: [layers, heads, tokens], the engine's, each row adding up to its head.
        const Tensor s = io::read_npy(npy.toStdString());
        QCOMPARE(s.shape, (Shape{N, H, L}));
        ATTNVIZ_COMPARE_TENSORS(s, want.by_source, 1e-6);
        for (Index lh = 0; lh < N * H; ++lh) {
            double row = 0.0;
            for (Index j = 0; j < L; ++j)
                row += s.ptr()[lh * L + j];
            const double head = heads[lh / H].toArray()[lh % H].toDouble();
            QVERIFY2(std::abs(row - head) <= 1e-5 * std::max(1.0, std::abs(head)),
                     qPrintable(QStringLiteral("head %1: Σ %2 vs %3").arg(lh).arg(row).arg(head)));
        }
    }

    // --ablate: the parts of the knocked-out model, as the engine gives them with the same
    // interventions, on the shipped model's induction string: the zero-knocked L2H8 writes an
    // exact 0 and the logit of "8" falls; the mean-knocked heads write their means' shares.
    void attributeKnocksHeadsOut_data() {
        QTest::addColumn<QString>("heads");
        QTest::addColumn<QString>("mode");
        QTest::newRow("L2H8 by zeros") << "2.8"
                                       << "zero";
        QTest::newRow("L1H4 and L2H8 by their means") << "1.4,2.8"
                                                      << "mean";
    }
    void attributeKnocksHeadsOut() {
        QFETCH(QString, heads);
        QFETCH(QString, mode);
        const QString model =
            QString::fromStdString(test::golden_dir() + "/../../resources/models/attn-only-2l");
        const QString text = "q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP";
        const QString js = test::temp_path("k.json"), npy = test::temp_path("k.npy");
        QFile::remove(js);
        QFile::remove(npy);
        const auto r = test::run_cli({"attribute", "--model", model, "--text", text, "--target",
                                      "8", "--ablate", heads, "--ablate-mode", mode, "--out-json",
                                      js, "--out-npy", npy});
        QVERIFY2(r.status == 0, qPrintable(r.err));

        const auto m = models::open_model_folder(model.toStdString());
        const models::EncodedText e = models::encode_text(m, text.toStdString());
        const auto L = static_cast<Index>(e.input.ids.size());
        const Index N = m.model->info().num_layers, H = m.model->info().num_heads;
        models::LogitTarget what{L - 1, models::single_token_id(m.tokenizer, "8", "--target"), {}};
        const models::LogitAttribution intact = models::attribute_logit(*m.model, e.input, what);
        models::AttributionOptions o;
        const auto kind = mode == "mean" ? models::HeadIntervention::Kind::Mean
                                         : models::HeadIntervention::Kind::Zero;
        for (const QString& lh : heads.split(','))
            o.interventions.push_back(
                {{lh.section('.', 0, 0).toLongLong() - 1, lh.section('.', 1).toLongLong() - 1},
                 kind,
                 nullptr});
        const models::LogitAttribution want = models::attribute_logit(*m.model, e.input, what, o);

        const QJsonObject j = test::read_json(js);
        CHECK_CLOSE7(j.value("total").toDouble(), want.total, "total");
        CHECK_CLOSE7(j.value("embeddings").toDouble(), want.embeddings, "embeddings");
        const QJsonArray rows = j.value("heads").toArray();
        for (Index l = 0; l < N; ++l)
            for (Index h = 0; h < H; ++h)
                CHECK_CLOSE7(rows[l].toArray()[h].toDouble(), want.heads.ptr()[l * H + h],
                             QStringLiteral("L%1H%2").arg(l + 1).arg(h + 1));
        for (Index l = 0; l < N; ++l)
            CHECK_CLOSE7(j.value("attention_bias").toArray()[l].toDouble(),
                         want.attention_bias[std::size_t(l)], "bias");
        ATTNVIZ_COMPARE_TENSORS(io::read_npy(npy.toStdString()), want.by_source, 1e-6);
        // Which heads, as `attnviz predict --ablate` lists them (from 1).
        const QJsonArray ablated = j.value("ablated").toArray();
        QCOMPARE(ablated.size(), heads.count(',') + 1);
        for (int k = 0; k < ablated.size(); ++k) {
            const QJsonObject a = ablated[k].toObject();
            QCOMPARE(QStringLiteral("%1.%2")
                         .arg(a.value("layer").toInteger())
                         .arg(a.value("head").toInteger()),
                     heads.split(',')[k]);
            QCOMPARE(a.value("mode").toString(), mode);
        }
        // The induction head's share: an exact 0 knocked out by zeros, and the logit of "8"
        // loses more than that head wrote intact (L1H4 feeds it too).
        if (mode == "zero") QCOMPARE(rows[1].toArray()[7].toDouble(), 0.0);
        QVERIFY2(want.total < intact.total - 5.0,
                 qPrintable(QStringLiteral("%1 -> %2").arg(intact.total).arg(want.total)));
    }

    void badInputIsOneLineAndNoFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("phrase");
        const QString gpt2 = test::golden_model("gpt2_lmhead");
        // A folder of their own, which must stay empty.
        const QString bad = QString::fromStdString(test::fresh_dir("bad"));
        const QString js = bad + "/never.json", npy = bad + "/never.npy";
        // "the cat sat" is 5 tokens in gpt2_lmhead.
        const auto attribute = [&](const QString& model, const QStringList& extra) {
            return QStringList{"attribute", "--model", model, "--text", "the cat sat"} + extra;
        };
        const QStringList outs = {"--out-json", js, "--out-npy", npy};
        QTest::newRow("a target of several tokens")
            << attribute(gpt2, QStringList{"--target", "the cat"} + outs) << 2
            << "--target \"the cat\" is 3 tokens (\"t\" \"he\" \"Ġcat\"), not one";
        QTest::newRow("a distractor of several tokens")
            << attribute(gpt2, QStringList{"--target", "t", "--distractor", "cat"} + outs) << 2
            << "--distractor \"cat\" is";
        QTest::newRow("position 0")
            << attribute(gpt2, QStringList{"--target", "t", "--position", "0"} + outs) << 2
            << "--position 0 is not in the 5 tokens";
        QTest::newRow("position past the text")
            << attribute(gpt2, QStringList{"--target", "t", "--position", "6"} + outs) << 2
            << "--position 6 is not in the 5 tokens";
        QTest::newRow("position before the text")
            << attribute(gpt2, QStringList{"--target", "t", "--position", "-6"} + outs) << 2
            << "--position -6 is not in the 5 tokens";
        QTest::newRow("a post-norm BERT") << attribute(test::golden_model("bert_mlm_prefix"),
                                                       QStringList{"--target", "the"} + outs)
                                          << 1 << "post-norm";
        QTest::newRow("a model without a head") << attribute(test::golden_model("bert_gamma_beta"),
                                                             QStringList{"--target", "the"} + outs)
                                                << 1 << "no masked-LM head";
        QTest::newRow("--out-json in a missing folder")
            << attribute(gpt2,
                         {"--target", "t", "--out-json", bad + "/nowhere/a.json", "--out-npy", npy})
            << 1 << "does not exist";
        QTest::newRow("--out-json a folder")
            << attribute(gpt2, {"--target", "t", "--out-json", bad, "--out-npy", npy}) << 1
            << "is a folder";
        QTest::newRow("--out-npy in a missing folder")
            << attribute(gpt2,
                         {"--target", "t", "--out-json", js, "--out-npy", bad + "/nowhere/s.npy"})
            << 1 << "does not exist";
        QTest::newRow("no --target") << attribute(gpt2, outs) << 2 << "--target is required";
        QTest::newRow("no --out-json") << attribute(gpt2, {"--target", "t", "--out-npy", npy}) << 2
                                       << "--out-json is required";

        // The backward pass's options (test_cli_gradients checks what they write).
        for (const char* spec : {"ig:0", "ig:4097", "ig:", "ig:-3", "ig:8x", "foo", "ig"})
            QTest::newRow(qPrintable(QStringLiteral("--saliency %1").arg(spec)))
                << attribute(gpt2, QStringList{"--target", "t", "--saliency", spec} + outs) << 2
                << QStringLiteral("--saliency %1: expected grad-input, or ig:N").arg(spec);
        QTest::newRow("--out-grads in a missing folder")
            << attribute(gpt2,
                         QStringList{"--target", "t", "--out-grads", bad + "/nowhere/g.npy"} + outs)
            << 1 << "does not exist";
        QTest::newRow("saliency of a post-norm BERT")
            << attribute(test::golden_model("bert_mlm_prefix"),
                         QStringList{"--target", "the", "--saliency", "grad-input", "--out-grads",
                                     bad + "/g.npy"} +
                             outs)
            << 1 << "post-norm";
        // Knocked-out heads: one the model lacks, a mode alone.
        QTest::newRow("--ablate a head the model lacks")
            << attribute(gpt2, QStringList{"--target", "t", "--ablate", "3.1"} + outs) << 2
            << "--ablate";
        QTest::newRow("--ablate-mode without --ablate")
            << attribute(gpt2, QStringList{"--target", "t", "--ablate-mode", "mean"} + outs) << 2
            << "--ablate-mode needs --ablate";
        const auto patch = [&](const QString& model, const QStringList& extra) {
            return QStringList{"patch",     "--model", model,      "--clean", "the cat",
                               "--corrupt", "the dog", "--target", "t",       "--distractor",
                               "c",         "--out",   npy} +
                   extra;
        };
        QTest::newRow("--out-positions with the exact sweep")
            << patch(gpt2, {"--out-positions", bad + "/p.npy"}) << 2
            << "--out-positions needs --method attribution";
        QTest::newRow("--out-positions with --method exact")
            << patch(gpt2, {"--method", "exact", "--out-positions", bad + "/p.npy"}) << 2
            << "--out-positions needs --method attribution";
        QTest::newRow("--method foo") << patch(gpt2, {"--method", "foo"}) << 2 << "--method";
        // What the gradients hold does not fit: refused before any pass, naming the need.
        const QString shipped =
            QString::fromStdString(test::golden_dir() + "/../../resources/models/attn-only-2l");
        QTest::newRow("saliency over the memory budget")
            << attribute(shipped, QStringList{"--target", "8", "--saliency", "ig:8",
                                              "--memory-budget", "1M"} +
                                      outs)
            << 1 << "more than the memory budget of 1 MiB";
        QTest::newRow("attribution patching over the memory budget")
            << QStringList{"patch",
                           "--model",
                           shipped,
                           "--clean",
                           "abcdefghabcdefgh",
                           "--corrupt",
                           "abcdefghabcdefgx",
                           "--target",
                           "h",
                           "--distractor",
                           "x",
                           "--method",
                           "attribution",
                           "--memory-budget",
                           "1M",
                           "--out",
                           npy}
            << 1 << "more than the memory budget of 1 MiB";
        QTest::newRow("attribution patching without a head")
            << patch(test::golden_model("bert_gamma_beta"), {"--method", "attribution"}) << 1
            << "no masked-LM head";
        const auto bench = [](const QString& model, const char* extra) {
            return QStringList{"bench", "--model", model, "--tokens", "4", "--repeats", "1", extra};
        };
        QTest::newRow("bench --dla of a post-norm BERT")
            << bench(test::golden_model("bert_mlm_prefix"), "--dla") << 1 << "post-norm";
        QTest::newRow("bench --eap without a head")
            << bench(test::golden_model("bert_gamma_beta"), "--eap") << 1 << "no masked-LM head";
        QTest::newRow("bench --backward without --model")
            << QStringList{"bench", "--tokens",    "4", "--embed-dim",
                           "8",     "--num-heads", "2", "--backward"}
            << 2 << "--backward needs --model";
    }
    void badInputIsOneLineAndNoFile() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, phrase);
        const auto r = test::run_cli(args);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ": " + r.err));
        QVERIFY2(r.err.contains(phrase), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QCOMPARE(test::entries(test::temp_dir() + "/bad"), QStringList{});
    }
};

QTEST_MAIN(TestCliAttribution)
#include "test_cli_attribution.moc"
