// Residual decomposition and direct logit attribution (attribution.h).
#include "engine/models/attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/errors.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// W_O^hᵀ · direction for every layer and query head, [layers][heads · head_dim]: what a head's
/// context (or a source token's value) is dotted with to give its share of a logit.
using HeadDirections = std::vector<std::vector<double>>;

/// How each head of a pass is knocked out, [layers][heads]: a head knocked out twice writes
/// nothing if either is Zero (the mean of zeros is zero).  Heads the model lacks are left for
/// forward() to refuse.
using KnockOuts = std::vector<std::vector<std::optional<HeadIntervention::Kind>>>;

KnockOuts knock_outs_of(const std::vector<HeadIntervention>& interventions, const ModelConfig& c) {
    KnockOuts out(
        static_cast<std::size_t>(c.num_layers),
        std::vector<std::optional<HeadIntervention::Kind>>(static_cast<std::size_t>(c.num_heads)));
    for (const HeadIntervention& iv : interventions) {
        const HeadRef& h = iv.head;
        if (h.layer < 0 || h.layer >= c.num_layers || h.head < 0 || h.head >= c.num_heads) continue;
        auto& kind = out[static_cast<std::size_t>(h.layer)][static_cast<std::size_t>(h.head)];
        if (kind != HeadIntervention::Kind::Zero) kind = iv.kind;
    }
    return out;
}

/// Rows `positions` of x [L, width], in that order: [P, width].
Tensor pick_rows(const Tensor& x, const std::vector<Index>& positions) {
    const Index width = x.dim(1);
    Tensor out({static_cast<Index>(positions.size()), width});
    for (std::size_t p = 0; p < positions.size(); ++p)
        std::copy_n(x.ptr() + positions[p] * width, width,
                    out.ptr() + static_cast<Index>(p) * width);
    return out;
}

/// Each token's value along each query head's direction, [L, heads]: v_j · through[h] with
/// query head h reading key/value head h / (heads / kv_heads) (grouped-query attention).
Tensor values_along(const Tensor& v, const std::vector<double>& g, Index H, Index KV, Index d,
                    Index tokens) {
    const Index group = H / KV;
    Tensor t({tokens, H});
    for (Index j = 0; j < tokens; ++j)
        for (Index h = 0; h < H; ++h) {
            const float* vj = v.ptr() + j * KV * d + (h / group) * d;
            double dot = 0.0;
            for (Index k = 0; k < d; ++k)
                dot += vj[k] * g[static_cast<std::size_t>(h * d + k)];
            t.ptr()[j * H + h] = static_cast<float>(dot);
        }
    return t;
}

