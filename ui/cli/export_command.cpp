// `attnviz export`: the window's figure, headless, through the same document and renderer.
// The options arrive parsed (app/export_command.cpp declares them); here they are applied to
// an AttentionDocument, whose rules (heads that divide embed_dim, a comparison that changes
// something, ...) give the usage errors.
#include "ui/cli/export_command.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/models/predictions.h"
#include "engine/models/token_trace.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/steps_model.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/generation_runner.h"
#include "ui/compute/model_lens.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"
#include "ui/entry.h"
#include "ui/i18n/language.h"
#include "ui/model/patch_figure.h"
#include "ui/model/predictions_figure.h"
#include "ui/render/figure_export.h"

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

QString qstring(const std::string& s) {
    return QString::fromLocal8Bit(s.data(), static_cast<qsizetype>(s.size()));
}

/// What is exported, once the document holds the configuration.
struct ExportCommand {
    ExportSize size;
    FigureOptions figure;
    QString out;
    QString memory_budget;         ///< --memory-budget as given; empty: the default
    bool atlas = false;            ///< --view atlas: the head atlas as CSV
    bool lens_csv = false;         ///< --view lens with --out FILE.csv: the lens's top-k as CSV
    bool predictions_csv = false;  ///< --view predictions with --out FILE.csv
    bool compare_csv = false;  ///< --view compare with --out FILE.csv: every cell's A, B, B − A
    std::optional<int> draw;   ///< --whole-model --draw SEED
};

/// --open-layers: "all", "none" or layers from 1 ("1,3"), as FigureOptions::open_layers bits.
quint64 parse_open_layers(const QString& spec) {
    if (spec == QLatin1String("all")) return ~quint64(0);
    if (spec == QLatin1String("none")) return 0;
    quint64 bits = 0;
    for (const QString& item : spec.split(QLatin1Char(',')))
        bits |= quint64(1) << (to_int(QStringLiteral("--open-layers"), item.trimmed(), 1, 64) - 1);
    return bits;
}

/// What a comparison of a trained model or of maps read from a file may change: their layers
/// and heads.  Null for the demo layer.
struct ComparedSource {
    QString name;
    int layers = 0;
    int heads = 0;
    bool maps = false;  ///< attention maps read from a file (--attentions)
};

Scoring scoring_from_name(const std::string& name) {
    return name == "additive" ? Scoring::Additive : Scoring::ScaledDotProduct;
}
}  // namespace

namespace {
/// --view compare[:K] with the preset and the --b-... changes: B into the document, the head
/// into the figure.  After every setting of A, which a preset may change.
void parse_comparison(const QString& view, std::optional<ComparePreset> preset,
                      const CompareChanges& b_changes, AttentionDocument* doc,
                      FigureOptions* figure, const ComparedSource* model) {
    CompareChanges demo_changes = b_changes;  // what is left once a model's changes are out
    demo_changes.layer.reset();
    demo_changes.text.reset();
    demo_changes.head.reset();
    demo_changes.maps.reset();
    demo_changes.maps_tokens.reset();
    const bool layer_changes = !demo_changes.empty();
    if (model && model->maps && (preset || layer_changes))
        usage_error(ExportCommandText::tr(
            "--compare and the demo layer's --b-... options do not apply to --attentions: "
            "compare with --b-attentions, --b-layer or --b-head"));
    if (model && (preset || layer_changes))
        usage_error(ExportCommandText::tr(
            "--compare and the demo layer's --b-... options do not apply to --model: compare "
            "with --b-layer, --b-head or --b-text"));
    if (model && model->maps && b_changes.text)
        usage_error(ExportCommandText::tr(
            "--b-text needs --model: maps read from a file have no sentence to change "
            "(compare them with --b-attentions)"));
    if (!model && (b_changes.layer || b_changes.text))
        usage_error(ExportCommandText::tr("--b-layer and --b-text need --model"));
    if (model && b_changes.layer && *b_changes.layer >= model->layers)
        usage_error(ExportCommandText::tr("--b-layer %1: %2 has %3 layers")
                        .arg(*b_changes.layer + 1)
                        .arg(model->name)
                        .arg(model->layers));
    const int heads = model ? model->heads : doc->numHeads();
    if (b_changes.head && *b_changes.head >= heads)
        usage_error(ExportCommandText::tr("--b-head %1: there are %2 heads")
                        .arg(*b_changes.head + 1)
                        .arg(heads));
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
    merge(changes.layer, b_changes.layer);
    merge(changes.text, b_changes.text);
    merge(changes.head, b_changes.head);
    merge(changes.maps, b_changes.maps);
    merge(changes.maps_tokens, b_changes.maps_tokens);
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
    if (compare_labels(b, a).isEmpty() && !changes.head)
        usage_error(ExportCommandText::tr(
            "B is the same as A: the --b-... options change nothing A does not already have"));
    doc->setCompareChanges(changes);

    // Without :K, the head the preset chose (the dropout preset shows head 1, where a dropped
    // weight stands out), else the mean.
    const int preset_head = preset ? doc->compare().head : -1;
    figure->view = preset_head >= 0 ? FigureView::Head : FigureView::Mean;
    figure->head = std::max(0, preset_head);
    figure->compare_b_head = changes.head ? *changes.head : -2;
    if (view.size() > 7) {
        const int both = model ? heads : std::min(a.num_heads, b.num_heads);
        figure->view = FigureView::Head;
        figure->head = to_int(QStringLiteral("--view compare:K"), view.mid(8), 1, both) - 1;
    }
    doc->setCompareHead(figure->view == FigureView::Head ? figure->head : -1);
}
}  // namespace

