// Turns user-typed text into tokens.  Deterministic and dependency-free (no vocabulary):
//  * whitespace separates tokens and is dropped;
//  * each run of punctuation/symbol characters is split into single characters
//    ("!!" -> "!", "!"), except that "'" inside a word stays ("don't");
//  * each CJK ideograph (and kana, hangul syllable, fullwidth punctuation) is its own token;
//  * each emoji (with its modifiers, variation selectors and ZWJ sequences) is one token;
//  * letters and digits of other scripts form words;
//  * invalid UTF-8 bytes become U+FFFD, control characters are dropped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::text {

struct TokenizerOptions {
    bool lowercase = false;            ///< ASCII and Latin-1/Greek/Cyrillic letters
    bool add_special_tokens = false;   ///< "[CLS]" first, "[SEP]" last
    std::size_t max_tokens = 0;        ///< 0 = no limit; otherwise stop after this many
};

std::vector<std::string> tokenize(std::string_view utf8, const TokenizerOptions& options = {});

/// Splits a user-given token list: one token per line, or, if there is a single line,
/// separated by '|' or whitespace.  Empty entries are dropped.
std::vector<std::string> split_token_list(std::string_view list);

/// The tokens as a JSON array of strings (UTF-8, with JSON escapes).
std::string tokens_to_json(const std::vector<std::string>& tokens);

}  // namespace attnviz::text
