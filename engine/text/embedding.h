// Deterministic token embeddings: the same token always maps to the same vector for a
// given seed (a hash of the token's UTF-8 bytes seeds a generator of N(0, 1) values, scaled
// by 1/sqrt(embed_dim) so dot products stay O(1)), plus optional sinusoidal positional
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

/// [L, E] embeddings of one token sequence.
Tensor embed_tokens(const std::vector<std::string>& tokens, const EmbeddingOptions& options);

/// [L, E] sinusoidal positional encoding (works for odd E too).
Tensor sinusoidal_positional_encoding(std::int64_t length, std::int64_t embed_dim);

/// A batch of sentences padded to the longest: x [N, Lmax, E] (padding rows are zero),
/// key_padding_mask [N, Lmax] bool (true on padding), the tokens with "[PAD]" filled in,
/// and each sentence's real length.
struct Batch {
    Tensor x;
    Mask key_padding_mask;
    std::vector<std::vector<std::string>> tokens;
    std::vector<std::int64_t> lengths;
    bool has_padding() const;
};

Batch embed_batch(const std::vector<std::vector<std::string>>& sentences,
                  const EmbeddingOptions& options);

inline constexpr const char* kPadToken = "[PAD]";

}  // namespace attnviz::text
