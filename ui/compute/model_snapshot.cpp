// The window's compute path for a trained model: the text through the model's tokenizer, one
// forward pass that hands every layer's attention over, and the snapshot of the chosen layer
// that every existing view draws.  The per-layer maps stay in a ModelMaps shared by the
// snapshots of one input, so choosing another layer re-slices instead of re-running.
#include "ui/compute/model_snapshot.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/models/attribution.h"
#include "engine/models/effective_attention.h"
#include "engine/models/head_statistics.h"
#include "engine/models/pass_plan.h"
#include "engine/models/token_views.h"
#include "ui/compute/colour_table.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/model_store.h"

namespace attnviz::ui {

namespace {
struct SnapshotText {
    Q_DECLARE_TR_FUNCTIONS(Compute)
};

using Encoded = models::EncodedText;
using Opened = models::OpenedModel;
using Grouping = models::TokenGrouping;

/// The text as the model reads it: text_a (and text_b) encoded, then the continuation the
/// timeline shows (c.generated); `text` gets text_a followed by that continuation.
Encoded encode(const Opened& m, const ComputeConfig& c, QString* text = nullptr) {
    const QByteArray a = c.text_a.toUtf8(), b = c.text_b.toUtf8();
    if (c.text_a.trimmed().isEmpty())
        throw UsageError(SnapshotText::tr("There are no tokens: type a sentence.").toStdString());
    if (text) *text = c.text_a;
    try {
        if (c.pair_mode != PairMode::Single && !c.text_b.trimmed().isEmpty())
            return models::encode_text(m, a.toStdString(), b.toStdString());
        Encoded e = models::encode_text(m, a.toStdString());
        const std::vector<qint64> more = c.shownGenerated();
        if (!more.empty()) {
            const std::string whole = models::continue_encoding(
                m, e, a.toStdString(), std::vector<std::int64_t>(more.begin(), more.end()));
            if (text) *text = QString::fromStdString(whole);
        }
        return e;
    } catch (const models::TextTooLong&) {
        throw;  // the window offers the start that fits
    } catch (const InvalidInput&) {
        throw;  // its code says it in the window's language
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

/// The pair's second text as encode() uses it: empty for a single text.
QString pair_text(const ComputeConfig& c) {
    return c.pair_mode != PairMode::Single && !c.text_b.trimmed().isEmpty() ? c.text_b : QString();
}

/// The tokens the views show: c.words and c.hide_special applied to the encoding.
Grouping shown_tokens(const text::Encoding& encoding, const QString& text_a, const QString& text_b,
                      const ComputeConfig& c, bool window = false) {
    const std::string a = text_a.toUtf8().toStdString(), b = text_b.toUtf8().toStdString();
    try {
        return models::group_tokens(
            encoding, a, text_b.isEmpty() ? std::nullopt : std::optional<std::string_view>(b),
            c.words, c.hide_special);
    } catch (const std::invalid_argument&) {
        throw UsageError(
            (window ? SnapshotText::tr("The window holds special tokens only: with special tokens "
                                       "hidden there is nothing to show. Move the window, or "
                                       "show special tokens.")
                    : SnapshotText::tr("Every token is a special token: with special tokens "
                                       "hidden there is nothing to show."))
                .toStdString());
    }
}

/// The largest of n floats, at least 0, NaN ignored.  Sixteen lanes that the compiler
/// vectorises: one running max is a chain of dependent scalar maxes, which took most of the
/// thumbnails' time.
float largest(const float* x, std::size_t n) {
    float lanes[16] = {};
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int j = 0; j < 16; ++j)
            lanes[j] = x[i + j] > lanes[j] ? x[i + j] : lanes[j];
    for (; i < n; ++i)
        lanes[0] = x[i] > lanes[0] ? x[i] : lanes[0];
    return *std::max_element(lanes, lanes + 16);
}

/// Each head's map coloured from 0 to its own largest weight (a thumbnail shows where a head
/// looks, not how sharply compared with the others); masked cells light grey.  Given the
/// thumbnail of the map's first `kept` rows and columns (`before`, of `before_map`), and when
/// those rows are unchanged and the largest weight is the same, only the new rows are
/// coloured: the image is the one a whole colouring gives, pixel for pixel.
QImage thumbnail(const float* map, int L, bool causal, const ColourTable& colours,
                 const QImage& before = QImage(), const float* before_map = nullptr, int kept = 0) {
    const float hi = largest(map, std::size_t(L) * L);
    int from = 0;
    if (causal && before_map && kept > 0 && kept < L && before.width() == kept &&
        before.height() == kept && before.format() == QImage::Format_RGB32 &&
        largest(before_map, std::size_t(kept) * kept) == hi) {
        bool same = true;  // the earlier rows, up to the diagonal
        for (int i = 0; i < kept && same; ++i)
            same = std::memcmp(before_map + std::size_t(i) * kept, map + std::size_t(i) * L,
                               sizeof(float) * std::size_t(i + 1)) == 0;
        if (same) from = kept;
    }
    QImage image(L, L, QImage::Format_RGB32);
    const QRgb grey = qRgb(236, 236, 236);
    for (int i = 0; i < from; ++i) {  // the rows coloured before, their new columns masked
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
        std::memcpy(line, before.constScanLine(i), sizeof(QRgb) * std::size_t(kept));
        std::fill(line + kept, line + L, grey);
    }
    const double upper = hi > 0.0f ? double(hi) : 1.0;
    std::vector<double> row(static_cast<std::size_t>(L));
    for (int i = from; i < L; ++i) {
        for (int j = 0; j < L; ++j)
            row[std::size_t(j)] = double(map[std::size_t(i) * L + j]);
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
        colours.colorize(row.data(), 0.0, upper, line, L);
        if (causal)
            for (int j = i + 1; j < L; ++j)
                line[j] = grey;
    }
    return image;
}

}  // namespace

void add_thumbnails(ModelMaps* m, const ModelMaps* before) {
    const ColourTable colours(Colormap::Viridis);
    const int G = m->tokens, N = m->num_layers, H = m->num_heads;
    bool reuse = before && before->num_layers == N && before->num_heads == H &&
                 before->tokens < G && before->weights.size() == std::size_t(N) &&
                 before->means.size() == std::size_t(N) &&
                 before->rollout.size() == std::size_t(N) &&
                 before->thumbnails.size() == std::size_t(N) * std::size_t(H) &&
                 before->aggregate_thumbnails.size() == std::size_t(N) * 2;
    const int K = reuse ? before->tokens : 0;
    for (int l = 0; reuse && l < N; ++l) {  // every earlier map K x K
        const auto at = std::size_t(l), KK = std::size_t(K) * std::size_t(K);
        reuse = before->weights[at].numel() == std::size_t(H) * KK &&
                before->means[at].numel() == KK && before->rollout[at].numel() == KK;
    }
    const QImage none;
    // The earlier image of the same head (or aggregate), when reused.
    const auto earlier = [&](std::vector<QImage> ModelMaps::*images,
                             std::size_t k) -> const QImage& {
        return reuse ? ((*before).*images)[k] : none;
    };
    m->thumbnails.clear();
    m->aggregate_thumbnails.clear();
    for (int l = 0; l < N; ++l) {
        const auto at = std::size_t(l);
        const float* w = m->weights[at].ptr();
        const float* w0 = reuse ? before->weights[at].ptr() : nullptr;
        for (int h = 0; h < H; ++h) {  // a head the budget did not keep: no image
            const auto hh = std::size_t(h);
            m->thumbnails.push_back(h < m->heads_kept
                                        ? thumbnail(w + hh * G * G, G, m->causal, colours,
                                                    earlier(&ModelMaps::thumbnails, at * H + hh),
                                                    reuse ? w0 + hh * K * K : nullptr, K)
                                        : QImage());
        }
        for (const auto& [maps, which] :
             {std::pair{&ModelMaps::means, 0}, std::pair{&ModelMaps::rollout, 1}})
            m->aggregate_thumbnails.push_back(
                thumbnail(((*m).*maps)[at].ptr(), G, m->causal, colours,
                          earlier(&ModelMaps::aggregate_thumbnails, 2 * at + std::size_t(which)),
                          reuse ? ((*before).*maps)[at].ptr() : nullptr, K));
    }
}

namespace {

/// The Model tab's whole text when the budget kept only some maps: every measured head's
/// pooled squares (the statistics pass's), the mean over heads of its squares, and the
/// rollout's squares where there are some (`rollout[l]`, empty when the pass had none).  Both
/// poolings, coloured as the kept maps' thumbnails (each cell from 0 to its own largest).
std::shared_ptr<const PooledModel> pooled_model(const models::HeadStatistics& s,
                                                const std::vector<models::PooledMap>& rollout) {
    auto out = std::make_shared<PooledModel>();
    out->pooling = s.pooling;
    out->layers = int(s.layers);
    out->heads = int(s.heads);
    const int C = out->columns(), P = int(s.pooling.cells);
    const auto n = std::size_t(P) * std::size_t(P);
    const ColourTable colours(Colormap::Viridis);
    out->has_rollout.assign(std::size_t(out->layers), 0);
    for (int which = 0; which < 2; ++which) {
        std::vector<float>& v = out->values[which];
        v.assign(std::size_t(out->layers * C) * n, 0.0f);
        for (int l = 0; l < out->layers; ++l) {
            float* mean = v.data() + (std::size_t(l) * C + std::size_t(out->heads)) * n;
            for (int h = 0; h < out->heads; ++h) {
                const float* squares = which == int(ModelThumbnails::WholeMax)
                                           ? s.pooled_max_of(l, h)
                                           : s.pooled_mean_of(l, h);
                std::copy_n(squares, n, v.data() + (std::size_t(l) * C + std::size_t(h)) * n);
                for (std::size_t k = 0; k < n; ++k)
                    mean[k] += squares[k] / float(out->heads);
            }
            if (std::size_t(l) < rollout.size() && !rollout[std::size_t(l)].mean.empty()) {
                const models::PooledMap& r = rollout[std::size_t(l)];
                std::copy_n((which == int(ModelThumbnails::WholeMax) ? r.max : r.mean).data(), n,
                            v.data() + (std::size_t(l) * C + std::size_t(C - 1)) * n);
                out->has_rollout[std::size_t(l)] = 1;
            }
            for (int c = 0; c < C; ++c)
                out->thumbnails[which].push_back(
                    c == C - 1 && !out->has_rollout[std::size_t(l)]
                        ? QImage()
                        : thumbnail(out->squares(ModelThumbnails(which), l, c), P, s.causal,
                                    colours));
        }
    }
    return out;
}

/// Whether a pass keeping `layers` of N layers, `heads` of H heads' maps and `window` of L
/// pieces gives the Model tab the whole text pooled: when some maps are not kept, of a text
/// longer than the squares (a shorter one's maps are smaller than their pooling's images, and
/// never over a budget but in tests of it).
bool shows_whole_text(int layers, int N, int heads, int H, std::int64_t window, std::int64_t L) {
    return L > models::kPooledCells && (layers < N || heads < H || window < L);
}

/// Bytes pooled_model() keeps for a model of `layers` × `heads` over L pieces: two poolings'
/// squares and their images.
double pooled_model_bytes(std::int64_t layers, std::int64_t heads, std::int64_t L) {
    const double cells =
        double(models::Pooling(std::max<std::int64_t>(L, 1), models::kPooledCells).cells);
    return 2.0 * double(layers * (heads + 2)) * cells * cells * (sizeof(float) + 4.0);
}

/// Measures every head of each kept layer from its attention rows as the pass computes them
/// (the statistics pass's reduction: the atlas is whole whatever is kept, and no layer's full
/// maps need exist), and keeps what the pass's scope hands over: the first `heads` heads'
/// maps and the mean, of the window's rows and columns.  With a window, or maps that are not
/// the weights (norm-based), the rollout runs along, over every piece, from the mean of the
/// weights' rows; only its window is kept.
class KeepingSink : public models::HeadStatisticsSink {
  public:
    /// `measured` layers hand their rows (the kept `layers`, or every layer when the Model
    /// tab shows the whole text pooled); `layers` hand their maps.
    KeepingSink(int heads, int num_heads, int layers, int measured, bool causal,
                budget::AxisWindow window, std::int64_t pieces, bool norm_based = false)
        : HeadStatisticsSink(measured, num_heads, pieces, causal),
          heads_(heads),
          num_heads_(num_heads),
          layers_(layers),
          pieces_(pieces),
          causal_(causal),
          window_(window),
          windowed_(window.count < pieces),
          own_rollout_(windowed_ || norm_based) {}
    /// Whether `rollout` holds the rollout (else it is the kept means').
    bool ownsRollout() const { return own_rollout_; }
    /// Also keeps the residual stream after layer `layers` (what the head reads).
    void keepFinalStream(std::int64_t layers) { final_layer_ = layers; }
    bool wants_residuals() const override { return final_layer_ >= 0; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        if (layer == final_layer_) final_stream = x;
    }
    void begin_rows(std::int64_t layer, std::size_t slot_count) override {
        HeadStatisticsSink::begin_rows(layer, slot_count);
        if (own_rollout_) {
            full_mean_ = take_tensor({pieces_, pieces_});
            std::fill(full_mean_.data.begin(), full_mean_.data.end(), 0.0f);
        }
    }
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) override {
        HeadStatisticsSink::on_rows(layer, slot, b);
        if (!own_rollout_) return;  // the pass's own mean is the whole map
        // A block's rows belong to one slot with every head: no two threads add to a row.
        const float inv = 1.0f / float(num_heads_);
        // Each row's valid weights: the rest (a causal tail) adds 0 to the mean.
        for (std::int64_t r = 0; r < b.rows; ++r) {
            float* mean = full_mean_.ptr() + (b.first_row + r) * pieces_;
            for (std::int64_t j = 0; j < b.valid(r); ++j)
                mean[j] += b.row(r)[j] * inv;
        }
    }
    void end_rows(std::int64_t layer) override {
        HeadStatisticsSink::end_rows(layer);
        if (!own_rollout_) return;
        const Tensor& through = rollout_.add(full_mean_);
        if (layer < layers_)
            rollout.push_back(models::crop_maps(through, window_.begin, window_.count));
        if (windowed_) pooled_rollout.push_back(models::pool_map(through.ptr(), pieces_, causal_));
        release_buffer(full_mean_);
    }
    void on_layer(std::int64_t, AttentionResult&& r) override {
        const std::int64_t W = window_.count;
        if (r.mean_weights.numel() != std::size_t(W * W) ||
            r.weights.numel() != std::size_t(heads_ * W * W))
            throw std::logic_error("a layer returned maps of the wrong size");
        weights.push_back(Tensor({heads_, W, W}, std::move(r.weights.data)));
        means.push_back(Tensor({W, W}, std::move(r.mean_weights.data)));
    }
    /// A layer of maps read from a file, [H, L, L] with its mean [L, L]: measured row by row,
    /// then cropped to the kept heads and window as the pass's scope would hand them over.
    void addLayer(std::int64_t layer, Tensor& full, Tensor& mean) {
        add_layer(layer, full.ptr());
        AttentionResult r;
        r.weights = models::crop_maps(full, window_.begin, window_.count);
        r.weights.data.resize(std::size_t(heads_ * window_.count * window_.count));
        r.mean_weights = models::crop_maps(mean, window_.begin, window_.count);
        release_buffer(full);
        release_buffer(mean);
        on_layer(layer, std::move(r));
    }

