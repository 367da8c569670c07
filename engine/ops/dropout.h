// Inverted dropout on attention weights, as torch.nn.functional.dropout in training mode:
// each element is zeroed with probability p, survivors are scaled by 1/(1-p).  The mask is
// drawn from ops::Random seeded by (seed, stream), so a given seed gives the same result
// whatever the number of threads (each (batch item, head) has its own stream).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::ops {

/// p must be in [0, 1) (checked by the caller's options).  p == 0 leaves data unchanged.
void dropout_inplace(float* data, std::size_t n, float p, std::uint64_t seed, std::uint64_t stream);

}  // namespace attnviz::ops
