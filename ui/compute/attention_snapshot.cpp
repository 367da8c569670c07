#include "ui/compute/attention_snapshot.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/safetensors.h"
#include "engine/models/effective_attention.h"
#include "engine/text/embedding.h"
#include "ui/compute/error_text.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/model_lens.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/resolved_config.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct ComputeText {
    Q_DECLARE_TR_FUNCTIONS(Compute)
};

// Token embeddings use a fixed seed: changing the weight seed then changes only the layer,
// which is what a user exploring "another random initialisation" expects.
constexpr std::uint64_t kEmbeddingSeed = 0;
// (No fixed token limit: the memory budget decides, and offers a window of the tokens.)

/// The sequences as the engine sees them: N items of L queries over S keys.
struct Shapes {
    std::int64_t N = 1, L = 0, S = 0;
};

Shapes shapes_of(const ComputeConfig& c, const TokenSequences& seq) {
    const auto a = std::int64_t(seq.a.size()), b = std::int64_t(seq.b.size());
    switch (c.pair_mode) {
        case PairMode::Single:
            return {1, a, a};
        case PairMode::CrossAttention:
            return {1, a, b};
        case PairMode::PaddedBatch:
            return {2, std::max(a, b), std::max(a, b)};
    }
    return {1, a, a};
}

MultiHeadAttentionOptions layer_options(const ComputeConfig& c) {
    MultiHeadAttentionOptions options;
    options.embed_dim = c.embed_dim;
    options.num_heads = c.num_heads;
    options.bias = c.bias;
    options.scoring = c.scoring;
    options.dropout = float(c.dropout);
    return options;
}

/// What the engine is asked to keep for `scope`, and with how many threads.
AttentionForwardOptions scoped_forward(const ComputeConfig& c, const Shapes& sh,
                                       const budget::ResultScope& scope, int num_threads) {
    AttentionForwardOptions fwd;
    fwd.need_weights = true;
    restrict_forward(scope, c.num_heads, sh.L, sh.S, &fwd);
    const int kept = scope.kept_heads(c.num_heads);
    const budget::AxisWindow q = budget::window_on(scope, sh.L), k = budget::window_on(scope, sh.S);
    // Raw scores and the steps only for the whole result of a small input: the views that
    // use them show every head over every token.
    const bool whole = kept == c.num_heads && q.count == sh.L && k.count == sh.S;
    // The heads together (the norm-based mean) need every head's weights.
    if (c.attention == AttentionShown::NormBased) fwd.weights_heads = -1;
    const std::size_t cells = std::size_t(sh.N) * c.num_heads * sh.L * sh.S;
    fwd.need_intermediates = whole && cells <= kScoreCellBudget;
    // Threads only pay off on big inputs; for a sentence, waking them costs more than the
    // whole forward pass.
    const std::size_t work = std::size_t(sh.N) * c.num_heads * q.count * sh.S;
    fwd.num_threads = work < (std::size_t(1) << 16) ? 1 : std::max(1, num_threads);
    return fwd;
}

/// Heap bytes of a std::string holding `size` bytes (beyond the short-string buffer) and of
/// a QString of as many UTF-16 units at most.
double string_bytes(std::size_t size) {
    return 32.0 + (size > 15 ? double(size) + 17.0 : 0.0);
}
double qstring_bytes(std::size_t utf8_size) {
    return 24.0 + 32.0 + 2.0 * double(utf8_size + 1);
}

std::vector<QString> to_qstrings(const std::vector<std::string>& tokens) {
    std::vector<QString> out;
    out.reserve(tokens.size());
    for (const auto& t : tokens)
        out.push_back(QString::fromStdString(t));
    return out;
}

