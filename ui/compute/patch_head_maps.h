// One head's attention on the clean and the corrupted text of a patching run: what the patch
// runner computes when a head is chosen and the Patching figure draws beside the sweep.
#pragma once

#include "engine/tensor.h"

namespace attnviz::ui {

/// One head's attention on both texts ([L, L] each, rows the queries).
struct PatchHeadMaps {
    int layer = -1, head = -1;  ///< from 0
    Tensor clean, corrupt;
};

}  // namespace attnviz::ui
