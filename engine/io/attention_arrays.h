// Attention maps computed elsewhere: every layer's per-head maps as one array, and the tokens
// they are over.  What Hugging Face's `output_attentions=True`, a TransformerLens cache or
// `attnviz attend --out-weights --out-tokens` leave on disk (the README shows the Python).
//
// The maps, float32 or float16 (float64 and bfloat16 are read too):
//   - a .npy array [layers, heads, L, L], [heads, L, L] (one layer) or [layers, 1, heads, L, L]
//     (torch.stack of Hugging Face's attentions, batch of one), C order;
//   - a .safetensors file with one tensor per layer named "layer.0", "layer.1", ..., each
//     [heads, L, L] or [1, heads, L, L], and no other tensor.
// The file is memory-mapped and its header checked against its size before anything is read;
// a layer is converted to float32 only when asked for (read_layer), one at a time, so opening
// costs the header and reading costs one layer's buffer.
//
// The tokens: a JSON list of strings, or an object {"tokens": [...], "ids": [...]} with
// optional "text" (what each token shows as: attnviz's own), "offsets" ([[begin, end], ...] in
// code points of the input, Hugging Face's offset_mapping), "special" (booleans) and "input"
// (the text the offsets count in: with offsets, the window can group pieces into words); every
// list as long as "tokens".
//
// Every failure throws DataError naming the file and what is wrong, in one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::io {

class MappedFile;

struct AttentionTokens {
    std::vector<std::string> text;                               ///< what each token shows as
    std::vector<std::int64_t> ids;                               ///< empty when the file gives none
    std::vector<std::pair<std::int64_t, std::int64_t>> offsets;  ///< empty when none
    std::vector<std::uint8_t> special;                           ///< empty when none
    std::string input;  ///< the text the offsets count in; empty when none
    std::size_t size() const { return text.size(); }
};

AttentionTokens parse_attention_tokens(std::string_view json, const std::string& name);
AttentionTokens read_attention_tokens(const std::string& path);

/// "tokens.json" in the folder of `array_path` when that file exists, else "".
std::string tokens_beside(const std::string& array_path);

class AttentionArrays {
  public:
    /// Maps the file and checks its header (see the top of this file).
    static AttentionArrays open(const std::string& path);

    const std::string& path() const { return path_; }
    std::int64_t layers() const { return std::int64_t(layers_.size()); }
    std::int64_t heads() const { return heads_; }
    std::int64_t length() const { return length_; }      ///< L: rows and columns of every map
    const std::string& dtype() const { return dtype_; }  ///< "float32", "float16", ...
    /// Floats in one layer's maps: heads × L × L.
    std::size_t layer_values() const { return std::size_t(heads_ * length_ * length_); }

    /// Layer `layer`'s maps [heads, L, L] as float32 into `dst` (layer_values() floats).
    /// Throws DataError naming the layer, head, row and column (counted from 1) of the first
    /// value that is NaN or infinite.
    void read_layer(std::int64_t layer, float* dst) const;
    /// Head `head` of layer `layer` [L, L] as float32 into `dst` (L × L floats): only that
    /// head's part of the file is read, so a full-map view of one head of an 8 GB file touches
    /// L² values.  Throws DataError as read_layer does, and for a layer or head out of range.
    void read_head(std::int64_t layer, std::int64_t head, float* dst) const;

  private:
    /// Values [first, first + n) of layer `layer`'s [heads, L, L] into `dst`.
    void read_values(std::int64_t layer, std::size_t first, std::size_t n, float* dst) const;
    struct Slice {
        const char* data = nullptr;
        std::string dtype;  ///< safetensors' name of it: "F32", "F16", "F64", "BF16"
        bool big_endian = false;
        std::size_t itemsize = 4;
    };
    std::string path_;
    std::shared_ptr<const MappedFile> file_;
    std::vector<Slice> layers_;
    std::int64_t heads_ = 0, length_ = 0;
    std::string dtype_;
};

/// Checks that the tokens and the maps agree: one token per row.
void check_tokens(const AttentionArrays& maps, const AttentionTokens& tokens,
                  const std::string& tokens_name);

/// Checks that maps `b` can be compared with maps `a` cell by cell (two checkpoints on the same
/// text): the same layers, heads and length L.  Throws DataError naming b's file, which of the
/// three differs and both values.
void check_comparable(const AttentionArrays& a, const AttentionArrays& b);

/// How the tokens of B differ from those of A, both of one length: "" when they are the same,
/// else "the tokens of B.json differ from A.json's at 2 of 10 positions (first: position 3,
/// 'cat' against 'dog')".  Not a refusal: two tokenizers of one text may spell pieces
/// differently, and the maps are still compared position by position.
std::string token_difference(const AttentionTokens& a, const AttentionTokens& b,
                             const std::string& a_name, const std::string& b_name);

/// What reading every layer finds beyond NaN: the row whose sum is farthest from 1, and whether
/// every map is causal (nothing above the diagonal).
class AttentionScan {
  public:
    /// One layer's maps [heads, L, L].
    void add(std::int64_t layer, const float* maps, std::int64_t heads, std::int64_t L);
    bool causal() const { return causal_; }
    /// The warning when a row's sum is off by more than `tolerance`, "" otherwise:
    /// "A.npy: rows do not all sum to 1: layer 2, head 3, row 5 sums to 0.9 (counted from 1)".
    std::string warning(const std::string& name, double tolerance = 1e-3) const;

  private:
    std::int64_t layer_ = -1, head_ = 0, row_ = 0;
    double sum_ = 1.0, deviation_ = 0.0;
    bool causal_ = true;
};

/// Reads every layer once (NaN, row sums): the check `attnviz view` makes before the window
/// opens.  Returns the row-sum warning, "" when none.
std::string validate_attention_arrays(const AttentionArrays& maps);

}  // namespace attnviz::io
