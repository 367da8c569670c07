// Readable views of a model's attention, computed from the per-layer maps a forward pass gave:
//
//   words     pieces grouped back into the words (and CJK characters, punctuation marks) of
//             the input, from the tokenizer's offsets.  A word's attention to another word is
//             summed over the key word's pieces and averaged over the query word's pieces, so
//             rows still sum to 1.  Special tokens stay one group each.
//   hide      special tokens ([CLS], [SEP], <s>, <|endoftext|> added by the template) dropped,
//             and every row divided by what is left of it, so it sums to 1 again over the
//             tokens a person reads.  A row with nothing left stays all zero.
//   rollout   attention rollout (Abnar & Zuidema 2020) with the residual term: per layer
//             Â = ½ (mean over heads) + ½ I, rows renormalised, and R_l = Â_l · R_(l−1).
//             R_l says how much each token at layer l draws on each input token.
//
// Rollout is computed on the pieces and then grouped the same way as the maps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tensor.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace attnviz::models {

/// Which tokens a view shows, and which pieces each one gathers.
struct TokenGrouping {
    std::vector<std::vector<std::int64_t>> members;  ///< per shown token: its pieces, ascending
    std::vector<std::string> text;                   ///< what each shown token reads as
    std::vector<std::uint8_t> special;               ///< 1 for a special token kept
    std::vector<std::int32_t> sequence;              ///< 0 / 1: first / second text, −1 template
    bool words = false, hide_special = false;

    std::size_t size() const { return members.size(); }
    /// True when the view is the pieces themselves (nothing grouped, nothing hidden).
    bool identity(std::size_t pieces) const;
};

/// The grouping of `encoding` (of `text`, and `text2` for a pair).  A piece of spaces only
/// joins the word after it (the word before it at the end of a text); tokens with no offsets
/// stay alone; with `hide_special` the special
/// tokens are left out.  Throws std::invalid_argument when every token would be hidden.
TokenGrouping group_tokens(const text::Encoding& encoding, std::string_view text,
                           std::optional<std::string_view> text2, bool words, bool hide_special);

/// The maps of `grouping`: `maps` is [..., L, L] over the pieces (L = pieces), the result
/// [..., G, G].  Cell (g, k) = mean over i in g of the sum over j in k of maps(i, j); with
/// hide_special each row is then divided by its sum (left zero when the sum is 0).
Tensor group_maps(const Tensor& maps, const TokenGrouping& grouping);

/// Attention rollout with the residual term, over the pieces: `means[l]` is layer l's mean
/// over heads, [L, L] (or [1, L, L]).  Returns R_l for every layer, each [L, L].
std::vector<Tensor> attention_rollout(const std::vector<Tensor>& means);

/// The same, one layer at a time, for a caller that keeps only part of each R_l (a window):
/// it holds R_(l−1) alone, [L, L], instead of every layer's.
class RolloutAccumulator {
  public:
    /// Takes layer l's mean over heads, [L, L] (or [1, L, L]); returns R_l.
    const Tensor& add(const Tensor& mean);

  private:
    Tensor a_, r_, next_;
    std::size_t layers_ = 0;
};

/// Rows and columns [begin, begin + count) of every [L, L] map of `maps` ([..., L, L]):
/// [..., count, count].
Tensor crop_maps(const Tensor& maps, std::int64_t begin, std::int64_t count);

/// Tokens [begin, begin + count) of an encoding, every field cut alike.
text::Encoding slice_encoding(const text::Encoding& encoding, std::size_t begin, std::size_t count);

}  // namespace attnviz::models
