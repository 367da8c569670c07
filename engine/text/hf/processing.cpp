// Post-processors (tokenizers/src/processors) and the added vocabulary
// (tokenizers/src/tokenizer/added_vocabulary.rs).
#include <algorithm>

#include "engine/errors.h"
#include "engine/text/hf/components.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

// ---- post-processors --------------------------------------------------------------------

namespace {

EncToken special_token(const std::string& token, std::uint32_t id, std::uint32_t type_id) {
    EncToken t;
    t.id = id;
    t.value = token;
    t.begin = t.end = 0;
    t.special = 1;
    t.type_id = type_id;
    t.sequence = -1;
    return t;
}

}  // namespace

void trim_byte_level_offsets(EncTokens& encoding, bool add_prefix_space) {
    constexpr char32_t kSpace = 0x120;  // Ġ, the byte-level stand-in for ' '
    const auto spacy = [](char32_t c) { return c == kSpace || uni::is_whitespace(c); };
    for (std::size_t i = 0; i < encoding.size(); ++i) {
        EncToken& t = encoding[i];
        const std::string& v = t.value;
        std::int64_t leading = 0, trailing = 0;
        for (std::size_t p = 0; p < v.size();) {
            std::size_t len;
            if (!spacy(uni::decode(v, p, &len))) break;
            ++leading;
            p += len;
        }
        for (std::size_t e = v.size(); e > 0;) {
            std::size_t len;
            if (!spacy(uni::decode_last(v, e, &len))) break;
            ++trailing;
            e -= len;
        }
        if (leading == 0 && trailing == 0) continue;
        if (leading > 0) {
            const bool is_first = i == 0 || t.begin == 0;
            // A single space the pre-tokenizer added itself is kept on the first token.
            if (is_first && add_prefix_space && leading == 1) leading = 0;
            t.begin = std::min(t.begin + leading, t.end);
        }
        if (trailing > 0 && t.end >= trailing) t.end = std::max(t.end - trailing, t.begin);
    }
}

void BertProcessing::process(std::vector<EncTokens>& encodings, bool add_special_tokens) const {
    if (!add_special_tokens) return;
    for (std::size_t i = 0; i < encodings.size(); ++i) {
        EncTokens& e = encodings[i];
        if (i == 0) {
            e.insert(e.begin(), special_token(cls.first, cls.second, 0));
            e.push_back(special_token(sep.first, sep.second, 0));
        } else {
            e.push_back(special_token(sep.first, sep.second, 1));
        }
    }
}

void RobertaProcessing::process(std::vector<EncTokens>& encodings, bool add_special_tokens) const {
    if (trim_offsets)
        for (EncTokens& e : encodings)
            trim_byte_level_offsets(e, add_prefix_space);
    // RoBERTa has no token types: everything is type 0.
    for (EncTokens& e : encodings)
        for (EncToken& t : e)
            t.type_id = 0;
    if (!add_special_tokens) return;
    for (std::size_t i = 0; i < encodings.size(); ++i) {
        EncTokens& e = encodings[i];
        if (i == 0)
            e.insert(e.begin(), special_token(cls.first, cls.second, 0));
        else
            e.insert(e.begin(), special_token(sep.first, sep.second, 0));
        e.push_back(special_token(sep.first, sep.second, 0));
    }
}

void ByteLevelProcessing::process(std::vector<EncTokens>& encodings, bool) const {
    if (trim_offsets)
        for (EncTokens& e : encodings)
            trim_byte_level_offsets(e, add_prefix_space);
}

std::size_t TemplateProcessing::added_tokens(bool is_pair) const {
    std::size_t n = 0;
    for (const Piece& p : is_pair ? pair : single)
        if (!p.is_sequence) n += specials.at(p.token).ids.size();
    return n;
}

void TemplateProcessing::process(std::vector<EncTokens>& encodings, bool add_special_tokens) const {
    const std::vector<Piece>& tmpl = encodings.size() == 2 ? pair : single;
    std::vector<EncTokens> result;
    result.reserve(tmpl.size());
    for (const Piece& p : tmpl) {
        if (p.is_sequence) {
            // The loader refuses templates that name $B for a single text.
            EncTokens e = encodings[static_cast<std::size_t>(p.sequence)];
            for (EncToken& t : e) {
                t.type_id = p.type_id;
                t.sequence = p.sequence;
            }
            result.push_back(std::move(e));
        } else if (add_special_tokens) {
            const Special& s = specials.at(p.token);
            EncTokens e;
            for (std::size_t k = 0; k < s.ids.size(); ++k)
                e.push_back(special_token(s.tokens[k], s.ids[k], p.type_id));
            result.push_back(std::move(e));
        }
    }
    encodings = std::move(result);
}

