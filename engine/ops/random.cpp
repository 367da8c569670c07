#include "engine/ops/random.h"

#include <cmath>
#include <numbers>

namespace attnviz::ops {

std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed) {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ mix64(seed);
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return mix64(h);
}

Random::Random(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : s_) {
        x = mix64(x);
        s = x;
    }
}

static inline std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

std::uint64_t Random::next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

float Random::uniform() {
    return static_cast<float>(next_u64() >> 40) * 0x1.0p-24f;
}

float Random::uniform(float lo, float hi) {
    return lo + (hi - lo) * uniform();
}

float Random::normal() {
    // 1 - u keeps the argument of log in (0, 1].
    const double u1 = 1.0 - static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
    const double u2 = static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
    return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) *
                              std::cos(2.0 * std::numbers::pi * u2));
}

}  // namespace attnviz::ops
