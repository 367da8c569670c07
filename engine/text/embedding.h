// Deterministic token embeddings: the same token always maps to the same vector for a
// given seed (a hash of the token's UTF-8 bytes seeds a generator of N(0, 1) values, as
// nn.Embedding is initialised), plus optional sinusoidal positional
// encoding (Vaswani et al.: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace attnviz::text {

struct EmbeddingOptions {
    std::int64_t embed_dim = 0;
    std::uint64_t seed = 0;
    bool positional_encoding = true;
};

/// [L, E] embeddings of one token sequence (L may be 0).  Row t is the token's vector plus,
/// when enabled, PE[t, :].  Throws std::invalid_argument if embed_dim <= 0.
Tensor embed_tokens(const std::vector<std::string>& tokens, const EmbeddingOptions& options);

/// [L, E] sinusoidal positional encoding, computed in double and rounded to float.  For an
/// odd E the last column is the sine of an unpaired frequency: PE[pos, E-1] =
/// sin(pos / 10000^((E-1)/E)).  Throws std::invalid_argument if E <= 0 or L < 0.
Tensor sinusoidal_positional_encoding(std::int64_t length, std::int64_t embed_dim);

/// A batch of sentences padded to the longest: x [N, Lmax, E] (padding rows are zero),
/// key_padding_mask [N, Lmax] bool (true on padding), the tokens with "[PAD]" filled in,
/// and each sentence's real length.  Padding rows get no positional encoding; a real token
/// gets the same row it would get from embed_tokens on its sentence alone.
struct Batch {
    Tensor x;
    Mask key_padding_mask;
    std::vector<std::vector<std::string>> tokens;
    std::vector<std::int64_t> lengths;
    bool has_padding() const;  ///< true if some sentence is shorter than the longest
};

/// Throws std::invalid_argument for an empty batch, embed_dim <= 0, or a sentence without
/// tokens ("embed_batch: sentence 2 has no tokens ...", sentences numbered from 1).
Batch embed_batch(const std::vector<std::vector<std::string>>& sentences,
                  const EmbeddingOptions& options);

inline constexpr const char* kPadToken = "[PAD]";

}  // namespace attnviz::text