/// The projection matrices of the layer as the steps view shows them, from a state_dict
/// with either PyTorch layout (packed in_proj_weight or split q/k/v_proj_weight).
void keep_projections(const std::map<std::string, Tensor>& state, int E, StepTensors* out) {
    auto find = [&](const char* name) -> const Tensor* {
        const auto it = state.find(name);
        return it == state.end() ? nullptr : &it->second;
    };
    auto slice = [](const Tensor& t, std::size_t part, std::size_t rows, std::size_t cols) {
        const auto begin = t.data.begin() + std::ptrdiff_t(part * rows * cols);
        Shape shape =
            cols == 1 ? Shape{std::int64_t(rows)} : Shape{std::int64_t(rows), std::int64_t(cols)};
        return Tensor(shape, std::vector<float>(begin, begin + std::ptrdiff_t(rows * cols)));
    };
    const std::size_t e = std::size_t(E);
    if (const Tensor* w = find("in_proj_weight"); w && w->numel() == 3 * e * e) {
        out->w_q = slice(*w, 0, e, e);
        out->w_k = slice(*w, 1, e, e);
        out->w_v = slice(*w, 2, e, e);
    } else {
        if (const Tensor* q = find("q_proj_weight")) out->w_q = *q;
        if (const Tensor* k = find("k_proj_weight")) out->w_k = *k;
        if (const Tensor* v = find("v_proj_weight")) out->w_v = *v;
    }
    if (const Tensor* b = find("in_proj_bias"); b && b->numel() == 3 * e) {
        out->b_q = slice(*b, 0, e, 1);
        out->b_k = slice(*b, 1, e, 1);
        out->b_v = slice(*b, 2, e, 1);
    }
    if (const Tensor* w = find("out_proj.weight")) out->w_o = *w;
    if (const Tensor* b = find("out_proj.bias")) out->b_o = *b;
}

Tensor with_batch(Tensor t) {
    t.shape.insert(t.shape.begin(), 1);
    return t;
}
}  // namespace

ModelMaps::~ModelMaps() {
    for (auto* maps : {&weights, &means, &rollout})
        for (Tensor& t : *maps)
            release_buffer(t);
}

AttentionSnapshot::~AttentionSnapshot() {
    for (Tensor* t : {&weights, &mean_weights, &scores})
        release_buffer(*t);
}

bool AttentionSnapshot::row_fully_masked(int n, int h, int i) const {
    const int H = std::max(num_heads, heads);  // every head's rows, kept weights or not
    if (h >= 0) return fully_masked_rows[(std::size_t(n) * H + h) * target_len + i] != 0;
    for (int k = 0; k < H; ++k)
        if (!fully_masked_rows[(std::size_t(n) * H + k) * target_len + i]) return false;
    return H > 0;
}

namespace {
/// A file's size and modification time in one number, -1 when it cannot be read: a file
/// written again is read again.  The time is taken as the file system gives it, never as
/// local time: a worker has no business with the time zone (issue 40).
std::int64_t file_stamp(const QString& path) {
    std::error_code error;
    const std::filesystem::path p = QFileInfo(path).filesystemFilePath();
    const auto time = std::filesystem::last_write_time(p, error);
    if (error) return -1;
    const auto size =
        std::filesystem::is_regular_file(p, error) ? std::filesystem::file_size(p, error) : 0;
    return std::int64_t(time.time_since_epoch().count()) ^ std::int64_t(error ? 0 : size);
}

/// Attention maps' files, with their sizes and dates: a file written again is read again.
QString maps_key(const ComputeConfig& c) {
    QString key;
    for (const QString& path : {c.model_folder, c.tokens_file})
        key += path + QLatin1Char('\n') + QString::number(file_stamp(path)) + QLatin1Char('\n');
    return key;
}

void extend_range(const float* p, const std::uint8_t* m, std::size_t count, float* lo, float* hi) {
    for (std::size_t k = 0; k < count; ++k) {
        if (m[k] || !std::isfinite(p[k])) continue;
        *lo = std::min(*lo, p[k]);
        *hi = std::max(*hi, p[k]);
    }
}
}  // namespace

