// Plain value types describing what to compute and how to draw it.  The document owns them;
// the compute worker and the renderer receive copies, so neither ever touches a QObject that
// lives on another thread.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "engine/budget/memory_budget.h"
#include "engine/layers/multi_head_attention.h"

namespace attnviz::ui {

/// How the two sentences feed the attention layer.
enum class PairMode {
    Single,          ///< self-attention over sentence A
    CrossAttention,  ///< queries from sentence A, keys and values from sentence B
    PaddedBatch,     ///< A and B as a batch of two, padded to the longer (key_padding_mask)
};

/// Which heatmaps a figure shows.
enum class FigureView { Grid, Mean, Head };

/// What kind of figure: the heatmap grid, the computation of one head step by step, the
/// head view (lines from each query token to each key token), or two configurations side by
/// side with their difference.
enum class FigureKind { Heatmaps, Steps, Lines, Compare, Model, Lens, Predictions };

/// What the Model tab's mosaic shows when the memory budget kept only some of a model's maps
/// (a window of tokens, the first layers or heads): every layer and head over the whole text,
/// pooled into squares by their largest weight (a thin stripe stays visible) or by their mean
/// weight; or the kept maps.  With every map kept, the maps.
enum class ModelThumbnails { WholeMax, WholeMean, Kept };
QString model_thumbnails_name(ModelThumbnails t);  ///< "max" | "mean" | "kept"
bool model_thumbnails_from_name(const QString& name, ModelThumbnails* out);

/// Shared: one colour range (the data's min to max) for every panel.  PerHead: each panel
/// from its own min to its own max.  Unit: 0 to 1 for every panel, to compare figures.
enum class ScaleMode { Shared, PerHead, Unit };

/// Perceptually uniform, colour-blind-safe maps, plus grey for print.
enum class Colormap { Viridis, Cividis, Magma, Grey };

QString pair_mode_name(PairMode m);  ///< "single" | "cross" | "batch"
bool pair_mode_from_name(const QString& name, PairMode* out);
QString figure_view_name(FigureView v);  ///< "grid" | "mean" | "head"
bool figure_view_from_name(const QString& name, FigureView* out);
QString figure_kind_name(FigureKind k);  ///< "heatmaps" | "steps" | "lines" | "compare" | ...
bool figure_kind_from_name(const QString& name, FigureKind* out);
QString scale_mode_name(ScaleMode m);  ///< "shared" | "per_head" | "unit"
bool scale_mode_from_name(const QString& name, ScaleMode* out);
QString colormap_name(Colormap c);  ///< "viridis" | "cividis" | "magma" | "grey"
bool colormap_from_name(const QString& name, Colormap* out);  ///< also accepts "gray"
QStringList colormap_names();

/// A source path that names attention maps in a file (.npy, .safetensors) rather than a model
/// (a folder, a .gguf file).
bool is_attention_maps_path(const QString& path);

/// A key position masked by clicking its label: (batch item, key index).
using MaskedKey = std::pair<int, int>;

/// A model's head, (layer, head), both from 0.
using ModelHead = std::pair<int, int>;
/// How a knocked-out head's output is replaced (models::HeadIntervention): by zeros, or by its
/// mean over the text's positions.
enum class KnockOut { Zero, Mean };
QString knock_out_name(KnockOut k);  ///< "zero" | "mean"
bool knock_out_from_name(const QString& name, KnockOut* out);

/// What the map views show (Kobayashi et al. 2020, models/effective_attention.h): the attention
/// weights α, or the norm-based maps ‖α·f(x)‖, how much each key's value actually moves the
/// output (per head; the mean becomes the heads together, ‖Σ_h α f_h(x)‖).
enum class AttentionShown { Weights, NormBased };
QString attention_shown_name(AttentionShown a);  ///< "weights" | "norm"
bool attention_shown_from_name(const QString& name, AttentionShown* out);

/// Everything the engine needs for one forward pass.  Comparable, so a request that would
/// produce the same result as the last one can be skipped.
struct ComputeConfig {
    PairMode pair_mode = PairMode::Single;
    QString text_a;
    QString text_b;
    bool use_token_list = false;  ///< take tokens from token_list_a/b instead of tokenizing
    QString token_list_a;         ///< one token per line, or separated by '|' / whitespace
    QString token_list_b;
    bool lowercase = false;
    bool special_tokens = false;  ///< [CLS] ... [SEP]

    int embed_dim = 64;
    int num_heads = 4;
    bool bias = true;
    Scoring scoring = Scoring::ScaledDotProduct;
    double dropout = 0.0;
    bool training = false;
    int dropout_seed = 0;
    int weight_seed = 0;
    bool positional_encoding = true;
    bool causal = false;
    std::set<MaskedKey> masked_keys;
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    QString weights_file;  ///< safetensors state_dict; empty = seeded initialisation

