#include "engine/text/hf/normalized_string.h"

#include <algorithm>
#include <utility>

#include "engine/text/hf/regex.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

// ---- patterns ---------------------------------------------------------------------------

std::vector<PatternMatch> find_matches(std::string_view s, const std::function<bool(char32_t)>& f) {
    if (s.empty()) return {{0, 0, false}};
    std::vector<PatternMatch> out;
    std::size_t last_offset = 0, last_seen = 0;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len;
        const char32_t c = uni::decode(s, i, &len);
        last_seen = i + len;
        if (f(c)) {
            if (last_offset < i) out.push_back({last_offset, i, false});
            out.push_back({i, i + len, true});
            last_offset = i + len;
        }
        i += len;
    }
    if (last_seen > last_offset) out.push_back({last_offset, last_seen, false});
    return out;
}

std::vector<PatternMatch> find_matches(std::string_view s, const Regex& re) {
    if (s.empty()) return {{0, 0, false}};
    std::vector<std::pair<std::size_t, std::size_t>> found;
    re.find_all(s, found);
    std::vector<PatternMatch> out;
    out.reserve(found.size() * 2 + 1);
    std::size_t prev = 0;
    for (const auto& [b, e] : found) {
        if (prev != b) out.push_back({prev, b, false});
        out.push_back({b, e, true});
        prev = e;
    }
    if (prev != s.size()) out.push_back({prev, s.size(), false});
    return out;
}

void invert(std::vector<PatternMatch>& matches) {
    for (auto& m : matches)
        m.is_match = !m.is_match;
}

// ---- NormalizedString -------------------------------------------------------------------

NormalizedString NormalizedString::from(std::string_view s) {
    NormalizedString n;
    n.normalized_.assign(s);
    n.alignments_.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = uni::utf8_len(static_cast<unsigned char>(s[i]));
        for (std::size_t k = 0; k < len; ++k)
            n.alignments_.push_back({i, i + len});
        i += len;
    }
    n.original_len_ = s.size();
    return n;
}

std::optional<std::pair<std::size_t, std::size_t>> NormalizedString::normalized_to_original(
    std::size_t begin, std::size_t end) const {
    // Rust returns an empty target unchanged, whichever side it refers to.
    if (begin == end) return std::pair{begin, end};
    if (begin > end || end > alignments_.size()) return std::nullopt;
    return std::pair{alignments_[begin].begin, alignments_[end - 1].end};
}

std::optional<std::pair<std::size_t, std::size_t>> NormalizedString::original_to_normalized(
    std::size_t begin, std::size_t end) const {
    if (begin == end) return std::pair{begin, end};
    if (begin > end) return std::nullopt;
    std::optional<std::size_t> start, stop;
    for (std::size_t i = 0; i < alignments_.size(); ++i) {
        const Align& a = alignments_[i];
        if (!(end >= a.end)) break;
        // Zero-width alignments (characters inserted at the very start) never start a range.
        if (!start && begin <= a.begin && a.begin != a.end) start = i;
        stop = i + 1;
    }
    if (start && stop) return std::pair{*start, *stop};
    if (start) return std::pair{*start, *start};
    if (stop) return std::pair{*stop, *stop};
    return std::nullopt;
}

std::optional<NormalizedString> NormalizedString::slice(std::size_t begin, std::size_t end) const {
    const auto boundary = [&](std::size_t i) {
        return i == normalized_.size() ||
               (i < normalized_.size() &&
                (static_cast<unsigned char>(normalized_[i]) & 0xC0) != 0x80);
    };
    if (!boundary(begin) || !boundary(end)) return std::nullopt;
    const auto original = normalized_to_original(begin, end);
    if (!original) return std::nullopt;
    if (begin > end) return std::nullopt;
    NormalizedString out;
    const std::size_t n_shift = original->first;
    out.original_len_ = (original->first <= original->second && original->second <= original_len_)
                            ? original->second - original->first
                            : 0;
    out.normalized_.assign(normalized_, begin, end - begin);
    out.alignments_.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const Align& a = alignments_[i];
        // Rust subtracts usize values here; alignments never precede the slice's start in
        // practice, and saturating keeps a pathological input from wrapping around.
        out.alignments_.push_back(
            {a.begin >= n_shift ? a.begin - n_shift : 0, a.end >= n_shift ? a.end - n_shift : 0});
    }
    out.original_shift_ = original_shift_ + n_shift;
    return out;
}

