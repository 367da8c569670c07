#include "engine/models/pass_plan.h"

#include <algorithm>
#include <utility>

namespace attnviz::models {

std::vector<std::int64_t> every_layer(std::int64_t num_layers) {
    std::vector<std::int64_t> layers(
        static_cast<std::size_t>(std::max<std::int64_t>(num_layers, 0)));
    for (std::size_t l = 0; l < layers.size(); ++l)
        layers[l] = static_cast<std::int64_t>(l);
    return layers;
}

AttentionScope attention_scope(const budget::ResultScope& scope,
                               const std::vector<std::int64_t>& layers, std::int64_t num_heads,
                               std::int64_t tokens) {
    AttentionScope s;
    s.layers = layers;
    if (scope.layers_shown > 0 && static_cast<std::size_t>(scope.layers_shown) < layers.size())
        s.layers.resize(static_cast<std::size_t>(scope.layers_shown));
    s.heads = scope.kept_heads(static_cast<int>(num_heads));
    const budget::AxisWindow w = budget::window_on(scope, tokens);
    s.window_begin = w.begin;
    s.window_length = w.count;
    return s;
}

PassPlan plan_pass(const Model& model, const budget::FootprintFn& footprint,
                   const budget::ResultScope& requested, std::int64_t tokens,
                   const budget::MemoryBudget& budget, std::int64_t max_window,
                   std::vector<std::int64_t> layers) {
    const std::uint64_t streaming = model.streaming_weight_bytes();
    PassPlan plan;
    plan.memory =
        budget::plan_memory(footprint, requested, static_cast<int>(model.info().num_heads), tokens,
                            budget.bytes, max_window, std::move(layers));
    plan.memory.weights = streaming;
    if (!plan.memory.fits()) throw budget::MemoryBudgetExceeded(plan.memory, budget);
    // The weights take what the maps leave: kept in float32 when they fit, else streamed.
    plan.weights = budget::plan_weights(model.weight_bytes(), streaming,
                                        plan.memory.needed - streaming, budget.bytes);
    return plan;
}

}  // namespace attnviz::models
