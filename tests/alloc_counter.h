// Counts this executable's heap: every malloc family call (so every operator new, Eigen's
// aligned blocks and Qt's images) adds its usable size, every free takes it back.  Linked
// only into the tests that measure memory (tests/membudget.cmake).  Under AddressSanitizer,
// which owns malloc, nothing is counted and heap_counting_available() is false.
#pragma once

#include <cstdint>

namespace attnviz::test {

bool heap_counting_available();
/// Starts a measurement: the peak becomes the bytes live now.
void reset_heap_peak();
/// Bytes live now, and the most that were live since reset_heap_peak().
std::int64_t heap_live_bytes();
std::int64_t heap_peak_bytes();

}  // namespace attnviz::test
