// One finished forward pass, as the viewer needs it: tokens, per-head weights and their
// mean, raw scores (when the budget allows), which cells were masked and which rows were
// fully masked.  Built once on the worker thread and then shared read-only (shared_ptr to
// const) with the GUI, the renderer and every export, so nothing is ever recomputed to draw.
#pragma once

#include <QImage>
#include <QString>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/models/head_atlas.h"
#include "engine/models/head_statistics.h"
#include "engine/models/predictions.h"
#include "engine/pass_control.h"
#include "engine/tensor.h"
#include "engine/text/hf/hf_tokenizer.h"
#include "ui/document/attention_config.h"

namespace attnviz::models {
struct StreamRecord;  // engine/models/attribution.h
}

namespace attnviz::ui {

/// The most a recorded pass (models::StreamRecord) may hold: the window's own pass is recorded
/// up to it, and the why pane records a text's pass up to it when the window's is not usable.
inline constexpr std::size_t kMaxStreamRecordBytes = std::size_t(256) << 20;

struct LensGrid;    // compute/model_lens.h
struct ModelTrace;  // compute/model_trace.h

/// Every stage of the forward pass, kept for the teaching views (the computation steps).
/// Filled during the same forward pass as the weights, for inputs small enough to teach
/// with (kStepsCellBudget); the views never recompute any of it.
struct StepTensors {
    Tensor x_query;  ///< [N, L, E] the layer's query input (embeddings + positions)
    Tensor x_key;    ///< [N, S, E] key/value input; empty for self-attention (= x_query)
    std::vector<HeadSteps> heads;  ///< index n * H + h
    Tensor concat;                 ///< [N, L, E] heads concatenated, before out_proj
    Tensor output;                 ///< [N, L, E]
    /// PyTorch layout: w_q/w_k/w_v [E, E] (out x in), w_o [E, E]; biases empty when off.
    Tensor w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o;

    /// A trained model's layer (model_steps()): x_query is what its projections read
    /// [1, L, hidden], concat [1, L, H * head_dim], output the output projection's result.
    struct ModelLayer {
        int layer = 0;
        int num_kv_heads = 0;
        bool rotary = false;  ///< heads carry q and k before the rotation
        bool causal = false;
        bool pre_norm = false;        ///< the input is the residual stream after the layer's norm
        bool mlp = true;              ///< an MLP follows the attention (none: attention only)
        QString name;                 ///< "GPT-2"
        std::vector<QString> tokens;  ///< the pieces the model saw (the views may show words)
    };
    std::optional<ModelLayer> model;

