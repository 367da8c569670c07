#include "ui/render/figure_factory.h"

#include "ui/classroom/compare_figure.h"
#include "ui/classroom/lines_figure.h"
#include "ui/classroom/model_walk_figure.h"
#include "ui/classroom/steps_figure.h"
#include "ui/model/lens_figure.h"
#include "ui/model/model_figure.h"
#include "ui/model/predictions_figure.h"

namespace attnviz::ui {

std::unique_ptr<ClassroomFigure> make_classroom_figure(const FigureOptions& options) {
    switch (options.kind) {
        case FigureKind::Steps:
            if (options.whole_model) return std::make_unique<ModelWalkFigure>();
            return std::make_unique<StepsFigure>();
        case FigureKind::Lines:
            return std::make_unique<LinesFigure>();
        case FigureKind::Compare:
            return std::make_unique<CompareFigure>();
        case FigureKind::Model:
            return std::make_unique<ModelFigure>();
        case FigureKind::Lens:
            return std::make_unique<LensFigure>();
        case FigureKind::Predictions:
            return std::make_unique<PredictionsFigure>();
        case FigureKind::Heatmaps:
            break;
    }
    return nullptr;
}

}  // namespace attnviz::ui
