#include "engine/kernels/cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace attnviz::kernels {

bool cpu_has_f16c() {
#if defined(__x86_64__) || defined(__i386__)
    static const bool has = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
               (ecx & bit_F16C) != 0;
    }();
    return has;
#else
    return false;
#endif
}

bool cpu_is_intel() {
#if defined(__x86_64__) || defined(__i386__)
    static const bool intel = __builtin_cpu_is("intel");
    return intel;
#else
    return false;
#endif
}

}  // namespace attnviz::kernels
