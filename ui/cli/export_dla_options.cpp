// `attnviz export --view dla`: who writes the answer, headless.  Direct logit attribution of
// --model on --text at --position for --target (default: the model's top prediction there),
// minus --distractor's logit, read from the patching group's options of those names, with the
// heads of --ablate knocked out; drawn by the tab's figure (with --saliency, the tab's saliency
// strip above the map, of the same knocked-out model), or written as its CSV or as
// `attnviz attribute --out-json`'s document.
#include <QFileInfo>

#include <optional>

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
void run_dla_export(const ExportOptions& a) {
    const cli::PatchInputOptions& p = a.patch;
    if (a.generate) usage_error(ExportCommandText::tr("--generate does not apply to --view dla"));
    if (!a.model) usage_error(ExportCommandText::tr("--view dla needs --model"));
    if (!a.text) usage_error(ExportCommandText::tr("--view dla needs --text"));
    if (a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(
            ExportCommandText::tr("--view dla reads --text, not --tokens, --text2 or "
                                  "--layer"));
    if (p.clean || p.corrupt || a.method)
        usage_error(ExportCommandText::tr("--clean, --corrupt and --method need --view patch"));
    a.data_output({QStringLiteral("csv"), QStringLiteral("json")});
    const QString out = qstring(*a.out);
    const QString suffix = QFileInfo(out).suffix().toLower();
    const ExportSize size{a.width, a.height, a.scale};
    const std::int64_t steps = a.saliency ? cli::saliency_steps(*a.saliency) : 0;
    if (a.saliency && suffix == QLatin1String("csv"))
        usage_error(ExportCommandText::tr(
            "--saliency with --view dla draws its strip, or writes it into the .json: its .csv "
            "is --view saliency's"));

    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    // The model's reason first (no head, post-norm): it is about the data, not the options.
    if (const QString why = dla_unavailable(*m); !why.isEmpty()) throw DataError(why.toStdString());
    const std::vector<models::HeadIntervention> ablated =
        cli::ablation_options(a.ablate, m->model->info());
    const models::EncodedText e = models::encode_text(*m, *a.text);
    DlaRequest request;
    request.position =
        cli::token_index(p.position.value_or(-1), std::int64_t(e.input.ids.size()), "--position");
    if (p.target) request.target = models::single_token_id(m->tokenizer, *p.target, "--target");
    if (p.distractor)
        request.distractor = models::single_token_id(m->tokenizer, *p.distractor, "--distractor");
    request.knocked_out = knocked_heads(ablated);
    const DlaResult result = compute_dla(*m, e, qstring(*a.text), request, worker_threads());
    std::optional<SaliencyResult> saliency;
    if (a.saliency)
        saliency = compute_saliency(*m, e, qstring(*a.text), result.attribution.what, steps,
                                    request.knocked_out, worker_threads());
    if (suffix == QLatin1String("csv")) return write_atomically(out, dla_csv(result));
    if (suffix == QLatin1String("json"))
        return write_atomically(
            out, QByteArray::fromStdString(cli::attribution_json(
                     *m, result.attribution,
                     saliency ? std::optional(saliency->saliency) : std::nullopt, ablated)));
    DlaFigure figure;
    figure.setResult(&result);
    figure.setSaliency(saliency ? &*saliency : nullptr);
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    figure.setOptions(options);
    write_atomically(out, encode_figure(render_painted_figure(figure, size, out)));
}
}  // namespace

bool ExportDla::apply(const ExportOptions& a) const {
    if (a.view != "dla") return false;
    run_dla_export(a);
    return true;
}

}  // namespace attnviz::ui
