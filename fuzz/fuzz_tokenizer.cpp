// libFuzzer target for the tokenizer (engine/text/tokenizer.h): tokenize with
// options from byte 0, split_token_list and tokens_to_json.
// The harness is attnviz::fuzz::run_tokenizer (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_tokenizer, data, size);
}
