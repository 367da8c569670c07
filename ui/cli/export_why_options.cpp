// `attnviz export --view why`: "Why this attention?", headless.  The QK attribution of --head's
// score between --query and --key of --model on --text (models::attribute_qk), drawn by the
// window pane's figure with the --top largest pairs, or written as `attnviz qk --out-json`'s
// document.
#include <QFileInfo>

#include "app/qk_json.h"
#include "engine/errors.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/why_figure.h"

namespace attnviz::ui {

namespace {
/// Everything is checked and computed before the one file is written.
void run_why_export(const ExportOptions& a, const ExportWhy& o) {
    if (a.ablating()) usage_error(ExportCommandText::tr("--ablate does not apply to --view why"));
    if (a.generate) usage_error(ExportCommandText::tr("--generate does not apply to --view why"));
    if (!a.model) usage_error(ExportCommandText::tr("--view why needs --model"));
    if (!a.text) usage_error(ExportCommandText::tr("--view why needs --text"));
    if (!o.head || !o.query || !o.key)
        usage_error(ExportCommandText::tr("--view why needs --head L.H, --query I and --key J"));
    if (a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(
            ExportCommandText::tr("--view why reads --text, not --tokens, --text2 or --layer"));
    const bool json = a.data_output({QStringLiteral("json")});
    const QString out = qstring(*a.out);
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    const std::vector<models::HeadRef> heads =
        models::parse_head_list(*o.head, m->model->info(), "--head");
    if (heads.size() != 1)
        usage_error(ExportCommandText::tr("--head takes one head (L.H, from 1)"));
    const models::EncodedText e = models::encode_text(*m, *a.text);
    const auto L = std::int64_t(e.input.ids.size());
    WhyRequest request;
    request.head = heads.front();
    request.query = cli::token_index(*o.query, L, "--query");
    request.key = cli::token_index(*o.key, L, "--key");
    WhyResult result;
    try {
        result = compute_why(*m, e, qstring(*a.text), request, std::nan(""), worker_threads());
    } catch (const std::invalid_argument& ex) {  // a key after the query: the options' fault
        usage_error(QString::fromStdString(ex.what()));
    }
    if (json)
        return write_atomically(
            out, QByteArray::fromStdString(cli::qk_json(*m, e.input, result.attribution, o.top)));
    WhyFigure figure;
    figure.setResult(&result);
    figure.setTop(int(o.top.value_or(WhyFigure::kDefaultTop)));
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    figure.setOptions(options);
    write_atomically(out, encode_figure(render_painted_figure(
                              figure, ExportSize{a.width, a.height, a.scale}, out)));
}
}  // namespace

void ExportWhy::declare(CLI::App& sub) {
    using namespace cli;
    constexpr std::int64_t kFar = std::int64_t(1) << 24;
    for (CLI::Option* option :
         {add_text(sub, "--head", &head, "L.H", "why: the head (layer.head, from 1)"),
          add_integer(sub, "--query", &query, -kFar, kFar, "I",
                      "why: the query's position, from 1; negative from the end"),
          add_integer(sub, "--key", &key, -kFar, kFar, "J",
                      "why: the key's position, from 1 (at most the query's); negative from "
                      "the end"),
          add_integer(sub, "--top", &top, 1, std::int64_t(1) << 30, "N",
                      "why: the N largest pairs, the others summed (figure default 8; JSON "
                      "default: every pair)")})
        option->group(
            "Why this attention? (--view why, with --model and --text): attnviz qk's QK "
            "attribution of --head's score between --query and --key; --out .png, .svg, .pdf, "
            "or .json: attnviz qk --out-json's document");
}

bool ExportWhy::apply(const ExportOptions& a) const {
    if (a.view == "why") {
        run_why_export(a, *this);
        return true;
    }
    if (head || query || key || top)
        usage_error(ExportCommandText::tr("--head, --query, --key and --top need --view why"));
    return false;
}

}  // namespace attnviz::ui
