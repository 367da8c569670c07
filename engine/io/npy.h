// NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// Read: float16/float32/float64 (little or big endian) into float32; bool/uint8 (and int types
// holding 0/1) as masks.  Every header is checked against the file's real size before
// anything is allocated, so a header claiming a huge shape is an error, not an allocation.
// The header dict is parsed strictly (exactly 'descr', 'fortran_order' and 'shape', in any
// order); a file whose data does not exactly fill the rest of the file is an error.
// Supported descr strings: '<f2' '>f2' '<f4' '>f4' '<f8' '>f8' '|b1' '|u1' '|i1' '<i4' '>i4' '<i8'
// '>i8'. fortran_order True (what np.save writes for a transposed array) is supported: the data is
// reordered so the result is always C order (row-major) with the shape from the header.
// Write: float32 little-endian, or bool; written to a temporary file in the same folder
// and renamed into place, so a failed write never leaves a partial file.
// All failures throw attnviz::DataError with the file name and the problem.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/tensor.h"

namespace attnviz::io {

enum class NpyDtype { Float16, Float32, Float64, Bool, UInt8, Int8, Int32, Int64 };

struct NpyInfo {
    NpyDtype dtype;
    Shape shape;
    bool fortran_order = false;
};

/// Where the data of a whole file (a mapping) begins and how it is laid out, every size checked
/// against the file: for readers that convert the data themselves, a slice at a time.
struct NpyLayout {
    NpyInfo info;
    std::size_t data_offset = 0;
    std::size_t itemsize = 0;
    bool big_endian = false;
};
NpyLayout parse_npy_layout(std::string_view file, const std::string& name);

/// Parses only the header (for tools and tests).
NpyInfo read_npy_info(const std::string& path);

/// A float array (float16/float32/float64; bool/ints are refused with a dtype message).
Tensor read_npy(const std::string& path);

/// A mask: bool/uint8/int arrays become Mask::Kind::Bool (non-zero = masked);
/// float32/float64 become Mask::Kind::Float (added to the scores).
Mask read_npy_mask(const std::string& path);

/// In-memory variants for the fuzzers; `name` is used in messages.
Tensor parse_npy(const std::string& bytes, const std::string& name);
Mask parse_npy_mask(const std::string& bytes, const std::string& name);

void write_npy(const std::string& path, const Tensor& t);
void write_npy_bool(const std::string& path, const Mask& m);  ///< m.kind must be Bool
/// The bytes np.save would write for t as float32: a version 1.0 header padded with spaces
/// to a multiple of 64 bytes and ending in '\n' (version 2.0 only if the header needs it).
std::string serialize_npy(const Tensor& t);
/// The bytes of a '|b1' array holding m's values (non-zero -> 1).  m.kind must be Bool.
std::string serialize_npy_bool(const Mask& m);

}  // namespace attnviz::io
