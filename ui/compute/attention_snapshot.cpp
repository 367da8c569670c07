#include "ui/compute/attention_snapshot.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/errors.h"
#include "engine/io/safetensors.h"
#include "engine/text/embedding.h"

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
// The longest sequence the GUI accepts; beyond it a forward pass no longer fits an
// interactive budget on an ordinary machine.
constexpr std::size_t kMaxTokens = 4096;

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

bool AttentionSnapshot::row_fully_masked(int n, int h, int i) const {
    if (h >= 0) return fully_masked_rows[(std::size_t(n) * heads + h) * target_len + i] != 0;
    for (int k = 0; k < heads; ++k)
        if (!fully_masked_rows[(std::size_t(n) * heads + k) * target_len + i]) return false;
    return heads > 0;
}

namespace {
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
};

ComputeCache::ComputeCache() : impl(std::make_unique<Impl>()) {}
ComputeCache::~ComputeCache() = default;

SnapshotPtr compute_snapshot(const ComputeConfig& c, std::uint64_t generation, ComputeCache* cache,
                             int num_threads) {
    const auto start = std::chrono::steady_clock::now();
    TokenSequences seq = resolve_tokens(c);
    if (seq.a.empty())
        throw UsageError(ComputeText::tr("There are no tokens: type a sentence.").toStdString());
    if (c.pair_mode != PairMode::Single && seq.b.empty())
        throw UsageError(ComputeText::tr("The second sentence has no tokens.").toStdString());
    if (seq.a.size() > kMaxTokens || seq.b.size() > kMaxTokens)
        throw UsageError(
            ComputeText::tr("At most %1 tokens per sentence.").arg(kMaxTokens).toStdString());

    MultiHeadAttentionOptions options;
    options.embed_dim = c.embed_dim;
    options.num_heads = c.num_heads;
    options.bias = c.bias;
    options.scoring = c.scoring;
    options.dropout = float(c.dropout);
    options.validate();

    // Parameters: from the cache, the weights file, or a seeded initialisation.
    ComputeCache local;
    ComputeCache::Impl& cached = *(cache ? cache : &local)->impl;
    ComputeCache::Impl::LayerKey key{c.embed_dim,   c.num_heads,    c.bias, c.scoring,
                                     c.weight_seed, c.weights_file, 0};
    if (!c.weights_file.isEmpty()) {
        const QFileInfo info(c.weights_file);
        key.file_stamp = info.exists() ? info.lastModified().toMSecsSinceEpoch() ^ info.size() : -1;
    }
    MultiHeadAttention mha(options);
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
                        .arg(QString::fromStdString(e.what()))
                        .toStdString());
            }
        }
        cached.state = mha.state_dict();
        cached.key = key;
    }

    text::EmbeddingOptions emb;
    emb.embed_dim = c.embed_dim;
    emb.seed = kEmbeddingSeed;
    emb.positional_encoding = c.positional_encoding;

    auto snap = std::make_shared<AttentionSnapshot>();
    snap->generation = generation;
    snap->config = c;

    Tensor query, key_value;
    std::vector<float> padding;  // [N, S], 1 = ignore
    switch (c.pair_mode) {
        case PairMode::Single: {
            query = with_batch(text::embed_tokens(seq.a, emb));
            key_value = query;
            snap->query_tokens = {to_qstrings(seq.a)};
            snap->key_tokens = snap->query_tokens;
            padding.assign(seq.a.size(), 0.0f);
            break;
        }
        case PairMode::CrossAttention: {
            query = with_batch(text::embed_tokens(seq.a, emb));
            key_value = with_batch(text::embed_tokens(seq.b, emb));
            snap->query_tokens = {to_qstrings(seq.a)};
            snap->key_tokens = {to_qstrings(seq.b)};
            padding.assign(seq.b.size(), 0.0f);
            break;
        }
        case PairMode::PaddedBatch: {
            text::Batch batch = text::embed_batch({seq.a, seq.b}, emb);
            query = std::move(batch.x);
            key_value = query;
            for (const auto& tokens : batch.tokens) {
                snap->query_tokens.push_back(to_qstrings(tokens));
                snap->key_tokens.push_back(to_qstrings(tokens));
            }
            padding = batch.key_padding_mask.values;
            break;
        }
    }
    const int n_items = int(query.dim(0));
    const int L = int(query.dim(1));
    const int S = int(key_value.dim(1));
    for (const auto& [item, pos] : c.masked_keys)
        if (item >= 0 && item < n_items && pos >= 0 && pos < S)
            padding[std::size_t(item) * S + pos] = 1.0f;
    const Mask key_padding_mask = Mask::boolean({n_items, S}, padding);
    const bool any_key_mask =
        std::any_of(padding.begin(), padding.end(), [](float v) { return v != 0.0f; });

    AttentionForwardOptions fwd;
    fwd.key_padding_mask = any_key_mask ? &key_padding_mask : nullptr;
    fwd.causal = c.causal;
    fwd.training = c.training;
    fwd.dropout_seed = std::uint64_t(c.dropout_seed);
    fwd.masked_rows = c.masked_rows;
    fwd.need_weights = true;
    const std::size_t cells = std::size_t(n_items) * c.num_heads * L * S;
    fwd.need_intermediates = cells <= kScoreCellBudget;
    // Threads only pay off on big inputs; for a sentence, waking them costs more than the
    // whole forward pass.
    fwd.num_threads = cells < (std::size_t(1) << 16) ? 1 : std::max(1, num_threads);

    AttentionResult result = mha.forward(query, key_value, key_value, fwd);

    snap->batch = n_items;
    snap->heads = c.num_heads;
    snap->target_len = L;
    snap->source_len = int(result.source_length);
    if (snap->source_len != S)
        throw std::logic_error("the layer returned " + std::to_string(result.source_length) +
                               " key columns for " + std::to_string(S) + " keys");
    snap->weights = std::move(result.weights);
    snap->mean_weights = std::move(result.mean_weights);
    snap->fully_masked_rows = std::move(result.fully_masked_rows);
    if (snap->fully_masked_rows.size() != std::size_t(n_items) * c.num_heads * L)
        snap->fully_masked_rows.assign(std::size_t(n_items) * c.num_heads * L, 0);
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
    // The mask as it was given to the layer: padding and clicked keys, plus causal j > i.
    snap->masked.assign(std::size_t(n_items) * L * S, 0);
    for (int n = 0; n < n_items; ++n)
        for (int i = 0; i < L; ++i)
            for (int j = 0; j < S; ++j)
                snap->masked[(std::size_t(n) * L + i) * S + j] =
                    (padding[std::size_t(n) * S + j] != 0.0f) || (c.causal && j > i);
    snap->cache_ranges();
    snap->elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return snap;
}

}  // namespace attnviz::ui