void NormalizedString::transform_range(std::size_t begin, std::size_t end,
                                       const std::vector<Change>& dest,
                                       std::size_t initial_offset) {
    if (begin > end || end > normalized_.size()) return;
    // The characters being replaced, to know how many bytes each change consumes.
    std::vector<std::size_t> replaced;  // byte length of each replaced character
    for (std::size_t i = begin; i < end;) {
        const std::size_t len = uni::utf8_len(static_cast<unsigned char>(normalized_[i]));
        replaced.push_back(len);
        i += len;
    }
    std::size_t next = 0;  // index into `replaced`
    std::size_t initial_removed = 0;
    for (; next < replaced.size() && next < initial_offset; ++next)
        initial_removed += replaced[next];

    std::size_t offset = initial_removed + begin;
    std::vector<Align> new_alignments;
    new_alignments.reserve(end - begin + dest.size());
    std::string new_text;
    new_text.reserve(end - begin + dest.size());
    const auto old_align = [&](std::size_t idx) {
        // Rust indexes out of bounds (and panics) only on inputs no normaliser produces.
        return idx < alignments_.size() ? alignments_[idx] : Align{};
    };
    for (const Change& ch : dest) {
        const std::size_t idx = offset;
        Align align;
        if (ch.change > 0)
            align = idx < 1 ? Align{0, 0} : old_align(idx - 1);
        else
            align = old_align(idx);
        std::size_t replaced_size = 0;
        if (ch.change <= 0 && next < replaced.size()) replaced_size = replaced[next++];
        std::size_t removed = 0;
        if (ch.change < 0)
            for (std::ptrdiff_t k = 0; k < -ch.change && next < replaced.size(); ++k)
                removed += replaced[next++];
        offset += replaced_size + removed;
        const std::size_t before = new_text.size();
        uni::append_utf8(new_text, ch.c);
        new_alignments.insert(new_alignments.end(), new_text.size() - before, align);
    }
    alignments_.erase(alignments_.begin() + static_cast<std::ptrdiff_t>(begin),
                      alignments_.begin() + static_cast<std::ptrdiff_t>(end));
    alignments_.insert(alignments_.begin() + static_cast<std::ptrdiff_t>(begin),
                       new_alignments.begin(), new_alignments.end());
    normalized_.replace(begin, end - begin, new_text);
}

void NormalizedString::transform(const std::vector<Change>& dest, std::size_t initial_offset) {
    const auto range = original_to_normalized(0, original_len_);
    if (!range) return;
    transform_range(range->first, range->second, dest, initial_offset);
}

bool NormalizedString::identity_is_noop() const {
    // transform() works on the normalised range the whole original maps to; only when that is
    // all of the text does replacing every character by itself change nothing.
    const auto range = original_to_normalized(0, original_len_);
    return !range || (range->first == 0 && range->second == normalized_.size());
}

void NormalizedString::unicode_normalize(bool compose, bool compatibility) {
    if (identity_is_noop() && uni::is_normalized(normalized_, compose, compatibility)) return;
    // unicode-normalization-alignments' Decompositions: each character's decomposition, the
    // first code point marked 0 and the rest +1, then combining marks stably sorted by
    // combining class up to the next starter (the marks carry their flags with them).
    struct Item {
        int ccc;
        char32_t c;
        std::ptrdiff_t change;
    };
    std::vector<Item> items;
    items.reserve(normalized_.size() + 8);
    std::size_t ready_end = 0;
    const auto sort_pending = [&] {
        std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(ready_end), items.end(),
                         [](const Item& a, const Item& b) { return a.ccc < b.ccc; });
        ready_end = items.size();
    };
    char32_t parts[32];
    for (std::size_t i = 0; i < normalized_.size();) {
        std::size_t len;
        const char32_t c = uni::decode(normalized_, i, &len);
        i += len;
        const int n = uni::decompose(c, compatibility, parts);
        for (int k = 0; k < n; ++k) {
            const int ccc = uni::combining_class(parts[k]);
            if (ccc == 0) sort_pending();
            items.push_back({ccc, parts[k], k == 0 ? 0 : 1});
        }
    }
    sort_pending();

    std::vector<Change> dest;
    dest.reserve(items.size());
    if (!compose) {
        for (const Item& it : items)
            dest.push_back({it.c, it.change});
    } else {
        // Recompositions: a starter absorbs the following characters it composes with (the
        // composite's change is k + change - 1); blocked marks wait in `pending`.
        std::optional<Change> composee;
        // The last blocked mark's class, -1 while none waits (a sentinel: in a unity batch gcc
        // -O3 warns that an optional<int> here may be used uninitialized, which it is not).
        int last_ccc = -1;
        std::vector<Change> pending;
        for (const Item& it : items) {
            const Change ch{it.c, it.change};
            if (!composee) {
                if (it.ccc != 0) {
                    dest.push_back(ch);
                    continue;
                }
                composee = ch;
                continue;
            }
            const Change k = *composee;
            if (last_ccc < 0) {
                if (const auto r = uni::compose(k.c, ch.c)) {
                    composee = Change{*r, k.change + ch.change - 1};
                    continue;
                }
                if (it.ccc == 0) {
                    composee = ch;
                    dest.push_back(k);
                    continue;
                }
                pending.push_back(ch);
                last_ccc = it.ccc;
                continue;
            }
            if (last_ccc >= it.ccc) {
                if (it.ccc == 0) {
                    composee = ch;
                    last_ccc = -1;
                    dest.push_back(k);
                    dest.insert(dest.end(), pending.begin(), pending.end());
                    pending.clear();
                    continue;
                }
                pending.push_back(ch);
                last_ccc = it.ccc;
                continue;
            }
            if (const auto r = uni::compose(k.c, ch.c)) {
                composee = Change{*r, k.change + ch.change - 1};
                continue;
            }
            pending.push_back(ch);
            last_ccc = it.ccc;
        }
        if (composee) dest.push_back(*composee);
        dest.insert(dest.end(), pending.begin(), pending.end());
    }
    transform(dest, 0);
}

