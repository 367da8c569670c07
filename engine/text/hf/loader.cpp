// Reading tokenizers: tokenizer.json as tokenizers deserialises it (serialization.rs of each
// component), and folders without one as transformers builds a fast tokenizer from the slow
// tokenizer's files (convert_slow_tokenizer.py: BertConverter, GPT2Converter,
// RobertaConverter).
#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <map>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/text/hf/tokenizer_impl.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

namespace {

namespace json = io::json;
namespace fs = std::filesystem;
using Impl = HfTokenizer::Impl;

/// Reads one JSON file's values with messages that name the file and the path inside it
/// ("tokenizer.json: model.merges[12]: ...").
class Reader {
  public:
    explicit Reader(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw DataError(file_ + ": " + (path.empty() ? what : path + ": " + what));
    }

    json::Document parse(std::string_view text) const {
        try {
            return json::parse(text);
        } catch (const json::ParseError& e) {
            throw DataError(file_ + ": not valid JSON: " + e.what());
        }
    }

    void expect_object(json::Element v, const std::string& path) const {
        if (v.type() != json::Type::OBJECT)
            fail(path, std::string("expected an object, found ") + json::type_name(v));
    }
    void expect_array(json::Element v, const std::string& path) const {
        if (v.type() != json::Type::ARRAY)
            fail(path, std::string("expected an array, found ") + json::type_name(v));
    }

    /// A member that is present and not null.
    std::optional<json::Element> get(json::Element obj, std::string_view key) const {
        auto v = json::find(obj, key);
        if (!v || v->type() == json::Type::NULL_VALUE) return std::nullopt;
        return v;
    }
    json::Element required(json::Element obj, std::string_view key, const std::string& path) const {
        auto v = get(obj, key);
        if (!v) fail(path, "missing \"" + std::string(key) + "\"");
        return *v;
    }
    bool boolean(json::Element obj, std::string_view key, bool fallback,
                 const std::string& path) const {
        const auto v = get(obj, key);
        if (!v) return fallback;
        const auto b = json::as_bool(*v);
        if (!b)
            fail(join(path, key),
                 std::string("expected true or false, found ") + json::type_name(*v));
        return *b;
    }
    std::string string(json::Element v, const std::string& path) const {
        const auto s = json::as_string(v);
        if (!s) fail(path, std::string("expected a string, found ") + json::type_name(v));
        return std::string(*s);
    }
    std::optional<std::string> opt_string(json::Element obj, std::string_view key,
                                          const std::string& path) const {
        const auto v = get(obj, key);
        if (!v) return std::nullopt;
        return string(*v, join(path, key));
    }
    std::uint32_t id(json::Element v, const std::string& path) const {
        const auto u = json::as_uint64(v);
        if (!u || *u > UINT32_MAX)
            fail(path, "id " + describe(v) + " is out of range (ids are integers 0..4294967295)");
        return static_cast<std::uint32_t>(*u);
    }
    std::uint64_t count(json::Element obj, std::string_view key, std::uint64_t fallback,
                        const std::string& path) const {
        const auto v = get(obj, key);
        if (!v) return fallback;
        const auto u = json::as_uint64(*v);
        if (!u) fail(join(path, key), "expected a non-negative integer, found " + describe(*v));
        return *u;
    }
    char32_t one_char(json::Element v, const std::string& path) const {
        const std::string s = string(v, path);
        std::size_t len = 0;
        if (s.empty() || (uni::decode(s, 0, &len), len != s.size()))
            fail(path, "expected one character, found " + json::quote(s));
        return uni::decode(s, 0, &len);
    }

    static std::string join(const std::string& path, std::string_view key) {
        return path.empty() ? std::string(key) : path + "." + std::string(key);
    }
    static std::string describe(json::Element v) {
        if (const auto s = json::as_string(v)) return json::quote(*s);
        if (const auto i = json::as_int64(v)) return std::to_string(*i);
        if (const auto u = json::as_uint64(v)) return std::to_string(*u);
        if (const auto d = json::as_double(v)) return std::to_string(*d);
        return json::type_name(v);
    }

