// Engine errors in the window's language (ui/compute/error_text.h): the engine throws a code
// with its arguments and an English what() for the CLI; the window says it in the installed
// language.
#include <QTest>

#include <stdexcept>

#include "engine/errors.h"
#include "engine/models/model_folder.h"
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
};

QTEST_MAIN(ErrorTextTest)
#include "ui_error_text_test.moc"
