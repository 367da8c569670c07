#include "fuzz/fuzz_entry.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <tuple>
#include <typeinfo>
#include <vector>

#include "app/cli.h"
#include "engine/errors.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "engine/tensor.h"
#include "engine/text/tokenizer.h"

namespace attnviz::fuzz {

namespace {

namespace json = io::json;

[[noreturn]] void violated(const std::string& what) {
    throw InvariantViolation(what);
}

// The message is only built when the check fails: these run for every token and value.
#define ATTNVIZ_FUZZ_CHECK(ok, target, what)                      \
    do {                                                          \
        if (!(ok)) violated(std::string(target) + ": " + (what)); \
    } while (false)

/// f() or nullopt when the parser refuses the input with a documented exception.  Only the
/// parse goes through here: checks on an accepted result run outside, so a DataError thrown
/// while re-serialising a value the reader accepted is reported, not swallowed.
template <typename F>
auto parse_or_refuse(F&& f) -> std::optional<decltype(f())> {
    try {
        return f();
    } catch (const DataError&) {
    } catch (const UsageError&) {
    } catch (const std::invalid_argument&) {
    }
    return std::nullopt;
}

std::string hex_bits(float v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x",
                  static_cast<unsigned>(std::bit_cast<std::uint32_t>(v)));
    return buf;
}

// Bit for bit, so NaN payloads and signed zeros count; names the first difference.
void check_same_floats(const char* target, const std::string& what, const std::vector<float>& a,
                       const std::vector<float>& b) {
    ATTNVIZ_FUZZ_CHECK(
        a.size() == b.size(), target,
        what + ": " + std::to_string(a.size()) + " values became " + std::to_string(b.size()));
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i]))
            violated(std::string(target) + ": " + what + ": value " + std::to_string(i) + " was " +
                     hex_bits(a[i]) + ", became " + hex_bits(b[i]));
}

void check_same_shape(const char* target, const std::string& what, const Shape& a, const Shape& b) {
    ATTNVIZ_FUZZ_CHECK(a == b, target,
                       what + ": shape " + shape_string(a) + " became " + shape_string(b));
}

void check_numel(const char* target, const std::string& what, const Shape& shape, std::size_t n) {
    for (const std::int64_t d : shape)
        ATTNVIZ_FUZZ_CHECK(d >= 0, target,
                           what + " has a negative dimension in " + shape_string(shape));
    // shape_numel throws on overflow, which cannot happen when n values exist; let it escape.
    ATTNVIZ_FUZZ_CHECK(
        shape_numel(shape) == n, target,
        what + " of shape " + shape_string(shape) + " holds " + std::to_string(n) + " values");
}

// ---- .npy --------------------------------------------------------------------------------

