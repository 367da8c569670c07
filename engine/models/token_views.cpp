#include "engine/models/token_views.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "engine/ops/gemm.h"
#include "engine/text/unicode.h"

namespace attnviz::models {

namespace {

using text::unicode::CharClass;

/// The input's code points, and the word each belongs to (−1: a space, or a control).
struct Words {
    std::u32string code_points;
    std::vector<std::int64_t> word;
};

/// Words as a reader sees them: runs of letters and digits (with their combining marks), and
/// one word per CJK character, punctuation mark or emoji (with its modifiers and ZWJ parts).
Words split_words(std::string_view text) {
    namespace u = text::unicode;  // NOLINT
    Words w;
    for (std::size_t pos = 0; pos < text.size();) {
        const u::Decoded d = u::decode(text, pos);
        w.code_points.push_back(d.code_point);
        pos += d.length;
    }
    std::int64_t next = 0;
    CharClass prev = CharClass::Whitespace;
    bool pending_flag = false;  // a regional indicator waiting for its pair
    for (const char32_t cp : w.code_points) {
        const CharClass c = u::classify(cp);
        const bool after_space = prev == CharClass::Whitespace || prev == CharClass::Ignorable;
        std::int64_t id = -1;
        switch (c) {
            case CharClass::Whitespace:
            case CharClass::Ignorable:
                break;
            case CharClass::Mark:
            case CharClass::VariationSelector:
            case CharClass::Tag:
            case CharClass::EmojiModifier:
            case CharClass::Joiner:
                id = after_space ? next++ : next - 1;
                break;
            case CharClass::Word:
                id = prev == CharClass::Word || prev == CharClass::Mark || prev == CharClass::Joiner
                         ? next - 1
                         : next++;
                break;
            case CharClass::Emoji:
                id = prev == CharClass::Joiner && !after_space ? next - 1 : next++;
                break;
            case CharClass::RegionalIndicator:
                id = pending_flag ? next - 1 : next++;
                break;
            case CharClass::Ideograph:
            case CharClass::Punctuation:
                id = next++;
                break;
        }
        pending_flag = c == CharClass::RegionalIndicator && !pending_flag;
        // A mark continues a word only as far as the word would: "é" then "x" stays one word.
        if (c != CharClass::Mark && c != CharClass::VariationSelector &&
            c != CharClass::EmojiModifier && c != CharClass::Tag)
            prev = c;
        w.word.push_back(id);
    }
    return w;
}

/// Code points [begin, end) of the input, without the spaces at either end.
std::string utf8_of(const std::u32string& cps, std::int64_t begin, std::int64_t end) {
    end = std::min(end, std::int64_t(cps.size()));
    while (begin < end && text::unicode::is_whitespace(cps[std::size_t(begin)]))
        ++begin;
    while (end > begin && text::unicode::is_whitespace(cps[std::size_t(end - 1)]))
        --end;
    std::string out;
    for (std::int64_t k = begin; k < end && k < std::int64_t(cps.size()); ++k)
        text::unicode::append_utf8(out, cps[std::size_t(k)]);
    return out;
}

}  // namespace

bool TokenGrouping::identity(std::size_t pieces) const {
    if (members.size() != pieces) return false;
    for (std::size_t g = 0; g < members.size(); ++g)
        if (members[g].size() != 1 || members[g][0] != std::int64_t(g)) return false;
    return true;
}

TokenGrouping group_tokens(const text::Encoding& e, std::string_view text,
                           std::optional<std::string_view> text2, bool words, bool hide_special) {
    TokenGrouping out;
    out.words = words;
    out.hide_special = hide_special;
    const Words first = split_words(text);
    const Words second = split_words(text2.value_or(std::string_view()));
    // (sequence, word) -> shown token; pieces without a word get a key of their own.
    std::map<std::pair<std::int32_t, std::int64_t>, std::size_t> group_of;
    // Per shown token: a word's code points in its text, or (-1, -1) for a lone piece.
    std::vector<std::pair<std::int64_t, std::int64_t>> span;
    for (std::size_t k = 0; k < e.size(); ++k) {
        const bool special = k < e.special.size() && e.special[k];
        if (special && hide_special) continue;
        const std::int32_t seq = k < e.sequence.size() ? e.sequence[k] : 0;
        const Words& w = seq == 1 ? second : first;
        const auto [b, end] =
            k < e.offsets.size() ? e.offsets[k] : std::pair<std::int64_t, std::int64_t>{0, 0};
        std::int64_t word = -1;
        if (words && !special && seq >= 0 && end > b) {
            // The word of the piece's first letter; a piece of spaces only joins the word that
            // follows it (as GPT-2's "Ġcat" carries its space), or the one before at the end.
            const auto n = std::int64_t(w.word.size());
            for (std::int64_t c = b; c < n && word < 0; ++c)
                word = w.word[std::size_t(c)];
            for (std::int64_t c = std::min(b, n) - 1; c >= 0 && word < 0; --c)
                word = w.word[std::size_t(c)];
        }
        if (word >= 0) {
            // A word reads as the input's text, without the spaces around it.
            const auto [it, added] = group_of.emplace(std::pair{seq, word}, out.members.size());
            const std::size_t g = it->second;
            if (added) {
                out.members.push_back({std::int64_t(k)});
                out.text.emplace_back();  // below, from its span
                out.special.push_back(0);
                out.sequence.push_back(seq);
                span.emplace_back(b, end);
            } else {
                out.members[g].push_back(std::int64_t(k));
                span[g].first = std::min(span[g].first, b);
                span[g].second = std::max(span[g].second, end);
            }
            continue;
        }
        out.members.push_back({std::int64_t(k)});
        out.text.push_back(k < e.text.size() ? e.text[k] : std::string());
        out.special.push_back(special ? 1 : 0);
        out.sequence.push_back(seq);
        span.emplace_back(-1, -1);  // keeps its token's own text
    }
    for (std::size_t g = 0; g < out.size(); ++g)
        if (span[g].first >= 0)
            out.text[g] = utf8_of(out.sequence[g] == 1 ? second.code_points : first.code_points,
                                  span[g].first, span[g].second);
    if (out.members.empty())
        throw std::invalid_argument(
            "every token is a special token: there is nothing left to show with them hidden");
    return out;
}

Tensor group_maps(const Tensor& maps, const TokenGrouping& g) {
    if (maps.rank() < 2)
        throw std::invalid_argument("group_maps: maps of rank " + std::to_string(maps.rank()));
    const std::int64_t L = maps.shape.back();
    if (maps.shape[maps.rank() - 2] != L)
        throw std::invalid_argument("group_maps: maps are not square: " + shape_string(maps.shape));
    for (const auto& m : g.members)
        for (const std::int64_t i : m)
            if (i < 0 || i >= L)
                throw std::invalid_argument("group_maps: a group names piece " + std::to_string(i) +
                                            " of " + std::to_string(L));
    const auto G = std::int64_t(g.size());
    Shape shape = maps.shape;
    shape[shape.size() - 1] = shape[shape.size() - 2] = G;
    Tensor out(shape);
    const std::size_t batch = maps.numel() / std::size_t(L * L);
    std::vector<double> cols(std::size_t(L * G));  // [i, k]: row i summed over key group k
    for (std::size_t b = 0; b < batch; ++b) {
        const float* in = maps.ptr() + b * std::size_t(L * L);
        float* o = out.ptr() + b * std::size_t(G * G);
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t k = 0; k < G; ++k) {
                double s = 0.0;
                for (const std::int64_t j : g.members[std::size_t(k)])
                    s += double(in[i * L + j]);
                cols[std::size_t(i * G + k)] = s;
            }
        for (std::int64_t q = 0; q < G; ++q) {
            const auto& rows = g.members[std::size_t(q)];
            double total = 0.0;
            std::vector<double> row(std::size_t(G), 0.0);
            for (std::int64_t k = 0; k < G; ++k) {
                for (const std::int64_t i : rows)
                    row[std::size_t(k)] += cols[std::size_t(i * G + k)];
                row[std::size_t(k)] /= double(rows.size());
                total += row[std::size_t(k)];
            }
            const double scale = g.hide_special ? (total > 0.0 ? 1.0 / total : 0.0) : 1.0;
            for (std::int64_t k = 0; k < G; ++k)
                o[q * G + k] = float(row[std::size_t(k)] * scale);
        }
    }
    return out;
}

