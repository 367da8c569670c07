// GGUF tensor types to float32: F32, F16, BF16, the legacy block types Q8_0, Q4_0, Q4_1,
// Q5_0, Q5_1 and the K-quants Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, bit for bit as llama.cpp's
// gguf-py dequantizes them (gguf/quants.py; tests/data/gguf/make_gguf_files.py writes the
// reference values).  Every value is computed with the same float32 operations in the same
// order (scale * scale-index first, then * q and - min, no fused multiply-add), so the
// results are identical, not merely close.  Other types (the IQ family, the ternary TQ types,
// Q8_1/Q8_K, integer and F64 tensors) are refused.
//
// dequantize() is the "materialise into this float32 buffer" step a GGUF model's weights go
// through, a block of rows at a time, when a layer runs (engine/io/weight_store.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/io/gguf.h"
#include "engine/tensor.h"

namespace attnviz::io {

/// True for the types dequantize() converts.
bool gguf_can_dequantize(std::uint32_t type);

/// Converts `n` values of `type` stored at `src` (any alignment; n / block_size blocks) into
/// `dst`.  Returns the index of the first result that is NaN or infinite (a NaN or infinite
/// scale or value), or `n` when all are finite; every value is written either way.  Throws
/// std::invalid_argument for a type it cannot convert or an `n` that is not a whole number of
/// blocks (with the type and both numbers).
std::size_t dequantize(GgufType type, const std::byte* src, float* dst, std::int64_t n);

/// DataError naming the file, the tensor and its type when dequantize() cannot convert it
/// ("... tensor 'blk.0.attn_q.weight' is IQ2_XXS, which AttnViz cannot read ...").
void require_dequantizable(const GgufFile& file, const GgufTensorInfo& tensor);

/// A tensor of `file` converted into `dst`, which holds `numel` floats (the tensor's numel,
/// else std::invalid_argument with both sizes).  DataError for a type dequantize() cannot
/// convert (require_dequantizable), and for a result that is NaN or infinite (with the index
/// of the first one).
void dequantize_tensor(const GgufFile& file, const GgufTensorInfo& tensor, float* dst,
                       std::size_t numel);

/// The tensor as a float32 Tensor of its shape (ne reversed); the checks of dequantize_tensor.
Tensor load_gguf_tensor(const GgufFile& file, const GgufTensorInfo& tensor);

}  // namespace attnviz::io
