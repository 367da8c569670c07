// A trained transformer behind one interface: forward(token ids, options, sink) runs the whole
// stack once and hands each layer's attention to the sink as it is computed, so a viewer
// never recomputes the math to draw it and never holds more layers than it asked for.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/layers/multi_head_attention.h"
#include "engine/models/config.h"
#include "engine/tensor.h"

namespace attnviz::models {

/// What `attnviz inspect` prints and the window's model panel shows.
struct ModelInfo {
    std::string model_type;    ///< "qwen2"
    std::string display_name;  ///< "Qwen2"
    std::string architecture;  ///< "Qwen2ForCausalLM" (config's architectures[0]), may be empty
    std::string folder;
    std::int64_t num_layers = 0, num_heads = 0, num_kv_heads = 0, head_dim = 0;
    std::int64_t hidden_size = 0, intermediate_size = 0, vocab_size = 0, max_positions = 0;
    std::string dtype;                  ///< of the stored weights: "BF16", "F32 + F16"
    std::uint64_t parameter_count = 0;  ///< every tensor the files hold
    bool causal = false;
    bool pre_norm = false;          ///< attention reads the residual stream after a norm
    std::string position_encoding;  ///< "learned", "rotary"
};

struct ModelInput {
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> token_type_ids;  ///< empty: all 0 (BERT pairs set 1 for B)
};

/// Which part of the attention is handed to the sink.  Per-head maps grow with
/// layers × heads × tokens², so a long input can keep fewer layers, fewer heads or a window.
struct AttentionScope {
    std::vector<std::int64_t> layers;  ///< kept layers, ascending; empty: every layer
    /// Per-head maps of heads [0, heads) (-1: every head, 0: the mean only); the mean is
    /// always over every head.
    std::int64_t heads = -1;
    /// Rows and columns [window_begin, window_begin + window_length) of each map (-1: to the
    /// end).  The softmax still runs over every key.
    std::int64_t window_begin = 0;
    std::int64_t window_length = -1;
};

struct ModelForwardOptions {
    AttentionScope scope;
    /// The layer whose intermediates (q, k before and after the rotation, v, scores, ...)
    /// are handed over as AttentionResult::steps; -1: none.
    std::int64_t steps_layer = -1;
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    int num_threads = 1;
};

/// Receives a forward pass's results as they are computed.
class AttentionSink {
  public:
    virtual ~AttentionSink() = default;
    /// One kept layer's attention: weights [1, heads kept, rows, cols], mean_weights
    /// [1, rows, cols], fully_masked_rows, steps when it is the steps layer.
    virtual void on_layer(std::int64_t layer, AttentionResult&& attention) = 0;
    /// The hidden states [L, hidden]: index 0 the embeddings, i the output of layer i (the
    /// last one after the final norm where the model has one), as Hugging Face's
    /// output_hidden_states.  Only called when wants_hidden_states().
    virtual bool wants_hidden_states() const { return false; }
    virtual void on_hidden_state(std::int64_t /*index*/, const Tensor& /*hidden*/) {}
};

/// Keeps everything it is given.
class CollectingSink : public AttentionSink {
  public:
    explicit CollectingSink(bool keep_hidden_states = false) : keep_hidden_(keep_hidden_states) {}
    void on_layer(std::int64_t layer, AttentionResult&& attention) override {
        layers.push_back(layer);
        results.push_back(std::move(attention));
    }
    bool wants_hidden_states() const override { return keep_hidden_; }
    void on_hidden_state(std::int64_t, const Tensor& hidden) override {
        hidden_states.push_back(hidden);
    }
    std::vector<std::int64_t> layers;
    std::vector<AttentionResult> results;
    std::vector<Tensor> hidden_states;

  private:
    bool keep_hidden_;
};

class Model {
  public:
    virtual ~Model() = default;
    virtual const ModelInfo& info() const = 0;
    virtual const ModelConfig& config() const = 0;
    /// Runs every layer once.  Throws std::invalid_argument on ids outside the vocabulary, more
    /// tokens than the model has positions, an empty input or a scope that does not fit, and
    /// DataError when a weight read on first use turns out broken (NaN, truncated).
    virtual void forward(const ModelInput& input, const ModelForwardOptions& options,
                         AttentionSink& sink) const = 0;
    /// An upper bound of the bytes forward() allocates for `tokens` tokens (results kept by a
    /// CollectingSink included; weights not: weight_bytes()).
    virtual std::size_t estimate_forward_bytes(std::int64_t tokens,
                                               const ModelForwardOptions& options) const = 0;
    /// Bytes the float32 weights take once every layer has run.
    virtual std::size_t weight_bytes() const = 0;
};

/// Opens a Hugging Face model folder: config.json and its safetensors weights.  Only headers
/// are read; every tensor's presence and shape are checked against the config here, and the
/// data are read layer by layer on first use.  Throws DataError naming the file and the
/// problem.
std::unique_ptr<Model> load_model(const std::string& folder);

}  // namespace attnviz::models