    const Tensor& keyInput() const { return x_key.empty() ? x_query : x_key; }
    const HeadSteps& head(int n, int h, int num_heads) const {
        return heads.at(std::size_t(n) * num_heads + h);
    }
};

/// What a model with a language-model head predicts on the text (models::predict_rows), over
/// its pieces: the 10 most likely next pieces at every position (causal), or the 10 most
/// likely fillers of each [MASK] (masked LM), and the loss on each actual next piece.
struct ModelPredictions {
    static constexpr int kTop = 10;
    /// The longest text predicted: past it the [pieces, vocabulary] products take seconds.
    static constexpr int kMaxPieces = 2048;
    bool causal = false;
    std::vector<int> positions;  ///< pieces (0-based): every piece, or each mask
    std::vector<std::vector<models::TokenScore>> top;  ///< per position, most likely first
    std::vector<std::vector<QString>> top_text;        ///< their vocabulary strings
    /// Causal: log p(piece t + 1 | pieces ..t) for t < pieces - 1.
    std::vector<double> next_logprob;
    double loss = std::numeric_limits<double>::quiet_NaN();  ///< mean of -next_logprob
};

/// The whole text's maps pooled into squares (models::Pooling over the model's pieces), for
/// the Model tab when the memory budget keeps only some maps: every head of every layer the
/// statistics pass measured, the mean over heads (of the heads' squares) and, where the pass
/// had it over every piece, the rollout.
struct PooledModel {
    models::Pooling pooling;
    int layers = 0, heads = 0;
    int columns() const { return heads + 2; }
    /// Per ModelThumbnails::WholeMax and WholeMean: [layers, heads + 2, cells, cells], the
    /// columns as the mosaic's (heads, mean, rollout); a missing rollout is all 0.
    std::vector<float> values[2];
    std::vector<std::uint8_t> has_rollout;  ///< per layer
    /// Per pooling, layer * columns() + column: coloured as ModelMaps::thumbnails (null: a
    /// rollout the pass did not have).
    std::vector<QImage> thumbnails[2];
    /// The squares of one cell of the mosaic, [cells, cells], `shown` WholeMax or WholeMean.
    const float* squares(ModelThumbnails shown, int layer, int column) const {
        const auto n = std::size_t(pooling.cells * pooling.cells);
        return values[int(shown)].data() +
               (std::size_t(layer) * std::size_t(columns()) + std::size_t(column)) * n;
    }
};

/// What a trained model's pass (or maps read from a file) says over the model's pieces,
/// whatever tokens the views show: the model, the text, the memory, the atlas and the
/// predictions.  present_model() copies it whole when it groups the pieces into words, so a
/// field added here is never forgotten there.
struct ModelPass {
    QString name;  ///< model_display_name()
    QString folder;
    int num_layers = 0, num_heads = 0, num_kv_heads = 0;
    /// Heads whose maps are kept, the first ones (the memory budget may keep fewer, or 0: the
    /// means only): weights[l] is [heads_kept, L, L].  The atlas still measures every head.
    int heads_kept = 0;
    int total_layers = 0;  ///< the model's; num_layers are the first ones, kept (memory budget)
    int pieces = 0;        ///< the model's tokens; `tokens` are those shown (models::group_tokens)
    /// A window (config.window_*, over the model's pieces): the maps keep pieces
    /// [first_piece, first_piece + pieces) of the text's text_pieces, rows and columns; the
    /// softmax, the atlas and the rollout still see every piece.  Without a window first_piece
    /// is 0 and text_pieces equals pieces.
    int first_piece = 0, text_pieces = 0;
    bool windowed() const { return pieces < text_pieces; }
    bool causal = false;
    /// When the memory budget kept only some maps (a window, the first layers or heads): every
    /// layer and head over the whole text, pooled.  Null when every map is kept.
    std::shared_ptr<const PooledModel> pooled;
    /// The model's encoding of text_a (and text_b, the pair's second text, or empty), every
    /// piece of it (not only the window's): what present_model() groups.
    text::Encoding encoding;
    /// text_a: the text and, on the generation timeline, the continuation shown, whose
    /// generated_pieces pieces end the text (ComputeConfig::generated).
    QString text_a, text_b;
    int generated_pieces = 0;
    /// Characters of the text(s) the model reads as its unknown token (<unk>, [UNK]), and
    /// every character that is not a space: "12 of 12 characters are unknown to this model".
    int unknown_chars = 0, text_chars = 0;
    /// Maps read from a file (run_maps): what the user should know about them, e.g. rows that
    /// do not sum to 1; empty when nothing.
    QString warning;
    /// Extended by the generation writer's rows (extend_model) rather than computed by a pass:
    /// a full pass replaces it once the writer stops.
    bool provisional = false;
    /// The maps are norm-based (ComputeConfig::attention): every head's ‖α f_h(x)‖ and, for
    /// the mean, the heads together ‖Σ_h α f_h(x)‖; the atlas still measures the weights, and
    /// the rollout runs through the weights' mean.
    bool norm_based = false;
    double elapsed_ms = 0.0;  ///< the forward pass
    /// What run_model estimated the pass and its maps need, and the budget then.
    std::uint64_t estimated_bytes = 0, budget_bytes = 0;
    /// The heads this pass ran with knocked out (ComputeConfig::knocked_out).
    std::map<ModelHead, KnockOut> knocked_out;
    /// What the model predicts on this text with those heads out; null when it cannot
    /// (no_predictions says why: no language-model head, a text too long).
    std::shared_ptr<const ModelPredictions> predictions;
    /// With heads knocked out: what the intact model predicts, for "before → after".
    std::shared_ptr<const ModelPredictions> intact_predictions;
    QString no_predictions;
    /// Every head measured on this input, and its induction score on the tool's repeated
    /// random sequence (models::HeadAtlas).
    models::HeadAtlas atlas;
    /// This pass itself, recorded over the pieces (with its knock-outs; the attention too for a
    /// causal language model), so that the why pane and Who Writes read it instead of running
    /// a pass of their own; null when it was not recorded (a post-norm model, more than
    /// kMaxStreamRecordBytes or the memory budget left, maps from a file or the writer's rows).
    std::shared_ptr<const models::StreamRecord> stream;
};

/// A trained model's forward pass: every layer's maps from one run, and each head's thumbnail
/// coloured on the worker for the model view (the GUI thread only copies images), over the
/// tokens shown.
struct ModelMaps : ModelPass {
    ModelMaps() = default;
    ModelMaps(const ModelMaps&) = default;
    ModelMaps(ModelMaps&&) = default;
    ModelMaps& operator=(const ModelMaps&) = default;
    ModelMaps& operator=(ModelMaps&&) = default;
    /// Gives the large maps back to the engine's kept buffers (engine/buffers.h): the next
    /// computation of the same size reuses them instead of faulting in fresh pages.
    ~ModelMaps();