/// What the components need of one pass, kept at a few positions only: the residual stream
/// before every layer and after the last and every layer's context, [P, ·] each.  For the split
/// by source (`through` set) also the positions' attention rows [P, heads, L] and each token's
/// value along each head's direction [L, heads], taken as the pass hands them over, and for a
/// mean-knocked head its attention's column means [L] (its output is their mix of the values).
/// Never [layers, L, hidden]: the largest is layers × L × heads floats.
class PositionSink : public AttentionSink {
  public:
    PositionSink(std::vector<Index> positions, const ModelConfig& c, Index tokens,
                 const HeadDirections* through, const KnockOuts* knocked = nullptr)
        : positions_(std::move(positions)),
          through_(through),
          knocked_(knocked),
          heads_(c.num_heads),
          kv_heads_(c.num_kv_heads),
          head_dim_(c.head_dim),
          tokens_(tokens) {
        const auto layers = static_cast<std::size_t>(c.num_layers);
        residuals.resize(layers + 1);
        contexts.resize(layers);
        if (through_) {
            along.resize(layers);
            rows.resize(layers);
            column_means.resize(layers);
        }
    }
    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        residuals[static_cast<std::size_t>(layer)] = pick(x);
    }
    bool wants_contexts() const override { return true; }
    void on_context(std::int64_t layer, const Tensor& c) override {
        contexts[static_cast<std::size_t>(layer)] = pick(c);
    }
    bool wants_values() const override { return through_ != nullptr; }
    void on_values(std::int64_t layer, const Tensor& v) override {
        along[static_cast<std::size_t>(layer)] = values_along(
            v, (*through_)[static_cast<std::size_t>(layer)], heads_, kv_heads_, head_dim_, tokens_);
    }
    bool wants_rows() const override { return through_ != nullptr; }
    void begin_rows(std::int64_t layer, std::size_t slots) override {
        const Index P = static_cast<Index>(positions_.size());
        rows[static_cast<std::size_t>(layer)] = Tensor({P, heads_, tokens_});
        // One sum per slot: a slot's calls never overlap, a head's rows come from several.
        column_sums_.assign(means_in(layer) ? slots : 0,
                            std::vector<double>(static_cast<std::size_t>(heads_ * tokens_)));
    }
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) override {
        Tensor& t = rows[static_cast<std::size_t>(layer)];
        // Each row's valid weights; the rest of its row in `rows` stays 0 (a causal tail).
        const auto keys = [&](Index r) { return std::min(b.valid(r), tokens_); };
        for (std::size_t p = 0; p < positions_.size(); ++p) {
            const Index r = positions_[p] - b.first_row;
            if (r < 0 || r >= b.rows) continue;
            // Blocks come from several threads, each (position, head) from one of them.
            std::copy_n(b.row(r), keys(r),
                        t.ptr() + (static_cast<Index>(p) * heads_ + b.head) * tokens_);
        }
        if (knocked(layer, b.head) != HeadIntervention::Kind::Mean) return;
        double* sums = column_sums_[slot].data() + b.head * tokens_;
        for (Index r = 0; r < b.rows; ++r)
            for (Index j = 0; j < keys(r); ++j)
                sums[j] += b.row(r)[j];
    }
    void end_rows(std::int64_t layer) override {
        if (column_sums_.empty()) return;
        Tensor means({heads_, tokens_});
        for (std::size_t i = 0; i < means.numel(); ++i) {
            double s = 0.0;
            for (const std::vector<double>& slot : column_sums_)
                s += slot[i];
            means.data[i] = static_cast<float>(s / static_cast<double>(tokens_));
        }
        column_means[static_cast<std::size_t>(layer)] = std::move(means);
        column_sums_.clear();
    }
    /// How head (layer, head) is knocked out of the pass; nullopt: it is not.
    std::optional<HeadIntervention::Kind> knocked(Index layer, Index head) const {
        if (!knocked_) return std::nullopt;
        return (*knocked_)[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
    }

    std::vector<Tensor> residuals;  ///< [layers + 1] of [P, hidden]
    std::vector<Tensor> contexts;   ///< [layers] of [P, heads·head_dim]
    std::vector<Tensor> along;      ///< [layers] of [L, heads]: v_j · through[l][h]
    std::vector<Tensor> rows;       ///< [layers] of [P, heads, L]
    /// [layers] of [heads, L]: Σ_i α_ij / L, where the layer has a mean-knocked head.
    std::vector<Tensor> column_means;

  private:
    bool means_in(Index layer) const {
        for (Index h = 0; h < heads_; ++h)
            if (knocked(layer, h) == HeadIntervention::Kind::Mean) return true;
        return false;
    }
    Tensor pick(const Tensor& x) const { return pick_rows(x, positions_); }
    std::vector<Index> positions_;
    const HeadDirections* through_;
    const KnockOuts* knocked_;
    std::vector<std::vector<double>> column_sums_;  ///< [slots][heads · L] of the layer
    Index heads_, kv_heads_, head_dim_, tokens_;
};

void require_pre_norm(const Model& model) {
    if (!model.config().pre_norm())  // the model's, not the request's: a data error
        throw DataError(
            model.config().display_name() +
            " is a post-norm model: a norm sits between its blocks, so its residual stream is no "
            "sum of their outputs (decomposition and logit attribution need GPT-2, Llama or "
            "Qwen)");
}

void check_positions(const std::vector<Index>& positions, Index tokens) {
    if (positions.empty()) throw std::invalid_argument("no positions to decompose");
    for (const Index p : positions)
        if (p < 0 || p >= tokens)
            throw std::invalid_argument("position " + std::to_string(p + 1) +
                                        " is not one of the " + std::to_string(tokens) + " tokens");
}

/// The pass of `options`, without the maps; `rows`: every layer hands its attention rows.
ModelForwardOptions forward_options(const AttributionOptions& options, bool rows) {
    ModelForwardOptions forward;
    forward.attention = false;
    forward.scope.rows_every_layer = rows;
    forward.num_threads = options.num_threads;
    forward.control = options.control;
    forward.weight_cache_bytes = options.weight_cache_bytes;
    forward.interventions = options.interventions;
    return forward;
}

