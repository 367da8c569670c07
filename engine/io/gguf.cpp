#include "engine/io/gguf.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/little_endian.h"
#include "engine/io/messages.h"

namespace attnviz::io {

namespace {

constexpr std::uint32_t kDefaultAlignment = 32;
// ggml's GGML_MAX_DIMS: a tensor has at most four dimensions.
constexpr std::uint32_t kMaxDims = 4;

struct TypeRow {
    std::uint32_t id;
    GgufTypeLayout layout;
};

// ggml's type_traits (ggml.c) for every type a file may hold; ids 4, 5 and 31..33, 36..38
// were removed from ggml and are unknown here, as there.
constexpr std::array<TypeRow, 31> kTypes = {{
    {0, {"F32", 1, 4}},         {1, {"F16", 1, 2}},         {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},      {6, {"Q5_0", 32, 22}},      {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},      {9, {"Q8_1", 32, 36}},      {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}},   {12, {"Q4_K", 256, 144}},   {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}},   {15, {"Q8_K", 256, 292}},   {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}},  {18, {"IQ3_XXS", 256, 98}}, {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}},   {21, {"IQ3_S", 256, 110}},  {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}}, {24, {"I8", 1, 1}},         {25, {"I16", 1, 2}},
    {26, {"I32", 1, 4}},        {27, {"I64", 1, 8}},        {28, {"F64", 1, 8}},
    {29, {"IQ1_M", 256, 56}},   {30, {"BF16", 1, 2}},       {34, {"TQ1_0", 256, 54}},
    {35, {"TQ2_0", 256, 66}},
}};

// Bytes of one scalar of a value type; 0 for strings and arrays.
std::uint64_t scalar_size(GgufValueType t) {
    switch (t) {
        case GgufValueType::UInt8:
        case GgufValueType::Int8:
        case GgufValueType::Bool:
            return 1;
        case GgufValueType::UInt16:
        case GgufValueType::Int16:
            return 2;
        case GgufValueType::UInt32:
        case GgufValueType::Int32:
        case GgufValueType::Float32:
            return 4;
        case GgufValueType::UInt64:
        case GgufValueType::Int64:
        case GgufValueType::Float64:
            return 8;
        case GgufValueType::String:
        case GgufValueType::Array:
            return 0;
    }
    return 0;
}

}  // namespace

std::optional<GgufTypeLayout> gguf_type_layout(std::uint32_t type) {
    for (const TypeRow& row : kTypes)
        if (row.id == type) return row.layout;
    return std::nullopt;
}

std::string gguf_type_name(std::uint32_t type) {
    if (auto layout = gguf_type_layout(type)) return std::string(layout->name);
    return "type " + std::to_string(type);
}

std::string gguf_value_type_name(GgufValueType type) {
    switch (type) {
        case GgufValueType::UInt8:
            return "uint8";
        case GgufValueType::Int8:
            return "int8";
        case GgufValueType::UInt16:
            return "uint16";
        case GgufValueType::Int16:
            return "int16";
        case GgufValueType::UInt32:
            return "uint32";
        case GgufValueType::Int32:
            return "int32";
        case GgufValueType::Float32:
            return "float32";
        case GgufValueType::Bool:
            return "bool";
        case GgufValueType::String:
            return "string";
        case GgufValueType::Array:
            return "array";
        case GgufValueType::UInt64:
            return "uint64";
        case GgufValueType::Int64:
            return "int64";
        case GgufValueType::Float64:
            return "float64";
    }
    return "value type " + std::to_string(static_cast<std::uint32_t>(type));
}

// ---------------------------------------------------------------------------------------------
// GgufValue

bool GgufValue::is_integer() const {
    switch (type_) {
        case GgufValueType::UInt8:
        case GgufValueType::Int8:
        case GgufValueType::UInt16:
        case GgufValueType::Int16:
        case GgufValueType::UInt32:
        case GgufValueType::Int32:
        case GgufValueType::UInt64:
        case GgufValueType::Int64:
            return true;
        default:
            return false;
    }
}

void GgufValue::wrong_type(std::string_view wanted) const {
    std::string stored = gguf_value_type_name(type_);
    if (type_ == GgufValueType::Array) stored += " of " + gguf_value_type_name(element_type_);
    throw DataError((file_ ? *file_ : std::string("GGUF")) + ": metadata " +
                    in_quotes(key_ ? *key_ : std::string()) + " is " + stored + ", expected " +
                    std::string(wanted));
}

