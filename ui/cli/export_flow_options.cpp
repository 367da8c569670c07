// `attnviz export --view flow`: the information-flow routes of --model on --text, headless.
// The graph of the prediction at the patching group's --position (default: the last token),
// at --threshold (default 0.04, as `attnviz flow`), per head with --per-head; drawn by the Flow
// tab's figure, or written as `attnviz flow --out-json`'s document.
#include <QFileInfo>

#include "app/flow_json.h"
#include "engine/errors.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/flow_figure.h"

namespace attnviz::ui {

namespace {
/// `attnviz flow`'s default.
constexpr double kDefaultThreshold = 0.04;

/// Everything is checked and computed before the one file is written.
void run_flow_export(const ExportOptions& a, const ExportFlow& o) {
    const cli::PatchInputOptions& p = a.patch;
    if (a.ablating()) usage_error(ExportCommandText::tr("--ablate does not apply to --view flow"));
    if (a.generate) usage_error(ExportCommandText::tr("--generate does not apply to --view flow"));
    if (!a.model) usage_error(ExportCommandText::tr("--view flow needs --model"));
    if (!a.text) usage_error(ExportCommandText::tr("--view flow needs --text"));
    if (a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(
            ExportCommandText::tr("--view flow reads --text, not --tokens, --text2 or --layer"));
    if (p.clean || p.corrupt || p.target || p.distractor || a.method)
        usage_error(ExportCommandText::tr(
            "--clean, --corrupt, --target, --distractor and --method do not apply to --view "
            "flow"));
    const bool json = a.data_output({QStringLiteral("json")});
    const QString out = qstring(*a.out);
    const ExportSize size{a.width, a.height, a.scale};

    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    // The model's reason first (post-norm): it is about the data, not the options.
    if (const QString why = flow_unavailable(*m); !why.isEmpty())
        throw DataError(why.toStdString());
    const models::EncodedText e = models::encode_text(*m, *a.text);
    const std::int64_t position =
        cli::token_index(p.position.value_or(-1), std::int64_t(e.input.ids.size()), "--position");
    const FlowData data = compute_flow(*m, e, qstring(*a.text), o.flow_per_head, worker_threads());
    const models::FlowGraph graph =
        models::flow_graph(data.flow, position, o.threshold.value_or(kDefaultThreshold));
    if (json)
        return write_atomically(out, QByteArray::fromStdString(
                                         cli::flow_graph_json(e.encoding.text, data.flow, graph)));
    FlowFigure figure;
    figure.setData(&data, &graph);
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    figure.setOptions(options);
    write_atomically(out, encode_figure(render_painted_figure(figure, size, out)));
}
}  // namespace

void ExportFlow::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* option :
         {add_real(sub, "--threshold", &threshold, 0.0, 1.0, UpperBound::Included, "T",
                   "flow: the least importance of an edge in the graph, more than 0 (default "
                   "0.04, as attnviz flow)"),
          add_flag(sub, "--per-head", &flow_per_head,
                   "flow: the attention's edges per head rather than per source token through "
                   "every head")})
        option->group(
            "Flow (--view flow, with --model and --text): the information-flow routes of "
            "attnviz flow to the prediction at --position (default: the last token); --out "
            ".png, .svg, .pdf, or .json: attnviz flow --out-json's document");
}

bool ExportFlow::apply(const ExportOptions& a) const {
    if (a.view == "flow") {
        if (threshold && !(*threshold > 0.0))
            usage_error(ExportCommandText::tr(
                "--threshold must be more than 0: every edge of importance 0 would reach the "
                "prediction"));
        run_flow_export(a, *this);
        return true;
    }
    if (threshold || flow_per_head)
        usage_error(ExportCommandText::tr("--threshold and --per-head need --view flow"));
    return false;
}

}  // namespace attnviz::ui