void run_pass(const Model& model, const ModelInput& input, const AttributionOptions& options,
              PositionSink& sink) {
    model.forward(input, forward_options(options, sink.wants_rows()), sink);
}

/// out[e] += Σ_c context[c] · o[e, h·d + c]: head h's output through its slice of W_O [E, H·d].
void add_head_output(const Tensor& o, const float* context, Index head, Index d, double* out) {
    const Index E = o.dim(0), Hd = o.dim(1);
    // Eight rows' sums side by side: each still adds its d products in order (the same numbers),
    // but eight chains of additions run at once instead of one waiting on the next.
    constexpr Index kRows = 8;
    Index first = 0;
    for (; first + kRows <= E; first += kRows) {
        double s[kRows] = {};
        const float* rows = o.ptr() + first * Hd + head * d;
        for (Index c = 0; c < d; ++c) {
            const auto x = static_cast<double>(context[head * d + c]);
            for (Index k = 0; k < kRows; ++k)
                s[k] += x * rows[k * Hd + c];
        }
        for (Index k = 0; k < kRows; ++k)
            out[first + k] += s[k];
    }
    for (Index e = first; e < E; ++e) {
        const float* row = o.ptr() + e * Hd + head * d;
        double s = 0.0;
        for (Index c = 0; c < d; ++c)
            s += static_cast<double>(context[head * d + c]) * row[c];
        out[e] += s;
    }
}

double dot(const std::vector<double>& a, const float* b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

}  // namespace

std::string StreamComponent::name() const {
    switch (kind) {
        case Kind::Embedding:
            return "embed";
        case Kind::Head:
            return "L" + std::to_string(layer + 1) + "H" + std::to_string(head + 1);
        case Kind::AttentionBias:
            return "L" + std::to_string(layer + 1) + ".attn_bias";
        case Kind::Mlp:
            return "L" + std::to_string(layer + 1) + ".mlp";
    }
    return {};
}

namespace {

void check_layer(const ModelConfig& c, Index layer) {
    if (layer < 0 || layer > c.num_layers)
        throw std::invalid_argument("layer " + std::to_string(layer + 1) + " is not one of the " +
                                    std::to_string(c.num_layers) + " layers (or " +
                                    std::to_string(c.num_layers + 1) + ", after the last)");
}

/// What decompose() reads of a pass at its positions, [P, ·] each: the residual stream before
/// layers 0..layer and the contexts of the layers below it.
struct KeptStream {
    const std::vector<Tensor>& residuals;
    const std::vector<Tensor>& contexts;
};

/// decompose()'s components from the stream kept at its positions.
Decomposition decompose_kept(const Model& model, std::int64_t layer,
                             const std::vector<std::int64_t>& positions, const KeptStream& s,
                             const AttributionOptions& options) {
    const ModelConfig& c = model.config();
    // Each layer's vectors [P, E] in double, in order; its weights read one layer at a time.
    const Index P = static_cast<Index>(positions.size()), E = c.hidden_size;
    const Index H = c.num_heads, d = c.head_dim;
    const auto size = static_cast<std::size_t>(P * E);
    Decomposition out;
    out.layer = layer;
    out.positions = positions;
    out.stream = s.residuals[static_cast<std::size_t>(layer)];
    std::vector<std::vector<double>> vectors;
    vectors.emplace_back(s.residuals[0].data.begin(), s.residuals[0].data.end());
    out.components.push_back({StreamComponent::Kind::Embedding, -1, -1});
    for (Index l = 0; l < layer; ++l) {
        const auto at = static_cast<std::size_t>(l);
        options.control.check();  // reading an 8B model's projections takes seconds
        const AttentionWeights w = model.attention_weights(l, AttentionParts::Output);
        // What the layer's attention added, so that the MLP is the rest of the layer's step.
        std::vector<double> attention(size, 0.0);
        for (Index h = 0; h < H; ++h) {
            std::vector<double> v(size, 0.0);
            for (Index p = 0; p < P; ++p)
                add_head_output(w.o, s.contexts[at].ptr() + p * H * d, h, d, v.data() + p * E);
            for (std::size_t i = 0; i < size; ++i)
                attention[i] += v[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::Head, l, h});
        }
        if (!w.o_bias.empty()) {
            std::vector<double> v(size);
            for (std::size_t i = 0; i < size; ++i)
                v[i] = w.o_bias.data[i % static_cast<std::size_t>(E)];
            for (std::size_t i = 0; i < size; ++i)
                attention[i] += v[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::AttentionBias, l, -1});
        }
        if (c.intermediate_size > 0) {
            // x_{l+1} - x_l - attention: what the MLP added.
            const float* next = s.residuals[at + 1].ptr();
            const float* here = s.residuals[at].ptr();
            std::vector<double> v(size);
            for (std::size_t i = 0; i < size; ++i)
                v[i] = static_cast<double>(next[i]) - here[i] - attention[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::Mlp, l, -1});
        }
    }
    const Index C = static_cast<Index>(out.components.size());
    out.parts = Tensor({P, C, E});
    for (Index k = 0; k < C; ++k)
        for (Index p = 0; p < P; ++p)
            for (Index e = 0; e < E; ++e)
                out.parts.ptr()[(p * C + k) * E + e] =
                    static_cast<float>(vectors[static_cast<std::size_t>(k)][p * E + e]);
    return out;
}

}  // namespace

