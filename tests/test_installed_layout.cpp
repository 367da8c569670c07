// Where the app finds its files, installed (<prefix>/bin/attnviz beside
// <prefix>/share/attnviz/{models,examples}) and in the build tree (<build>/tests and
// <build>/app beside <build>/share/attnviz/models): the shipped models from the program's own
// folder, the example sessions installed as files opening the same models as the built-in
// ones, and the catalogs compiled in.  tools/test_package.sh checks the same on a real install.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "test_support.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/document/shipped_models.h"

using namespace attnviz::ui;

class InstalledLayoutTest : public QObject {
    Q_OBJECT

  private:
    static QString model_of(const QString& session) {
        AttentionDocument document;
        QString error;
        if (!load_session(session, &document, nullptr, &error)) {
            qWarning("%s", qPrintable(error));
            return QStringLiteral("<failed>");
        }
        return document.computeConfig().model_folder;
    }

  private slots:
    void initTestCase() {
        // The lookup under test is the one without the override.
        QVERIFY(qEnvironmentVariableIsEmpty("ATTNVIZ_MODELS_DIR"));
    }

    void shippedModelsBesideTheProgram() {
        const QString expected = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                                 QStringLiteral("/../share/attnviz/models"));
        QCOMPARE(shipped_models_dir(), expected);
        QCOMPARE(shipped_model(QStringLiteral("attn-only-2l")),
                 expected + QStringLiteral("/attn-only-2l"));
        QCOMPARE(shipped_model(QStringLiteral("char-zh-en-4l")),
                 expected + QStringLiteral("/char-zh-en-4l"));
        QVERIFY(shipped_model(QStringLiteral("no-such-model")).isEmpty());
    }

    // The bundled corpora (tools/make_corpora.py) where `attnviz corpus` and the window look
    // for them: beside the models.
    void shippedCorporaBesideTheProgram() {
        const QString corpora = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                                QStringLiteral("/../share/attnviz/corpora"));
        for (const char* name : {"fortunes_en.txt", "fortunes_zh.txt"}) {
            QFile file(corpora + QLatin1Char('/') + QLatin1String(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            // A few hundred held-out texts, one per paragraph.
            const int texts = int(file.readAll().count("\n\n")) + 1;
            QVERIFY2(texts >= 200 && texts <= 500, qPrintable(QString::number(texts)));
        }
    }

    // share/attnviz/examples/*.attnviz name their model as the built-in examples do
    // ("attn-only-2l"), with no such folder beside them: opened from a file manager, each
    // opens the model its built-in twin opens.
    void installedExamplesOpenTheShippedModels() {
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        const QString examples = prefix.path() + QStringLiteral("/share/attnviz/examples");
        QVERIFY(QDir().mkpath(examples));
        const QStringList names =
            QDir(QStringLiteral(ATTNVIZ_EXAMPLES_DIR))
                .entryList({QStringLiteral("*.attnviz")}, QDir::Files, QDir::Name);
        QVERIFY2(names.size() >= 15, qPrintable(names.join(u' ')));
        int with_model = 0;
        for (const QString& name : names) {
            const QString installed = examples + QLatin1Char('/') + name;
            QVERIFY(QFile::copy(QStringLiteral(ATTNVIZ_EXAMPLES_DIR "/") + name, installed));
            const QString built_in = model_of(QStringLiteral(":/examples/") + name);
            QVERIFY2(built_in != QLatin1String("<failed>"), qPrintable(name));
            QCOMPARE(model_of(installed), built_in);
            if (!built_in.isEmpty()) {
                QVERIFY2(QFileInfo::exists(built_in + QStringLiteral("/config.json")),
                         qPrintable(built_in));
                ++with_model;
            }
        }
        QVERIFY(with_model >= 4);  // induction, previous token, sink, poetry, learned heads
    }

    // A folder of that name beside the session still wins: a session saved next to its own
    // copy of a model keeps it.
    void aModelBesideTheSessionWins() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("attn-only-2l")));
        const QString session = dir.path() + QStringLiteral("/induction_head.attnviz");
        QVERIFY(
            QFile::copy(QStringLiteral(ATTNVIZ_EXAMPLES_DIR "/induction_head.attnviz"), session));
        QCOMPARE(model_of(session), dir.path() + QStringLiteral("/attn-only-2l"));
    }

    // The catalogs are compiled in: nothing on disk to find, installed or not.
    void catalogsAreCompiledIn() {
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/attnviz_zh_CN.qm")));
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/attnviz_en.qm")));
    }
};

QTEST_MAIN(InstalledLayoutTest)
#include "test_installed_layout.moc"
