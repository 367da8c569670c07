// The AttentionDocument and .attnviz sessions: every setting survives a save and a reopen,
// the file is versioned, and bad files are refused without touching the document.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include "test_support.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"

using namespace attnviz;
using namespace attnviz::ui;

class SessionTest : public QObject {
    Q_OBJECT

  private:
    static QString path(const char* name) { return test::temp_path(QLatin1String(name)); }
    static void write(const QString& file, const QByteArray& bytes) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    // Every setting away from its default.
    static void changeEverything(AttentionDocument& d) {
        d.setPairMode(PairMode::PaddedBatch);
        d.setTextA(QStringLiteral("Attention is all you need"));
        d.setTextB(QStringLiteral("注意力就是一切"));
        d.setLowercase(true);
        d.setSpecialTokens(true);
        d.setEmbedDim(96);
        QVERIFY(d.setNumHeads(6));
        d.setBias(false);
        d.setScoring(Scoring::Additive);
        d.setDropout(0.25);
        d.setTraining(true);
        d.setDropoutSeed(17);
        d.setWeightSeed(4242);
        d.setPositionalEncoding(false);
        d.setCausal(true);
        d.setMaskedKeys({{0, 1}, {1, 3}});
        d.setMaskedRowPolicy(MaskedRowPolicy::Uniform);
        d.setView(FigureView::Head, 4);
        d.setBatchItem(1);
        d.setColormap(Colormap::Magma);
        d.setScaleMode(ScaleMode::PerHead);
        d.setShowValues(false);
        d.setWholeModel(true);  // the whole model's state
        d.setOpenLayers(0b1010);
        d.setSampling(0.7, 40, 0.9);
    }

  private slots:
    void defaultsShowTheDemo() {
        AttentionDocument d;
        QCOMPARE(d.textA(), AttentionDocument::demoSentence());
        QVERIFY(!demo_tokens(d.computeConfig()).a.empty());
        QCOMPARE(d.embedDim() % d.numHeads(), 0);
    }

    void headsMustDivideEmbedDim() {
        AttentionDocument d;
        d.setEmbedDim(64);
        QVERIFY(!d.setNumHeads(6));
        QVERIFY(d.validationMessage().contains(QLatin1String("64")));
        QCOMPARE(d.numHeads(), 4);
        QVERIFY(d.setNumHeads(8));
        QVERIFY(d.validationMessage().isEmpty());
        // A new embed_dim that 8 does not divide picks the largest divisor below and says so.
        QVERIFY(d.setEmbedDim(60));
        QCOMPARE(d.numHeads(), 6);
        QVERIFY(!d.validationMessage().isEmpty());
        QCOMPARE(AttentionDocument::validHeadCounts(12), (QList<int>{1, 2, 3, 4, 6, 12}));
    }

    void changesAreCoalesced() {
        AttentionDocument d;
        QSignalSpy compute(&d, &AttentionDocument::computeConfigChanged);
        QSignalSpy figure(&d, &AttentionDocument::figureOptionsChanged);
        QSignalSpy heads(&d, &AttentionDocument::numHeadsChanged);
        d.setCausal(true);
        d.setDropout(0.1);
        QVERIFY(d.setNumHeads(8));
        d.setColormap(Colormap::Grey);
        QCOMPARE(heads.count(), 1);
        QCOMPARE(compute.count(), 0);  // delivered on the next event-loop turn, once
        QTRY_COMPARE(compute.count(), 1);
        QCOMPARE(figure.count(), 1);
    }

    void tokenChangesDropClickedMasks() {
        AttentionDocument d;
        d.toggleMaskedKey(0, 2);
        QVERIFY(d.isKeyMasked(0, 2));
        d.setTextA(d.textA() + QStringLiteral(" "));  // same tokens: the mask stays
        QVERIFY(d.isKeyMasked(0, 2));
        d.setTextA(QStringLiteral("another sentence entirely"));
        QVERIFY(!d.isKeyMasked(0, 2));
    }