    // The source: the demo layer above (model_folder empty) or a trained model, a Hugging
    // Face folder, whose every layer runs and whose layer `layer` (0-based) the views show.
    // The demo layer's settings are kept meanwhile, so switching back restores them.
    // model_folder may also be an attention maps file computed elsewhere (.npy, .safetensors:
    // engine/io/attention_arrays.h), whose layers stand in for a model's (usesMaps()).
    QString model_folder;
    QString tokens_file;  ///< attention maps' tokens; empty: tokens.json beside them
    int layer = 0;
    /// The maps every map view shows; maps read from a file are weights whatever it says.
    AttentionShown attention = AttentionShown::Weights;
    // How a model's tokens are shown (models::group_tokens): pieces grouped into words and
    // characters, and the special tokens hidden with every row renormalised.
    bool words = false;
    bool hide_special = false;
    /// The model's heads knocked out of its pass (ablated), and how: every map of the layers
    /// above them, the predictions and the loss change.  Cleared when the model changes.
    std::map<ModelHead, KnockOut> knocked_out;
    /// A causal model's continuation of text_a (the generation timeline): the ids it chose,
    /// after the text's own tokens (models::continue_encoding), and how many of them the views
    /// show, from 0 (-1: all): the text as it was at that step.  Cleared with the text or the
    /// model.
    std::vector<qint64> generated;
    int timeline = -1;
    /// The generated ids the views show (timeline applied).
    std::vector<qint64> shownGenerated() const {
        const auto n =
            timeline < 0 ? generated.size() : std::min(generated.size(), std::size_t(timeline));
        return {generated.begin(), generated.begin() + std::ptrdiff_t(n)};
    }
    bool usesModel() const { return !model_folder.isEmpty(); }
    /// The source is attention maps read from a file, not a model run: no text, no steps.
    bool usesMaps() const { return is_attention_maps_path(model_folder); }

    // What of the result is kept, to stay within the memory budget (budget::ResultScope):
    // per-head weights of the first heads_shown heads (-1: every head, 0: the mean only) and
    // a window of window_length tokens from window_start (0-based; length 0: every token).
    int heads_shown = -1;
    int window_start = 0;
    int window_length = 0;
    /// A model: the maps of its first layers_shown layers only (-1: every layer), and per-head
    /// maps of the first model_heads_shown heads of each (-1: every head, 0: the means only).
    /// The demo layer's heads_shown stays its own.
    int layers_shown = -1;
    int model_heads_shown = -1;
    budget::ResultScope scope() const {
        return {.heads_shown = usesModel() ? model_heads_shown : heads_shown,
                .layers_shown = layers_shown,
                .window_start = window_start,
                .window_length = window_length};
    }

    bool operator==(const ComputeConfig&) const = default;
};

/// How the generation timeline's Continue writes (models::GenerateOptions): `count` tokens,
/// greedy (temperature 0) or sampled with temperature, top-k (0: all), top-p and a seed.
struct GenerationSettings {
    int count = 16;
    double temperature = 0.0;
    int top_k = 0;
    double top_p = 1.0;
    int seed = 0;
    bool operator==(const GenerationSettings&) const = default;
};

/// How a figure is drawn from a computed snapshot.  Never triggers a recomputation.
struct FigureOptions {
    FigureView view = FigureView::Grid;
    int head = 0;        ///< 0-based; used when view == Head
    int batch_item = 0;  ///< which item of a padded batch is shown
    Colormap colormap = Colormap::Viridis;
    ScaleMode scale = ScaleMode::Shared;
    bool show_title = true;
    QString title;       ///< empty: a title stating the configuration
    int font_px = 13;    ///< base text size in pixels; titles are derived from it
    bool values = true;  ///< print values in the cells when there is room (single panel)
    FigureKind kind = FigureKind::Heatmaps;
    int step = -1;       ///< steps: the current stage, 0-based (-1: every stage at once)
    bool focus = false;  ///< steps: only the current stage and its inputs, large
    /// Steps with a model: the whole model at one token (ModelTrace) instead of one layer.
    bool whole_model = false;
    /// Whole model: bit l set = layer l unfolded (layers past 63 follow bit 63).
    quint64 open_layers = 1;
    /// Whole model: how the next token is sampled from the logits shown
    /// (models::SamplingOptions), and the id the last seeded draw picked (-1: none).
    double temperature = 1.0;
    int top_k = 0;
    double top_p = 1.0;
    qint64 drawn = -1;
    quint64 line_heads = ~quint64(0);  ///< lines: bit h set = head h drawn
    /// Model view: −1 every map; else one token's attention across every layer and head,
    /// from it (its row) or, with focus_to, to it (its column).  Shown tokens, 0-based.
    int focus_token = -1;
    bool focus_to = false;
    ModelThumbnails model_thumbnails = ModelThumbnails::WholeMax;  ///< model view
    bool high_contrast = false;  ///< presentation: black text, heavier lines
    /// Compare: B's head when B compares another head of the same input (-2: A's head);
    /// the document's CompareChanges::head, not saved with the figure.
    int compare_b_head = -2;

    bool operator==(const FigureOptions&) const = default;
};

/// Tokens for each sequence as the engine will see them (before padding).
struct TokenSequences {
    std::vector<std::string> a;
    std::vector<std::string> b;
};

/// The demo layer's tokens of a configuration: its tokenizer's, or its token lists split.  A
/// model's tokens (and describe_config(), which names the model) are
/// ui/compute/resolved_config.h's resolve_tokens(), which consults the models.
TokenSequences demo_tokens(const ComputeConfig& config);

/// What a figure of a model must say about how its tokens are shown (words, hidden special
/// tokens); empty for the pieces as they are, and for the demo layer.
QStringList token_view_notes(const ComputeConfig& config);
/// The layer's settings as JSON (embed_dim, num_heads, bias, scoring, dropout, training,
/// dropout_seed, weight_seed, positional_encoding, weights_file): the "layer" object of a
/// session and part of the "config" of a weights export, written by this one function.
QJsonObject layer_json(const ComputeConfig& config);

}  // namespace attnviz::ui