std::pair<float, float> AttentionSnapshot::panel_range(int n, int h) const {
    const std::size_t slot = std::size_t(n) * (heads + 1) + (h < 0 ? heads : h);
    if (slot < ranges.size()) return ranges[slot];
    const std::size_t count = std::size_t(target_len) * source_len;
    const float* p = h < 0 ? mean_weights.ptr() + std::size_t(n) * count
                           : weights.ptr() + (std::size_t(n) * heads + h) * count;
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    extend_range(p, masked.data() + std::size_t(n) * count, count, &lo, &hi);
    return lo <= hi ? std::make_pair(lo, hi) : std::make_pair(0.0f, 0.0f);
}

std::pair<float, float> AttentionSnapshot::item_range(int n) const {
    if (!ranges.empty()) {
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
        for (int slot = 0; slot <= heads; ++slot) {
            const auto [a, b] = ranges[std::size_t(n) * (heads + 1) + slot];
            if (a == 0.0f && b == 0.0f) continue;  // no unmasked finite cell
            lo = std::min(lo, a);
            hi = std::max(hi, b);
        }
        return lo <= hi ? std::make_pair(lo, hi) : std::make_pair(0.0f, 0.0f);
    }
    const std::size_t count = std::size_t(target_len) * source_len;
    const std::uint8_t* m = masked.data() + std::size_t(n) * count;
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    extend_range(mean_weights.ptr() + std::size_t(n) * count, m, count, &lo, &hi);
    for (int h = 0; h < heads; ++h)
        extend_range(weights.ptr() + (std::size_t(n) * heads + h) * count, m, count, &lo, &hi);
    return lo <= hi ? std::make_pair(lo, hi) : std::make_pair(0.0f, 0.0f);
}

void AttentionSnapshot::cache_ranges() {
    ranges.clear();
    std::vector<std::pair<float, float>> out;
    for (int n = 0; n < batch; ++n)
        for (int slot = 0; slot <= heads; ++slot)
            out.push_back(panel_range(n, slot == heads ? -1 : slot));
    ranges = std::move(out);
}

struct ComputeCache::Impl {
    // The layer, keyed by everything its parameters depend on.
    struct LayerKey {
        int embed_dim, num_heads;
        bool bias;
        Scoring scoring;
        int weight_seed;
        QString weights_file;
        qint64 file_stamp;
        bool operator==(const LayerKey&) const = default;
    };
    std::optional<LayerKey> key;
    std::map<std::string, Tensor> state;  ///< parameters of the cached layer

    // A model's last forward pass, keyed by what it depends on: another layer only re-slices.
    struct ModelKey {
        QString folder, text_a, text_b;
        PairMode pair_mode;
        int layers_shown, heads_shown, window_start, window_length;
        std::map<ModelHead, KnockOut> knocked_out;
        std::vector<qint64> generated;  ///< the continuation shown (the timeline's step)
        AttentionShown attention;
        bool operator==(const ModelKey&) const = default;
    };
    std::optional<ModelKey> model_key;
    std::shared_ptr<const ModelMaps> piece_maps;    ///< run_model's, for model_key
    std::pair<bool, bool> shown_key{false, false};  ///< words, hide_special of model_maps
    std::shared_ptr<const ModelMaps> model_maps;    ///< present_model(piece_maps)
    int steps_layer = -1;                           ///< the layer of `steps` (-1: none)
    std::shared_ptr<const StepTensors> steps;       ///< model_steps(), null over the budget
    std::shared_ptr<const LensGrid> lens;           ///< compute_lens() for model_key
    int trace_token = kNoTrace;                     ///< the token `trace` is of
    std::shared_ptr<const ModelTrace> trace;        ///< model_trace() for model_key
    QString induction_folder;                       ///< whose induction scores these are
    std::vector<double> induction;
    IntactPredictions intact;  ///< the last text's predictions without knock-outs
};

namespace {
/// Whether `to` is `from`'s text continued by more generated tokens, all else equal.
bool continues(const ComputeCache::Impl::ModelKey& from, const ComputeCache::Impl::ModelKey& to) {
    if (to.generated.size() <= from.generated.size() ||
        !std::equal(from.generated.begin(), from.generated.end(), to.generated.begin()))
        return false;
    ComputeCache::Impl::ModelKey same = to;
    same.generated = from.generated;
    return same == from;
}
}  // namespace

