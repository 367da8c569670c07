// The attention kernels instantiated for NEON (4 lanes, AArch64).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstdint>

#include "engine/kernels/attention_impl.h"
#include "engine/kernels/attention_variants.h"
#include "engine/kernels/lanes_neon.h"

namespace attnviz::kernels::detail {

constinit const AttentionVariant attention_neon = {
    AttentionTiles<NeonLanes>::kPanel,   AttentionTiles<NeonLanes>::W,
    pack_keys_impl<NeonLanes>,           pack_values_impl<NeonLanes>,
    attention_scores_impl<NeonLanes>,    attention_context_impl<NeonLanes>,
    store_rows_impl<NeonLanes>,          add_rows_impl<NeonLanes>,
    stream_and_add_rows_impl<NeonLanes>,
};

}  // namespace attnviz::kernels::detail