namespace {

bool read_integer(GgufValueType t, const char* p, std::int64_t* as_signed,
                  std::uint64_t* as_unsigned, bool* fits_signed) {
    *fits_signed = true;
    switch (t) {
        case GgufValueType::UInt8:
            *as_unsigned = load_le<std::uint8_t>(p);
            break;
        case GgufValueType::UInt16:
            *as_unsigned = load_le<std::uint16_t>(p);
            break;
        case GgufValueType::UInt32:
            *as_unsigned = load_le<std::uint32_t>(p);
            break;
        case GgufValueType::UInt64:
            *as_unsigned = load_le<std::uint64_t>(p);
            *fits_signed = *as_unsigned <= std::uint64_t(std::numeric_limits<std::int64_t>::max());
            break;
        case GgufValueType::Int8:
            *as_signed = load_le<std::int8_t>(p);
            break;
        case GgufValueType::Int16:
            *as_signed = load_le<std::int16_t>(p);
            break;
        case GgufValueType::Int32:
            *as_signed = load_le<std::int32_t>(p);
            break;
        case GgufValueType::Int64:
            *as_signed = load_le<std::int64_t>(p);
            break;
        default:
            return false;
    }
    const bool is_unsigned = t == GgufValueType::UInt8 || t == GgufValueType::UInt16 ||
                             t == GgufValueType::UInt32 || t == GgufValueType::UInt64;
    if (is_unsigned)
        *as_signed = static_cast<std::int64_t>(*as_unsigned);
    else
        *as_unsigned = static_cast<std::uint64_t>(*as_signed);
    return true;
}

bool is_signed_type(GgufValueType t) {
    return t == GgufValueType::Int8 || t == GgufValueType::Int16 || t == GgufValueType::Int32 ||
           t == GgufValueType::Int64;
}

}  // namespace

std::uint64_t GgufValue::as_uint() const {
    std::int64_t s = 0;
    std::uint64_t u = 0;
    bool fits = true;
    if (!read_integer(type_, bytes_.data(), &s, &u, &fits)) wrong_type("an integer");
    if (is_signed_type(type_) && s < 0) wrong_type("a non-negative integer (it is negative)");
    return u;
}

std::int64_t GgufValue::as_int() const {
    std::int64_t s = 0;
    std::uint64_t u = 0;
    bool fits = true;
    if (!read_integer(type_, bytes_.data(), &s, &u, &fits)) wrong_type("an integer");
    if (!fits) wrong_type("an integer that fits int64");
    return s;
}

double GgufValue::as_double() const {
    if (type_ == GgufValueType::Float32) return load_le<float>(bytes_.data());
    if (type_ == GgufValueType::Float64) return load_le<double>(bytes_.data());
    std::int64_t s = 0;
    std::uint64_t u = 0;
    bool fits = true;
    if (!read_integer(type_, bytes_.data(), &s, &u, &fits)) wrong_type("a number");
    return is_signed_type(type_) ? static_cast<double>(s) : static_cast<double>(u);
}

bool GgufValue::as_bool() const {
    if (type_ != GgufValueType::Bool) wrong_type("a bool");
    return bytes_[0] != 0;
}

std::string_view GgufValue::as_string() const {
    if (type_ != GgufValueType::String) wrong_type("a string");
    return bytes_;
}

std::vector<std::string_view> GgufValue::as_string_array() const {
    if (type_ != GgufValueType::Array || element_type_ != GgufValueType::String)
        wrong_type("an array of strings");
    std::vector<std::string_view> out;
    out.reserve(static_cast<std::size_t>(count_));
    const char* p = bytes_.data();
    for (std::uint64_t i = 0; i < count_; ++i) {
        const auto n = load_le<std::uint64_t>(p);  // checked when the file was opened
        out.emplace_back(p + 8, static_cast<std::size_t>(n));
        p += 8 + n;
    }
    return out;
}

