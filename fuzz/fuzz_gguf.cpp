// libFuzzer target for the GGUF reader (engine/io/gguf.h): GgufFile::parse.
// The harness is attnviz::fuzz::run_gguf (fuzz/gguf_harness.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_gguf, data, size);
}
