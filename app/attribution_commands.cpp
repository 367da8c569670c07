// `attnviz attribute`: why a model predicts a token, from the command line
// (engine/models/attribution.h; input saliency and the backward pass's head gradients from
// engine/models/gradient_attribution.h).  Positions, layers and heads count from 1.
// Everything is computed before the first file is written, and each file is written atomically.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string_view>

#include "app/attribution_json.h"
#include "app/commands.h"
#include "app/saliency_spec.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/io/npy.h"
#include "engine/models/attribution.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"

namespace attnviz::cli {

namespace {

using Index = std::int64_t;

/// Logits and their parts: 7 significant digits, about a float's precision.
constexpr io::json::Format kReal = io::json::Format::general(7);

struct AttributeOptions {
    std::string folder, text, target, out_json, out_npy, out_grads;
    std::optional<std::string> distractor, saliency;
    std::optional<Index> position;  ///< from 1; negative: from the end
    AblateOptions ablate;
    MemoryOptions memory;
    int threads = 1;
};

void write_token(io::json::Writer& w, const text::HfTokenizer& t, Index id) {
    const std::string s = t.id_to_token(id);
    w.begin_object()
        .member("id", id)
        .member("token", s.empty() ? "<id " + std::to_string(id) + ">" : s)
        .end_object();
}

/// A value or null (NaN: the model has no such part).
void write_part(io::json::Writer& w, double v) {
    if (std::isnan(v))
        w.value(nullptr);
    else
        w.value(v, kReal);
}

/// saliency [tokens], saliency_method, saliency_steps, and with integrated gradients
/// saliency_baseline (m at the baseline) and saliency_delta (Σ saliency - (total - baseline),
/// the rule's completeness gap): null without --saliency.
void write_saliency(io::json::Writer& w, const std::optional<models::Saliency>& s) {
    w.key("saliency");
    if (!s) {
        w.value(nullptr);
        for (const char* key :
             {"saliency_method", "saliency_steps", "saliency_baseline", "saliency_delta"})
            w.key(key).value(nullptr);
        return;
    }
    w.begin_array();
    for (const double v : s->tokens)
        w.value(v, kReal);
    w.end_array()
        .member("saliency_method", s->steps == 0 ? "grad-input" : "ig")
        .member("saliency_steps", s->steps)
        .key("saliency_baseline");
    write_part(w, s->baseline);  // NaN for gradient × input
    w.key("saliency_delta");
    write_part(w, s->delta());
}

}  // namespace

Index saliency_steps(const std::string& spec) {
    if (spec == "grad-input") return 0;
    const std::string_view n = std::string_view(spec).substr(spec.rfind(':') + 1);
    Index steps = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), steps);
    if (spec.starts_with("ig:") && !n.empty() && ec == std::errc() && end == n.data() + n.size() &&
        steps >= 1 && steps <= kMaxSaliencySteps)
        return steps;
    throw UsageError("--saliency " + spec +
                     ": expected grad-input, or ig:N for integrated gradients over N steps (1 to " +
                     std::to_string(kMaxSaliencySteps) + ")");
}

models::GradientMetric gradient_metric(const models::LogitTarget& what) {
    models::GradientMetric metric;
    metric.kind = what.distractor ? models::GradientMetric::Kind::LogitDifference
                                  : models::GradientMetric::Kind::Logit;
    metric.position = what.position;
    metric.target = what.target;
    metric.distractor = what.distractor.value_or(0);
    return metric;
}

namespace {
/// `ablated`, as `attnviz predict --ablate` says them; absent for the intact model.
void write_ablated(io::json::Writer& w, const std::vector<models::HeadIntervention>& ablated) {
    if (ablated.empty()) return;
    w.key("ablated").begin_array();
    for (const models::HeadIntervention& h : ablated)
        w.begin_object()
            .member("layer", h.head.layer + 1)
            .member("head", h.head.head + 1)
            .member("mode", h.kind == models::HeadIntervention::Kind::Mean ? "mean" : "zero")
            .end_object();
    w.end_array();
}

/// position, target, distractor: what both documents begin with.
void write_what(io::json::Writer& w, const models::OpenedModel& m,
                const models::LogitTarget& what) {
    w.begin_object().member("position", what.position + 1);
    w.key("target");
    write_token(w, m.tokenizer, what.target);
    w.key("distractor");
    if (what.distractor)
        write_token(w, m.tokenizer, *what.distractor);
    else
        w.value(nullptr);
}
}  // namespace

