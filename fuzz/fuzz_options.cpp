// libFuzzer target for the command line's parser (app/cli.h, parse_command_line):
// the input split at NUL bytes is the argument list.
// The harness is attnviz::fuzz::run_options (fuzz/fuzz_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_options, data, size);
}
