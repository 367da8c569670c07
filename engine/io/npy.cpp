#include "engine/io/npy.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/half.h"
#include "engine/io/little_endian.h"
#include "engine/io/messages.h"

namespace attnviz::io {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kArrayAlign = 64;  // numpy pads the header so the data starts aligned
// Real headers are under a kilobyte (numpy allows at most 64 dimensions); anything much
// larger is not a .npy file worth parsing.
constexpr std::size_t kMaxHeaderLength = std::size_t(1) << 20;

struct DtypeInfo {
    NpyDtype dtype;
    std::size_t itemsize;
    bool big_endian;
};

struct Header {
    NpyInfo info;
    std::string descr;
    std::size_t itemsize = 0;
    bool big_endian = false;
    std::size_t data_offset = 0;
    std::size_t numel = 0;
    std::size_t nbytes = 0;
};

const char* dtype_description(NpyDtype d) {
    switch (d) {
        case NpyDtype::Float16:
            return "float16";
        case NpyDtype::Float32:
            return "float32";
        case NpyDtype::Float64:
            return "float64";
        case NpyDtype::Bool:
            return "bool";
        case NpyDtype::UInt8:
            return "uint8";
        case NpyDtype::Int8:
            return "int8";
        case NpyDtype::Int32:
            return "int32";
        case NpyDtype::Int64:
            return "int64";
    }
    return "?";
}

bool is_float(NpyDtype d) {
    return d == NpyDtype::Float16 || d == NpyDtype::Float32 || d == NpyDtype::Float64;
}

bool parse_descr(std::string_view descr, DtypeInfo* out) {
    if (descr.size() != 3) return false;
    const char order = descr[0];
    const std::string_view type = descr.substr(1);
    struct Known {
        std::string_view code;
        NpyDtype dtype;
        std::size_t itemsize;
    };
    static constexpr std::array<Known, 8> kKnown = {{{"f2", NpyDtype::Float16, 2},
                                                     {"f4", NpyDtype::Float32, 4},
                                                     {"f8", NpyDtype::Float64, 8},
                                                     {"b1", NpyDtype::Bool, 1},
                                                     {"u1", NpyDtype::UInt8, 1},
                                                     {"i1", NpyDtype::Int8, 1},
                                                     {"i4", NpyDtype::Int32, 4},
                                                     {"i8", NpyDtype::Int64, 8}}};
    for (const Known& k : kKnown) {
        if (k.code != type) continue;
        // numpy writes '|' for one-byte types and '<'/'>' otherwise; accept either order mark
        // for one-byte types, where it means nothing.
        if (k.itemsize == 1) {
            if (order != '|' && order != '<' && order != '>') return false;
        } else if (order != '<' && order != '>') {
            return false;
        }
        *out = {k.dtype, k.itemsize, order == '>'};
        return true;
    }
    return false;
}

// The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// This accepts exactly what numpy could have written (any key order, optional trailing
// commas, any whitespace) and nothing that needs Python to evaluate.
class HeaderDictParser {
  public:
    HeaderDictParser(std::string_view text, const std::string& name, int major_version)
        : s_(text), name_(name), major_(major_version) {}

    void parse(Header* h) {
        skip_ws();
        expect('{', "the header to start with '{'");
        bool have_descr = false, have_fortran = false, have_shape = false;
        for (;;) {
            skip_ws();
            if (at_end()) fail(name_, "malformed header: it ends before the closing '}'");
            if (peek() == '}') break;
            const std::string key = parse_string("a quoted key");
            skip_ws();
            expect(':', "':' after key " + in_quotes(key));
            skip_ws();
            const auto seen = [&](bool* flag) {
                if (*flag) fail(name_, "key " + in_quotes(key) + " appears twice in the header");
                *flag = true;
            };
            if (key == "descr") {
                seen(&have_descr);
                if (peek() == '[')
                    fail(name_,
                         "descr is a structured dtype (a list of fields), which is not "
                         "supported; save a plain float32 or float64 array");
                if (peek() != '\'' && peek() != '"')
                    fail(name_,
                         "descr must be a dtype string such as '<f4', found " + describe_here());
                h->descr = parse_string("a dtype string");
            } else if (key == "fortran_order") {
                seen(&have_fortran);
                h->info.fortran_order = parse_bool();
            } else if (key == "shape") {
                seen(&have_shape);
                h->info.shape = parse_shape();
            } else {
                fail(name_, "unexpected key " + in_quotes(key) +
                                " in the header (a .npy header has exactly 'descr', "
                                "'fortran_order' and 'shape')");
            }
            skip_ws();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != '}')
                fail(name_,
                     "malformed header: expected ',' or '}', found " + describe_here() + where());
        }
        ++pos_;  // '}'
        skip_ws();
        if (pos_ != s_.size())
            fail(name_, "malformed header: unexpected " + describe_here() + " after the dict");
        if (!have_descr) fail(name_, "the header has no 'descr' (dtype)");
        if (!have_fortran) fail(name_, "the header has no 'fortran_order'");
        if (!have_shape) fail(name_, "the header has no 'shape'");
    }