ComputeCache::ComputeCache() : impl(std::make_unique<Impl>()) {}
ComputeCache::~ComputeCache() = default;

std::uint64_t estimate_snapshot_bytes(const ComputeConfig& c, const TokenSequences& seq,
                                      const budget::ResultScope& scope, int num_threads) {
    const Shapes sh = shapes_of(c, seq);
    if (sh.L == 0 || sh.S == 0) return 0;
    const MultiHeadAttentionOptions options = layer_options(c);
    const AttentionForwardOptions fwd = scoped_forward(c, sh, scope, num_threads);
    const budget::AxisWindow q = budget::window_on(scope, sh.L), k = budget::window_on(scope, sh.S);
    const double N = double(sh.N), L = double(sh.L), S = double(sh.S), E = double(c.embed_dim);
    const double H = double(c.num_heads), kept = double(scope.kept_heads(c.num_heads));
    const double rows = double(q.count), cols = double(k.count);

    double bytes = 0.0;
    // The tokens, and for a batch their padded copies.
    for (const auto* tokens : {&seq.a, &seq.b})
        for (const std::string& t : *tokens)
            bytes += string_bytes(t.size()) * (c.pair_mode == PairMode::PaddedBatch ? 2 : 1);
    if (c.pair_mode == PairMode::PaddedBatch) bytes += 2 * L * string_bytes(5);  // "[PAD]"
    // The window's tokens as QStrings, for queries and keys of every item: bounded by the
    // longest token (and the whole text), so that moving a window never changes the estimate.
    std::size_t longest = 5, total = 0;  // "[PAD]"
    for (const auto* tokens : {&seq.a, &seq.b})
        for (const std::string& t : *tokens) {
            longest = std::max(longest, t.size());
            total += t.size() + 1;
        }
    for (const double count : {rows, cols})
        bytes += N * (count * qstring_bytes(0) +
                      2.0 * std::min(count * double(longest), double(total) + 5.0 * count));
    // Embeddings of every token (keys and values need them all): the query input, the
    // key/value input (a copy in self-attention), the positional encoding and, for a batch,
    // one sentence's rows while they are copied in.
    bytes += sizeof(float) * (N * L * E + N * S * E + 2 * std::max(L, S) * E);
    bytes += sizeof(float) * 2 * N * S;  // padding and the mask made of it
    // Parameters: the layer, the cache's state_dict, the copy made to fill it, and a
    // weights file being read.
    bytes += 3.0 * double(MultiHeadAttention::parameter_bytes(options));
    if (!c.weights_file.isEmpty())
        bytes += double(std::max<qint64>(0, QFileInfo(c.weights_file).size()));
    // The forward pass.
    bytes += double(MultiHeadAttention::estimate_forward_bytes(options, sh.N, sh.L, sh.S, fwd));
    // Kept for the views: raw scores copied out of the steps, the steps' inputs, output and
    // projections.
    if (fwd.need_intermediates)
        bytes += sizeof(float) * (N * H * L * S + 2 * N * L * E + N * S * E) +
                 double(MultiHeadAttention::parameter_bytes(options));
    // The mask as drawn, the colour ranges, and every panel drawn (kept heads and the mean).
    bytes += N * rows * cols + N * (kept + 1) * 16;
    bytes += N * (kept + 1) *
             (rows * cols * double(kDisplayBytesPerCell) + double(kDisplayBytesPerPanel));
    bytes += double(kDisplayFixedBytes);
    return bytes >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(bytes);
}

budget::MemoryPlan plan_snapshot_memory(const ComputeConfig& c, const TokenSequences& seq,
                                        std::uint64_t budget_bytes, int num_threads) {
    const Shapes sh = shapes_of(c, seq);
    return budget::plan_memory(
        [&](const budget::ResultScope& scope) {
            return estimate_snapshot_bytes(c, seq, scope, num_threads);
        },
        c.scope(), c.num_heads, std::max(sh.L, sh.S), budget_bytes, kMaxOfferedWindow);
}

