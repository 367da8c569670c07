// Hugging Face's NormalizedString and PreTokenizedString (tokenizers/src/tokenizer/
// normalizer.rs, pre_tokenizer.rs), reproduced operation by operation, because the offsets
// Python returns are whatever their bookkeeping gives, quirks included.
//
// A NormalizedString holds the normalised text and, for every byte of it, the byte range of
// the original text it came from ("alignments").  Every edit is a list of (char, change)
// pairs applied by transform(): change 0 replaces the next original character, +1 inserts
// (sharing the alignment of the byte before), -n replaces and removes n more.  Slices keep
// alignments relative to their own piece of the original plus an `original_shift`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::text::hf {

class Regex;

struct Align {
    std::size_t begin = 0, end = 0;
    bool operator==(const Align&) const = default;
};

/// One (char, change) pair of NormalizedString::transform.
struct Change {
    char32_t c;
    std::ptrdiff_t change;
};

/// A piece of a string found by a pattern: [begin, end) bytes, and whether it matched.
struct PatternMatch {
    std::size_t begin, end;
    bool is_match;
};

enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

/// Pattern::find_matches for a character predicate (tokenizer/pattern.rs).
std::vector<PatternMatch> find_matches(std::string_view s, const std::function<bool(char32_t)>& f);
/// Pattern::find_matches for a regular expression (onig's iteration).
std::vector<PatternMatch> find_matches(std::string_view s, const Regex& re);
/// Invert(pattern): every flag flipped.
void invert(std::vector<PatternMatch>& matches);

class NormalizedString {
  public:
    NormalizedString() = default;
    /// The whole of `s`, unchanged: each byte aligned with the character it belongs to.
    static NormalizedString from(std::string_view s);

    const std::string& get() const { return normalized_; }
    std::size_t len() const { return normalized_.size(); }
    bool empty() const { return normalized_.empty(); }
    std::size_t len_original() const { return original_len_; }
    /// [begin, end) of this piece in the text first given (bytes).
    std::pair<std::size_t, std::size_t> offsets_original() const {
        return {original_shift_, original_shift_ + original_len_};
    }
    const std::vector<Align>& alignments() const { return alignments_; }

    /// convert_offsets(Range::Normalized(begin..end)): the original range (relative to this
    /// piece) a normalised range came from.
    std::optional<std::pair<std::size_t, std::size_t>> normalized_to_original(
        std::size_t begin, std::size_t end) const;
    /// convert_offsets(Range::Original(begin..end)).
    std::optional<std::pair<std::size_t, std::size_t>> original_to_normalized(
        std::size_t begin, std::size_t end) const;

    /// slice(Range::Normalized(begin..end)); nullopt where Rust returns None.
    std::optional<NormalizedString> slice(std::size_t begin, std::size_t end) const;

    /// transform_range(Range::Normalized(begin..end), dest, initial_offset).
    void transform_range(std::size_t begin, std::size_t end, const std::vector<Change>& dest,
                         std::size_t initial_offset);
    /// transform(dest, initial_offset): transform_range over Range::Original(..).
    void transform(const std::vector<Change>& dest, std::size_t initial_offset);

    void nfd() { unicode_normalize(false, false); }
    void nfkd() { unicode_normalize(false, true); }
    void nfc() { unicode_normalize(true, false); }
    void nfkc() { unicode_normalize(true, true); }
    void filter(const std::function<bool(char32_t)>& keep);
    void map(const std::function<char32_t(char32_t)>& f);
    void lowercase();
    void prepend(std::string_view s);
    /// replace(pattern, content) with the pattern's matches already found.
    void replace(const std::vector<PatternMatch>& matches, std::string_view content);
    void lrstrip(bool left, bool right);

    /// split(pattern, behavior) with the pattern's matches already found.
    std::vector<NormalizedString> split(std::vector<PatternMatch> matches,
                                        SplitBehavior behavior) const;

  private:
    void unicode_normalize(bool compose, bool compatibility);
    bool identity_is_noop() const;

    std::string normalized_;
    std::vector<Align> alignments_;
    std::size_t original_shift_ = 0;
    std::size_t original_len_ = 0;
};

/// A model token inside one split: id and byte offsets in the split's normalised text.
struct SplitToken {
    std::uint32_t id;
    std::size_t begin, end;
    bool added = false;  ///< matched by the added vocabulary (not the model)
};

struct Split {
    NormalizedString normalized;
    std::optional<std::vector<SplitToken>> tokens;
};

/// PreTokenizedString: the splits of one text; those with tokens are final.
struct PreTokenizedString {
    std::vector<Split> splits;

    /// PreTokenizedString::split: `fn` replaces every split that has no tokens yet; empty
    /// results are dropped.
    void split(const std::function<void(NormalizedString&&, std::vector<Split>&)>& fn);
    /// PreTokenizedString::normalize: `fn` edits every split that has no tokens yet.
    void normalize(const std::function<void(NormalizedString&)>& fn);
};

}  // namespace attnviz::text::hf
