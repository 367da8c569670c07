// Knocking heads out of a model in the window: the document's list (sessions, another model
// clears it), and the compute path that every view draws from: later layers' maps change,
// earlier ones do not, the predictions and the loss follow, and the intact model's
// predictions come along for "before → after".  Values against the engine's own predict().
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <random>

#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "repeated_text.h"
#include "test_support.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::test::repeated_text;
using attnviz::test::second_copy_loss;

namespace {

ComputeConfig model_config(const QString& folder, const QString& text) {
    AttentionDocument doc;
    doc.setModelFolder(folder);
    doc.setTextA(text);
    return doc.computeConfig();
}

}  // namespace

class KnockOutTest : public QObject {
    Q_OBJECT
  private slots:
    void theDocumentKeepsTheList() {
        AttentionDocument doc;
        doc.setModelFolder(QStringLiteral("/some/model"));
        QSignalSpy changed(&doc, &AttentionDocument::knockedOutChanged);
        doc.knockOut(1, 7, KnockOut::Zero);
        doc.knockOut(0, 2, KnockOut::Mean);
        doc.knockOut(1, 7, KnockOut::Mean);  // another mode for the same head
        QCOMPARE(changed.count(), 3);
        QCOMPARE(doc.knockedOut().size(), std::size_t(2));
        QVERIFY(doc.knockedOut().at({1, 7}) == KnockOut::Mean);
        QVERIFY(doc.isKnockedOut(0, 2));
        QVERIFY(!doc.isKnockedOut(0, 7));
        doc.knockOut(-1, 0, KnockOut::Zero);  // not a head
        QCOMPARE(doc.knockedOut().size(), std::size_t(2));

        // Saved and read back.
        AttentionDocument copy;
        QString error;
        QVERIFY2(copy.fromJson(doc.toJson(), &error), qPrintable(error));
        QVERIFY(copy.knockedOut() == doc.knockedOut());
        QCOMPARE(copy.editsJson(), doc.editsJson());

        doc.restoreHead(0, 2);
        QCOMPARE(doc.knockedOut().size(), std::size_t(1));
        doc.restoreHead(0, 2);  // already back: no change
        QCOMPARE(changed.count(), 4);
        doc.restoreAllHeads();
        QVERIFY(doc.knockedOut().empty());

        // Another model's heads are other heads.
        doc.knockOut(1, 1, KnockOut::Zero);
        doc.setModelFolder(QStringLiteral("/another/model"));
        QVERIFY(doc.knockedOut().empty());
    }

    void badSessionEntriesAreRefused_data() {
        QTest::addColumn<QJsonValue>("entry");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("phrase");
        // A list of one entry, built by append: clang reads QJsonArray{QJsonArray{...}} as a
        // copy of the inner list (CWG 1467), GCC as a list holding it.
        const auto one = [](const QJsonArray& entry) {
            QJsonArray list;
            list.append(entry);
            return QJsonValue(list);
        };
        const QString m = QStringLiteral("/some/model");
        QTest::newRow("not a list") << QJsonValue(3) << m << "is not a list";
        QTest::newRow("two items") << one(QJsonArray{1, 2}) << m << "[layer, head";
        QTest::newRow("negative") << one(QJsonArray{-1, 2, QStringLiteral("zero")}) << m
                                  << "[layer, head";
        QTest::newRow("unknown mode")
            << one(QJsonArray{1, 2, QStringLiteral("half")}) << m << "\"zero\" or \"mean\"";
        QTest::newRow("the demo layer")
            << one(QJsonArray{1, 2, QStringLiteral("zero")}) << QString() << "demo layer";
    }
    void badSessionEntriesAreRefused() {
        QFETCH(QJsonValue, entry);
        QFETCH(QString, folder);
        QFETCH(QString, phrase);
        AttentionDocument doc;
        doc.setModelFolder(QStringLiteral("/some/model"));
        doc.knockOut(0, 0, KnockOut::Zero);
        QJsonObject json = doc.toJson();
        QJsonObject source = json.value(QStringLiteral("source")).toObject();
        source[QStringLiteral("knocked_out")] = entry;
        source[QStringLiteral("model_folder")] = folder;
        json[QStringLiteral("source")] = source;
        QString error;
        const QJsonObject before = doc.toJson();
        QVERIFY(!doc.fromJson(json, &error));
        QVERIFY2(error.contains(phrase), qPrintable(error));
        QCOMPARE(doc.toJson(), before);  // untouched
    }