Outcome npy(std::string_view input) {
    constexpr const char* kTarget = "npy";
    const std::string bytes(input);
    const std::string name = "fuzz.npy";
    const auto tensor = parse_or_refuse([&] { return io::parse_npy(bytes, name); });
    const auto mask = parse_or_refuse([&] { return io::parse_npy_mask(bytes, name); });

    if (tensor) {
        check_numel(kTarget, "parse_npy's tensor", tensor->shape, tensor->data.size());
        // A float array is also a float (additive) mask with the same values.
        ATTNVIZ_FUZZ_CHECK(mask.has_value(), kTarget,
                           "parse_npy accepted the file but parse_npy_mask refused it");
        ATTNVIZ_FUZZ_CHECK(mask->kind == Mask::Kind::Float, kTarget,
                           "parse_npy accepted the file but parse_npy_mask made a bool mask of it");
        check_same_shape(kTarget, "parse_npy vs parse_npy_mask", tensor->shape, mask->shape);
        check_same_floats(kTarget, "parse_npy vs parse_npy_mask", tensor->data, mask->values);

        const Tensor again = io::parse_npy(io::serialize_npy(*tensor), name);
        check_same_shape(kTarget, "serialize_npy round trip", tensor->shape, again.shape);
        check_same_floats(kTarget, "serialize_npy round trip", tensor->data, again.data);
    }
    if (mask) {
        check_numel(kTarget, "parse_npy_mask's mask", mask->shape, mask->values.size());
        if (mask->kind == Mask::Kind::Bool) {
            ATTNVIZ_FUZZ_CHECK(!tensor, kTarget,
                               "a file parse_npy reads as floats became a bool mask");
            for (std::size_t i = 0; i < mask->values.size(); ++i)
                ATTNVIZ_FUZZ_CHECK(mask->values[i] == 0.0f || mask->values[i] == 1.0f, kTarget,
                                   "bool mask value " + std::to_string(i) + " is " +
                                       hex_bits(mask->values[i]) + ", not 0 or 1");
            const Mask again = io::parse_npy_mask(io::serialize_npy_bool(*mask), name);
            ATTNVIZ_FUZZ_CHECK(
                again.kind == Mask::Kind::Bool, kTarget,
                "serialize_npy_bool round trip: the bool mask came back as a float mask");
            check_same_shape(kTarget, "serialize_npy_bool round trip", mask->shape, again.shape);
            check_same_floats(kTarget, "serialize_npy_bool round trip", mask->values, again.values);
        } else {
            ATTNVIZ_FUZZ_CHECK(tensor.has_value(), kTarget,
                               "parse_npy_mask made a float mask but parse_npy refused the file");
        }
    }
    return tensor || mask ? Outcome::Accepted : Outcome::Rejected;
}

// ---- safetensors -------------------------------------------------------------------------

void check_same_contents(const char* what, const io::SafetensorsContents& a,
                         const io::SafetensorsContents& b) {
    constexpr const char* kTarget = "safetensors";
    ATTNVIZ_FUZZ_CHECK(a.metadata == b.metadata, kTarget,
                       std::string(what) + ": the metadata changed");
    ATTNVIZ_FUZZ_CHECK(a.tensors.size() == b.tensors.size(), kTarget,
                       std::string(what) + ": " + std::to_string(a.tensors.size()) +
                           " tensors became " + std::to_string(b.tensors.size()));
    for (const auto& [tensor_name, t] : a.tensors) {
        const auto it = b.tensors.find(tensor_name);
        ATTNVIZ_FUZZ_CHECK(
            it != b.tensors.end(), kTarget,
            std::string(what) + ": tensor " + json::quote(tensor_name) + " is missing");
        const std::string label = std::string(what) + ", tensor " + json::quote(tensor_name);
        check_same_shape(kTarget, label, t.shape, it->second.shape);
        check_same_floats(kTarget, label, t.data, it->second.data);
    }
}

Outcome safetensors(std::string_view input) {
    constexpr const char* kTarget = "safetensors";
    const std::string bytes(input);
    const auto contents =
        parse_or_refuse([&] { return io::parse_safetensors_contents(bytes, "fuzz.safetensors"); });
    if (!contents) return Outcome::Rejected;

    for (const auto& [tensor_name, t] : contents->tensors) {
        ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(tensor_name), kTarget,
                           "a tensor name is not valid UTF-8");
        ATTNVIZ_FUZZ_CHECK(tensor_name != "__metadata__", kTarget,
                           "a tensor is called __metadata__");
        check_numel(kTarget, "tensor " + json::quote(tensor_name), t.shape, t.data.size());
    }
    for (const auto& [key, value] : contents->metadata)
        ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(key) && json::is_valid_utf8(value), kTarget,
                           "a metadata string is not valid UTF-8");

    // Everything we read we can write, and read back as it was (F16/BF16/F64 come back as F32,
    // which holds their converted values exactly).
    const std::string written = io::serialize_safetensors(contents->tensors, contents->metadata);
    const io::SafetensorsContents again =
        io::parse_safetensors_contents(written, "fuzz.safetensors (re-written)");
    check_same_contents("serialize_safetensors round trip", *contents, again);
    return Outcome::Accepted;
}

