#include "ui/compute/error_text.h"

#include <QCoreApplication>

#include <cerrno>

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

/// The reason at args[1] in the installed language: the system errors a user meets when
/// choosing or saving a file are translated, any other stays the system's English.
QString reason(const std::vector<std::string>& args) {
    const int err = arg(args, 2).toInt();
    switch (err) {
        case ENOENT:
            return ErrorText::tr("no such file or folder");
        case EACCES:
        case EPERM:
            return ErrorText::tr("permission denied");
        case EISDIR:
            return ErrorText::tr("it is a folder");
        case ENOTDIR:
            return ErrorText::tr("a part of the path is not a folder");
        case ENOSPC:
            return ErrorText::tr("the disk is full");
        case EROFS:
            return ErrorText::tr("the disk is read-only");
        case ENAMETOOLONG:
            return ErrorText::tr("the name is too long");
        default:
            return arg(args, 1);
    }
}

QString file_text(ErrorCode code, const std::vector<std::string>& a) {
    const QString path = arg(a, 0);
    switch (code) {
        case ErrorCode::FileCannotOpen:
            return ErrorText::tr("Cannot open “%1”: %2.").arg(path, reason(a));
        case ErrorCode::FileCannotRead:
            return ErrorText::tr("Cannot read “%1”: %2.").arg(path, reason(a));
        case ErrorCode::FileCannotWrite:
            return ErrorText::tr("Cannot write “%1”: %2.").arg(path, reason(a));
        case ErrorCode::FolderCannotRead:
            return ErrorText::tr("Cannot read the folder “%1”: %2.").arg(path, reason(a));
        case ErrorCode::FileNotRegular:
            return ErrorText::tr("Cannot read “%1”: it is not a regular file.").arg(path);
        case ErrorCode::FileEmpty:
            return ErrorText::tr("“%1” is empty (0 bytes), not a %2 file.").arg(path, arg(a, 1));
        case ErrorCode::FileTooLarge:
            return arg(a, 2).isEmpty()
                       ? ErrorText::tr("Cannot read “%1”: it is larger than the %2 limit.")
                             .arg(path, arg(a, 1))
                       : ErrorText::tr("Cannot read “%1”: it is %2, more than the %3 limit.")
                             .arg(path, arg(a, 2), arg(a, 1));
        default:
            return {};
    }
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
        case ErrorCode::FileCannotOpen:
        case ErrorCode::FileCannotRead:
        case ErrorCode::FileCannotWrite:
        case ErrorCode::FolderCannotRead:
        case ErrorCode::FileNotRegular:
        case ErrorCode::FileEmpty:
        case ErrorCode::FileTooLarge:
            return file_text(coded->code(), a);
    }
    return QString::fromStdString(e.what());
}

}  // namespace attnviz::ui
