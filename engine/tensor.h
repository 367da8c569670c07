// Plain dense tensors for the engine's public interface.
//
// Public engine headers hold no Eigen and no SIMD types, so their meaning never depends
// on the compiler flags of the code that includes them; Eigen stays inside the .cpp files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

using Shape = std::vector<std::int64_t>;

/// "[2,9]" — used in every error message that reports a shape.
std::string shape_string(const Shape& shape);

/// Number of elements of a shape; throws std::invalid_argument on a negative dimension or
/// when the product overflows.
std::size_t shape_numel(const Shape& shape);

/// A row-major float32 tensor.
struct Tensor {
    Shape shape;
    std::vector<float> data;

    Tensor() = default;
    explicit Tensor(Shape s, float fill = 0.0f);
    Tensor(Shape s, std::vector<float> values);  ///< throws if values.size() != numel

    std::size_t numel() const { return data.size(); }
    std::int64_t dim(std::size_t i) const { return shape.at(i); }
    std::size_t rank() const { return shape.size(); }
    bool empty() const { return data.empty(); }
    float* ptr() { return data.data(); }
    const float* ptr() const { return data.data(); }
};

/// A mask as PyTorch takes it: boolean (true = masked / ignore) or float (added to the
/// scores, -inf masks).  Bool masks keep 0/1 in `values`.
struct Mask {
    enum class Kind { Bool, Float };
    Kind kind = Kind::Bool;
    Shape shape;
    std::vector<float> values;

    static Mask boolean(Shape s, std::vector<float> zero_or_one);
    static Mask additive(Shape s, std::vector<float> added);
    bool is_bool() const { return kind == Kind::Bool; }
    std::size_t numel() const { return values.size(); }
    /// The additive form of element i: bool true -> -inf, bool false -> 0, float as is.
    float additive_at(std::size_t i) const;
};

}  // namespace attnviz
