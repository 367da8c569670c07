// `attnviz export`'s Figure options: the view and how it is drawn, the file; declared beside
// how they are applied (export_options.h).
#include <QFileInfo>

#include <algorithm>

#include "engine/errors.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"

namespace attnviz::ui {

namespace {
/// The names --colormap accepts, as the window's Colormap box lists them.
std::vector<std::string> colormap_words() {
    std::vector<std::string> words;
    for (const QString& name : colormap_names())
        words.push_back(name.toStdString());
    return words;
}
}  // namespace

void ExportFigure::declare(CLI::App& sub) {
    using namespace cli;
    CLI::Option* per_head = nullptr;
    CLI::Option* unit = nullptr;
    for (CLI::Option* o :
         {add_text(sub, "--view", &view,
                   "grid|mean|head:K|steps[:K]|lines|compare[:K]|model|atlas|lens|predictions|"
                   "patch|circuits|dla|why|flow|saliency|qk",
                   "grid (default), mean, or head:K with K from 1 to H; steps[:K]: the "
                   "computation of head K (default 1) stage by stage; lines: BertViz-style "
                   "lines from queries to keys; compare[:K]: see Comparison (with --out "
                   "FILE.csv: every cell's A, B and B - A); model, atlas: every head of "
                   "--model (atlas: a CSV table); lens: the logit lens of --model, a figure "
                   "or, with --out FILE.csv, the top 5 tokens of every layer and position; "
                   "predictions: --model's top guess after every token, the loss on each and "
                   "the top 10 at --focus-token (a masked LM: at each mask), a figure or, "
                   "with --out FILE.csv, the top 10 at every position; patch: see Activation "
                   "patching; circuits: see Circuits; dla: who writes the answer, the direct "
                   "logit attribution of --model on --text at --position (default the last "
                   "token) for --target (default its top prediction) and --distractor, a "
                   "figure or, with --out FILE.csv or FILE.json, the numbers; why: see Why this "
                   "attention?; flow: see Flow; saliency: see Saliency; qk, and atlas with "
                   "--texts: see Heads across a corpus"),
          add_integer(sub, "--step", &step, 1, 64, "N",
                      "steps: reveal stages 1 to N and explain stage N (default: every stage)"),
          add_flag(sub, "--focus", &focus, "steps: only stage N and its inputs, large"),
          add_text(sub, "--heads", &heads, "LIST",
                   "lines: the heads to draw, e.g. 1,3 (default: all)"),
          add_integer(sub, "--item", &item, 1, 2, "N",
                      "which sentence of a padded batch (--mode batch) to draw"),
          add_choice(sub, "--colormap", &colormap, colormap_words(), "the heatmaps' colours",
                     {"gray"}, LetterCase::Any),
          per_head = add_flag(sub, "--per-head-scale", &per_head_scale,
                              "scale each head from its own min to its own max"),
          unit = add_flag(sub, "--unit-scale", &unit_scale,
                          "colours from 0 to 1 (default: the data's min to max)"),
          add_flag(sub, "--no-values", &no_values, "never print values in the cells"),
          add_text(sub, "--title", &title, "TEXT",
                   "figure title (default: states the configuration)"),
          add_flag(sub, "--no-title", &no_title, "no title or caption"),
          add_integer(sub, "--width", &width, kMinExportSide, kMaxExportSide, "PX",
                      "figure width (PDF: points)"),
          add_integer(sub, "--height", &height, kMinExportSide, kMaxExportSide, "PX",
                      "figure height (PDF: points)"),
          add_real(sub, "--scale", &scale, 0.25, kMaxExportScale, UpperBound::Included, "F",
                   "PNG pixel scale, e.g. 2 or 3 for slides"),
          add_integer(sub, "--font-size", &font_size, 6, 96, "PX", "base text size"),
          add_text(sub, "--lang", &lang, "LANG",
                   "language of the title and caption: en (default) or zh_CN"),
          add_choice(sub, "--effective", &effective, {"weights", "norm"},
                     "the map views (grid, mean, head:K, lines, compare, model): the attention "
                     "weights (default) or the norm-based maps of Kobayashi et al. 2020, per head "
                     "||a_ij f_h(x_j)|| and, instead of the mean, the heads together "
                     "||sum_h a_ij f_h(x_j)||, as attend --effective norm writes them"),
          add_text(sub, "-o,--out", &out, "FILE",
                   "the figure; the format follows the suffix: .png, .svg or .pdf "
                   "(required)")})
        o->group("Figure");
    per_head->excludes(unit);
}

void ExportFigure::apply_settings(Applying& s) const {
    FigureOptions& figure = s.cmd.figure;
    figure.font_px = font_size;
    s.cmd.size = ExportSize{width, height, scale};
    if (item) figure.batch_item = *item - 1;
    colormap_from_name(qstring(colormap), &figure.colormap);
    if (per_head_scale) figure.scale = ScaleMode::PerHead;
    if (unit_scale) figure.scale = ScaleMode::Unit;
    if (no_values) figure.values = false;
    if (title) figure.title = qstring(*title);
    if (no_title) figure.show_title = false;
    if (out) s.cmd.out = qstring(*out);
    s.view = qstring(view);
    if (effective)
        s.doc->setAttentionShown(*effective == "norm" ? AttentionShown::NormBased
                                                      : AttentionShown::Weights);
}

void ExportFigure::check_effective(const ExportOptions& a) const {
    if (!effective) return;
    const QString v = qstring(view);
    const bool map_view = v == QLatin1String("grid") || v == QLatin1String("mean") ||
                          v.startsWith(QLatin1String("head:")) || v == QLatin1String("lines") ||
                          v == QLatin1String("compare") ||
                          v.startsWith(QLatin1String("compare:")) || v == QLatin1String("model");
    if (!map_view)
        usage_error(ExportCommandText::tr("--effective needs a view of attention maps (grid, "
                                          "mean, head:K, lines, compare, model), not --view %1")
                        .arg(v));
    if (*effective == "norm" && a.attentions)
        usage_error(
            ExportCommandText::tr("--effective norm needs the model's values: maps read "
                                  "from a file (--attentions) hold only the weights"));
}

void ExportFigure::apply_view(const ExportOptions& a, Applying& s) const {
    const QString& v = s.view;
    FigureOptions& figure = s.cmd.figure;
    if (v == QLatin1String("grid")) {
        figure.view = FigureView::Grid;
    } else if (v == QLatin1String("mean")) {
        figure.view = FigureView::Mean;
    } else if (v.startsWith(QLatin1String("head:"))) {
        figure.view = FigureView::Head;
        figure.head = to_int(QStringLiteral("--view head:K"), v.mid(5), 1, s.num_heads) - 1;
    } else if (v == QLatin1String("steps") || v.startsWith(QLatin1String("steps:"))) {
        figure.kind = FigureKind::Steps;
        figure.head = v.size() > 5
                          ? to_int(QStringLiteral("--view steps:K"), v.mid(6), 1, s.num_heads) - 1
                          : 0;
        if (s.maps)
            usage_error(ExportCommandText::tr("--view %1 needs a model: maps read from a file "
                                              "hold only its result")
                            .arg(v));
    } else if (v == QLatin1String("lines")) {
        figure.kind = FigureKind::Lines;
    } else if (v == QLatin1String("model") || v == QLatin1String("atlas") ||
               v == QLatin1String("predictions") || v == QLatin1String("lens")) {
        a.ExportModel::apply_view(s);
    } else if (v == QLatin1String("compare") || v.startsWith(QLatin1String("compare:"))) {
        a.ExportComparison::apply_view(s);
    } else {
        usage_error(ExportCommandText::tr("--view must be grid, mean, head:K, steps, steps:K, "
                                          "lines, compare, compare:K, model, atlas, lens, "
                                          "predictions, patch, circuits, dla, why, flow or "
                                          "saliency, "
                                          "not '%1'")
                        .arg(v));
    }
}

void ExportFigure::apply_view_options(Applying& s) const {
    FigureOptions& figure = s.cmd.figure;
    if ((step || focus) && figure.kind != FigureKind::Steps)
        usage_error(ExportCommandText::tr("--step and --focus need --view steps"));
    if (focus && !step) usage_error(ExportCommandText::tr("--focus needs --step N"));
    if (step) figure.step = *step - 1;
    figure.focus = focus;
    const QString heads_list = heads ? qstring(*heads) : QString();
    if (!heads_list.isEmpty()) {
        if (figure.kind != FigureKind::Lines)
            usage_error(ExportCommandText::tr("--heads needs --view lines"));
        figure.line_heads = 0;
        for (const QString& part : heads_list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const int h =
                to_int(QStringLiteral("--heads"), part.trimmed(), 1, std::min(s.num_heads, 64));
            figure.line_heads |= quint64(1) << (h - 1);
        }
    }
    if (figure.batch_item > 0 && *s.mode != PairMode::PaddedBatch)
        usage_error(ExportCommandText::tr("--item needs --mode batch"));

    if (s.heads_shown && *s.heads_shown > 0 && figure.view == FigureView::Head &&
        figure.head >= *s.heads_shown)
        usage_error(ExportCommandText::tr("--view head:%1 is not among the --heads-shown %2")
                        .arg(figure.head + 1)
                        .arg(*s.heads_shown));
    const ExportCommand& cmd = s.cmd;
    if (cmd.out.isEmpty()) usage_error(ExportCommandText::tr("--out FILE is required"));
    if (!cmd.atlas && !cmd.lens_csv && !cmd.predictions_csv && !cmd.compare_csv &&
        !figure_format_for(cmd.out))
        usage_error(ExportCommandText::tr("cannot tell the format of '%1': use .png, .svg or .pdf")
                        .arg(cmd.out));
    validate_export_size(cmd.size);
}

bool ExportFigure::data_output(const QStringList& data) const {
    if (!out) usage_error(ExportCommandText::tr("--out FILE is required"));
    const QString path = qstring(*out);
    if (data.contains(QFileInfo(path).suffix().toLower())) return true;
    if (!figure_format_for(path)) {
        QStringList fits = {QStringLiteral(".png"), QStringLiteral(".svg"), QStringLiteral(".pdf")};
        for (const QString& d : data)
            fits << QLatin1Char('.') + d;
        usage_error(ExportCommandText::tr("cannot tell the format of '%1': use %2")
                        .arg(path, fits.join(QStringLiteral(", "))));
    }
    validate_export_size({width, height, scale});
    return false;
}

void ExportFigure::check_language() const {
    // en or zh_CN (any spelling normalize_language knows), not "system".
    if (!lang) return;
    const QString language = normalize_language(qstring(*lang));
    if (language.isEmpty() || language == QLatin1String(kSystemLanguage))
        throw UsageError("--lang must be en or zh_CN, not '" + *lang + "'");
}

}  // namespace attnviz::ui
