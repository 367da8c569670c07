// libFuzzer target for the GUI's .attnviz session loader (ui/document/session.h): the file
// through load_session into an AttentionDocument, saved and reopened, and computed when small.
// The harness is attnviz::fuzz::run_session (fuzz/fuzz_session_entry.cpp), shared with
// tests/test_fuzz_regressions.cpp (test_fuzz_session_regressions).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_session_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return attnviz::fuzz::run_for_libfuzzer(attnviz::fuzz::run_session, data, size);
}
