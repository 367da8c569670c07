// What the CPU offers beyond what __builtin_cpu_supports can name in every compiler we build
// with.
#pragma once

namespace attnviz::kernels {

/// True when the CPU converts half floats (F16C) and the OS saves the YMM registers (AVX):
/// from CPUID leaf 1, because clang 14's __builtin_cpu_supports does not know "f16c".  False
/// off x86.
bool cpu_has_f16c();

/// True on Intel's processors (CPUID's vendor), whose cores issue vector shifts and logic on
/// the FMA ports (row_products_rows chooses its tiles by it).  False off x86.
bool cpu_is_intel();

}  // namespace attnviz::kernels
