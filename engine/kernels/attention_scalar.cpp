// The attention kernels instantiated for plain C++ (one lane), which every CPU can run.
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstdint>

#include "engine/kernels/attention_impl.h"
#include "engine/kernels/attention_variants.h"
#include "engine/kernels/lanes_scalar.h"

namespace attnviz::kernels::detail {

constinit const AttentionVariant attention_scalar = {
    AttentionTiles<ScalarLanes>::kPanel,   AttentionTiles<ScalarLanes>::W,
    pack_keys_impl<ScalarLanes>,           pack_values_impl<ScalarLanes>,
    attention_scores_impl<ScalarLanes>,    attention_context_impl<ScalarLanes>,
    store_rows_impl<ScalarLanes>,          add_rows_impl<ScalarLanes>,
    stream_and_add_rows_impl<ScalarLanes>,
};

}  // namespace attnviz::kernels::detail
