#include "engine/ops/dropout.h"

#include "engine/ops/random.h"

namespace attnviz::ops {

void dropout_inplace(float* data, std::size_t n, float p, std::uint64_t seed,
                     std::uint64_t stream) {
    if (p <= 0.0f) return;
    Random rng(mix64(seed) ^ mix64(stream + 0x51ed2701u));
    const float keep_scale = 1.0f / (1.0f - p);
    // Compare 24-bit uniforms against p: exact for p that are multiples of 2^-24.
    // Multiplying (rather than assigning 0) keeps NaN rows NaN, as PyTorch does.
    for (std::size_t i = 0; i < n; ++i)
        data[i] *= rng.uniform() < p ? 0.0f : keep_scale;
}

}  // namespace attnviz::ops