  private:
    std::string_view s_;
    const std::string& name_;
    int major_;
    std::size_t pos_ = 0;

    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    bool at_end() const { return pos_ >= s_.size(); }

    std::string where() const { return " at header byte " + std::to_string(pos_); }

    std::string describe_here() const {
        if (at_end()) return "the end of the header";
        const auto c = static_cast<unsigned char>(s_[pos_]);
        if (c >= 0x20 && c < 0x7F) return "\"" + std::string(1, static_cast<char>(c)) + "\"";
        return "byte " + std::to_string(c);
    }

    void skip_ws() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++pos_;
    }

    void expect(char c, const std::string& what) {
        if (peek() != c || at_end())
            fail(name_,
                 "malformed header: expected " + what + ", found " + describe_here() + where());
        ++pos_;
    }

    std::string parse_string(const std::string& what) {
        const char q = peek();
        if (at_end() || (q != '\'' && q != '"'))
            fail(name_,
                 "malformed header: expected " + what + ", found " + describe_here() + where());
        const std::size_t start = ++pos_;
        while (!at_end() && peek() != q) {
            if (peek() == '\\' || peek() == '\n')
                fail(name_, "malformed header: unsupported character in a string" + where());
            ++pos_;
        }
        if (at_end()) fail(name_, "malformed header: unterminated string");
        return std::string(s_.substr(start, pos_++ - start));
    }

    bool parse_bool() {
        for (const std::string_view word : {std::string_view("True"), std::string_view("False")}) {
            if (s_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return word == "True";
            }
        }
        fail(name_, "fortran_order must be True or False, found " + describe_here() + where());
    }

    std::int64_t parse_dimension() {
        const std::size_t start = pos_;
        bool negative = false;
        if (peek() == '-') {
            negative = true;
            ++pos_;
            skip_ws();
        }
        if (peek() < '0' || peek() > '9')
            fail(name_, "shape must be a tuple of integers, found " + describe_here() + where());
        std::uint64_t value = 0;
        bool too_large = false;
        while (peek() >= '0' && peek() <= '9' && !at_end()) {
            const auto digit = static_cast<std::uint64_t>(peek() - '0');
            if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) too_large = true;
            value = value * 10 + digit;
            ++pos_;
        }
        // Files written by numpy under Python 2 may say (3L, 4L); numpy still reads them.
        if (major_ <= 2 && (peek() == 'L' || peek() == 'l')) ++pos_;
        const std::string text(s_.substr(start, pos_ - start));
        if (negative) fail(name_, "negative dimension " + text + " in shape");
        if (too_large ||
            value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail(name_, "dimension " + text + " in shape is too large");
        return static_cast<std::int64_t>(value);
    }

    Shape parse_shape() {
        if (peek() != '(')
            fail(name_, "shape must be a tuple such as (2, 3), found " + describe_here() + where());
        ++pos_;
        Shape shape;
        bool trailing_comma = false;
        for (;;) {
            skip_ws();
            if (at_end()) fail(name_, "malformed header: it ends inside the shape");
            if (peek() == ')') break;
            shape.push_back(parse_dimension());
            skip_ws();
            trailing_comma = false;
            if (peek() == ',') {
                ++pos_;
                trailing_comma = true;
                continue;
            }
            if (peek() != ')')
                fail(name_,
                     "malformed shape: expected ',' or ')', found " + describe_here() + where());
        }
        ++pos_;  // ')'
        // In Python "(3)" is the integer 3, not a tuple; numpy rejects it too.
        if (shape.size() == 1 && !trailing_comma)
            fail(name_, "shape (" + std::to_string(shape[0]) +
                            ") is not a tuple; a 1-d shape is "
                            "written (" +
                            std::to_string(shape[0]) + ",)");
        return shape;
    }
};

