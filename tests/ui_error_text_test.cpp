// Engine errors in the window's language (ui/compute/error_text.h): the engine throws a code
// with its arguments and an English what() for the CLI; the window says it in the installed
// language.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <memory>
#include <stdexcept>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/models/model_folder.h"
#include "test_support.h"
#include "ui/compute/error_text.h"
#include "ui/i18n/language.h"

using namespace attnviz;
using namespace attnviz::ui;

class ErrorTextTest : public QObject {
    Q_OBJECT
  private slots:
    void englishIsTheEnginesSentence() {
        QVERIFY(install_translations(QLatin1String(kEnglish)));
        const models::TextTooLong e(ErrorCode::TextTooLong, "BERT · bert-tiny", 600, 512, "");
        QCOMPARE(std::string(e.what()),
                 std::string("the text is 600 tokens, more than the 512 positions of BERT · "
                             "bert-tiny"));
        QCOMPARE(error_text(e),
                 QStringLiteral("The text is 600 tokens, more than the 512 positions of BERT · "
                                "bert-tiny."));
        const InvalidInput v(ErrorCode::TokenOutsideVocabulary, {"70000", "30522", "BERT"},
                             "token id 70000 is outside the 30522-token vocabulary of BERT");
        QCOMPARE(error_text(v),
                 QStringLiteral("Token id 70000 is outside the 30522-token vocabulary of BERT."));
        // An error without a code is its what().
        QCOMPARE(error_text(std::runtime_error("disk full")), QStringLiteral("disk full"));
    }

    void chineseIsTranslatedWithTheSameNumbers() {
        QVERIFY(install_translations(QLatin1String(kChinese)));
        const models::TextTooLong e(ErrorCode::ContinuationTooLong, "GPT-2", 1100, 1024, "");
        const QString zh = error_text(e);
        QVERIFY2(zh.contains(QStringLiteral("1100")) && zh.contains(QStringLiteral("1024")) &&
                     zh.contains(QStringLiteral("GPT-2")),
                 qPrintable(zh));
        QVERIFY2(zh.contains(QStringLiteral("续写")), qPrintable(zh));  // not the English
        QCOMPARE(error_text(InvalidInput(ErrorCode::EmptyText, {}, "the text is empty")),
                 QStringLiteral("文本为空。"));
        // The CLI's message is still English.
        QVERIFY(std::string(e.what()).rfind("the text and its continuation are 1100", 0) == 0);
        QVERIFY(install_translations(QLatin1String(kEnglish)));
    }

    // File errors: the CLI's English sentence, the window's in its language, with the path.
    void fileErrorsAreTranslated() {
        const QString dir = QString::fromStdString(test::temp_dir());
        const QString missing = QDir(dir).filePath(QStringLiteral("none/A.npy"));
        const std::string path = missing.toStdString();
        const auto thrown = [](auto&& f) -> std::unique_ptr<FileError> {
            try {
                f();
            } catch (const FileError& e) {
                return std::make_unique<FileError>(e);
            }
            return nullptr;
        };
        const auto open = thrown([&] { io::read_file(path); });
        QVERIFY(open);
        QCOMPARE(std::string(open->what()),
                 "cannot open '" + path + "': No such file or directory");
        const auto write = thrown([&] { io::write_file_atomically(path, "x"); });
        QVERIFY(write);
        QCOMPARE(write->code(), ErrorCode::FileCannotWrite);
        const auto folder = thrown([&] { io::read_file(dir.toStdString()); });
        QVERIFY(folder);
        QCOMPARE(folder->code(), ErrorCode::FileCannotRead);
        const QString empty_file = QDir(dir).filePath(QStringLiteral("empty.gguf"));
        QVERIFY(QFile(empty_file).open(QIODevice::WriteOnly));
        const auto empty = thrown([&] { io::MappedFile::open(empty_file.toStdString(), "GGUF"); });
        QVERIFY(empty);

        QVERIFY(install_translations(QLatin1String(kEnglish)));
        QCOMPARE(error_text(*open),
                 QStringLiteral("Cannot open “%1”: no such file or folder.").arg(missing));
        QCOMPARE(error_text(*folder), QStringLiteral("Cannot read “%1”: it is a folder.").arg(dir));
        QCOMPARE(error_text(*empty),
                 QStringLiteral("“%1” is empty (0 bytes), not a GGUF file.").arg(empty_file));

        QVERIFY(install_translations(QLatin1String(kChinese)));
        for (const FileError* e : {open.get(), write.get(), folder.get(), empty.get()}) {
            const QString zh = error_text(*e);
            QVERIFY2(zh.contains(QString::fromStdString(e->args()[0])), qPrintable(zh));
            // Chinese words around the path, none of the English sentence.
            QVERIFY2(zh.contains(QRegularExpression(QStringLiteral("[\\x{4e00}-\\x{9fff}]"))),
                     qPrintable(zh));
            QVERIFY2(
                !zh.contains(QStringLiteral("No such")) && !zh.contains(QStringLiteral("Cannot")),
                qPrintable(zh));
        }
        QVERIFY(install_translations(QLatin1String(kEnglish)));
    }
};

QTEST_MAIN(ErrorTextTest)
#include "ui_error_text_test.moc"
