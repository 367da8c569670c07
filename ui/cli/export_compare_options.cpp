// `attnviz export`'s Comparison options (--view compare): configuration B as a preset and the
// --b-... changes on top of it, declared beside how they are applied (export_options.h).
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "engine/io/attention_arrays.h"
#include "engine/layers/multi_head_attention.h"
#include "ui/classroom/compare_model.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
/// The refusals of a B that a trained model or maps (`model`; null for the demo layer)
/// cannot have.
void check_compared_source(const CompareChanges& b_changes, bool preset,
                           const ComparedSource* model, int heads) {
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
    if (b_changes.head && *b_changes.head >= heads)
        usage_error(ExportCommandText::tr("--b-head %1: there are %2 heads")
                        .arg(*b_changes.head + 1)
                        .arg(heads));
}

/// The preset's changes with B's own on top.
CompareChanges merged_changes(const CompareChanges& preset, const CompareChanges& b_changes) {
    CompareChanges changes = preset;
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
    return changes;
}
}  // namespace

void ExportComparison::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* o : {
             add_choice(sub, "--compare", &compare, {"causal", "heads", "dropout"},
                        "causal: A without the causal mask, B with it; heads: A with 4 heads, B "
                        "with 8; dropout: A in evaluation, B training with the same dropout "
                        "seed, on head 1 unless compare:K says otherwise",
                        {}, LetterCase::Any)
                 ->option_text("PRESET"),
             add_switch(sub, "--b-causal", &b_causal, "B's causal mask"),
             add_integer(sub, "--b-num-heads", &b_num_heads, 1, AttentionDocument::kMaxHeads, "H",
                         "B's heads; must divide --embed-dim"),
             add_switch(sub, "--b-train", &b_train, "B's training mode (dropout active)"),
             add_real(sub, "--b-dropout", &b_dropout, 0.0, AttentionDocument::kMaxDropout,
                      UpperBound::Included, "P", "B's dropout"),
             add_choice(sub, "--b-scoring", &b_scoring, {"dot", "additive"}, "B's scoring",
                        {"scaled_dot_product"}),
             add_choice(sub, "--b-masked-rows", &b_masked_rows, masked_row_policy_names(),
                        "B's fully masked rows"),
             add_switch(sub, "--b-bias", &b_bias, "B's projection bias"),
             add_switch(sub, "--b-positional", &b_positional, "B's positional encoding"),
             add_integer(sub, "--b-seed", &b_seed, 0, AttentionDocument::kMaxSeed, "S",
                         "B's weight seed"),
             add_integer(sub, "--b-layer", &b_layer, 1, AttentionDocument::kMaxLayers, "N",
                         "with --model: B shows layer N (from 1)"),
             add_integer(sub, "--b-head", &b_head, 1, AttentionDocument::kMaxHeads, "K",
                         "B shows head K, against the head of --view compare:K (another head "
                         "of the same input)"),
             add_text(sub, "--b-text", &b_text, "TEXT",
                      "with --model: B's sentence, compared token by token (as many tokens as "
                      "--text)"),
             add_text(sub, "--b-attentions", &b_attentions, "B.npy",
                      "with --attentions: B's maps, another file with the same layers, heads "
                      "and tokens count (e.g. another checkpoint on the same text); tokens "
                      "spelled differently are a warning, compared position by position"),
             add_text(sub, "--b-attention-tokens", &b_attention_tokens, "T.json",
                      "the tokens of --b-attentions; default: tokens.json beside them"),
         })
        o->group("Comparison (--view compare): B is A with changes");
}

