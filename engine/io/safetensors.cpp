#include "engine/io/safetensors.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ATTNVIZ_X86_F16C 1
#endif

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/half.h"
#include "engine/io/json.h"
#include "engine/io/json_writer.h"
#include "engine/io/little_endian.h"
#include "engine/io/messages.h"
#include "engine/kernels/cpu_features.h"

namespace attnviz::io {

namespace {

// The reference implementation's limit; a real header is a few kilobytes per hundred tensors.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr std::string_view kMetadataKey = "__metadata__";

std::string offsets_string(std::uint64_t begin, std::uint64_t end) {
    return "[" + std::to_string(begin) + "," + std::to_string(end) + "]";
}

// Every dtype of the format (the reference's Dtype enum) with its size in bits; the format
// allows sub-byte types as long as a tensor fills whole bytes.
struct SafetensorsDtype {
    std::string_view name;
    unsigned bits;
};
constexpr std::array<SafetensorsDtype, 22> kDtypes = {
    {{"F32", 32},    {"F64", 64},    {"F16", 16},        {"BF16", 16},       {"BOOL", 8},
     {"U8", 8},      {"I8", 8},      {"I16", 16},        {"U16", 16},        {"I32", 32},
     {"U32", 32},    {"I64", 64},    {"U64", 64},        {"C64", 64},        {"F8_E5M2", 8},
     {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8}, {"F6_E2M3", 6},
     {"F6_E3M2", 6}, {"F4", 4}}};

const SafetensorsDtype* find_dtype(std::string_view d) {
    for (const SafetensorsDtype& k : kDtypes)
        if (k.name == d) return &k;
    return nullptr;
}

std::size_t float_itemsize(std::string_view d) {
    return d == "F32" ? 4 : d == "F64" ? 8 : d == "F16" || d == "BF16" ? 2 : 0;
}

// numel * bits / 8, or nullopt if it does not fit 64 bits; *partial when the tensor would
// end inside a byte (sub-byte dtypes).
std::optional<std::uint64_t> byte_size(const Shape& shape, unsigned bits, std::uint64_t* numel,
                                       bool* partial) {
    *partial = false;
    for (const std::int64_t d : shape)
        if (d == 0) {
            *numel = 0;
            return 0;
        }
    std::uint64_t n = 1;
    for (const std::int64_t d : shape) {
        const auto ud = static_cast<std::uint64_t>(d);
        if (n > std::numeric_limits<std::uint64_t>::max() / ud) return std::nullopt;
        n *= ud;
    }
    *numel = n;
    if (n > std::numeric_limits<std::uint64_t>::max() / bits) return std::nullopt;
    *partial = (n * bits) % 8 != 0;
    return n * bits / 8;
}

// A number as it reads in a message ("-1", "1.5", "1e+300").
std::string number_text(json::Element v) {
    if (const auto i = json::as_int64(v)) return std::to_string(*i);
    if (const auto u = json::as_uint64(v)) return std::to_string(*u);
    if (const auto d = json::as_double(v)) return io::number_text(*d);
    return json::type_name(v);
}

bool is_number(json::Element v) {
    const json::Type t = v.type();
    return t == json::Type::INT64 || t == json::Type::UINT64 || t == json::Type::DOUBLE;
}

Shape parse_shape(json::Element v, const std::string& name, std::string_view tensor) {
    const std::string where = "tensor " + in_quotes(tensor) + " shape";
    if (v.type() != json::Type::ARRAY)
        fail(name, where + " must be an array of integers, found " + json::type_name(v));
    Shape shape;
    for (const json::Element d : json::Array(v)) {
        if (!is_number(d)) fail(name, where + " must hold integers, found " + json::type_name(d));
        if (d.type() == json::Type::DOUBLE)
            fail(name, where + " holds " + number_text(d) + ", which is not an integer");
        const auto dim = json::as_int64(d);
        if (dim && *dim < 0) fail(name, where + " holds a negative dimension " + number_text(d));
        if (!dim) fail(name, where + " holds dimension " + number_text(d) + ", which is too large");
        shape.push_back(*dim);
    }
    return shape;
}

void parse_offsets(json::Element v, const std::string& name, SafetensorsEntry* e) {
    const std::string where = "tensor " + in_quotes(e->name) + " data_offsets";
    if (v.type() != json::Type::ARRAY || json::Array(v).size() != 2)
        fail(name, where + " must be an array [begin, end] of two integers");
    std::uint64_t out[2];
    std::size_t i = 0;
    for (const json::Element x : json::Array(v)) {
        const auto u = json::as_uint64(x);
        if (!u)
            fail(name,
                 where + " must be non-negative integers below 2^64, found " + number_text(x));
        out[i++] = *u;
    }
    e->begin = out[0];
    e->end = out[1];
}

SafetensorsEntry parse_entry(std::string_view tensor, json::Element v, std::uint64_t data_size,
                             const std::string& name) {
    SafetensorsEntry e;
    e.name = tensor;
    if (v.type() != json::Type::OBJECT)
        fail(name, "tensor " + in_quotes(tensor) +
                       " must be an object {dtype, shape, data_offsets}, found " +
                       json::type_name(v));
    const auto dtype = json::find(v, "dtype");
    const auto shape = json::find(v, "shape");
    const auto offsets = json::find(v, "data_offsets");
    for (const auto& [field, present] :
         {std::pair{"dtype", dtype.has_value()}, std::pair{"shape", shape.has_value()},
          std::pair{"data_offsets", offsets.has_value()}})
        if (!present) fail(name, "tensor " + in_quotes(tensor) + " has no '" + field + "' field");
    const auto dtype_name = json::as_string(*dtype);
    if (!dtype_name)
        fail(name, "tensor " + in_quotes(tensor) + " dtype must be a string, found " +
                       json::type_name(*dtype));
    e.dtype = *dtype_name;
    const SafetensorsDtype* info = find_dtype(e.dtype);
    if (!info)
        fail(name, "tensor " + in_quotes(tensor) + " has unknown dtype " + in_quotes(e.dtype));
    e.shape = parse_shape(*shape, name, tensor);
    parse_offsets(*offsets, name, &e);

    const std::string offsets_text =
        "tensor " + in_quotes(tensor) + " data_offsets " + offsets_string(e.begin, e.end);
    if (e.end < e.begin) fail(name, offsets_text + " end before they begin");
    if (e.end > data_size)
        fail(name, offsets_text + " run past the end of the data: the file holds " +
                       std::to_string(data_size) + " bytes after the header (truncated?)");
    bool partial = false;
    const std::optional<std::uint64_t> nbytes = byte_size(e.shape, info->bits, &e.numel, &partial);
    if (partial)
        fail(name, "tensor " + in_quotes(tensor) + " of shape " + shape_string(e.shape) + " and " +
                       e.dtype + " does not fill a whole number of bytes");
    if (!nbytes || *nbytes != e.end - e.begin)
        fail(name, offsets_text + " do not match shape " + shape_string(e.shape) + " of " +
                       e.dtype + " (" +
                       (nbytes ? std::to_string(*nbytes) + " bytes" : "more than 2^64 bytes") +
                       ")");
    return e;
}

// The byte ranges must tile [0, data_size) exactly: no overlap, no gap, nothing left over.
void check_layout(std::vector<const SafetensorsEntry*> entries, std::uint64_t data_size,
                  const std::string& name) {
    std::sort(entries.begin(), entries.end(),
              [](const SafetensorsEntry* a, const SafetensorsEntry* b) {
                  return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
              });
    std::uint64_t covered = 0;
    const SafetensorsEntry* previous = nullptr;
    for (const SafetensorsEntry* e : entries) {
        if (e->begin < covered)
            fail(name, "tensors " + in_quotes(previous->name) + " data_offsets " +
                           offsets_string(previous->begin, previous->end) + " and " +
                           in_quotes(e->name) + " data_offsets " +
                           offsets_string(e->begin, e->end) + " overlap");
        if (e->begin > covered)
            fail(name, "gap in the data: bytes [" + std::to_string(covered) + "," +
                           std::to_string(e->begin) + ") before tensor " + in_quotes(e->name) +
                           " belong to no tensor");
        covered = e->end;
        previous = e;
    }
    if (covered != data_size)
        fail(name, "trailing data: the last " + std::to_string(data_size - covered) +
                       " bytes of the file belong to no tensor (tensors end at " +
                       std::to_string(covered) + " of " + std::to_string(data_size) +
                       " data bytes)");
}

std::map<std::string, std::string> parse_metadata(json::Element v, const std::string& name) {
    if (v.type() != json::Type::OBJECT)
        fail(name,
             std::string("__metadata__ must be an object of strings, found ") + json::type_name(v));
    std::map<std::string, std::string> out;
    for (const auto [key, value] : json::Object(v)) {
        const auto text = json::as_string(value);
        if (!text)
            fail(name, "__metadata__ must be an object of strings, but " + in_quotes(key) + " is " +
                           json::type_name(value));
        out.emplace(key, *text);
    }
    return out;
}

// ---- conversion to float32 ------------------------------------------------------------
// Each converter works in blocks: convert, then OR a "not finite" flag over the block's
// output (a loop the compiler vectorises), and only search for the index when a block is
// flagged.  float32 is not finite exactly when its exponent bits are all ones.

constexpr std::size_t kBlock = 2048;

bool any_not_finite(const float* x, std::size_t n) {
    std::uint32_t flag = 0;
    for (std::size_t i = 0; i < n; ++i)
        flag |= static_cast<std::uint32_t>((std::bit_cast<std::uint32_t>(x[i]) & 0x7F800000u) ==
                                           0x7F800000u);
    return flag != 0;
}

std::size_t first_not_finite(const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if ((std::bit_cast<std::uint32_t>(x[i]) & 0x7F800000u) == 0x7F800000u) return i;
    return n;
}

// Runs convert(src_offset, dst, count) block by block and returns the first non-finite index.
template <typename Convert>
std::size_t convert_blocks(float* dst, std::size_t n, Convert convert) {
    std::size_t first = n;
    for (std::size_t i = 0; i < n; i += kBlock) {
        const std::size_t m = std::min(kBlock, n - i);
        convert(i, dst + i, m);
        if (first == n && any_not_finite(dst + i, m)) first = i + first_not_finite(dst + i, m);
    }
    return first;
}

void f16_portable_block(const char* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        dst[i] = half_to_float(load_le<std::uint16_t>(src + 2 * i));
}

#if defined(ATTNVIZ_X86_F16C)
// vcvtph2ps converts 8 halves per instruction, exactly (it is the IEEE conversion).
__attribute__((target("avx,f16c"))) void f16_f16c_block(const char* src, float* dst,
                                                        std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i)
        dst[i] = half_to_float(load_le<std::uint16_t>(src + 2 * i));
}

#endif

}  // namespace

