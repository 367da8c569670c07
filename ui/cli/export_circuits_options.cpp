// `attnviz export`'s Circuits options (--view circuits): `attnviz circuits`'s scores of --model,
// from its weights alone, drawn by the Circuits tab's figure or written as CSV.
#include <QFileInfo>

#include "engine/errors.h"
#include "engine/models/circuits.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/circuits_figure.h"

namespace attnviz::ui {

namespace {
/// --view circuits: everything is checked and computed before the one file is written.
void run_circuits_export(const ExportOptions& a, const ExportCircuits& o) {
    if (!a.model)
        usage_error(a.attentions ? ExportCommandText::tr(
                                       "--view circuits needs --model: attention maps read from "
                                       "a file have no weights")
                                 : ExportCommandText::tr("--view circuits needs --model"));
    if (a.text || a.tokens || a.text2 || a.tokens2 || a.model_layer || a.attentions)
        usage_error(ExportCommandText::tr(
            "--view circuits reads the weights of --model alone, not --text, --tokens, --layer "
            "or --attentions"));
    if (a.ablating())
        usage_error(ExportCommandText::tr("--ablate does not apply to --view circuits"));
    if (a.generate)
        usage_error(ExportCommandText::tr("--generate does not apply to --view circuits"));
    const bool csv = a.data_output({QStringLiteral("csv")});
    const QString out = qstring(*a.out);
    const ExportSize size{a.width, a.height, a.scale};
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    const models::ModelConfig& c = m->model->config();
    if (o.rope_offset && !c.rotary())
        usage_error(ExportCommandText::tr("--rope-offset: %1 has learned positions, so W_QK does "
                                          "not depend on the offset")
                        .arg(QString::fromStdString(c.display_name())));
    models::CircuitOptions options;
    options.rope_offset = o.rope_offset.value_or(1);
    options.num_threads = worker_threads();
    models::CircuitScores scores;
    try {
        scores = models::circuit_scores(*m->model, options);
    } catch (const std::invalid_argument& e) {
        usage_error(QStringLiteral("--rope-offset: ") + QString::fromStdString(e.what()));
    }
    const CircuitMaps maps = make_circuit_maps(*m, std::move(scores));
    if (csv) return write_atomically(out, circuits_csv(maps));
    CircuitsFigure figure;
    figure.setMaps(&maps);
    const std::string kind = o.composition.value_or("k");
    figure.setComposition(kind == "q" || kind == "Q"   ? Composition::Q
                          : kind == "v" || kind == "V" ? Composition::V
                                                       : Composition::K);
    FigureOptions figure_options;
    figure_options.font_px = a.font_size;
    if (a.title) figure_options.title = qstring(*a.title);
    if (a.no_title) figure_options.show_title = false;
    figure.setOptions(figure_options);
    write_atomically(out, encode_figure(render_painted_figure(figure, size, out)));
}
}  // namespace

void ExportCircuits::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* option :
         {add_choice(sub, "--composition", &composition, {"q", "k", "v"},
                     "circuits: the matrix drawn, Q-, K- (default) or V-composition", {},
                     LetterCase::Any),
          add_integer(sub, "--rope-offset", &rope_offset, 0, std::int64_t(1) << 24, "D",
                      "circuits, rotary models: W_QK at query position - key position D "
                      "(default 1), as attnviz circuits")})
        option->group(
            "Circuits (--view circuits, with --model): the composition and copying scores of "
            "attnviz circuits, from the weights alone; --out .png, .svg, .pdf, or .csv: a "
            "table from,to,q,k,v of every pair of heads in different layers (the earlier "
            "first), then, after an empty line, a table head,copying (absent without a causal "
            "LM head)");
}

bool ExportCircuits::apply(const ExportOptions& a) const {
    if (a.view == "circuits") {
        run_circuits_export(a, *this);
        return true;
    }
    if (composition || rope_offset)
        usage_error(ExportCommandText::tr("--composition and --rope-offset need --view circuits"));
    return false;
}

}  // namespace attnviz::ui