  private:
    std::string file_;
};

std::string type_of(const Reader& r, json::Element v, const std::string& path) {
    r.expect_object(v, path);
    const auto t = r.get(v, "type");
    if (!t) r.fail(path, "missing \"type\"");
    return r.string(*t, path + ".type");
}

[[noreturn]] void unsupported(const Reader& r, const std::string& path, const std::string& type,
                              const char* supported) {
    r.fail(path, "type " + json::quote(type) + " is not supported (supported: " + supported + ")");
}

Regex pattern_of(const Reader& r, json::Element v, const std::string& path) {
    // {"String": "..."} or {"Regex": "..."}
    r.expect_object(v, path);
    const auto s = r.get(v, "String");
    const auto re = r.get(v, "Regex");
    if (bool(s) == bool(re)) r.fail(path, "expected {\"String\": ...} or {\"Regex\": ...}");
    try {
        if (s) return Regex::literal(r.string(*s, path + ".String"));
        return Regex::compile(r.string(*re, path + ".Regex"));
    } catch (const DataError&) {
        throw;
    } catch (const std::runtime_error& e) {
        r.fail(path, e.what());
    }
}

SplitBehavior behavior_of(const Reader& r, json::Element v, const std::string& path) {
    const std::string b = r.string(v, path);
    if (b == "Removed") return SplitBehavior::Removed;
    if (b == "Isolated") return SplitBehavior::Isolated;
    if (b == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
    if (b == "MergedWithNext") return SplitBehavior::MergedWithNext;
    if (b == "Contiguous") return SplitBehavior::Contiguous;
    r.fail(path, "unknown behavior " + json::quote(b) +
                     " (Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous)");
}

/// The items of a "Sequence" component (normalizers, pretokenizers, processors), each read
/// by the function that reads a lone component of that kind.
template <class Component>
std::vector<std::unique_ptr<Component>> sequence_of(
    const Reader& r, json::Element v, std::string_view key, const std::string& path,
    std::unique_ptr<Component> (*item_of)(const Reader&, json::Element, const std::string&)) {
    const std::string list_path = Reader::join(path, key);
    const json::Element list = r.required(v, key, path);
    r.expect_array(list, list_path);
    std::vector<std::unique_ptr<Component>> items;
    std::size_t i = 0;
    for (const json::Element item : json::Array(list))
        items.push_back(item_of(r, item, list_path + "[" + std::to_string(i++) + "]"));
    return items;
}

// ---- normalizer -------------------------------------------------------------------------

std::unique_ptr<Normalizer> normalizer_of(const Reader& r, json::Element v,
                                          const std::string& path) {
    const std::string type = type_of(r, v, path);
    if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
        auto n = std::make_unique<UnicodeNormalizer>();
        n->compose = type == "NFC" || type == "NFKC";
        n->compatibility = type == "NFKC" || type == "NFKD";
        return n;
    }
    if (type == "Lowercase") return std::make_unique<LowercaseNormalizer>();
    if (type == "StripAccents") return std::make_unique<StripAccentsNormalizer>();
    if (type == "Nmt") return std::make_unique<NmtNormalizer>();
    if (type == "Strip") {
        auto n = std::make_unique<StripNormalizer>();
        n->left = r.boolean(v, "strip_left", true, path);
        n->right = r.boolean(v, "strip_right", true, path);
        return n;
    }
    if (type == "BertNormalizer") {
        auto n = std::make_unique<BertNormalizer>();
        n->clean_text = r.boolean(v, "clean_text", true, path);
        n->handle_chinese_chars = r.boolean(v, "handle_chinese_chars", true, path);
        n->lowercase = r.boolean(v, "lowercase", true, path);
        if (r.get(v, "strip_accents"))
            n->strip_accents = r.boolean(v, "strip_accents", false, path);
        return n;
    }
    if (type == "Prepend") {
        auto n = std::make_unique<PrependNormalizer>();
        n->prepend = r.string(r.required(v, "prepend", path), path + ".prepend");
        return n;
    }
    if (type == "Replace") {
        auto n = std::make_unique<ReplaceNormalizer>();
        n->pattern = pattern_of(r, r.required(v, "pattern", path), path + ".pattern");
        n->content = r.string(r.required(v, "content", path), path + ".content");
        return n;
    }
    if (type == "Sequence") {
        auto n = std::make_unique<SequenceNormalizer>();
        n->normalizers = sequence_of(r, v, "normalizers", path, normalizer_of);
        return n;
    }
    unsupported(r, path, type,
                "BertNormalizer, NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, Prepend, "
                "Replace, Nmt, Sequence");
}

// ---- pre-tokenizer ----------------------------------------------------------------------

std::unique_ptr<PreTokenizer> pre_tokenizer_of(const Reader& r, json::Element v,
                                               const std::string& path) {
    const std::string type = type_of(r, v, path);
    if (type == "BertPreTokenizer") return std::make_unique<BertPreTokenizer>();
    if (type == "Whitespace") return std::make_unique<WhitespacePreTokenizer>();
    if (type == "WhitespaceSplit") return std::make_unique<WhitespaceSplitPreTokenizer>();
    if (type == "ByteLevel") {
        auto p = std::make_unique<ByteLevelPreTokenizer>();
        p->add_prefix_space = r.boolean(v, "add_prefix_space", true, path);
        p->use_regex = r.boolean(v, "use_regex", true, path);
        return p;
    }
    if (type == "Metaspace") {
        auto p = std::make_unique<MetaspacePreTokenizer>();
        p->replacement = r.one_char(r.required(v, "replacement", path), path + ".replacement");
        p->split = r.boolean(v, "split", true, path);
        if (const auto s = r.opt_string(v, "prepend_scheme", path)) {
            if (*s == "always")
                p->prepend_scheme = MetaspacePreTokenizer::Prepend::Always;
            else if (*s == "first")
                p->prepend_scheme = MetaspacePreTokenizer::Prepend::First;
            else if (*s == "never")
                p->prepend_scheme = MetaspacePreTokenizer::Prepend::Never;
            else
                r.fail(path + ".prepend_scheme",
                       "unknown scheme " + json::quote(*s) + " (always, first, never)");
        }
        // Files older than prepend_scheme say add_prefix_space; tokenizers accepts false only
        // together with "never" (or no scheme, which then defaults to "always" and fails).
        if (r.get(v, "add_prefix_space") && !r.boolean(v, "add_prefix_space", true, path)) {
            if (p->prepend_scheme != MetaspacePreTokenizer::Prepend::Never)
                r.fail(path, "add_prefix_space does not match declared prepend_scheme");
        }
        return p;
    }
    if (type == "Split") {
        auto p = std::make_unique<SplitPreTokenizer>();
        p->pattern = pattern_of(r, r.required(v, "pattern", path), path + ".pattern");
        p->behavior = behavior_of(r, r.required(v, "behavior", path), path + ".behavior");
        p->invert = r.boolean(v, "invert", false, path);
        return p;
    }
    if (type == "Punctuation") {
        auto p = std::make_unique<PunctuationPreTokenizer>();
        if (const auto b = r.get(v, "behavior"))
            p->behavior = behavior_of(r, *b, path + ".behavior");
        return p;
    }
    if (type == "Digits") {
        auto p = std::make_unique<DigitsPreTokenizer>();
        p->individual_digits = r.boolean(v, "individual_digits", false, path);
        return p;
    }
    if (type == "CharDelimiterSplit") {
        auto p = std::make_unique<CharDelimiterPreTokenizer>();
        p->delimiter = r.one_char(r.required(v, "delimiter", path), path + ".delimiter");
        return p;
    }
    if (type == "Sequence") {
        auto p = std::make_unique<SequencePreTokenizer>();
        p->pre_tokenizers = sequence_of(r, v, "pretokenizers", path, pre_tokenizer_of);
        return p;
    }
    unsupported(r, path, type,
                "BertPreTokenizer, ByteLevel, Metaspace, Split, Whitespace, WhitespaceSplit, "
                "Punctuation, Digits, CharDelimiterSplit, Sequence");
}

// ---- model ------------------------------------------------------------------------------

void read_vocab(const Reader& r, json::Element v, const std::string& path, Vocab& vocab) {
    r.expect_object(v, path);
    const json::Object obj(v);
    std::size_t bytes = 0, n = 0;
    for (const auto [key, value] : obj) {
        bytes += key.size();
        ++n;
    }
    if (n == 0) r.fail(path, "the vocabulary is empty");
    vocab.reserve(n, bytes);
    for (const auto [key, value] : obj) {
        const std::uint32_t id = r.id(value, path + "[" + json::quote(key) + "]");
        vocab.add(key, id);
    }
    vocab.finish();
}

/// A vocabulary handed over as a list (ModelLists): token i has id i.
void read_vocab_list(const Reader& r, std::span<const std::string_view> tokens,
                     const std::string& path, Vocab& vocab) {
    if (tokens.empty()) r.fail(path, "the vocabulary is empty");
    std::size_t bytes = 0;
    for (const std::string_view t : tokens)
        bytes += t.size();
    vocab.reserve(tokens.size(), bytes);
    // In batches, as the merges are looked up: each slot asked for before it is needed.
    constexpr std::size_t kBatch = 32;
    std::array<std::uint64_t, kBatch> hashes;
    for (std::size_t start = 0; start < tokens.size(); start += kBatch) {
        const std::size_t n = std::min(kBatch, tokens.size() - start);
        for (std::size_t k = 0; k < n; ++k) {
            hashes[k] = hash_bytes(tokens[start + k]);
            vocab.prefetch_slot(hashes[k]);
        }
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = start + k;
            if (!vocab.add(tokens[i], static_cast<std::uint32_t>(i), false, hashes[k]))
                r.fail(path + "[" + std::to_string(i) + "]",  // as a JSON key given twice
                       "the token " + json::quote(tokens[i]) + " is in the vocabulary twice");
        }
    }
    vocab.finish();
}