namespace {
/// The demo layer's parameters: the cached ones when the layer and its source are the same,
/// else the weights file's or a seeded initialisation (then cached).
void load_demo_parameters(const ComputeConfig& c, ComputeCache::Impl& cached,
                          MultiHeadAttention* layer) {
    MultiHeadAttention& mha = *layer;
    ComputeCache::Impl::LayerKey key{c.embed_dim,   c.num_heads,    c.bias, c.scoring,
                                     c.weight_seed, c.weights_file, 0};
    if (!c.weights_file.isEmpty()) key.file_stamp = file_stamp(c.weights_file);
    if (cached.key && *cached.key == key) {
        mha.load_state_dict(cached.state);
    } else {
        if (c.weights_file.isEmpty()) {
            mha.reset_parameters(std::uint64_t(c.weight_seed));
        } else {
            const auto tensors = io::read_safetensors(c.weights_file.toStdString());
            try {
                mha.load_state_dict(tensors);
            } catch (const std::invalid_argument& e) {
                throw DataError(
                    ComputeText::tr("%1 does not fit this layer (embed_dim %2, %3 heads): %4")
                        .arg(QFileInfo(c.weights_file).fileName())
                        .arg(c.embed_dim)
                        .arg(c.num_heads)
                        .arg(error_text(e))
                        .toStdString());
            }
        }
        cached.state = mha.state_dict();
        cached.key = key;
    }
}

/// The demo's inputs embedded as the pair mode asks, with the snapshot's token labels and the
/// key padding mask ([N, S], 1 = ignore).
void embed_demo_inputs(const ComputeConfig& c, const TokenSequences& seq, AttentionSnapshot* snap,
                       Tensor* query, Tensor* key_value, std::vector<float>* padding) {
    text::EmbeddingOptions emb;
    emb.embed_dim = c.embed_dim;
    emb.seed = kEmbeddingSeed;
    emb.positional_encoding = c.positional_encoding;

    switch (c.pair_mode) {
        case PairMode::Single: {
            *query = with_batch(text::embed_tokens(seq.a, emb));
            *key_value = *query;
            snap->query_tokens = {to_qstrings(seq.a)};
            snap->key_tokens = snap->query_tokens;
            padding->assign(seq.a.size(), 0.0f);
            break;
        }
        case PairMode::CrossAttention: {
            *query = with_batch(text::embed_tokens(seq.a, emb));
            *key_value = with_batch(text::embed_tokens(seq.b, emb));
            snap->query_tokens = {to_qstrings(seq.a)};
            snap->key_tokens = {to_qstrings(seq.b)};
            padding->assign(seq.b.size(), 0.0f);
            break;
        }
        case PairMode::PaddedBatch: {
            text::Batch batch = text::embed_batch({seq.a, seq.b}, emb);
            *query = std::move(batch.x);
            *key_value = *query;
            for (const auto& tokens : batch.tokens) {
                snap->query_tokens.push_back(to_qstrings(tokens));
                snap->key_tokens.push_back(to_qstrings(tokens));
            }
            *padding = batch.key_padding_mask.values;
            break;
        }
    }
}

/// Where nothing is masked a weight is a number, unless the scores overflowed float (a
/// weights file with huge values: q.k past 3.4e38 gives inf - inf in the softmax).  Says so
/// instead of drawing NaN.
void check_finite(const AttentionSnapshot& s) {
    for (int n = 0; n < s.batch; ++n)
        for (int h = -1; h < s.heads; ++h)
            for (int i = 0; i < s.target_len; ++i)
                for (int j = 0; j < s.source_len; ++j)
                    if (!s.is_masked(n, i, j) && !std::isfinite(s.value(n, h, i, j)))
                        throw DataError(
                            ComputeText::tr("The attention scores overflow the range of float "
                                            "(are the layer's weights far too large?): the "
                                            "weights would be NaN, so none are drawn.")
                                .toStdString());
}

/// A trained model's snapshot: its pass (or the cached one, or the writer's rows), the pieces
/// grouped as shown, the steps, the lens and the trace when asked.
SnapshotPtr compute_model_snapshot(const ComputeConfig& c, std::uint64_t generation,
                                   ComputeCache* cache, int num_threads,
                                   const budget::MemoryBudget* budget, bool model_steps,
                                   const PassControl* control, bool model_lens,
                                   GenerationFeed* feed, int model_trace) {
    const budget::MemoryBudget memory = budget ? *budget : budget::resolve_memory_budget("", "");
    ComputeCache local;
    ComputeCache::Impl& cached = *(cache ? cache : &local)->impl;
    // Maps read from a file depend on the files (and their dates), not on the text.
    const bool maps = c.usesMaps();
    const ComputeCache::Impl::ModelKey key{
        maps ? maps_key(c) : c.model_folder,
        maps ? QString() : c.text_a,
        c.pair_mode == PairMode::Single || maps ? QString() : c.text_b,
        c.pair_mode == PairMode::Single || maps ? PairMode::Single : PairMode::CrossAttention,
        c.layers_shown,
        c.model_heads_shown,
        c.window_length > 0 ? c.window_start : 0,
        c.window_length,
        maps ? std::map<ModelHead, KnockOut>() : c.knocked_out,  // no model to knock
        maps ? std::vector<qint64>() : c.shownGenerated(),
        maps ? AttentionShown::Weights : c.attention};  // a file holds weights
    // Choosing another layer re-slices; the word and special-token toggles regroup the
    // pieces' maps; only another text or model runs the forward pass again.
    const std::pair<bool, bool> shown{c.words, c.hide_special};
    const bool writing = !maps && feed && feed->isOpen();
    // A lower budget decides again about maps it no longer allows; maps extended by the
    // writer's rows are replaced by a pass once it stops.
    if (!cached.model_key || !(*cached.model_key == key) || !cached.piece_maps ||
        cached.piece_maps->estimated_bytes > memory.bytes ||
        (cached.piece_maps->provisional && !writing)) {
        // The text continued by the writer's tokens: its rows extend the maps.
        std::shared_ptr<const ModelMaps> extended;
        if (writing && cached.model_key && cached.piece_maps && continues(*cached.model_key, key) &&
            cached.induction_folder == c.model_folder)
            if (const auto fed = feed->tokens(c, cached.model_key->generated.size()))
                extended = extend_model(*cached.piece_maps, c, *fed, memory, cached.induction);
        cached.model_maps.reset();  // before the new pass allocates
        cached.piece_maps.reset();
        cached.steps.reset();
        cached.steps_layer = -1;
        cached.lens.reset();
        cached.trace.reset();
        cached.trace_token = kNoTrace;
        if (cached.induction_folder != c.model_folder) cached.induction.clear();
        cached.induction_folder = c.model_folder;
        cached.piece_maps =
            extended ? std::move(extended)
            : maps   ? run_maps(c, memory, control)
                   : run_model(c, num_threads, memory, &cached.induction, control, &cached.intact);
        cached.model_key = key;
        if (writing) feed->forget(key.generated.size());  // the maps hold those rows
    }
    if (!cached.model_maps || cached.shown_key != shown) {
        cached.model_maps.reset();
        cached.trace.reset();  // its token counts the tokens shown
        cached.trace_token = kNoTrace;
        // Maps from a file group their pieces when their tokens file says how.
        const bool plain = maps && cached.piece_maps->encoding.size() == 0;
        cached.model_maps = plain ? cached.piece_maps : present_model(cached.piece_maps, c);
        cached.shown_key = shown;
    }
    // While the writer extends the maps, the steps and the lens (each a pass of its own)
    // wait for the pass that follows it.
    const bool provisional = cached.piece_maps->provisional;
    std::shared_ptr<const StepTensors> steps;
    if (model_steps && !maps && !provisional) {  // a file holds the maps, not their making
        const int layer = std::clamp(c.layer, 0, cached.piece_maps->num_layers - 1);
        if (cached.steps_layer != layer) {
            cached.steps.reset();
            cached.steps = ui::model_steps(c, num_threads, *cached.piece_maps, control);
            cached.steps_layer = layer;
        }
        steps = cached.steps;
    }
    // The lens reads the model's pieces, not the words shown: only the text or the model
    // computes it again.
    if (model_lens && !cached.lens && !provisional)
        cached.lens = compute_lens(c, num_threads, control);
    std::shared_ptr<const ModelTrace> trace;
    if (model_trace != kNoTrace && !maps && !provisional) {
        if (cached.trace_token != model_trace) {
            cached.trace.reset();
            cached.trace =
                ui::model_trace(c, model_trace, *cached.model_maps, num_threads, control);
            cached.trace_token = model_trace;
        }
        trace = cached.trace;
    }
    return model_layer_snapshot(c, generation, cached.model_maps, std::move(steps),
                                model_lens ? cached.lens : nullptr, std::move(trace));
}

/// The demo layer's snapshot: the text embedded, one MultiHeadAttention pass, the window.
SnapshotPtr compute_demo_snapshot(const ComputeConfig& c, std::uint64_t generation,
                                  ComputeCache* cache, int num_threads,
                                  const budget::MemoryBudget* budget, const PassControl* control) {
    const auto start = std::chrono::steady_clock::now();
    TokenSequences seq = resolve_tokens(c);
    if (seq.a.empty())
        throw UsageError(ComputeText::tr("There are no tokens: type a sentence.").toStdString());
    if (c.pair_mode != PairMode::Single && seq.b.empty())
        throw UsageError(ComputeText::tr("The second sentence has no tokens.").toStdString());

    const MultiHeadAttentionOptions options = layer_options(c);
    options.validate();

    // Nothing large is allocated before this: a configuration over the budget is refused
    // with what fits instead (the window asks the user, `attnviz export` prints it).
    const budget::MemoryBudget memory = budget ? *budget : budget::resolve_memory_budget("", "");
    const budget::MemoryPlan plan = plan_snapshot_memory(c, seq, memory.bytes, num_threads);
    if (!plan.fits()) throw budget::MemoryBudgetExceeded(plan, memory);

    ComputeCache local;
    ComputeCache::Impl& cached = *(cache ? cache : &local)->impl;
    MultiHeadAttention mha(options);
    load_demo_parameters(c, cached, &mha);

    auto snap = std::make_shared<AttentionSnapshot>();
    snap->generation = generation;
    snap->config = c;
    Tensor query, key_value;
    std::vector<float> padding;  // [N, S], 1 = ignore
    embed_demo_inputs(c, seq, snap.get(), &query, &key_value, &padding);
    const int n_items = int(query.dim(0));
    const int L = int(query.dim(1));
    const int S = int(key_value.dim(1));
    const Shapes shapes{n_items, L, S};
    const budget::ResultScope scope = c.scope();
    const budget::AxisWindow qw = budget::window_on(scope, L), kw = budget::window_on(scope, S);
    const int Lw = int(qw.count), Sw = int(kw.count), q0 = int(qw.begin), k0 = int(kw.begin);
    const int kept = scope.kept_heads(c.num_heads);
    if (Lw < L || Sw < S) {  // only the window's tokens are labels
        for (auto& tokens : snap->query_tokens)
            tokens = std::vector<QString>(tokens.begin() + q0, tokens.begin() + q0 + Lw);
        for (auto& tokens : snap->key_tokens)
            tokens = std::vector<QString>(tokens.begin() + k0, tokens.begin() + k0 + Sw);
    }
    for (const auto& [item, pos] : c.masked_keys)
        if (item >= 0 && item < n_items && pos >= 0 && pos < S)
            padding[std::size_t(item) * S + pos] = 1.0f;
    const Mask key_padding_mask = Mask::boolean({n_items, S}, padding);
    const bool any_key_mask =
        std::any_of(padding.begin(), padding.end(), [](float v) { return v != 0.0f; });

    AttentionForwardOptions fwd = scoped_forward(c, shapes, scope, num_threads);
    fwd.key_padding_mask = any_key_mask ? &key_padding_mask : nullptr;
    fwd.causal = c.causal;
    fwd.training = c.training;
    fwd.dropout_seed = std::uint64_t(c.dropout_seed);
    fwd.masked_rows = c.masked_rows;
    const std::size_t cells = std::size_t(n_items) * c.num_heads * L * S;

    if (control) control->check();
    AttentionResult result = mha.forward(query, key_value, key_value, fwd);

    snap->batch = n_items;
    snap->heads = kept;
    snap->num_heads = c.num_heads;
    snap->target_len = Lw;
    snap->source_len = Sw;
    snap->query_offset = q0;
    snap->key_offset = k0;
    snap->query_total = L;
    snap->key_total = S;
    snap->estimated_bytes = plan.needed;
    snap->budget_bytes = plan.budget;
    if (result.source_length != S || result.mean_weights.numel() != std::size_t(n_items) * Lw * Sw)
        throw std::logic_error("the layer returned " + shape_string(result.mean_weights.shape) +
                               " mean weights for a window of " + std::to_string(Lw) + " x " +
                               std::to_string(Sw));
    if (c.attention == AttentionShown::NormBased) {
        models::EffectiveAttention norm =
            models::effective_attention(mha, key_value, result, fwd, kept, fwd.num_threads);
        result.weights = std::move(norm.heads);
        result.mean_weights = std::move(norm.layer);
        snap->norm_based = true;
    }
    snap->weights = std::move(result.weights);
    snap->mean_weights = std::move(result.mean_weights);
    snap->fully_masked_rows = std::move(result.fully_masked_rows);
    if (snap->fully_masked_rows.size() != std::size_t(n_items) * c.num_heads * Lw)
        snap->fully_masked_rows.assign(std::size_t(n_items) * c.num_heads * Lw, 0);
    if (result.steps) {
        snap->scores = Tensor({n_items, c.num_heads, L, S});
        const std::size_t per = std::size_t(L) * S;
        for (std::size_t k = 0; k < result.steps->heads.size(); ++k) {
            const Tensor& s = result.steps->heads[k].scores;
            if (s.numel() == per)
                std::copy(s.data.begin(), s.data.end(), snap->scores.ptr() + k * per);
        }
    }
    if (result.steps && cells <= kStepsCellBudget) {
        auto steps = std::make_shared<StepTensors>();
        steps->x_query = query;
        if (c.pair_mode == PairMode::CrossAttention) steps->x_key = key_value;
        steps->heads = std::move(result.steps->heads);
        steps->concat = std::move(result.steps->concat);
        steps->output = result.output;
        keep_projections(cached.state, c.embed_dim, steps.get());
        snap->steps = std::move(steps);
    }
    // The mask as it was given to the layer: padding and clicked keys, plus causal j > i
    // (in the positions of the whole sequence).
    snap->masked.assign(std::size_t(n_items) * Lw * Sw, 0);
    for (int n = 0; n < n_items; ++n)
        for (int i = 0; i < Lw; ++i)
            for (int j = 0; j < Sw; ++j)
                snap->masked[(std::size_t(n) * Lw + i) * Sw + j] =
                    (padding[std::size_t(n) * S + k0 + j] != 0.0f) || (c.causal && k0 + j > q0 + i);
    check_finite(*snap);
    snap->cache_ranges();
    snap->elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return snap;
}
}  // namespace

SnapshotPtr compute_snapshot(const ComputeConfig& c, std::uint64_t generation, ComputeCache* cache,
                             int num_threads, const budget::MemoryBudget* budget, bool model_steps,
                             const PassControl* control, bool model_lens, GenerationFeed* feed,
                             int model_trace) {
    if (c.usesModel())
        return compute_model_snapshot(c, generation, cache, num_threads, budget, model_steps,
                                      control, model_lens, feed, model_trace);
    return compute_demo_snapshot(c, generation, cache, num_threads, budget, control);
}

}  // namespace attnviz::ui