std::size_t first_non_finite(const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; i += kBlock) {
        const std::size_t m = std::min(kBlock, n - i);
        if (any_not_finite(x + i, m)) return i + first_not_finite(x + i, m);
    }
    return n;
}

bool is_float_dtype(std::string_view dtype) {
    return float_itemsize(dtype) != 0;
}

namespace detail {
std::size_t convert_f16_portable(const void* src, float* dst, std::size_t n) {
    const char* p = static_cast<const char*>(src);
    return convert_blocks(dst, n, [&](std::size_t i, float* out, std::size_t m) {
        f16_portable_block(p + 2 * i, out, m);
    });
}
}  // namespace detail

std::size_t convert_to_float(std::string_view dtype, const void* src, float* dst, std::size_t n) {
    const char* p = static_cast<const char*>(src);
    if (dtype == "F32") {
        return convert_blocks(dst, n, [&](std::size_t i, float* out, std::size_t m) {
            if constexpr (std::endian::native == std::endian::little) {
                std::memcpy(out, p + 4 * i, 4 * m);
            } else {
                for (std::size_t k = 0; k < m; ++k)
                    out[k] = std::bit_cast<float>(load_le<std::uint32_t>(p + 4 * (i + k)));
            }
        });
    }
    if (dtype == "BF16") {
        return convert_blocks(dst, n, [&](std::size_t i, float* out, std::size_t m) {
            const char* q = p + 2 * i;
            for (std::size_t k = 0; k < m; ++k)
                out[k] = std::bit_cast<float>(
                    static_cast<std::uint32_t>(load_le<std::uint16_t>(q + 2 * k)) << 16);
        });
    }
    if (dtype == "F16") {
#if defined(ATTNVIZ_X86_F16C)
        if (kernels::cpu_has_f16c())
            return convert_blocks(dst, n, [&](std::size_t i, float* out, std::size_t m) {
                f16_f16c_block(p + 2 * i, out, m);
            });
#endif
        return detail::convert_f16_portable(src, dst, n);
    }
    if (dtype == "F64") {
        return convert_blocks(dst, n, [&](std::size_t i, float* out, std::size_t m) {
            const char* q = p + 8 * i;
            for (std::size_t k = 0; k < m; ++k)
                out[k] =
                    static_cast<float>(std::bit_cast<double>(load_le<std::uint64_t>(q + 8 * k)));
        });
    }
    throw std::invalid_argument("convert_to_float: dtype " + std::string(dtype) +
                                " is not F32, F64, F16 or BF16");
}

