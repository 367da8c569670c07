// libFuzzer target for the engine's strict JSON parser (engine/io/json.h: simdjson, plus no
// repeated keys and no nesting deeper than 64), behind safetensors headers, shard indexes and
// every model folder's JSON.
// The harness is attnviz::fuzz::run_json (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_json, data, size);
}