    void everyViewSeesTheKnockOut() {
        const QString folder = shipped_model(QStringLiteral("attn-only-2l"));
        if (folder.isEmpty()) QSKIP("the shipped models are not installed");
        const QString text = repeated_text();
        ComputeConfig c = model_config(folder, text);
        ComputeCache cache;
        const SnapshotPtr intact = compute_snapshot(c, 1, &cache, 2);
        QVERIFY(intact && intact->model);
        const ModelMaps& a = *intact->model;
        QVERIFY2(a.predictions, qPrintable(a.no_predictions));
        QVERIFY(!a.intact_predictions);  // nothing knocked out
        QVERIFY(a.predictions->causal);
        QCOMPARE(int(a.predictions->positions.size()), a.pieces);
        QCOMPARE(a.pieces, 101);

        // The engine's own predict() on the same ids gives the same numbers.
        const models::OpenedModel m = models::open_model_folder(folder.toStdString());
        models::ModelInput in;
        in.ids = a.encoding.ids;
        const models::Prediction ref = models::predict(*m.model, in, {});
        QCOMPARE(a.predictions->next_logprob.size(), ref.next_logprob.size());
        for (std::size_t t = 0; t < ref.next_logprob.size(); ++t)
            QVERIFY(std::abs(a.predictions->next_logprob[t] - ref.next_logprob[t]) < 1e-5);
        const std::int64_t V = m.model->info().vocab_size;
        for (int t : {0, 50, 75, 100}) {
            const auto top = models::top_k(ref.logits.ptr() + t * V, V, 10);
            QCOMPARE(a.predictions->top[std::size_t(t)].front().id, top.front().id);
            QCOMPARE(a.predictions->top_text[std::size_t(t)].front(),
                     QString::fromStdString(m.tokenizer.id_to_token(top.front().id)));
            QCOMPARE(a.predictions->top[std::size_t(t)].size(), std::size_t(10));
        }
        const double base = second_copy_loss(*a.predictions);
        QVERIFY2(base < 1.0, qPrintable(QString::number(base)));  // the induction head copies

        // The best induction head (layer 2, head 8) out.
        c.knocked_out[{1, 7}] = KnockOut::Zero;
        const SnapshotPtr out = compute_snapshot(c, 2, &cache, 2);
        const ModelMaps& b = *out->model;
        QVERIFY(b.knocked_out == c.knocked_out);
        QVERIFY(b.predictions && b.intact_predictions);
        const double knocked = second_copy_loss(*b.predictions);
        QVERIFY2(knocked - base >= 1.0,
                 qPrintable(QStringLiteral("%1 -> %2").arg(base).arg(knocked)));
        QCOMPARE(second_copy_loss(*b.intact_predictions), base);
        models::PredictOptions po;
        po.interventions = models::ablations({{1, 7}}, models::HeadIntervention::Kind::Zero);
        const models::Prediction ablated = models::predict(*m.model, in, po);
        QVERIFY(std::abs(b.predictions->loss - ablated.loss) < 1e-5);
        // Layer 1 runs before the knocked-out head: the same maps.  Layer 2's own map of the
        // head is computed before its output is removed, so the maps stay; what changes is
        // what the layer writes.
        QCOMPARE(b.weights[0].data, a.weights[0].data);

        // A layer-1 head out changes what layer 2 reads: its maps change.
        c.knocked_out = {{{0, 3}, KnockOut::Mean}};
        const SnapshotPtr early = compute_snapshot(c, 3, &cache, 2);
        QCOMPARE(early->model->weights[0].data, a.weights[0].data);
        QVERIFY(early->model->weights[1].data != a.weights[1].data);

        // A head the model lacks (a session of another model) is named.
        c.knocked_out = {{{5, 0}, KnockOut::Zero}};
        try {
            compute_snapshot(c, 4, &cache, 2);
            QFAIL("a head outside the model was accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("Layer 6, head 1")),
                     e.what());
        }
    }

    void aModelWithoutAHeadSaysWhy() {
        const QString folder =
            QString::fromStdString(test::golden_dir() + "/models/bert_gamma_beta");
        const SnapshotPtr s =
            compute_snapshot(model_config(folder, QStringLiteral("the cat sat")), 1, nullptr, 1);
        QVERIFY(!s->model->predictions);
        QVERIFY2(s->model->no_predictions.contains(QStringLiteral("masked-LM head")),
                 qPrintable(s->model->no_predictions));
    }
};

QTEST_MAIN(KnockOutTest)
#include "ui_knockout_test.moc"
