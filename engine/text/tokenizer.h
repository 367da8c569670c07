// Turns user-typed text into tokens.  Deterministic and dependency-free (no vocabulary):
//  * whitespace (Unicode White_Space: also NBSP, U+3000 ideographic space) separates tokens
//    and is dropped;
//  * each run of punctuation/symbol characters is split into single characters
//    ("Wait...what?!" -> Wait . . . what ? !), except that an apostrophe (' or ’) between two
//    letters stays in the word ("don't", "l’homme") and a '.' between two digits stays in the
//    number ("3.14", also "1.2.3"; but "1,000" -> 1 , 000);
//  * each CJK ideograph (and kana, hangul syllable, bopomofo, CJK/fullwidth punctuation) is its
//    own token: "我爱NLP！" -> 我 爱 NLP ！;
//  * each emoji (with its skin-tone modifier, variation selector, keycap, tags and ZWJ
//    sequence) is one token, and two regional indicators make one flag:
//    👍🏽  1️⃣  👩‍💻  👨‍👩‍👧  🇨🇳
//  * letters and digits of other scripts, with their combining marks, form words ("GPT4",
//    Arabic, Cyrillic, Devanagari); fullwidth letters and digits are letters and digits;
//  * a combining mark or variation selector stays with the character before it;
//  * invalid UTF-8 becomes U+FFFD (one per maximal invalid subpart), which is a token of its
//    own like any symbol; control characters (C0, C1) and invisible format characters
//    (U+200B, BOM, bidi marks, soft hyphen) are removed without splitting the word around them;
//    ZWJ/ZWNJ are kept only between two word characters or inside an emoji sequence.
// Linear time, at most a few code points of look-ahead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::text {

struct TokenizerOptions {
    /// Lowercase every letter with a simple lowercase mapping (Unicode's, through utf8proc),
    /// code point by code point, with Greek final ς.  Special tokens are never lowercased.
    bool lowercase = false;
    /// "[CLS]" first, "[SEP]" last; a text without tokens still gives an empty vector.
    bool add_special_tokens = false;
    /// 0 = no limit; otherwise at most this many tokens, counting [CLS] and [SEP] (which are
    /// kept when max_tokens >= 2; max_tokens == 1 gives just "[CLS]").  Reading stops there,
    /// so cutting a long paste is cheap.
    std::size_t max_tokens = 0;
};

std::vector<std::string> tokenize(std::string_view utf8, const TokenizerOptions& options = {});

/// Splits a user-given token list: one token per line if the text has a line break ("\n",
/// "\r\n" or "\r"); otherwise separated by '|' if there is one; otherwise by whitespace.
/// Each token is trimmed of surrounding whitespace (and BOM / zero width spaces); empty
/// entries are dropped; invalid UTF-8 becomes U+FFFD.
std::vector<std::string> split_token_list(std::string_view list);

/// The tokens as a compact JSON array of strings: '"' and '\\' escaped, control characters
/// (and DEL) as \u00xx, other UTF-8 passed through unchanged (invalid bytes become U+FFFD).
std::string tokens_to_json(const std::vector<std::string>& tokens);

}  // namespace attnviz::text
