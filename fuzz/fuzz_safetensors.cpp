// libFuzzer target for the safetensors reader (engine/io/safetensors.h):
// parse_safetensors_contents.
// The harness is attnviz::fuzz::run_safetensors (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_safetensors, data, size);
}
