// Small file helpers shared by every reader and writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace attnviz {
enum class ErrorCode;
}

namespace attnviz::io {

/// The system's sentence for an errno value ("No such file or directory").
std::string errno_text(int err);

/// Throws FileError(code, {path, errno_text(err), err}) saying "cannot <verb> '<path>': <reason>".
[[noreturn]] void throw_file_error(ErrorCode code, std::string_view verb, const std::string& path,
                                   int err);

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

/// A whole regular file mapped read-only (MAP_PRIVATE: nothing is ever written through it),
/// for readers of large binary files (safetensors shards, GGUF).  Another program truncating
/// the file while it is mapped makes a later read fault (SIGBUS), as with any mmap reader.
class MappedFile {
  public:
    /// Throws DataError naming the file: it cannot be opened or mapped, is a folder or not a
    /// regular file, or is empty ("x: the file is empty (0 bytes), not a <format> file").
    static std::unique_ptr<MappedFile> open(const std::string& path, std::string_view format);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    std::string_view bytes() const { return {static_cast<const char*>(addr_), size_}; }

  private:
    MappedFile(void* addr, std::size_t size) : addr_(addr), size_(size) {}
    void* addr_;
    std::size_t size_;
};

/// "400 GB", "1.5 MB", "20 bytes": a byte count for messages (decimal units).
std::string format_byte_size(std::uint64_t bytes);

}  // namespace attnviz::io