// ---- tokenizer ---------------------------------------------------------------------------

std::string token_label(const char* what, std::size_t i) {
    return std::string(what) + " token " + std::to_string(i);
}

// Non-empty, valid UTF-8, and tokens_to_json gives a JSON array of exactly these strings.
void check_tokens(const char* what, const std::vector<std::string>& tokens) {
    constexpr const char* kTarget = "tokenizer";
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        ATTNVIZ_FUZZ_CHECK(!tokens[i].empty(), kTarget, token_label(what, i) + " is empty");
        ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(tokens[i]), kTarget,
                           token_label(what, i) + " is not valid UTF-8");
    }
    const std::string text = text::tokens_to_json(tokens);
    json::Document parsed;
    try {
        parsed = json::parse(text);
    } catch (const json::ParseError& e) {
        violated(std::string(kTarget) + ": tokens_to_json of the " + what +
                 " tokens is not valid JSON: " + e.what());
    }
    const json::Element root = parsed.root();
    ATTNVIZ_FUZZ_CHECK(
        root.type() == json::Type::ARRAY && json::Array(root).size() == tokens.size(), kTarget,
        std::string("tokens_to_json of ") + std::to_string(tokens.size()) + " " + what +
            " tokens does not parse back to as many strings");
    std::size_t i = 0;
    for (const json::Element item : json::Array(root)) {
        const auto text_of_item = json::as_string(item);
        ATTNVIZ_FUZZ_CHECK(text_of_item && *text_of_item == tokens[i], kTarget,
                           token_label(what, i) + " " + json::quote(tokens[i]) +
                               " does not survive tokens_to_json");
        ++i;
    }
}

Outcome tokenizer(std::string_view input) {
    constexpr const char* kTarget = "tokenizer";
    if (input.empty()) {
        ATTNVIZ_FUZZ_CHECK(text::tokenize(input).empty(), kTarget, "the empty text gives tokens");
        return Outcome::Accepted;
    }
    const auto control = static_cast<unsigned char>(input.front());
    const std::string_view text = input.substr(1);
    text::TokenizerOptions options;
    options.lowercase = (control & 1u) != 0;
    options.add_special_tokens = (control & 2u) != 0;
    options.max_tokens = control >> 2;  // 0..63, 0 = no limit

    const std::vector<std::string> tokens = text::tokenize(text, options);
    check_tokens("tokenize", tokens);
    if (options.max_tokens != 0)
        ATTNVIZ_FUZZ_CHECK(tokens.size() <= options.max_tokens, kTarget,
                           std::to_string(tokens.size()) + " tokens for max_tokens " +
                               std::to_string(options.max_tokens));
    if (options.add_special_tokens && !tokens.empty()) {
        ATTNVIZ_FUZZ_CHECK(tokens.front() == "[CLS]", kTarget,
                           "the first special token is not [CLS]");
        if (tokens.size() >= 2)
            ATTNVIZ_FUZZ_CHECK(tokens.back() == "[SEP]", kTarget,
                               "the last special token is not [SEP]");
    }
    if (options.max_tokens != 0 && !options.add_special_tokens) {
        // "Reading stops there": a limit cuts the result, it never changes the tokens before.
        text::TokenizerOptions unlimited = options;
        unlimited.max_tokens = 0;
        const std::vector<std::string> all = text::tokenize(text, unlimited);
        const std::size_t expected = std::min(all.size(), options.max_tokens);
        ATTNVIZ_FUZZ_CHECK(tokens.size() == expected, kTarget,
                           "max_tokens " + std::to_string(options.max_tokens) + " gives " +
                               std::to_string(tokens.size()) + " tokens, but the text has " +
                               std::to_string(all.size()));
        for (std::size_t i = 0; i < tokens.size(); ++i)
            ATTNVIZ_FUZZ_CHECK(tokens[i] == all[i], kTarget,
                               token_label("limited", i) + " " + json::quote(tokens[i]) + " is " +
                                   json::quote(all[i]) + " without the limit");
    }

    const std::vector<std::string> list = text::split_token_list(text);
    check_tokens("split_token_list", list);
    // Each entry is trimmed and holds no line break, so one per line splits back to itself
    // (the final newline keeps a single entry in line mode).
    std::string lines;
    for (const std::string& t : list)
        lines += t + "\n";
    const std::vector<std::string> again = text::split_token_list(lines);
    ATTNVIZ_FUZZ_CHECK(again == list, kTarget,
                       "split_token_list of its own " + std::to_string(list.size()) +
                           " entries, one per line, gives " + std::to_string(again.size()) +
                           " different entries; first entry " +
                           (list.empty() ? std::string("(none)") : json::quote(list.front())));
    return Outcome::Accepted;
}

