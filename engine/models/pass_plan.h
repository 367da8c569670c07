// A model's pass planned under a memory budget, the same for the command line and the window:
// the attention a budget::ResultScope keeps, as the pass's AttentionScope, and the verdict on
// the pass's memory with how its weights are held (kept in float32, or streamed) for that
// pass alone (ModelForwardOptions::weight_cache_bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/budget/memory_budget.h"
#include "engine/models/model.h"

namespace attnviz::models {

/// Layers 0 to num_layers - 1: a model's every layer, as plan_pass and attention_scope take them.
std::vector<std::int64_t> every_layer(std::int64_t num_layers);

/// The attention a pass over `tokens` tokens hands over for `scope`: of `layers` (the layers
/// asked for, ascending), the first scope.layers_shown (all of them when it is -1); the heads
/// whose maps it keeps (ResultScope::kept_heads of num_heads); the window on the tokens.
AttentionScope attention_scope(const budget::ResultScope& scope,
                               const std::vector<std::int64_t>& layers, std::int64_t num_heads,
                               std::int64_t tokens);

/// A pass that fits its budget, and how its weights are held.
struct PassPlan {
    budget::MemoryPlan memory;  ///< fits(); weights: what they take as they stream
    budget::WeightsPlan weights;
    /// ModelForwardOptions::weight_cache_bytes of the pass: every weight when they are kept,
    /// none when they stream.
    std::size_t weight_cache_bytes() const {
        return weights.stream ? 0 : static_cast<std::size_t>(weights.kept);
    }
};

/// budget::plan_memory, then budget::plan_weights: `footprint` is a pass's bytes for a scope,
/// the weights counted as they stream (Model::streaming_weight_bytes); the weights are then
/// kept in float32 when they fit beside the rest, else streamed.  Throws
/// budget::MemoryBudgetExceeded when `requested` does not fit, with what does (windows of at
/// most max_window tokens when it is positive; with `layers`, the first of them).
PassPlan plan_pass(const Model& model, const budget::FootprintFn& footprint,
                   const budget::ResultScope& requested, std::int64_t tokens,
                   const budget::MemoryBudget& budget, std::int64_t max_window = 0,
                   std::vector<std::int64_t> layers = {});

}  // namespace attnviz::models
