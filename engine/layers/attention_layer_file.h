// The demo layer from a file: a torch.nn.MultiheadAttention state_dict saved as safetensors
// (safetensors.torch.save_file(mha.state_dict(), path)), read and checked as a whole, as the
// model families' folders are by models/model_folder.h.
#pragma once

#include <cstdint>
#include <string>

#include "engine/layers/multi_head_attention.h"

namespace attnviz {

/// The layer whose state_dict `path` holds, with its options (layer.options()) read off the
/// tensors: embed_dim from out_proj.weight, kdim and vdim from split projections, bias,
/// bias_k / bias_v, additive scoring.  `num_heads` 0 takes the head count from additive_v
/// [H, head_dim] when there is one, else 1 (no other tensor depends on it).
/// Throws DataError naming the file, and the tensor where one is at fault: unreadable or
/// malformed file, not an nn.MultiheadAttention state_dict, tensors that do not fit one
/// another (or num_heads), non-finite values, unexpected tensors.
MultiHeadAttention load_attention_layer(const std::string& path, std::int64_t num_heads = 0);

}  // namespace attnviz
