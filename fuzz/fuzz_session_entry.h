// The fuzz target for the GUI's .attnviz session loader (ui/document/session.h).  It needs
// Qt and the ui library, so it lives apart from fuzz/fuzz_entry.h (engine only, no Qt) and
// follows the same contract: refusing an input with a message is fine, anything else that
// leaves the entry (InvariantViolation, any other exception) or a sanitizer report is a bug.
// fuzz/fuzz_session.cpp (libFuzzer) and tests/test_fuzz_regressions.cpp (the build of it
// called test_fuzz_session_regressions) call exactly this function.
#pragma once

#include <span>
#include <string_view>

#include "fuzz/fuzz_entry.h"

namespace attnviz::fuzz {

/// The bytes, written to a scratch file, through load_session into an AttentionDocument set
/// away from its defaults.  Refused: there is a message and the document, its extras and its
/// change signals are untouched.  Accepted: every setting is within its documented range,
/// one coalesced settingsChanged follows, the session saves and reloads to the same state,
/// and a small enough configuration computes (a refusal there must be DataError/UsageError/
/// std::invalid_argument) to a snapshot of the shape the settings promise, and so does the
/// comparison's configuration B when it is possible.  Creates a QCoreApplication on first
/// use if there is none (no display needed).
Outcome run_session(std::string_view input);

/// The targets of this library: just "session".
std::span<const Target> session_targets();

}  // namespace attnviz::fuzz
