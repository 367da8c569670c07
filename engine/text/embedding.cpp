#include "engine/text/embedding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/ops/random.h"

namespace attnviz::text {

namespace {

void check_embed_dim(std::int64_t embed_dim, const char* where) {
    if (embed_dim <= 0)
        throw std::invalid_argument(std::string(where) + ": embed_dim must be positive, got " +
                                    std::to_string(embed_dim));
}

// Writes the token's E values into row: N(0, 1) from a generator seeded by the token's bytes,
// the distribution nn.Embedding starts from.  (Scaling by 1/sqrt(E) made every component
// smaller than the positional encoding's, so random-weight attention came out almost uniform
// and nothing was left to see.)
void token_vector(const std::string& token, std::uint64_t seed, std::int64_t embed_dim,
                  float* row) {
    ops::Random random(ops::hash_bytes(token, seed));
    for (std::int64_t j = 0; j < embed_dim; ++j)
        row[j] = random.normal();
}

// Adds PE[pos, :] to row; the angle is computed in double so positions in the thousands
// keep full float accuracy.
void add_positional_encoding(std::int64_t pos, std::int64_t embed_dim, float* row) {
    const double d = static_cast<double>(embed_dim);
    for (std::int64_t j = 0; j < embed_dim; j += 2) {
        // Columns 2i and 2i+1 share the frequency 1 / 10000^(2i/d); with an odd embed_dim
        // the last column is the sine of an unpaired frequency.
        const double angle =
            static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(j) / d);
        row[j] += static_cast<float>(std::sin(angle));
        if (j + 1 < embed_dim) row[j + 1] += static_cast<float>(std::cos(angle));
    }
}

}  // namespace

Tensor sinusoidal_positional_encoding(std::int64_t length, std::int64_t embed_dim) {
    check_embed_dim(embed_dim, "sinusoidal_positional_encoding");
    if (length < 0)
        throw std::invalid_argument(
            "sinusoidal_positional_encoding: length must not be negative, got " +
            std::to_string(length));
    Tensor pe({length, embed_dim});
    for (std::int64_t pos = 0; pos < length; ++pos)
        add_positional_encoding(pos, embed_dim, pe.ptr() + pos * embed_dim);
    return pe;
}

Tensor embed_tokens(const std::vector<std::string>& tokens, const EmbeddingOptions& options) {
    check_embed_dim(options.embed_dim, "embed_tokens");
    const auto length = static_cast<std::int64_t>(tokens.size());
    const std::int64_t e = options.embed_dim;
    Tensor x({length, e});
    for (std::int64_t pos = 0; pos < length; ++pos) {
        float* row = x.ptr() + pos * e;
        token_vector(tokens[static_cast<std::size_t>(pos)], options.seed, e, row);
        if (options.positional_encoding) add_positional_encoding(pos, e, row);
    }
    return x;
}

bool Batch::has_padding() const {
    return std::any_of(key_padding_mask.values.begin(), key_padding_mask.values.end(),
                       [](float v) { return v != 0.0f; });
}

Batch embed_batch(const std::vector<std::vector<std::string>>& sentences,
                  const EmbeddingOptions& options) {
    check_embed_dim(options.embed_dim, "embed_batch");
    if (sentences.empty()) throw std::invalid_argument("embed_batch: the batch has no sentences");
    std::size_t max_length = 0;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        if (sentences[i].empty())
            throw std::invalid_argument("embed_batch: sentence " + std::to_string(i + 1) +
                                        " has no tokens (sentences are numbered from 1)");
        max_length = std::max(max_length, sentences[i].size());
    }

    const auto n = static_cast<std::int64_t>(sentences.size());
    const auto l = static_cast<std::int64_t>(max_length);
    const std::int64_t e = options.embed_dim;
    Batch batch;
    batch.x = Tensor({n, l, e});  // padding rows stay zero
    std::vector<float> mask(static_cast<std::size_t>(n * l), 0.0f);
    batch.tokens.reserve(sentences.size());
    batch.lengths.reserve(sentences.size());
    for (std::int64_t b = 0; b < n; ++b) {
        const auto& sentence = sentences[static_cast<std::size_t>(b)];
        const Tensor x = embed_tokens(sentence, options);
        std::copy(x.data.begin(), x.data.end(), batch.x.data.begin() + b * l * e);
        std::vector<std::string> padded = sentence;
        padded.resize(max_length, kPadToken);
        batch.tokens.push_back(std::move(padded));
        batch.lengths.push_back(static_cast<std::int64_t>(sentence.size()));
        for (auto t = static_cast<std::int64_t>(sentence.size()); t < l; ++t)
            mask[static_cast<std::size_t>(b * l + t)] = 1.0f;
    }
    batch.key_padding_mask = Mask::boolean({n, l}, std::move(mask));
    return batch;
}

}  // namespace attnviz::text