void TemplateProcessing::special_tokens(
    std::vector<std::pair<std::string, std::uint32_t>>& out) const {
    for (const auto& [key, s] : specials)
        for (std::size_t k = 0; k < s.ids.size(); ++k)
            out.emplace_back(s.tokens[k], s.ids[k]);
}

std::optional<std::uint32_t> TemplateProcessing::first_special() const {
    if (single.empty() || single.front().is_sequence) return std::nullopt;
    const Special& s = specials.at(single.front().token);
    if (s.ids.empty()) return std::nullopt;
    return s.ids.front();
}

// ---- added vocabulary -------------------------------------------------------------------

void AddedVocabulary::Trie::insert(std::string_view s, std::uint32_t id) {
    std::uint32_t node = 0;
    for (const char ch : s) {
        const std::uint64_t key = (std::uint64_t(node) << 8) | static_cast<unsigned char>(ch);
        const auto it = edges.find(key);
        if (it != edges.end()) {
            node = it->second;
        } else {
            const auto fresh = static_cast<std::uint32_t>(value.size());
            value.push_back(-1);
            edges.emplace(key, fresh);
            node = fresh;
        }
    }
    value[node] = id;
    first[static_cast<unsigned char>(s[0])] = true;
    empty = false;
}

std::optional<std::uint32_t> AddedVocabulary::find(std::string_view content) const {
    const auto it = by_content_.find(std::string(content));
    if (it == by_content_.end()) return std::nullopt;
    return it->second;
}

const AddedToken* AddedVocabulary::token(std::uint32_t id) const {
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : &it->second;
}

void AddedVocabulary::add_tokens(const std::vector<AddedToken>& tokens, const Model& model,
                                 const Normalizer* normalizer, const std::string& file) {
    const auto model_size = static_cast<std::uint64_t>(model.vocab().size());
    std::uint64_t next_id = model_size;
    if (!by_id_.empty()) {
        std::uint64_t max = 0;
        for (const auto& [id, t] : by_id_)
            max = std::max<std::uint64_t>(max, id);
        next_id = (max >= model_size || model_size == 0) ? max + 1 : model_size;
    }
    for (const AddedToken& token : tokens) {
        if (token.content.empty()) continue;
        if (const auto known = by_content_.find(token.content); known != by_content_.end()) {
            const auto same = by_id_.find(known->second);
            if (same != by_id_.end() && same->second == token) continue;
        }
        std::uint32_t new_id;
        if (const auto id = find(token.content)) {
            new_id = *id;
        } else if (const auto mid = model.vocab().find(token.content)) {
            new_id = *mid;
        } else {
            if (next_id > UINT32_MAX)
                throw DataError(file + ": added token " + token.content +
                                " would get an id beyond 2^32 - 1");
            new_id = static_cast<std::uint32_t>(next_id++);
        }
        if (token.normalized && normalizer) {
            NormalizedString s = NormalizedString::from(token.content);
            normalizer->normalize(s);
            if (s.get() != token.content) normalized_cache_[new_id] = s.get();
        }
        by_content_[token.content] = new_id;
        by_id_[new_id] = token;
    }
    refresh(file);
}

void AddedVocabulary::refresh(const std::string& file) {
    split_trie_ = Trie{};
    split_normalized_trie_ = Trie{};
    std::unordered_map<std::string, std::uint32_t> seen_raw, seen_normalized;
    // In id order, so the message about two clashing tokens is the same on every run.
    std::vector<std::uint32_t> ids;
    ids.reserve(by_id_.size());
    for (const auto& [id, t] : by_id_)
        ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for (const std::uint32_t id : ids) {
        const AddedToken& t = by_id_.at(id);
        std::string pattern = t.content;
        if (t.normalized)
            if (const auto it = normalized_cache_.find(id); it != normalized_cache_.end())
                pattern = it->second;
        if (pattern.empty()) continue;  // normalised away: it can never be found
        auto& seen = t.normalized ? seen_normalized : seen_raw;
        if (const auto [it, fresh] = seen.emplace(pattern, id); !fresh)
            // tokenizers' Aho-Corasick builder refuses duplicate patterns, so the file does not
            // load in Python either.
            throw DataError(file + ": added tokens " + std::to_string(it->second) + " and " +
                            std::to_string(id) + " are both matched as " + pattern);
        (t.normalized ? split_normalized_trie_ : split_trie_).insert(pattern, id);
    }
}

