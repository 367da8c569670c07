// safetensors files (https://huggingface.co/docs/safetensors): an 8-byte little-endian
// header length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}},
// then the raw little-endian data.  What `safetensors.torch.save_file(mha.state_dict(), p)`
// writes can be read here.
//
// Read: F32, F64, F16, BF16 (converted to float32); every offset, size and shape is checked
// against the file (lying headers, overlaps, gaps and out-of-range offsets are errors) before
// anything is allocated.  Write: F32, atomically (temporary file + rename).
// Failures throw attnviz::DataError naming the file, the tensor and the problem.
#pragma once

#include <map>
#include <string>

#include "engine/tensor.h"

namespace attnviz::io {

using TensorMap = std::map<std::string, Tensor>;

TensorMap read_safetensors(const std::string& path);
TensorMap parse_safetensors(const std::string& bytes, const std::string& name);

void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata = {});
std::string serialize_safetensors(const TensorMap& tensors,
                                  const std::map<std::string, std::string>& metadata = {});

}  // namespace attnviz::io