namespace {
/// Puts the arguments into `doc` and returns the figure to export.  Throws UsageError
/// (translated) for options that do not go together.
ExportCommand apply_arguments(const ExportOptions& a, AttentionDocument* doc) {
    ExportCommand cmd;
    cmd.figure.font_px = a.font_size;
    cmd.size = ExportSize{a.width, a.height, a.scale};
    const bool has_text = a.text.has_value(), has_tokens = a.tokens.has_value();
    const bool has_text2 = a.text2.has_value(), has_tokens2 = a.tokens2.has_value();
    if (a.text) doc->setTextA(qstring(*a.text));
    if (a.text2) doc->setTextB(qstring(*a.text2));
    if (a.tokens) doc->setTokenListA(qstring(*a.tokens));
    if (a.tokens2) doc->setTokenListB(qstring(*a.tokens2));
    std::optional<PairMode> mode;
    if (a.mode) {
        PairMode m = PairMode::Single;
        if (qstring(*a.mode).compare(QLatin1String("self"), Qt::CaseInsensitive) != 0)
            pair_mode_from_name(qstring(*a.mode), &m);
        mode = m;
    }
    if (a.lowercase) doc->setLowercase(true);
    if (a.special_tokens) doc->setSpecialTokens(true);
    if (a.weights) doc->setWeightsFile(qstring(*a.weights));
    doc->setScoring(scoring_from_name(a.scoring));
    if (a.no_bias) doc->setBias(false);
    if (a.no_positional) doc->setPositionalEncoding(false);
    doc->setDropout(a.dropout);
    if (a.train) doc->setTraining(true);
    if (a.causal) doc->setCausal(true);
    doc->setMaskedRowPolicy(masked_row_policy_from_name(a.masked_rows));
    if (a.item) cmd.figure.batch_item = *a.item - 1;
    colormap_from_name(qstring(a.colormap), &cmd.figure.colormap);
    if (a.per_head_scale) cmd.figure.scale = ScaleMode::PerHead;
    if (a.unit_scale) cmd.figure.scale = ScaleMode::Unit;
    if (a.no_values) cmd.figure.values = false;
    if (a.title) cmd.figure.title = qstring(*a.title);
    if (a.no_title) cmd.figure.show_title = false;
    if (a.out) cmd.out = qstring(*a.out);
    cmd.memory_budget = qstring(a.memory_budget);
    if (a.window) {
        // The document counts tokens in int; a longer window is no window it could show.
        const auto [start, length] = *a.window;
        if (start > std::numeric_limits<int>::max() || length > std::numeric_limits<int>::max())
            usage_error(ExportCommandText::tr("--window needs START:LEN, a first token (from "
                                              "1) and a length, e.g. 1:512, not '%1'")
                            .arg(QStringLiteral("%1:%2").arg(start + 1).arg(length)));
        doc->setWindow(static_cast<int>(start), static_cast<int>(length));
    }
    std::set<MaskedKey> masked;
    for (const int k : a.mask_keys)
        masked.insert({0, k - 1});  // --mask-key counts from 1

    std::optional<ComparePreset> preset;
    if (a.compare) {
        ComparePreset p;
        compare_preset_from_name(qstring(*a.compare), &p);
        preset = p;
    }
    CompareChanges b_changes;
    b_changes.causal = a.b_causal;
    b_changes.num_heads = a.b_num_heads;
    b_changes.training = a.b_train;
    b_changes.dropout = a.b_dropout;
    if (a.b_scoring) b_changes.scoring = scoring_from_name(*a.b_scoring);
    if (a.b_masked_rows) b_changes.masked_rows = masked_row_policy_from_name(*a.b_masked_rows);
    b_changes.bias = a.b_bias;
    b_changes.positional_encoding = a.b_positional;
    b_changes.weight_seed = a.b_seed;
    if (a.b_layer) b_changes.layer = *a.b_layer - 1;
    if (a.b_head) b_changes.head = *a.b_head - 1;
    if (a.b_text) b_changes.text = qstring(*a.b_text);
    // The first comparison option given, in the order of the help, for the message below.
    QString b_option;
    for (const auto& [given, name] : {std::pair{a.compare.has_value(), "--compare"},
                                      {a.b_causal.has_value(), "--b-causal"},
                                      {a.b_num_heads.has_value(), "--b-num-heads"},
                                      {a.b_train.has_value(), "--b-train"},
                                      {a.b_dropout.has_value(), "--b-dropout"},
                                      {a.b_scoring.has_value(), "--b-scoring"},
                                      {a.b_masked_rows.has_value(), "--b-masked-rows"},
                                      {a.b_bias.has_value(), "--b-bias"},
                                      {a.b_positional.has_value(), "--b-positional"},
                                      {a.b_seed.has_value(), "--b-seed"},
                                      {a.b_layer.has_value(), "--b-layer"},
                                      {a.b_head.has_value(), "--b-head"},
                                      {a.b_text.has_value(), "--b-text"},
                                      {a.b_attentions.has_value(), "--b-attentions"},
                                      {a.b_attention_tokens.has_value(), "--b-attention-tokens"}})
        if (given && b_option.isEmpty()) b_option = QLatin1String(name);

    const int embed_dim = a.embed_dim;
    int num_heads = a.num_heads;
    const bool maps = a.attentions.has_value();
    if (maps && a.model)
        usage_error(ExportCommandText::tr("use either --model or --attentions, not both"));
    if (a.attention_tokens && !maps)
        usage_error(ExportCommandText::tr("--attention-tokens needs --attentions"));
    if (a.model_layer && !a.model && !maps)
        usage_error(ExportCommandText::tr("--layer needs --model"));
    if (a.b_attention_tokens && !a.b_attentions)
        usage_error(ExportCommandText::tr("--b-attention-tokens needs --b-attentions"));
    if (a.b_attentions && !maps)
        usage_error(ExportCommandText::tr(
            "--b-attentions compares two maps files: give A's with --attentions"));
    std::optional<ComparedSource> compared_source;
    if (maps) {
        if (has_text || has_tokens || has_text2 || has_tokens2)
            usage_error(ExportCommandText::tr(
                "--attentions brings its own tokens: --text and --tokens do not go with it"));
        ComputeConfig source;
        source.model_folder = QFileInfo(qstring(*a.attentions)).absoluteFilePath();
        if (a.attention_tokens)
            source.tokens_file = QFileInfo(qstring(*a.attention_tokens)).absoluteFilePath();
        // DataError: shapes, tokens that do not fit, NaN in any layer (as attnviz view: the
        // figure may show one layer, the file is refused whole).
        const io::AttentionArrays arrays =
            io::AttentionArrays::open(QFile::encodeName(source.model_folder).toStdString());
        const std::string tokens = QFile::encodeName(maps_tokens_file(source)).toStdString();
        io::check_tokens(arrays, io::read_attention_tokens(tokens), tokens);
        if (const std::string warning = io::validate_attention_arrays(arrays); !warning.empty())
            std::fprintf(stderr, "attnviz export: warning: %s\n", warning.c_str());
        num_heads = int(arrays.heads());
        const int layer = a.model_layer.value_or(1);
        if (layer > arrays.layers())
            usage_error(ExportCommandText::tr("--layer %1: %2 has %3 layers")
                            .arg(layer)
                            .arg(QFileInfo(source.model_folder).fileName())
                            .arg(arrays.layers()));
        compared_source = ComparedSource{QFileInfo(source.model_folder).fileName(),
                                         int(arrays.layers()), int(arrays.heads()), true};
        if (a.b_attentions && a.view.starts_with("compare")) {  // else: needs --view compare
            // B's maps are checked as A's were, then against A's: the same layers, heads and
            // tokens count (DataError), and a warning when the tokens are spelled differently.
            ComputeConfig b = source;
            b.model_folder = QFileInfo(qstring(*a.b_attentions)).absoluteFilePath();
            b.tokens_file = a.b_attention_tokens
                                ? QFileInfo(qstring(*a.b_attention_tokens)).absoluteFilePath()
                                : QString();
            const io::AttentionArrays b_arrays =
                io::AttentionArrays::open(QFile::encodeName(b.model_folder).toStdString());
            const std::string tokens_warning = check_compared_maps(source, b);
            if (const std::string warning = io::validate_attention_arrays(b_arrays);
                !warning.empty())
                std::fprintf(stderr, "attnviz export: warning: %s\n", warning.c_str());
            if (!tokens_warning.empty())
                std::fprintf(stderr, "attnviz export: warning: %s\n", tokens_warning.c_str());
            b_changes.maps = b.model_folder;
            if (!b.tokens_file.isEmpty()) b_changes.maps_tokens = b.tokens_file;
        }
        doc->setAttentionMaps(source.model_folder, source.tokens_file);
        doc->setLayer(layer - 1);
        doc->setWords(a.words);
        doc->setHideSpecial(a.hide_special);
    } else if (a.model) {
        if (has_tokens || has_tokens2)
            usage_error(
                ExportCommandText::tr("--tokens cannot be used with --model: the "
                                      "model's tokenizer splits --text"));
        const QString folder = QFileInfo(qstring(*a.model)).absoluteFilePath();
        const ModelPtr m = open_model(folder);  // DataError: the folder is no model
        const models::ModelInfo& info = m->model->info();
        num_heads = int(info.num_heads);
        compared_source = ComparedSource{QString::fromStdString(info.display_name),
                                         int(info.num_layers), int(info.num_heads), false};
        const int layer = a.model_layer.value_or(1);
        if (layer > info.num_layers)
            usage_error(ExportCommandText::tr("--layer %1: %2 has %3 layers")
                            .arg(layer)
                            .arg(QString::fromStdString(info.display_name))
                            .arg(info.num_layers));
        doc->setModelFolder(folder);
        doc->setLayer(layer - 1);
        doc->setWords(a.words);
        doc->setHideSpecial(a.hide_special);
        if (a.ablate) {
            const KnockOut how = a.ablate_mode == "mean" ? KnockOut::Mean : KnockOut::Zero;
            std::map<ModelHead, KnockOut> heads;
            for (const models::HeadRef& h : models::parse_head_list(*a.ablate, info, "--ablate"))
                heads[{int(h.layer), int(h.head)}] = how;
            doc->setKnockedOut(heads);
        }
    } else if (a.words || a.hide_special || a.focus_token || a.focus_to) {
        usage_error(ExportCommandText::tr(
            "--words, --hide-special, --focus-token and --focus-to need --model"));
    }
    if (a.ablate && !a.model) usage_error(ExportCommandText::tr("--ablate needs --model"));
    if (a.generate && !a.model) usage_error(ExportCommandText::tr("--generate needs --model"));
    if (!a.generate && !a.whole_model && (a.temperature != 0.0 || a.top_k != 0 || a.top_p != 1.0))
        usage_error(ExportCommandText::tr(
            "--temperature, --top-k and --top-p need --generate or --whole-model"));
    if (!a.ablate && a.ablate_mode != "zero")
        usage_error(ExportCommandText::tr("--ablate-mode needs --ablate"));
    const std::optional<int> heads_shown = a.mean_only ? std::optional<int>(0) : a.heads_shown;
    const QString view = qstring(a.view);
    if (!has_text && !has_tokens && !maps)
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
    if (!maps) {  // the demo layer's heads; maps from a file have their own
        if (embed_dim % num_heads != 0)
            usage_error(ExportCommandText::tr("--num-heads %1 does not divide --embed-dim %2")
                            .arg(num_heads)
                            .arg(embed_dim));
        doc->setNumHeads(num_heads);
    }
    if (heads_shown) {
        if (*heads_shown > num_heads)
            usage_error(ExportCommandText::tr("--heads-shown %1 is more than --num-heads %2")
                            .arg(*heads_shown)
                            .arg(num_heads));
        if (a.model || maps)  // the model's own scope; the demo layer's stays as it is
            doc->setModelScope(doc->layersShown(), *heads_shown);
        else
            doc->setHeadsShown(*heads_shown);
    }
    doc->setWeightSeed(static_cast<int>(a.seed));
    doc->setDropoutSeed(static_cast<int>(a.dropout_seed.value_or(a.seed)));
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
    } else if (view == QLatin1String("model") || view == QLatin1String("atlas")) {
        if (!a.model && !maps)
            usage_error(ExportCommandText::tr("--view %1 needs --model").arg(view));
        cmd.figure.kind = FigureKind::Model;
        cmd.atlas = view == QLatin1String("atlas");
        if (a.focus_token) cmd.figure.focus_token = *a.focus_token - 1;  // checked once computed
        cmd.figure.focus_to = a.focus_to;
        if (a.thumbnails)  // the parser accepts only the names
            model_thumbnails_from_name(QString::fromStdString(*a.thumbnails),
                                       &cmd.figure.model_thumbnails);
        if (cmd.atlas && !cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
            usage_error(
                ExportCommandText::tr("--view atlas writes a CSV table: give --out "
                                      "FILE.csv (the window's Atlas tab draws it)"));
    } else if (view == QLatin1String("predictions")) {
        if (!a.model) usage_error(ExportCommandText::tr("--view predictions needs --model"));
        cmd.figure.kind = FigureKind::Predictions;
        if (a.focus_token) cmd.figure.focus_token = *a.focus_token - 1;  // checked once computed
        cmd.predictions_csv = cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    } else if (view == QLatin1String("lens")) {
        if (!a.model) usage_error(ExportCommandText::tr("--view lens needs --model"));
        cmd.figure.kind = FigureKind::Lens;
        cmd.lens_csv = cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    } else if (view == QLatin1String("compare") || view.startsWith(QLatin1String("compare:"))) {
        cmd.figure.kind = FigureKind::Compare;
        cmd.compare_csv = cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
        parse_comparison(view, preset, b_changes, doc, &cmd.figure,
                         compared_source ? &*compared_source : nullptr);
    } else {
        usage_error(ExportCommandText::tr("--view must be grid, mean, head:K, steps, steps:K, "
                                          "lines, compare, compare:K, model, atlas, lens, "
                                          "predictions or patch, not '%1'")
                        .arg(view));
    }
    if (maps && cmd.figure.kind == FigureKind::Steps)
        usage_error(ExportCommandText::tr("--view %1 needs a model: maps read from a file hold "
                                          "only its result")
                        .arg(view));
    if ((a.open_layers || a.draw) && !a.whole_model)
        usage_error(ExportCommandText::tr("--open-layers and --draw need --whole-model"));
    if (a.whole_model) {
        if (cmd.figure.kind != FigureKind::Steps || view != QLatin1String("steps"))
            usage_error(ExportCommandText::tr("--whole-model needs --view steps"));
        if (!a.model) usage_error(ExportCommandText::tr("--whole-model needs --model"));
        if (a.step || a.focus)
            usage_error(
                ExportCommandText::tr("--step and --focus show one layer: not with "
                                      "--whole-model"));
        cmd.figure.whole_model = true;
        if (a.focus_token) cmd.figure.focus_token = *a.focus_token - 1;  // checked once computed
        if (a.open_layers) cmd.figure.open_layers = parse_open_layers(qstring(*a.open_layers));
        // The figure shows the softmax itself unless a temperature is asked for; with
        // --generate, the generation's sampling is the figure's too.
        cmd.figure.temperature = a.temperature_given || a.generate ? a.temperature : 1.0;
        cmd.figure.top_k = a.top_k;
        cmd.figure.top_p = std::max(0.01, a.top_p);
        cmd.draw = a.draw;
    }
    if (a.focus_token && cmd.figure.kind != FigureKind::Predictions && !a.whole_model &&
        (cmd.figure.kind != FigureKind::Model || cmd.atlas))
        usage_error(ExportCommandText::tr(
            "--focus-token needs --view model or predictions, or --view steps with "
            "--whole-model"));
    if (a.focus_to && (cmd.figure.kind != FigureKind::Model || cmd.atlas))
        usage_error(ExportCommandText::tr("--focus-to needs --view model"));
    if (a.thumbnails && (cmd.figure.kind != FigureKind::Model || cmd.atlas))
        usage_error(ExportCommandText::tr("--thumbnails needs --view model"));
    if (!b_option.isEmpty() && cmd.figure.kind != FigureKind::Compare)
        usage_error(ExportCommandText::tr("%1 needs --view compare").arg(b_option));
    const std::optional<int> step = a.step;
    const bool focus = a.focus;
    if ((step || focus) && cmd.figure.kind != FigureKind::Steps)
        usage_error(ExportCommandText::tr("--step and --focus need --view steps"));
    if (focus && !step) usage_error(ExportCommandText::tr("--focus needs --step N"));
    if (step) cmd.figure.step = *step - 1;
    cmd.figure.focus = focus;
    const QString heads_list = a.heads ? qstring(*a.heads) : QString();
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
    if (!cmd.atlas && !cmd.lens_csv && !cmd.predictions_csv && !cmd.compare_csv &&
        !figure_format_for(cmd.out))
        usage_error(ExportCommandText::tr("cannot tell the format of '%1': use .png, .svg or .pdf")
                        .arg(cmd.out));
    validate_export_size(cmd.size);
    if (a.generate) {
        // The text continued by the model first, as Continue does in the window: every view
        // then draws the text with the model's tokens (orange) after it.
        if (*mode != PairMode::Single)
            usage_error(ExportCommandText::tr("--generate continues a single text: no --text2"));
        GenerationSettings g;
        g.count = *a.generate;
        g.temperature = a.temperature;
        g.top_k = a.top_k;
        g.top_p = a.top_p;
        g.seed = int(std::clamp<std::int64_t>(a.seed, 0, AttentionDocument::kMaxSeed));
        doc->setGenerationSettings(g);
        const ModelPtr m = open_model(doc->computeConfig().model_folder);
        const auto P = int(encode_model_text(*m, doc->computeConfig()).input.ids.size());
        const int positions = int(m->model->info().max_positions);
        if (P + g.count > positions)
            usage_error(ExportCommandText::tr("--generate %1: with the %2 tokens of the text that "
                                              "is more than the %3 positions of %4 (at most %5)")
                            .arg(g.count)
                            .arg(P)
                            .arg(positions)
                            .arg(model_display_name(*m))
                            .arg(std::max(0, positions - P)));
        const models::Generation r = continue_text(doc->computeConfig(), doc->generationSettings());
        doc->setGenerated({r.ids.begin(), r.ids.end()});
    }
    return cmd;
}

/// Computes on this thread, renders, writes.  Throws DataError / UsageError /
/// std::invalid_argument.
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
    ComputeConfig config = document.computeConfig();
    // A figure of one layer needs the layers up to it only (the compared layer included).
    if (config.usesModel() && command.figure.kind != FigureKind::Model && !command.atlas)
        config.layers_shown =
            std::max(config.layer, document.compare().changes.layer.value_or(0)) + 1;
    SnapshotPtr snapshot;
    try {
        snapshot = compute_snapshot(
            config, 1, nullptr, worker_threads(), &memory,
            command.figure.kind == FigureKind::Steps && !command.figure.whole_model, nullptr,
            command.figure.kind == FigureKind::Lens, nullptr,
            command.figure.whole_model ? command.figure.focus_token : kNoTrace);
    } catch (const budget::MemoryBudgetExceeded& e) {
        if (!config.usesModel()) throw;
        budget::MemoryPlan plan = e.plan();  // no --layers here: only the budget can help
        plan.fewer_layers.reset();
        throw budget::MemoryBudgetExceeded(plan, e.budget());
    }
    FigureOptions options = command.figure;  // with the draw
    if (command.figure.whole_model && !snapshot->trace)
        throw DataError("the model's pass at the token was not traced");
    if (command.figure.whole_model && command.draw) {
        if (!snapshot->trace || snapshot->trace->trace.logits.empty())
            throw DataError(snapshot->model ? snapshot->model->no_predictions.toStdString()
                                            : std::string("there are no logits to draw from"));
        const std::vector<float>& z = snapshot->trace->trace.logits;
        options.drawn = models::sample_next(
            z.data(), std::int64_t(z.size()),
            {command.figure.temperature, command.figure.top_k, command.figure.top_p},
            std::uint64_t(*command.draw));
    }
    if (command.figure.kind == FigureKind::Steps && !command.figure.whole_model) {
        QString why;
        if (build_steps_model(*snapshot, command.figure.batch_item, command.figure.head, &why)
                .empty())
            throw DataError(why.toStdString());
    }
    if (const int t = command.figure.focus_token; t >= 0 && t >= snapshot->model->tokens)
        throw UsageError(ExportCommandText::tr("--focus-token %1: the text has %2 tokens")
                             .arg(t + 1)
                             .arg(snapshot->model->tokens)
                             .toStdString());
    if (command.atlas) {
        write_atomically(command.out, QByteArray::fromStdString(snapshot->model->atlas.to_csv()));
        return;
    }
    if (command.figure.kind == FigureKind::Lens) {
        if (const LensGrid& g = *snapshot->lens; !g.unavailable.isEmpty())
            throw DataError((g.unavailable + QLatin1Char(' ') + g.detail).trimmed().toStdString());
        if (command.lens_csv) {
            write_atomically(command.out, snapshot->lens->to_csv());
            return;
        }
    }
    if (command.figure.kind == FigureKind::Predictions) {
        const ModelMaps& m = *snapshot->model;
        if (!m.predictions) throw DataError(m.no_predictions.toStdString());
        if (command.predictions_csv) return write_atomically(command.out, predictions_csv(m));
        // Drawn as a figure that fits its content: as wide and as tall as it takes.
        PredictionsFigure figure;
        figure.setSnapshot(snapshot);
        figure.setOptions(command.figure);
        return write_atomically(
            command.out, encode_figure(render_painted_figure(figure, command.size, command.out)));
    }
    SnapshotPtr compared;
    if (command.figure.kind == FigureKind::Compare) {
        compared = compute_compared(snapshot->config, document.compare().changes, 2, nullptr,
                                    worker_threads(), &memory);
        // Nothing to draw (sentences of different lengths): the reason, not an empty figure.
        QString why;
        const int head = command.figure.view == FigureView::Head ? command.figure.head : -1;
        const CompareModel model =
            build_compare_model(*snapshot, *compared, command.figure.batch_item, head, &why,
                                command.figure.compare_b_head);
        if (model.empty()) throw UsageError(why.toStdString());
        if (command.compare_csv) return write_atomically(command.out, compare_csv(model));
    }
    export_figure(*snapshot, options, command.size, command.out, std::nullopt, compared.get());
}