SafetensorsHeader parse_safetensors_header(std::string_view file, const std::string& name) {
    if (file.size() < 8)
        fail(name, "too short for a safetensors file (" + format_byte_size(file.size()) +
                       "; it starts with an 8-byte header length)");
    const std::uint64_t header_len = load_le<std::uint64_t>(file.data());
    const std::uint64_t after_length = file.size() - 8;
    if (header_len > after_length)
        fail(name, "header length " + std::to_string(header_len) + " is larger than the file (" +
                       std::to_string(after_length) +
                       " bytes after the length field); not a safetensors file, or truncated");
    if (header_len > kMaxHeaderBytes)
        fail(name, "header length " + std::to_string(header_len) + " exceeds the " +
                       format_byte_size(kMaxHeaderBytes) + " limit");
    const std::string_view header_text(file.data() + 8, static_cast<std::size_t>(header_len));
    if (header_text.empty() || header_text.front() != '{')
        fail(name, "the header is not a JSON object (it does not start with '{')");
    json::Document doc;
    try {
        doc = json::parse(header_text);
    } catch (const json::ParseError& e) {
        fail(name, std::string("the header is not valid JSON: ") + e.what());
    }
    const json::Element root = doc.root();
    if (root.type() != json::Type::OBJECT)
        fail(name, std::string("the header is ") + json::type_name(root) + ", not a JSON object");

    const std::uint64_t data_size = after_length - header_len;
    SafetensorsHeader header;
    header.data_start = 8 + header_len;
    header.tensors.reserve(json::Object(root).size());
    for (const auto [key, value] : json::Object(root)) {
        if (key == kMetadataKey)
            header.metadata = parse_metadata(value, name);
        else
            header.tensors.push_back(parse_entry(key, value, data_size, name));
    }
    std::vector<const SafetensorsEntry*> pointers;
    pointers.reserve(header.tensors.size());
    for (const SafetensorsEntry& e : header.tensors)
        pointers.push_back(&e);
    check_layout(std::move(pointers), data_size, name);
    return header;
}

