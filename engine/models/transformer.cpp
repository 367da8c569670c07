// The transformer as a Model (transformer.h): opening a checkpoint, what it is, the
// language-model head's logits and the memory a pass takes.
#include "engine/models/transformer.h"

#include <algorithm>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/weight_store.h"

namespace attnviz::models {

namespace detail {

ModelInfo model_info(const ModelConfig& config, const std::string& folder,
                     const io::WeightStore& weights) {
    return {.model_type = config.model_type,
            .display_name = config.display_name(),
            .architecture = config.architecture,
            .folder = folder,
            .num_layers = config.num_layers,
            .num_heads = config.num_heads,
            .num_kv_heads = config.num_kv_heads,
            .head_dim = config.head_dim,
            .hidden_size = config.hidden_size,
            .intermediate_size = config.intermediate_size,
            .vocab_size = config.vocab_size,
            .max_positions = config.max_positions,
            .dtype = weights.dtype_summary(),
            .parameter_count = weights.parameter_count(),
            .causal = config.causal(),
            .pre_norm = config.pre_norm(),
            .position_encoding = config.rotary() ? "rotary" : "learned"};
}

Transformer::Transformer(ModelConfig config, io::WeightStore store, const std::string& folder)
    : weights_(std::move(config), std::move(store), folder),
      info_(model_info(config_, folder, weights_.store())) {
    if (config_.rotary()) {
        inv_freq_ = ops::rope_inv_freq(config_.rope_theta, config_.head_dim);
        const RopeScaling& r = config_.rope_scaling;
        if (r.type == "llama3")
            ops::rope_llama3_scaling(inv_freq_, r.factor, r.low_freq_factor, r.high_freq_factor,
                                     r.original_max_position_embeddings);
    }
}

Tensor Transformer::logits(const Tensor& residual, const std::vector<Index>& rows, int threads,
                           const std::vector<Index>* columns) const {
    if (weights_.lm_head() == LmHeadKind::None) throw DataError(weights_.lm_head_missing());
    const Index E = config_.hidden_size;
    if (residual.numel() % static_cast<std::size_t>(E) != 0)
        throw std::invalid_argument("the residual stream is not [tokens, " + std::to_string(E) +
                                    "]");
    const auto L = static_cast<Index>(residual.numel() / static_cast<std::size_t>(E));
    const auto R = static_cast<Index>(rows.size());
    std::vector<float> x(static_cast<std::size_t>(R * E));
    for (Index r = 0; r < R; ++r) {
        const Index t = rows[static_cast<std::size_t>(r)];
        if (t < 0 || t >= L)
            throw std::invalid_argument("position " + std::to_string(t) + " is not in the " +
                                        std::to_string(L) + " tokens");
        std::copy_n(residual.ptr() + t * E, E, x.data() + r * E);
    }
    head_input(x, R, threads);
    return unembed(x, R, threads, columns);
}

void Transformer::head_input(std::vector<float>& x, Index R, int threads,
                             const Tracer& trace) const {
    const Index E = config_.hidden_size;
    if (weights_.lm_head() == LmHeadKind::Causal) {
        // Not head(): its first call loads the unembedding as float32 (544 MB for Qwen2.5-0.5B,
        // a second of a generation's first run), which a generation reads as stored instead.
        const GlobalWeights& g = weights_.globals();
        norm(x.data(), R, g.final_norm_w, g.final_norm_b, threads);
        trace.emit(TraceStep::FinalNorm, x.data(), E);
    } else {
        const HeadWeights& hw = weights_.head();
        std::vector<float> t(x.size());
        ops::linear(x.data(), R, E, hw.dense_w.ptr, hw.dense_b.ptr, E, t.data(), threads, 0, 0,
                    hw.dense_w.in_out);
        trace.emit(TraceStep::HeadTransform, t.data(), E);
        ops::activate(t.data(), t.size(), weights_.head_activation());
        trace.emit(TraceStep::HeadActivation, t.data(), E);
        ops::layer_norm(t.data(), R, E, hw.norm_w.ptr, hw.norm_b.ptr,
                        static_cast<float>(config_.norm_eps));
        trace.emit(TraceStep::HeadNorm, t.data(), E);
        x = std::move(t);
    }
}

Tensor Transformer::unembed(const std::vector<float>& x, Index R, int threads,
                            const std::vector<Index>* columns) const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    const HeadWeights& hw = weights_.head();
    const Weight& u = hw.unembed;  // [V, E] as stored
    if (u.empty()) return streamed_logits(x, R, hw, threads, columns);
    if (columns) {
        const auto C = static_cast<Index>(columns->size());
        Tensor out({R, C});
        for (Index c = 0; c < C; ++c) {
            const Index id = (*columns)[static_cast<std::size_t>(c)];
            if (id < 0 || id >= V)
                throw std::invalid_argument("token id " + std::to_string(id) +
                                            " is outside the vocabulary of " + std::to_string(V));
            for (Index r = 0; r < R; ++r) {
                double sum = hw.bias.empty() ? 0.0 : double(hw.bias.ptr[id]);
                for (Index e = 0; e < E; ++e)
                    sum += double(x[static_cast<std::size_t>(r * E + e)]) *
                           double(u.in_out ? u.ptr[e * V + id] : u.ptr[id * E + e]);
                out.data[static_cast<std::size_t>(r * C + c)] = static_cast<float>(sum);
            }
        }
        return out;
    }
    Tensor out = take_tensor({R, V});  // every value is written: no zero fill
    ops::linear(x.data(), R, E, u.ptr, hw.bias.empty() ? nullptr : hw.bias.ptr, V, out.ptr(),
                threads, 0, 0, u.in_out);
    return out;
}

Weight Transformer::streamed_unembedding() const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    Weight u;
    u.rows = V;
    u.cols = E;
    auto source = std::make_shared<WeightLayout>();
    source->names = {weights_.unembed_name()};
    source->offsets = {0};
    source->rows = V;
    source->cols = E;
    u.source = std::move(source);
    return u;
}