void NormalizedString::filter(const std::function<bool(char32_t)>& keep) {
    std::ptrdiff_t removed = 0;
    std::size_t removed_start = 0;
    std::vector<Change> transforms;
    transforms.reserve(normalized_.size());
    std::optional<char32_t> last;
    for (std::size_t i = 0; i < normalized_.size();) {
        std::size_t len;
        const char32_t c = uni::decode(normalized_, i, &len);
        i += len;
        if (keep(c)) {
            if (last)
                transforms.push_back({*last, -removed});
            else
                removed_start = static_cast<std::size_t>(removed);
            last = c;
            removed = 0;
        } else {
            ++removed;
        }
    }
    if (last) transforms.push_back({*last, -removed});
    transform(transforms, removed_start);
}

void NormalizedString::map(const std::function<char32_t(char32_t)>& f) {
    std::vector<Change> transforms;
    transforms.reserve(normalized_.size());
    for (std::size_t i = 0; i < normalized_.size();) {
        std::size_t len;
        const char32_t c = uni::decode(normalized_, i, &len);
        i += len;
        transforms.push_back({f(c), 0});
    }
    transform(transforms, 0);
}

void NormalizedString::lowercase() {
    std::vector<Change> transforms;
    transforms.reserve(normalized_.size());
    bool changed = false;
    char32_t lower[3];
    for (std::size_t i = 0; i < normalized_.size();) {
        std::size_t len;
        const char32_t c = uni::decode(normalized_, i, &len);
        i += len;
        const int n = uni::to_lowercase(c, lower);
        changed = changed || n != 1 || lower[0] != c;
        for (int k = 0; k < n; ++k)
            transforms.push_back({lower[k], k > 0 ? 1 : 0});
    }
    // Replacing every character by itself leaves text and alignments as they are.
    if (changed || !identity_is_noop()) transform(transforms, 0);
}

void NormalizedString::prepend(std::string_view s) {
    if (normalized_.empty()) return;
    std::size_t next_len;
    const char32_t next = uni::decode(normalized_, 0, &next_len);
    std::vector<Change> transforms;
    bool first = true;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len;
        const char32_t c = uni::decode(s, i, &len);
        i += len;
        transforms.push_back({c, first ? 0 : 1});
        first = false;
    }
    transforms.push_back({next, 1});
    transform_range(0, next_len, transforms, 0);
}

void NormalizedString::replace(const std::vector<PatternMatch>& matches, std::string_view content) {
    std::string text;
    text.reserve(normalized_.size());
    std::vector<Align> aligns;
    aligns.reserve(alignments_.size());
    std::size_t last_end = 0;
    for (const PatternMatch& m : matches) {
        if (!m.is_match) continue;
        text.append(normalized_, last_end, m.begin - last_end);
        aligns.insert(aligns.end(), alignments_.begin() + static_cast<std::ptrdiff_t>(last_end),
                      alignments_.begin() + static_cast<std::ptrdiff_t>(m.begin));
        // Every inserted character shares the alignment of the match's last byte.
        const Align align = m.end < 1 ? Align{0, 0} : alignments_[m.end - 1];
        const std::size_t before = text.size();
        text.append(content);
        aligns.insert(aligns.end(), text.size() - before, align);
        last_end = m.end;
    }
    text.append(normalized_, last_end);
    aligns.insert(aligns.end(), alignments_.begin() + static_cast<std::ptrdiff_t>(last_end),
                  alignments_.end());
    normalized_ = std::move(text);
    alignments_ = std::move(aligns);
}