/// One merge about to be added: its two tokens, the token they make (`merged`: `a` then `b`
/// without the continuing_subword_prefix) and the three hashes.
struct MergeLookup {
    std::string_view a, b;
    std::string merged;
    std::uint64_t ha = 0, hb = 0, hm = 0;
    void set(std::string_view first, std::string_view second, std::size_t prefix_len) {
        a = first;
        b = second;
        merged.assign(a);
        if (b.size() >= prefix_len) merged.append(b.substr(prefix_len));  // else refused
        ha = hash_bytes(a);
        hb = hash_bytes(b);
        hm = hash_bytes(merged);
    }
};

/// Merge `rank` into the BPE's table.  Refusals name the merge as `path`[rank].
void add_merge(const Reader& r, const std::string& path, std::uint32_t rank, const MergeLookup& m,
               std::size_t prefix_len, BpeModel& bpe) {
    const auto where = [&] { return path + "[" + std::to_string(rank) + "]"; };
    const auto a_id = bpe.vocab().find(m.a, m.ha);
    if (!a_id) r.fail(where(), json::quote(m.a) + " is not in the vocabulary");
    const auto b_id = bpe.vocab().find(m.b, m.hb);
    if (!b_id) r.fail(where(), json::quote(m.b) + " is not in the vocabulary");
    if (m.b.size() < prefix_len)
        r.fail(where(), json::quote(m.b) + " is shorter than the continuing_subword_prefix");
    const auto new_id = bpe.vocab().find(m.merged, m.hm);
    if (!new_id)
        r.fail(where(), "the merged token " + json::quote(m.merged) + " is not in the vocabulary");
    // Collected into a hash map: a repeated pair keeps its last rank.
    bpe.merges.insert(*a_id, *b_id, rank, *new_id, /*overwrite=*/true);
}

/// "a b" as its two tokens; refused unless there is exactly one space.
std::pair<std::string_view, std::string_view> merge_halves(const Reader& r, const std::string& path,
                                                           std::uint32_t rank,
                                                           std::string_view line) {
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos)
        r.fail(path + "[" + std::to_string(rank) + "]",
               json::quote(line) + " is not two tokens separated by one space");
    return {line.substr(0, space), line.substr(space + 1)};
}

std::size_t prefix_length(const BpeModel& bpe) {
    return bpe.continuing_subword_prefix ? bpe.continuing_subword_prefix->size() : 0;
}

void read_merges(const Reader& r, json::Element v, const std::string& path, BpeModel& bpe) {
    r.expect_array(v, path);
    const json::Array list(v);
    const std::size_t prefix_len = prefix_length(bpe);
    bpe.merges.reserve(list.size());
    // tokenizers accepts a list of "a b" strings or a list of [a, b] pairs, not a mix.
    std::optional<bool> as_strings;
    MergeLookup m;
    std::uint32_t rank = 0;
    for (const json::Element item : list) {
        std::string_view a, b;
        const bool is_string = item.type() == json::Type::STRING;
        if (!as_strings) as_strings = is_string;
        if (*as_strings != is_string)
            r.fail(path + "[" + std::to_string(rank) + "]",
                   "merges must be all \"a b\" strings or all [a, b] pairs");
        if (is_string) {
            std::tie(a, b) = merge_halves(r, path, rank, *json::as_string(item));
        } else {
            const std::string where = path + "[" + std::to_string(rank) + "]";
            if (item.type() != json::Type::ARRAY || json::Array(item).size() != 2)
                r.fail(where, "expected a pair [a, b] of tokens");
            const json::Array pair(item);
            const auto first = json::as_string(pair.at(0).value_unsafe());
            const auto second = json::as_string(pair.at(1).value_unsafe());
            if (!first || !second) r.fail(where, "expected a pair [a, b] of strings");
            a = *first;
            b = *second;
        }
        m.set(a, b, prefix_len);
        add_merge(r, path, rank, m, prefix_len, bpe);
        ++rank;
    }
}

/// Merges handed over as "a b" lines (ModelLists), in rank order.
void read_merge_list(const Reader& r, std::span<const std::string_view> lines,
                     const std::string& path, BpeModel& bpe) {
    const std::size_t prefix_len = prefix_length(bpe);
    bpe.merges.reserve(lines.size());
    // In batches: every lookup's slot and entry asked for before the first is needed.
    constexpr std::size_t kBatch = 32;
    std::array<MergeLookup, kBatch> batch;
    const Vocab& vocab = bpe.vocab();
    for (std::size_t start = 0; start < lines.size(); start += kBatch) {
        const std::size_t n = std::min(kBatch, lines.size() - start);
        for (std::size_t k = 0; k < n; ++k) {
            const auto rank = static_cast<std::uint32_t>(start + k);
            const auto [a, b] = merge_halves(r, path, rank, lines[rank]);
            MergeLookup& m = batch[k];
            m.set(a, b, prefix_len);
            for (const std::uint64_t h : {m.ha, m.hb, m.hm})
                vocab.prefetch_slot(h);
        }
        for (std::size_t k = 0; k < n; ++k)
            for (const std::uint64_t h : {batch[k].ha, batch[k].hb, batch[k].hm})
                vocab.prefetch_entry(h);
        for (std::size_t k = 0; k < n; ++k)
            add_merge(r, path, static_cast<std::uint32_t>(start + k), batch[k], prefix_len, bpe);
    }
}