Decomposition decompose(const Model& model, const ModelInput& input, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options) {
    require_pre_norm(model);
    const ModelConfig& c = model.config();
    check_layer(c, layer);
    check_positions(positions, static_cast<Index>(input.ids.size()));
    PositionSink s(positions, c, static_cast<Index>(input.ids.size()), nullptr);
    run_pass(model, input, options, s);
    return decompose_kept(model, layer, positions, {s.residuals, s.contexts}, options);
}

std::size_t stream_record_bytes(const ModelConfig& c, std::int64_t tokens, RecordedParts parts) {
    const Index L = std::max<Index>(tokens, 0);
    Index per_token = (c.num_layers + 1) * c.hidden_size + c.num_layers * c.num_heads * c.head_dim;
    if (parts == RecordedParts::StreamAndAttention)
        per_token += c.num_layers * (c.num_kv_heads * c.head_dim + c.num_heads * L);
    return sizeof(float) * static_cast<std::size_t>(L * per_token);
}

bool StreamRecord::is_pass_of(const ModelInput& other,
                              const std::vector<HeadIntervention>& knocked) const {
    if (other.ids != input.ids || other.token_type_ids != input.token_type_ids) return false;
    // Each head's knock-out as a pass applies it: twice, it writes nothing if either is Zero.
    using Heads = std::map<std::pair<Index, Index>, HeadIntervention::Kind>;
    const auto heads_of = [](const std::vector<HeadIntervention>& list) -> std::optional<Heads> {
        Heads out;
        for (const HeadIntervention& iv : list) {
            if (iv.kind == HeadIntervention::Kind::Patch) return std::nullopt;
            const auto [at, added] = out.try_emplace({iv.head.layer, iv.head.head}, iv.kind);
            if (!added && iv.kind == HeadIntervention::Kind::Zero) at->second = iv.kind;
        }
        return out;
    };
    const std::optional<Heads> mine = heads_of(interventions), theirs = heads_of(knocked);
    return mine && theirs && *mine == *theirs;
}

StreamRecorder::StreamRecorder(const ModelConfig& c, ModelInput input,
                               const ModelForwardOptions& options, RecordedParts parts,
                               AttentionSink* inner)
    : inner_(inner),
      attention_(parts == RecordedParts::StreamAndAttention &&
                 (options.scope.layers.empty() || options.scope.rows_every_layer)),
      heads_(c.num_heads) {
    if (!options.variants.empty())
        throw std::invalid_argument(std::to_string(options.variants.size()) +
                                    " variants of the text in one pass: a record keeps one");
    if (options.resume_residual)
        throw std::invalid_argument("a pass resumed at layer " +
                                    std::to_string(options.resume_layer + 1) +
                                    " has no stream below it to record");
    const auto N = static_cast<std::size_t>(c.num_layers);
    record_.residuals.resize(N + 1);
    record_.contexts.resize(N);
    if (attention_) {
        record_.values.resize(N);
        record_.attention.resize(N);
    }
    record_.input = std::move(input);
    record_.interventions = options.interventions;
}