    bool words = false, hide_special = false;  ///< how pieces became the tokens shown
    int tokens = 0;
    /// The tokens shown are [first_token, first_token + tokens) of the text_tokens the whole
    /// text shows as (a word the window cuts is counted where it begins).  Without a window
    /// first_token is 0 and text_tokens equals tokens.
    int first_token = 0, text_tokens = 0;
    std::vector<Tensor> weights;  ///< per layer [H, L, L]
    std::vector<Tensor> means;    ///< per layer [L, L]
    /// Per layer [L, L]: attention rollout through that layer (models::attention_rollout),
    /// computed over the pieces, then grouped as the maps are.
    std::vector<Tensor> rollout;
    /// layer * num_heads + head: the map coloured from 0 (masked cells grey) to its own max.
    std::vector<QImage> thumbnails;
    /// layer * 2: the layer's mean over heads, layer * 2 + 1: the rollout through it.
    std::vector<QImage> aggregate_thumbnails;
    /// What the Model tab's mosaic draws for `choice`: the pooled whole text when there is one
    /// and no token is in focus (its strips are the kept maps'), else the kept maps.
    ModelThumbnails shownThumbnails(ModelThumbnails choice, int focus_token = -1) const {
        return pooled && focus_token < 0 ? choice : ModelThumbnails::Kept;
    }
    /// The mosaic's rows for `shown`.
    int mosaicLayers(ModelThumbnails shown) const {
        return shown == ModelThumbnails::Kept ? num_layers : pooled->layers;
    }
    /// A mosaic cell's image for `shown` (null: a head or rollout not kept: hatched).
    const QImage& mosaicImage(int layer, int column, ModelThumbnails shown) const {
        if (shown == ModelThumbnails::Kept) return thumbnail(layer, column);
        return pooled->thumbnails[int(shown)][std::size_t(layer) * std::size_t(pooled->columns()) +
                                              std::size_t(column)];
    }
    std::vector<QString> token_text;     ///< what each token stands for
    std::vector<std::uint8_t> special;   ///< 1 for [CLS], <s>, ... added by the tokenizer
    std::vector<std::int32_t> sequence;  ///< 0 = first text, 1 = second, -1 = template token
    /// Per shown token, the last of its pieces in the whole text (0-based), where its
    /// prediction of what comes next is read; empty when the tokens are the pieces.
    std::vector<int> last_piece;
    /// The piece of the whole text whose prediction shown token `token` stands for.
    int pieceOf(int token) const {
        return last_piece.empty() ? first_piece + token : last_piece[std::size_t(token)];
    }
    /// Whether shown token `token` is (or ends in) the model's own continuation.
    bool isGenerated(int token) const {
        return generated_pieces > 0 && pieceOf(token) >= text_pieces - generated_pieces;
    }
    /// The first shown token the model wrote itself, or -1.
    int firstGeneratedToken() const {
        for (int t = 0; t < tokens; ++t)
            if (isGenerated(t)) return t;
        return -1;
    }

    float value(int layer, int head, int i, int j) const {
        const auto L = std::size_t(tokens);
        return head < 0 ? means[std::size_t(layer)].data[std::size_t(i) * L + std::size_t(j)]
                        : weights[std::size_t(layer)]
                              .data[(std::size_t(head) * L + std::size_t(i)) * L + std::size_t(j)];
    }
    /// head in [0, H): that head; kMeanColumn: the layer's mean; kRolloutColumn: the rollout.
    const QImage& thumbnail(int layer, int head) const {
        if (head >= num_heads)
            return aggregate_thumbnails[std::size_t(layer) * 2 + std::size_t(head - num_heads)];
        return thumbnails[std::size_t(layer) * std::size_t(num_heads) + std::size_t(head)];
    }
    /// Cell (i, j) of a mosaic column: a head, the mean (meanColumn) or the rollout.
    float columnValue(int layer, int column, int i, int j) const {
        if (column == rolloutColumn())
            return rollout[std::size_t(layer)]
                .data[std::size_t(i) * std::size_t(tokens) + std::size_t(j)];
        return value(layer, column >= num_heads ? -1 : column, i, j);
    }
    /// Whether a mosaic column has maps: a kept head, the mean or the rollout.
    bool hasMaps(int column) const { return column < heads_kept || column >= num_heads; }
    int meanColumn() const { return num_heads; }
    int rolloutColumn() const { return num_heads + 1; }
    /// The first token of the pair's second text, or -1 (a single text).
    int secondTextStart() const {
        for (std::size_t k = 0; k < sequence.size(); ++k)
            if (sequence[k] == 1) return int(k);
        return -1;
    }
};

struct AttentionSnapshot {
    AttentionSnapshot() = default;
    AttentionSnapshot(const AttentionSnapshot&) = default;
    AttentionSnapshot(AttentionSnapshot&&) = default;
    AttentionSnapshot& operator=(const AttentionSnapshot&) = default;
    AttentionSnapshot& operator=(AttentionSnapshot&&) = default;
    /// Gives the large maps back to the engine's kept buffers (engine/buffers.h): the next
    /// computation of the same size reuses them instead of faulting in fresh pages.
    ~AttentionSnapshot();