    void roundTripKeepsEverySetting() {
        AttentionDocument a;
        changeEverything(a);
        const QString file = path("everything.attnviz");
        QString error;
        QVERIFY2(save_session(file, a, {}, &error), qPrintable(error));

        AttentionDocument b;
        QVERIFY2(load_session(file, &b, nullptr, &error), qPrintable(error));
        QVERIFY(b.computeConfig() == a.computeConfig());
        QVERIFY(b.figureOptions() == a.figureOptions());
        QCOMPARE(b.textB(), QStringLiteral("注意力就是一切"));
        QCOMPARE(b.maskedKeys(), (std::set<MaskedKey>{{0, 1}, {1, 3}}));

        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("version")).toInt(), kSessionVersion);
        QCOMPARE(root.value(QStringLiteral("format")).toString(),
                 QStringLiteral("attnviz-session"));
    }

    /// The monkey's seed 7: a token list (and a text) that starts with U+FEFF.  A BOM inside
    /// a string is a character like any other, so it survives a save and a reopen.
    void aLeadingBomInTheTokensSurvivesTheSession() {
        const QString bom(QChar(0xFEFF));
        AttentionDocument a;
        a.setTokenListA(bom + QStringLiteral(" don't tired don't . ##i"));
        a.setTokenListB(bom + QStringLiteral("[CLS] | 猫 | [SEP]"));
        a.setTextA(bom + QStringLiteral("the cat"));
        const QString file = path("bom.attnviz");
        QString error;
        QVERIFY2(save_session(file, a, {}, &error), qPrintable(error));
        AttentionDocument b;
        QVERIFY2(load_session(file, &b, nullptr, &error), qPrintable(error));
        QCOMPARE(b.computeConfig().token_list_a, a.computeConfig().token_list_a);
        QCOMPARE(b.computeConfig().token_list_b, a.computeConfig().token_list_b);
        QCOMPARE(b.textA(), a.textA());
        QVERIFY(b.computeConfig() == a.computeConfig());
        // A file written before (the mark raw, not escaped), itself starting with a byte order
        // mark as some editors save it: the file's mark is the encoding's, the string's kept.
        const QString old = path("bom-raw.attnviz");
        write(old,
              QByteArray("\xEF\xBB\xBF{\"format\": \"attnviz-session\", \"version\": 3, "
                         "\"document\": {\"input\": {\"token_list_a\": \"\xEF\xBB\xBF a b\"}}}"));
        AttentionDocument c;
        QVERIFY2(load_session(old, &c, nullptr, &error), qPrintable(error));
        QCOMPARE(c.computeConfig().token_list_a, bom + QStringLiteral(" a b"));
    }

    void weightsFileIsStoredRelativeToTheSession() {
        AttentionDocument a;
        const QString weights = path("w.safetensors");
        a.setWeightsFile(weights);
        const QString file = path("rel.attnviz");
        QString error;
        QVERIFY(save_session(file, a, {}, &error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject layer = QJsonDocument::fromJson(f.readAll())
                                      .object()[QStringLiteral("document")]
                                      .toObject()[QStringLiteral("layer")]
                                      .toObject();
        QCOMPARE(layer[QStringLiteral("weights_file")].toString(), QStringLiteral("w.safetensors"));
        AttentionDocument b;
        QVERIFY(load_session(file, &b, nullptr, &error));
        QCOMPARE(b.weightsFile(), weights);
    }

    void badFilesAreRefusedAndChangeNothing_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{nope") << QStringLiteral("not a valid session");
        QTest::newRow("no format")
            << QByteArray(R"({"version": 1})") << QStringLiteral("not an AttnViz session");
        QTest::newRow("newer version")
            << QByteArray(R"({"format": "attnviz-session", "version": 99, "document": {}})")
            << QStringLiteral("newer");
        QTest::newRow("heads do not divide")
            << QByteArray(R"({"format": "attnviz-session", "version": 1, "document":
                 {"layer": {"embed_dim": 64, "num_heads": 6}}})")
            << QStringLiteral("does not divide");
        QTest::newRow("bad enum") << QByteArray(
                                         R"({"format": "attnviz-session", "version": 1, "document":
                 {"figure": {"colormap": "jet"}}})")
                                  << QStringLiteral("jet");
        QTest::newRow("open layers not a list")
            << QByteArray(R"({"format": "attnviz-session", "version": 3, "document":
                 {"figure": {"open_layers": 3}}})")
            << QStringLiteral("'open_layers' is not an array");
        QTest::newRow("open layer past 63")
            << QByteArray(R"({"format": "attnviz-session", "version": 3, "document":
                 {"figure": {"open_layers": [1, 64]}}})")
            << QStringLiteral("layer numbers from 0 to 63");
        QTest::newRow("line heads not a list")
            << QByteArray(R"({"format": "attnviz-session", "version": 3, "document":
                 {"figure": {"line_heads": {}}}})")
            << QStringLiteral("'line_heads' is not an array");
        QTest::newRow("temperature too hot")
            << QByteArray(R"({"format": "attnviz-session", "version": 3, "document":
                 {"figure": {"temperature": 9}}})")
            << QStringLiteral("temperature");
        QTest::newRow("bad type") << QByteArray(
                                         R"({"format": "attnviz-session", "version": 1, "document":
                 {"masks": {"causal": "yes"}}})")
                                  << QStringLiteral("causal");
    }

    void badFilesAreRefusedAndChangeNothing() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString file = path("bad.attnviz");
        write(file, bytes);
        AttentionDocument d;
        d.setCausal(true);
        const ComputeConfig before = d.computeConfig();
        QString error;
        QVERIFY(!load_session(file, &d, nullptr, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(d.computeConfig() == before);
    }

    void missingFileIsAnError() {
        AttentionDocument d;
        QString error;
        QVERIFY(!load_session(path("does-not-exist.attnviz"), &d, nullptr, &error));
        QVERIFY(error.contains(QLatin1String("does-not-exist")));
    }

    void unwritablePathLeavesNothing() {
        AttentionDocument d;
        QString error;
        const QString file = path("no-such-dir/s.attnviz");
        QVERIFY(!save_session(file, d, {}, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(file));
    }
};

QTEST_MAIN(SessionTest)
#include "ui_session_test.moc"
