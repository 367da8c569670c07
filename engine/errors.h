// Error types the engine throws.  Callers (the CLI, the GUI) map them to exit codes and
// dialogs: a UsageError is the caller's mistake (exit 2), a DataError is bad input data
// or a failed read/write (exit 1).  Shape and argument checks in ops throw
// std::invalid_argument, which the CLI also reports as a data error.
#pragma once

#include <stdexcept>
#include <string>

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

}  // namespace attnviz