namespace {

void append_le32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string serialize(const TensorMap& tensors, const std::map<std::string, std::string>& metadata,
                      const std::string& context) {
    const auto check_text = [&](const std::string& s, const char* what) {
        if (!json::is_valid_utf8(s)) throw DataError(context + what + " is not valid UTF-8");
    };
    json::Writer w;
    w.begin_object();
    if (!metadata.empty()) {
        w.key(kMetadataKey).begin_object();
        for (const auto& [key, value] : metadata) {
            check_text(key, "metadata key");
            check_text(value, "metadata value");
            w.member(key, value);
        }
        w.end_object();
    }
    std::uint64_t offset = 0;
    for (const auto& [tensor, t] : tensors) {
        check_text(tensor, "tensor name");
        if (tensor == kMetadataKey)
            throw DataError(context + "a tensor may not be called '__metadata__'");
        for (const std::int64_t d : t.shape)
            if (d < 0)
                throw DataError(context + "tensor " + in_quotes(tensor) + " has shape " +
                                shape_string(t.shape));
        std::size_t numel = 0;
        try {
            numel = shape_numel(t.shape);
        } catch (const std::invalid_argument&) {
            throw DataError(context + "tensor " + in_quotes(tensor) + " shape " +
                            shape_string(t.shape) + " is too large");
        }
        if (numel != t.data.size())
            throw DataError(context + "tensor " + in_quotes(tensor) + " of shape " +
                            shape_string(t.shape) + " holds " + std::to_string(t.data.size()) +
                            " values");
        w.key(tensor).begin_object().member("dtype", "F32").key("shape").begin_array();
        for (const std::int64_t d : t.shape)
            w.value(d);
        const std::uint64_t end = offset + 4 * static_cast<std::uint64_t>(numel);
        w.end_array().key("data_offsets").begin_array().value(offset).value(end).end_array();
        w.end_object();
        offset = end;
    }
    std::string header = w.end_object().take();
    header.append((8 - header.size() % 8) % 8, ' ');

    std::string out;
    out.reserve(8 + header.size() + offset);
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((static_cast<std::uint64_t>(header.size()) >> (8 * i)) & 0xFF);
    out += header;
    for (const auto& entry : tensors)
        for (const float v : entry.second.data)
            append_le32(out, std::bit_cast<std::uint32_t>(v));
    return out;
}

}  // namespace

