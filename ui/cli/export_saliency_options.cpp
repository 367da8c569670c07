// `attnviz export --view saliency`: each input token's share of a prediction, headless.
// Gradient × input or integrated gradients (--saliency, read as `attnviz attribute --saliency`
// reads it) of logit(--target) at --position of --text on --model, minus --distractor's logit,
// from the patching group's options of those names, with the heads of --ablate knocked out;
// drawn by the Who Writes tab's strip, or written as its CSV or as the saliency fields of
// `attnviz attribute --out-json`.  --view dla draws the same strip above its map
// (export_dla_options.cpp).
#include <QFileInfo>

#include "app/attribution_json.h"
#include "app/saliency_spec.h"
#include "engine/errors.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/dla_figure.h"
#include "ui/model/saliency_figure.h"

namespace attnviz::ui {

namespace {
/// Everything is checked and computed before the one file is written.
void run_saliency_export(const ExportOptions& a, const ExportSaliency& o) {
    const cli::PatchInputOptions& p = a.patch;
    if (a.generate)
        usage_error(ExportCommandText::tr("--generate does not apply to --view saliency"));
    if (!a.model) usage_error(ExportCommandText::tr("--view saliency needs --model"));
    if (!a.text) usage_error(ExportCommandText::tr("--view saliency needs --text"));
    if (a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(ExportCommandText::tr(
            "--view saliency reads --text, not --tokens, --text2 or --layer"));
    if (p.clean || p.corrupt || a.method)
        usage_error(ExportCommandText::tr("--clean, --corrupt and --method need --view patch"));
    const std::int64_t steps = cli::saliency_steps(o.saliency.value_or("grad-input"));
    a.data_output({QStringLiteral("csv"), QStringLiteral("json")});
    const QString out = qstring(*a.out);
    const QString suffix = QFileInfo(out).suffix().toLower();
    const ExportSize size{a.width, a.height, a.scale};

    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    const std::vector<models::HeadIntervention> ablated =
        cli::ablation_options(a.ablate, m->model->info());
    const models::EncodedText e = models::encode_text(*m, *a.text);
    models::LogitTarget what;
    what.position =
        cli::token_index(p.position.value_or(-1), std::int64_t(e.input.ids.size()), "--position");
    if (p.distractor)
        what.distractor = models::single_token_id(m->tokenizer, *p.distractor, "--distractor");
    SaliencyResult result;
    try {
        what.target = p.target ? models::single_token_id(m->tokenizer, *p.target, "--target")
                               : top_prediction(*m, e.input, what.position, worker_threads());
        // The default target is the intact model's top prediction, as --view dla's.
        result = compute_saliency(*m, e, qstring(*a.text), what, steps, knocked_heads(ablated),
                                  worker_threads());
    } catch (const std::invalid_argument& ex) {
        // The options are checked above: what is left is the model's (no language-model
        // head), not the command line's.
        throw DataError(ex.what());
    }
    if (suffix == QLatin1String("csv")) return write_atomically(out, saliency_csv(result));
    if (suffix == QLatin1String("json"))
        return write_atomically(
            out, QByteArray::fromStdString(cli::saliency_json(*m, what, result.saliency, ablated)));
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    write_atomically(out, encode_figure(render_saliency_figure(result, options, size, out)));
}
}  // namespace

void ExportSaliency::declare(CLI::App& sub) {
    cli::add_text(sub, "--saliency", &saliency, "grad-input|ig:N",
                  "saliency: gradient × input (default), or integrated gradients over N steps "
                  "(1 to " +
                      std::to_string(cli::kMaxSaliencySteps) + "), as attnviz attribute --saliency")
        ->group(
            "Saliency (--view saliency, with --model and --text): each token's share of "
            "logit(--target) at --position (default the last token; the target defaults to "
            "its top prediction), minus --distractor's, of the model with the heads of --ablate "
            "knocked out; --out .png, .svg, .pdf, .csv (comment "
            "lines metric, method, steps, baseline, delta, then position,token,value) or .json "
            "(attnviz attribute's position, target, distractor, total, saliency and ablated "
            "fields). With --view dla: the same strip above the map, as the Who Writes tab shows "
            "it, and the saliency fields in its .json");
}

bool ExportSaliency::apply(const ExportOptions& a) const {
    if (a.view == "saliency") {
        run_saliency_export(a, *this);
        return true;
    }
    if (saliency) usage_error(ExportCommandText::tr("--saliency needs --view saliency or dla"));
    return false;
}

}  // namespace attnviz::ui