std::unique_ptr<Model> model_of(const Reader& r, json::Element v, const std::string& path,
                                const ModelLists* lists) {
    // The vocabulary (and a BPE's merges) from the lists when they are given, else the JSON's.
    const auto vocab_of = [&](Vocab& vocab) {
        if (lists)
            read_vocab_list(r, lists->vocab, path + ".vocab", vocab);
        else
            read_vocab(r, r.required(v, "vocab", path), path + ".vocab", vocab);
    };
    r.expect_object(v, path);
    std::string type;
    if (const auto t = r.get(v, "type")) {
        type = r.string(*t, path + ".type");
    } else if (r.get(v, "merges")) {  // files from before "type": guess as tokenizers does
        type = "BPE";
    } else if (r.get(v, "continuing_subword_prefix") || r.get(v, "max_input_chars_per_word")) {
        type = "WordPiece";
    } else {
        type = "WordLevel";
    }
    if (type == "BPE") {
        auto m = std::make_unique<BpeModel>();
        m->name = r.file();
        // dropout only makes Python's output random; a value outside [0, 1] is refused there.
        if (const auto d = r.get(v, "dropout")) {
            const auto p = json::as_double(*d);
            if (!p || !(*p >= 0.0 && *p <= 1.0))
                r.fail(path + ".dropout", "expected null or a number in [0, 1]");
        }
        m->unk_token = r.opt_string(v, "unk_token", path);
        m->continuing_subword_prefix = r.opt_string(v, "continuing_subword_prefix", path);
        m->end_of_word_suffix = r.opt_string(v, "end_of_word_suffix", path);
        m->fuse_unk = r.boolean(v, "fuse_unk", false, path);
        m->byte_fallback = r.boolean(v, "byte_fallback", false, path);
        m->ignore_merges = r.boolean(v, "ignore_merges", false, path);
        vocab_of(m->vocab());
        if (lists)
            read_merge_list(r, lists->merges, path + ".merges", *m);
        else
            read_merges(r, r.required(v, "merges", path), path + ".merges", *m);
        m->finish();
        return m;
    }
    if (type == "WordPiece") {
        auto m = std::make_unique<WordPieceModel>();
        m->name = r.file();
        if (const auto s = r.opt_string(v, "unk_token", path)) m->unk_token = *s;
        if (const auto s = r.opt_string(v, "continuing_subword_prefix", path))
            m->continuing_subword_prefix = *s;
        m->max_input_chars_per_word = r.count(v, "max_input_chars_per_word", 100, path);
        vocab_of(m->vocab());
        return m;
    }
    if (type == "WordLevel") {
        auto m = std::make_unique<WordLevelModel>();
        m->name = r.file();
        if (const auto s = r.opt_string(v, "unk_token", path)) m->unk_token = *s;
        vocab_of(m->vocab());
        return m;
    }
    unsupported(r, path, type, "BPE, WordPiece, WordLevel");
}

// ---- post-processor ---------------------------------------------------------------------

std::pair<std::string, std::uint32_t> token_pair(const Reader& r, json::Element v,
                                                 const std::string& path) {
    if (v.type() != json::Type::ARRAY || json::Array(v).size() != 2)
        r.fail(path, "expected [token, id]");
    const json::Array a(v);
    return {r.string(a.at(0).value_unsafe(), path + "[0]"),
            r.id(a.at(1).value_unsafe(), path + "[1]")};
}

std::vector<TemplateProcessing::Piece> template_of(const Reader& r, json::Element v,
                                                   const std::string& path) {
    r.expect_array(v, path);
    std::vector<TemplateProcessing::Piece> out;
    std::size_t i = 0;
    for (const json::Element item : json::Array(v)) {
        const std::string where = path + "[" + std::to_string(i++) + "]";
        r.expect_object(item, where);
        TemplateProcessing::Piece p;
        if (const auto seq = r.get(item, "Sequence")) {
            r.expect_object(*seq, where + ".Sequence");
            p.is_sequence = true;
            const std::string id =
                r.string(r.required(*seq, "id", where + ".Sequence"), where + ".Sequence.id");
            if (id != "A" && id != "B") r.fail(where + ".Sequence.id", "expected \"A\" or \"B\"");
            p.sequence = id == "B" ? 1 : 0;
            p.type_id =
                r.id(r.required(*seq, "type_id", where + ".Sequence"), where + ".Sequence.type_id");
        } else if (const auto sp = r.get(item, "SpecialToken")) {
            r.expect_object(*sp, where + ".SpecialToken");
            p.is_sequence = false;
            p.token = r.string(r.required(*sp, "id", where + ".SpecialToken"),
                               where + ".SpecialToken.id");
            p.type_id = r.id(r.required(*sp, "type_id", where + ".SpecialToken"),
                             where + ".SpecialToken.type_id");
        } else {
            r.fail(where, "expected {\"Sequence\": ...} or {\"SpecialToken\": ...}");
        }
        out.push_back(std::move(p));
    }
    return out;
}

std::unique_ptr<PostProcessor> post_processor_of(const Reader& r, json::Element v,
                                                 const std::string& path) {
    const std::string type = type_of(r, v, path);
    if (type == "BertProcessing") {
        auto p = std::make_unique<BertProcessing>();
        p->sep = token_pair(r, r.required(v, "sep", path), path + ".sep");
        p->cls = token_pair(r, r.required(v, "cls", path), path + ".cls");
        return p;
    }
    if (type == "RobertaProcessing") {
        auto p = std::make_unique<RobertaProcessing>();
        p->sep = token_pair(r, r.required(v, "sep", path), path + ".sep");
        p->cls = token_pair(r, r.required(v, "cls", path), path + ".cls");
        p->trim_offsets = r.boolean(v, "trim_offsets", true, path);
        p->add_prefix_space = r.boolean(v, "add_prefix_space", true, path);
        return p;
    }
    if (type == "ByteLevel") {
        auto p = std::make_unique<ByteLevelProcessing>();
        p->trim_offsets = r.boolean(v, "trim_offsets", true, path);
        p->add_prefix_space = r.boolean(v, "add_prefix_space", true, path);
        return p;
    }
    if (type == "TemplateProcessing") {
        auto p = std::make_unique<TemplateProcessing>();
        p->single = template_of(r, r.required(v, "single", path), path + ".single");
        p->pair = template_of(r, r.required(v, "pair", path), path + ".pair");
        const json::Element specials = r.required(v, "special_tokens", path);
        r.expect_object(specials, path + ".special_tokens");
        for (const auto [key, value] : json::Object(specials)) {
            const std::string where = path + ".special_tokens[" + json::quote(key) + "]";
            r.expect_object(value, where);
            TemplateProcessing::Special s;
            const json::Element ids = r.required(value, "ids", where);
            const json::Element tokens = r.required(value, "tokens", where);
            r.expect_array(ids, where + ".ids");
            r.expect_array(tokens, where + ".tokens");
            for (const json::Element id : json::Array(ids))
                s.ids.push_back(r.id(id, where + ".ids"));
            for (const json::Element t : json::Array(tokens))
                s.tokens.push_back(r.string(t, where + ".tokens"));
            if (s.ids.size() != s.tokens.size())
                r.fail(where, std::to_string(s.ids.size()) + " ids but " +
                                  std::to_string(s.tokens.size()) + " tokens");
            p->specials.emplace(std::string(key), std::move(s));
        }
        for (const auto* tmpl : {&p->single, &p->pair})
            for (const auto& piece : *tmpl)
                if (!piece.is_sequence && !p->specials.count(piece.token))
                    r.fail(path, "the template uses " + json::quote(piece.token) +
                                     ", which special_tokens does not define");
        for (const auto& piece : p->single)
            if (piece.is_sequence && piece.sequence == 1)
                r.fail(path + ".single", "the template for one text uses $B");
        return p;
    }
    if (type == "Sequence") {
        auto p = std::make_unique<SequenceProcessing>();
        p->processors = sequence_of(r, v, "processors", path, post_processor_of);
        return p;
    }
    unsupported(r, path, type,
                "TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence");
}

