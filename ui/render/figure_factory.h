// Which figure draws each FigureKind that paints itself: the classroom's (steps, the whole
// model walked through, lines, comparison) and a trained model's (every layer and head, the
// logit lens, the predictions).  It lives with the renderer because its one caller is the
// one export function (render/figure_export.cpp) that the window, the clipboard and
// `attnviz export` share; the figures' folders then need not know each other.
#pragma once

#include <memory>

#include "ui/classroom/classroom_figure.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// A new figure of the kind `options.kind` asks for (null for FigureKind::Heatmaps, which
/// HeatmapFigure draws).
std::unique_ptr<ClassroomFigure> make_classroom_figure(const FigureOptions& options);

}  // namespace attnviz::ui
