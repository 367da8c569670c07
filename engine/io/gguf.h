// GGUF files (llama.cpp, ollama, LM Studio;
// https://github.com/ggml-org/ggml/blob/master/docs/gguf.md), versions 2 and 3, little-endian: the
// magic "GGUF", the version, the tensor and key/value counts, the metadata key/values (scalars,
// strings and arrays of them), the tensor infos (name, dimensions, ggml type, offset), padding to
// `general.alignment` (32 by default), then the tensor data.
//
// Opening maps the file read-only and reads only the header; every count, length, offset and
// size is checked against the file before it is used (nothing is allocated from a count the
// file has not shown it can hold).  A file that lies is a DataError naming the file and the
// problem: truncated, a string or array running past the end, a count no file could hold, an
// unknown value or tensor type, an array of arrays, a repeated key or tensor name, a tensor
// outside the data section or overlapping another, an offset that is not a multiple of the
// alignment, an alignment that is not a power of two.  Tensor types are checked to be ggml
// types with a known block layout; which of them can be converted to float32 is
// engine/io/gguf_quants.h's business.
//
// Dimensions: GGUF stores ggml's `ne` (ne[0] varies fastest); shape() is the row-major order
// numpy and torch use (ne reversed), so a [rows, columns] matrix has ne = {columns, rows}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tensor.h"

namespace attnviz::io {

/// ggml's tensor types (ggml.h enum ggml_type), with their file ids.
enum class GgufType : std::uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    MXFP4 = 39,
};

/// How a type packs values: `block_size` values in `type_size` bytes.
struct GgufTypeLayout {
    std::string_view name;  ///< "Q4_K"
    std::int64_t block_size = 0;
    std::int64_t type_size = 0;
};

/// The layout of a type id, or nullopt for an id that is not a ggml type (or a removed one).
std::optional<GgufTypeLayout> gguf_type_layout(std::uint32_t type);
/// "Q4_K", or "type 37" for an unknown id.
std::string gguf_type_name(std::uint32_t type);

/// GGUF metadata value types (gguf.h enum gguf_type).
enum class GgufValueType : std::uint32_t {
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

/// "uint32", "string", "array of float32", ...
std::string gguf_value_type_name(GgufValueType type);

/// One metadata value, checked when the file was opened.  It refers to the file's bytes, so it
/// is valid while the GgufFile it came from (or a copy of it) is alive.  The accessors throw
/// DataError naming the file and the key when the stored type does not fit the request.
class GgufValue {
  public:
    GgufValueType type() const { return type_; }
    /// For arrays: the element type and count.
    GgufValueType element_type() const { return element_type_; }
    std::uint64_t size() const { return count_; }
    bool is_integer() const;
    bool is_array() const { return type_ == GgufValueType::Array; }

    /// Any integer type whose value is >= 0 (an unsigned one, or a signed one holding a
    /// non-negative value; bool is not an integer).
    std::uint64_t as_uint() const;
    /// Any integer type whose value fits int64.
    std::int64_t as_int() const;
    /// float32, float64, or any integer type.
    double as_double() const;
    bool as_bool() const;
    std::string_view as_string() const;

    /// Arrays: of strings; of any integer type (as int64); of numbers (as double).
    std::vector<std::string_view> as_string_array() const;
    std::vector<std::int64_t> as_int_array() const;
    std::vector<double> as_double_array() const;
    /// An array of float32 exactly as stored.
    std::vector<float> as_float_array() const;

  private:
    friend class GgufParser;
    [[noreturn]] void wrong_type(std::string_view wanted) const;
    std::int64_t element_int(std::size_t i) const;
    GgufValueType type_ = GgufValueType::UInt8;
    GgufValueType element_type_ = GgufValueType::UInt8;
    std::uint64_t count_ = 0;
    std::string_view bytes_;             ///< the scalar, the string's bytes or the array's elements
    const std::string* key_ = nullptr;   ///< for messages
    const std::string* file_ = nullptr;  ///< for messages
};

struct GgufKeyValue {
    std::string key;
    GgufValue value;
};

struct GgufTensorInfo {
    std::string name;
    std::uint32_t type = 0;        ///< a ggml type id (gguf_type_layout knows it)
    std::vector<std::int64_t> ne;  ///< ggml order: ne[0] varies fastest
    std::uint64_t offset = 0;      ///< from the start of the data section
    std::uint64_t nbytes = 0;
    std::int64_t numel = 0;
    Shape shape() const;  ///< ne reversed
    GgufType ggml_type() const { return static_cast<GgufType>(type); }
};

class GgufFile {
  public:
    /// Maps `path` and checks its header.  Throws DataError naming the file.
    static GgufFile open(const std::string& path);
    /// The same on bytes in memory (a copy is kept); `name` names them in messages.
    static GgufFile parse(std::string_view bytes, const std::string& name);

    GgufFile();
    ~GgufFile();
    GgufFile(const GgufFile&);
    GgufFile(GgufFile&&) noexcept;
    GgufFile& operator=(const GgufFile&);
    GgufFile& operator=(GgufFile&&) noexcept;

    const std::string& path() const;
    std::uint32_t version() const;
    std::uint32_t alignment() const;
    /// Where the data section starts, in bytes from the start of the file.
    std::uint64_t data_offset() const;
    std::uint64_t file_size() const;

    /// The key/values in the file's order, and one by key (nullptr when absent).
    const std::vector<GgufKeyValue>& metadata() const;
    const GgufValue* find(std::string_view key) const;
    /// The value of a key that must be present; DataError "x.gguf: no metadata key 'k'".
    const GgufValue& at(std::string_view key) const;

    /// The tensors in the file's order, and one by name (nullptr when absent).
    const std::vector<GgufTensorInfo>& tensors() const;
    const GgufTensorInfo* find_tensor(std::string_view name) const;
    /// A tensor's stored bytes (inside the mapping; any alignment the file gives).
    std::string_view tensor_data(const GgufTensorInfo& tensor) const;

  private:
    friend class GgufParser;
    struct State;
    std::shared_ptr<const State> state_;
};

}  // namespace attnviz::io
