// `attnviz export`'s Trained model options: a model folder or maps computed elsewhere, the
// views only they have, heads knocked out, generation and the whole model; declared beside
// how they are applied (export_options.h).
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <map>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/models/predictions.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/compute/generation_runner.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
constexpr const char* kGroup = "Trained model";

void in_group(std::initializer_list<CLI::Option*> options) {
    for (CLI::Option* o : options)
        o->group(kGroup);
}

/// --open-layers: "all", "none" or layers from 1 ("1,3"), as FigureOptions::open_layers bits.
quint64 parse_open_layers(const QString& spec) {
    if (spec == QLatin1String("all")) return ~quint64(0);
    if (spec == QLatin1String("none")) return 0;
    quint64 bits = 0;
    for (const QString& item : spec.split(QLatin1Char(',')))
        bits |= quint64(1) << (to_int(QStringLiteral("--open-layers"), item.trimmed(), 1, 64) - 1);
    return bits;
}

/// --attentions: the maps, checked whole (as attnviz view: shapes, tokens that do not fit,
/// NaN in any layer), into the document.
void open_maps(const ExportOptions& a, Applying& s) {
    if (a.text || a.tokens || a.text2 || a.tokens2)
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
    s.num_heads = int(arrays.heads());
    const int layer = a.model_layer.value_or(1);
    if (layer > arrays.layers())
        usage_error(ExportCommandText::tr("--layer %1: %2 has %3 layers")
                        .arg(layer)
                        .arg(QFileInfo(source.model_folder).fileName())
                        .arg(arrays.layers()));
    s.compared_source = ComparedSource{QFileInfo(source.model_folder).fileName(),
                                       int(arrays.layers()), int(arrays.heads()), true};
    if (a.b_attentions && a.view.starts_with("compare"))  // else: needs --view compare
        a.ExportComparison::apply_b_maps(source, s);
    s.doc->setAttentionMaps(source.model_folder, source.tokens_file);
    s.doc->setLayer(layer - 1);
    s.doc->setWords(a.words);
    s.doc->setHideSpecial(a.hide_special);
}

/// --model: the folder opened (DataError: it is no model), its heads knocked out.
void open_model_folder(const ExportOptions& a, Applying& s) {
    if (a.tokens || a.tokens2)
        usage_error(
            ExportCommandText::tr("--tokens cannot be used with --model: the "
                                  "model's tokenizer splits --text"));
    const QString folder = QFileInfo(qstring(*a.model)).absoluteFilePath();
    const ModelPtr m = open_model(folder);  // DataError: the folder is no model
    const models::ModelInfo& info = m->model->info();
    s.num_heads = int(info.num_heads);
    s.compared_source = ComparedSource{QString::fromStdString(info.display_name),
                                       int(info.num_layers), int(info.num_heads), false};
    const int layer = a.model_layer.value_or(1);
    if (layer > info.num_layers)
        usage_error(ExportCommandText::tr("--layer %1: %2 has %3 layers")
                        .arg(layer)
                        .arg(QString::fromStdString(info.display_name))
                        .arg(info.num_layers));
    s.doc->setModelFolder(folder);
    s.doc->setLayer(layer - 1);
    s.doc->setWords(a.words);
    s.doc->setHideSpecial(a.hide_special);
    if (a.ablating()) {
        const KnockOut how = a.ablate.mode == "mean" ? KnockOut::Mean : KnockOut::Zero;
        std::map<ModelHead, KnockOut> heads;
        for (const models::HeadRef& h : models::parse_head_list(a.ablate.heads, info, "--ablate"))
            heads[{int(h.layer), int(h.head)}] = how;
        s.doc->setKnockedOut(heads);
    }
}
}  // namespace