std::string saliency_json(const models::OpenedModel& m, const models::LogitTarget& what,
                          const models::Saliency& saliency,
                          const std::vector<models::HeadIntervention>& ablated) {
    io::json::Writer w;
    write_what(w, m, what);
    w.member("total", saliency.metric, kReal);
    write_saliency(w, saliency);
    write_ablated(w, ablated);
    return w.end_object().take() + "\n";
}

std::string attribution_json(const models::OpenedModel& m, const models::LogitAttribution& a,
                             const std::optional<models::Saliency>& saliency,
                             const std::vector<models::HeadIntervention>& ablated) {
    const models::ModelInfo& info = m.model->info();
    io::json::Writer w;
    write_what(w, m, a.what);
    w.member("total", a.total, kReal)
        .member("constant", a.constant, kReal)
        .member("embeddings", a.embeddings, kReal)
        .member("norm_scale", a.norm_scale, kReal);
    w.key("heads").begin_array();
    for (Index l = 0; l < info.num_layers; ++l) {
        w.begin_array();
        for (Index h = 0; h < info.num_heads; ++h)
            w.value(a.heads.data[static_cast<std::size_t>(l * info.num_heads + h)], kReal);
        w.end_array();
    }
    w.end_array();
    for (const auto& [key, values] :
         {std::pair{"attention_bias", &a.attention_bias}, std::pair{"mlps", &a.mlps}}) {
        w.key(key).begin_array();
        for (const double v : *values)
            write_part(w, v);
        w.end_array();
    }
    write_saliency(w, saliency);
    write_ablated(w, ablated);
    return w.end_object().take() + "\n";
}

std::vector<models::HeadIntervention> ablation_options(const AblateOptions& o,
                                                       const models::ModelInfo& info) {
    if (o.heads.empty()) {
        if (o.mode != "zero") throw UsageError("--ablate-mode needs --ablate");
        return {};
    }
    return models::ablations(models::parse_head_list(o.heads, info, "--ablate"),
                             o.mode == "mean" ? models::HeadIntervention::Kind::Mean
                                              : models::HeadIntervention::Kind::Zero);
}