/// The header length at byte 8: 2 bytes in format 1.0, 4 in 2.0 and 3.0, little-endian.
std::size_t header_length(std::string_view bytes, std::size_t width) {
    return width == 2 ? load_le<std::uint16_t>(bytes.data() + 8)
                      : load_le<std::uint32_t>(bytes.data() + 8);
}

// Parses and checks the preamble and header of `head` (the first bytes of a file whose total
// size is file_size).  Needs the whole header in `head`, not the data.
Header parse_header(std::string_view head, std::uint64_t file_size, const std::string& name) {
    if (file_size == 0) fail(name, "the file is empty (0 bytes), not a .npy file");
    if (head.size() < kMagic.size() || head.substr(0, kMagic.size()) != kMagic) {
        if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4))
            fail(name,
                 "this is a zip archive (a .npz file?), not a .npy file; extract the arrays "
                 "first");
        if (head.size() < kMagic.size() && kMagic.substr(0, head.size()) == head)
            fail(name, "truncated: the file ends inside the .npy magic (" +
                           format_byte_size(file_size) + ")");
        fail(name, "not a .npy file (bad magic: it does not start with \\x93NUMPY)");
    }
    if (head.size() < 8) fail(name, "truncated header: the file ends before the version number");
    const int major = static_cast<unsigned char>(head[6]);
    const int minor = static_cast<unsigned char>(head[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                       std::to_string(minor) + " (this reader knows 1.0, 2.0 and 3.0)");
    const std::size_t len_width = major == 1 ? 2 : 4;
    const std::size_t preamble = 8 + len_width;
    if (head.size() < preamble)
        fail(name, "truncated header: the file ends inside the header length");
    const std::size_t header_len = header_length(head, len_width);
    const std::uint64_t data_offset = preamble + header_len;
    if (data_offset > file_size)
        fail(name, "truncated header: the header says it is " + std::to_string(header_len) +
                       " bytes long but the file ends after " + std::to_string(file_size) +
                       " bytes");
    if (header_len > kMaxHeaderLength)
        fail(name, "header length " + std::to_string(header_len) + " is larger than the " +
                       format_byte_size(kMaxHeaderLength) + " this reader accepts");
    if (head.size() < data_offset) fail(name, "truncated header");  // caller read too little

    Header h;
    h.data_offset = static_cast<std::size_t>(data_offset);
    HeaderDictParser(head.substr(preamble, header_len), name, major).parse(&h);

    DtypeInfo dt{};
    if (!parse_descr(h.descr, &dt))
        fail(name,
             "unsupported dtype " + in_quotes(h.descr) +
                 " (supported: '<f2' '>f2' '<f4' '>f4' '<f8' '>f8' for arrays, '|b1' '|u1' '|i1' "
                 "'<i4' '>i4' '<i8' '>i8' for masks)");
    h.info.dtype = dt.dtype;
    h.itemsize = dt.itemsize;
    h.big_endian = dt.big_endian;

    // Element count and byte size, overflow-safe, then against what the file really holds.
    bool has_zero = false;
    for (const std::int64_t d : h.info.shape)
        has_zero = has_zero || d == 0;
    std::uint64_t numel = has_zero ? 0 : 1;
    for (const std::int64_t d : h.info.shape) {
        if (has_zero) break;
        const auto ud = static_cast<std::uint64_t>(d);
        if (numel > std::numeric_limits<std::uint64_t>::max() / ud)
            fail(name, "header claims shape " + shape_string(h.info.shape) +
                           ", whose element count overflows 64 bits");
        numel *= ud;
    }
    const std::uint64_t available = file_size - data_offset;
    const std::uint64_t max_u64 = std::numeric_limits<std::uint64_t>::max();
    if (numel > max_u64 / h.itemsize || numel * h.itemsize > available) {
        const std::string size = numel > max_u64 / h.itemsize
                                     ? "more than 2^64 bytes"
                                     : format_byte_size(numel * h.itemsize);
        fail(name, "header claims " + std::to_string(numel) + " elements (" + size +
                       ") but the file holds " + format_byte_size(available) + " of data (shape " +
                       shape_string(h.info.shape) + " of " + in_quotes(h.descr) + ")");
    }
    h.numel = static_cast<std::size_t>(numel);
    h.nbytes = static_cast<std::size_t>(numel * h.itemsize);
    if (h.nbytes < available)
        fail(name, "trailing data: " + format_byte_size(available - h.nbytes) +
                       " after the array data (shape " + shape_string(h.info.shape) + " of " +
                       in_quotes(h.descr) + " is " + format_byte_size(h.nbytes) + ")");
    return h;
}