void ExportModel::declare(CLI::App& sub) {
    using namespace cli;
    in_group({
        add_text(sub, "--model", &model, "DIR",
                 "a Hugging Face model folder: its tokenizer splits --text (and --text2, a pair) "
                 "and every layer runs; the Layer options below do not apply"),
        add_text(sub, "--attentions", &attentions, "A.npy",
                 "attention maps computed elsewhere instead of a model: [layers, heads, L, L] "
                 "(.npy) or layer.N tensors (.safetensors), float32 or float16 (attnviz view)"),
        add_text(sub, "--attention-tokens", &attention_tokens, "T.json",
                 "the tokens of --attentions; default: tokens.json beside them"),
        add_integer(sub, "--layer", &model_layer, 1, AttentionDocument::kMaxLayers, "N",
                    "the model's layer that grid, mean and head:K show (from 1; default 1)"),
        add_flag(sub, "--words", &words,
                 "pieces grouped into words and characters (attention summed over a word's key "
                 "pieces, averaged over its query pieces)"),
        add_flag(sub, "--hide-special", &hide_special,
                 "special tokens left out, every row rescaled to sum to 1"),
        add_integer(sub, "--focus-token", &focus_token, 1, AttentionDocument::kMaxTokens, "N",
                    "--view model: token N's attention (from 1) in every layer and head; --view "
                    "predictions: the token whose top 10 the box lists (default: the last)"),
        add_flag(sub, "--focus-to", &focus_to,
                 "with --focus-token: the attention to the token instead of from it"),
        add_choice(sub, "--thumbnails", &thumbnails, {"max", "mean", "kept"},
                   "--view model when only some maps are kept (--window, --heads-shown, "
                   "--mean-only, fewer layers) of a text over 64 tokens: every layer and head over "
                   "the whole text, pooled by each square's largest weight (max, the default) or "
                   "mean weight, or the kept maps"),
    });
    add_ablate_options(sub, &ablate, kGroup);
    in_group({add_integer(sub, "--generate", &generate, 1, AttentionDocument::kMaxGenerated, "N",
                          "the text continued by the model first: N new tokens, drawn in orange "
                          "(greedy, or sampled with --temperature, --top-k, --top-p and --seed)")});
    add_sampling_options(sub, &sampling, kGroup);
    temperature_option = sub.get_option("--temperature");
    in_group({
        add_flag(sub, "--whole-model", &whole_model,
                 "--view steps: every step of --model at one token (--focus-token; default: the "
                 "last, or a masked LM's [MASK]), from its embedding through every layer to the "
                 "next token's probabilities under --temperature (default 1 here), --top-k and "
                 "--top-p"),
        add_text(sub, "--open-layers", &open_layers, "LIST|all|none",
                 "--whole-model: the layers shown unfolded, from 1 (default: 1)"),
        add_integer(sub, "--draw", &draw, 0, 1000000, "SEED",
                    "--whole-model: highlight the next token a draw with this seed picks"),
    });
}

void ExportModel::apply_source(const ExportOptions& a, Applying& s) const {
    s.maps = attentions.has_value();
    if (s.maps && model)
        usage_error(ExportCommandText::tr("use either --model or --attentions, not both"));
    if (attention_tokens && !s.maps)
        usage_error(ExportCommandText::tr("--attention-tokens needs --attentions"));
    if (model_layer && !model && !s.maps)
        usage_error(ExportCommandText::tr("--layer needs --model"));
    if (a.b_attention_tokens && !a.b_attentions)
        usage_error(ExportCommandText::tr("--b-attention-tokens needs --b-attentions"));
    if (a.b_attentions && !s.maps)
        usage_error(ExportCommandText::tr(
            "--b-attentions compares two maps files: give A's with --attentions"));
    if (s.maps) {
        open_maps(a, s);
    } else if (model) {
        open_model_folder(a, s);
    } else if (words || hide_special || focus_token || focus_to) {
        usage_error(ExportCommandText::tr(
            "--words, --hide-special, --focus-token and --focus-to need --model"));
    }
    if (ablating() && !model) usage_error(ExportCommandText::tr("--ablate needs --model"));
    if (generate && !model) usage_error(ExportCommandText::tr("--generate needs --model"));
    if (!generate && !whole_model &&
        (sampling.temperature != 0.0 || sampling.top_k != 0 || sampling.top_p != 1.0))
        usage_error(ExportCommandText::tr(
            "--temperature, --top-k and --top-p need --generate or --whole-model"));
    if (!ablating() && ablate.mode != "zero")
        usage_error(ExportCommandText::tr("--ablate-mode needs --ablate"));
}

