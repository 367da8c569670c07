// Small file helpers shared by every reader and writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace attnviz::io {

/// Reads a whole file; throws DataError ("cannot open 'x': No such file or directory").
/// Refuses files larger than max_bytes, and folders.
std::string read_file(const std::string& path, std::size_t max_bytes = std::size_t(1) << 34);

/// The first bytes of a file and its total size, for readers that only need a header.
struct FileHead {
    std::string bytes;            ///< at most the requested number of bytes
    std::uint64_t file_size = 0;  ///< the whole file's size in bytes
};

/// Reads at most `max_bytes` from the start of `path`; same errors as read_file.
FileHead read_file_head(const std::string& path, std::size_t max_bytes);

/// Writes `bytes` to a temporary file beside `path`, flushes it and renames it over `path`.
/// On any failure the temporary is removed, `path` is untouched and DataError is thrown
/// ("cannot write 'out/A.npy': No such file or directory").  The temporary is named
/// ".<name>.XXXXXX" in the destination's folder, so the rename never crosses file systems.
/// A replaced file keeps its permission bits; a new one gets 0666 minus the umask, as with
/// any ordinary file creation.  A symbolic link at `path` is replaced by the file, not
/// followed.
void write_file_atomically(const std::string& path, const std::string& bytes);

/// "400 GB", "1.5 MB", "20 bytes": a byte count for messages (decimal units).
std::string format_byte_size(std::uint64_t bytes);

}  // namespace attnviz::io