StreamRecord StreamRecorder::take() {
    const auto whole = [](const std::vector<Tensor>& parts) {
        return std::none_of(parts.begin(), parts.end(), [](const Tensor& t) { return t.empty(); });
    };
    if (!whole(record_.residuals) || !whole(record_.contexts))
        throw std::logic_error("the pass ended before its last layer: there is no stream to keep");
    if (!whole(record_.values) || !whole(record_.attention)) {  // a layer kept no rows
        record_.values.clear();
        record_.attention.clear();
    }
    return std::move(record_);
}

void StreamRecorder::on_layer(std::int64_t layer, AttentionResult&& attention) {
    if (inner_) inner_->on_layer(layer, std::move(attention));
}

void StreamRecorder::on_hidden_state(std::int64_t index, const Tensor& hidden) {
    if (inner_ && inner_->wants_hidden_states()) inner_->on_hidden_state(index, hidden);
}

void StreamRecorder::on_residual(std::int64_t layer, const Tensor& residual) {
    record_.residuals[static_cast<std::size_t>(layer)] = residual;
    if (inner_ && inner_->wants_residuals()) inner_->on_residual(layer, residual);
}

void StreamRecorder::on_context(std::int64_t layer, const Tensor& context) {
    record_.contexts[static_cast<std::size_t>(layer)] = context;
    if (inner_ && inner_->wants_contexts()) inner_->on_context(layer, context);
}

void StreamRecorder::on_values(std::int64_t layer, const Tensor& values) {
    if (attention_) record_.values[static_cast<std::size_t>(layer)] = values;
    if (inner_ && inner_->wants_values()) inner_->on_values(layer, values);
}

void StreamRecorder::begin_rows(std::int64_t layer, std::size_t slots) {
    if (attention_) {
        const Index L = static_cast<Index>(record_.input.ids.size());
        record_.attention[static_cast<std::size_t>(layer)] = Tensor({heads_, L, L});
    }
    if (inner_rows()) inner_->begin_rows(layer, slots);
}

void StreamRecorder::on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) {
    if (attention_) {
        // Blocks come from several threads, each (row, head) from one of them.
        Tensor& t = record_.attention[static_cast<std::size_t>(layer)];
        // Each row's valid weights; the rest of its row stays 0 (a causal tail).
        const Index L = t.dim(2);
        for (Index r = 0; r < b.rows; ++r)
            std::copy_n(b.row(r), std::min(b.valid(r), L),
                        t.ptr() + (b.head * L + b.first_row + r) * L);
    }
    if (inner_rows()) inner_->on_rows(layer, slot, b);
}

void StreamRecorder::end_rows(std::int64_t layer) {
    if (inner_rows()) inner_->end_rows(layer);
}

void StreamRecorder::on_trace(std::int64_t layer, TraceStep step, const float* values,
                              std::int64_t rows, std::int64_t cols) {
    if (inner_) inner_->on_trace(layer, step, values, rows, cols);
}

StreamRecord record_stream(const Model& model, const ModelInput& input,
                           const AttributionOptions& options, RecordedParts parts) {
    require_pre_norm(model);
    const auto L = static_cast<Index>(input.ids.size());
    if (L == 0) throw std::invalid_argument("no positions to decompose");
    const ModelForwardOptions forward =
        forward_options(options, parts == RecordedParts::StreamAndAttention);
    StreamRecorder recorder(model.config(), input, forward, parts);
    model.forward(input, forward, recorder);
    return recorder.take();
}

namespace {

/// Throws std::invalid_argument when `record` is not shaped as a pass of the model of `c`.
void check_record(const ModelConfig& c, const StreamRecord& record) {
    const auto width = [](const std::vector<Tensor>& t) {
        return t.empty() ? 0 : t.front().dim(1);
    };
    if (record.residuals.size() != static_cast<std::size_t>(c.num_layers + 1) ||
        record.contexts.size() != static_cast<std::size_t>(c.num_layers) ||
        width(record.residuals) != c.hidden_size ||
        (c.num_layers > 0 && width(record.contexts) != c.num_heads * c.head_dim))
        throw std::invalid_argument(
            "the record holds " + std::to_string(record.contexts.size()) + " layers of width " +
            std::to_string(width(record.residuals)) + " but " + c.display_name() + " has " +
            std::to_string(c.num_layers) + " of width " + std::to_string(c.hidden_size));
}

}  // namespace

