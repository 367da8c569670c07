// safetensors files (https://huggingface.co/docs/safetensors): an 8-byte little-endian
// header length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}},
// then the raw little-endian data.  What `safetensors.torch.save_file(mha.state_dict(), p)`
// writes can be read here.
//
// Read: F32, F64, F16, BF16 (converted to float32); every offset, size and shape is checked
// against the file (lying headers, overlaps, gaps and out-of-range offsets are errors) before
// anything is allocated.  As in the reference implementation, the tensors' byte ranges must
// tile the data section exactly, the header may be at most 100 MB, and unknown fields inside
// a tensor entry are ignored.  The header JSON is parsed strictly (engine/io/json_lite.h):
// a repeated tensor name is an error, and "__metadata__" must map strings to strings.
// Write: F32, atomically (temporary file + rename), laid out as the reference writes it:
// compact JSON with "__metadata__" first and the tensors in name order, padded with spaces
// to a multiple of 8 bytes, data contiguous in the same order.
// Failures throw attnviz::DataError naming the file, the tensor and the problem.
#pragma once

#include <map>
#include <string>

#include "engine/tensor.h"

namespace attnviz::io {

using TensorMap = std::map<std::string, Tensor>;

TensorMap read_safetensors(const std::string& path);
TensorMap parse_safetensors(const std::string& bytes, const std::string& name);

/// The tensors together with the file's "__metadata__" strings.
struct SafetensorsContents {
    TensorMap tensors;
    std::map<std::string, std::string> metadata;
};
SafetensorsContents read_safetensors_contents(const std::string& path);
SafetensorsContents parse_safetensors_contents(const std::string& bytes, const std::string& name);

void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata = {});
std::string serialize_safetensors(const TensorMap& tensors,
                                  const std::map<std::string, std::string>& metadata = {});

}  // namespace attnviz::io
