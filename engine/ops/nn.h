// The transformer building blocks the model families are made of, on row-major float32
// buffers: linear layers, LayerNorm and RMSNorm, activations, rotary position embeddings and
// the embedding lookup.  Each follows the PyTorch / Hugging Face definition it names, computed
// in float32 (the reference tests compare with a float64 implementation within 1e-5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace attnviz::ops {

/// y[rows, out] = x[rows, in] · w[out, in]ᵀ (+ b[out]), as nn.Linear.  Rows are spread over
/// `threads` threads; the rows of one call must not overlap y.  `ldx`/`ldy` are row strides
/// (0: in / out).
/// `weight_in_out`: w is stored [in, out] (GPT-2's Conv1D), y = x · w.
void linear(const float* x, std::int64_t rows, std::int64_t in, const float* w, const float* b,
            std::int64_t out, float* y, int threads, std::int64_t ldx = 0, std::int64_t ldy = 0,
            bool weight_in_out = false);

/// dst [cols, rows] = srcᵀ, src [rows, cols] row-major (cache-blocked).
void transpose(const float* src, std::int64_t rows, std::int64_t cols, float* dst);

/// In place over each of `rows` rows of `dim`: (x - mean) / sqrt(var + eps) * gamma + beta
/// (biased variance, as nn.LayerNorm).
void layer_norm(float* x, std::int64_t rows, std::int64_t dim, const float* gamma,
                const float* beta, float eps, std::int64_t ldx = 0);

/// In place: x / sqrt(mean(x²) + eps) * weight, as LlamaRMSNorm (and Qwen3's per-head
/// q_norm / k_norm with dim = head_dim).
void rms_norm(float* x, std::int64_t rows, std::int64_t dim, const float* weight, float eps,
              std::int64_t ldx = 0);

enum class Activation {
    Gelu,     ///< exact: x · Φ(x) with erf (BERT's "gelu", torch.nn.GELU())
    GeluNew,  ///< tanh approximation (GPT-2's "gelu_new", "gelu_pytorch_tanh")
    Silu,     ///< x · sigmoid(x) (Llama's "silu")
    Relu,
};
/// The Hugging Face name ("gelu", "gelu_new", "gelu_pytorch_tanh", "silu", "swish", "relu");
/// throws std::invalid_argument naming it when unknown.
Activation activation_from_name(const std::string& name);
void activate(float* x, std::size_t n, Activation a);

/// Rotary position embedding with Hugging Face's rotate_half pairing: dimension i of a head
/// pairs with i + head_dim/2.  inv_freq has head_dim/2 entries; position p rotates pair i by
/// p · inv_freq[i].  Applied in place to `heads` heads of `rows` rows, head h of row r at
/// x + r * ldx + h * head_dim.  `positions` gives each row's position.  Rows are split over
/// `threads`; each row's result is the same whatever the split.
void apply_rotary(float* x, std::int64_t rows, std::int64_t heads, std::int64_t head_dim,
                  std::int64_t ldx, const std::vector<std::int64_t>& positions,
                  const std::vector<double>& inv_freq, int threads = 1);

/// inv_freq[i] = 1 / theta^(2i / dim) for i < dim/2, as Hugging Face's default rope.
std::vector<double> rope_inv_freq(double theta, std::int64_t dim);

/// Llama 3's frequency scaling (rope_type "llama3"): long wavelengths divided by `factor`,
/// short ones kept, a smooth blend between low_freq_factor and high_freq_factor.
void rope_llama3_scaling(std::vector<double>& inv_freq, double factor, double low_freq_factor,
                         double high_freq_factor, double original_max_position_embeddings);

// Their input gradients, for the backward pass (models/model.h, Model::gradients): each takes
// the gradient of the output and the forward's input (nn_backward.cpp).

/// dx[rows, in] = dy[rows, out] · w (+= with `accumulate`): the input gradient of linear() with
/// the same w and weight_in_out.  No weight gradient: the analyses differentiate activations.
void linear_input_gradient(const float* dy, std::int64_t rows, std::int64_t out, const float* w,
                           std::int64_t in, float* dx, int threads, bool weight_in_out = false,
                           bool accumulate = false, std::int64_t lddy = 0, std::int64_t lddx = 0);

/// In place, g from ∂/∂y to ∂/∂x of layer_norm(x) (x as it entered; gamma may be null: 1).
void layer_norm_backward(const float* x, float* g, std::int64_t rows, std::int64_t dim,
                         const float* gamma, float eps, std::int64_t ldx = 0);

/// In place, g from ∂/∂y to ∂/∂x of rms_norm(x).
void rms_norm_backward(const float* x, float* g, std::int64_t rows, std::int64_t dim,
                       const float* weight, float eps, std::int64_t ldx = 0);

/// g[i] *= act'(x[i]), x the activation's input.
void activation_backward(const float* x, float* g, std::size_t n, Activation a);

/// x[i] += y[i], split over `threads` (a pass's residual stream: 29 MB at 8,192 tokens of
/// Qwen2.5-0.5B, which one thread added while the other waited).
void add_inplace(float* x, const float* y, std::size_t n, int threads = 1);

/// dst[i] = src[i], split over `threads`.
void copy(const float* src, std::size_t n, float* dst, int threads);

}  // namespace attnviz::ops
