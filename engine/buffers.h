// Large float buffers kept for reuse.  A forward pass over 2048 tokens writes 134 MB of
// weights; fresh memory for them costs a page fault and the kernel's zeroing of every page,
// then the vector's own zero fill, a quarter of the pass's time.  Results given back when they
// are no longer needed (release_buffer, or recycle() of a whole result) are handed to the next
// computation of the same size instead, as PyTorch's and CTranslate2's caching allocators do.
// Buffers below 64 KiB are simply freed; at most 8 buffers and 1 GiB (or a sixteenth of the
// machine's memory) are kept, the oldest freed first.  Thread-safe.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/tensor.h"

namespace attnviz {

/// n floats whose contents are unspecified: the caller writes every element.  A kept buffer
/// of n to 5n/4 floats when there is one; else every kept buffer is freed (the sizes have
/// changed) and the memory is fresh, its large pages requested as transparent huge pages
/// before they are first touched.
std::vector<float> take_buffer(std::size_t n);

/// A tensor of `shape` from take_buffer(): its values are unspecified.
Tensor take_tensor(const Shape& shape);

/// Keeps the buffer for a later take_buffer() (or frees it when it is small or too much is
/// kept).  The buffer is left empty.
void release_buffer(std::vector<float>& buffer);
void release_buffer(Tensor& tensor);

/// Frees every kept buffer.
void drop_kept_buffers();

/// Bytes of the buffers kept now.
std::size_t kept_buffer_bytes();

}  // namespace attnviz