std::int64_t GgufValue::element_int(std::size_t i) const {
    std::int64_t s = 0;
    std::uint64_t u = 0;
    bool fits = true;
    read_integer(element_type_, bytes_.data() + i * scalar_size(element_type_), &s, &u, &fits);
    if (!fits) wrong_type("an array of integers that fit int64");
    return s;
}

std::vector<std::int64_t> GgufValue::as_int_array() const {
    const bool ok = type_ == GgufValueType::Array && element_type_ != GgufValueType::String &&
                    element_type_ != GgufValueType::Bool &&
                    element_type_ != GgufValueType::Float32 &&
                    element_type_ != GgufValueType::Float64;
    if (!ok) wrong_type("an array of integers");
    std::vector<std::int64_t> out(static_cast<std::size_t>(count_));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = element_int(i);
    return out;
}

std::vector<double> GgufValue::as_double_array() const {
    const bool ok = type_ == GgufValueType::Array && element_type_ != GgufValueType::String &&
                    element_type_ != GgufValueType::Bool;
    if (!ok) wrong_type("an array of numbers");
    std::vector<double> out(static_cast<std::size_t>(count_));
    const std::uint64_t w = scalar_size(element_type_);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char* p = bytes_.data() + i * w;
        if (element_type_ == GgufValueType::Float32)
            out[i] = load_le<float>(p);
        else if (element_type_ == GgufValueType::Float64)
            out[i] = load_le<double>(p);
        else if (is_signed_type(element_type_))
            out[i] = static_cast<double>(element_int(i));
        else {
            std::int64_t s = 0;
            std::uint64_t u = 0;
            bool fits = true;
            read_integer(element_type_, p, &s, &u, &fits);
            out[i] = static_cast<double>(u);
        }
    }
    return out;
}

std::vector<float> GgufValue::as_float_array() const {
    if (type_ != GgufValueType::Array || element_type_ != GgufValueType::Float32)
        wrong_type("an array of float32");
    std::vector<float> out(static_cast<std::size_t>(count_));
    if (!out.empty()) std::memcpy(out.data(), bytes_.data(), out.size() * sizeof(float));
    return out;
}

// ---------------------------------------------------------------------------------------------
// GgufTensorInfo

Shape GgufTensorInfo::shape() const {
    return Shape(ne.rbegin(), ne.rend());
}

// ---------------------------------------------------------------------------------------------
// GgufFile

struct GgufFile::State {
    std::string path;
    std::unique_ptr<MappedFile> mapping;  // or:
    std::string owned;                    // the bytes parse() was given
    std::string_view bytes;
    std::uint32_t version = 0;
    std::uint32_t alignment = kDefaultAlignment;
    std::uint64_t data_offset = 0;
    std::vector<GgufKeyValue> metadata;
    std::map<std::string, std::size_t, std::less<>> key_index;
    std::vector<GgufTensorInfo> tensors;
    std::map<std::string, std::size_t, std::less<>> tensor_index;
};

// Reads the header of one file, checking every read against the bytes that remain.
class GgufParser {
  public:
    explicit GgufParser(GgufFile::State& s) : s_(s), bytes_(s.bytes) {}

    void run() {
        if (bytes_.size() < 4 || bytes_.substr(0, 4) != "GGUF")
            fail("not a GGUF file (it does not start with \"GGUF\")");
        pos_ = 4;
        const std::uint32_t version = u32("the version");
        if (version == 1) fail("GGUF version 1 is not supported (only versions 2 and 3)");
        if (version != 2 && version != 3) {
            if ((version & 0xFFFFu) == 0 && __builtin_bswap32(version) <= 3)
                fail("a big-endian GGUF file, which is not supported");
            fail("GGUF version " + std::to_string(version) +
                 " is not supported (only versions 2 and 3)");
        }
        s_.version = version;
        const std::uint64_t tensor_count = u64("the tensor count");
        const std::uint64_t kv_count = u64("the metadata count");
        // The smallest key/value is 13 bytes (empty key, type, one byte); the smallest tensor
        // info 24 (empty name, no dimensions, type, offset).
        check_count(kv_count, 13, "metadata key/values");
        s_.metadata.reserve(static_cast<std::size_t>(kv_count));
        for (std::uint64_t i = 0; i < kv_count; ++i)
            read_key_value(i);
        check_count(tensor_count, 24, "tensors");
        s_.tensors.reserve(static_cast<std::size_t>(tensor_count));
        for (std::uint64_t i = 0; i < tensor_count; ++i)
            read_tensor_info(i);
        for (GgufKeyValue& kv : s_.metadata) {
            kv.value.key_ = &kv.key;
            kv.value.file_ = &s_.path;
        }
        read_alignment();
        const std::uint64_t a = s_.alignment;
        const std::uint64_t data = (pos_ + a - 1) / a * a;
        if (data > bytes_.size() && !s_.tensors.empty())
            fail("truncated: the header ends at byte " + std::to_string(pos_) +
                 " and the data section would start at byte " + std::to_string(data) +
                 ", past the end of the file (" + std::to_string(bytes_.size()) + " bytes)");
        s_.data_offset = std::min<std::uint64_t>(data, bytes_.size());
        check_tensor_data();
    }

