// A small, fast, seedable generator used for weight initialisation, dropout and token
// embeddings.  The sequence for a seed is fixed by this file (xoshiro256** seeded through
// splitmix64), independent of the standard library, so results are the same on every
// platform and compiler.
#pragma once

#include <cstdint>
#include <string_view>

namespace attnviz::ops {

class Random {
  public:
    explicit Random(std::uint64_t seed);
    std::uint64_t next_u64();
    /// Uniform in [0, 1) with 24 random bits.
    float uniform();
    /// Uniform in [lo, hi).
    float uniform(float lo, float hi);
    /// Standard normal (Box-Muller on two uniforms).
    float normal();

  private:
    std::uint64_t s_[4];
};

/// splitmix64 finaliser: a good 64-bit mix of x.
std::uint64_t mix64(std::uint64_t x);
/// FNV-1a of the bytes, then mix64: the seed of a token's embedding.
std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed);

}  // namespace attnviz::ops