Tensor Transformer::streamed_logits(const std::vector<float>& x, Index R, const HeadWeights& hw,
                                    int threads, const std::vector<Index>* columns) const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    const std::string name = weights_.unembed_name();
    if (columns) {  // only those rows of the unembedding, as the kept path reads them
        const auto C = static_cast<Index>(columns->size());
        for (Index id : *columns)
            if (id < 0 || id >= V)
                throw std::invalid_argument("token id " + std::to_string(id) +
                                            " is outside the vocabulary of " + std::to_string(V));
        std::vector<float> u(static_cast<std::size_t>(C * E));
        weights_.store().load_rows(name, *columns, u.data());
        Tensor out({R, C});
        for (Index c = 0; c < C; ++c) {
            const Index id = (*columns)[static_cast<std::size_t>(c)];
            for (Index r = 0; r < R; ++r) {
                double sum = hw.bias.empty() ? 0.0 : double(hw.bias.ptr[id]);
                for (Index e = 0; e < E; ++e)
                    sum += double(x[static_cast<std::size_t>(r * E + e)]) *
                           double(u[static_cast<std::size_t>(c * E + e)]);
                out.data[static_cast<std::size_t>(r * C + c)] = static_cast<float>(sum);
            }
        }
        return out;
    }
    // The unembedding as any streamed matrix: converted a block of rows at a time, or
    // multiplied as stored (BF16 on AMX).
    const Weight u = streamed_unembedding();
    Tensor out = take_tensor({R, V});
    WeightScratch scratch;
    weights_.product(x.data(), R, E, u, hw.bias, V, out.ptr(), threads, scratch);
    release_buffer(scratch.block);
    return out;
}

std::size_t Transformer::estimate_forward_bytes(Index tokens,
                                                const ModelForwardOptions& options) const {
    const double L = double(tokens), E = double(config_.hidden_size);
    const double H = double(config_.num_heads), KV = double(config_.num_kv_heads);
    const double d = double(config_.head_dim), I = double(config_.intermediate_size);
    const AttentionScope& s = options.scope;
    // Without attention no map is kept (a statistics pass sees its rows in blocks).
    const double kept_layers = !options.attention ? 0.0
                               : s.layers.empty() ? double(config_.num_layers)
                                                  : double(s.layers.size());
    const double heads = s.only_head >= 0 ? (s.heads == 0 ? 0.0 : 1.0)
                         : s.heads < 0    ? H
                                          : double(s.heads);
    const double rows = s.window_length < 0 ? L - double(s.window_begin) : double(s.window_length);
    double floats = kept_layers * (heads + 1.0) * rows * rows;               // kept maps and means
    floats += L * E * 4 + L * (H + 2 * KV) * d * 2 + L * H * d + L * I * 2;  // activations
    // attend(): per thread a block's scores and its head sum; every kv head's packed keys and
    // values.
    const int threads = std::max(1, options.num_threads);
    floats += double(threads) * 2.0 *
              double(layers::rows_per_block(std::max<Index>(1, Index(rows)), tokens, 1, threads) *
                     tokens);
    floats +=
        double(layers::packed_heads_floats(1, config_.num_kv_heads, tokens, config_.head_dim));
    if (options.steps_layer >= 0) floats += H * (5 * rows * L + 4 * L * d) + 2 * L * E + L * H * d;
    return static_cast<std::size_t>(floats * sizeof(float) + kept_layers * H * rows + (1 << 20));
}

}  // namespace detail

std::unique_ptr<Model> load_model(const std::string& folder) {
    ModelConfig config = read_config(folder);
    io::WeightStore store = io::WeightStore::open_folder(folder);
    return std::make_unique<detail::Transformer>(std::move(config), std::move(store), folder);
}

std::unique_ptr<Model> make_transformer(ModelConfig config, io::WeightStore weights,
                                        const std::string& source) {
    return std::make_unique<detail::Transformer>(std::move(config), std::move(weights), source);
}

}  // namespace attnviz::models