const Tensor& RolloutAccumulator::add(const Tensor& mean) {
    const std::int64_t L = mean.empty() ? 0 : mean.shape.back();
    if (layers_ == 0) {
        a_ = Tensor({L, L});
        r_ = Tensor({L, L});
    }
    if (L == 0 || mean.numel() != std::size_t(L * L) || a_.numel() != mean.numel())
        throw std::invalid_argument("attention_rollout: layer " + std::to_string(layers_) + " is " +
                                    shape_string(mean.shape) + ", not [" +
                                    std::to_string(a_.empty() ? L : a_.dim(0)) + "," +
                                    std::to_string(a_.empty() ? L : a_.dim(0)) + "]");
    for (std::int64_t i = 0; i < L; ++i) {
        double sum = 0.0;
        for (std::int64_t j = 0; j < L; ++j) {
            const double v = 0.5 * double(mean.data[std::size_t(i * L + j)]) + (i == j ? 0.5 : 0.0);
            a_.data[std::size_t(i * L + j)] = float(v);
            sum += v;
        }
        for (std::int64_t j = 0; j < L; ++j)
            a_.data[std::size_t(i * L + j)] = float(double(a_.data[std::size_t(i * L + j)]) / sum);
    }
    if (layers_++ == 0) {
        std::swap(r_, a_);
    } else {
        if (next_.numel() != r_.numel()) next_ = Tensor({L, L});
        ops::gemm(a_.ptr(), L, L, r_.ptr(), L, next_.ptr());
        std::swap(r_, next_);
    }
    return r_;
}

