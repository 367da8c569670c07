// Fuzz harness for GGUF files (engine/io/gguf.h): any bytes must give a checked file or a
// DataError.  In an accepted file every tensor's bytes lie inside the data section, at a
// multiple of the alignment, without overlapping another's, with the size its type and
// dimensions give; the alignment is a power of two; and every metadata value can be read
// with the accessor of its type (only integers beyond int64 may be refused, with a DataError).
// Every tensor of a type the engine converts dequantizes, or is refused for a NaN/infinity.
// A file with tokenizer metadata gives a tokenizer (which then encodes a short text) or a
// DataError naming what it cannot read.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/models/gguf_tokenizer.h"
#include "fuzz/fuzz_entry.h"

namespace attnviz::fuzz {

namespace {

[[noreturn]] void violated(const std::string& what) {
    throw InvariantViolation("gguf: " + what);
}

void read_value(const io::GgufValue& v) {
    using T = io::GgufValueType;
    try {
        switch (v.type()) {
            case T::String:
                (void)v.as_string();
                break;
            case T::Bool:
                (void)v.as_bool();
                break;
            case T::Float32:
            case T::Float64:
                (void)v.as_double();
                break;
            case T::Array:
                if (v.element_type() == T::String) {
                    if (v.as_string_array().size() != v.size()) violated("string array size");
                } else if (v.element_type() != T::Bool) {
                    if (v.as_double_array().size() != v.size()) violated("array size");
                    if (v.element_type() == T::Float32)
                        (void)v.as_float_array();
                    else if (v.element_type() != T::Float64)
                        (void)v.as_int_array();
                }
                break;
            default:
                (void)v.as_double();
                (void)v.as_int();
                break;
        }
    } catch (const DataError& e) {
        // Only a uint64 beyond int64 may be refused by the accessor of its own type.
        const bool u64 =
            v.type() == T::UInt64 || (v.type() == T::Array && v.element_type() == T::UInt64);
        if (!u64)
            violated(std::string("an accessor of the value's own type refused it: ") + e.what());
    }
}

}  // namespace

Outcome run_gguf(std::string_view input) {
    io::GgufFile f;
    try {
        f = io::GgufFile::parse(input, "fuzz.gguf");
    } catch (const DataError&) {
        return Outcome::Rejected;
    }
    const std::uint32_t a = f.alignment();
    if (a == 0 || (a & (a - 1)) != 0) violated("alignment " + std::to_string(a));
    if (f.data_offset() > input.size()) violated("data section past the end");
    for (const io::GgufKeyValue& kv : f.metadata()) {
        if (f.find(kv.key) != &kv.value) violated("key '" + kv.key + "' is not found as itself");
        read_value(kv.value);
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const io::GgufTensorInfo& t : f.tensors()) {
        if (f.find_tensor(t.name) != &t) violated("tensor '" + t.name + "' is not found as itself");
        const auto layout = io::gguf_type_layout(t.type);
        if (!layout) violated("tensor '" + t.name + "' has an unknown type");
        if (t.ne.size() > 4) violated("more than 4 dimensions");
        std::int64_t numel = 1;
        for (std::int64_t n : t.ne)
            numel *= n;  // checked by the reader not to overflow
        if (numel != t.numel) violated("numel of '" + t.name + "'");
        if (numel % layout->block_size != 0 ||
            t.nbytes != std::uint64_t(numel / layout->block_size * layout->type_size))
            violated("size of '" + t.name + "'");
        if (t.offset % a != 0) violated("misaligned '" + t.name + "'");
        if (f.data_offset() + t.offset + t.nbytes > input.size())
            violated("'" + t.name + "' past the end");
        if (f.tensor_data(t).size() != t.nbytes) violated("data size of '" + t.name + "'");
        if (t.nbytes) ranges.emplace_back(t.offset, t.offset + t.nbytes);
        if (io::gguf_can_dequantize(t.type)) {
            // nbytes <= the input's size, so numel is at most 256/84 of it per byte.
            std::vector<float> values(static_cast<std::size_t>(t.numel));
            try {
                io::dequantize_tensor(f, t, values.data(), values.size());
            } catch (const DataError&) {
                // a NaN or infinite value, reported
            }
        }
    }
    if (f.find("tokenizer.ggml.model")) {
        try {
            const text::HfTokenizer t = models::gguf_tokenizer(f);
            (void)t.encode("The cat sat, 猫 12345!", std::nullopt, true);
        } catch (const DataError&) {
            // an unsupported or inconsistent vocabulary, named
        }
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i - 1].second > ranges[i].first) violated("overlapping tensors accepted");
    return Outcome::Accepted;
}

}  // namespace attnviz::fuzz