// ---- options -----------------------------------------------------------------------------

Outcome options(std::string_view input) {
    constexpr const char* kTarget = "options";
    std::vector<std::string> args;
    if (!input.empty()) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t nul = input.find('\0', start);
            args.emplace_back(
                input.substr(start, nul == std::string_view::npos ? nul : nul - start));
            if (nul == std::string_view::npos) break;
            start = nul + 1;
        }
    }
    // The whole command line's parser, without running the command: refusals come back as
    // a result; whatever is thrown is a bug.
    using Kind = cli::ParsedCommandLine::Kind;
    const cli::ParsedCommandLine parsed = cli::parse_command_line(args);
    ATTNVIZ_FUZZ_CHECK(parsed.status == (parsed.kind == Kind::Error ? 2 : 0), kTarget,
                       "exit status " + std::to_string(parsed.status) + " for this outcome");
    if (parsed.kind == Kind::Error) {
        // Exactly one line, naming the subcommand: "attnviz attend: ...".
        const std::string prefix =
            parsed.command.empty() ? "attnviz: " : "attnviz " + parsed.command + ": ";
        ATTNVIZ_FUZZ_CHECK(
            parsed.output.starts_with(prefix) && parsed.output.size() > prefix.size() + 1, kTarget,
            "error without its prefix: " + json::quote(parsed.output));
        ATTNVIZ_FUZZ_CHECK(parsed.output.find('\n') == parsed.output.size() - 1, kTarget,
                           "error is not one line: " + json::quote(parsed.output));
        return Outcome::Rejected;
    }
    if (parsed.kind == Kind::Help || parsed.kind == Kind::Version) {
        ATTNVIZ_FUZZ_CHECK(!parsed.output.empty(), kTarget, "empty help or version");
        return Outcome::Accepted;
    }
    if (parsed.kind == Kind::Gui) {
        // The desktop app opens on one thing at most.
        ATTNVIZ_FUZZ_CHECK(parsed.gui.model_folder.empty() || parsed.gui.session.empty(), kTarget,
                           "the window would open both a model and a session");
    } else {
        ATTNVIZ_FUZZ_CHECK(!args.empty() && args.front() == parsed.command, kTarget,
                           "ran '" + parsed.command + "', which is not the first argument");
    }
    // The configuration, written back as arguments, parses to itself.
    const cli::ParsedCommandLine again = cli::parse_command_line(parsed.canonical);
    ATTNVIZ_FUZZ_CHECK(
        again.kind == parsed.kind, kTarget,
        "the accepted options, written back, are refused: " + json::quote(again.output));
    ATTNVIZ_FUZZ_CHECK(again.command == parsed.command && again.canonical == parsed.canonical &&
                           again.gui.lang == parsed.gui.lang &&
                           again.gui.model_folder == parsed.gui.model_folder &&
                           again.gui.session == parsed.gui.session &&
                           again.gui.qt_arguments == parsed.gui.qt_arguments,
                       kTarget, "the accepted options, written back, parse differently");
    return Outcome::Accepted;
}

