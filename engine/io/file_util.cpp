#include "engine/io/file_util.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>
#include <system_error>

#include "engine/errors.h"

namespace attnviz::io {

namespace {

[[noreturn]] void cannot_open(const std::string& path, int err) {
    throw_file_error(ErrorCode::FileCannotOpen, "open", path, err);
}
[[noreturn]] void cannot_read(const std::string& path, int err) {
    throw_file_error(ErrorCode::FileCannotRead, "read", path, err);
}
[[noreturn]] void not_regular(const std::string& path) {
    throw FileError(ErrorCode::FileNotRegular, {path},
                    "cannot read '" + path + "': not a regular file");
}
[[noreturn]] void too_large(const std::string& path, const std::string& what, std::uint64_t limit,
                            std::string size) {
    throw FileError(ErrorCode::FileTooLarge, {path, format_byte_size(limit), std::move(size)},
                    "cannot read '" + path + "': " + what);
}

class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    FileDescriptor& operator=(FileDescriptor&&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    /// Closes now and reports the error close() found (a late write error on some file
    /// systems), 0 on success.
    int close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0 ? 0 : errno;
    }

  private:
    int fd_;
};

struct OpenFile {
    FileDescriptor fd;
    bool regular;
    std::uint64_t size;  // st_size for regular files, 0 otherwise
};

OpenFile open_for_reading(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) cannot_open(path, errno);
    OpenFile f{FileDescriptor(fd), false, 0};
    struct stat st {};
    if (::fstat(fd, &st) != 0) cannot_read(path, errno);
    if (S_ISDIR(st.st_mode)) cannot_read(path, EISDIR);
    f.regular = S_ISREG(st.st_mode);
    if (f.regular) f.size = static_cast<std::uint64_t>(st.st_size);
    return f;
}

// Reads until EOF or until `limit` bytes; returns how many were read.  Sets *more to whether
// bytes remain beyond the limit (reads one extra byte to find out).
std::size_t read_up_to(int fd, const std::string& path, std::string& out, std::size_t limit,
                       std::size_t size_hint, bool* more) {
    const std::size_t cap_limit =
        limit == std::numeric_limits<std::size_t>::max() ? limit : limit + 1;
    out.resize(std::min(cap_limit, std::max<std::size_t>(size_hint + 1, 4096)));
    std::size_t got = 0;
    for (;;) {
        if (got == out.size()) {
            if (out.size() >= cap_limit) break;
            out.resize(std::min(cap_limit, out.size() * 2));
        }
        const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            cannot_read(path, errno);
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    *more = got > limit;
    got = std::min(got, limit);
    out.resize(got);
    return got;
}

std::string temp_suffix() {
    static constexpr char kChars[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    thread_local std::mt19937_64 rng([] {
        std::random_device rd;
        const auto now =
            static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        return (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ now ^
               (static_cast<std::uint64_t>(::getpid()) << 16);
    }());
    std::string s(6, 'X');
    for (char& c : s)
        c = kChars[rng() % (sizeof kChars - 1)];
    return s;
}

}  // namespace

std::string errno_text(int err) {
    return std::generic_category().message(err);
}

void throw_file_error(ErrorCode code, std::string_view verb, const std::string& path, int err) {
    const std::string reason = errno_text(err);
    throw FileError(code, {path, reason, std::to_string(err)},
                    "cannot " + std::string(verb) + " '" + path + "': " + reason);
}

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path, std::string_view format) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) cannot_open(path, errno);
    FileDescriptor file(fd);  // the mapping keeps the file open after this closes it
    struct stat st {};
    if (::fstat(fd, &st) != 0) cannot_read(path, errno);
    if (S_ISDIR(st.st_mode)) cannot_read(path, EISDIR);
    if (!S_ISREG(st.st_mode)) not_regular(path);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size == 0)
        throw FileError(
            ErrorCode::FileEmpty, {path, std::string(format)},
            path + ": the file is empty (0 bytes), not a " + std::string(format) + " file");
    void* addr = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) throw_file_error(ErrorCode::FileCannotRead, "map", path, errno);
    return std::unique_ptr<MappedFile>(new MappedFile(addr, static_cast<std::size_t>(size)));
}