template <typename Bits>
Bits load(const char* p, bool big_endian) {
    Bits v;
    std::memcpy(&v, p, sizeof v);
    if (big_endian != (std::endian::native == std::endian::big)) {
        if constexpr (sizeof(Bits) == 2)
            v = __builtin_bswap16(v);
        else if constexpr (sizeof(Bits) == 4)
            v = __builtin_bswap32(v);
        else if constexpr (sizeof(Bits) == 8)
            v = __builtin_bswap64(v);
    }
    return v;
}

// The elements as float: values for float dtypes, 0/1 (non-zero -> 1) for the others.
std::vector<float> decode(const Header& h, const char* data) {
    std::vector<float> out(h.numel);
    const std::size_t n = h.numel;
    switch (h.info.dtype) {
        case NpyDtype::Float16:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = half_to_float(load<std::uint16_t>(data + 2 * i, h.big_endian));
            break;
        case NpyDtype::Float32:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = std::bit_cast<float>(load<std::uint32_t>(data + 4 * i, h.big_endian));
            break;
        case NpyDtype::Float64:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = static_cast<float>(
                    std::bit_cast<double>(load<std::uint64_t>(data + 8 * i, h.big_endian)));
            break;
        case NpyDtype::Bool:
        case NpyDtype::UInt8:
        case NpyDtype::Int8:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = data[i] != 0 ? 1.0f : 0.0f;
            break;
        case NpyDtype::Int32:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = load<std::uint32_t>(data + 4 * i, h.big_endian) != 0 ? 1.0f : 0.0f;
            break;
        case NpyDtype::Int64:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = load<std::uint64_t>(data + 8 * i, h.big_endian) != 0 ? 1.0f : 0.0f;
            break;
    }
    // Dimensions of size 1 change neither order, so the reordering leaves them out.  With
    // them every step of the walk carried through all of them: a header listing 340,000 1s
    // made a 1 MB file take 30 s to read and a 10 MB one most of an hour.  Without them a
    // step carries through fewer than two dimensions on average.
    std::vector<std::size_t> shape;
    for (const std::int64_t d : h.info.shape)
        if (d > 1) shape.push_back(static_cast<std::size_t>(d));
    if (h.info.fortran_order && shape.size() > 1) {
        // Column-major -> row-major: walk the output in C order, tracking the source offset
        // with Fortran strides.
        const std::size_t rank = shape.size();
        std::vector<std::size_t> fstride(rank), index(rank, 0);
        std::size_t stride = 1;
        for (std::size_t k = 0; k < rank; ++k) {
            fstride[k] = stride;
            stride *= shape[k];
        }
        std::vector<float> c_order(n);
        std::size_t src = 0;
        for (std::size_t i = 0; i < n; ++i) {
            c_order[i] = out[src];
            for (std::size_t k = rank; k-- > 0;) {
                src += fstride[k];
                if (++index[k] < shape[k]) break;
                src -= fstride[k] * index[k];
                index[k] = 0;
            }
        }
        out.swap(c_order);
    }
    return out;
}

Header parse_whole(const std::string& bytes, const std::string& name) {
    return parse_header(bytes, bytes.size(), name);
}

std::string npy_header(std::string_view descr, const Shape& shape) {
    // Byte for byte what numpy's format.write_array writes (numpy >= 1.23): the dict repr with
    // sorted keys, room to grow the first axis to 21 digits, then space padding and '\n' so
    // the data starts at a multiple of 64 bytes.
    std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) dict += ", ";
        dict += std::to_string(shape[i]);
    }
    if (shape.size() == 1) dict += ",";
    dict += "), }";
    if (!shape.empty()) {
        const std::size_t digits = std::to_string(shape[0]).size();
        if (digits < 21) dict.append(21 - digits, ' ');
    }
    const std::size_t hlen = dict.size() + 1;  // + '\n'
    for (const int major : {1, 2}) {
        const std::size_t preamble = major == 1 ? 10 : 12;
        const std::size_t pad = kArrayAlign - (preamble + hlen) % kArrayAlign;
        const std::size_t field = hlen + pad;
        if (major == 1 && field > 0xFFFF) continue;
        std::string out(kMagic);
        out += static_cast<char>(major);
        out += '\0';
        for (std::size_t i = 0; i < preamble - 8; ++i)
            out += static_cast<char>((field >> (8 * i)) & 0xFF);
        out += dict;
        out.append(pad, ' ');
        out += '\n';
        return out;
    }
    throw DataError("shape " + shape_string(shape) + " is too long for a .npy header");
}

