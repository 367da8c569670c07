#include "ui/compute/error_text.h"

#include <QCoreApplication>

#include <string>
#include <vector>

#include "engine/errors.h"

namespace attnviz::ui {

namespace {
struct ErrorText {
    Q_DECLARE_TR_FUNCTIONS(EngineError)
};

QString arg(const std::vector<std::string>& args, std::size_t i) {
    return i < args.size() ? QString::fromStdString(args[i]) : QString();
}
}  // namespace

QString error_text(const std::exception& e) {
    const auto* coded = dynamic_cast<const CodedError*>(&e);
    if (!coded) return QString::fromStdString(e.what());
    const std::vector<std::string>& a = coded->args();
    switch (coded->code()) {
        case ErrorCode::TextTooLong:
            return ErrorText::tr("The text is %1 tokens, more than the %2 positions of %3.")
                .arg(arg(a, 0), arg(a, 1), arg(a, 2));
        case ErrorCode::ContinuationTooLong:
            return ErrorText::tr(
                       "The text and its continuation are %1 tokens, more than the %2 positions "
                       "of %3.")
                .arg(arg(a, 0), arg(a, 1), arg(a, 2));
        case ErrorCode::EmptyText:
            return ErrorText::tr("The text is empty.");
        case ErrorCode::NoTokens:
            return ErrorText::tr("The text gives no tokens.");
        case ErrorCode::TokenOutsideVocabulary:
            return ErrorText::tr("Token id %1 is outside the %2-token vocabulary of %3.")
                .arg(arg(a, 0), arg(a, 1), arg(a, 2));
    }
    return QString::fromStdString(e.what());
}

}  // namespace attnviz::ui
