#include "ui/cli/export_command.h"

#include <QCoreApplication>
#include <QThread>

#include <cmath>

#include "engine/errors.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/steps_model.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct ExportCommandText {
    Q_DECLARE_TR_FUNCTIONS(ExportCommand)
};

[[noreturn]] void usage_error(const QString& message) {
    throw UsageError(message.toStdString());
}

int to_int(const QString& option, const QString& value, int lo, int hi) {
    bool ok = false;
    const int v = value.toInt(&ok);
    if (!ok || v < lo || v > hi)
        usage_error(ExportCommandText::tr("%1 needs a whole number from %2 to %3, not '%4'")
                        .arg(option)
                        .arg(lo)
                        .arg(hi)
                        .arg(value));
    return v;
}

double to_double(const QString& option, const QString& value, double lo, double hi) {
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi)
        usage_error(ExportCommandText::tr("%1 needs a number from %2 to %3, not '%4'")
                        .arg(option)
                        .arg(lo)
                        .arg(hi)
                        .arg(value));
    return v;
}

bool to_switch(const QString& option, const QString& value) {
    const QString v = value.toLower();
    if (v == QLatin1String("on") || v == QLatin1String("true") || v == QLatin1String("yes") ||
        v == QLatin1String("1"))
        return true;
    if (v == QLatin1String("off") || v == QLatin1String("false") || v == QLatin1String("no") ||
        v == QLatin1String("0"))
        return false;
    usage_error(ExportCommandText::tr("%1 needs on or off, not '%2'").arg(option, value));
}
}  // namespace

QString export_usage() {
    return ExportCommandText::tr(
               "usage: attnviz export --text \"...\" [--text2 \"...\" [--mode cross|batch]]\n"
               "                      [--embed-dim E] [--num-heads H] [--seed S] [--causal]\n"
               "                      [--dropout P --train [--dropout-seed D]] [--mask-key K]...\n"
               "                      [--view grid|mean|head:K|steps[:K]|lines|compare[:K]]\n"
               "                      [--compare causal|heads|dropout] [--b-... ]\n"
               "                      [--step N] [--focus] [--heads LIST]\n"
               "                      [--colormap viridis|cividis|magma|grey]\n"
               "                      [--width PX] [--height PX] [--scale F] --out "
               "FILE.png|svg|pdf\n"
               "\n"
               "Renders the same figure as the window, without a display.\n"
               "\n"
               "Input:\n"
               "  --text TEXT           the sentence (queries)\n"
               "  --text2 TEXT          a second sentence: keys/values (cross) or a batch item\n"
               "  --mode MODE           self (default without --text2), cross (default with it), "
               "batch\n"
               "  --tokens LIST         pre-tokenized input instead of --text (tokens separated by "
               "|)\n"
               "  --tokens2 LIST        the same for the second sentence\n"
               "  --lowercase           lowercase before tokenizing\n"
               "  --special-tokens      add [CLS] and [SEP]\n"
               "Layer:\n"
               "  --embed-dim E         model width (default 64)\n"
               "  --num-heads H         heads; must divide E (default 4)\n"
               "  --seed S              weight seed (default 0); also the dropout seed unless "
               "given\n"
               "  --weights FILE        a safetensors nn.MultiheadAttention state_dict\n"
               "  --scoring NAME        dot (default) or additive\n"
               "  --no-bias             projections without bias\n"
               "  --no-positional       no sinusoidal positional encoding\n"
               "  --dropout P           dropout on the weights, in [0, 0.95]\n"
               "  --train               training mode (dropout active)\n"
               "  --dropout-seed D      seed of the dropout mask\n"
               "Masks:\n"
               "  --causal              mask keys after each query\n"
               "  --mask-key K          mask key position K (0-based; repeatable)\n"
               "  --masked-rows POLICY  zero (default), uniform or nan for fully masked rows\n"
               "Figure:\n"
               "  --view VIEW           grid (default), mean, or head:K with K from 1 to H;\n"
               "                        steps[:K]: the computation of head K (default 1) stage by\n"
               "                        stage; lines: BertViz-style lines from queries to keys\n"
               "  --step N              steps: reveal stages 1 to N and explain stage N\n"
               "                        (default: every stage)\n"
               "  --focus               steps: only stage N and its inputs, large\n"
               "  --heads LIST          lines: the heads to draw, e.g. 1,3 (default: all)\n"
               "  --item N              which sentence of a padded batch to draw (1 or 2)\n"
               "  --colormap NAME       viridis (default), cividis, magma or grey\n"
               "  --per-head-scale      scale each head from its own min to its own max\n"
               "  --unit-scale          colours from 0 to 1 (default: the data's min to max)\n"
               "  --no-values           never print values in the cells\n"
               "  --title TEXT          figure title (default: states the configuration)\n"
               "  --no-title            no title or caption\n"
               "  --width PX --height PX  figure size (default 1600 x 1000; PDF: points)\n"
               "  --scale F             PNG pixel scale, e.g. 2 or 3 for slides (default 2)\n"
               "  --font-size PX        base text size (default 14)\n"
               "  --lang LANG           language of the title and caption: en (default) or zh_CN\n"
               "  --out FILE            output; the format follows the suffix: .png, .svg or .pdf\n"
               "Comparison (--view compare): configuration A is the one above, B is A with "
               "changes:\n"
               "  --view compare[:K]    A and B side by side and their difference B − A, for the\n"
               "                        mean over heads or for head K (both must have it)\n"
               "  --compare PRESET      causal: A without the causal mask, B with it;\n"
               "                        heads: A with 4 heads, B with 8;\n"
               "                        dropout: A in evaluation, B training with the same\n"
               "                        dropout seed, on head 1 unless compare:K says otherwise\n"
               "  --b-causal on|off     B's causal mask\n"
               "  --b-num-heads H       B's heads; must divide E\n"
               "  --b-train on|off      B's training mode (dropout active)\n"
               "  --b-dropout P         B's dropout, in [0, 0.95]\n"
               "  --b-scoring NAME      B's scoring: dot or additive\n"
               "  --b-masked-rows POLICY  B's fully masked rows: zero, uniform or nan\n"
               "  --b-bias on|off       B's projection bias\n"
               "  --b-positional on|off B's positional encoding\n"
               "  --b-seed S            B's weight seed\n"
               "\n"
               "Exit status: 0 success, 1 data or write error, 2 usage error.\n") +
           ExportCommandText::tr(
               "\n"
               "Memory: a figure that needs more than the memory budget is refused before\n"
               "anything is computed (exit 1), naming what fits instead:\n"
               "  --memory-budget SIZE  e.g. 2G, 512M or 60% (default: ATTNVIZ_MEMORY_BUDGET,\n"
               "                        else half of the machine's memory)\n"
               "  --heads-shown K       panels for the first K heads only (the mean still\n"
               "                        covers every head)\n"
               "  --mean-only           the mean over heads only\n"
               "  --window START:LEN    tokens START..START+LEN-1 (from 0) of a long text: those\n"
               "                        rows and columns of the full attention\n");
}

