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

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_lite.h"

namespace attnviz::io {

namespace {

// The reference implementation's limit; a real header is a few kilobytes per hundred tensors.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr std::string_view kMetadataKey = "__metadata__";

enum class Dtype { F32, F64, F16, BF16 };

struct Entry {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::string dtype_name;
    Shape shape;
    std::uint64_t begin = 0, end = 0;
    std::size_t numel = 0;
};

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw DataError(name + ": " + what);
}

std::string quoted(std::string_view s) {
    return "'" + std::string(s) + "'";
}

std::string offsets_string(std::uint64_t begin, std::uint64_t end) {
    return "[" + std::to_string(begin) + "," + std::to_string(end) + "]";
}

bool known_dtype(std::string_view d, Dtype* out, std::size_t* itemsize) {
    struct Known {
        std::string_view name;
        Dtype dtype;
        std::size_t itemsize;
    };
    static constexpr std::array<Known, 4> kKnown = {{{"F32", Dtype::F32, 4},
                                                     {"F64", Dtype::F64, 8},
                                                     {"F16", Dtype::F16, 2},
                                                     {"BF16", Dtype::BF16, 2}}};
    for (const Known& k : kKnown) {
        if (k.name != d) continue;
        *out = k.dtype;
        *itemsize = k.itemsize;
        return true;
    }
    return false;
}

// numel * itemsize, or nullopt if it does not fit 64 bits.
std::optional<std::uint64_t> byte_size(const Shape& shape, std::size_t itemsize) {
    for (const std::int64_t d : shape)
        if (d == 0) return 0;
    std::uint64_t n = itemsize;
    for (const std::int64_t d : shape) {
        const auto ud = static_cast<std::uint64_t>(d);
        if (n > std::numeric_limits<std::uint64_t>::max() / ud) return std::nullopt;
        n *= ud;
    }
    return n;
}

// Dtypes the format defines that this reader refuses (integers, booleans, 8-bit floats ...).
bool format_dtype(std::string_view d) {
    static constexpr std::array<std::string_view, 16> kOthers = {
        "BOOL", "U8",      "I8",      "I16",     "U16",     "I32", "U32",     "I64",
        "U64",  "F8_E5M2", "F8_E4M3", "F8_E8M0", "F6_E2M3", "F4",  "F6_E3M2", "C64"};
    return std::find(kOthers.begin(), kOthers.end(), d) != kOthers.end();
}

std::uint64_t load_le64(const char* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

template <typename Bits>
Bits load_le(const char* p) {
    Bits v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) {
        if constexpr (sizeof(Bits) == 2) v = __builtin_bswap16(v);
        if constexpr (sizeof(Bits) == 4) v = __builtin_bswap32(v);
        if constexpr (sizeof(Bits) == 8) v = __builtin_bswap64(v);
    }
    return v;
}

// IEEE 754 binary16 -> binary32, exact for every value: subnormals, signed zeros, infinities,
// and NaNs (payload kept in the top mantissa bits).
float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    const std::uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in float.
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16_to_float(std::uint16_t b) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

std::vector<float> decode(const Entry& e, const char* p) {
    std::vector<float> out(e.numel);
    for (std::size_t i = 0; i < e.numel; ++i) {
        switch (e.dtype) {
            case Dtype::F32:
                out[i] = std::bit_cast<float>(load_le<std::uint32_t>(p + 4 * i));
                break;
            case Dtype::F64:
                out[i] =
                    static_cast<float>(std::bit_cast<double>(load_le<std::uint64_t>(p + 8 * i)));
                break;
            case Dtype::F16:
                out[i] = half_to_float(load_le<std::uint16_t>(p + 2 * i));
                break;
            case Dtype::BF16:
                out[i] = bfloat16_to_float(load_le<std::uint16_t>(p + 2 * i));
                break;
        }
    }
    return out;
}

Shape parse_shape(const json::Value& v, const std::string& name, const std::string& tensor) {
    const std::string where = "tensor " + quoted(tensor) + " shape";
    if (!v.is_array()) fail(name, where + " must be an array of integers, found " + v.type_name());
    Shape shape;
    for (const json::Value& d : v.items) {
        if (!d.is_number()) fail(name, where + " must hold integers, found " + d.type_name());
        if (!d.is_integer()) fail(name, where + " holds " + d.text + ", which is not an integer");
        if (d.text.front() == '-') fail(name, where + " holds a negative dimension " + d.text);
        const auto dim = d.as_int64();
        if (!dim) fail(name, where + " holds dimension " + d.text + ", which is too large");
        shape.push_back(*dim);
    }
    return shape;
}

void parse_offsets(const json::Value& v, const std::string& name, Entry* e) {
    const std::string where = "tensor " + quoted(e->name) + " data_offsets";
    if (!v.is_array() || v.items.size() != 2)
        fail(name, where + " must be an array [begin, end] of two integers");
    std::uint64_t out[2];
    for (std::size_t i = 0; i < 2; ++i) {
        const json::Value& x = v.items[i];
        const auto u = x.as_uint64();
        if (!u) {
            const std::string found = x.is_number() ? x.text : x.type_name();
            fail(name, where + " must be non-negative integers below 2^64, found " + found);
        }
        out[i] = *u;
    }
    e->begin = out[0];
    e->end = out[1];
}

Entry parse_entry(const std::string& tensor, const json::Value& v, std::uint64_t data_size,
                  const std::string& name) {
    Entry e;
    e.name = tensor;
    if (!v.is_object())
        fail(name, "tensor " + quoted(tensor) +
                       " must be an object {dtype, shape, data_offsets}, "
                       "found " +
                       v.type_name());
    const json::Value* dtype = v.find("dtype");
    const json::Value* shape = v.find("shape");
    const json::Value* offsets = v.find("data_offsets");
    for (const auto& [field, value] :
         {std::pair{"dtype", dtype}, std::pair{"shape", shape}, std::pair{"data_offsets", offsets}})
        if (!value) fail(name, "tensor " + quoted(tensor) + " has no '" + field + "' field");
    if (!dtype->is_string())
        fail(name,
             "tensor " + quoted(tensor) + " dtype must be a string, found " + dtype->type_name());
    e.dtype_name = dtype->text;
    std::size_t itemsize = 0;
    if (!known_dtype(e.dtype_name, &e.dtype, &itemsize)) {
        if (format_dtype(e.dtype_name))
            fail(name, "tensor " + quoted(tensor) + " has dtype " + e.dtype_name +
                           ", which cannot be read (supported: F32, F64, F16, BF16)");
        fail(name, "tensor " + quoted(tensor) + " has unknown dtype " + quoted(e.dtype_name));
    }
    e.shape = parse_shape(*shape, name, tensor);
    parse_offsets(*offsets, name, &e);

    const std::string offsets_text =
        "tensor " + quoted(tensor) + " data_offsets " + offsets_string(e.begin, e.end);
    if (e.end < e.begin) fail(name, offsets_text + " end before they begin");
    if (e.end > data_size)
        fail(name, offsets_text + " run past the end of the data: the file holds " +
                       std::to_string(data_size) + " bytes after the header (truncated?)");
    const std::optional<std::uint64_t> nbytes = byte_size(e.shape, itemsize);
    if (!nbytes || *nbytes != e.end - e.begin)
        fail(name, offsets_text + " do not match shape " + shape_string(e.shape) + " of " +
                       e.dtype_name + " (" +
                       (nbytes ? std::to_string(*nbytes) + " bytes" : "more than 2^64 bytes") +
                       ")");
    e.numel = static_cast<std::size_t>(*nbytes / itemsize);
    return e;
}

// The byte ranges must tile [0, data_size) exactly: no overlap, no gap, nothing left over.
void check_layout(std::vector<const Entry*> entries, std::uint64_t data_size,
                  const std::string& name) {
    std::sort(entries.begin(), entries.end(), [](const Entry* a, const Entry* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t covered = 0;
    const Entry* previous = nullptr;
    for (const Entry* e : entries) {
        if (e->begin < covered)
            fail(name, "tensors " + quoted(previous->name) + " data_offsets " +
                           offsets_string(previous->begin, previous->end) + " and " +
                           quoted(e->name) + " data_offsets " + offsets_string(e->begin, e->end) +
                           " overlap");
        if (e->begin > covered)
            fail(name, "gap in the data: bytes [" + std::to_string(covered) + "," +
                           std::to_string(e->begin) + ") before tensor " + quoted(e->name) +
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

std::map<std::string, std::string> parse_metadata(const json::Value& v, const std::string& name) {
    if (!v.is_object())
        fail(name,
             "__metadata__ must be an object of strings, found " + std::string(v.type_name()));
    std::map<std::string, std::string> out;
    for (const json::Member& m : v.members) {
        if (!m.value.is_string())
            fail(name, "__metadata__ must be an object of strings, but " + quoted(m.key) + " is " +
                           m.value.type_name());
        out.emplace(m.key, m.value.text);
    }
    return out;
}

void append_le32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string serialize(const TensorMap& tensors, const std::map<std::string, std::string>& metadata,
                      const std::string& context) {
    const auto check_text = [&](const std::string& s, const char* what) {
        if (!json::is_valid_utf8(s)) throw DataError(context + what + " is not valid UTF-8");
    };
    std::string header = "{";
    if (!metadata.empty()) {
        header += json::quote(kMetadataKey) + ":{";
        bool first = true;
        for (const auto& [key, value] : metadata) {
            check_text(key, "metadata key");
            check_text(value, "metadata value");
            if (!first) header += ',';
            first = false;
            header += json::quote(key) + ":" + json::quote(value);
        }
        header += "}";
    }
    std::uint64_t offset = 0;
    for (const auto& [tensor, t] : tensors) {
        check_text(tensor, "tensor name");
        if (tensor == kMetadataKey)
            throw DataError(context + "a tensor may not be called '__metadata__'");
        for (const std::int64_t d : t.shape)
            if (d < 0)
                throw DataError(context + "tensor " + quoted(tensor) + " has shape " +
                                shape_string(t.shape));
        std::size_t numel = 0;
        try {
            numel = shape_numel(t.shape);
        } catch (const std::invalid_argument&) {
            throw DataError(context + "tensor " + quoted(tensor) + " shape " +
                            shape_string(t.shape) + " is too large");
        }
        if (numel != t.data.size())
            throw DataError(context + "tensor " + quoted(tensor) + " of shape " +
                            shape_string(t.shape) + " holds " + std::to_string(t.data.size()) +
                            " values");
        if (header.size() > 1) header += ',';
        header += json::quote(tensor) + ":{\"dtype\":\"F32\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            if (i) header += ',';
            header += std::to_string(t.shape[i]);
        }
        const std::uint64_t end = offset + 4 * static_cast<std::uint64_t>(numel);
        header +=
            "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(end) + "]}";
        offset = end;
    }
    header += "}";
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
    if (bytes.size() < 8)
        fail(name, "too short for a safetensors file (" + format_byte_size(bytes.size()) +
                       "; it starts with an 8-byte header length)");
    const std::uint64_t header_len = load_le64(bytes.data());
    const std::uint64_t after_length = bytes.size() - 8;
    if (header_len > after_length)
        fail(name, "header length " + std::to_string(header_len) + " is larger than the file (" +
                       std::to_string(after_length) +
                       " bytes after the length field); not a safetensors file, or truncated");
    if (header_len > kMaxHeaderBytes)
        fail(name, "header length " + std::to_string(header_len) + " exceeds the " +
                       format_byte_size(kMaxHeaderBytes) + " limit");
    const std::string_view header_text(bytes.data() + 8, static_cast<std::size_t>(header_len));
    if (header_text.empty() || header_text.front() != '{')
        fail(name, "the header is not a JSON object (it does not start with '{')");
    json::Value header;
    try {
        header = json::parse(header_text);
    } catch (const json::ParseError& e) {
        fail(name, std::string("the header is not valid JSON: ") + e.what());
    }
    if (!header.is_object())
        fail(name, std::string("the header is ") + header.type_name() + ", not a JSON object");

    const std::uint64_t data_size = after_length - header_len;
    const char* data = bytes.data() + 8 + header_len;
    SafetensorsContents contents;
    std::vector<Entry> entries;
    entries.reserve(header.members.size());
    for (const json::Member& m : header.members) {
        if (m.key == kMetadataKey)
            contents.metadata = parse_metadata(m.value, name);
        else
            entries.push_back(parse_entry(m.key, m.value, data_size, name));
    }
    std::vector<const Entry*> pointers;
    for (const Entry& e : entries)
        pointers.push_back(&e);
    check_layout(std::move(pointers), data_size, name);

    for (const Entry& e : entries)
        contents.tensors.emplace(e.name, Tensor(e.shape, decode(e, data + e.begin)));
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