// ---- shared finishing -------------------------------------------------------------------

std::string describe_kind(const Impl& t, const std::string& source) {
    std::string kind;
    if (const auto* bpe = dynamic_cast<const BpeModel*>(t.model.get())) {
        kind = "BPE";
        if (t.byte_level) kind += ", byte-level";
        if (bpe->byte_fallback) kind += ", byte fallback";
        if (bpe->ignore_merges) kind += ", ignore_merges";
    } else if (dynamic_cast<const WordPieceModel*>(t.model.get())) {
        kind = "WordPiece";
    } else {
        kind = "WordLevel";
    }
    return kind + " (" + source + ")";
}

/// Ids the post-processor adds must exist: an embedding has no row for any other.
void check_post_processor_ids(const Impl& t, const Reader& r) {
    if (!t.post_processor) return;
    std::uint64_t limit = t.model->vocab().id_limit();
    for (const auto& [id, tok] : t.added.tokens())
        limit = std::max<std::uint64_t>(limit, std::uint64_t(id) + 1);
    std::vector<std::pair<std::string, std::uint32_t>> specials;
    t.post_processor->special_tokens(specials);
    for (const auto& [token, id] : specials)
        if (id >= limit)
            r.fail("post_processor", json::quote(token) + " has id " + std::to_string(id) +
                                         ", but the vocabulary's ids end at " +
                                         std::to_string(limit - 1));
}

void finish(Impl& t) {
    t.byte_level = t.pre_tokenizer && t.pre_tokenizer->byte_level();
    const auto* bpe = dynamic_cast<const BpeModel*>(t.model.get());
    t.byte_fallback = bpe && bpe->byte_fallback;
}

// ---- tokenizer_config.json / special_tokens_map.json ------------------------------------

/// What transformers reads from tokenizer_config.json and special_tokens_map.json.
struct TokenizerConfig {
    std::map<std::string, AddedToken> special;  // "bos_token" -> token, ...
    std::vector<AddedToken> additional_special;
    std::vector<std::pair<std::uint32_t, AddedToken>> added_tokens_decoder;
    std::optional<bool> do_lower_case, tokenize_chinese_chars, add_prefix_space, add_bos_token,
        add_eos_token, trim_offsets;
    std::optional<std::optional<bool>> strip_accents;  // present: null or a value
    std::string tokenizer_class;
    std::optional<std::int64_t> model_max_length;
};

/// A special token written as a string (special, not normalised) or as an AddedToken object.
std::optional<AddedToken> config_token(const Reader& r, json::Element v, const std::string& path) {
    if (v.type() == json::Type::NULL_VALUE) return std::nullopt;
    AddedToken t;
    t.special = true;
    t.normalized = false;
    if (const auto s = json::as_string(v)) {
        t.content = std::string(*s);
        return t;
    }
    r.expect_object(v, path);
    t.content = r.string(r.required(v, "content", path), path + ".content");
    t.single_word = r.boolean(v, "single_word", false, path);
    t.lstrip = r.boolean(v, "lstrip", false, path);
    t.rstrip = r.boolean(v, "rstrip", false, path);
    t.normalized = r.boolean(v, "normalized", false, path);
    t.special = r.boolean(v, "special", true, path);
    return t;
}

constexpr const char* kSpecialKeys[] = {"bos_token", "eos_token", "unk_token", "sep_token",
                                        "pad_token", "cls_token", "mask_token"};

void read_special_tokens(const Reader& r, json::Element root, TokenizerConfig& c) {
    for (const char* key : kSpecialKeys)
        if (const auto v = json::find(root, key)) {
            if (const auto t = config_token(r, *v, key))
                c.special[key] = *t;
            else
                c.special.erase(key);
        }
    if (const auto v = r.get(root, "additional_special_tokens")) {
        r.expect_array(*v, "additional_special_tokens");
        c.additional_special.clear();
        std::size_t i = 0;
        for (const json::Element item : json::Array(*v))
            if (const auto t =
                    config_token(r, item, "additional_special_tokens[" + std::to_string(i++) + "]"))
                c.additional_special.push_back(*t);
    }
}

std::optional<bool> opt_bool(const Reader& r, json::Element root, std::string_view key) {
    if (!r.get(root, key)) return std::nullopt;
    return r.boolean(root, key, false, "");
}

TokenizerConfig read_config(const fs::path& dir) {
    TokenizerConfig c;
    const fs::path config = dir / "tokenizer_config.json";
    if (fs::exists(config)) {
        const Reader r(config.string());
        const std::string text = io::read_file(config.string());
        const json::Document doc = r.parse(text);
        const json::Element root = doc.root();
        r.expect_object(root, "");
        read_special_tokens(r, root, c);
        c.do_lower_case = opt_bool(r, root, "do_lower_case");
        c.tokenize_chinese_chars = opt_bool(r, root, "tokenize_chinese_chars");
        c.add_prefix_space = opt_bool(r, root, "add_prefix_space");
        c.add_bos_token = opt_bool(r, root, "add_bos_token");
        c.add_eos_token = opt_bool(r, root, "add_eos_token");
        c.trim_offsets = opt_bool(r, root, "trim_offsets");
        if (const auto v = json::find(root, "strip_accents"))
            c.strip_accents =
                v->type() == json::Type::NULL_VALUE
                    ? std::optional<bool>{}
                    : std::optional<bool>{r.boolean(root, "strip_accents", false, "")};
        if (const auto s = r.opt_string(root, "tokenizer_class", "")) c.tokenizer_class = *s;
        if (const auto v = r.get(root, "model_max_length")) {
            // An integer past 64 bits (transformers' 1e30) reads as a double: no limit.
            const auto d = json::as_double(*v);
            if (!d || !(*d >= 1)) r.fail("model_max_length", "expected a positive number");
            if (*d < 1e15) c.model_max_length = static_cast<std::int64_t>(*d);
        }
        if (const auto v = r.get(root, "added_tokens_decoder")) {
            r.expect_object(*v, "added_tokens_decoder");
            for (const auto [key, value] : json::Object(*v)) {
                const std::string where = "added_tokens_decoder[" + json::quote(key) + "]";
                std::uint64_t id = 0;
                const bool digits = !key.empty() && key.size() <= 10 &&
                                    std::all_of(key.begin(), key.end(),
                                                [](char ch) { return ch >= '0' && ch <= '9'; });
                if (digits) id = std::stoull(std::string(key));
                if (!digits || id > UINT32_MAX) r.fail(where, "the key is not an id");
                auto t = config_token(r, value, where);
                if (!t) r.fail(where, "expected a token");
                // Objects here say "special" themselves; strings are not special.
                if (value.type() == json::Type::STRING) t->special = false;
                c.added_tokens_decoder.emplace_back(static_cast<std::uint32_t>(id), *t);
            }
            std::sort(c.added_tokens_decoder.begin(), c.added_tokens_decoder.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; });
        }
    }
    // transformers lets special_tokens_map.json override tokenizer_config.json.
    const fs::path map = dir / "special_tokens_map.json";
    if (fs::exists(map)) {
        const Reader r(map.string());
        const std::string text = io::read_file(map.string());
        const json::Document doc = r.parse(text);
        r.expect_object(doc.root(), "");
        read_special_tokens(r, doc.root(), c);
    }
    return c;
}

