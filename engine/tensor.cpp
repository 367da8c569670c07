#include "engine/tensor.h"

#include <limits>
#include <stdexcept>

namespace attnviz {

std::string shape_string(const Shape& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ",";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

std::size_t shape_numel(const Shape& shape) {
    std::size_t n = 1;
    for (std::int64_t d : shape) {
        if (d < 0)
            throw std::invalid_argument("negative dimension in shape " + shape_string(shape));
        const auto ud = static_cast<std::size_t>(d);
        if (ud != 0 && n > std::numeric_limits<std::size_t>::max() / ud)
            throw std::invalid_argument("shape " + shape_string(shape) + " is too large");
        n *= ud;
    }
    return n;
}

Tensor::Tensor(Shape s, float fill) : shape(std::move(s)), data(shape_numel(shape), fill) {}

Tensor::Tensor(Shape s, std::vector<float> values) : shape(std::move(s)), data(std::move(values)) {
    if (data.size() != shape_numel(shape))
        throw std::invalid_argument("tensor of shape " + shape_string(shape) + " needs " +
                                    std::to_string(shape_numel(shape)) + " values, got " +
                                    std::to_string(data.size()));
}

Mask Mask::boolean(Shape s, std::vector<float> zero_or_one) {
    if (zero_or_one.size() != shape_numel(s))
        throw std::invalid_argument("mask of shape " + shape_string(s) + " has " +
                                    std::to_string(zero_or_one.size()) + " values");
    Mask m;
    m.kind = Kind::Bool;
    m.shape = std::move(s);
    m.values = std::move(zero_or_one);
    for (float& v : m.values)
        v = (v != 0.0f) ? 1.0f : 0.0f;
    return m;
}

Mask Mask::additive(Shape s, std::vector<float> added) {
    if (added.size() != shape_numel(s))
        throw std::invalid_argument("mask of shape " + shape_string(s) + " has " +
                                    std::to_string(added.size()) + " values");
    Mask m;
    m.kind = Kind::Float;
    m.shape = std::move(s);
    m.values = std::move(added);
    return m;
}

float Mask::additive_at(std::size_t i) const {
    if (kind == Kind::Float) return values[i];
    return values[i] != 0.0f ? -std::numeric_limits<float>::infinity() : 0.0f;
}

}  // namespace attnviz