void ExportModel::apply_view(Applying& s) const {
    const QString& v = s.view;
    FigureOptions& figure = s.cmd.figure;
    const bool csv = s.cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    if (v == QLatin1String("model") || v == QLatin1String("atlas")) {
        if (!model && !s.maps) usage_error(ExportCommandText::tr("--view %1 needs --model").arg(v));
        figure.kind = FigureKind::Model;
        s.cmd.atlas = v == QLatin1String("atlas");
        if (focus_token) figure.focus_token = *focus_token - 1;  // checked once computed
        figure.focus_to = focus_to;
        if (thumbnails)  // the parser accepts only the names
            model_thumbnails_from_name(QString::fromStdString(*thumbnails),
                                       &figure.model_thumbnails);
        if (s.cmd.atlas && !csv)
            usage_error(
                ExportCommandText::tr("--view atlas writes a CSV table: give --out "
                                      "FILE.csv (the window's Atlas tab draws it)"));
    } else if (v == QLatin1String("predictions")) {
        if (!model) usage_error(ExportCommandText::tr("--view predictions needs --model"));
        figure.kind = FigureKind::Predictions;
        if (focus_token) figure.focus_token = *focus_token - 1;  // checked once computed
        s.cmd.predictions_csv = csv;
    } else {  // lens
        if (!model) usage_error(ExportCommandText::tr("--view lens needs --model"));
        figure.kind = FigureKind::Lens;
        s.cmd.lens_csv = csv;
    }
}

void ExportModel::apply_view_options(const ExportOptions& a, Applying& s) const {
    FigureOptions& figure = s.cmd.figure;
    if ((open_layers || draw) && !whole_model)
        usage_error(ExportCommandText::tr("--open-layers and --draw need --whole-model"));
    if (whole_model) {
        if (figure.kind != FigureKind::Steps || s.view != QLatin1String("steps"))
            usage_error(ExportCommandText::tr("--whole-model needs --view steps"));
        if (!model) usage_error(ExportCommandText::tr("--whole-model needs --model"));
        if (a.step || a.focus)
            usage_error(
                ExportCommandText::tr("--step and --focus show one layer: not with "
                                      "--whole-model"));
        figure.whole_model = true;
        if (focus_token) figure.focus_token = *focus_token - 1;  // checked once computed
        if (open_layers) figure.open_layers = parse_open_layers(qstring(*open_layers));
        // The figure shows the softmax itself unless a temperature is asked for; with
        // --generate, the generation's sampling is the figure's too.
        figure.temperature = temperature_given() || generate ? sampling.temperature : 1.0;
        figure.top_k = int(sampling.top_k);
        figure.top_p = std::max(0.01, sampling.top_p);
        s.cmd.draw = draw;
    }
    const bool model_view = figure.kind == FigureKind::Model && !s.cmd.atlas;
    if (focus_token && figure.kind != FigureKind::Predictions && !whole_model && !model_view)
        usage_error(ExportCommandText::tr(
            "--focus-token needs --view model or predictions, or --view steps with "
            "--whole-model"));
    if (focus_to && !model_view)
        usage_error(ExportCommandText::tr("--focus-to needs --view model"));
    if (thumbnails && !model_view)
        usage_error(ExportCommandText::tr("--thumbnails needs --view model"));
}

void ExportModel::apply_generation(const ExportOptions& a, Applying& s) const {
    if (!generate) return;
    // The text continued by the model first, as Continue does in the window: every view
    // then draws the text with the model's tokens (orange) after it.
    if (*s.mode != PairMode::Single)
        usage_error(ExportCommandText::tr("--generate continues a single text: no --text2"));
    GenerationSettings g;
    g.count = *generate;
    g.temperature = sampling.temperature;
    g.top_k = int(sampling.top_k);
    g.top_p = sampling.top_p;
    g.seed = int(std::clamp<std::int64_t>(a.seeds.seed, 0, AttentionDocument::kMaxSeed));
    AttentionDocument* doc = s.doc;
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

}  // namespace attnviz::ui