/// The added tokens PreTrainedTokenizerFast.__init__ adds to its backend: the entries of
/// added_tokens_decoder by id (identical ones are already there and skipped by add_tokens; a
/// different one replaces the flags of the token with that content), then the special tokens
/// (bos, eos, unk, sep, pad, cls, mask, additional) the backend does not have yet.  A special
/// token given as a string becomes AddedToken(content, special=True): not normalised.
std::vector<AddedToken> tokens_to_add(const TokenizerConfig& c, const AddedVocabulary& backend) {
    std::vector<AddedToken> out;
    const auto has = [&](const std::string& content) {
        return backend.find(content).has_value() ||
               std::any_of(out.begin(), out.end(),
                           [&](const AddedToken& t) { return t.content == content; });
    };
    std::vector<std::string> specials;
    for (const auto& [key, t] : c.special)
        specials.push_back(t.content);
    for (const AddedToken& t : c.additional_special)
        specials.push_back(t.content);
    const auto listed = [&](const std::string& content) {
        return std::find(specials.begin(), specials.end(), content) != specials.end();
    };
    for (const auto& [id, t] : c.added_tokens_decoder) {
        AddedToken copy = t;
        copy.special = copy.special || listed(copy.content);
        out.push_back(std::move(copy));
    }
    for (const char* key : kSpecialKeys)
        if (const auto it = c.special.find(key); it != c.special.end() && !has(it->second.content))
            out.push_back(it->second);
    for (const AddedToken& t : c.additional_special)
        if (!has(t.content)) out.push_back(t);
    return out;
}

std::string special_or(const TokenizerConfig& c, const char* key, const char* fallback) {
    const auto it = c.special.find(key);
    return it == c.special.end() ? fallback : it->second.content;
}

/// convert_tokens_to_ids for a slow tokenizer: the token's id, else the unk token's.
std::uint32_t slow_token_id(const Impl& t, const std::string& token, const std::string& unk,
                            const std::string& file) {
    if (const auto id = t.added.find(token)) return *id;
    if (const auto id = t.model->vocab().find(token)) return *id;
    if (const auto id = t.model->vocab().find(unk)) return *id;
    throw DataError(file + ": the special token " + token + " is not in the vocabulary");
}

std::vector<std::string_view> lines_of(std::string_view text) {
    // Python's text mode: "\r\n" and "\r" end lines as "\n" does; no empty last line.
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r') continue;
        lines.push_back(text.substr(start, i - start));
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        start = i + 1;
    }
    if (start < text.size()) lines.push_back(text.substr(start));
    return lines;
}

// ---- folders ----------------------------------------------------------------------------

std::unique_ptr<Impl> load_vocab_txt(const fs::path& dir, const TokenizerConfig& c) {
    const std::string file = (dir / "vocab.txt").string();
    const std::string text = io::read_file(file);
    if (!json::is_valid_utf8(text)) throw DataError(file + ": not valid UTF-8");
    auto model = std::make_unique<WordPieceModel>();
    model->name = file;
    const auto lines = lines_of(text);
    if (lines.empty()) throw DataError(file + ": the vocabulary is empty");
    if (lines.size() > UINT32_MAX) throw DataError(file + ": too many lines");
    model->vocab().reserve(lines.size(), text.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        model->vocab().add(lines[i], static_cast<std::uint32_t>(i), /*replace=*/true);
    model->vocab().finish();
    model->unk_token = special_or(c, "unk_token", "[UNK]");

    auto t = std::make_unique<Impl>();
    t->name = file;
    auto norm = std::make_unique<BertNormalizer>();
    norm->clean_text = true;
    norm->handle_chinese_chars = c.tokenize_chinese_chars.value_or(true);
    norm->lowercase = c.do_lower_case.value_or(true);
    norm->strip_accents = c.strip_accents.value_or(std::nullopt);
    t->normalizer = std::move(norm);
    t->pre_tokenizer = std::make_unique<BertPreTokenizer>();
    t->model = std::move(model);
    t->added.add_tokens(tokens_to_add(c, t->added), *t->model, t->normalizer.get(), file);

    const std::string unk = special_or(c, "unk_token", "[UNK]");
    const std::string cls = special_or(c, "cls_token", "[CLS]");
    const std::string sep = special_or(c, "sep_token", "[SEP]");
    auto post = std::make_unique<TemplateProcessing>();
    using P = TemplateProcessing::Piece;
    post->single = {P{false, 0, cls, 0}, P{true, 0, "", 0}, P{false, 0, sep, 0}};
    post->pair = {P{false, 0, cls, 0}, P{true, 0, "", 0}, P{false, 0, sep, 0}, P{true, 1, "", 1},
                  P{false, 0, sep, 1}};
    post->specials[cls] = {{slow_token_id(*t, cls, unk, file)}, {cls}};
    post->specials[sep] = {{slow_token_id(*t, sep, unk, file)}, {sep}};
    t->post_processor = std::move(post);
    finish(*t);
    t->kind = describe_kind(*t, "vocab.txt");
    return t;
}

/// GPT2Tokenizer's lines of merges.txt: split at "\n" (a "\r" before it dropped), the last
/// (after the final newline) kept.
std::vector<std::string_view> merges_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            std::string_view line(text.data() + start, i - start);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            lines.push_back(line);
            start = i + 1;
        }
    return lines;
}

/// The words of a line between runs of Unicode whitespace (Python's str.split()).
std::vector<std::string_view> split_on_whitespace(std::string_view line) {
    std::vector<std::string_view> parts;
    for (std::size_t p = 0; p < line.size();) {
        std::size_t len;
        if (uni::is_whitespace(uni::decode(line, p, &len))) {
            p += len;
            continue;
        }
        const std::size_t b = p;
        while (p < line.size() && !uni::is_whitespace(uni::decode(line, p, &len)))
            p += len;
        parts.push_back(line.substr(b, p - b));
    }
    return parts;
}

