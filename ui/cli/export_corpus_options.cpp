// `attnviz export --view qk` and `--view atlas --texts`: heads across a corpus, headless.  The
// texts of --texts measured as `attnviz corpus` measures them (the window's measure_corpus: the
// same options and defaults); --view qk draws --head's queries and keys with the Queries & Keys
// tab's figure, or writes its points (.csv: the numbers of `attnviz corpus`'s qk_L_H.npy and
// qk_L_H_cosine.npy; .json: its qk_L_H.json); --view atlas --texts writes the corpus atlas
// (.csv: the Atlas's corpus export; .json: `attnviz corpus`'s heads.json without the run's own
// members).
#include <QFileInfo>

#include "engine/errors.h"
#include "engine/models/corpus_texts.h"
#include "engine/models/predictions.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/corpus_runner.h"
#include "ui/compute/model_store.h"
#include "ui/model/qk_figure.h"

namespace attnviz::ui {

namespace {
/// Refuses what --texts does not take, then reads and measures the corpus (`qk`: that head's
/// vectors too).  Everything is computed before the one file is written.
CorpusMeasured measure(const ExportOptions& a, const ExportCorpus& o, const ModelPtr& m,
                       std::optional<models::HeadRef> qk) {
    CorpusRequest r;
    r.source = QFileInfo(qstring(*o.texts)).absoluteFilePath();
    if (o.texts_format) r.format = QString::fromStdString(*o.texts_format);
    try {
        r.budget = budget::resolve_memory_budget(a.memory.memory_budget, "");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (qk) r.options.qk_heads = {*qk};
    // --limit: the file's first K texts.
    if (o.limit) r.count = *o.limit;
    return measure_corpus(*m, std::move(r), PassControl{}, o.max_tokens.value_or(0));
}

void refuse_others(const ExportOptions& a, const QString& view) {
    if (!a.model) usage_error(ExportCommandText::tr("--view %1 needs --model").arg(view));
    if (a.ablating() || a.generate || a.text || a.tokens || a.text2 || a.tokens2 || a.model_layer ||
        a.attentions)
        usage_error(ExportCommandText::tr("--view %1 reads --texts, not --text, --tokens, "
                                          "--layer, --attentions, --ablate or --generate")
                        .arg(view));
}

void run_qk_export(const ExportOptions& a, const ExportCorpus& o) {
    refuse_others(a, QStringLiteral("qk"));
    if (!o.texts || !a.head)
        usage_error(ExportCommandText::tr("--view qk needs --texts FILE and --head L.H"));
    if (a.query || a.key || a.top)
        usage_error(ExportCommandText::tr("--query, --key and --top need --view why"));
    const bool data = a.data_output({QStringLiteral("csv"), QStringLiteral("json")});
    const QString out = qstring(*a.out);
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    const std::vector<models::HeadRef> heads =
        models::parse_head_list(*a.head, m->model->info(), "--head");
    if (heads.size() != 1)
        usage_error(ExportCommandText::tr("--head takes one head (L.H, from 1)"));
    CorpusMeasured measured = measure(a, o, m, heads.front());
    const models::CorpusQueryKeys& qk = measured.result.qk.front();
    if (data && QFileInfo(out).suffix().toLower() == QLatin1String("json"))
        return write_atomically(out,
                                QByteArray::fromStdString(models::query_keys_json(
                                    qk, models::joint_query_keys(qk.queries, qk.keys, qk.dim))));
    const CorpusPtr corpus = CorpusRunner::assemble(
        std::move(measured.result), measured.request,
        QFileInfo(QString::fromStdString(m->model->info().folder)).absoluteFilePath(),
        measured.truncated);
    const CorpusQkView& view = corpus->qk.front();
    if (data) return write_atomically(out, qk_points_csv(view));
    FigureOptions options;
    options.font_px = a.font_size;
    if (a.title) options.title = qstring(*a.title);
    if (a.no_title) options.show_title = false;
    write_atomically(
        out, encode_figure(render_qk_figure(
                 *corpus, view, o.projection == "cosine" ? QkProjection::Cosine : QkProjection::Pca,
                 o.colour_by == "position" ? QkColouring::Position : QkColouring::Kind, options,
                 ExportSize{a.width, a.height, a.scale}, out)));
}

void run_atlas_export(const ExportOptions& a, const ExportCorpus& o) {
    refuse_others(a, QStringLiteral("atlas"));
    if (o.projection || o.colour_by)
        usage_error(ExportCommandText::tr("--projection and --colour-by need --view qk"));
    if (!a.data_output({QStringLiteral("csv"), QStringLiteral("json")}))
        usage_error(ExportCommandText::tr(
            "--view atlas --texts writes a table: --out FILE.csv or FILE.json"));
    const QString out = qstring(*a.out);
    const bool json = QFileInfo(out).suffix().toLower() == QLatin1String("json");
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    const CorpusMeasured measured = measure(a, o, m, std::nullopt);
    write_atomically(out, json ? QByteArray::fromStdString(models::corpus_json(measured.result))
                               : corpus_atlas_csv(measured.result));
}
}  // namespace

void ExportCorpus::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* option :
         {add_text(sub, "--texts", &texts, "FILE",
                   "qk, atlas: the corpus, a UTF-8 file of texts, measured as attnviz corpus "
                   "measures it"),
          add_choice(sub, "--format", &texts_format, {"lines", "jsonl", "paragraphs"},
                     "qk, atlas: how --texts holds its texts: one per line, per JSON Lines "
                     "record or per paragraph (default: as attnviz corpus guesses)"),
          add_integer(sub, "--max-tokens", &max_tokens, 1, std::int64_t(1) << 24, "N",
                      "qk, atlas: cut each text to its first N tokens; without it a text longer "
                      "than the model is refused"),
          add_integer(sub, "--limit", &limit, 1, std::int64_t(1) << 40, "K",
                      "qk, atlas: only the first K texts"),
          add_choice(sub, "--projection", &projection, {"pca", "cosine"},
                     "qk: the PCA of the queries and keys (default), or of their directions"),
          add_choice(sub, "--colour-by", &colour_by, {"kind", "position"},
                     "qk: colour the dots by query or key (default), or by token position")})
        option->group(
            "Heads across a corpus (--view qk with --model, --texts and --head; --view atlas "
            "with --model and --texts): qk draws the head's queries and keys as the Queries & "
            "Keys tab does; --out .png, .svg, .pdf, .csv (the points) or .json (attnviz "
            "corpus's qk_L_H.json); atlas writes every head's measures over the texts, .csv or "
            ".json (attnviz corpus's heads.json)");
}

bool ExportCorpus::apply(const ExportOptions& a) const {
    if (a.view == "qk") {
        run_qk_export(a, *this);
        return true;
    }
    if (a.view == "atlas" && texts) {
        run_atlas_export(a, *this);
        return true;
    }
    if (texts || texts_format || max_tokens || limit || projection || colour_by)
        usage_error(ExportCommandText::tr(
            "--texts, --format, --max-tokens, --limit, --projection and --colour-by need --view "
            "qk, or --view atlas with --texts"));
    return false;
}

}  // namespace attnviz::ui
