// `attnviz export`'s Activation patching options (--view patch): `attnviz patch`'s inputs and
// --method, declared as it declares them, and the sweep (or its attribution estimate) drawn by
// the Patching tab's figure or written as its array.
#include <QFileInfo>

#include "engine/errors.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/predictions.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/model_store.h"
#include "ui/compute/patch_runner.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/patch_figure.h"

namespace attnviz::ui {

namespace {
/// --view patch: everything is checked and computed before the one file is written.
void run_patch_export(const ExportOptions& a) {
    const cli::PatchInputOptions& p = a.patch;
    if (!a.model) usage_error(ExportCommandText::tr("--view patch needs --model"));
    if (a.text || a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(ExportCommandText::tr(
            "--view patch reads --clean and --corrupt, not --text, --tokens or --layer"));
    if (!p.clean || !p.corrupt || !p.target || !p.distractor)
        usage_error(ExportCommandText::tr(
            "--view patch needs --clean, --corrupt, --target and --distractor"));
    const bool array = a.data_output({QStringLiteral("npy"), QStringLiteral("csv")});
    const QString out = qstring(*a.out);
    const QString suffix = QFileInfo(out).suffix().toLower();
    const ExportSize size{a.width, a.height, a.scale};
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    models::PatchRequest request = models::patch_request(
        *m, {*p.clean, *p.corrupt, *p.target, *p.distractor, p.position.value_or(-1)});
    request.num_threads = worker_threads();
    PatchMaps maps = make_patch_maps(*m, request, qstring(*p.clean), qstring(*p.corrupt));
    maps.method = a.method == "attribution" ? PatchMethod::Attribution : PatchMethod::Exact;
    // The arrays are the chosen method's fractions; the figure of an exact sweep also compares
    // it with the estimate, as the tab does once both exist.
    if (maps.method == PatchMethod::Attribution || !array) {
        const std::optional<models::AttributionPatching> estimate =
            PatchRunner::estimate(*m->model, request, {}, maps.method == PatchMethod::Attribution);
        if (estimate) maps.setEstimate(*estimate);
        if (maps.method == PatchMethod::Attribution)
            maps.result = models::estimated_patch_result(*estimate);
    }
    if (maps.method == PatchMethod::Exact) maps.result = models::patch_sweep(*m->model, request);
    maps.done = maps.total;
    if (suffix == QLatin1String("npy")) return write_atomically(out, patch_npy(maps));
    if (suffix == QLatin1String("csv")) return write_atomically(out, patch_csv(maps));
    PatchFigure figure;
    figure.setMaps(&maps);
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    figure.setOptions(options);
    write_atomically(out, encode_figure(render_painted_figure(figure, size, out)));
}
}  // namespace

void ExportPatching::declare(CLI::App& sub) {
    const char* group =
        "Activation patching (--view patch, with --model): the fraction restored by each head, "
        "as attnviz patch computes it; --out .png, .svg, .pdf, or the array as .npy or .csv";
    cli::add_patch_inputs(sub, &patch, false, group);
    cli::add_choice(sub, "--method", &method, {"exact", "attribution"},
                    "exact: one corrupted run per head (the figure also compares it with the "
                    "estimate); attribution: every head estimated at once from two passes and one "
                    "backward, as attnviz patch --method attribution (default exact)")
        ->group(group);
}

bool ExportPatching::apply(const ExportOptions& a) const {
    const bool patch_view = a.view == "patch";
    if (a.ablating() && patch_view)
        usage_error(ExportCommandText::tr("--ablate does not apply to --view patch"));
    if (a.generate && patch_view)
        usage_error(ExportCommandText::tr("--generate does not apply to --view patch"));
    if (patch_view) {
        run_patch_export(a);
        return true;
    }
    if (patch.clean || patch.corrupt || patch.target || patch.distractor || patch.position ||
        method)
        usage_error(ExportCommandText::tr(
            "--clean, --corrupt, --target, --distractor, --position and --method need --view "
            "patch"));
    return false;
}

}  // namespace attnviz::ui
