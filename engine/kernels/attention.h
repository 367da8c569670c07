// The two products of attention, for one head and a block of query rows, as register-blocked
// SIMD kernels: the scores Q·Kᵀ against keys packed once per head, and the context P·V against
// values packed once per head.  Written once (kernels/attention_impl.h), compiled for the same
// instruction sets as the softmax and chosen with it at run time (softmax.h's Isa:
// best_isa(), or ATTNVIZ_ISA).  layers/attention_core's attend() packs each key/value head
// once per pass and runs every row block of every head through them; it calls them between
// the mask and the softmax, which it runs on the same block while it is in cache.
//
// Contract, every variant:
//  * float32 products accumulated in float32, one FMA chain per output element in a fixed
//    order (the head dimension for scores, the keys for the context; without FMA, SSE2 and
//    some scalar targets, a multiply and an add): against a float64 loop on the same inputs
//    the error is a few ULP of sum |a_i b_i|, as for kernels/gemm.h.
//  * A row's result does not depend on the rows beside it, the block it is in or the thread:
//    the same inputs give the same bits, run after run, for a given variant.
//  * NaN and inf propagate as in IEEE arithmetic.  Padding in the packed operands is zero and
//    never written out.
//  * Any sizes >= 0 (keys = 0 gives zero contexts); strides in floats, at least the row length.
//  * The packed buffers' layout depends on the variant: pack and multiply with the same Isa.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/kernels/softmax.h"

namespace attnviz::kernels {

/// Floats pack_keys writes for `keys` keys of head_dim floats.
std::size_t packed_keys_floats(Isa isa, std::int64_t keys, std::int64_t head_dim);
/// Packs one head's keys (row j at k + j * ldk) for attention_scores.
void pack_keys(Isa isa, const float* k, std::int64_t ldk, std::int64_t keys, std::int64_t head_dim,
               float* packed);

/// Floats pack_values writes for `keys` values of head_dim floats.
std::size_t packed_values_floats(Isa isa, std::int64_t keys, std::int64_t head_dim);
/// Packs one head's values (row j at v + j * ldv) for attention_context.
void pack_values(Isa isa, const float* v, std::int64_t ldv, std::int64_t keys,
                 std::int64_t head_dim, float* packed);

/// s[r, j] = sum_c q[r * ldq + c] * k_j[c] for r < rows, j < keys.
void attention_scores(Isa isa, const float* q, std::int64_t ldq, std::int64_t rows,
                      std::int64_t head_dim, const float* packed_keys, std::int64_t keys, float* s,
                      std::int64_t lds);

/// out[r * ldo + c] = sum_j p[r * ldp + j] * v_j[c] for r < rows, c < head_dim.
void attention_context(Isa isa, const float* p, std::int64_t ldp, std::int64_t rows,
                       std::int64_t keys, const float* packed_values, std::int64_t head_dim,
                       float* out, std::int64_t ldo);

/// dst[r * ldd + c] = scale * src[r * lds + c] for r < rows, c < cols.  With `non_temporal`,
/// through non-temporal stores where the ISA has them (ordered by an sfence before it
/// returns): for large results written once and not read again soon (the weights), which then
/// bypass the caches and skip the read a store makes of each line first.
void store_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
                float scale, float* dst, std::int64_t ldd, bool non_temporal);

/// dst[r * ldd + c] += src[r * lds + c] (or = without `accumulate`) for r < rows, c < cols.
void add_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols,
              float* dst, std::int64_t ldd, bool accumulate);

/// store_rows(non_temporal, scale 1) of src into dst and add_rows of src into sum, in one pass.
void stream_and_add_rows(Isa isa, const float* src, std::int64_t lds, std::int64_t rows,
                         std::int64_t cols, float* dst, std::int64_t ldd, float* sum,
                         std::int64_t ldsum, bool accumulate);

}  // namespace attnviz::kernels
