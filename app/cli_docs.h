// The manual page, the Markdown reference and the bash completion of attnviz, written from the
// command line's tree (app/cli.cpp) by walking it: `attnviz --man` and `attnviz --completion
// bash`, which the build runs to make attnviz.1 and the completion file (app/CMakeLists.txt),
// and `attnviz --markdown`, committed as docs/cli.md (tests/cli.cmake checks it is current).
// What the tree knows (subcommands, options, placeholders, choices, groups) is never written
// twice.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace attnviz::cli {

/// The man page's sections that are not in the tree.
struct DocText {
    std::string version;      ///< "0.1.0"
    std::string exit_status;  ///< EXIT STATUS
    std::string memory;       ///< a paragraph of DESCRIPTION
    std::string environment;  ///< ENVIRONMENT: a line "  NAME: what." for each variable
    std::string gui_group;    ///< the root's group of the desktop app's options
    std::string qt_group;     ///< the root's group of Qt's options
};

/// man(7) roff of `root` and its subcommands: NAME, SYNOPSIS, DESCRIPTION with the root's
/// options, COMMANDS with each subcommand's description and options, EXIT STATUS,
/// ENVIRONMENT.
std::string man_page(const CLI::App& root, const DocText& text);

/// The command-line reference in Markdown (docs/cli.md): the root's and each subcommand's
/// description, examples and options by group, the exit status and the environment; the
/// same walk of the tree as the man page.
std::string markdown_reference(const CLI::App& root, const DocText& text);

/// A bash completion script for `root`: subcommand names, each one's options, the words of
/// a choice and file names for the values that are files or folders.  Plain bash (no
/// bash-completion helpers needed).
std::string bash_completion(const CLI::App& root, const DocText& text);

}  // namespace attnviz::cli