void read_vocab_json_file(const std::string& vocab_file, BpeModel& model) {
    const Reader r(vocab_file);
    const std::string text = io::read_file(vocab_file);
    const json::Document doc = r.parse(text);
    read_vocab(r, doc.root(), "", model.vocab());
}

void read_merges_txt(const std::string& merges_file, BpeModel& model) {
    // GPT2Tokenizer: the first line (#version) and the last (after the final newline) are
    // dropped, the rest split on whitespace; a pair seen twice keeps its first rank.
    const std::string text = io::read_file(merges_file);
    if (!json::is_valid_utf8(text)) throw DataError(merges_file + ": not valid UTF-8");
    const std::vector<std::string_view> lines = merges_lines(text);
    model.merges.reserve(lines.size());
    std::uint32_t rank = 0;
    std::string merged;
    for (std::size_t n = 1; n + 1 < lines.size(); ++n) {
        const std::vector<std::string_view> parts = split_on_whitespace(lines[n]);
        const std::string where = merges_file + ": line " + std::to_string(n + 1);
        if (parts.size() != 2) throw DataError(where + ": expected two tokens");
        const auto a = model.vocab().find(parts[0]);
        const auto b = model.vocab().find(parts[1]);
        merged.assign(parts[0]);
        merged.append(parts[1]);
        const auto m = model.vocab().find(merged);
        if (!a || !b || !m)
            throw DataError(where + ": " +
                            json::quote(!a   ? parts[0]
                                        : !b ? parts[1]
                                             : merged) +
                            " is not in vocab.json");
        if (model.merges.insert(*a, *b, rank, *m, /*overwrite=*/false)) ++rank;
    }
}

/// The config with the special tokens GPT2Tokenizer or RobertaTokenizer default to where it
/// names none.
TokenizerConfig with_bpe_specials(const TokenizerConfig& c, bool roberta) {
    TokenizerConfig cfg = c;
    const auto fill = [&](const char* key, const char* fallback) {
        if (!cfg.special.count(key)) {
            AddedToken t;
            t.content = fallback;
            t.special = true;
            t.normalized = false;
            // RobertaTokenizer's <mask> takes the space before it.
            t.lstrip = std::string(key) == "mask_token";
            cfg.special[key] = t;
        }
    };
    if (roberta) {
        fill("bos_token", "<s>");
        fill("eos_token", "</s>");
        fill("sep_token", "</s>");
        fill("cls_token", "<s>");
        fill("unk_token", "<unk>");
        fill("pad_token", "<pad>");
        fill("mask_token", "<mask>");
    } else {
        fill("bos_token", "<|endoftext|>");
        fill("eos_token", "<|endoftext|>");
        fill("unk_token", "<|endoftext|>");
    }
    return cfg;
}

/// RobertaConverter's processor, GPT2Converter's with add_bos_token, else its byte-level one.
std::unique_ptr<PostProcessor> bpe_post_processor(const Impl& t, const TokenizerConfig& cfg,
                                                  bool roberta, const std::string& unk) {
    const std::string& file = t.name;
    if (roberta) {
        auto post = std::make_unique<RobertaProcessing>();
        const std::string sep = special_or(cfg, "sep_token", "</s>");
        const std::string cls = special_or(cfg, "cls_token", "<s>");
        post->sep = {sep, slow_token_id(t, sep, unk, file)};
        post->cls = {cls, slow_token_id(t, cls, unk, file)};
        post->add_prefix_space = cfg.add_prefix_space.value_or(false);
        post->trim_offsets = true;
        return post;
    }
    if (cfg.add_bos_token.value_or(false)) {
        const std::string bos = special_or(cfg, "bos_token", "<|endoftext|>");
        auto post = std::make_unique<TemplateProcessing>();
        using P = TemplateProcessing::Piece;
        post->single = {P{false, 0, bos, 0}, P{true, 0, "", 0}};
        post->pair = {P{false, 0, bos, 0}, P{true, 0, "", 0}, P{true, 1, "", 1}};
        post->specials[bos] = {{slow_token_id(t, bos, unk, file)}, {bos}};
        return post;
    }
    auto post = std::make_unique<ByteLevelProcessing>();
    post->trim_offsets = false;  // GPT2Converter: the processor changes nothing
    return post;
}

std::unique_ptr<Impl> load_vocab_json(const fs::path& dir, const TokenizerConfig& c) {
    const std::string vocab_file = (dir / "vocab.json").string();
    const std::string merges_file = (dir / "merges.txt").string();
    if (!fs::exists(merges_file))
        throw DataError(merges_file + ": missing (vocab.json needs merges.txt beside it)");
    const bool roberta =
        c.tokenizer_class == "RobertaTokenizer" || c.tokenizer_class == "RobertaTokenizerFast";

    auto model = std::make_unique<BpeModel>();
    model->name = vocab_file;
    read_vocab_json_file(vocab_file, *model);
    read_merges_txt(merges_file, *model);
    model->finish();

    const TokenizerConfig cfg = with_bpe_specials(c, roberta);
    const char* unk_default = roberta ? "<unk>" : "<|endoftext|>";
    auto t = std::make_unique<Impl>();
    t->name = vocab_file;
    auto pre = std::make_unique<ByteLevelPreTokenizer>();
    pre->add_prefix_space = cfg.add_prefix_space.value_or(false);
    pre->use_regex = true;
    t->pre_tokenizer = std::move(pre);
    t->model = std::move(model);
    t->added.add_tokens(tokens_to_add(cfg, t->added), *t->model, nullptr, vocab_file);
    const std::string unk = special_or(cfg, "unk_token", unk_default);
    t->post_processor = bpe_post_processor(*t, cfg, roberta, unk);
    if (const auto it = cfg.special.find("bos_token"); it != cfg.special.end())
        t->config_bos = slow_token_id(*t, it->second.content, unk, vocab_file);
    finish(*t);
    t->kind = describe_kind(*t, "vocab.json + merges.txt");
    return t;
}

