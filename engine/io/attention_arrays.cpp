#include "engine/io/attention_arrays.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/messages.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "engine/tensor.h"

namespace attnviz::io {

namespace {

constexpr std::string_view kNpyMagic = "\x93NUMPY";
constexpr const char* kShapes =
    "expected [layers, heads, L, L], [heads, L, L] or [layers, 1, heads, L, L]";

std::size_t itemsize_of(std::string_view dtype) {
    return dtype == "F64" ? 8 : dtype == "F32" ? 4 : 2;  // F16, BF16
}

const char* dtype_name(std::string_view dtype) {
    if (dtype == "F16") return "float16";
    if (dtype == "BF16") return "bfloat16";
    if (dtype == "F64") return "float64";
    return "float32";
}

/// "layer.12" -> 12; -1 for any other name (leading zeros included: "layer.01" is not layer 1).
std::int64_t layer_index(std::string_view name) {
    constexpr std::string_view prefix = "layer.";
    if (!name.starts_with(prefix)) return -1;
    const std::string_view digits = name.substr(prefix.size());
    if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return -1;
    std::int64_t n = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    return ec == std::errc() && end == digits.data() + digits.size() ? n : -1;
}

std::string format_sum(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::vector<std::string> strings(json::Element v, const std::string& name, const char* key) {
    if (v.type() != json::Type::ARRAY)
        fail(name,
             std::string("\"") + key + "\" must be a list of strings, found " + json::type_name(v));
    std::vector<std::string> out;
    for (const json::Element item : json::Array(v)) {
        const auto s = json::as_string(item);
        if (!s)
            fail(name, std::string("\"") + key + "\"[" + std::to_string(out.size()) +
                           "] must be a string, found " + json::type_name(item));
        out.emplace_back(*s);
    }
    return out;
}

}  // namespace

AttentionTokens parse_attention_tokens(std::string_view text, const std::string& name) {
    json::Document doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        fail(name, std::string("not valid JSON: ") + e.what());
    }
    const json::Element root = doc.root();
    AttentionTokens out;
    if (root.type() == json::Type::ARRAY) {
        out.text = strings(root, name, "tokens");
        return out;
    }
    if (root.type() != json::Type::OBJECT)
        fail(name, std::string("expected a list of strings or an object with \"tokens\", found ") +
                       json::type_name(root));
    const auto tokens = json::find(root, "tokens");
    if (!tokens) fail(name, "the object has no \"tokens\" list");
    out.text = strings(*tokens, name, "tokens");
    const std::size_t n = out.text.size();
    const auto check_length = [&](json::Element v, const char* key) {
        if (v.type() != json::Type::ARRAY)
            fail(name, std::string("\"") + key + "\" must be a list, found " + json::type_name(v));
        if (json::Array(v).size() != n)
            fail(name, std::string("\"") + key + "\" has " + std::to_string(json::Array(v).size()) +
                           " entries but \"tokens\" has " + std::to_string(n));
    };
    if (const auto shown = json::find(root, "text")) {  // attnviz's own: pieces as shown
        check_length(*shown, "text");
        out.text = strings(*shown, name, "text");
    }
    if (const auto ids = json::find(root, "ids")) {
        check_length(*ids, "ids");
        for (const json::Element item : json::Array(*ids)) {
            const auto id = json::as_int64(item);
            if (!id)
                fail(name, "\"ids\"[" + std::to_string(out.ids.size()) +
                               "] must be a whole number, found " + json::type_name(item));
            out.ids.push_back(*id);
        }
    }
    if (const auto offsets = json::find(root, "offsets")) {
        check_length(*offsets, "offsets");
        for (const json::Element item : json::Array(*offsets)) {
            const std::string at = "\"offsets\"[" + std::to_string(out.offsets.size()) + "]";
            if (item.type() != json::Type::ARRAY || json::Array(item).size() != 2)
                fail(name, at + " must be a pair [begin, end]");
            const json::Array pair(item);
            const auto begin = json::as_int64(pair.at(0).value_unsafe());
            const auto end = json::as_int64(pair.at(1).value_unsafe());
            if (!begin || !end || *begin < 0 || *end < *begin)
                fail(name, at + " must be two whole numbers 0 <= begin <= end");
            out.offsets.emplace_back(*begin, *end);
        }
    }
    if (const auto input = json::find(root, "input")) {
        const auto given = json::as_string(*input);
        if (!given)
            fail(name, std::string("\"input\" must be a string, found ") + json::type_name(*input));
        out.input = std::string(*given);
    }
    if (const auto special = json::find(root, "special")) {
        check_length(*special, "special");
        for (const json::Element item : json::Array(*special)) {
            const auto b = json::as_bool(item);
            if (!b)
                fail(name, "\"special\"[" + std::to_string(out.special.size()) +
                               "] must be true or false, found " + json::type_name(item));
            out.special.push_back(*b ? 1 : 0);
        }
    }
    return out;
}

AttentionTokens read_attention_tokens(const std::string& path) {
    // A tokens file is a few kilobytes per thousand tokens; 1 GB is far past any real one.
    return parse_attention_tokens(read_file(path, std::size_t(1) << 30), path);
}

std::string tokens_beside(const std::string& array_path) {
    namespace fs = std::filesystem;
    const fs::path beside = fs::path(array_path).parent_path() / "tokens.json";
    std::error_code ec;
    return fs::is_regular_file(beside, ec) ? beside.string() : std::string();
}

AttentionArrays AttentionArrays::open(const std::string& path) {
    AttentionArrays a;
    a.path_ = path;
    std::shared_ptr<const MappedFile> file = MappedFile::open(path, "attention maps");
    const std::string_view bytes = file->bytes();
    Shape per_layer;  // [heads, L, L]
    if (bytes.starts_with(kNpyMagic)) {
        const NpyLayout n = parse_npy_layout(bytes, path);
        const char* dtype = nullptr;
        switch (n.info.dtype) {
            case NpyDtype::Float16:
                dtype = "F16";
                break;
            case NpyDtype::Float32:
                dtype = "F32";
                break;
            case NpyDtype::Float64:
                dtype = "F64";
                break;
            default:
                fail(path, "the maps must be float16 or float32, not an integer or bool array");
        }
        const Shape& s = n.info.shape;
        if (n.info.fortran_order)
            fail(path, "the array is in Fortran order; save np.ascontiguousarray(maps)");
        std::int64_t layers = 1;
        if (s.size() == 3) {
            per_layer = s;
        } else if (s.size() == 4) {
            layers = s[0];
            per_layer = {s[1], s[2], s[3]};
        } else if (s.size() == 5 && s[1] == 1) {
            layers = s[0];
            per_layer = {s[2], s[3], s[4]};
        } else {
            fail(path, "the maps are " + shape_string(s) + "; " + kShapes);
        }
        if (layers == 0) fail(path, "the maps are " + shape_string(s) + ": no layer");
        const std::size_t layer_bytes = shape_numel(per_layer) * n.itemsize;
        for (std::int64_t l = 0; l < layers; ++l)
            a.layers_.push_back(Slice{bytes.data() + n.data_offset + std::size_t(l) * layer_bytes,
                                      dtype, n.big_endian, n.itemsize});
        a.dtype_ = dtype_name(dtype);
    } else {
        const std::string suffix = std::filesystem::path(path).extension().string();
        if (suffix != ".safetensors")
            fail(path, "neither a .npy array (no \\x93NUMPY magic) nor a .safetensors file");
        const SafetensorsHeader h = parse_safetensors_header(bytes, path);
        std::vector<const SafetensorsEntry*> by_layer(h.tensors.size(), nullptr);
        for (const SafetensorsEntry& e : h.tensors) {
            const std::int64_t l = layer_index(e.name);
            if (l < 0 || l >= std::int64_t(h.tensors.size()))
                fail(path, "tensor '" + e.name + "' is not one of layer.0 ... layer." +
                               std::to_string(h.tensors.size() - 1) +
                               " (one tensor per layer, named by its index)");
            by_layer[std::size_t(l)] = &e;
        }
        if (h.tensors.empty())
            fail(path, "the file holds no tensor (expected layer.0, layer.1, ...)");
        std::string first_dtype;
        for (std::size_t l = 0; l < by_layer.size(); ++l) {
            const SafetensorsEntry* e = by_layer[l];  // names are unique: every slot is filled
            if (!is_float_dtype(e->dtype))
                fail(path, e->name + " is " + e->dtype + "; the maps must be F16 or F32");
            Shape s = e->shape;
            if (s.size() == 4 && s[0] == 1) s.erase(s.begin());
            if (s.size() != 3)
                fail(path, e->name + " is " + shape_string(e->shape) +
                               "; expected [heads, L, L] or [1, heads, L, L]");
            if (l == 0) {
                per_layer = s;
                first_dtype = e->dtype;
            } else if (s != per_layer) {
                fail(path, e->name + " is " + shape_string(s) + " but layer.0 is " +
                               shape_string(per_layer) + "; every layer must have the same shape");
            }
            a.layers_.push_back(Slice{bytes.data() + h.data_start + e->begin, e->dtype, false,
                                      itemsize_of(e->dtype)});
        }
        a.dtype_ = dtype_name(first_dtype);
    }
    a.heads_ = per_layer[0];
    a.length_ = per_layer[1];
    if (per_layer[1] != per_layer[2])
        fail(path, "the maps are " + std::to_string(per_layer[1]) + " × " +
                       std::to_string(per_layer[2]) +
                       "; each head's map must be square (L × L, queries × keys of one text)");
    if (a.heads_ == 0 || a.length_ == 0)
        fail(path, "the maps are empty: " + std::to_string(a.heads_) + " heads of " +
                       std::to_string(a.length_) + " tokens");
    a.file_ = std::move(file);
    return a;
}

void AttentionArrays::read_layer(std::int64_t layer, float* dst) const {
    read_values(layer, 0, layer_values(), dst);
}

void AttentionArrays::read_head(std::int64_t layer, std::int64_t head, float* dst) const {
    if (head < 0 || head >= heads_)
        fail(path_, "head " + std::to_string(head + 1) + " asked for, but the maps have " +
                        std::to_string(heads_) + " heads (counted from 1)");
    const auto cells = std::size_t(length_ * length_);
    read_values(layer, std::size_t(head) * cells, cells, dst);
}

void AttentionArrays::read_values(std::int64_t layer, std::size_t first, std::size_t n,
                                  float* dst) const {
    if (layer < 0 || layer >= layers())
        fail(path_, "layer " + std::to_string(layer + 1) + " asked for, but the maps have " +
                        std::to_string(layers()) + " layers (counted from 1)");
    const Slice& s = layers_[std::size_t(layer)];
    const char* src = s.data + first * s.itemsize;
    std::size_t bad = n;
    if (s.big_endian) {  // swapped into a copy first: the mapping is read-only
        std::string swapped(src, n * s.itemsize);
        for (std::size_t k = 0; k < n; ++k)
            std::reverse(swapped.begin() + std::ptrdiff_t(k * s.itemsize),
                         swapped.begin() + std::ptrdiff_t((k + 1) * s.itemsize));
        bad = convert_to_float(s.dtype, swapped.data(), dst, n);
    } else {
        bad = convert_to_float(s.dtype, src, dst, n);
    }
    if (bad == n) return;
    const auto L = std::size_t(length_);
    const std::size_t at = first + bad;
    const std::size_t head = at / (L * L), row = at / L % L, column = at % L;
    fail(path_, "layer " + std::to_string(layer + 1) + ", head " + std::to_string(head + 1) +
                    ", row " + std::to_string(row + 1) + ", column " + std::to_string(column + 1) +
                    " is " + (std::isnan(dst[bad]) ? "NaN" : "infinite") +
                    " (counted from 1); attention maps must be finite");
}

void check_tokens(const AttentionArrays& maps, const AttentionTokens& tokens,
                  const std::string& tokens_name) {
    if (std::int64_t(tokens.size()) != maps.length())
        fail(tokens_name, std::to_string(tokens.size()) + " tokens but the maps in " + maps.path() +
                              " are " + std::to_string(maps.length()) + " × " +
                              std::to_string(maps.length()) + ": one token per row");
}

void check_comparable(const AttentionArrays& a, const AttentionArrays& b) {
    const auto shape = [](const AttentionArrays& m) {
        return "[" + std::to_string(m.layers()) + ", " + std::to_string(m.heads()) + ", " +
               std::to_string(m.length()) + ", " + std::to_string(m.length()) + "]";
    };
    const std::pair<const char*, std::pair<std::int64_t, std::int64_t>> sizes[] = {
        {"layers", {b.layers(), a.layers()}},
        {"heads", {b.heads(), a.heads()}},
        {"tokens L", {b.length(), a.length()}}};
    std::string differ;
    for (const auto& [what, n] : sizes)
        if (n.first != n.second)
            differ += std::string(differ.empty() ? "" : ", ") + what + " " +
                      std::to_string(n.first) + " against " + std::to_string(n.second);
    if (!differ.empty())
        fail(b.path(), "its maps are " + shape(b) + " but those of " + a.path() + " are " +
                           shape(a) + " (" + differ +
                           "): two maps compare only with the same layers, heads and tokens");
}

std::string token_difference(const AttentionTokens& a, const AttentionTokens& b,
                             const std::string& a_name, const std::string& b_name) {
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t differ = 0, first = n;
    for (std::size_t k = 0; k < n; ++k)
        if (a.text[k] != b.text[k] && differ++ == 0) first = k;
    if (differ == 0) return {};
    return "the tokens of " + b_name + " differ from " + a_name + "'s at " +
           std::to_string(differ) + " of " + std::to_string(n) + " positions (first: position " +
           std::to_string(first + 1) + ", '" + b.text[first] + "' against '" + a.text[first] +
           "'); the maps are compared position by position";
}

void AttentionScan::add(std::int64_t layer, const float* maps, std::int64_t heads, std::int64_t L) {
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < L; ++i) {
            const float* row = maps + std::size_t((h * L + i) * L);
            double sum = 0.0;
            for (std::int64_t j = 0; j < L; ++j)
                sum += double(row[j]);
            for (std::int64_t j = i + 1; causal_ && j < L; ++j)
                causal_ = row[j] == 0.0f;
            const double deviation = std::abs(sum - 1.0);
            if (deviation > deviation_) {
                deviation_ = deviation;
                sum_ = sum;
                layer_ = layer;
                head_ = h;
                row_ = i;
            }
        }
}

std::string AttentionScan::warning(const std::string& name, double tolerance) const {
    if (deviation_ <= tolerance) return {};
    return name + ": rows do not all sum to 1: layer " + std::to_string(layer_ + 1) + ", head " +
           std::to_string(head_ + 1) + ", row " + std::to_string(row_ + 1) + " sums to " +
           format_sum(sum_) + " (counted from 1)";
}

std::string validate_attention_arrays(const AttentionArrays& maps) {
    std::vector<float> layer(maps.layer_values());
    AttentionScan scan;
    for (std::int64_t l = 0; l < maps.layers(); ++l) {
        maps.read_layer(l, layer.data());
        scan.add(l, layer.data(), maps.heads(), maps.length());
    }
    return scan.warning(maps.path());
}

}  // namespace attnviz::io