MappedFile::~MappedFile() {
    ::munmap(addr_, size_);
}

std::string format_byte_size(std::uint64_t bytes) {
    if (bytes < 1000) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double v = static_cast<double>(bytes) / 1000.0;
    std::size_t unit = 0;
    while (v >= 1000.0 && unit + 1 < std::size(kUnits)) {
        v /= 1000.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g %s", v, kUnits[unit]);
    return buf;
}

std::string read_file(const std::string& path, std::size_t max_bytes) {
    OpenFile f = open_for_reading(path);
    if (f.regular && f.size > max_bytes)
        too_large(path,
                  "the file is " + format_byte_size(f.size) + ", more than the " +
                      format_byte_size(max_bytes) + " limit",
                  max_bytes, format_byte_size(f.size));
    std::string out;
    bool more = false;
    read_up_to(f.fd.get(), path, out, max_bytes, static_cast<std::size_t>(f.size), &more);
    if (more)
        too_large(path, "the file is larger than the " + format_byte_size(max_bytes) + " limit",
                  max_bytes, "");
    return out;
}

FileHead read_file_head(const std::string& path, std::size_t max_bytes) {
    OpenFile f = open_for_reading(path);
    FileHead head;
    bool more = false;
    const std::size_t hint = static_cast<std::size_t>(std::min<std::uint64_t>(f.size, max_bytes));
    read_up_to(f.fd.get(), path, head.bytes, max_bytes, hint, &more);
    if (f.regular) {
        head.file_size = std::max<std::uint64_t>(f.size, head.bytes.size());
    } else {
        // A pipe or device has no size: read all of it to know.
        std::string rest;
        bool too_big = false;
        read_up_to(f.fd.get(), path, rest, std::size_t(1) << 34, 0, &too_big);
        if (too_big) too_large(path, "the stream is too large", std::uint64_t(1) << 34, "");
        head.file_size = head.bytes.size() + (more ? 1 : 0) + rest.size();
    }
    return head;
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
    // `err`: the errno behind `why`, 0 when there is none.
    const auto fail = [&](const std::string& why, int err = 0) -> void {
        throw FileError(ErrorCode::FileCannotWrite, {path, why, std::to_string(err)},
                        "cannot write '" + path + "': " + why);
    };
    const auto fail_errno = [&](int err) { fail(errno_text(err), err); };
    const std::size_t slash = path.rfind('/');
    const std::string folder_prefix = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..") fail("the path names a folder, not a file");

    struct stat existing {};
    const bool exists = ::stat(path.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) fail_errno(EISDIR);

    // The temporary's name keeps within NAME_MAX even for a long destination name.
    const std::string temp_base = "." + name.substr(0, 200) + ".";
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = folder_prefix + temp_base + temp_suffix();
        // O_EXCL rather than mkstemp: mkstemp creates mode 0600, this respects the umask.
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) fail_errno(errno);
    }
    if (fd < 0) fail("cannot create a unique temporary file beside it");

    FileDescriptor file(fd);
    bool renamed = false;
    struct Cleanup {
        const std::string& temp;
        const bool& renamed;
        ~Cleanup() {
            if (!renamed) ::unlink(temp.c_str());
        }
    } cleanup{temp, renamed};

    if (exists && S_ISREG(existing.st_mode)) (void)::fchmod(fd, existing.st_mode & 07777);

    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail_errno(errno);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) fail_errno(errno);
    if (const int err = file.close(); err != 0) fail_errno(err);
    if (::rename(temp.c_str(), path.c_str()) != 0) fail_errno(errno);
    renamed = true;

    // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
    const std::string folder = folder_prefix.empty() ? "." : folder_prefix;
    const int dir_fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
        (void)::fsync(dir_fd);
        ::close(dir_fd);
    }
}

}  // namespace attnviz::io
