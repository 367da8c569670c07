// `attnviz export`: option parsing into an AttentionDocument plus export settings, kept apart
// from the QApplication set-up so it can be tested directly.
#pragma once

#include <QString>
#include <QStringList>

#include "ui/render/figure_export.h"

namespace attnviz::ui {

class AttentionDocument;

struct ExportCommand {
    ExportSize size;
    FigureOptions figure;
    QString out;
    QString memory_budget;  ///< --memory-budget as given; empty: the default
    bool help = false;
};

/// Parses the arguments after "export" into `document` and the returned command.
/// Throws UsageError with a one-line message on any problem.
ExportCommand parse_export_arguments(const QStringList& args, AttentionDocument* document);

QString export_usage();

/// Runs a parsed command: computes on this thread, renders, writes.  Throws DataError /
/// UsageError / std::invalid_argument.
void run_export(const ExportCommand& command, const AttentionDocument& document);

}  // namespace attnviz::ui
