// The forward pass of the transformer (transformer.h): a plan of what each layer hands over,
// then the layers one after another, each block's attention given to the sink as it is
// computed.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/layers/attention_core.h"
#include "engine/models/transformer.h"
#include "engine/ops/masks.h"
#include "engine/ops/nn.h"

namespace attnviz::models::detail {

std::vector<Index> Transformer::positions(const ModelInput& input) const {
    const auto L = static_cast<Index>(input.ids.size());
    std::vector<Index> pos(static_cast<std::size_t>(L));
    if (config_.pad_token_id >= 0) {
        // RoBERTa: create_position_ids_from_input_ids: pads get padding_idx, the others count
        // from padding_idx + 1.
        Index seen = 0;
        for (Index t = 0; t < L; ++t) {
            const bool pad = input.ids[static_cast<std::size_t>(t)] == config_.pad_token_id;
            if (!pad) ++seen;
            pos[static_cast<std::size_t>(t)] =
                pad ? config_.pad_token_id : config_.pad_token_id + seen;
        }
    } else {
        for (Index t = 0; t < L; ++t)
            pos[static_cast<std::size_t>(t)] = t;
    }
    const Index last = L ? *std::max_element(pos.begin(), pos.end()) : 0;
    if (last >= config_.max_positions)
        throw std::invalid_argument(
            std::to_string(L) + " tokens are more than " + config_.display_name() +
            " takes: it has " + std::to_string(config_.max_positions) + " positions" +
            (config_.pad_token_id >= 0 ? " (RoBERTa's start after the padding index)" : ""));
    return pos;
}

void Transformer::embedding_sum(const ModelInput& input, const std::vector<Index>& pos,
                                float* x) const {
    const GlobalParams p = global_params(config_);
    const auto L = static_cast<Index>(input.ids.size());
    weights_.lookup(p.word, input.ids, x, false);
    weights_.lookup(p.position, pos, x, true);
    if (!p.token_type.name.empty()) {
        std::vector<Index> types = input.token_type_ids;
        if (types.empty()) types.assign(static_cast<std::size_t>(L), 0);
        if (static_cast<Index>(types.size()) != L)
            throw std::invalid_argument("token_type_ids has " + std::to_string(types.size()) +
                                        " entries for " + std::to_string(L) + " tokens");
        weights_.lookup(p.token_type, types, x, true);
    }
}

void Transformer::embed(const ModelInput& input, const std::vector<Index>& pos, float* x,
                        const Tracer& trace) const {
    const GlobalParams p = global_params(config_);
    const auto L = static_cast<Index>(input.ids.size());
    embedding_sum(input, pos, x);
    const GlobalWeights& g = weights_.globals();
    if (trace.on()) {  // each part of the sum at the traced token, as the lookups give them
        const auto t = static_cast<std::size_t>(trace.row);
        const Index E = config_.hidden_size;
        std::vector<float> part(static_cast<std::size_t>(E));
        weights_.lookup(p.word, {input.ids[t]}, part.data(), false);
        trace.values(TraceStep::TokenEmbedding, part.data(), 1, E);
        if (!p.position.name.empty()) {
            weights_.lookup(p.position, {pos[t]}, part.data(), false);
            trace.values(TraceStep::PositionEmbedding, part.data(), 1, E);
        }
        if (!p.token_type.name.empty()) {
            weights_.lookup(p.token_type,
                            {input.token_type_ids.empty() ? 0 : input.token_type_ids[t]},
                            part.data(), false);
            trace.values(TraceStep::TokenTypeEmbedding, part.data(), 1, E);
        }
        if (!g.emb_norm_w.empty()) trace.emit(TraceStep::EmbeddingSum, x, E);
    }
    if (!g.emb_norm_w.empty()) norm(x, L, g.emb_norm_w, g.emb_norm_b);
    trace.emit(TraceStep::Embedding, x, config_.hidden_size);
}

void Transformer::project_qkv(const LayerWeights& w, const float* h, Index rows,
                              const std::vector<Index>& pos, int threads, Scratch& scratch,
                              std::vector<float>* unrotated, std::vector<float>* projected) const {
    std::vector<float>& qkv = scratch.qkv;
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index ld = (H + 2 * KV) * d;
    qkv.resize(static_cast<std::size_t>(rows * ld));
    weights_.product(h, rows, config_.hidden_size, w.qkv_w, w.qkv_b, ld, qkv.data(), threads,
                     scratch);
    if (projected) projected->assign(qkv.begin(), qkv.end());
    float* q = qkv.data();
    float* k = q + H * d;
    const float eps = static_cast<float>(config_.norm_eps);
    if (!w.q_norm.empty())
        for (Index hh = 0; hh < H; ++hh)
            ops::rms_norm(q + hh * d, rows, d, w.q_norm.ptr, eps, ld);
    if (!w.k_norm.empty())
        for (Index g = 0; g < KV; ++g)
            ops::rms_norm(k + g * d, rows, d, w.k_norm.ptr, eps, ld);
    if (unrotated) unrotated->assign(qkv.begin(), qkv.end());
    const Tracer& trace = scratch.trace;
    trace.emit(TraceStep::Query, q, ld, H, d);
    trace.emit(TraceStep::Key, k, ld, KV, d);
    trace.emit(TraceStep::Value, k + KV * d, ld, KV, d);
    if (config_.rotary()) {
        // The keys' heads follow the queries' in each row: both rotated with one angle each.
        ops::apply_rotary(q, rows, H + KV, d, ld, pos, inv_freq_, threads);
        trace.emit(TraceStep::QueryRotated, q, ld, H, d);
        trace.emit(TraceStep::KeyRotated, k, ld, KV, d);
    }
}

float Transformer::score_scale(Index layer) const {
    float scale = 1.0f;
    if (config_.family != Family::Gpt2 || config_.scale_attn_weights)
        scale = 1.0f / std::sqrt(static_cast<float>(config_.head_dim));
    if (config_.family == Family::Gpt2 && config_.scale_attn_by_inverse_layer_idx)
        scale /= static_cast<float>(layer + 1);
    return scale;
}

void Transformer::intervene(Index layer, float* concat, Index L,
                            const std::vector<HeadIntervention>& interventions) const {
    const Index H = config_.num_heads, d = config_.head_dim, width = H * d;
    for (const HeadIntervention& iv : interventions) {
        if (iv.head.layer != layer) continue;
        float* col = concat + iv.head.head * d;
        switch (iv.kind) {
            case HeadIntervention::Kind::Zero:
                for (Index r = 0; r < L; ++r)
                    std::fill_n(col + r * width, d, 0.0f);
                break;
            case HeadIntervention::Kind::Mean: {
                std::vector<double> mean(static_cast<std::size_t>(d), 0.0);
                for (Index r = 0; r < L; ++r)
                    for (Index c = 0; c < d; ++c)
                        mean[static_cast<std::size_t>(c)] += col[r * width + c];
                for (Index r = 0; r < L; ++r)
                    for (Index c = 0; c < d; ++c)
                        col[r * width + c] =
                            static_cast<float>(mean[static_cast<std::size_t>(c)] / double(L));
                break;
            }
            case HeadIntervention::Kind::Patch: {
                const Tensor& src = *iv.source;
                const float* from = src.ptr() + iv.head.head * d;
                for (Index r = 0; r < L; ++r)
                    std::copy_n(from + r * width, d, col + r * width);
                break;
            }
        }
    }
}

void Transformer::intervene_all(Index layer, float* concat, Index L, Index B,
                                const ModelForwardOptions& options) const {
    const Index rows = L * config_.num_heads * config_.head_dim;
    for (Index b = 0; b < B; ++b) {
        intervene(layer, concat + b * rows, L, options.interventions);
        if (!options.variants.empty())
            intervene(layer, concat + b * rows, L, options.variants[static_cast<std::size_t>(b)]);
    }
}

void Transformer::resumed_attention(Index layer, const LayerWeights& w, Index L,
                                    const ModelForwardOptions& options, float* out,
                                    AttentionSink& sink, Scratch& scratch, Index B) const {
    const Index H = config_.num_heads, d = config_.head_dim, E = config_.hidden_size;
    const int threads = std::max(1, options.num_threads);
    const Tensor& c = *options.resume_context;
    if (c.numel() != static_cast<std::size_t>(L * H * d))
        throw std::invalid_argument("resume_context has " + std::to_string(c.numel()) +
                                    " values for " + std::to_string(L) + " tokens × " +
                                    std::to_string(H * d));
    std::vector<float> all(static_cast<std::size_t>(B) * c.numel());
    for (Index b = 0; b < B; ++b)
        std::copy(c.data.begin(), c.data.end(), all.begin() + b * L * H * d);
    intervene_all(layer, all.data(), L, B, options);
    if (sink.wants_contexts()) sink.on_context(layer, Tensor({B * L, H * d}, all));
    weights_.product(all.data(), B * L, H * d, w.o_w, w.o_b, E, out, threads, scratch);
}

void Transformer::capture_steps(AttentionResult& result, const layers::ResultWindow& win, Index L,
                                const std::vector<float>& unrotated, Scratch& scratch) const {
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index ld = (H + 2 * KV) * d;
    const float* q = scratch.qkv.data();
    const float* k = q + H * d;
    const float* v = k + KV * d;
    const Index Lw = win.rows;
    result.steps.emplace();
    result.steps->heads.resize(static_cast<std::size_t>(H));
    for (Index hh = 0; hh < H; ++hh) {
        HeadSteps& st = result.steps->heads[static_cast<std::size_t>(hh)];
        const Index g = hh / (H / KV);
        st.kv_head = g;
        st.q = layers::copy_block(q + win.q0 * ld + hh * d, Lw, d, ld);
        st.k = layers::copy_block(k + g * d, L, d, ld);
        st.v = layers::copy_block(v + g * d, L, d, ld);
        if (config_.rotary()) {
            st.q_unrotated = layers::copy_block(unrotated.data() + win.q0 * ld + hh * d, Lw, d, ld);
            st.k_unrotated = layers::copy_block(unrotated.data() + H * d + g * d, L, d, ld);
        }
        layers::size_stages(st, Lw, L, d);
    }
}

void Transformer::attention(const LayerPlan& step, const LayerWeights& w, const float* h, Index L,
                            const std::vector<Index>& pos, const ModelForwardOptions& options,
                            float* out, AttentionSink& sink, Scratch& scratch, Index B) const {
    const Index layer = step.layer;
    if (options.resume_context && layer == options.resume_layer) {
        // The context of this layer is known (the run being resumed): only the interventions
        // and the output projection are left.
        resumed_attention(layer, w, L, options, out, sink, scratch, B);
        return;
    }
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index E = config_.hidden_size;
    const Index ld = (H + 2 * KV) * d;
    const int threads = std::max(1, options.num_threads);
    std::vector<float>& qkv = scratch.qkv;  // reused from layer to layer: no re-zeroing
    const bool keep = step.keep, hand_rows = step.rows;
    const Index only = keep || hand_rows ? options.scope.only_head : -1;  // checked by forward()
    const bool steps = keep && options.steps_layer == layer && only < 0;
    std::vector<float> unrotated;
    std::vector<Index> pos_all = pos;
    for (Index b = 1; b < B; ++b)
        pos_all.insert(pos_all.end(), pos.begin(), pos.end());
    project_qkv(w, h, B * L, pos_all, threads, scratch, steps ? &unrotated : nullptr);
    float* q = qkv.data();
    float* k = q + H * d;
    float* v = k + KV * d;
    if (B == 1 && sink.wants_values()) {
        Tensor values({L, KV * d});
        for (Index r = 0; r < L; ++r)
            std::copy_n(v + r * ld, KV * d, values.ptr() + r * KV * d);
        sink.on_values(layer, values);
    }

    AttentionForwardOptions window;
    if (keep) {
        window.weights_heads = only < 0 ? options.scope.heads : options.scope.heads == 0 ? 0 : 1;
        window.query_begin = window.key_begin = options.scope.window_begin;
        window.query_count = window.key_count = options.scope.window_length;
    }
    const layers::ResultWindow win = layers::result_window(window, H, L, L);
    AttentionResult result;
    if (steps) capture_steps(result, win, L, unrotated, scratch);
    const float scale = score_scale(layer);
    for (Index r = 0; r < B * L; ++r)
        for (Index c = 0; c < H * d; ++c)
            q[r * ld + c] *= scale;

    const ops::MaskSpec masks{nullptr, nullptr, config_.causal(), B, H, L, L, 0};
    // attend() writes every row of every head's context (the heads of a one-head pass end it
    // below, before the others are read).
    std::vector<float>& concat = scratch.concat;
    concat.resize(static_cast<std::size_t>(B * L * H * d));
    layers::ProjectedHeads in = projected(k, v, ld, ld, B, L, scale);
    layers::AttendOptions opt;
    opt.masked_rows = options.masked_rows;
    opt.num_threads = threads;
    if (only >= 0) {
        opt.first_head = only;
        opt.last_head = only + 1;
    }
    layers::RowObserver observer;
    // The traced token's row of every head (each head's block writes its own slice).
    const Tracer& trace = scratch.trace;
    std::vector<float> traced_row(trace.on() ? static_cast<std::size_t>(H * L) : 0);
    if (hand_rows) sink.begin_rows(layer, static_cast<std::size_t>(threads));
    if (hand_rows || trace.on()) {
        observer = [&](std::size_t slot, const RowBlock& block) {
            if (hand_rows) sink.on_rows(layer, slot, block);
            const Index t = trace.row;
            if (t >= block.first_row && t < block.first_row + block.rows)  // its valid weights
                std::copy_n(block.row(t - block.first_row), block.valid(t - block.first_row),
                            traced_row.data() + block.head * L);
        };
        opt.observer = &observer;
    }
    // Every query row feeds the next layer; only the window's rows are kept.  Rows outside it
    // are attended without weights.
    auto run = [&](Index r0, Index rows, bool with_weights, AttentionResult& res) {
        if (rows <= 0) return;
        AttentionForwardOptions part;
        part.query_begin = r0;
        part.query_count = rows;
        if (with_weights) {
            part.weights_heads = window.weights_heads;
            part.key_begin = window.key_begin;
            part.key_count = window.key_count;
        }
        in.q = q + r0 * ld;
        opt.need_weights = with_weights;
        layers::attend(in, masks, layers::result_window(part, H, L, L), opt, res,
                       concat.data() + r0 * H * d, H * d);
    };
    if (keep) {
        AttentionResult before, after;
        run(0, win.q0, false, before);
        run(win.q0, win.rows, true, result);
        run(win.q0 + win.rows, L - win.q0 - win.rows, false, after);
    } else {
        AttentionResult discarded;
        run(0, L, false, discarded);
    }
    if (hand_rows) sink.end_rows(layer);
    trace.values(TraceStep::Attention, traced_row.data(), H, L);
    if (only >= 0) {  // the pass ends here (forward()): the other heads' contexts are missing
        if (keep) sink.on_layer(layer, std::move(result));
        return;
    }
    intervene_all(layer, concat.data(), L, B, options);
    if (sink.wants_contexts()) sink.on_context(layer, Tensor({B * L, H * d}, concat));
    trace.emit(TraceStep::Context, concat.data(), H * d, H, d);
    weights_.product(concat.data(), B * L, H * d, w.o_w, w.o_b, E, out, threads, scratch);
    trace.emit(TraceStep::AttentionOutput, out, E);
    if (steps) {  // every row: the steps view shows the whole layer
        result.steps->input = Tensor({1, L, E}, std::vector<float>(h, h + L * E));
        result.steps->concat = Tensor({1, L, H * d}, concat);
        result.output = Tensor({1, L, E}, std::vector<float>(out, out + L * E));
    }
    if (keep) sink.on_layer(layer, std::move(result));
}

void Transformer::mlp(const LayerWeights& w, const float* h, Index L, float* out, int threads,
                      Scratch& scratch, std::vector<float>* pre_activation) const {
    const Index E = config_.hidden_size, I = config_.intermediate_size;
    const bool gated = config_.family == Family::Llama;
    const Index width = gated ? 2 * I : I;
    std::vector<float>& mid = scratch.mid;
    mid.resize(static_cast<std::size_t>(L * width));
    weights_.product(h, L, E, w.up_w, w.up_b, width, mid.data(), threads, scratch);
    const Tracer& trace = scratch.trace;
    if (gated) trace.emit(TraceStep::Gate, mid.data(), width, 1, I);
    trace.emit(TraceStep::Up, mid.data() + (gated ? I : 0), width, 1, I);
    if (pre_activation) pre_activation->assign(mid.begin(), mid.end());
    // Activation (and the gate) row by row over the threads: at a few hundred tokens the
    // erf/exp of the intermediate are a tenth of the pass.
    ops::parallel_for(static_cast<std::size_t>(L), threads, [&](std::size_t r0, std::size_t r1) {
        for (auto r = static_cast<Index>(r0); r < static_cast<Index>(r1); ++r) {
            float* g = mid.data() + r * width;
            ops::activate(g, static_cast<std::size_t>(I), config_.activation);
            if (gated)  // down(act(gate(h)) * up(h)): gate is the first I columns
                for (Index c = 0; c < I; ++c)
                    g[c] *= g[I + c];
        }
    });
    trace.emit(TraceStep::Activation, mid.data(), width, 1, I);
    weights_.product(mid.data(), L, I, w.down_w, w.down_b, E, out, threads, scratch, width, E);
    trace.emit(TraceStep::MlpOutput, out, E);
}

void Transformer::check_interventions(Index L,
                                      const std::vector<const HeadIntervention*>& every) const {
    const Index H = config_.num_heads;
    for (const HeadIntervention* p : every) {
        const HeadIntervention& iv = *p;
        if (iv.head.layer < 0 || iv.head.layer >= config_.num_layers || iv.head.head < 0 ||
            iv.head.head >= H)
            throw std::invalid_argument("head " + std::to_string(iv.head.head) + " of layer " +
                                        std::to_string(iv.head.layer) +
                                        " does not exist: " + config_.display_name() + " has " +
                                        std::to_string(config_.num_layers) + " layers of " +
                                        std::to_string(H) + " heads");
        if (iv.kind == HeadIntervention::Kind::Patch &&
            (!iv.source ||
             iv.source->numel() != static_cast<std::size_t>(L * H * config_.head_dim)))
            throw std::invalid_argument("patching needs the source run's context of " +
                                        std::to_string(L) +
                                        " tokens: the texts must have as many tokens");
    }
}

void Transformer::check_forward(const ModelInput& input, const ModelForwardOptions& options,
                                const AttentionSink& sink) const {
    const auto L = static_cast<Index>(input.ids.size());
    if (L == 0) throw std::invalid_argument("the input has no tokens");
    for (Index l : options.scope.layers)
        if (l < 0 || l >= config_.num_layers)
            throw std::invalid_argument(
                "layer " + std::to_string(l) + " does not exist: " + config_.display_name() +
                " has layers 0 to " + std::to_string(config_.num_layers - 1));
    if (options.scope.heads < -1 || options.scope.heads > config_.num_heads)
        throw std::invalid_argument("heads kept " + std::to_string(options.scope.heads) +
                                    " is not in [-1, " + std::to_string(config_.num_heads) + "]");
    const Index B = options.variants.empty() ? 1 : static_cast<Index>(options.variants.size());
    if (B > 1 && (options.attention || sink.wants_hidden_states()))
        throw std::invalid_argument(
            "a pass over several variants hands over no attention or hidden states");
    std::vector<const HeadIntervention*> every;
    for (const HeadIntervention& iv : options.interventions)
        every.push_back(&iv);
    for (const auto& v : options.variants)
        for (const HeadIntervention& iv : v)
            every.push_back(&iv);
    check_interventions(L, every);
    const Index first = options.resume_residual ? options.resume_layer : 0;
    if (first < 0 || first >= config_.num_layers)
        throw std::invalid_argument("resume_layer " + std::to_string(first) + " is not a layer");
    const Index traced = options.trace_position;
    if (traced >= L || traced < -1)
        throw std::invalid_argument("token " + std::to_string(traced + 1) + " is not one of the " +
                                    std::to_string(L) + " tokens");
    if (traced >= 0 && (B > 1 || options.scope.only_head >= 0))
        throw std::invalid_argument("a traced pass runs one variant of the text with every head");
}

ForwardPlan Transformer::plan_forward(const ModelForwardOptions& options, const AttentionSink& sink,
                                      Index B) const {
    const Index N = config_.num_layers, H = config_.num_heads;
    ForwardPlan plan;
    plan.first = options.resume_residual ? options.resume_layer : 0;
    plan.hidden = sink.wants_hidden_states() && plan.first == 0;
    plan.residuals = sink.wants_residuals();
    const auto& kept = options.scope.layers;
    // Every layer's rows, for a sink that wants them: no layer after the kept ones is skipped.
    const bool every_rows = options.scope.rows_every_layer && sink.wants_rows();
    const bool streams = plan.residuals || sink.wants_contexts() || every_rows;
    // The layers this pass runs: up to the last kept one when nothing after it is wanted.
    const bool to_last_kept = !kept.empty() && !plan.hidden && !streams;
    plan.progress_total = (to_last_kept ? std::min(kept.back() + 1, N) : N) - plan.first;
    const Index only = options.scope.only_head;
    if (only >= 0 && (only >= H || kept.empty() || plan.hidden || streams || B > 1))
        throw std::invalid_argument(
            only >= H ? "head " + std::to_string(only) + " does not exist: " +
                            config_.display_name() + " has " + std::to_string(H) + " heads"
                      : std::string("a pass of one head ends after its last kept layer: it "
                                    "hands over nothing else"));
    if (sink.wants_rows() && B > 1)
        throw std::invalid_argument("a pass over several variants hands over no attention rows");
    std::size_t next_kept = 0;
    for (Index i = plan.first; i < N; ++i) {
        bool in_scope = kept.empty();
        if (!in_scope && next_kept < kept.size() && kept[next_kept] == i) {
            in_scope = true;
            ++next_kept;
        }
        LayerPlan step;
        step.layer = i;
        // Several variants at once hand over no attention (checked above for the weights).
        step.keep = in_scope && options.attention && B == 1;
        step.rows = (in_scope || every_rows) && sink.wants_rows() && B == 1;
        // One head's pass (scope.only_head) stops after the attention of its last layer.
        step.ends_pass = only >= 0 && next_kept == kept.size();
        plan.layers.push_back(step);
        // Nothing after the last kept layer is handed over (the steps view's pass to one layer).
        if (step.ends_pass || (to_last_kept && next_kept == kept.size())) break;
    }
    return plan;
}

void Transformer::start_stream(const ModelInput& input, const ModelForwardOptions& options,
                               PassState& pass) const {
    const Index L = pass.L, E = config_.hidden_size;
    const auto one = static_cast<std::size_t>(L * E);
    pass.x.resize(static_cast<std::size_t>(pass.B) * one);
    pass.h.resize(pass.x.size());
    pass.a.resize(pass.x.size());
    if (options.resume_residual) {
        if (options.resume_residual->numel() != one)
            throw std::invalid_argument("resume_residual has " +
                                        std::to_string(options.resume_residual->numel()) +
                                        " values for " + std::to_string(L) + " tokens");
        std::copy(options.resume_residual->data.begin(), options.resume_residual->data.end(),
                  pass.x.begin());
    } else {
        embed(input, pass.pos, pass.x.data(), pass.scratch.trace);
    }
    for (Index b = 1; b < pass.B; ++b)  // every variant starts from the same stream
        std::copy_n(pass.x.begin(), one, pass.x.begin() + static_cast<std::ptrdiff_t>(b * L * E));
}

bool Transformer::run_layer(const LayerPlan& step, const LayerWeights& w, PassState& pass,
                            const ModelForwardOptions& options, AttentionSink& sink) const {
    const Index E = config_.hidden_size, L = pass.L, B = pass.B, R = B * L;
    const int threads = pass.threads;
    std::vector<float>& x = pass.x;
    std::vector<float>& h = pass.h;
    std::vector<float>& a = pass.a;
    Scratch& scratch = pass.scratch;
    const Tracer& trace = scratch.trace;
    // The copies and sums of the residual stream over both threads: at 8,192 tokens each is
    // tens of megabytes, which one thread went through while the other waited.
    if (config_.pre_norm()) {
        h.resize(x.size());
        ops::copy(x.data(), x.size(), h.data(), threads);
        norm(h.data(), R, w.norm1_w, w.norm1_b, threads);
        trace.emit(TraceStep::AttentionNorm, h.data(), E);
        attention(step, w, h.data(), L, pass.pos, options, a.data(), sink, scratch, B);
        if (step.ends_pass) return false;
        ops::add_inplace(x.data(), a.data(), x.size(), threads);
        trace.emit(TraceStep::AttentionResidual, x.data(), E);
        options.control.check();  // a layer of an 8B model is seconds long
        if (config_.intermediate_size > 0) {
            ops::copy(x.data(), x.size(), h.data(), threads);
            norm(h.data(), R, w.norm2_w, w.norm2_b, threads);
            trace.emit(TraceStep::MlpNorm, h.data(), E);
            mlp(w, h.data(), R, a.data(), threads, scratch);
            ops::add_inplace(x.data(), a.data(), x.size(), threads);
            trace.emit(TraceStep::MlpResidual, x.data(), E);
        }
        return true;
    }
    attention(step, w, x.data(), L, pass.pos, options, a.data(), sink, scratch, B);
    if (step.ends_pass) return false;
    ops::add_inplace(a.data(), x.data(), x.size(), threads);
    trace.emit(TraceStep::AttentionResidual, a.data(), E);
    norm(a.data(), R, w.norm1_w, w.norm1_b, threads);
    trace.emit(TraceStep::AttentionResidualNorm, a.data(), E);
    options.control.check();
    mlp(w, a.data(), R, x.data(), threads, scratch);
    ops::add_inplace(x.data(), a.data(), x.size(), threads);
    trace.emit(TraceStep::MlpResidual, x.data(), E);
    norm(x.data(), R, w.norm2_w, w.norm2_b, threads);
    trace.emit(TraceStep::MlpResidualNorm, x.data(), E);
    return true;
}

void Transformer::forward(const ModelInput& input, const ModelForwardOptions& options,
                          AttentionSink& sink) const {
    check_forward(input, options, sink);
    const Index E = config_.hidden_size;
    PassState pass;
    pass.L = static_cast<Index>(input.ids.size());
    pass.B = options.variants.empty() ? 1 : static_cast<Index>(options.variants.size());
    pass.pos = positions(input);
    pass.threads = std::max(1, options.num_threads);
    Tracer& trace = pass.scratch.trace;
    trace = Tracer{&sink, options.trace_position, -1};
    start_stream(input, options, pass);
    const Index L = pass.L, R = pass.B * L;  // rows of every product
    std::vector<float>& x = pass.x;
    const ForwardPlan plan = plan_forward(options, sink, pass.B);
    if (plan.hidden) sink.on_hidden_state(0, Tensor({L, E}, x));
    const bool stream = weights_.begin_pass(options.weight_cache_bytes);
    for (const LayerPlan& step : plan.layers) {
        const Index i = step.layer;
        options.control.check();
        if (plan.residuals) sink.on_residual(i, Tensor({R, E}, x));
        const LayerWeights& w = weights_.layer(i, stream, pass.scratch, pass.threads);
        options.control.check();  // converting a streamed layer takes as long as running it
        trace.layer = i;
        const bool ended = !run_layer(step, w, pass, options, sink);
        if (plan.hidden) {  // never with a pass that ends early (plan_forward)
            Tensor out({L, E}, x);
            const GlobalWeights& g = weights_.globals();
            if (i + 1 == config_.num_layers && !g.final_norm_w.empty())
                norm(out.ptr(), L, g.final_norm_w, g.final_norm_b);
            sink.on_hidden_state(i + 1, out);
        }
        options.control.report(i + 1 - plan.first, plan.progress_total);
        if (ended) break;
    }
    if (trace.on() && weights_.lm_head() != LmHeadKind::None) {  // the head at the traced token
        const Index traced = trace.row;
        trace.layer = config_.num_layers;
        std::vector<float> row(x.begin() + traced * E, x.begin() + (traced + 1) * E);
        Tracer at = trace;
        at.row = 0;
        head_input(row, 1, pass.threads, at);
        const Tensor z = unembed(row, 1, pass.threads, nullptr);
        trace.values(TraceStep::Logits, z.ptr(), 1, config_.vocab_size);
    }
    if (plan.residuals) sink.on_residual(config_.num_layers, Tensor({R, E}, std::move(x)));
    TransformerWeights::release_stream(pass.scratch);
}

}  // namespace attnviz::models::detail
