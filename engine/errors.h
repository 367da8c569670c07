// Error types the engine throws.  Callers (the CLI, the GUI) map them to exit codes and
// dialogs: a UsageError is the caller's mistake (exit 2), a DataError is bad input data
// or a failed read/write (exit 1).  Shape and argument checks in ops throw
// std::invalid_argument, which the CLI also reports as a data error.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnviz {

/// A file or data problem: unreadable, truncated, malformed, lying header, wrong dtype,
/// unwritable output.  The message names the file and the problem.
class DataError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// A usage problem: unknown option, missing argument, value out of range.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// What an error is, with its numbers and names, for a front end in another language: the CLI
/// prints what() (English); the window translates the code with its arguments
/// (ui/compute/error_text.h).  Every code's arguments are listed with it.
enum class ErrorCode {
    TextTooLong,             ///< tokens, positions, model
    ContinuationTooLong,     ///< tokens, positions, model: the text and its continuation
    EmptyText,               ///< (none)
    NoTokens,                ///< (none): the text gives no tokens
    TokenOutsideVocabulary,  ///< id, vocabulary size, model
    // Files (FileError below).  A reason is the system's English sentence; its errno (a
    // number, "0" when the reason is no system error) lets a front end say it in its language.
    FileCannotOpen,    ///< path, reason, errno
    FileCannotRead,    ///< path, reason, errno
    FileCannotWrite,   ///< path, reason, errno
    FileNotRegular,    ///< path: a device or a pipe where a file was expected
    FileEmpty,         ///< path, format ("GGUF", ".npy")
    FileTooLarge,      ///< path, limit, size ("" when a stream has no size)
    FolderCannotRead,  ///< path, reason, errno
};

/// The code and arguments of an error, mixed into the exception thrown.
class CodedError {
  public:
    CodedError(ErrorCode code, std::vector<std::string> args)
        : code_(code), args_(std::move(args)) {}
    virtual ~CodedError() = default;
    ErrorCode code() const { return code_; }
    const std::vector<std::string>& args() const { return args_; }

  private:
    ErrorCode code_;
    std::vector<std::string> args_;
};

/// A bad argument with a code (an empty text, an id outside the vocabulary): still a
/// std::invalid_argument to every caller that catches one.
class InvalidInput : public std::invalid_argument, public CodedError {
  public:
    InvalidInput(ErrorCode code, std::vector<std::string> args, const std::string& what)
        : std::invalid_argument(what), CodedError(code, std::move(args)) {}
};

/// A file that cannot be read or written, with a code: still a DataError to every caller.
class FileError : public DataError, public CodedError {
  public:
    FileError(ErrorCode code, std::vector<std::string> args, const std::string& what)
        : DataError(what), CodedError(code, std::move(args)) {}
};

}  // namespace attnviz