void NormalizedString::lrstrip(bool left, bool right) {
    std::vector<char32_t> chars;
    for (std::size_t i = 0; i < normalized_.size();) {
        std::size_t len;
        chars.push_back(uni::decode(normalized_, i, &len));
        i += len;
    }
    std::size_t leading = 0, trailing = 0;
    if (left)
        while (leading < chars.size() && uni::is_whitespace(chars[leading]))
            ++leading;
    if (right)
        while (trailing < chars.size() && uni::is_whitespace(chars[chars.size() - 1 - trailing]))
            ++trailing;
    if (leading == 0 && trailing == 0) return;
    const std::size_t count = chars.size();
    std::vector<Change> transforms;
    // Hugging Face compares the character index with the *byte* length here
    // (`i == self.len() - trailing_spaces - 1`); reproduced, so offsets after multi-byte text
    // come out as Python's do.
    const auto marker =
        static_cast<std::ptrdiff_t>(normalized_.size()) - static_cast<std::ptrdiff_t>(trailing) - 1;
    for (std::size_t i = 0; i < count; ++i) {
        if (i < leading || i + trailing >= count) continue;
        if (static_cast<std::ptrdiff_t>(i) == marker)
            transforms.push_back({chars[i], -static_cast<std::ptrdiff_t>(trailing)});
        else
            transforms.push_back({chars[i], 0});
    }
    transform(transforms, leading);
}

std::vector<NormalizedString> NormalizedString::split(std::vector<PatternMatch> matches,
                                                      SplitBehavior behavior) const {
    // (range, remove) pairs as tokenizers computes them for each behaviour.
    std::vector<PatternMatch> splits;
    switch (behavior) {
        case SplitBehavior::Isolated:
            for (auto& m : matches)
                m.is_match = false;
            splits = std::move(matches);
            break;
        case SplitBehavior::Removed:
            splits = std::move(matches);
            break;
        case SplitBehavior::Contiguous: {
            bool previous = false;
            for (const auto& m : matches) {
                if (m.is_match == previous && !splits.empty())
                    splits.back().end = m.end;
                else
                    splits.push_back({m.begin, m.end, false});
                previous = m.is_match;
            }
            break;
        }
        case SplitBehavior::MergedWithPrevious: {
            bool previous = false;
            for (const auto& m : matches) {
                if (m.is_match && !previous && !splits.empty())
                    splits.back().end = m.end;
                else
                    splits.push_back({m.begin, m.end, false});
                previous = m.is_match;
            }
            break;
        }
        case SplitBehavior::MergedWithNext: {
            bool previous = false;
            for (auto it = matches.rbegin(); it != matches.rend(); ++it) {
                if (it->is_match && !previous && !splits.empty())
                    splits.back().begin = it->begin;
                else
                    splits.push_back({it->begin, it->end, false});
                previous = it->is_match;
            }
            std::reverse(splits.begin(), splits.end());
            break;
        }
    }
    std::vector<NormalizedString> out;
    out.reserve(splits.size());
    for (const auto& s : splits) {
        if (s.is_match) continue;
        if (auto piece = slice(s.begin, s.end)) out.push_back(std::move(*piece));
    }
    return out;
}

// ---- PreTokenizedString -----------------------------------------------------------------

void PreTokenizedString::split(
    const std::function<void(NormalizedString&&, std::vector<Split>&)>& fn) {
    std::vector<Split> result;
    result.reserve(splits.size());
    std::vector<Split> produced;
    for (Split& s : splits) {
        if (s.tokens) {
            result.push_back(std::move(s));
            continue;
        }
        produced.clear();
        fn(std::move(s.normalized), produced);
        for (Split& p : produced)
            if (!p.normalized.empty()) result.push_back(std::move(p));
    }
    splits = std::move(result);
}

void PreTokenizedString::normalize(const std::function<void(NormalizedString&)>& fn) {
    for (Split& s : splits)
        if (!s.tokens) fn(s.normalized);
}

}  // namespace attnviz::text::hf
