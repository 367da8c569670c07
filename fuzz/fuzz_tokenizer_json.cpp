// libFuzzer target for tokenizer.json (engine/text/hf): from_tokenizer_json and encode.
// The harness is attnviz::fuzz::run_tokenizer_json (fuzz/tokenizer_json_harness.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_tokenizer_json, data, size);
}
