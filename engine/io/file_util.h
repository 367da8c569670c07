// Small file helpers shared by every reader and writer.
#pragma once

#include <cstddef>
#include <string>

namespace attnviz::io {

/// Reads a whole file; throws DataError ("cannot open 'x': No such file or directory").
/// Refuses files larger than max_bytes.
std::string read_file(const std::string& path, std::size_t max_bytes = std::size_t(1) << 34);

/// Writes `bytes` to a temporary file beside `path`, flushes it and renames it over `path`.
/// On any failure the temporary is removed, `path` is untouched and DataError is thrown.
void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace attnviz::io