    std::vector<Tensor> weights, means;  ///< per layer [heads, W, W] and [W, W]
    std::vector<Tensor> rollout;         ///< per layer [W, W], when ownsRollout()
    /// With a window, per measured layer: the rollout over every piece, pooled.
    std::vector<models::PooledMap> pooled_rollout;
    Tensor final_stream;  ///< with keepFinalStream()

  private:
    std::int64_t final_layer_ = -1;
    std::int64_t heads_, num_heads_, layers_, pieces_;
    bool causal_;
    budget::AxisWindow window_;
    bool windowed_, own_rollout_;
    Tensor full_mean_;  ///< the layer's mean weights over every piece (ownsRollout())
    models::RolloutAccumulator rollout_;
};

/// What a pass's sink measured and kept, after its maps (out->weights, out->means): the
/// atlas, the rollout, the thumbnails and, with `whole` (some maps not kept), the whole text
/// pooled for the Model tab.
void keep_statistics(ModelMaps* out, KeepingSink& sink, bool whole) {
    const models::HeadStatistics stats = sink.take();
    out->atlas = stats.atlas;
    out->rollout =
        sink.ownsRollout() ? std::move(sink.rollout) : models::attention_rollout(out->means);
    add_thumbnails(out);
    if (!whole) return;
    std::vector<models::PooledMap> rollout = std::move(sink.pooled_rollout);
    if (!out->windowed())  // the kept layers' rollout is over every piece
        for (const Tensor& r : out->rollout)
            rollout.push_back(models::pool_map(r.ptr(), out->pieces, out->causal));
    out->pooled = pooled_model(stats, rollout);
}

/// The interventions of the knocked-out heads; UsageError for a head the model lacks (a
/// session written for another model).
std::vector<models::HeadIntervention> knock_outs(const ComputeConfig& c,
                                                 const models::ModelInfo& info) {
    std::vector<models::HeadRef> zero, mean;
    for (const auto& [head, how] : c.knocked_out) {
        if (head.first >= info.num_layers || head.second >= info.num_heads)
            throw UsageError(SnapshotText::tr("Layer %1, head %2 is knocked out, but %3 has %4 "
                                              "layers of %5 heads: restore it.")
                                 .arg(head.first + 1)
                                 .arg(head.second + 1)
                                 .arg(QString::fromStdString(info.display_name))
                                 .arg(info.num_layers)
                                 .arg(info.num_heads)
                                 .toStdString());
        (how == KnockOut::Mean ? mean : zero).push_back({head.first, head.second});
    }
    auto out = models::ablations(zero, models::HeadIntervention::Kind::Zero);
    for (auto& m : models::ablations(mean, models::HeadIntervention::Kind::Mean))
        out.push_back(std::move(m));
    return out;
}

/// What a model's pass over L pieces with `options` needs for scope `s`.  Kept: the kept
/// layers' maps of the kept heads (the window's rows and columns) and their thumbnails, one
/// layer's panels drawn; with fewer heads or a window, one layer's every map while its heads
/// are measured, and with a window the rollout running over every piece; and a model too big
/// to keep in float32 streams its weights, a layer's buffer at a time.  Norm-based maps
/// (`norm`) need every head's weights of a kept layer, its values and their Gram matrices.
std::uint64_t pass_footprint(const models::Model& model, const models::ModelForwardOptions& options,
                             const budget::ResultScope& s, std::int64_t L, bool norm = false) {
    const int H = int(model.info().num_heads), N = int(model.info().num_layers);
    models::ModelForwardOptions o = options;
    o.scope = models::attention_scope(s, models::every_layer(N), H, L);
    if (norm) o = models::EffectiveAttentionSink::pass_options(o);
    const int k = s.kept_heads(H);
    const budget::AxisWindow w = budget::window_on(s, L);
    const double cells = double(w.count) * double(w.count), full = double(L * L);
    const double maps = double(o.scope.layers.size()) * double(k + 1) * cells;
    // Heads are measured from their rows (models::HeadStatisticsSink): per thread a block.
    const double measured = double(models::statistics_bytes(model.info(), L, false, o.num_threads));
    const double rollout = w.count < L || norm ? 4.0 * full * sizeof(float) : 0.0;
    // Not every map kept: the Model tab shows every layer and head of the whole text pooled.
    const double whole = shows_whole_text(int(o.scope.layers.size()), N, k, H, w.count, L)
                             ? pooled_model_bytes(N, H, L)
                             : 0.0;
    const models::ModelInfo& info = model.info();
    const double effective =
        norm ? double(L) * (double(H * H) * sizeof(double) +
                            double(info.num_kv_heads * info.head_dim) * sizeof(float)) +
                   cells * double(k + 1) * sizeof(float)
             : 0.0;
    return std::uint64_t(double(model.estimate_forward_bytes(L, o)) + maps * 8.0 + measured +
                         rollout + whole + effective +
                         double(k + 1) * cells * kDisplayBytesPerCell +
                         double(kDisplayFixedBytes)) +
           model.streaming_weight_bytes();
}

/// What the window's pass of L pieces records of itself (ModelPass::stream) with `room` bytes
/// of the budget left: the attention too for a causal language model (Who Writes reads it),
/// the stream alone when only that fits (the why pane reads it), or nothing: a post-norm
/// model's stream is no sum of its blocks' outputs.  A small share of the pass: it copies what
/// the pass computes anyway.
std::optional<models::RecordedParts> recorded_parts(const models::Model& model, std::int64_t L,
                                                    std::uint64_t room) {
    if (!model.info().pre_norm) return std::nullopt;
    const auto fits = [&](models::RecordedParts parts) {
        const std::size_t bytes = models::stream_record_bytes(model.config(), L, parts);
        return bytes <= kMaxStreamRecordBytes && bytes <= room;
    };
    if (model.lm_head() == models::LmHeadKind::Causal &&
        fits(models::RecordedParts::StreamAndAttention))
        return models::RecordedParts::StreamAndAttention;
    if (fits(models::RecordedParts::Stream)) return models::RecordedParts::Stream;
    return std::nullopt;
}

/// Why a model's predictions are not shown, or empty when they are.
QString predictions_missing(const models::Model& model, std::int64_t pieces) {
    if (model.lm_head() == models::LmHeadKind::None)
        return QString::fromStdString(model.lm_head_missing());
    if (pieces > ModelPredictions::kMaxPieces)
        return SnapshotText::tr(
                   "Predictions are shown for texts of up to %1 tokens; this one "
                   "has %2.")
            .arg(ModelPredictions::kMaxPieces)
            .arg(pieces);
    return {};
}

/// The window's pieces of a text of `text_pieces` pieces, shown as they are (present_model
/// groups them).
void show_window(ModelMaps* out, const budget::AxisWindow& window, std::int64_t text_pieces) {
    out->pieces = out->tokens = int(window.count);
    out->first_piece = out->first_token = int(window.begin);
    out->text_pieces = out->text_tokens = int(text_pieces);
}

/// What run_model and extend_model say alike of the model and of the text `enc` encodes
/// (text_a: the text with its continuation), with the window's pieces.
void describe_text(ModelMaps* out, const Opened& m, const Encoded& enc, const ComputeConfig& c,
                   const QString& text_a, const budget::AxisWindow& window) {
    const models::ModelInfo& info = m.model->info();
    out->name = model_display_name(m);
    out->folder = c.model_folder;
    out->total_layers = int(info.num_layers);
    out->num_heads = int(info.num_heads);
    out->num_kv_heads = int(info.num_kv_heads);
    show_window(out, window, std::int64_t(enc.input.ids.size()));
    out->causal = info.causal;
    out->encoding = enc.encoding;
    out->text_a = text_a;
    out->text_b = pair_text(c);
    out->generated_pieces = int(c.shownGenerated().size());
    if (const auto unk = m.tokenizer.unk_id())
        for (std::size_t k = 0; k < enc.encoding.size(); ++k)
            if (enc.encoding.ids[k] == *unk && !enc.encoding.special[k])
                out->unknown_chars +=
                    int(enc.encoding.offsets[k].second - enc.encoding.offsets[k].first);
    for (const QString& t : {out->text_a, out->text_b})
        for (const char32_t ch : t.toUcs4())
            out->text_chars += !QChar::isSpace(ch);
    for (auto k = std::size_t(window.begin); k < std::size_t(window.begin + window.count); ++k) {
        out->token_text.push_back(QString::fromStdString(enc.encoding.text[k]));
        out->special.push_back(enc.encoding.special[k]);
        out->sequence.push_back(enc.encoding.sequence.empty() ? 0 : enc.encoding.sequence[k]);
    }
    out->knocked_out = c.knocked_out;
}

/// The atlas's induction scores (per head of every layer, layer * H + head) and its labels.
void label_atlas(ModelMaps* out, const std::vector<double>& scores) {
    const auto H = std::size_t(out->num_heads);
    for (std::int64_t l = 0; l < out->atlas.layers(); ++l)  // every measured layer
        for (std::size_t h = 0; h < H; ++h)
            out->atlas.at(l, std::int64_t(h)).induction = scores[std::size_t(l) * H + h];
    models::label_heads(&out->atlas);
}

/// The head's predictions over a pass's final residual stream: every position of a causal
/// model, each [MASK] / <mask> of a masked one.
std::shared_ptr<const ModelPredictions> predictions_of(const Opened& m, const Tensor& final,
                                                       const std::vector<std::int64_t>& ids,
                                                       int threads) {
    const models::Model& model = *m.model;
    auto out = std::make_shared<ModelPredictions>();
    out->causal = model.lm_head() == models::LmHeadKind::Causal;
    std::vector<std::int64_t> rows;
    if (!out->causal) {
        std::optional<std::int64_t> mask = m.tokenizer.token_to_id("[MASK]");
        if (!mask) mask = m.tokenizer.token_to_id("<mask>");
        for (std::size_t t = 0; t < ids.size(); ++t)
            if (mask && ids[t] == *mask) rows.push_back(std::int64_t(t));
        if (rows.empty()) return out;  // nothing to fill in
    }
    models::RowPredictions r =
        models::predict_rows(model, final, ids, rows, ModelPredictions::kTop, threads);
    for (const std::int64_t p : r.rows)
        out->positions.push_back(int(p));
    for (const auto& row : r.top) {
        std::vector<QString> text;
        for (const models::TokenScore& t : row)
            text.push_back(token_label(m.tokenizer, t.id));
        out->top_text.push_back(std::move(text));
    }
    out->top = std::move(r.top);
    out->next_logprob = std::move(r.next_logprob);
    out->loss = r.loss;
    return out;
}

}  // namespace

models::EncodedText encode_model_text(const models::OpenedModel& model,
                                      const ComputeConfig& config) {
    return encode(model, config);
}

QString model_text(const models::OpenedModel& model, const ComputeConfig& config) {
    QString text;
    encode(model, config, &text);
    return text;
}

std::vector<models::HeadIntervention> model_knock_outs(const ComputeConfig& config,
                                                       const models::ModelInfo& info) {
    return knock_outs(config, info);
}

QString token_label(const text::HfTokenizer& tokenizer, std::int64_t id) {
    QString s = QString::fromStdString(tokenizer.decode({id}));
    if (s.isEmpty() || s.contains(QChar::ReplacementCharacter))
        s = QString::fromStdString(tokenizer.id_to_token(id));
    return s.isEmpty() ? QStringLiteral("<id %1>").arg(id) : s;
}

std::shared_ptr<const ModelMaps> run_model(const ComputeConfig& c, int num_threads,
                                           const budget::MemoryBudget& memory,
                                           std::vector<double>* induction,
                                           const PassControl* control, IntactPredictions* intact) {
    const auto start = std::chrono::steady_clock::now();
    const ModelPtr m = open_model(c.model_folder);
    QString text_a;
    const models::EncodedText enc = encode(*m, c, &text_a);
    const models::Model& model = *m->model;
    const models::ModelInfo& info = model.info();
    const auto L = std::int64_t(enc.input.ids.size());

    models::ModelForwardOptions options;
    options.num_threads = std::max(1, num_threads);
    if (control) options.control = *control;
    options.interventions = knock_outs(c, info);
    const int N = int(info.num_layers);
    const int H = int(info.num_heads);
    // A model too big to keep in float32 streams its weights: a layer's buffer counts.
    const bool norm = c.attention == AttentionShown::NormBased;
    const auto footprint = [&](const budget::ResultScope& s) {
        return pass_footprint(model, options, s, L, norm);
    };
    const budget::ResultScope requested = c.scope();
    // Over the budget: fewer layers, fewer heads of each, a window, or the means.
    const models::PassPlan plan = models::plan_pass(model, footprint, requested, L, memory,
                                                    kMaxOfferedWindow, models::every_layer(N));
    const std::uint64_t needed = plan.memory.needed;
    const budget::AxisWindow window = budget::window_on(requested, L);
    options.scope = models::attention_scope(requested, models::every_layer(N), H, L);
    options.weight_cache_bytes = plan.weight_cache_bytes();
    if (int(options.scope.layers.size()) == N) options.scope.layers.clear();  // every layer

    const int heads_kept = requested.kept_heads(H);
    const int layers_kept = options.scope.layers.empty() ? N : int(options.scope.layers.size());
    // Some maps not kept: every layer's rows are measured, for the atlas and the Model tab's
    // whole text.
    const bool whole = shows_whole_text(layers_kept, N, heads_kept, H, window.count, L);
    options.scope.rows_every_layer = whole;
    KeepingSink sink(heads_kept, H, layers_kept, whole ? N : layers_kept, info.causal, window, L,
                     norm);
    const QString no_predictions = predictions_missing(model, L);
    if (no_predictions.isEmpty()) sink.keepFinalStream(N);
    std::shared_ptr<const models::StreamRecord> stream;
    // The kept maps made norm-based as the pass hands them over.
    std::optional<models::EffectiveAttentionSink> effective;
    if (norm) effective.emplace(model, sink, options.scope, options.num_threads);
    models::AttentionSink& viewer = norm ? static_cast<models::AttentionSink&>(*effective) : sink;
    const models::ModelForwardOptions pass =
        norm ? models::EffectiveAttentionSink::pass_options(options) : options;
    // The budget's room after the pass and its weights, as plan_pass counts them.
    const std::uint64_t used = needed -
                               std::min<std::uint64_t>(needed, model.streaming_weight_bytes()) +
                               plan.weights.resident();
    if (const auto parts = recorded_parts(model, L, memory.bytes - std::min(used, memory.bytes))) {
        models::StreamRecorder recorder(model.config(), enc.input, pass, *parts, &viewer);
        model.forward(enc.input, pass, recorder);
        stream = std::make_shared<const models::StreamRecord>(recorder.take());
    } else {
        model.forward(enc.input, pass, viewer);
    }
    auto out = std::make_shared<ModelMaps>();
    out->stream = std::move(stream);
    describe_text(out.get(), *m, enc, c, text_a, window);
    out->num_layers = layers_kept;
    out->heads_kept = heads_kept;
    out->norm_based = norm;
    out->estimated_bytes = needed;
    out->budget_bytes = memory.bytes;
    out->no_predictions = no_predictions;
    if (no_predictions.isEmpty()) {
        out->predictions =
            predictions_of(*m, sink.final_stream, enc.input.ids, options.num_threads);
        sink.final_stream = Tensor();
        const auto same_input = [&](const IntactPredictions& k) {
            return k.predictions && k.folder == c.model_folder && k.input.ids == enc.input.ids &&
                   k.input.token_type_ids == enc.input.token_type_ids;
        };
        if (c.knocked_out.empty()) {
            if (intact) *intact = {c.model_folder, enc.input, out->predictions};
        } else if (intact && same_input(*intact)) {
            out->intact_predictions = intact->predictions;
        } else {  // the intact model on the same text: "before → after"
            models::ModelForwardOptions plain;
            plain.attention = false;
            plain.num_threads = options.num_threads;
            plain.control = options.control;
            models::FinalStreamSink final(N);
            model.forward(enc.input, plain, final);
            out->intact_predictions =
                predictions_of(*m, final.final, enc.input.ids, options.num_threads);
            if (intact) *intact = {c.model_folder, enc.input, out->intact_predictions};
        }
    }
    out->weights = std::move(sink.weights);
    out->means = std::move(sink.means);
    if (int(out->weights.size()) != out->num_layers)
        throw std::logic_error("the model did not hand over every layer");
    // Heads are measured on the pieces the model saw; present_model() groups the views.
    keep_statistics(out.get(), sink, whole);
    std::vector<double> own;
    std::vector<double>& scores = induction ? *induction : own;
    if (scores.size() != std::size_t(N) * std::size_t(H)) {
        models::HeadAtlas probe(N, H);
        const auto bos = m->tokenizer.bos_id();
        models::add_induction_scores(model, bos ? *bos : -1, &probe, 50, 0, options.num_threads);
        scores.clear();
        for (int l = 0; l < N; ++l)
            for (int h = 0; h < H; ++h)
                scores.push_back(probe.at(l, h).induction);
    }
    label_atlas(out.get(), scores);
    out->elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

std::shared_ptr<const ModelMaps> extend_model(const ModelMaps& before, const ComputeConfig& c,
                                              const std::vector<FedToken>& fed,
                                              const budget::MemoryBudget& memory,
                                              const std::vector<double>& induction) {
    const auto start = std::chrono::steady_clock::now();
    const ModelPtr m = open_model(c.model_folder);
    const models::Model& model = *m->model;
    const models::ModelInfo& info = model.info();
    QString text_a;
    const models::EncodedText enc = encode(*m, c, &text_a);
    const auto L = std::int64_t(enc.input.ids.size());
    const auto L0 = std::int64_t(before.text_pieces);
    const int N = before.num_layers, H = int(info.num_heads);
    const std::vector<std::int64_t>& old_ids = before.encoding.ids;
    // Only the whole text's maps of every head grow by rows: the atlas measures every head.
    // The writer's rows are weights: norm-based maps need the pass's values.
    if (before.folder != c.model_folder || before.windowed() || before.heads_kept != H ||
        !before.causal || !c.knocked_out.empty() || before.norm_based ||
        c.attention != AttentionShown::Weights || fed.empty() ||
        L != L0 + std::int64_t(fed.size()) || std::int64_t(old_ids.size()) != L0 ||
        !std::equal(old_ids.begin(), old_ids.end(), enc.input.ids.begin()) ||
        induction.size() != std::size_t(info.num_layers) * std::size_t(H))
        return nullptr;
    for (std::size_t k = 0; k < fed.size(); ++k)
        if (fed[k].id != enc.input.ids[std::size_t(L0) + k] ||
            fed[k].attention.shape != Shape{info.num_layers, H, L0 + std::int64_t(k) + 1})
            return nullptr;
    // What the whole pass would need: over the budget, that pass refuses with what fits.
    const budget::ResultScope scope = c.scope();
    const std::uint64_t needed = pass_footprint(model, models::ModelForwardOptions{}, scope, L);
    if (needed > memory.bytes || budget::window_on(scope, L).count < L) return nullptr;

    auto out = std::make_shared<ModelMaps>();
    describe_text(out.get(), *m, enc, c, text_a, budget::window_on(scope, L));
    out->num_layers = N;
    out->heads_kept = H;
    out->estimated_bytes = needed;
    out->budget_bytes = memory.bytes;
    out->provisional = true;
    const auto rows = std::size_t(L0), cols = std::size_t(L);
    const float inv_h = 1.0f / float(H);  // as the engine's mean over heads
    for (int l = 0; l < N; ++l) {
        Tensor w = take_tensor({H, L, L}), mean = take_tensor({L, L});
        std::fill(w.data.begin(), w.data.end(), 0.0f);
        std::fill(mean.data.begin(), mean.data.end(), 0.0f);
        const float* old_w = before.weights[std::size_t(l)].ptr();
        const float* old_mean = before.means[std::size_t(l)].ptr();
        for (std::size_t i = 0; i < rows; ++i) {
            for (std::size_t h = 0; h < std::size_t(H); ++h)
                std::copy_n(old_w + (h * rows + i) * rows, rows, w.ptr() + (h * cols + i) * cols);
            std::copy_n(old_mean + i * rows, rows, mean.ptr() + i * cols);
        }
        for (std::size_t k = 0; k < fed.size(); ++k) {
            const std::size_t q = rows + k;
            float* mean_row = mean.ptr() + q * cols;
            for (std::size_t h = 0; h < std::size_t(H); ++h) {
                const float* row = fed[k].attention.ptr() + (std::size_t(l) * H + h) * (q + 1);
                std::copy_n(row, q + 1, w.ptr() + (h * cols + q) * cols);
                for (std::size_t j = 0; j <= q; ++j)
                    mean_row[j] += row[j];
            }
            for (std::size_t j = 0; j <= q; ++j)
                mean_row[j] *= inv_h;
        }
        out->weights.push_back(std::move(w));
        out->means.push_back(std::move(mean));
    }
    out->atlas = models::measure_heads(out->weights, true);  // as the pass measures them
    label_atlas(out.get(), induction);
    out->rollout = models::attention_rollout(out->means);
    add_thumbnails(out.get(), &before);
    out->no_predictions = predictions_missing(model, L);
    if (out->no_predictions.isEmpty() && before.predictions && before.predictions->causal) {
        // Each new token brings the prediction at the position before it: the newest
        // position's waits for the next token (or for the full pass once the writer stops).
        auto p = std::make_shared<ModelPredictions>(*before.predictions);
        for (std::size_t k = 0; k < fed.size(); ++k) {
            const int q = int(L0) + int(k);
            if (p->next_logprob.size() != std::size_t(q - 1)) return nullptr;
            p->next_logprob.push_back(fed[k].logprob);
            if (!p->positions.empty() && p->positions.back() >= q - 1) continue;
            p->positions.push_back(q - 1);
            p->top.push_back(fed[k].top);
            std::vector<QString> text;
            for (const models::TokenScore& t : fed[k].top)
                text.push_back(token_label(m->tokenizer, t.id));
            p->top_text.push_back(std::move(text));
        }
        p->loss = models::mean_loss(p->next_logprob);
        out->predictions = std::move(p);
    }
    out->elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

QString maps_tokens_file(const ComputeConfig& c) {
    if (!c.tokens_file.isEmpty()) return c.tokens_file;
    const std::string beside = io::tokens_beside(QFile::encodeName(c.model_folder).toStdString());
    if (beside.empty())
        throw DataError(SnapshotText::tr("%1: no tokens file was given and there is no tokens.json "
                                         "beside it")
                            .arg(c.model_folder)
                            .toStdString());
    return QFile::decodeName(QByteArray::fromStdString(beside));
}

namespace {

/// Maps read from a file, [N layers, H heads, L, L]: what run_maps keeps of them for a scope,
/// as a model's pass would (run_model), without the pass.
struct MapsShape {
    int N = 0, H = 0;
    std::int64_t L = 0;

    int keptLayers(const budget::ResultScope& s) const {
        return s.layers_shown > 0 ? std::min(s.layers_shown, N) : N;
    }
    int keptHeads(const budget::ResultScope& s) const { return s.kept_heads(H); }
    /// What a model's pass keeps (run_model), without the pass: the kept layers' maps of the
    /// kept heads, the mean and rollout, their thumbnails and one layer's panels drawn, plus
    /// the one layer read from the file at a time (every head, every token) and a window's
    /// rollout.
    std::uint64_t footprint(const budget::ResultScope& s) const {
        const budget::AxisWindow w = budget::window_on(s, L);
        const double cells = double(w.count) * double(w.count), full = double(L) * double(L);
        const int k = keptHeads(s);
        const double maps = double(keptLayers(s)) * double(k + 2) * cells;
        const double read = 2.0 * double(H + 1) * full * sizeof(float);
        const double rollout = w.count < L ? 3.0 * full * sizeof(float) : 0.0;
        const double whole = shows_whole_text(keptLayers(s), N, k, H, w.count, L)
                                 ? pooled_model_bytes(N, H, L)
                                 : 0.0;
        return std::uint64_t(maps * 8.0 + read + rollout + whole +
                             double(k + 1) * cells * kDisplayBytesPerCell +
                             double(kDisplayFixedBytes));
    }
};

/// What run_maps reads and keeps for the requested scope.
struct MapsPlan {
    int layers = 0, heads_kept = 0;  ///< the kept layers (the first ones) and heads
    /// Some maps not kept: every layer is read and measured, one at a time, for the Atlas and
    /// the Model tab's whole text; the kept layers' maps are kept.
    bool whole = false;
    int measured = 0;  ///< the layers read and measured
    budget::AxisWindow window;
};

MapsPlan plan_maps(const MapsShape& shape, const budget::ResultScope& requested) {
    MapsPlan p;
    p.window = budget::window_on(requested, shape.L);
    p.layers = shape.keptLayers(requested);
    p.heads_kept = shape.keptHeads(requested);
    p.whole = shows_whole_text(p.layers, shape.N, p.heads_kept, shape.H, p.window.count, shape.L);
    p.measured = p.whole ? shape.N : p.layers;
    return p;
}

/// The bytes run_maps needs for `requested`; MemoryBudgetExceeded, with what fits, before
/// any layer is read when that is over `memory`.
std::uint64_t maps_bytes_within(const MapsShape& shape, const budget::ResultScope& requested,
                                const budget::MemoryBudget& memory) {
    const auto footprint = [&shape](const budget::ResultScope& s) { return shape.footprint(s); };
    const std::uint64_t needed = footprint(requested);
    if (needed > memory.bytes) {
        std::vector<std::int64_t> every(static_cast<std::size_t>(shape.N));
        for (std::size_t l = 0; l < every.size(); ++l)
            every[l] = std::int64_t(l);
        throw budget::MemoryBudgetExceeded(
            budget::plan_memory(footprint, requested, shape.H, shape.L, memory.bytes,
                                kMaxOfferedWindow, every),
            memory);
    }
    return needed;
}

/// Reads plan.measured layers of `arrays` one at a time into `sink` (made on the first
/// layer), which measures each and keeps the kept layers' maps with their mean.  Maps read
/// from a file say nothing of a mask: `scan` takes a first layer with nothing above the
/// diagonal in any head for a causal model's (the atlas measures its rows over the keys they
/// see), and finds the rows that do not sum to 1.
void read_layers(const io::AttentionArrays& arrays, const MapsShape& shape, const MapsPlan& plan,
                 const PassControl* control, io::AttentionScan& scan,
                 std::optional<KeepingSink>& sink) {
    const int H = shape.H;
    const std::int64_t L = shape.L;
    for (int l = 0; l < plan.measured; ++l) {
        if (control && control->stopped()) throw Cancelled();
        AttentionResult r;
        r.weights = take_tensor({1, std::int64_t(H), L, L});
        arrays.read_layer(l, r.weights.ptr());
        scan.add(l, r.weights.ptr(), H, L);
        if (!sink)
            sink.emplace(plan.heads_kept, H, plan.layers, plan.measured, scan.causal(), plan.window,
                         L);
        if (l >= plan.layers) {
            sink->add_layer(l, r.weights.ptr());
            release_buffer(r.weights);
            if (control) control->report(l + 1, plan.measured);
            continue;
        }
        r.mean_weights = take_tensor({1, L, L});
        float* mean = r.mean_weights.ptr();
        std::fill_n(mean, std::size_t(L * L), 0.0f);
        for (int h = 0; h < H; ++h)
            for (std::size_t k = 0; k < std::size_t(L * L); ++k)
                mean[k] += r.weights.data[std::size_t(h) * std::size_t(L * L) + k];
        for (std::size_t k = 0; k < std::size_t(L * L); ++k)
            mean[k] /= float(H);
        sink->addLayer(l, r.weights, r.mean_weights);
        if (control) control->report(l + 1, plan.measured);
    }
}

/// With offsets into the input, or special tokens marked, the words and hidden special
/// tokens views group the file's pieces as they group a model's (present_model): their
/// encoding and text.  DataError for offsets past the input's end.
void encode_maps_tokens(ModelMaps* out, const io::AttentionTokens& tokens,
                        const QString& tokens_path) {
    if ((tokens.offsets.empty() || tokens.input.empty()) && tokens.special.empty()) return;
    text::Encoding& e = out->encoding;
    const std::size_t n = tokens.size();
    e.ids = tokens.ids.empty() ? std::vector<std::int64_t>(n, 0) : tokens.ids;
    e.tokens = e.text = tokens.text;
    e.offsets = tokens.input.empty() || tokens.offsets.empty()
                    ? std::vector<std::pair<std::int64_t, std::int64_t>>(n, {0, 0})
                    : tokens.offsets;
    e.special = tokens.special.empty() ? std::vector<std::uint8_t>(n, 0) : tokens.special;
    e.type_ids.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k)
        e.sequence.push_back(e.special[k] ? -1 : 0);
    out->text_a = QString::fromStdString(tokens.input);
    const auto chars = std::int64_t(out->text_a.toUcs4().size());
    for (std::size_t k = 0; k < n; ++k)
        if (e.offsets[k].second > chars)
            throw DataError(SnapshotText::tr("%1: token %2's offsets [%3, %4] are past the end "
                                             "of \"input\" (%5 characters)")
                                .arg(tokens_path)
                                .arg(k + 1)
                                .arg(e.offsets[k].first)
                                .arg(e.offsets[k].second)
                                .arg(chars)
                                .toStdString());
}

}  // namespace

std::shared_ptr<const ModelMaps> run_maps(const ComputeConfig& c,
                                          const budget::MemoryBudget& memory,
                                          const PassControl* control) {
    const auto start = std::chrono::steady_clock::now();
    const io::AttentionArrays arrays =
        io::AttentionArrays::open(QFile::encodeName(c.model_folder).toStdString());
    const QString tokens_path = maps_tokens_file(c);
    const io::AttentionTokens tokens =
        io::read_attention_tokens(QFile::encodeName(tokens_path).toStdString());
    io::check_tokens(arrays, tokens, QFile::encodeName(tokens_path).toStdString());
    const MapsShape shape{int(arrays.layers()), int(arrays.heads()), arrays.length()};
    const budget::ResultScope requested = c.scope();
    const std::uint64_t needed = maps_bytes_within(shape, requested, memory);
    const MapsPlan plan = plan_maps(shape, requested);
    io::AttentionScan scan;
    std::optional<KeepingSink> sink;
    read_layers(arrays, shape, plan, control, scan, sink);

    auto out = std::make_shared<ModelMaps>();
    out->name = QFileInfo(c.model_folder).fileName();
    out->folder = c.model_folder;
    out->total_layers = shape.N;
    out->num_layers = plan.layers;
    out->num_heads = shape.H;
    out->heads_kept = plan.heads_kept;
    show_window(out.get(), plan.window, shape.L);
    out->estimated_bytes = needed;
    out->budget_bytes = memory.bytes;
    out->causal = scan.causal();
    out->no_predictions = SnapshotText::tr(
        "Predictions and knocked-out heads need the model itself: maps read "
        "from a file hold only its attention.");
    out->warning = QString::fromStdString(scan.warning(arrays.path()));
    for (auto k = std::size_t(plan.window.begin);
         k < std::size_t(plan.window.begin + plan.window.count); ++k) {
        out->token_text.push_back(QString::fromStdString(tokens.text[k]));
        out->special.push_back(tokens.special.empty() ? 0 : tokens.special[k]);
        out->sequence.push_back(out->special.back() ? -1 : 0);
    }
    encode_maps_tokens(out.get(), tokens, tokens_path);
    out->weights = std::move(sink->weights);
    out->means = std::move(sink->means);
    keep_statistics(out.get(), *sink, plan.whole);
    out->elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

std::shared_ptr<const ModelMaps> present_model(std::shared_ptr<const ModelMaps> pieces,
                                               const ComputeConfig& c) {
    // The window's pieces grouped; where the window begins among the whole text's tokens.
    std::optional<text::Encoding> sliced;
    if (pieces->windowed())
        sliced = models::slice_encoding(pieces->encoding, std::size_t(pieces->first_piece),
                                        std::size_t(pieces->pieces));
    const text::Encoding& in_window = sliced ? *sliced : pieces->encoding;
    const Grouping shown =
        shown_tokens(in_window, pieces->text_a, pieces->text_b, c, pieces->windowed());
    if (shown.identity(std::size_t(pieces->pieces))) return pieces;
    auto out = std::make_shared<ModelMaps>();
    // The model, the text and the pass as they are (the atlas, the pooled text, the encoding
    // and the predictions stay over the pieces); the tokens and the maps are grouped below.
    static_cast<ModelPass&>(*out) = *pieces;
    out->tokens = int(shown.size());
    out->text_tokens = out->tokens;
    if (pieces->windowed()) {
        const Grouping whole = shown_tokens(pieces->encoding, pieces->text_a, pieces->text_b, c);
        out->text_tokens = int(whole.size());
        for (const auto& m : whole.members)  // the tokens that end before the window
            if (m.back() < pieces->first_piece) ++out->first_token;
    }
    out->words = c.words;
    out->hide_special = c.hide_special;
    for (std::size_t k = 0; k < shown.size(); ++k) {
        out->token_text.push_back(QString::fromStdString(shown.text[k]));
        out->special.push_back(shown.special[k]);
        out->sequence.push_back(shown.sequence[k]);
        out->last_piece.push_back(pieces->first_piece + int(shown.members[k].back()));
    }
    for (int l = 0; l < pieces->num_layers; ++l) {
        out->weights.push_back(models::group_maps(pieces->weights[std::size_t(l)], shown));
        out->means.push_back(models::group_maps(pieces->means[std::size_t(l)], shown));
        out->rollout.push_back(models::group_maps(pieces->rollout[std::size_t(l)], shown));
    }
    add_thumbnails(out.get());
    return out;
}

std::shared_ptr<const StepTensors> model_steps(const ComputeConfig& c, int num_threads,
                                               const ModelMaps& pieces,
                                               const PassControl* control) {
    const int L = pieces.pieces, H = pieces.num_heads;
    // A window's maps are not the layer's whole computation, which the steps show.
    if (pieces.windowed() || std::size_t(H) * std::size_t(L) * std::size_t(L) > kStepsCellBudget)
        return nullptr;
    const ModelPtr m = open_model(c.model_folder);
    const models::EncodedText enc = encode(*m, c);
    if (std::int64_t(enc.input.ids.size()) != L)
        throw std::logic_error("the steps' text differs from the maps'");
    const models::ModelInfo& info = m->model->info();
    const int layer = std::clamp(c.layer, 0, pieces.num_layers - 1);
    models::ModelForwardOptions options;
    options.num_threads = std::max(1, num_threads);
    options.scope.layers = {layer};
    options.scope.heads = 0;  // the steps carry every head's weights
    options.steps_layer = layer;
    options.interventions = knock_outs(c, info);  // the layer as the maps show it
    if (control) options.control = *control;
    models::CollectingSink sink;
    m->model->forward(enc.input, options, sink);
    if (sink.results.size() != 1 || !sink.results[0].steps)
        throw std::logic_error("the model kept no steps");
    AttentionResult& r = sink.results[0];
    auto out = std::make_shared<StepTensors>();
    out->x_query = std::move(r.steps->input);
    out->heads = std::move(r.steps->heads);
    out->concat = std::move(r.steps->concat);
    out->output = std::move(r.output);
    StepTensors::ModelLayer ml;
    ml.layer = layer;
    ml.num_kv_heads = int(info.num_kv_heads);
    ml.rotary = info.position_encoding == "rotary";
    ml.causal = info.causal;
    ml.pre_norm = info.pre_norm;
    ml.mlp = info.intermediate_size > 0;
    ml.name = pieces.name;
    ml.tokens = pieces.token_text;
    out->model = std::move(ml);
    return out;
}

SnapshotPtr model_layer_snapshot(const ComputeConfig& c, std::uint64_t generation,
                                 std::shared_ptr<const ModelMaps> maps,
                                 std::shared_ptr<const StepTensors> steps,
                                 std::shared_ptr<const LensGrid> lens,
                                 std::shared_ptr<const ModelTrace> trace) {
    const int L = maps->tokens, H = maps->num_heads;  // L: the tokens shown
    const int layer = std::clamp(c.layer, 0, maps->num_layers - 1);
    auto snap = std::make_shared<AttentionSnapshot>();
    snap->generation = generation;
    snap->config = c;
    snap->batch = 1;
    snap->heads = maps->heads_kept;
    snap->num_heads = H;
    snap->target_len = snap->source_len = L;
    snap->query_offset = snap->key_offset = maps->first_token;
    snap->query_total = snap->key_total = maps->text_tokens;
    snap->query_tokens = {maps->token_text};
    snap->key_tokens = {maps->token_text};
    snap->weights = Tensor({1, maps->heads_kept, L, L}, maps->weights[std::size_t(layer)].data);
    snap->mean_weights = Tensor({1, L, L}, maps->means[std::size_t(layer)].data);
    snap->masked.assign(std::size_t(L) * L, 0);
    if (maps->causal)
        for (int i = 0; i < L; ++i)
            for (int j = i + 1; j < L; ++j)
                snap->masked[std::size_t(i) * L + j] = 1;
    snap->fully_masked_rows.assign(std::size_t(H) * L, 0);
    snap->layer = layer;
    snap->norm_based = maps->norm_based;
    snap->elapsed_ms = maps->elapsed_ms;
    snap->estimated_bytes = maps->estimated_bytes;  // the scope bar's "Memory: … of …"
    snap->budget_bytes = maps->budget_bytes;
    snap->model = std::move(maps);
    snap->steps = std::move(steps);
    snap->lens = std::move(lens);
    snap->trace = std::move(trace);
    snap->cache_ranges();
    return snap;
}

QStringList model_tokens(const ComputeConfig& c) {
    if (c.usesMaps()) {
        QStringList out;
        for (const std::string& t :
             io::read_attention_tokens(QFile::encodeName(maps_tokens_file(c)).toStdString()).text)
            out << QString::fromStdString(t);
        return out;
    }
    const ModelPtr m = open_model(c.model_folder);
    QString text_a;
    const models::EncodedText enc = encode(*m, c, &text_a);
    QStringList out;
    for (const std::string& t : shown_tokens(enc.encoding, text_a, pair_text(c), c).text)
        out << QString::fromStdString(t);
    return out;
}

}  // namespace attnviz::ui