/// --view patch: the sweep of `attnviz patch`, drawn by the Patching tab's figure or written
/// as its array.  Everything is checked and computed before the one file is written.
void run_patch_export(const ExportOptions& a) {
    if (!a.model) usage_error(ExportCommandText::tr("--view patch needs --model"));
    if (a.text || a.tokens || a.text2 || a.tokens2 || a.model_layer)
        usage_error(ExportCommandText::tr(
            "--view patch reads --clean and --corrupt, not --text, --tokens or --layer"));
    if (!a.clean || !a.corrupt || !a.target || !a.distractor)
        usage_error(ExportCommandText::tr(
            "--view patch needs --clean, --corrupt, --target and --distractor"));
    if (!a.out) usage_error(ExportCommandText::tr("--out FILE is required"));
    const QString out = qstring(*a.out);
    const QString suffix = QFileInfo(out).suffix().toLower();
    const bool array = suffix == QLatin1String("npy") || suffix == QLatin1String("csv");
    const ExportSize size{a.width, a.height, a.scale};
    if (!array && !figure_format_for(out))
        usage_error(
            ExportCommandText::tr("cannot tell the format of '%1': use .png, .svg, .pdf, .npy or "
                                  ".csv")
                .arg(out));
    if (!array) validate_export_size(size);
    const ModelPtr m = open_model(QFileInfo(qstring(*a.model)).absoluteFilePath());
    models::PatchRequest request = models::patch_request(
        *m, {*a.clean, *a.corrupt, *a.target, *a.distractor, a.position.value_or(-1)});
    request.num_threads = worker_threads();
    PatchMaps maps = make_patch_maps(*m, request, qstring(*a.clean), qstring(*a.corrupt));
    maps.result = models::patch_sweep(*m->model, request);
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

// Qt's own notices (e.g. "XDG_RUNTIME_DIR not set" on a headless machine) are not the
// command's business: stderr carries exactly one message, and only on failure.
void quiet_message_handler(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "attnviz export: %s\n", message.toLocal8Bit().constData());
        std::abort();
    }
}

}  // namespace

