// libFuzzer target for model.safetensors.index.json (engine/io/weight_store.h).
// The harness is attnviz::fuzz::run_shard_index (fuzz/weights_harness.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_shard_index, data, size);
}