Decomposition decompose(const Model& model, const StreamRecord& record, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options) {
    require_pre_norm(model);
    const ModelConfig& c = model.config();
    check_layer(c, layer);
    check_record(c, record);
    check_positions(positions, record.tokens());
    // As a pass's PositionSink keeps them: the record's rows at the positions.
    std::vector<Tensor> residuals, contexts;
    for (Index l = 0; l <= layer; ++l)
        residuals.push_back(pick_rows(record.residuals[static_cast<std::size_t>(l)], positions));
    for (Index l = 0; l < layer; ++l)
        contexts.push_back(pick_rows(record.contexts[static_cast<std::size_t>(l)], positions));
    return decompose_kept(model, layer, positions, {residuals, contexts}, options);
}

namespace {

/// What attribute_logit() refuses before it reads anything: no head (DataError, as predict
/// says it), a post-norm model, a masked-LM head, a position or id out of range, a patched
/// head.
void check_logit_request(const Model& model, const LogitTarget& what, Index tokens,
                         const AttributionOptions& options) {
    if (model.lm_head() == LmHeadKind::None) throw DataError(model.lm_head_missing());
    require_pre_norm(model);
    if (model.lm_head() != LmHeadKind::Causal)
        throw std::invalid_argument("logit attribution needs a causal language-model head");
    check_positions({what.position}, tokens);
    const Index V = model.config().vocab_size;
    for (const Index id : {what.target, what.distractor.value_or(0)})
        if (id < 0 || id >= V)
            throw std::invalid_argument("token id " + std::to_string(id) +
                                        " is outside the vocabulary of " + std::to_string(V));
    for (const HeadIntervention& iv : options.interventions)
        if (iv.kind == HeadIntervention::Kind::Patch)
            throw std::invalid_argument(
                "logit attribution takes knocked-out heads (zero, mean), not patched ones");
}

/// The logit's direction, which does not depend on the pass: the unembedding direction u (the
/// target's row, minus the distractor's) through the frozen final norm (TransformerLens's
/// apply_ln_to_stack), and through each layer's output projection.
struct LogitDirection {
    Readout readout;
    std::vector<double> u;          ///< [hidden]
    std::vector<double> direction;  ///< [hidden]: what a component is dotted with
    HeadDirections through;         ///< [layers][heads · head_dim]
    /// [layers]: each attention bias's share before the scale; NaN where there is none.
    std::vector<double> attention_bias;
};

/// A component c adds scale · (u ⊙ w − mean(u ⊙ w)) · c for LayerNorm, which subtracts the
/// mean, and scale · (u ⊙ w) · c for RMSNorm; the norm's bias adds u · b once.  The output
/// projections are read one layer at a time.
LogitDirection logit_direction(const Model& model, const LogitTarget& what,
                               const AttributionOptions& options) {
    const ModelConfig& c = model.config();
    const Index N = c.num_layers, H = c.num_heads, E = c.hidden_size, d = c.head_dim;
    std::vector<Index> ids{what.target};
    if (what.distractor) ids.push_back(*what.distractor);
    LogitDirection out;
    out.readout = model.readout(ids);
    const Readout& r = out.readout;
    out.u.resize(static_cast<std::size_t>(E));
    out.direction.resize(out.u.size());
    double direction_mean = 0.0;
    for (Index e = 0; e < E; ++e) {
        out.u[e] = r.unembed.ptr()[e] - (what.distractor ? r.unembed.ptr()[E + e] : 0.0);
        out.direction[e] = out.u[e] * r.norm_weight.ptr()[e];
        direction_mean += out.direction[e] / static_cast<double>(E);
    }
    if (!r.rms)
        for (double& v : out.direction)
            v -= direction_mean;
    out.attention_bias.assign(static_cast<std::size_t>(N),
                              std::numeric_limits<double>::quiet_NaN());
    out.through.resize(static_cast<std::size_t>(N));
    for (Index l = 0; l < N; ++l) {
        options.control.check();
        const AttentionWeights w = model.attention_weights(l, AttentionParts::Output);
        std::vector<double>& g = out.through[static_cast<std::size_t>(l)];
        g.assign(static_cast<std::size_t>(H * d), 0.0);
        for (Index e = 0; e < E; ++e) {
            const float* o = w.o.ptr() + e * H * d;
            for (Index k = 0; k < H * d; ++k)
                g[static_cast<std::size_t>(k)] += out.direction[e] * o[k];
        }
        if (!w.o_bias.empty())
            out.attention_bias[static_cast<std::size_t>(l)] = dot(out.direction, w.o_bias.ptr());
    }
    return out;
}

/// What the parts read of a pass at the position, each [1, ·] per layer as a PositionSink of
/// it keeps them: the stream before every layer and after the last, the contexts, the
/// attention rows [1, heads, L], each token's value along each head's direction [L, heads],
/// and where a head is mean-knocked its attention's column means [heads, L].
struct KeptAtPosition {
    const std::vector<Tensor>& residuals;
    const std::vector<Tensor>& contexts;
    const std::vector<Tensor>& rows;
    const std::vector<Tensor>& along;
    const std::vector<Tensor>& column_means;
};

/// The parts of the logit from the pass kept at its position: embeddings + Σ heads + Σ biases
/// + Σ MLPs + constant = total.
LogitAttribution attribute_kept(const Model& model, const LogitTarget& what, Index L,
                                LogitDirection&& dir, const KnockOuts& knocked,
                                const KeptAtPosition& s) {
    const ModelConfig& c = model.config();
    const Index N = c.num_layers, H = c.num_heads, E = c.hidden_size, d = c.head_dim;
    const Readout& r = dir.readout;
    const std::vector<double>& u = dir.u;
    const std::vector<double>& direction = dir.direction;
    LogitAttribution out;
    out.what = what;
    out.attention_bias = std::move(dir.attention_bias);
    out.mlps.assign(static_cast<std::size_t>(N), std::numeric_limits<double>::quiet_NaN());

    // The final norm's scale at the position, frozen: 1/σ (LayerNorm) or 1/rms (RMSNorm).
    const float* x = s.residuals[static_cast<std::size_t>(N)].ptr();
    double mean = 0.0;
    if (!r.rms)
        for (Index e = 0; e < E; ++e)
            mean += x[e] / static_cast<double>(E);
    double var = 0.0;
    for (Index e = 0; e < E; ++e)
        var += (x[e] - mean) * (x[e] - mean) / static_cast<double>(E);
    const double scale = 1.0 / std::sqrt(var + r.norm_eps);
    out.norm_scale = scale;
    if (!r.norm_bias.empty())
        for (Index e = 0; e < E; ++e)
            out.constant += u[e] * r.norm_bias.ptr()[e];
    // The logit itself, u · norm(x) in double: the parts must add up to it.
    double total = out.constant;
    for (Index e = 0; e < E; ++e)
        total += u[e] * r.norm_weight.ptr()[e] * (x[e] - mean) * scale;
    out.total = total;

    // A head's share is scale · (W_O^hᵀ · direction) · context_h; the MLP's what the layer's
    // step along the direction leaves after its attention.
    out.embeddings = scale * dot(direction, s.residuals[0].ptr());
    out.heads = Tensor({N, H});
    out.by_source = Tensor({N, H, L});
    for (Index l = 0; l < N; ++l) {
        const auto at = static_cast<std::size_t>(l);
        const std::vector<double>& g = dir.through[at];
        double attention = 0.0;
        for (Index h = 0; h < H; ++h) {
            const float* context = s.contexts[at].ptr() + h * d;
            double share = 0.0;
            for (Index k = 0; k < d; ++k)
                share += g[static_cast<std::size_t>(h * d + k)] * context[k];
            out.heads.ptr()[l * H + h] = static_cast<float>(share * scale);
            attention += share * scale;
            // By source: head h's output is Σ_j α_pj v_j through W_O^h, so token j's share is
            // α_pj · (v_j · W_O^hᵀ direction) · scale; mean-knocked, the mean over the
            // positions i of Σ_j α_ij v_j, so α_pj becomes the column's mean; zero-knocked,
            // nothing (its share is an exact 0 already: its context is).
            const std::optional<HeadIntervention::Kind> how =
                knocked[at][static_cast<std::size_t>(h)];
            float* row = out.by_source.ptr() + (l * H + h) * L;
            if (how == HeadIntervention::Kind::Zero) {
                std::fill_n(row, L, 0.0f);
                continue;
            }
            const float* alpha = how == HeadIntervention::Kind::Mean
                                     ? s.column_means[at].ptr() + h * L
                                     : s.rows[at].ptr() + h * L;
            const float* along = s.along[at].ptr() + h;
            for (Index j = 0; j < L; ++j)
                row[j] = static_cast<float>(alpha[j] * along[j * H] * scale);
        }
        double& bias = out.attention_bias[at];
        if (!std::isnan(bias)) {
            bias *= scale;
            attention += bias;
        }
        if (c.intermediate_size > 0)
            out.mlps[at] = scale * (dot(direction, s.residuals[at + 1].ptr()) -
                                    dot(direction, s.residuals[at].ptr())) -
                           attention;
    }
    return out;
}

/// Throws std::invalid_argument when `record` cannot give the parts of the pass `options`
/// asks for: no attention kept, values or weights of another shape, other heads knocked out.
void check_logit_record(const ModelConfig& c, const StreamRecord& record,
                        const AttributionOptions& options) {
    check_record(c, record);
    if (!record.has_attention())
        throw std::invalid_argument(
            "the record holds no attention weights: a logit's split by source needs them "
            "(record the pass with RecordedParts::StreamAndAttention)");
    const Index L = record.tokens();
    const auto N = static_cast<std::size_t>(c.num_layers);
    if (record.values.size() != N || record.attention.size() != N ||
        record.values.front().shape != Shape{L, c.num_kv_heads * c.head_dim} ||
        record.attention.front().shape != Shape{c.num_heads, L, L})
        throw std::invalid_argument("the record's values or attention weights are not shaped as " +
                                    c.display_name() + "'s over " + std::to_string(L) + " tokens");
    if (!record.is_pass_of(record.input, options.interventions))
        throw std::invalid_argument(
            "the record is of a pass with other heads knocked out: its parts would be another "
            "model's");
}

}  // namespace