namespace {
/// --view compare[:K] with the preset and the --b-... changes: B into the document, the head
/// into the figure.  After every setting of A, which a preset may change.
void parse_comparison(const QString& view, std::optional<ComparePreset> preset,
                      const CompareChanges& b_changes, AttentionDocument* doc,
                      FigureOptions* figure) {
    CompareChanges changes;
    if (preset) {
        if (!doc->applyComparePreset(*preset)) usage_error(doc->validationMessage());
        changes = doc->compare().changes;
    }
    auto merge = [](auto& to, const auto& from) {
        if (from) to = from;
    };
    merge(changes.causal, b_changes.causal);
    merge(changes.num_heads, b_changes.num_heads);
    merge(changes.training, b_changes.training);
    merge(changes.dropout, b_changes.dropout);
    merge(changes.scoring, b_changes.scoring);
    merge(changes.masked_rows, b_changes.masked_rows);
    merge(changes.bias, b_changes.bias);
    merge(changes.positional_encoding, b_changes.positional_encoding);
    merge(changes.weight_seed, b_changes.weight_seed);
    const ComputeConfig& a = doc->computeConfig();
    if (changes.num_heads && a.embed_dim % *changes.num_heads != 0)
        usage_error(ExportCommandText::tr("--b-num-heads %1 does not divide --embed-dim %2")
                        .arg(*changes.num_heads)
                        .arg(a.embed_dim));
    if (changes.empty())
        usage_error(ExportCommandText::tr(
            "--view compare needs a configuration B: --compare causal|heads|dropout or "
            "--b-... options (see attnviz export --help)"));
    const ComputeConfig b = compared_config(a, changes);
    if (compare_labels(b, a).isEmpty())
        usage_error(ExportCommandText::tr(
            "B is the same as A: the --b-... options change nothing A does not already have"));
    doc->setCompareChanges(changes);

    // Without :K, the head the preset chose (the dropout preset shows head 1, where a dropped
    // weight stands out), else the mean.
    const int preset_head = preset ? doc->compare().head : -1;
    figure->view = preset_head >= 0 ? FigureView::Head : FigureView::Mean;
    figure->head = std::max(0, preset_head);
    if (view.size() > 7) {
        const int both = std::min(a.num_heads, b.num_heads);
        figure->view = FigureView::Head;
        figure->head = to_int(QStringLiteral("--view compare:K"), view.mid(8), 1, both) - 1;
    }
    doc->setCompareHead(figure->view == FigureView::Head ? figure->head : -1);
}
}  // namespace

