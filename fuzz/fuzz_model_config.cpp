// libFuzzer target for config.json (engine/models/config.h): models::parse_config.
// The harness is attnviz::fuzz::run_model_config (fuzz/config_harness.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_model_config, data, size);
}