LogitAttribution attribute_logit(const Model& model, const ModelInput& input,
                                 const LogitTarget& what, const AttributionOptions& options) {
    check_logit_request(model, what, static_cast<Index>(input.ids.size()), options);
    const ModelConfig& c = model.config();
    const Index L = static_cast<Index>(input.ids.size());
    // The direction first, so that the pass projects the values as it hands them over.
    LogitDirection dir = logit_direction(model, what, options);
    const KnockOuts knocked = knock_outs_of(options.interventions, c);
    PositionSink s({what.position}, c, L, &dir.through, &knocked);
    run_pass(model, input, options, s);
    return attribute_kept(model, what, L, std::move(dir), knocked,
                          {s.residuals, s.contexts, s.rows, s.along, s.column_means});
}

LogitAttribution attribute_logit(const Model& model, const StreamRecord& record,
                                 const LogitTarget& what, const AttributionOptions& options) {
    check_logit_request(model, what, record.tokens(), options);
    const ModelConfig& c = model.config();
    check_logit_record(c, record, options);
    const Index L = record.tokens(), H = c.num_heads;
    LogitDirection dir = logit_direction(model, what, options);
    const KnockOuts knocked = knock_outs_of(options.interventions, c);
    // As a pass's PositionSink keeps them at the position.
    const std::vector<Index> at{what.position};
    std::vector<Tensor> residuals, contexts, rows, along, column_means;
    for (const Tensor& x : record.residuals)
        residuals.push_back(pick_rows(x, at));
    for (std::size_t l = 0; l < record.contexts.size(); ++l) {
        contexts.push_back(pick_rows(record.contexts[l], at));
        const Tensor& weights = record.attention[l];
        Tensor row({1, H, L});
        for (Index h = 0; h < H; ++h)
            std::copy_n(weights.ptr() + (h * L + what.position) * L, L, row.ptr() + h * L);
        rows.push_back(std::move(row));
        along.push_back(
            values_along(record.values[l], dir.through[l], H, c.num_kv_heads, c.head_dim, L));
        // A mean-knocked head's column means, Σ_i α_ij / L: summed row by row here, thread by
        // thread in a pass (the only numbers that may differ from it, by a float's rounding).
        Tensor means;
        for (Index h = 0; h < H; ++h) {
            if (knocked[l][static_cast<std::size_t>(h)] != HeadIntervention::Kind::Mean) continue;
            if (means.empty()) means = Tensor({H, L});
            for (Index j = 0; j < L; ++j) {
                double sum = 0.0;
                for (Index i = 0; i < L; ++i)
                    sum += weights.ptr()[(h * L + i) * L + j];
                means.ptr()[h * L + j] = static_cast<float>(sum / static_cast<double>(L));
            }
        }
        column_means.push_back(std::move(means));
    }
    return attribute_kept(model, what, L, std::move(dir), knocked,
                          {residuals, contexts, rows, along, column_means});
}

}  // namespace attnviz::models
