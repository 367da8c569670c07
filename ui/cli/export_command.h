// `attnviz export`: the window's figure, headless, through the same document and renderer.
// It is a subcommand of the one command line (app/cli.h): app/main.cpp passes
// add_export_command to it, so `attnviz --help` lists it and its options, help and errors
// follow the same rules as every other subcommand's.
#pragma once

namespace CLI {
class App;
}  // namespace CLI

namespace attnviz::cli {
class CommandContext;
}  // namespace attnviz::cli

namespace attnviz::ui {

/// Adds `export` (its options and what it runs) to the command line's tree.  The handler
/// creates the QApplication (offscreen unless QT_QPA_PLATFORM says otherwise), applies the
/// options to an AttentionDocument and writes the figure; it throws UsageError (exit 2) or
/// DataError / std::invalid_argument (exit 1) like every handler.
void add_export_command(CLI::App& app, cli::CommandContext& ctx);

}  // namespace attnviz::ui
