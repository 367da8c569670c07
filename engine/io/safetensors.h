// safetensors files (https://huggingface.co/docs/safetensors): an 8-byte little-endian
// header length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}},
// then the raw little-endian data.  What `safetensors.torch.save_file(mha.state_dict(), p)`
// writes can be read here.
//
// Read: F32, F64, F16, BF16 (converted to float32); every offset, size and shape is checked
// against the file (lying headers, overlaps, gaps and out-of-range offsets are errors) before
// anything is allocated.  As in the reference implementation, the tensors' byte ranges must
// tile the data section exactly, the header may be at most 100 MB, and unknown fields inside
// a tensor entry are ignored.  The header JSON is parsed strictly (engine/io/json.h): a
// repeated tensor name is an error, and "__metadata__" must map strings to strings.
// Write: F32, atomically (temporary file + rename), laid out as the reference writes it:
// compact JSON with "__metadata__" first and the tensors in name order, padded with spaces
// to a multiple of 8 bytes, data contiguous in the same order.
// Failures throw attnviz::DataError naming the file, the tensor and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

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

/// One tensor of a safetensors header, checked against the file it came from.
struct SafetensorsEntry {
    std::string name;
    std::string dtype;  ///< as written: "F32", "BF16", "I64", ... (any dtype of the format)
    Shape shape;
    std::uint64_t begin = 0, end = 0;  ///< data_offsets: bytes after the header
    std::uint64_t numel = 0;
};

/// What the header of a safetensors file says, checked against the file's size: every dtype
/// of the format is accepted here (the caller decides what it can convert); unknown dtypes,
/// lying offsets, overlaps, gaps, trailing data and headers over 100 MB are DataErrors.
struct SafetensorsHeader {
    std::vector<SafetensorsEntry> tensors;  ///< in the header's order
    std::map<std::string, std::string> metadata;
    std::uint64_t data_start = 0;  ///< 8 + the header length: where data_offsets count from
};

/// `file` is the whole file (a mapping or a read); only the 8-byte length and the header are
/// read.  `name` is the path for messages.
SafetensorsHeader parse_safetensors_header(std::string_view file, const std::string& name);

/// True for the dtypes convert_to_float reads: F32, F64, F16, BF16.
bool is_float_dtype(std::string_view dtype);

/// Converts `n` little-endian values of `dtype` (is_float_dtype) at `src` (any alignment) to
/// float32 in `dst`, exactly (F64 rounds to nearest).  Returns the index of the first value
/// that is NaN or infinite after conversion, or `n` when all are finite; every value is
/// converted either way.  F16 uses the F16C instructions when the CPU has them.
std::size_t convert_to_float(std::string_view dtype, const void* src, float* dst, std::size_t n);

/// The index of the first of `n` floats that is NaN or infinite, or `n` when all are finite
/// (a vectorised scan; only a block holding one is searched value by value).
std::size_t first_non_finite(const float* x, std::size_t n);

namespace detail {
/// The portable F16 path of convert_to_float, for tests that compare it with F16C.
std::size_t convert_f16_portable(const void* src, float* dst, std::size_t n);
}  // namespace detail

void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata = {});
std::string serialize_safetensors(const TensorMap& tensors,
                                  const std::map<std::string, std::string>& metadata = {});

}  // namespace attnviz::io
