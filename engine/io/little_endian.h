// Little-endian values read from a file's bytes at any alignment: the safetensors and GGUF
// readers, GGUF's quantized blocks (io/gguf_quants.cpp) and the scalar row products that read
// the same blocks (kernels/row_products_*scalar.cpp).  Inline code: not for the kernel units
// compiled with their own -m flags (kernels/softmax_impl.h gives the reason).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/io/half.h"

namespace attnviz::io {

/// The T (an integer or a float of 1, 2, 4 or 8 bytes) stored little-endian at p.
template <typename T>
[[gnu::always_inline]] inline T load_le(const void* p) {
    static_assert(std::is_trivially_copyable_v<T>);
    using Bits = std::conditional_t<
        sizeof(T) == 1, std::uint8_t,
        std::conditional_t<sizeof(T) == 2, std::uint16_t,
                           std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    static_assert(sizeof(Bits) == sizeof(T));
    Bits v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) {
        if constexpr (sizeof(Bits) == 2) v = __builtin_bswap16(v);
        if constexpr (sizeof(Bits) == 4) v = __builtin_bswap32(v);
        if constexpr (sizeof(Bits) == 8) v = __builtin_bswap64(v);
    }
    return std::bit_cast<T>(v);
}

/// The 32-bit word and the IEEE half at p, as GGUF's blocks store them.
[[gnu::always_inline]] inline std::uint32_t u32_at(const std::uint8_t* p) {
    return load_le<std::uint32_t>(p);
}
[[gnu::always_inline]] inline float f16_at(const std::uint8_t* p) {
    return half_to_float(load_le<std::uint16_t>(p));
}

}  // namespace attnviz::io
