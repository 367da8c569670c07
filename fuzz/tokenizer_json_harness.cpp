// Fuzz harness for tokenizer.json (engine/text/hf/hf_tokenizer.h): HfTokenizer::
// from_tokenizer_json, then encode.
//
// Input: the tokenizer.json text, then optionally a NUL byte and the text to encode, then
// optionally another NUL and a second text (a pair).  Without a NUL a fixed sample text is
// encoded.  A file may be refused with DataError or std::invalid_argument, and so may an
// encode (a model without its unk token, a regex giving up); anything else is a finding.
//
// What every accepted tokenizer must keep, for every text:
//  * the Encoding's vectors have one entry per token; ids lie in [0, vocab_size());
//  * tokens and display texts are valid UTF-8; begin <= end for every offset pair;
//  * tokens the post-processor added (sequence -1) are special, with offsets (0, 0);
//  * encoding twice gives the same result (the BPE word cache changes nothing);
//  * without special tokens, the ids and offsets are those of the text's own tokens with
//    special tokens (sequence 0), in order.
// A pair is encoded and checked like a single text (its template may leave either text out,
// so the tokens of the first text alone are not compared).
//
// To register: declare `Outcome run_tokenizer_json(std::string_view input);` in
// fuzz/fuzz_entry.h, add this file to attnviz_fuzz_entry (fuzz/fuzz_entry.cmake), the target
// "tokenizer_json" to targets()/target_names() and a fuzz_tokenizer_json.cpp calling
// run_for_libfuzzer(run_tokenizer_json, ...).  Seeds: fuzz/corpus/tokenizer_json/,
// dictionary: fuzz/dict/tokenizer_json.dict.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/errors.h"
#include "engine/io/json.h"
#include "engine/text/hf/hf_tokenizer.h"
#include "fuzz/fuzz_entry.h"

namespace attnviz::fuzz {

Outcome run_tokenizer_json(std::string_view input);

namespace {

[[noreturn]] void violated(const std::string& what) {
    throw InvariantViolation("tokenizer_json: " + what);
}

void check(bool ok, const char* what) {
    if (!ok) violated(what);
}

void check_encoding(const text::HfTokenizer& tok, const text::Encoding& e) {
    const std::size_t n = e.ids.size();
    check(e.tokens.size() == n && e.text.size() == n && e.offsets.size() == n &&
              e.special.size() == n && e.type_ids.size() == n && e.sequence.size() == n,
          "the Encoding's vectors differ in length");
    const std::int64_t vocab = tok.vocab_size();
    for (std::size_t i = 0; i < n; ++i) {
        if (e.ids[i] < 0 || e.ids[i] >= vocab)
            violated("token " + std::to_string(i) + " has id " + std::to_string(e.ids[i]) +
                     " outside [0, " + std::to_string(vocab) + ")");
        if (!io::json::is_valid_utf8(e.tokens[i]) || !io::json::is_valid_utf8(e.text[i]))
            violated("token " + std::to_string(i) +
                     " is not valid UTF-8: " + io::json::quote(e.tokens[i]));
        if (e.offsets[i].first > e.offsets[i].second)
            violated("token " + std::to_string(i) + " has offsets (" +
                     std::to_string(e.offsets[i].first) + ", " +
                     std::to_string(e.offsets[i].second) + ")");
        if (e.sequence[i] < -1 || e.sequence[i] > 1)
            violated("token " + std::to_string(i) + " has sequence id " +
                     std::to_string(e.sequence[i]));
        if (e.sequence[i] == -1 &&
            (e.special[i] != 1 || e.offsets[i] != std::pair<std::int64_t, std::int64_t>{0, 0}))
            violated("template token " + std::to_string(i) + " is not special with offsets (0, 0)");
    }
}

bool same(const text::Encoding& a, const text::Encoding& b) {
    return a.ids == b.ids && a.tokens == b.tokens && a.text == b.text && a.offsets == b.offsets &&
           a.special == b.special && a.type_ids == b.type_ids && a.sequence == b.sequence;
}

/// The ids and offsets of the tokens of sequence `seq` (special tokens of the template left out).
std::pair<std::vector<std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> own(
    const text::Encoding& e, std::int32_t seq) {
    std::pair<std::vector<std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> out;
    for (std::size_t i = 0; i < e.ids.size(); ++i)
        if (e.sequence[i] == seq) {
            out.first.push_back(e.ids[i]);
            out.second.push_back(e.offsets[i]);
        }
    return out;
}

template <typename F>
std::optional<text::Encoding> encode_or_refuse(F&& f) {
    try {
        return f();
    } catch (const DataError&) {
    } catch (const std::invalid_argument&) {
    }
    return std::nullopt;
}

}  // namespace

Outcome run_tokenizer_json(std::string_view input) {
    const std::size_t nul = input.find('\0');
    const std::string_view json = input.substr(0, nul);
    std::string_view first = "Hello, world! 你好 🙂 don't 12345  \n\t<s>";
    std::optional<std::string_view> second;
    if (nul != std::string_view::npos) {
        first = input.substr(nul + 1);
        const std::size_t nul2 = first.find('\0');
        if (nul2 != std::string_view::npos) {
            second = first.substr(nul2 + 1);
            first = first.substr(0, nul2);
        }
    }

    std::optional<text::HfTokenizer> tok;
    try {
        tok.emplace(text::HfTokenizer::from_tokenizer_json(json, "fuzz/tokenizer.json"));
    } catch (const DataError&) {
        return Outcome::Rejected;
    } catch (const std::invalid_argument&) {
        return Outcome::Rejected;
    }

    const auto with = encode_or_refuse([&] { return tok->encode(first); });
    if (!with) return Outcome::Rejected;
    check_encoding(*tok, *with);
    const auto again = encode_or_refuse([&] { return tok->encode(first); });
    check(again && same(*with, *again), "encoding the same text twice differs");

    const auto without = encode_or_refuse([&] { return tok->encode(first, std::nullopt, false); });
    check(without.has_value(), "encode refused a text without special tokens");
    check_encoding(*tok, *without);
    check(own(*with, 0) == own(*without, 0),
          "the text's own tokens change when special tokens are added");

    if (second) {
        const auto pair = encode_or_refuse([&] { return tok->encode(first, second); });
        if (pair) check_encoding(*tok, *pair);  // the second text may hold what the first did not
    }
    return Outcome::Accepted;
}

}  // namespace attnviz::fuzz
