// libFuzzer target for the strict JSON parser behind safetensors headers
// (engine/io/json_lite.h).
// The harness is attnviz::fuzz::run_json (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_json, data, size);
}
