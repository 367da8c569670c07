// The attention kernels instantiated for AVX2 + FMA (8 lanes; compiled with -mavx2 -mfma).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstdint>

#include "engine/kernels/attention_impl.h"
#include "engine/kernels/attention_variants.h"
#include "engine/kernels/lanes_avx2.h"

namespace attnviz::kernels::detail {

constinit const AttentionVariant attention_avx2 = {
    AttentionTiles<Avx2Lanes>::kPanel,   AttentionTiles<Avx2Lanes>::W,
    pack_keys_impl<Avx2Lanes>,           pack_values_impl<Avx2Lanes>,
    attention_scores_impl<Avx2Lanes>,    attention_context_impl<Avx2Lanes>,
    store_rows_impl<Avx2Lanes>,          add_rows_impl<Avx2Lanes>,
    stream_and_add_rows_impl<Avx2Lanes>,
};

}  // namespace attnviz::kernels::detail