ExportCommand parse_export_arguments(const QStringList& args, AttentionDocument* doc) {
    ExportCommand cmd;
    cmd.figure.font_px = 14;
    cmd.size = ExportSize{1600, 1000, 2.0};
    std::optional<PairMode> mode;
    bool has_text = false, has_text2 = false, has_tokens = false, has_tokens2 = false;
    std::optional<int> dropout_seed;
    int seed = 0;
    int num_heads = 4;
    int embed_dim = 64;
    std::set<MaskedKey> masked;
    QString view = QStringLiteral("grid");
    QString heads_list;
    std::optional<int> step;
    std::optional<int> heads_shown;
    bool focus = false;
    // The comparison: a preset, then the --b-... changes on top of it.
    std::optional<ComparePreset> preset;
    CompareChanges b_changes;
    QStringList b_options;

    for (int k = 0; k < args.size(); ++k) {
        const QString& arg = args[k];
        QString inline_value;
        QString name = arg;
        if (arg.startsWith(QLatin1String("--")) && arg.contains(QLatin1Char('='))) {
            name = arg.section(QLatin1Char('='), 0, 0);
            inline_value = arg.section(QLatin1Char('='), 1);
        }
        bool used_inline = false;
        auto value = [&]() -> QString {
            if (!inline_value.isNull()) {
                used_inline = true;
                return inline_value;
            }
            if (k + 1 >= args.size())
                usage_error(ExportCommandText::tr("%1 needs a value").arg(name));
            return args[++k];
        };
        auto flag = [&] {
            if (!inline_value.isNull())
                usage_error(ExportCommandText::tr("%1 takes no value").arg(name));
        };

        if (name == QLatin1String("--help") || name == QLatin1String("-h")) {
            cmd.help = true;
            return cmd;
        } else if (name == QLatin1String("--text")) {
            doc->setTextA(value());
            has_text = true;
        } else if (name == QLatin1String("--text2")) {
            doc->setTextB(value());
            has_text2 = true;
        } else if (name == QLatin1String("--tokens")) {
            doc->setTokenListA(value());
            has_tokens = true;
        } else if (name == QLatin1String("--tokens2")) {
            doc->setTokenListB(value());
            has_tokens2 = true;
        } else if (name == QLatin1String("--mode")) {
            const QString v = value();
            PairMode m;
            if (v == QLatin1String("self"))
                m = PairMode::Single;
            else if (!pair_mode_from_name(v, &m))
                usage_error(
                    ExportCommandText::tr("--mode must be self, cross or batch, not '%1'").arg(v));
            mode = m;
        } else if (name == QLatin1String("--lowercase")) {
            flag();
            doc->setLowercase(true);
        } else if (name == QLatin1String("--special-tokens")) {
            flag();
            doc->setSpecialTokens(true);
        } else if (name == QLatin1String("--embed-dim")) {
            embed_dim = to_int(name, value(), AttentionDocument::kMinEmbedDim,
                               AttentionDocument::kMaxEmbedDim);
        } else if (name == QLatin1String("--num-heads")) {
            num_heads = to_int(name, value(), 1, AttentionDocument::kMaxHeads);
        } else if (name == QLatin1String("--seed")) {
            seed = to_int(name, value(), 0, AttentionDocument::kMaxSeed);
        } else if (name == QLatin1String("--dropout-seed")) {
            dropout_seed = to_int(name, value(), 0, AttentionDocument::kMaxSeed);
        } else if (name == QLatin1String("--weights")) {
            doc->setWeightsFile(value());
        } else if (name == QLatin1String("--scoring")) {
            const QString v = value();
            if (v == QLatin1String("dot") || v == QLatin1String("scaled_dot_product"))
                doc->setScoring(Scoring::ScaledDotProduct);
            else if (v == QLatin1String("additive"))
                doc->setScoring(Scoring::Additive);
            else
                usage_error(
                    ExportCommandText::tr("--scoring must be dot or additive, not '%1'").arg(v));
        } else if (name == QLatin1String("--no-bias")) {
            flag();
            doc->setBias(false);
        } else if (name == QLatin1String("--no-positional")) {
            flag();
            doc->setPositionalEncoding(false);
        } else if (name == QLatin1String("--dropout")) {
            doc->setDropout(to_double(name, value(), 0.0, AttentionDocument::kMaxDropout));
        } else if (name == QLatin1String("--train")) {
            flag();
            doc->setTraining(true);
        } else if (name == QLatin1String("--causal")) {
            flag();
            doc->setCausal(true);
        } else if (name == QLatin1String("--mask-key")) {
            masked.insert({0, to_int(name, value(), 0, 1 << 20)});
        } else if (name == QLatin1String("--masked-rows")) {
            const QString v = value();
            try {
                doc->setMaskedRowPolicy(masked_row_policy_from_name(v.toStdString()));
            } catch (const std::exception&) {
                usage_error(
                    ExportCommandText::tr("--masked-rows must be zero, uniform or nan, not '%1'")
                        .arg(v));
            }
        } else if (name == QLatin1String("--view")) {
            view = value();
        } else if (name == QLatin1String("--step")) {
            step = to_int(name, value(), 1, 64);
        } else if (name == QLatin1String("--focus")) {
            flag();
            focus = true;
        } else if (name == QLatin1String("--heads")) {
            heads_list = value();
        } else if (name == QLatin1String("--item")) {
            cmd.figure.batch_item = to_int(name, value(), 1, 2) - 1;
        } else if (name == QLatin1String("--colormap")) {
            const QString v = value();
            if (!colormap_from_name(v, &cmd.figure.colormap))
                usage_error(ExportCommandText::tr("--colormap must be one of %1, not '%2'")
                                .arg(colormap_names().join(QStringLiteral(", ")), v));
        } else if (name == QLatin1String("--per-head-scale")) {
            flag();
            cmd.figure.scale = ScaleMode::PerHead;
        } else if (name == QLatin1String("--unit-scale")) {
            flag();
            cmd.figure.scale = ScaleMode::Unit;
        } else if (name == QLatin1String("--no-values")) {
            flag();
            cmd.figure.values = false;
        } else if (name == QLatin1String("--title")) {
            cmd.figure.title = value();
        } else if (name == QLatin1String("--no-title")) {
            flag();
            cmd.figure.show_title = false;
        } else if (name == QLatin1String("--width")) {
            cmd.size.width = to_int(name, value(), kMinExportSide, kMaxExportSide);
        } else if (name == QLatin1String("--height")) {
            cmd.size.height = to_int(name, value(), kMinExportSide, kMaxExportSide);
        } else if (name == QLatin1String("--scale")) {
            cmd.size.scale = to_double(name, value(), 0.25, kMaxExportScale);
        } else if (name == QLatin1String("--font-size")) {
            cmd.figure.font_px = to_int(name, value(), 6, 96);
        } else if (name == QLatin1String("--compare")) {
            const QString v = value();
            ComparePreset p;
            if (!compare_preset_from_name(v, &p))
                usage_error(
                    ExportCommandText::tr("--compare must be causal, heads or dropout, not '%1'")
                        .arg(v));
            preset = p;
            b_options << name;
        } else if (name == QLatin1String("--b-causal")) {
            b_changes.causal = to_switch(name, value());
            b_options << name;
        } else if (name == QLatin1String("--b-num-heads")) {
            b_changes.num_heads = to_int(name, value(), 1, AttentionDocument::kMaxHeads);
            b_options << name;
        } else if (name == QLatin1String("--b-train")) {
            b_changes.training = to_switch(name, value());
            b_options << name;
        } else if (name == QLatin1String("--b-dropout")) {
            b_changes.dropout = to_double(name, value(), 0.0, AttentionDocument::kMaxDropout);
            b_options << name;
        } else if (name == QLatin1String("--b-scoring")) {
            const QString v = value();
            if (v == QLatin1String("dot") || v == QLatin1String("scaled_dot_product"))
                b_changes.scoring = Scoring::ScaledDotProduct;
            else if (v == QLatin1String("additive"))
                b_changes.scoring = Scoring::Additive;
            else
                usage_error(
                    ExportCommandText::tr("--b-scoring must be dot or additive, not '%1'").arg(v));
            b_options << name;
        } else if (name == QLatin1String("--b-masked-rows")) {
            const QString v = value();
            try {
                b_changes.masked_rows = masked_row_policy_from_name(v.toStdString());
            } catch (const std::exception&) {
                usage_error(
                    ExportCommandText::tr("--b-masked-rows must be zero, uniform or nan, not '%1'")
                        .arg(v));
            }
            b_options << name;
        } else if (name == QLatin1String("--b-bias")) {
            b_changes.bias = to_switch(name, value());
            b_options << name;
        } else if (name == QLatin1String("--b-positional")) {
            b_changes.positional_encoding = to_switch(name, value());
            b_options << name;
        } else if (name == QLatin1String("--b-seed")) {
            b_changes.weight_seed = to_int(name, value(), 0, AttentionDocument::kMaxSeed);
            b_options << name;
        } else if (name == QLatin1String("--memory-budget")) {
            cmd.memory_budget = value();
        } else if (name == QLatin1String("--heads-shown")) {
            heads_shown = to_int(name, value(), 1, AttentionDocument::kMaxHeads);
        } else if (name == QLatin1String("--mean-only")) {
            flag();
            if (heads_shown && *heads_shown != 0)
                usage_error(ExportCommandText::tr("use either --heads-shown or --mean-only"));
            heads_shown = 0;
        } else if (name == QLatin1String("--window")) {
            const QString v = value();
            const QStringList parts = v.split(QLatin1Char(':'));
            bool ok_start = false, ok_length = false;
            const int start = parts.size() == 2 ? parts[0].toInt(&ok_start) : -1;
            const int length = parts.size() == 2 ? parts[1].toInt(&ok_length) : 0;
            if (!ok_start || !ok_length || start < 0 || length < 1)
                usage_error(ExportCommandText::tr("--window needs START:LEN, a first token (from "
                                                  "0) and a length (from 1), e.g. 0:512, not '%1'")
                                .arg(v));
            doc->setWindow(start, length);
        } else if (name == QLatin1String("--out") || name == QLatin1String("-o")) {
            cmd.out = value();
        } else {
            usage_error(
                ExportCommandText::tr("unknown option '%1' (see attnviz export --help)").arg(arg));
        }
        if (!inline_value.isNull() && !used_inline)
            usage_error(ExportCommandText::tr("%1 takes no value").arg(name));
    }

    if (!has_text && !has_tokens)
        usage_error(ExportCommandText::tr("--text (or --tokens) is required"));
    if (has_text && has_tokens)
        usage_error(ExportCommandText::tr("use either --text or --tokens, not both"));
    if (has_text2 && has_tokens2)
        usage_error(ExportCommandText::tr("use either --text2 or --tokens2, not both"));
    const bool second = has_text2 || has_tokens2;
    if (second && has_tokens != has_tokens2)
        usage_error(ExportCommandText::tr("give both sentences as text or both as token lists"));
    doc->setUseTokenList(has_tokens);
    if (!mode) mode = second ? PairMode::CrossAttention : PairMode::Single;
    if (*mode != PairMode::Single && !second)
        usage_error(ExportCommandText::tr("--mode %1 needs --text2").arg(pair_mode_name(*mode)));
    doc->setPairMode(*mode);
    if (!doc->setEmbedDim(embed_dim)) usage_error(doc->validationMessage());
    if (embed_dim % num_heads != 0)
        usage_error(ExportCommandText::tr("--num-heads %1 does not divide --embed-dim %2")
                        .arg(num_heads)
                        .arg(embed_dim));
    doc->setNumHeads(num_heads);
    if (heads_shown) {
        if (*heads_shown > num_heads)
            usage_error(ExportCommandText::tr("--heads-shown %1 is more than --num-heads %2")
                            .arg(*heads_shown)
                            .arg(num_heads));
        doc->setHeadsShown(*heads_shown);
    }
    doc->setWeightSeed(seed);
    doc->setDropoutSeed(dropout_seed.value_or(seed));
    doc->setMaskedKeys(masked);

    if (view == QLatin1String("grid")) {
        cmd.figure.view = FigureView::Grid;
    } else if (view == QLatin1String("mean")) {
        cmd.figure.view = FigureView::Mean;
    } else if (view.startsWith(QLatin1String("head:"))) {
        cmd.figure.view = FigureView::Head;
        cmd.figure.head = to_int(QStringLiteral("--view head:K"), view.mid(5), 1, num_heads) - 1;
    } else if (view == QLatin1String("steps") || view.startsWith(QLatin1String("steps:"))) {
        cmd.figure.kind = FigureKind::Steps;
        cmd.figure.head =
            view.size() > 5
                ? to_int(QStringLiteral("--view steps:K"), view.mid(6), 1, num_heads) - 1
                : 0;
    } else if (view == QLatin1String("lines")) {
        cmd.figure.kind = FigureKind::Lines;
    } else if (view == QLatin1String("compare") || view.startsWith(QLatin1String("compare:"))) {
        cmd.figure.kind = FigureKind::Compare;
        parse_comparison(view, preset, b_changes, doc, &cmd.figure);
    } else {
        usage_error(ExportCommandText::tr("--view must be grid, mean, head:K, steps, steps:K, "
                                          "lines, compare or compare:K, not '%1'")
                        .arg(view));
    }
    if (!b_options.isEmpty() && cmd.figure.kind != FigureKind::Compare)
        usage_error(ExportCommandText::tr("%1 needs --view compare").arg(b_options.first()));
    if ((step || focus) && cmd.figure.kind != FigureKind::Steps)
        usage_error(ExportCommandText::tr("--step and --focus need --view steps"));
    if (focus && !step) usage_error(ExportCommandText::tr("--focus needs --step N"));
    if (step) cmd.figure.step = *step - 1;
    cmd.figure.focus = focus;
    if (!heads_list.isEmpty()) {
        if (cmd.figure.kind != FigureKind::Lines)
            usage_error(ExportCommandText::tr("--heads needs --view lines"));
        cmd.figure.line_heads = 0;
        for (const QString& part : heads_list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const int h =
                to_int(QStringLiteral("--heads"), part.trimmed(), 1, std::min(num_heads, 64));
            cmd.figure.line_heads |= quint64(1) << (h - 1);
        }
    }
    if (cmd.figure.batch_item > 0 && *mode != PairMode::PaddedBatch)
        usage_error(ExportCommandText::tr("--item needs --mode batch"));

    if (heads_shown && *heads_shown > 0 && cmd.figure.view == FigureView::Head &&
        cmd.figure.head >= *heads_shown)
        usage_error(ExportCommandText::tr("--view head:%1 is not among the --heads-shown %2")
                        .arg(cmd.figure.head + 1)
                        .arg(*heads_shown));
    if (cmd.out.isEmpty()) usage_error(ExportCommandText::tr("--out FILE is required"));
    if (!figure_format_for(cmd.out))
        usage_error(ExportCommandText::tr("cannot tell the format of '%1': use .png, .svg or .pdf")
                        .arg(cmd.out));
    validate_export_size(cmd.size);
    return cmd;
}

