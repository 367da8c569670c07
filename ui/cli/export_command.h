// `attnviz export`: the window's figure, headless, through the same document and renderer.
// Its options are declared and applied in one place, a struct per group
// (export_options.h); app/ joins the subcommand to the command line's tree.
#pragma once

#include "app/command_line.h"
#include "ui/cli/export_options.h"

namespace attnviz::ui {

/// Adds `export` to the command line's tree `app`: its options, its check (what needs no
/// file) and its run (render_export).
void add_export_command(CLI::App& app, cli::CommandContext& ctx);

/// Creates the QApplication (offscreen unless QT_QPA_PLATFORM says otherwise), applies
/// `options` to an AttentionDocument, computes and writes the figure.  Throws UsageError
/// (options that do not go together, exit 2) or DataError / std::invalid_argument (a file
/// that is missing or broken, a computation over the budget, exit 1); nothing is written
/// then.
void render_export(const ExportOptions& options);

}  // namespace attnviz::ui