SafetensorsContents parse_safetensors_contents(const std::string& bytes, const std::string& name) {
    SafetensorsHeader header = parse_safetensors_header(bytes, name);
    // This reader converts whole files, so a tensor it cannot convert is refused here (the
    // weight store lists such tensors and refuses them only when one is loaded).
    for (const SafetensorsEntry& e : header.tensors)
        if (!is_float_dtype(e.dtype))
            fail(name, "tensor " + in_quotes(e.name) + " has dtype " + e.dtype +
                           ", which cannot be read (supported: F32, F64, F16, BF16)");
    SafetensorsContents contents;
    contents.metadata = std::move(header.metadata);
    const char* data = bytes.data() + header.data_start;
    for (const SafetensorsEntry& e : header.tensors) {
        Tensor t;
        t.shape = e.shape;
        t.data.resize(static_cast<std::size_t>(e.numel));
        convert_to_float(e.dtype, data + e.begin, t.data.data(), t.data.size());
        contents.tensors.emplace(e.name, std::move(t));
    }
    return contents;
}

TensorMap parse_safetensors(const std::string& bytes, const std::string& name) {
    return parse_safetensors_contents(bytes, name).tensors;
}

SafetensorsContents read_safetensors_contents(const std::string& path) {
    return parse_safetensors_contents(read_file(path), path);
}

TensorMap read_safetensors(const std::string& path) {
    return read_safetensors_contents(path).tensors;
}

std::string serialize_safetensors(const TensorMap& tensors,
                                  const std::map<std::string, std::string>& metadata) {
    return serialize(tensors, metadata, "");
}

void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata) {
    write_file_atomically(path, serialize(tensors, metadata, "cannot write '" + path + "': "));
}

}  // namespace attnviz::io