// ---- JSON --------------------------------------------------------------------------------

// A double as JSON that parses back to the same bits: the shortest round-trip form, with
// ".0" when it would otherwise read as an integer ("1000", "-0").
std::string write_double(double d) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string out(buf, r.ptr);
    if (out.find_first_of(".eE") == std::string::npos) out += ".0";
    return out;
}

// The harness's own serialiser: compact, members in document order, strings by json::quote.
void write_json(json::Element v, std::string& out) {
    switch (v.type()) {
        case json::Type::NULL_VALUE:
            out += "null";
            return;
        case json::Type::BOOL:
            out += *json::as_bool(v) ? "true" : "false";
            return;
        case json::Type::INT64:
            out += std::to_string(*json::as_int64(v));
            return;
        case json::Type::UINT64:
            out += std::to_string(*json::as_uint64(v));
            return;
        case json::Type::DOUBLE:
            out += write_double(*json::as_double(v));
            return;
        case json::Type::STRING:
            out += json::quote(*json::as_string(v));
            return;
        case json::Type::ARRAY: {
            out += '[';
            bool first = true;
            for (const json::Element item : json::Array(v)) {
                if (!first) out += ',';
                first = false;
                write_json(item, out);
            }
            out += ']';
            return;
        }
        case json::Type::OBJECT: {
            out += '{';
            bool first = true;
            for (const auto [key, value] : json::Object(v)) {
                if (!first) out += ',';
                first = false;
                out += json::quote(key);
                out += ':';
                write_json(value, out);
            }
            out += '}';
            return;
        }
    }
}

// Same type and value (doubles bit for bit, so -0.0 counts), members in the same order.
bool same_json(json::Element a, json::Element b) {
    if (a.type() != b.type()) return false;
    switch (a.type()) {
        case json::Type::NULL_VALUE:
            return true;
        case json::Type::BOOL:
            return *json::as_bool(a) == *json::as_bool(b);
        case json::Type::INT64:
            return *json::as_int64(a) == *json::as_int64(b);
        case json::Type::UINT64:
            return *json::as_uint64(a) == *json::as_uint64(b);
        case json::Type::DOUBLE:
            return std::bit_cast<std::uint64_t>(*json::as_double(a)) ==
                   std::bit_cast<std::uint64_t>(*json::as_double(b));
        case json::Type::STRING:
            return *json::as_string(a) == *json::as_string(b);
        case json::Type::ARRAY: {
            const json::Array x(a), y(b);
            if (x.size() != y.size()) return false;
            auto j = y.begin();
            for (const json::Element item : x) {
                if (!same_json(item, *j)) return false;
                ++j;
            }
            return true;
        }
        case json::Type::OBJECT: {
            const json::Object x(a), y(b);
            if (x.size() != y.size()) return false;
            auto j = y.begin();
            for (const auto [key, value] : x) {
                if (key != j.key() || !same_json(value, j.value())) return false;
                ++j;
            }
            return true;
        }
    }
    return false;
}

