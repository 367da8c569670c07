// Floating-point operations of a forward pass, for benchmarks that compare the engine's rate
// with the machine's sgemm peak.
#pragma once

#include <cstdint>

#include "engine/models/config.h"

namespace attnviz::models {

/// Multiply-adds count two.  Projections, attention scores and contexts, MLP; the norms,
/// softmax and activations (O(L·E) each) are left out, as GEMM-rate comparisons do.
double forward_flops(const ModelConfig& c, std::int64_t tokens);

/// The machine's single-thread sgemm rate in GFLOP/s through the engine's matrix products
/// (ops::gemm's backend, kernels/gemm.h): the best of a few large square-ish shapes in both
/// weight layouts, median of `repeats` runs each.
double measure_sgemm_gflops(int repeats = 5);

}  // namespace attnviz::models
