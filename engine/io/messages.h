// How the file readers word what is wrong with a file, shared by the readers of io/ and the
// GGUF model readers (models/): one definition each, so every message reads alike.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

#include "engine/errors.h"

namespace attnviz::io {

/// Throws DataError("<name>: <what>"), `name` the file or the data the problem is in.
[[noreturn]] inline void fail(const std::string& name, const std::string& what) {
    throw DataError(name + ": " + what);
}

/// A name as the messages quote it: 'model.embed_tokens.weight'.
inline std::string in_quotes(std::string_view s) {
    return "'" + std::string(s) + "'";
}

/// A number as it reads in a message ("1.5", "1e+300"): the shortest text that reads back as
/// the same double.
inline std::string number_text(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace attnviz::io
