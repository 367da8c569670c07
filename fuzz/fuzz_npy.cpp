// libFuzzer target for the .npy reader (engine/io/npy.h): parse_npy and parse_npy_mask.
// The harness is attnviz::fuzz::run_npy (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_npy, data, size);
}