void ExportComparison::apply_settings(Applying& s) const {
    if (compare) {
        ComparePreset p;
        compare_preset_from_name(qstring(*compare), &p);
        s.preset = p;
    }
    CompareChanges& b = s.b_changes;
    b.causal = b_causal;
    b.num_heads = b_num_heads;
    b.training = b_train;
    b.dropout = b_dropout;
    if (b_scoring) b.scoring = scoring_from_name(*b_scoring);
    if (b_masked_rows) b.masked_rows = masked_row_policy_from_name(*b_masked_rows);
    b.bias = b_bias;
    b.positional_encoding = b_positional;
    b.weight_seed = b_seed;
    if (b_layer) b.layer = *b_layer - 1;
    if (b_head) b.head = *b_head - 1;
    if (b_text) b.text = qstring(*b_text);
    // The first comparison option given, in the order of the help, for the message of
    // check_view.
    for (const auto& [given, name] : {std::pair{compare.has_value(), "--compare"},
                                      {b_causal.has_value(), "--b-causal"},
                                      {b_num_heads.has_value(), "--b-num-heads"},
                                      {b_train.has_value(), "--b-train"},
                                      {b_dropout.has_value(), "--b-dropout"},
                                      {b_scoring.has_value(), "--b-scoring"},
                                      {b_masked_rows.has_value(), "--b-masked-rows"},
                                      {b_bias.has_value(), "--b-bias"},
                                      {b_positional.has_value(), "--b-positional"},
                                      {b_seed.has_value(), "--b-seed"},
                                      {b_layer.has_value(), "--b-layer"},
                                      {b_head.has_value(), "--b-head"},
                                      {b_text.has_value(), "--b-text"},
                                      {b_attentions.has_value(), "--b-attentions"},
                                      {b_attention_tokens.has_value(), "--b-attention-tokens"}})
        if (given && s.b_option.isEmpty()) s.b_option = QLatin1String(name);
}

void ExportComparison::apply_b_maps(const ComputeConfig& a_source, Applying& s) const {
    // B's maps are checked as A's were, then against A's: the same layers, heads and tokens
    // count (DataError), and a warning when the tokens are spelled differently.
    ComputeConfig b = a_source;
    b.model_folder = QFileInfo(qstring(*b_attentions)).absoluteFilePath();
    b.tokens_file =
        b_attention_tokens ? QFileInfo(qstring(*b_attention_tokens)).absoluteFilePath() : QString();
    const io::AttentionArrays b_arrays =
        io::AttentionArrays::open(QFile::encodeName(b.model_folder).toStdString());
    const std::string tokens_warning = check_compared_maps(a_source, b);
    if (const std::string warning = io::validate_attention_arrays(b_arrays); !warning.empty())
        std::fprintf(stderr, "attnviz export: warning: %s\n", warning.c_str());
    if (!tokens_warning.empty())
        std::fprintf(stderr, "attnviz export: warning: %s\n", tokens_warning.c_str());
    s.b_changes.maps = b.model_folder;
    if (!b.tokens_file.isEmpty()) s.b_changes.maps_tokens = b.tokens_file;
}

void ExportComparison::apply_view(Applying& s) const {
    // After every setting of A, which a preset may change.
    AttentionDocument* doc = s.doc;
    FigureOptions* figure = &s.cmd.figure;
    figure->kind = FigureKind::Compare;
    s.cmd.compare_csv = s.cmd.out.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    const ComparedSource* model = s.compared_source ? &*s.compared_source : nullptr;
    const int heads = model ? model->heads : doc->numHeads();
    check_compared_source(s.b_changes, s.preset.has_value(), model, heads);
    CompareChanges preset_changes;
    if (s.preset) {
        if (!doc->applyComparePreset(*s.preset)) usage_error(doc->validationMessage());
        preset_changes = doc->compare().changes;
    }
    const CompareChanges changes = merged_changes(preset_changes, s.b_changes);
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
    const int preset_head = s.preset ? doc->compare().head : -1;
    figure->view = preset_head >= 0 ? FigureView::Head : FigureView::Mean;
    figure->head = std::max(0, preset_head);
    figure->compare_b_head = changes.head ? *changes.head : -2;
    if (s.view.size() > 7) {
        const int both = model ? heads : std::min(a.num_heads, b.num_heads);
        figure->view = FigureView::Head;
        figure->head = to_int(QStringLiteral("--view compare:K"), s.view.mid(8), 1, both) - 1;
    }
    doc->setCompareHead(figure->view == FigureView::Head ? figure->head : -1);
}

void ExportComparison::check_view(const Applying& s) const {
    if (!s.b_option.isEmpty() && s.cmd.figure.kind != FigureKind::Compare)
        usage_error(ExportCommandText::tr("%1 needs --view compare").arg(s.b_option));
}

}  // namespace attnviz::ui
