// The headless subcommands: attend, tokenize, bench.  (export lives in ui/, since it
// renders with the same code as the window.)
#pragma once

#include <string>
#include <vector>

namespace attnviz::cli {

/// Runs `attnviz <args...>` for a headless subcommand; returns the process exit status:
/// 0 success, 1 data error (bad file, bad shape, failed write), 2 usage error.
/// Exactly one message goes to stderr on failure.
int run(const std::vector<std::string>& args);

/// True if args[0] names a subcommand that runs without a display.
bool is_subcommand(const std::string& name);

}  // namespace attnviz::cli
