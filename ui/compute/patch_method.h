// How the Patching tab measures each head: the exact sweep (models::patch_sweep, a patched run
// per head) or attribution patching (models::attribution_patching, every head from two forward
// passes and one backward), and which one a model starts with.
#pragma once

#include <cstdint>

namespace attnviz::ui {

enum class PatchMethod {
    Exact,        ///< one patched run per head, refining the attribution estimate shown first
    Attribution,  ///< the first-order estimate alone
};

/// Models above this many parameters start with Attribution: there the exact sweep takes about
/// half a forward pass per head (hundreds of passes), the estimate three.
constexpr std::uint64_t kAttributionFirstAbove = 1'000'000'000;

/// The method a model of `parameter_count` parameters (ModelInfo::parameter_count) starts with.
constexpr PatchMethod default_patch_method(std::uint64_t parameter_count) {
    return parameter_count > kAttributionFirstAbove ? PatchMethod::Attribution : PatchMethod::Exact;
}

}  // namespace attnviz::ui