namespace {

bool ends_with_word(std::string_view s) {
    if (s.empty()) return false;
    std::size_t len;
    return uni::is_word_char(uni::decode_last(s, s.size(), &len));
}
bool starts_with_word(std::string_view s) {
    if (s.empty()) return false;
    std::size_t len;
    return uni::is_word_char(uni::decode(s, 0, &len));
}
/// Start of the run of whitespace that ends `s` (Rust: the leftmost match of \s*$).
std::size_t trailing_space_start(std::string_view s) {
    std::size_t e = s.size();
    while (e > 0) {
        std::size_t len;
        if (!uni::is_whitespace(uni::decode_last(s, e, &len))) break;
        e -= len;
    }
    return e;
}
/// Length of the whitespace that starts `s` (Rust: the end of ^\s*).
std::size_t leading_space_end(std::string_view s) {
    std::size_t p = 0;
    while (p < s.size()) {
        std::size_t len;
        if (!uni::is_whitespace(uni::decode(s, p, &len))) break;
        p += len;
    }
    return p;
}

}  // namespace

std::vector<AddedVocabulary::Found> AddedVocabulary::find_matches(std::string_view sentence,
                                                                  const Trie& trie) const {
    if (sentence.empty()) return {{std::nullopt, 0, 0}};
    if (trie.empty) return {{std::nullopt, 0, sentence.size()}};
    std::vector<Found> splits;
    std::size_t start_offset = 0;
    const std::size_t n = sentence.size();
    // Leftmost-longest, non-overlapping, as daachorse's leftmost_find_iter: the earliest start
    // wins, then the longest token starting there; the search resumes at its end.
    std::size_t p = 0;
    while (p < n) {
        if (!trie.first[static_cast<unsigned char>(sentence[p])]) {
            ++p;
            continue;
        }
        std::uint32_t node = 0;
        std::int64_t best = -1;
        std::size_t best_end = 0;
        for (std::size_t q = p; q < n; ++q) {
            const std::uint64_t key =
                (std::uint64_t(node) << 8) | static_cast<unsigned char>(sentence[q]);
            const auto it = trie.edges.find(key);
            if (it == trie.edges.end()) break;
            node = it->second;
            if (trie.value[node] >= 0) {
                best = trie.value[node];
                best_end = q + 1;
            }
        }
        if (best < 0) {
            ++p;
            continue;
        }
        std::size_t start = p, stop = best_end;
        p = best_end;
        const auto id = static_cast<std::uint32_t>(best);
        const AddedToken& t = by_id_.at(id);
        if (t.single_word) {
            const bool start_space = start == 0 || !ends_with_word(sentence.substr(0, start));
            const bool stop_space = stop == n || !starts_with_word(sentence.substr(stop));
            if (!start_space || !stop_space) continue;
        }
        if (t.lstrip)
            start = std::max(trailing_space_start(sentence.substr(0, start)), start_offset);
        if (t.rstrip) stop += leading_space_end(sentence.substr(stop));
        if (start_offset < start) splits.push_back({std::nullopt, start_offset, start});
        splits.push_back({id, start, stop});
        start_offset = stop;
    }
    if (start_offset != n) splits.push_back({std::nullopt, start_offset, n});
    return splits;
}

void AddedVocabulary::split_with_indices(NormalizedString&& s, const Trie& trie,
                                         std::vector<Split>& out) const {
    for (const Found& f : find_matches(s.get(), trie)) {
        auto piece = s.slice(f.begin, f.end);
        if (!piece) continue;  // Rust panics ("AddedVocabulary bad split"); never on valid text
        if (f.id) {
            const std::size_t len = piece->len();
            out.push_back({std::move(*piece), std::vector<SplitToken>{{*f.id, 0, len, true}}});
        } else {
            out.push_back({std::move(*piece), std::nullopt});
        }
    }
}

PreTokenizedString AddedVocabulary::extract_and_normalize(const Normalizer* normalizer,
                                                          std::string_view text) const {
    PreTokenizedString p;
    p.splits.push_back({NormalizedString::from(text), std::nullopt});
    p.split([this](NormalizedString&& s, std::vector<Split>& out) {
        split_with_indices(std::move(s), split_trie_, out);
    });
    p.split([this, normalizer](NormalizedString&& s, std::vector<Split>& out) {
        if (normalizer) normalizer->normalize(s);
        split_with_indices(std::move(s), split_normalized_trie_, out);
    });
    return p;
}

}  // namespace attnviz::text::hf
