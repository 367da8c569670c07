// The attention kernels instantiated for SSE2 (4 lanes, no FMA; compiled with -msse2).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstdint>

#include "engine/kernels/attention_impl.h"
#include "engine/kernels/attention_variants.h"
#include "engine/kernels/lanes_sse2.h"

namespace attnviz::kernels::detail {

constinit const AttentionVariant attention_sse2 = {
    AttentionTiles<Sse2Lanes>::kPanel,   AttentionTiles<Sse2Lanes>::W,
    pack_keys_impl<Sse2Lanes>,           pack_values_impl<Sse2Lanes>,
    attention_scores_impl<Sse2Lanes>,    attention_context_impl<Sse2Lanes>,
    store_rows_impl<Sse2Lanes>,          add_rows_impl<Sse2Lanes>,
    stream_and_add_rows_impl<Sse2Lanes>,
};

}  // namespace attnviz::kernels::detail