namespace {

/// Model::gradients' [layers, tokens, heads·head_dim] as [layers, heads, tokens, head_dim]:
/// each head's gradient one block, in S.npy's order.
Tensor gradients_by_head(const Tensor& g, Index heads, Index head_dim) {
    const Index layers = g.shape[0], tokens = g.shape[1];
    Tensor out({layers, heads, tokens, head_dim});
    for (Index l = 0; l < layers; ++l)
        for (Index t = 0; t < tokens; ++t)
            for (Index h = 0; h < heads; ++h)
                std::copy_n(g.ptr() + ((l * tokens + t) * heads + h) * head_dim, head_dim,
                            out.ptr() + ((l * heads + h) * tokens + t) * head_dim);
    return out;
}

int attribute(const AttributeOptions& o) {
    for (const auto& [path, option] :
         {std::pair{&o.out_json, "--out-json"}, std::pair{&o.out_npy, "--out-npy"},
          std::pair{&o.out_grads, "--out-grads"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const std::vector<models::HeadIntervention> ablated =
        ablation_options(o.ablate, m.model->info());
    const models::EncodedText e = models::encode_text(m, o.text, std::nullopt);
    const auto L = static_cast<Index>(e.input.ids.size());
    models::LogitTarget what;
    what.position = token_index(o.position.value_or(-1), L, "--position");
    what.target = models::single_token_id(m.tokenizer, o.target, "--target");
    if (o.distractor)
        what.distractor = models::single_token_id(m.tokenizer, *o.distractor, "--distractor");
    // The logit attribution's pass keeps no map; the gradients' passes hold their own.
    models::ModelForwardOptions pass;
    pass.attention = false;
    std::uint64_t bytes = m.model->estimate_forward_bytes(L, pass);
    if (o.saliency)
        bytes += models::saliency_bytes(*m.model, L, gradient_metric(what));
    else if (!o.out_grads.empty())
        bytes += models::gradient_bytes(m.model->config(), L, gradient_metric(what), true);
    models::AttributionOptions options;
    options.num_threads = o.threads;
    options.weight_cache_bytes = planned_weight_cache(*m.model, bytes, L, o.memory);
    options.interventions = ablated;
    models::GradientOptions backward;
    backward.num_threads = o.threads;
    backward.weight_cache_bytes = options.weight_cache_bytes;
    backward.head_gradients = !o.out_grads.empty();
    backward.interventions = ablated;  // the gradients of the model the parts are of
    models::LogitAttribution a;
    std::optional<models::Saliency> saliency;
    Tensor head_gradients;
    try {
        a = models::attribute_logit(*m.model, e.input, what, options);
        if (o.saliency) {
            saliency = models::saliency(*m.model, e.input, gradient_metric(what),
                                        saliency_steps(*o.saliency), backward);
            head_gradients = std::move(saliency->gradients);
        } else if (!o.out_grads.empty()) {
            head_gradients =
                m.model->gradients(e.input, gradient_metric(what), backward).head_gradients;
        }
    } catch (const std::invalid_argument& ex) {
        // The position is checked above: what is left is the model's (post-norm, or a token
        // id past its vocabulary), not the command line's.
        throw DataError(ex.what());
    }
    const std::string js = attribution_json(m, a, saliency, ablated);
    const models::ModelInfo& info = m.model->info();
    if (!o.out_grads.empty())
        head_gradients = gradients_by_head(head_gradients, info.num_heads, info.head_dim);
    if (!o.out_npy.empty()) io::write_npy(o.out_npy, a.by_source);
    if (!o.out_grads.empty()) io::write_npy(o.out_grads, head_gradients);
    io::write_file_atomically(o.out_json, js);
    return 0;
}

}  // namespace

void add_attribute_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<AttributeOptions>();
    CLI::App* sub = app.add_subcommand(
        "attribute",
        "Direct logit attribution: each head's, MLP's and the embeddings' share of a token's "
        "logit (or of a logit difference) at a position, the final norm's scale frozen "
        "(pre-norm models: GPT-2, Llama, Qwen).");
    sub->footer(
        "Example:\n  attnviz attribute --model resources/models/attn-only-2l --text "
        "\"q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP\" --target 8 --out-json A.json "
        "--out-npy S.npy --saliency ig:64 --out-grads G.npy\n"
        "  attnviz attribute --model resources/models/attn-only-2l --text "
        "\"q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP\" --target 8 --ablate 2.8 "
        "--out-json knocked.json");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face folder of a causal model")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_text(*sub, "--target", &o->target, "TOKEN",
             "the token whose logit is attributed (one token: text or vocabulary string)")
        ->required();
    add_text(*sub, "--distractor", &o->distractor, "TOKEN",
             "attribute logit(target) - logit(distractor) instead");
    add_integer(*sub, "--position", &o->position, -(Index{1} << 24), Index{1} << 24, "P",
                "the position whose prediction is attributed, from 1; negative from the end "
                "(default -1, the last)");
    add_text(*sub, "--out-json", &o->out_json, "A.json",
             "position, target, distractor, total, constant, embeddings, norm_scale (the final "
             "norm's frozen scale), heads [layers][heads], attention_bias [layers], mlps [layers] "
             "(null where the model has none); the parts add up to total; saliency [tokens], "
             "saliency_method, saliency_steps, saliency_baseline and saliency_delta, null "
             "without --saliency")
        ->required();
    add_text(*sub, "--out-npy", &o->out_npy, "S.npy",
             "float32 [layers, heads, tokens]: each head's share split by source token");
    add_text(*sub, "--saliency", &o->saliency, "grad-input|ig:N",
             "each token's share of the same total, from the gradient with respect to its token "
             "embedding: gradient × input, or integrated gradients over N steps (1 to " +
                 std::to_string(kMaxSaliencySteps) +
                 ") from the token embeddings zeroed (learned positions kept), whose shares add up "
                 "to total - saliency_baseline up to saliency_delta; with --ablate, of the "
                 "knocked-out model (a mean-knocked head's mean held along the path)");
    add_text(*sub, "--out-grads", &o->out_grads, "G.npy",
             "float32 [layers, heads, tokens, head_dim]: the gradient of total with respect to "
             "each head's output (its slice of the context, before the output projection; with "
             "--ablate, of the knocked-out model, a knocked head's output a constant)");
    add_ablate_options(*sub, &o->ablate);
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of the pass");
    add_memory_budget_option(*sub, &o->memory);
    ctx.on_parsed(
        sub, [o] { return attribute(*o); },
        [o] {
            if (o->saliency) (void)saliency_steps(*o->saliency);
        });
}

}  // namespace attnviz::cli