    std::uint64_t generation = 0;
    ComputeConfig config;

    int batch = 0;       ///< N
    int heads = 0;       ///< heads whose weights are kept, the first ones (0: the mean only)
    int num_heads = 0;   ///< H of the layer: the mean is over all of them
    int target_len = 0;  ///< L (queries kept: the window's)
    int source_len = 0;  ///< S (keys kept)
    /// Kept query i is query query_offset + i of query_total, kept key j is key
    /// key_offset + j of key_total: a window onto the full attention (config.window_*).
    int query_offset = 0, key_offset = 0;
    int query_total = 0, key_total = 0;
    /// What estimate_snapshot_bytes() said this computation needs, and the budget then.
    std::uint64_t estimated_bytes = 0;
    std::uint64_t budget_bytes = 0;

    /// Per batch item: L query tokens and S key tokens ("[PAD]" where padded).
    std::vector<std::vector<QString>> query_tokens;
    std::vector<std::vector<QString>> key_tokens;

    Tensor weights;       ///< [N, H, L, S] after dropout
    Tensor mean_weights;  ///< [N, L, S]
    Tensor scores;        ///< [N, H, L, S] raw q.k (or additive) scores; empty over budget
    std::vector<std::uint8_t> masked;             ///< [N, L, S] 1 where the cell was masked
    std::vector<std::uint8_t> fully_masked_rows;  ///< [N, num_heads, L]: every head's
    /// Intermediates for the steps view; null over kStepsCellBudget.
    std::shared_ptr<const StepTensors> steps;
    /// A model's whole pass at one token, for the steps view's whole-model mode (model_trace());
    /// null when it was not asked for.
    std::shared_ptr<const ModelTrace> trace;
    double elapsed_ms = 0.0;  ///< engine time
    /// weights and mean_weights are the norm-based maps (config.attention; never for maps read
    /// from a file): each head's ‖α f_h(x)‖, and the heads together ‖Σ_h α f_h(x)‖ for the mean.
    bool norm_based = false;
    /// With a trained model (config.usesModel()): every layer; weights and mean_weights above
    /// are those of `layer`.
    std::shared_ptr<const ModelMaps> model;
    int layer = 0;
    /// A model's logit lens (compute_lens), when it was asked for (the Logit Lens tab).
    std::shared_ptr<const LensGrid> lens;
    /// Cached panel_range() of every (item, slot), slot H = the mean; filled by
    /// compute_snapshot so the GUI thread never scans millions of cells.
    std::vector<std::pair<float, float>> ranges;