  private:
    [[noreturn]] void fail(const std::string& what) const {
        throw DataError(s_.path + ": " + what);
    }

    std::uint64_t remaining() const { return bytes_.size() - pos_; }

    void need(std::uint64_t n, const std::string& what) const {
        if (n > remaining())
            fail("truncated: " + what + " at byte " + std::to_string(pos_) + " needs " +
                 std::to_string(n) + " bytes, but the file has " + std::to_string(remaining()) +
                 " left (" + std::to_string(bytes_.size()) + " bytes in all)");
    }

    std::uint32_t u32(const std::string& what) {
        need(4, what);
        const auto v = load_le<std::uint32_t>(bytes_.data() + pos_);
        pos_ += 4;
        return v;
    }
    std::uint64_t u64(const std::string& what) {
        need(8, what);
        const auto v = load_le<std::uint64_t>(bytes_.data() + pos_);
        pos_ += 8;
        return v;
    }

    void check_count(std::uint64_t count, std::uint64_t min_bytes, const std::string& what) const {
        if (count > remaining() / min_bytes)
            fail("the header claims " + std::to_string(count) + " " + what + ", more than the " +
                 std::to_string(remaining()) + " bytes left in the file can hold");
    }

    std::string_view string(const std::string& what) {
        const std::uint64_t start = pos_;
        const std::uint64_t n = u64("the length of " + what);
        if (n > remaining())
            fail("the length of " + what + " at byte " + std::to_string(start) + " is " +
                 std::to_string(n) + " bytes, past the end of the file (" +
                 std::to_string(remaining()) + " bytes left)");
        std::string_view out = bytes_.substr(pos_, n);
        pos_ += n;
        return out;
    }

    GgufValueType value_type(const std::string& where) {
        const std::uint64_t at = pos_;
        const std::uint32_t t = u32("the value type of " + where);
        if (t > static_cast<std::uint32_t>(GgufValueType::Float64))
            fail(where + " has unknown value type " + std::to_string(t) + " (at byte " +
                 std::to_string(at) + ")");
        return static_cast<GgufValueType>(t);
    }

    // The bytes of a value of type `t` (not an array), checked; strings checked in full.
    std::string_view scalar_or_string(GgufValueType t, const std::string& where) {
        if (t == GgufValueType::String) return string(where);
        const std::uint64_t w = scalar_size(t);
        need(w, where);
        std::string_view out = bytes_.substr(pos_, w);
        pos_ += w;
        return out;
    }

    void read_key_value(std::uint64_t index) {
        const std::string_view key = string("the key of metadata entry " + std::to_string(index));
        const std::string where = "metadata " + in_quotes(key);
        if (s_.key_index.count(key)) fail("metadata key " + in_quotes(key) + " appears twice");
        GgufValue v;
        v.type_ = value_type(where);
        if (v.type_ != GgufValueType::Array) {
            v.count_ = 1;
            v.bytes_ = scalar_or_string(v.type_, where);
        } else {
            v.element_type_ = value_type("the elements of " + where);
            if (v.element_type_ == GgufValueType::Array)
                fail(where + " is an array of arrays, which is not supported");
            v.count_ = u64("the length of " + where);
            const std::uint64_t start = pos_;
            const std::uint64_t w = scalar_size(v.element_type_);
            const std::uint64_t min = w == 0 ? 8 : w;
            if (v.count_ > remaining() / min)
                fail(where + " claims " + std::to_string(v.count_) + " elements of " +
                     gguf_value_type_name(v.element_type_) + " at byte " + std::to_string(start) +
                     ", more than the " + std::to_string(remaining()) +
                     " bytes left in the file can hold");
            if (w != 0) {
                pos_ += v.count_ * w;
            } else {
                // Vocabularies hold 150,000 strings: no message is built unless one fails.
                for (std::uint64_t i = 0; i < v.count_; ++i) {
                    if (remaining() < 8 ||
                        load_le<std::uint64_t>(bytes_.data() + pos_) > remaining() - 8)
                        string("element " + std::to_string(i) + " of " + where);
                    pos_ += 8 + load_le<std::uint64_t>(bytes_.data() + pos_);
                }
            }
            v.bytes_ = bytes_.substr(start, pos_ - start);
        }
        s_.key_index.emplace(std::string(key), s_.metadata.size());
        s_.metadata.push_back({std::string(key), v});
    }

