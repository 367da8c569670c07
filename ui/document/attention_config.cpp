#include "ui/document/attention_config.h"

#include "engine/text/tokenizer.h"

#include <QCoreApplication>

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct ConfigText {
    Q_DECLARE_TR_FUNCTIONS(AttentionConfig)
};

template <typename Enum, std::size_t N>
bool from_table(const QString& name, const std::pair<Enum, const char*> (&table)[N], Enum* out) {
    for (const auto& [value, text] : table) {
        if (name.compare(QLatin1String(text), Qt::CaseInsensitive) == 0) {
            *out = value;
            return true;
        }
    }
    return false;
}

template <typename Enum, std::size_t N>
QString to_name(Enum value, const std::pair<Enum, const char*> (&table)[N]) {
    for (const auto& [v, text] : table)
        if (v == value) return QLatin1String(text);
    return {};
}

const std::pair<PairMode, const char*> kPairModes[] = {{PairMode::Single, "single"},
                                                       {PairMode::CrossAttention, "cross"},
                                                       {PairMode::PaddedBatch, "batch"}};
const std::pair<FigureView, const char*> kViews[] = {
    {FigureView::Grid, "grid"}, {FigureView::Mean, "mean"}, {FigureView::Head, "head"}};
const std::pair<FigureKind, const char*> kKinds[] = {{FigureKind::Heatmaps, "heatmaps"},
                                                     {FigureKind::Steps, "steps"},
                                                     {FigureKind::Lines, "lines"},
                                                     {FigureKind::Compare, "compare"},
                                                     {FigureKind::Model, "model"},
                                                     {FigureKind::Lens, "lens"},
                                                     {FigureKind::Predictions, "predictions"}};
const std::pair<ScaleMode, const char*> kScales[] = {
    {ScaleMode::Shared, "shared"}, {ScaleMode::PerHead, "per_head"}, {ScaleMode::Unit, "unit"}};
const std::pair<ModelThumbnails, const char*> kModelThumbnails[] = {
    {ModelThumbnails::WholeMax, "max"},
    {ModelThumbnails::WholeMean, "mean"},
    {ModelThumbnails::Kept, "kept"}};
const std::pair<Colormap, const char*> kColormaps[] = {{Colormap::Viridis, "viridis"},
                                                       {Colormap::Cividis, "cividis"},
                                                       {Colormap::Magma, "magma"},
                                                       {Colormap::Grey, "grey"}};
const std::pair<AttentionShown, const char*> kAttentionShown[] = {
    {AttentionShown::Weights, "weights"}, {AttentionShown::NormBased, "norm"}};
const std::pair<KnockOut, const char*> kKnockOuts[] = {{KnockOut::Zero, "zero"},
                                                       {KnockOut::Mean, "mean"}};

std::vector<std::string> tokens_of(const QString& text, const QString& list, bool use_list,
                                   const text::TokenizerOptions& options) {
    if (use_list) return text::split_token_list(list.toStdString());
    return text::tokenize(text.toStdString(), options);
}
}  // namespace

QString pair_mode_name(PairMode m) {
    return to_name(m, kPairModes);
}
bool pair_mode_from_name(const QString& name, PairMode* out) {
    return from_table(name, kPairModes, out);
}
QString figure_view_name(FigureView v) {
    return to_name(v, kViews);
}
bool figure_view_from_name(const QString& name, FigureView* out) {
    return from_table(name, kViews, out);
}
QString attention_shown_name(AttentionShown a) {
    return to_name(a, kAttentionShown);
}
bool attention_shown_from_name(const QString& name, AttentionShown* out) {
    return from_table(name, kAttentionShown, out);
}
QString figure_kind_name(FigureKind k) {
    return to_name(k, kKinds);
}
bool figure_kind_from_name(const QString& name, FigureKind* out) {
    return from_table(name, kKinds, out);
}
QString model_thumbnails_name(ModelThumbnails t) {
    return to_name(t, kModelThumbnails);
}
bool model_thumbnails_from_name(const QString& name, ModelThumbnails* out) {
    return from_table(name, kModelThumbnails, out);
}
QString scale_mode_name(ScaleMode m) {
    return to_name(m, kScales);
}
bool scale_mode_from_name(const QString& name, ScaleMode* out) {
    return from_table(name, kScales, out);
}
QString colormap_name(Colormap c) {
    return to_name(c, kColormaps);
}
bool colormap_from_name(const QString& name, Colormap* out) {
    if (name.compare(QLatin1String("gray"), Qt::CaseInsensitive) == 0) {
        *out = Colormap::Grey;
        return true;
    }
    return from_table(name, kColormaps, out);
}
QString knock_out_name(KnockOut k) {
    return to_name(k, kKnockOuts);
}
bool knock_out_from_name(const QString& name, KnockOut* out) {
    return from_table(name, kKnockOuts, out);
}
QStringList colormap_names() {
    QStringList names;
    for (const auto& entry : kColormaps)
        names << QLatin1String(entry.second);
    return names;
}

bool is_attention_maps_path(const QString& path) {
    return path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive) ||
           path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive);
}

TokenSequences demo_tokens(const ComputeConfig& config) {
    text::TokenizerOptions options;
    options.lowercase = config.lowercase;
    options.add_special_tokens = config.special_tokens;
    TokenSequences out;
    out.a = tokens_of(config.text_a, config.token_list_a, config.use_token_list, options);
    if (config.pair_mode != PairMode::Single)
        out.b = tokens_of(config.text_b, config.token_list_b, config.use_token_list, options);
    return out;
}

QStringList token_view_notes(const ComputeConfig& c) {
    QStringList notes;
    if (!c.usesModel()) return notes;
    if (c.words)
        notes << ConfigText::tr(
            "words: a word's attention summed over its key pieces, averaged over its query pieces");
    if (c.hide_special)
        notes << ConfigText::tr("special tokens hidden, each row rescaled to sum to 1");
    return notes;
}

QJsonObject layer_json(const ComputeConfig& c) {
    return QJsonObject{{QStringLiteral("embed_dim"), c.embed_dim},
                       {QStringLiteral("num_heads"), c.num_heads},
                       {QStringLiteral("bias"), c.bias},
                       {QStringLiteral("scoring"), QLatin1String(scoring_name(c.scoring))},
                       {QStringLiteral("dropout"), c.dropout},
                       {QStringLiteral("training"), c.training},
                       {QStringLiteral("dropout_seed"), c.dropout_seed},
                       {QStringLiteral("weight_seed"), c.weight_seed},
                       {QStringLiteral("positional_encoding"), c.positional_encoding},
                       {QStringLiteral("weights_file"), c.weights_file}};
}

}  // namespace attnviz::ui