/// What transformers' tokenizer classes change in a tokenizer.json they load, decided by
/// tokenizer_config.json's tokenizer_class (never by config.json's model_type).
void adjust_as_transformers(Impl& t, const TokenizerConfig& c, const std::string& config_file) {
    // PreTrainedTokenizerFast: tokens of added_tokens_decoder and special tokens the file lacks.
    t.added.add_tokens(tokens_to_add(c, t.added), *t.model, t.normalizer.get(), config_file);

    const std::string& cls = c.tokenizer_class;
    const auto is = [&](std::initializer_list<const char*> names) {
        return std::any_of(names.begin(), names.end(), [&](const char* n) {
            return cls == n || cls == std::string(n) + "Fast";
        });
    };
    // BertTokenizerFast rebuilds the normaliser from do_lower_case (default true),
    // strip_accents and tokenize_chinese_chars whenever they differ from tokenizer.json's.
    if (is({"BertTokenizer", "DistilBertTokenizer"}))
        if (auto* bert = dynamic_cast<BertNormalizer*>(t.normalizer.get())) {
            bert->lowercase = c.do_lower_case.value_or(true);
            bert->strip_accents = c.strip_accents.value_or(std::nullopt);
            bert->handle_chinese_chars = c.tokenize_chinese_chars.value_or(true);
        }
    // GPT2TokenizerFast and RobertaTokenizerFast set the ByteLevel pre-tokenizer's
    // add_prefix_space (default false); RobertaTokenizerFast also its post-processor's
    // add_prefix_space and trim_offsets (default true).
    if (is({"GPT2Tokenizer", "RobertaTokenizer"}))
        if (auto* bl = dynamic_cast<ByteLevelPreTokenizer*>(t.pre_tokenizer.get()))
            bl->add_prefix_space = c.add_prefix_space.value_or(false);
    if (is({"RobertaTokenizer"})) {
        if (auto* rp = dynamic_cast<RobertaProcessing*>(t.post_processor.get())) {
            rp->add_prefix_space = c.add_prefix_space.value_or(false);
            rp->trim_offsets = c.trim_offsets.value_or(true);
        } else if (auto* bp = dynamic_cast<ByteLevelProcessing*>(t.post_processor.get())) {
            bp->add_prefix_space = c.add_prefix_space.value_or(false);
            bp->trim_offsets = c.trim_offsets.value_or(true);
        }
    }
    // LlamaTokenizerFast (and CodeLlama's) replace the post-processor by a template built
    // from add_bos_token (default true) and add_eos_token (default false).
    if (is({"LlamaTokenizer", "CodeLlamaTokenizer"})) {
        const bool bos = c.add_bos_token.value_or(true), eos = c.add_eos_token.value_or(false);
        const auto token = [&](const char* key, const char* fallback) {
            const auto it = c.special.find(key);
            return it == c.special.end() ? std::string(fallback) : it->second.content;
        };
        const std::string unk = token("unk_token", "<unk>");
        const std::string b = token("bos_token", "<s>"), e = token("eos_token", "</s>");
        auto post = std::make_unique<TemplateProcessing>();
        using P = TemplateProcessing::Piece;
        for (int seq = 0; seq < 2; ++seq) {
            std::vector<P>& tmpl = seq == 0 ? post->single : post->pair;
            for (int k = 0; k <= seq; ++k) {
                const auto type = static_cast<std::uint32_t>(k);
                if (bos) tmpl.push_back(P{false, 0, b, type});
                tmpl.push_back(P{true, k, "", type});
                if (eos) tmpl.push_back(P{false, 0, e, type});
            }
        }
        if (bos) post->specials[b] = {{slow_token_id(t, b, unk, config_file)}, {b}};
        if (eos) post->specials[e] = {{slow_token_id(t, e, unk, config_file)}, {e}};
        t.post_processor = std::move(post);
    }
    if (const auto it = c.special.find("bos_token"); it != c.special.end()) {
        if (const auto id = t.added.find(it->second.content))
            t.config_bos = *id;
        else if (const auto mid = t.model->vocab().find(it->second.content))
            t.config_bos = *mid;
    }
}

}  // namespace

std::unique_ptr<Impl> load_tokenizer_json(std::string_view text, const std::string& name,
                                          const ModelLists* lists) {
    const Reader r(name);
    const json::Document doc = r.parse(text);
    const json::Element root = doc.root();
    r.expect_object(root, "");
    if (const auto v = r.get(root, "version")) {
        const std::string version = r.string(*v, "version");
        if (version != "1.0")
            r.fail("version", "unknown tokenizer version " + json::quote(version));
    }
    auto t = std::make_unique<Impl>();
    t->name = name;
    if (const auto v = r.get(root, "normalizer"))
        t->normalizer = normalizer_of(r, *v, "normalizer");
    if (const auto v = r.get(root, "pre_tokenizer"))
        t->pre_tokenizer = pre_tokenizer_of(r, *v, "pre_tokenizer");
    t->model = model_of(r, r.required(root, "model", ""), "model", lists);
    if (const auto v = r.get(root, "post_processor"))
        t->post_processor = post_processor_of(r, *v, "post_processor");
    // The decoder only turns ids back into text; display text comes from offsets instead.

    std::vector<AddedToken> tokens;
    if (const auto v = r.get(root, "added_tokens")) {
        r.expect_array(*v, "added_tokens");
        std::size_t i = 0;
        for (const json::Element item : json::Array(*v)) {
            const std::string where = "added_tokens[" + std::to_string(i++) + "]";
            r.expect_object(item, where);
            r.id(r.required(item, "id", where), where + ".id");  // checked; tokenizers reassigns
            AddedToken tok;
            tok.content = r.string(r.required(item, "content", where), where + ".content");
            tok.single_word = r.boolean(item, "single_word", false, where);
            tok.lstrip = r.boolean(item, "lstrip", false, where);
            tok.rstrip = r.boolean(item, "rstrip", false, where);
            tok.normalized = r.boolean(item, "normalized", true, where);
            tok.special = r.boolean(item, "special", false, where);
            tokens.push_back(std::move(tok));
        }
    }
    try {
        t->added.add_tokens(tokens, *t->model, t->normalizer.get(), name);
    } catch (const DataError&) {
        throw;
    } catch (const std::runtime_error& e) {  // a Replace pattern giving up on a token
        r.fail("added_tokens", e.what());
    }
    check_post_processor_ids(*t, r);
    finish(*t);
    t->kind = describe_kind(*t, "tokenizer.json");
    return t;
}

std::unique_ptr<Impl> load_folder(const std::string& folder) {
    const fs::path dir(folder);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw DataError(folder + ": not a folder");
    const fs::path tokenizer_json = dir / "tokenizer.json";
    if (fs::exists(tokenizer_json)) {
        const std::string path = tokenizer_json.string();
        auto t = load_tokenizer_json(io::read_file(path), path);
        const TokenizerConfig c = read_config(dir);
        adjust_as_transformers(*t, c, (dir / "tokenizer_config.json").string());
        t->model_max_length = c.model_max_length;
        return t;
    }
    const TokenizerConfig c = read_config(dir);
    std::unique_ptr<Impl> t;
    if (fs::exists(dir / "vocab.txt"))
        t = load_vocab_txt(dir, c);
    else if (fs::exists(dir / "vocab.json"))
        t = load_vocab_json(dir, c);
    if (t) {
        t->model_max_length = c.model_max_length;
        return t;
    }
    throw DataError(folder +
                    ": no tokenizer files (tokenizer.json, vocab.txt, or vocab.json + merges.txt)");
}

}  // namespace attnviz::text::hf