void check_export_options(const ExportOptions& a) {
    // en or zh_CN (any spelling normalize_language knows), not "system".
    if (!a.lang) return;
    const QString language = normalize_language(qstring(*a.lang));
    if (language.isEmpty() || language == QLatin1String(kSystemLanguage))
        throw UsageError("--lang must be en or zh_CN, not '" + *a.lang + "'");
}

void render_export(const ExportOptions& a) {
    check_export_options(a);
    // Rendering needs a QApplication (QCustomPlot is a widget) but never a display: use the
    // offscreen platform unless the caller chose one explicitly.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    qInstallMessageHandler(quiet_message_handler);
    set_application_identity();
    char program[] = "attnviz";
    int qt_argc = 1;
    char* qt_argv[] = {program, nullptr};
    QApplication app(qt_argc, qt_argv);
    // Figures from the command line are English, the same on every machine, unless --lang
    // asks otherwise (the window's exports follow the interface language instead).
    install_translations(a.lang ? normalize_language(qstring(*a.lang))
                                : QString::fromLatin1(kEnglish));
    if (a.ablate && a.view == "patch")
        usage_error(ExportCommandText::tr("--ablate does not apply to --view patch"));
    if (a.generate && a.view == "patch")
        usage_error(ExportCommandText::tr("--generate does not apply to --view patch"));
    if (a.view == "patch") return run_patch_export(a);
    if (a.clean || a.corrupt || a.target || a.distractor || a.position)
        usage_error(ExportCommandText::tr(
            "--clean, --corrupt, --target, --distractor and --position need --view patch"));
    AttentionDocument document;
    const ExportCommand command = apply_arguments(a, &document);
    run_export(command, document);
}

std::vector<std::string> export_colormap_names() {
    std::vector<std::string> words;
    for (const QString& name : colormap_names())
        words.push_back(name.toStdString());
    return words;
}

}  // namespace attnviz::ui