std::vector<Tensor> attention_rollout(const std::vector<Tensor>& means) {
    std::vector<Tensor> out;
    RolloutAccumulator r;
    for (const Tensor& m : means)
        out.push_back(r.add(m));
    return out;
}

Tensor crop_maps(const Tensor& maps, std::int64_t begin, std::int64_t count) {
    const std::int64_t L = maps.rank() < 2 ? 0 : maps.shape.back();
    if (maps.rank() < 2 || maps.shape[maps.rank() - 2] != L || begin < 0 || count < 0 ||
        begin + count > L)
        throw std::invalid_argument("crop_maps: tokens [" + std::to_string(begin) + ", " +
                                    std::to_string(begin + count) + ") of maps " +
                                    shape_string(maps.shape));
    Shape shape = maps.shape;
    shape[shape.size() - 2] = shape.back() = count;
    Tensor out(shape);
    const std::size_t n = maps.numel() / std::size_t(L * L);
    for (std::size_t m = 0; m < n; ++m)
        for (std::int64_t i = 0; i < count; ++i)
            std::copy_n(maps.ptr() + m * std::size_t(L * L) + std::size_t((begin + i) * L + begin),
                        count, out.ptr() + (m * std::size_t(count) + std::size_t(i)) * count);
    return out;
}

text::Encoding slice_encoding(const text::Encoding& e, std::size_t begin, std::size_t count) {
    text::Encoding out;
    const auto cut = [&](const auto& from, auto& to) {
        if (from.size() > begin)
            to.assign(from.begin() + std::ptrdiff_t(begin),
                      from.begin() + std::ptrdiff_t(std::min(from.size(), begin + count)));
    };
    cut(e.ids, out.ids);
    cut(e.tokens, out.tokens);
    cut(e.text, out.text);
    cut(e.offsets, out.offsets);
    cut(e.special, out.special);
    cut(e.type_ids, out.type_ids);
    cut(e.sequence, out.sequence);
    return out;
}

}  // namespace attnviz::models