    bool has_scores() const { return !scores.empty(); }
    bool windowed() const { return target_len < query_total || source_len < key_total; }
    std::size_t cell(int n, int h, int i, int j) const {
        return ((std::size_t(n) * heads + h) * target_len + i) * source_len + j;
    }
    float weight(int n, int h, int i, int j) const { return weights.data[cell(n, h, i, j)]; }
    float mean_weight(int n, int i, int j) const {
        return mean_weights.data[(std::size_t(n) * target_len + i) * source_len + j];
    }
    /// Panel value: head h, or the mean when h < 0.
    float value(int n, int h, int i, int j) const {
        return h < 0 ? mean_weight(n, i, j) : weight(n, h, i, j);
    }
    std::optional<float> score(int n, int h, int i, int j) const {
        if (!has_scores() || h < 0) return std::nullopt;
        return scores.data[cell(n, h, i, j)];
    }
    bool is_masked(int n, int i, int j) const {
        return masked[(std::size_t(n) * target_len + i) * source_len + j] != 0;
    }
    /// For the mean (h < 0): masked in every head.
    bool row_fully_masked(int n, int h, int i) const;
    /// Smallest and largest finite weight of the unmasked cells of a panel (h < 0: the
    /// mean); {0, 0} if there are none.
    std::pair<float, float> panel_range(int n, int h) const;
    /// The same over all heads and the mean of item n.
    std::pair<float, float> item_range(int n) const;
    /// Fills `ranges`.
    void cache_ranges();
};

using SnapshotPtr = std::shared_ptr<const AttentionSnapshot>;

/// Cells (N*H*L*S) up to which raw scores are kept for hover read-outs.
inline constexpr std::size_t kScoreCellBudget = std::size_t(1) << 22;

/// Cells (N*H*L*S) up to which every intermediate is kept for the steps view (about seven
/// [L,S] and four [L,d] tensors per head: a few MB at this size).
inline constexpr std::size_t kStepsCellBudget = std::size_t(1) << 18;

/// Bytes per heatmap cell of one panel that drawing it keeps: the colour-map data (a
/// double), its coloured image, the visible part copied when drawn and QCustomPlot's own
/// image (render/heatmap_figure.cpp).  `attnviz export` draws with the same figure.
inline constexpr std::size_t kDisplayBytesPerCell = 20;
/// Per panel: QCustomPlot's oversampled image of a small map and the panel's objects.
inline constexpr std::size_t kDisplayBytesPerPanel = 256 * 1024;
/// Per figure: its QCustomPlot, fonts and layout, its canvas and QCustomPlot's buffer at a
/// window's size (measured: about 4 MB at 640 x 400).
inline constexpr std::size_t kDisplayFixedBytes = 8 * 1024 * 1024;

/// An upper bound of the bytes compute_snapshot() allocates for `config` with its tokens
/// (resolve_tokens(config)) when it keeps `scope`, plus drawing every kept panel.
std::uint64_t estimate_snapshot_bytes(const ComputeConfig& config, const TokenSequences& tokens,
                                      const budget::ResultScope& scope, int num_threads = 1);

/// The longest window the memory budget offers by itself: longer ones may fit in memory
/// but take long to compute and draw (the window's controls still allow them).
inline constexpr std::int64_t kMaxOfferedWindow = 4096;

/// The memory budget's verdict on `config` (its scope()) and, when over, what fits.
budget::MemoryPlan plan_snapshot_memory(const ComputeConfig& config, const TokenSequences& tokens,
                                        std::uint64_t budget_bytes, int num_threads = 1);

/// Runs the engine for a configuration on the calling thread.  Throws std::exception
/// (DataError, std::invalid_argument) with a message for the user on bad input, and
/// budget::MemoryBudgetExceeded, before allocating anything large, when the configuration
/// needs more than `budget` (null: ATTNVIZ_MEMORY_BUDGET or the default budget).
/// `cache` (optional) keeps the layer and any weights file between calls.
struct ComputeCache;
class GenerationFeed;
/// compute_snapshot's model_trace when no trace is wanted.
inline constexpr int kNoTrace = -2;
/// `model_steps`: with a model, also run the pass that keeps config.layer's intermediates
/// for the steps view (model_steps()); the demo layer keeps them whenever they fit.
/// `control` (may be null): stopped, a model's pass throws Cancelled before its next layer
/// (the demo layer before it starts); its progress follows the layers.
/// `model_lens`: with a model, also compute its logit lens on the text (compute_lens), kept in
/// the cache until the text or the model changes.
/// `model_trace` (kNoTrace: none): with a model, also trace its whole pass at that shown
/// token (-1: the default one, default_trace_piece) for the steps view's whole-model mode.
/// `feed` (may be null): while it is open, a text that continues the cached one by tokens it
/// holds extends the cached maps by their rows (extend_model) instead of a pass; the steps and
/// the lens wait for the full pass that follows when the writer stops (the next request once
/// the feed is closed).
SnapshotPtr compute_snapshot(const ComputeConfig& config, std::uint64_t generation,
                             ComputeCache* cache = nullptr, int num_threads = 1,
                             const budget::MemoryBudget* budget = nullptr, bool model_steps = false,
                             const PassControl* control = nullptr, bool model_lens = false,
                             GenerationFeed* feed = nullptr, int model_trace = kNoTrace);

/// Reuses the initialised layer (weights depend only on a few settings) and the parsed
/// weights file between requests.  Not thread-safe: one per worker.
struct ComputeCache {
    ComputeCache();
    ~ComputeCache();
    struct Impl;
    std::unique_ptr<Impl> impl;
};

}  // namespace attnviz::ui