void run_export(const ExportCommand& command, const AttentionDocument& document) {
    // The command line's budget: --memory-budget, else ATTNVIZ_MEMORY_BUDGET, else the
    // default (the window's own setting is not read: a script gives the same answer anywhere).
    budget::MemoryBudget memory;
    try {
        memory = budget::resolve_memory_budget(command.memory_budget.toStdString(), "");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    // A PNG is drawn on a canvas of its own (and QCustomPlot's buffer of the same size).
    if (figure_format_for(command.out) == ExportFormat::Png) {
        const double w = std::ceil(command.size.width * command.size.scale);
        const double h = std::ceil(command.size.height * command.size.scale);
        const auto canvas = std::uint64_t(2 * 4 * w * h);
        if (canvas > memory.bytes)
            throw DataError(
                ExportCommandText::tr("a PNG of %1 x %2 pixels needs %3, more than the memory "
                                      "budget of %4; use a smaller --width, --height or --scale")
                    .arg(w)
                    .arg(h)
                    .arg(QString::fromStdString(budget::format_bytes(canvas)),
                         QString::fromStdString(budget::describe_budget(memory)))
                    .toStdString());
    }
    const SnapshotPtr snapshot = compute_snapshot(
        document.computeConfig(), 1, nullptr, std::max(1, QThread::idealThreadCount()), &memory);
    if (command.figure.kind == FigureKind::Steps) {
        QString why;
        if (build_steps_model(*snapshot, command.figure.batch_item, command.figure.head, &why)
                .empty())
            throw DataError(why.toStdString());
    }
    SnapshotPtr compared;
    if (command.figure.kind == FigureKind::Compare)
        compared = compute_compared(snapshot->config, document.compare().changes, 2, nullptr,
                                    std::max(1, QThread::idealThreadCount()), &memory);
    export_figure(*snapshot, command.figure, command.size, command.out, std::nullopt,
                  compared.get());
}

}  // namespace attnviz::ui
