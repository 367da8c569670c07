// Internal to engine/kernels: where the parts of GGUF's legacy blocks of 32 sit (as
// engine/io/gguf_quants.cpp reads them), for the SIMD units of row_products.h.  Constants
// only, no code, so units built for any instruction set may include it.
#pragma once

namespace attnviz::kernels::detail {

// Byte offsets in a block: the half scale d at 0, the half minimum m at kMin, the 32 high
// bits qh at kHigh (-1: none), the quants at kQuants (32 int8, or 16 bytes of two nibbles:
// values 0-15 low, 16-31 high).  kZero: the zero point subtracted from the unsigned values.
struct Q8_0Block {
    static constexpr int kBytes = 34, kQuants = 2, kMin = -1, kHigh = -1, kZero = 0;
    static constexpr bool kSigned = true;
};
struct Q4_0Block {
    static constexpr int kBytes = 18, kQuants = 2, kMin = -1, kHigh = -1, kZero = 8;
    static constexpr bool kSigned = false;
};
struct Q4_1Block {
    static constexpr int kBytes = 20, kQuants = 4, kMin = 2, kHigh = -1, kZero = 0;
    static constexpr bool kSigned = false;
};
struct Q5_0Block {
    static constexpr int kBytes = 22, kQuants = 6, kMin = -1, kHigh = 2, kZero = 16;
    static constexpr bool kSigned = false;
};
struct Q5_1Block {
    static constexpr int kBytes = 24, kQuants = 8, kMin = 2, kHigh = 4, kZero = 0;
    static constexpr bool kSigned = false;
};

}  // namespace attnviz::kernels::detail
