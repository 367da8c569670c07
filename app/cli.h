// attnviz's command line: one CLI11 tree with every subcommand (attend, tokenize, bench here;
// export from ui/, passed in as an extension), generated --help, one-line errors.
// The subcommands themselves are in app/*_command.cpp; their building blocks in
// app/command_line.h.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app/command_line.h"

namespace attnviz::cli {

/// The whole tree: the root ("attnviz", --help, --version), the subcommands of app/ and
/// then each of `extensions`, all registering their handlers in `ctx`.
std::unique_ptr<CLI::App> make_command_line(CommandContext& ctx,
                                            std::span<const AddCommand> extensions = {});

/// Runs `attnviz <args...>` (the arguments after the program's name) for a subcommand, or
/// prints the help or the version.  Returns the exit status: 0 success, 1 data error (bad
/// file, bad shape, failed write, over the memory budget), 2 usage error.  On failure
/// exactly one line goes to stderr, "attnviz <subcommand>: <what is wrong>".
int run(const std::vector<std::string>& args, std::span<const AddCommand> extensions = {});

/// A command line parsed but not run.
struct ParsedCommandLine {
    enum class Kind {
        Command,  ///< a subcommand with valid options: `run` would start it
        Help,     ///< --help (or `help`): `output` is the page
        Version,  ///< --version: `output` is the line
        Error,    ///< a usage error: `output` is the one line run() prints
    };
    Kind kind = Kind::Error;
    int status = 2;       ///< what run() returns without running a command: 0 or 2
    std::string command;  ///< the subcommand, "" at the root
    std::string output;
    /// For a Command: its options as one canonical argument list ("--name" then the value,
    /// in declaration order, first long names), which parses to itself.
    std::vector<std::string> canonical;
};

/// Parses and checks `args` as run() would, without running anything: the parse-only
/// entry of the `options` fuzzer.  Refusals are returned, never thrown; any exception that
/// leaves it is a bug.
ParsedCommandLine parse_command_line(const std::vector<std::string>& args,
                                     std::span<const AddCommand> extensions = {});

/// True if `word`, as the first argument, selects the command line rather than the desktop
/// app: a subcommand of the tree, help, --help, -h or --version.
bool is_subcommand(const std::string& word, std::span<const AddCommand> extensions = {});

}  // namespace attnviz::cli
