// IEEE 754 binary16 -> binary32 for one value, shared by the readers of float16 data
// (safetensors, GGUF's F16 tensors and the float16 scales of its quantized blocks).
#pragma once

#include <bit>
#include <cstdint>

namespace attnviz::io {

// Exact for every value: subnormals, signed zeros, infinities, and NaNs (payload kept in the
// top mantissa bits).  All three cases are computed and one is picked with masks: no branch,
// so GCC vectorises loops over it (a ?: chain it does not).
inline float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::int32_t magnitude = h & 0x7FFF;
    const std::int32_t exponent = magnitude >> 10;
    // Zero or subnormal: mantissa * 2^-24, exact in float (a signed conversion vectorises).
    const auto small = std::bit_cast<std::uint32_t>(static_cast<float>(magnitude) * 0x1p-24f);
    const auto shifted = static_cast<std::uint32_t>(magnitude) << 13;
    const std::uint32_t normal = shifted + (112u << 23);
    const std::uint32_t special = shifted | 0x7F800000u;
    const std::uint32_t is_small = 0u - static_cast<std::uint32_t>(exponent == 0);
    const std::uint32_t is_special = 0u - static_cast<std::uint32_t>(exponent == 0x1F);
    const std::uint32_t bits =
        (small & is_small) | (special & is_special) | (normal & ~(is_small | is_special));
    return std::bit_cast<float>(sign | bits);
}

}  // namespace attnviz::io