void check_values(const Shape& shape, std::size_t n, const std::string& context) {
    for (const std::int64_t d : shape)
        if (d < 0) throw DataError(context + "negative dimension in shape " + shape_string(shape));
    std::size_t expected = 0;
    try {
        expected = shape_numel(shape);
    } catch (const std::invalid_argument&) {
        throw DataError(context + "shape " + shape_string(shape) + " is too large");
    }
    if (expected != n)
        throw DataError(context + "shape " + shape_string(shape) + " needs " +
                        std::to_string(expected) + " values but there are " + std::to_string(n));
}

std::string serialize_f32(const Tensor& t, const std::string& context) {
    check_values(t.shape, t.data.size(), context);
    std::string out = npy_header("<f4", t.shape);
    const std::size_t start = out.size();
    out.resize(start + 4 * t.data.size());
    char* p = out.data() + start;
    for (const float v : t.data) {
        std::uint32_t bits = std::bit_cast<std::uint32_t>(v);
        if constexpr (std::endian::native == std::endian::big) bits = __builtin_bswap32(bits);
        std::memcpy(p, &bits, 4);
        p += 4;
    }
    return out;
}

std::string serialize_bool(const Mask& m, const std::string& context) {
    if (!m.is_bool())
        throw DataError(context + "a float (additive) mask cannot be written as a bool array");
    check_values(m.shape, m.values.size(), context);
    std::string out = npy_header("|b1", m.shape);
    out.reserve(out.size() + m.values.size());
    for (const float v : m.values)
        out += v != 0.0f ? '\1' : '\0';
    return out;
}

}  // namespace

NpyLayout parse_npy_layout(std::string_view file, const std::string& name) {
    const Header h = parse_header(file, file.size(), name);
    return {h.info, h.data_offset, h.itemsize, h.big_endian};
}

NpyInfo read_npy_info(const std::string& path) {
    // Enough for any real header; re-read once if this one is longer.
    FileHead head = read_file_head(path, 4096);
    const auto& b = head.bytes;
    if (b.size() >= 12 && b.substr(0, kMagic.size()) == kMagic) {
        const std::size_t len_width = b[6] == 1 ? 2 : 4;
        const std::size_t needed = 8 + len_width + header_length(b, len_width);
        if (needed > b.size() && needed <= head.file_size && needed <= kMaxHeaderLength + 12)
            head = read_file_head(path, needed);
    }
    return parse_header(head.bytes, head.file_size, path).info;
}

Tensor parse_npy(const std::string& bytes, const std::string& name) {
    const Header h = parse_whole(bytes, name);
    if (!is_float(h.info.dtype))
        fail(name, "dtype " + in_quotes(h.descr) + " (" + dtype_description(h.info.dtype) +
                       ") is not a float array; expected float32 ('<f4'), float64 ('<f8') or "
                       "float16 ('<f2')");
    return Tensor(h.info.shape, decode(h, bytes.data() + h.data_offset));
}

Mask parse_npy_mask(const std::string& bytes, const std::string& name) {
    const Header h = parse_whole(bytes, name);
    std::vector<float> values = decode(h, bytes.data() + h.data_offset);
    if (is_float(h.info.dtype)) return Mask::additive(h.info.shape, std::move(values));
    return Mask::boolean(h.info.shape, std::move(values));
}

Tensor read_npy(const std::string& path) {
    return parse_npy(read_file(path), path);
}

Mask read_npy_mask(const std::string& path) {
    return parse_npy_mask(read_file(path), path);
}

std::string serialize_npy(const Tensor& t) {
    return serialize_f32(t, "");
}

std::string serialize_npy_bool(const Mask& m) {
    return serialize_bool(m, "");
}

void write_npy(const std::string& path, const Tensor& t) {
    write_file_atomically(path, serialize_f32(t, "cannot write '" + path + "': "));
}

void write_npy_bool(const std::string& path, const Mask& m) {
    write_file_atomically(path, serialize_bool(m, "cannot write '" + path + "': "));
}

}  // namespace attnviz::io
