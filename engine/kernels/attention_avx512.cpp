// The attention kernels instantiated for AVX-512F (16 lanes, masked tails; compiled with
// -mavx512f). This unit includes only intrinsics and the kernel templates (anonymous namespace);
// see softmax_impl.h for why nothing else may be shared with units built for other ISAs. GCC 12's
// AVX-512 intrinsics warn once inlined (GCC PR 105593): see softmax_avx512.cpp.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cstdint>

#include "engine/kernels/attention_impl.h"
#include "engine/kernels/attention_variants.h"
#include "engine/kernels/lanes_avx512.h"

namespace attnviz::kernels::detail {

constinit const AttentionVariant attention_avx512 = {
    AttentionTiles<Avx512Lanes>::kPanel,   AttentionTiles<Avx512Lanes>::W,
    pack_keys_impl<Avx512Lanes>,           pack_values_impl<Avx512Lanes>,
    attention_scores_impl<Avx512Lanes>,    attention_context_impl<Avx512Lanes>,
    store_rows_impl<Avx512Lanes>,          add_rows_impl<Avx512Lanes>,
    stream_and_add_rows_impl<Avx512Lanes>,
};

}  // namespace attnviz::kernels::detail