    void read_tensor_info(std::uint64_t index) {
        GgufTensorInfo t;
        t.name = std::string(string("the name of tensor " + std::to_string(index)));
        const std::string where = "tensor " + in_quotes(t.name);
        if (s_.tensor_index.count(t.name))
            fail("tensor name " + in_quotes(t.name) + " appears twice");
        const std::uint32_t n_dims = u32("the dimension count of " + where);
        if (n_dims > kMaxDims)
            fail(where + " has " + std::to_string(n_dims) + " dimensions (at most " +
                 std::to_string(kMaxDims) + ")");
        std::uint64_t numel = 1;
        bool zero = false;
        for (std::uint32_t d = 0; d < n_dims; ++d) {
            const std::uint64_t n = u64("dimension " + std::to_string(d) + " of " + where);
            if (n > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                fail(where + " has dimension " + std::to_string(d) + " of " + std::to_string(n) +
                     ", beyond int64");
            if (n == 0) zero = true;
            if (!zero && numel > std::uint64_t(std::numeric_limits<std::int64_t>::max()) / n)
                fail(where + " has more elements than int64 can count");
            numel = zero ? 0 : numel * n;
            t.ne.push_back(static_cast<std::int64_t>(n));
        }
        t.numel = static_cast<std::int64_t>(numel);
        t.type = u32("the type of " + where);
        const auto layout = gguf_type_layout(t.type);
        if (!layout) fail(where + " has unknown type " + std::to_string(t.type));
        const std::int64_t row = t.ne.empty() ? 1 : t.ne[0];
        if (row % layout->block_size != 0)
            fail(where + " is " + std::string(layout->name) + " with rows of " +
                 std::to_string(row) + " values, not a multiple of its block of " +
                 std::to_string(layout->block_size));
        // numel / block_size * type_size: at most int64_max / 1 * 292, which fits uint64
        // only when divided first; type_size <= 292 and block_size >= 1.
        const std::uint64_t blocks = numel / static_cast<std::uint64_t>(layout->block_size);
        if (blocks > std::numeric_limits<std::uint64_t>::max() /
                         static_cast<std::uint64_t>(layout->type_size))
            fail(where + " has more bytes than 64 bits can count");
        t.nbytes = blocks * static_cast<std::uint64_t>(layout->type_size);
        t.offset = u64("the offset of " + where);
        s_.tensor_index.emplace(t.name, s_.tensors.size());
        s_.tensors.push_back(std::move(t));
    }

    void read_alignment() {
        auto it = s_.key_index.find(std::string_view("general.alignment"));
        if (it == s_.key_index.end()) return;
        const GgufValue& v = s_.metadata[it->second].value;
        if (v.type() != GgufValueType::UInt32)
            fail("general.alignment is " + gguf_value_type_name(v.type()) + ", expected uint32");
        const std::uint32_t a = load_le<std::uint32_t>(v.bytes_.data());
        if (a == 0 || (a & (a - 1)) != 0)
            fail("general.alignment is " + std::to_string(a) + ", not a power of two");
        s_.alignment = a;
    }

    void check_tensor_data() const {
        const std::uint64_t size = bytes_.size() - s_.data_offset;
        std::vector<const GgufTensorInfo*> order;
        order.reserve(s_.tensors.size());
        for (const GgufTensorInfo& t : s_.tensors) {
            const std::string where = "tensor " + in_quotes(t.name);
            if (t.offset % s_.alignment != 0)
                fail(where + " is misaligned: its data offset " + std::to_string(t.offset) +
                     " is not a multiple of the alignment " + std::to_string(s_.alignment));
            if (t.offset > size || t.nbytes > size - t.offset)
                fail(where + " (" + gguf_type_name(t.type) + ", " + std::to_string(t.nbytes) +
                     " bytes at data offset " + std::to_string(t.offset) +
                     ") runs past the end of the file: the data section has " +
                     std::to_string(size) + " bytes (truncated?)");
            // An empty tensor occupies nothing, so it overlaps nothing; leaving it in the
            // order would let it sit between two tensors that do overlap.
            if (t.nbytes != 0) order.push_back(&t);
        }
        std::sort(order.begin(), order.end(),
                  [](const auto* a, const auto* b) { return a->offset < b->offset; });
        // Sorted by start, the tensors are disjoint exactly when each starts at or after the
        // furthest end reached before it.
        const GgufTensorInfo* furthest = nullptr;
        for (const GgufTensorInfo* b : order) {
            if (furthest && furthest->offset + furthest->nbytes > b->offset)
                fail("tensors " + in_quotes(furthest->name) + " (bytes " +
                     std::to_string(furthest->offset) + ".." +
                     std::to_string(furthest->offset + furthest->nbytes) + ") and " +
                     in_quotes(b->name) + " (from byte " + std::to_string(b->offset) + ") overlap");
            if (!furthest || b->offset + b->nbytes > furthest->offset + furthest->nbytes)
                furthest = b;
        }
    }

    GgufFile::State& s_;
    std::string_view bytes_;
    std::uint64_t pos_ = 0;
};

GgufFile GgufFile::open(const std::string& path) {
    auto s = std::make_shared<State>();
    s->path = path;
    s->mapping = MappedFile::open(path, "GGUF");
    s->bytes = s->mapping->bytes();
    GgufParser(*s).run();
    GgufFile f;
    f.state_ = std::move(s);
    return f;
}

GgufFile GgufFile::parse(std::string_view bytes, const std::string& name) {
    auto s = std::make_shared<State>();
    s->path = name;
    s->owned = std::string(bytes);
    s->bytes = s->owned;
    GgufParser(*s).run();
    GgufFile f;
    f.state_ = std::move(s);
    return f;
}

GgufFile::GgufFile() : state_(std::make_shared<State>()) {}
GgufFile::~GgufFile() = default;
GgufFile::GgufFile(const GgufFile&) = default;
GgufFile::GgufFile(GgufFile&&) noexcept = default;
GgufFile& GgufFile::operator=(const GgufFile&) = default;
GgufFile& GgufFile::operator=(GgufFile&&) noexcept = default;

const std::string& GgufFile::path() const {
    return state_->path;
}
std::uint32_t GgufFile::version() const {
    return state_->version;
}
std::uint32_t GgufFile::alignment() const {
    return state_->alignment;
}
std::uint64_t GgufFile::data_offset() const {
    return state_->data_offset;
}
std::uint64_t GgufFile::file_size() const {
    return state_->bytes.size();
}
const std::vector<GgufKeyValue>& GgufFile::metadata() const {
    return state_->metadata;
}
const GgufValue* GgufFile::find(std::string_view key) const {
    auto it = state_->key_index.find(key);
    return it == state_->key_index.end() ? nullptr : &state_->metadata[it->second].value;
}
const GgufValue& GgufFile::at(std::string_view key) const {
    if (const GgufValue* v = find(key)) return *v;
    throw DataError(state_->path + ": no metadata key " + in_quotes(key));
}
const std::vector<GgufTensorInfo>& GgufFile::tensors() const {
    return state_->tensors;
}
const GgufTensorInfo* GgufFile::find_tensor(std::string_view name) const {
    auto it = state_->tensor_index.find(name);
    return it == state_->tensor_index.end() ? nullptr : &state_->tensors[it->second];
}
std::string_view GgufFile::tensor_data(const GgufTensorInfo& tensor) const {
    return state_->bytes.substr(state_->data_offset + tensor.offset, tensor.nbytes);
}

}  // namespace attnviz::io