void check_value(json::Element v) {
    constexpr const char* kTarget = "json";
    const json::Type t = v.type();
    if (t == json::Type::STRING)
        ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(*json::as_string(v)), kTarget,
                           "a string is not valid UTF-8");
    const auto i = json::as_int64(v);
    const auto u = json::as_uint64(v);
    ATTNVIZ_FUZZ_CHECK(!(i || u) || t == json::Type::INT64 || t == json::Type::UINT64, kTarget,
                       std::string("an integer accessor gives a value for ") + json::type_name(v));
    if (i && u)
        ATTNVIZ_FUZZ_CHECK(*i >= 0 && static_cast<std::uint64_t>(*i) == *u, kTarget,
                           std::to_string(*i) + " reads as two different integers");
    if (t == json::Type::INT64 || t == json::Type::UINT64 || t == json::Type::DOUBLE)
        ATTNVIZ_FUZZ_CHECK(json::as_double(v).has_value(), kTarget, "a number has no double value");
    if (t == json::Type::ARRAY)
        for (const json::Element item : json::Array(v))
            check_value(item);
    if (t != json::Type::OBJECT) return;
    std::size_t k = 0;
    for (const auto [key, value] : json::Object(v)) {
        ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(key), kTarget, "a key is not valid UTF-8");
        // Keys are unique, so find() must give this very member; checking only the first few
        // keeps wide objects linear.
        if (k++ < 8) {
            const auto found = json::find(v, key);
            ATTNVIZ_FUZZ_CHECK(found && found->type() == value.type() &&
                                   (value.type() == json::Type::ARRAY ||
                                    value.type() == json::Type::OBJECT || same_json(*found, value)),
                               kTarget, "find(" + json::quote(key) + ") misses its member");
        }
        check_value(value);
    }
}

Outcome json_document(std::string_view input) {
    constexpr const char* kTarget = "json";
    json::Document v;
    try {
        v = json::parse(input);
    } catch (const json::ParseError& e) {
        ATTNVIZ_FUZZ_CHECK(*e.what() != '\0', kTarget, "a ParseError without a message");
        return Outcome::Rejected;
    }
    // Accepted text is valid UTF-8 throughout (strings, keys, and the whitespace between).
    ATTNVIZ_FUZZ_CHECK(json::is_valid_utf8(input), kTarget, "accepted text is not valid UTF-8");
    check_value(v.root());
    std::string written;
    write_json(v.root(), written);
    json::Document again;
    try {
        again = json::parse(written);
    } catch (const json::ParseError& e) {
        violated(std::string(kTarget) +
                 ": an accepted value, written back, does not parse: " + e.what());
    }
    ATTNVIZ_FUZZ_CHECK(same_json(v.root(), again.root()), kTarget,
                       "an accepted value, written back, parses differently");
    return Outcome::Accepted;
}

constexpr std::array<Target, 9> kTargets = {{{"npy", npy},
                                             {"safetensors", safetensors},
                                             {"tokenizer", tokenizer},
                                             {"options", options},
                                             {"json", json_document},
                                             {"model_config", run_model_config},
                                             {"shard_index", run_shard_index},
                                             {"tokenizer_json", run_tokenizer_json},
                                             {"gguf", run_gguf}}};

}  // namespace

Outcome run_npy(std::string_view input) {
    return npy(input);
}
Outcome run_safetensors(std::string_view input) {
    return safetensors(input);
}
Outcome run_tokenizer(std::string_view input) {
    return tokenizer(input);
}
Outcome run_options(std::string_view input) {
    return options(input);
}
Outcome run_json(std::string_view input) {
    return json_document(input);
}

std::span<const Target> targets() {
    return kTargets;
}

std::span<const std::string_view> target_names() {
    static constexpr std::array<std::string_view, 10> kNames = {
        "npy",          "safetensors", "tokenizer",      "options", "json",
        "model_config", "shard_index", "tokenizer_json", "gguf",    "session"};
    return kNames;
}

const Target* find_target(std::string_view name) {
    for (const Target& t : kTargets)
        if (t.name == name) return &t;
    return nullptr;
}

int run_for_libfuzzer(Outcome (*run)(std::string_view), const std::uint8_t* data,
                      std::size_t size) {
    try {
        run(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "\n==attnviz-fuzz== uncaught %s: %s\n", typeid(e).name(), e.what());
        std::abort();
    } catch (...) {
        std::fprintf(stderr, "\n==attnviz-fuzz== uncaught exception of unknown type\n");
        std::abort();
    }
    return 0;
}

}  // namespace attnviz::fuzz
