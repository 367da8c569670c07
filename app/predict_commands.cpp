// `attnviz predict`, `attnviz patch` and `attnviz generate`: what a model predicts and what its
// heads do (engine/models/predictions.h), from the command line.  Layers and heads count from
// 1, as in the window.  Every output is computed before the first file is written, and each
// is written atomically: a failure leaves no file.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "app/commands.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/io/npy.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"

namespace attnviz::cli {

namespace {

using Index = std::int64_t;

/// The token of `id` for people: the vocabulary string, or <id N> past the tokenizer's.
std::string token_text(const text::HfTokenizer& t, Index id) {
    const std::string s = t.id_to_token(id);
    return s.empty() ? "<id " + std::to_string(id) + ">" : s;
}

/// Log-probabilities and metrics: 7 significant digits, about a float's precision.
constexpr io::json::Format kReal = io::json::Format::general(7);

void write_top(io::json::Writer& w, const text::HfTokenizer& t, const float* logits, Index V,
               Index k) {
    w.begin_array();
    for (const models::TokenScore& c : models::top_k(logits, V, k))
        w.begin_object()
            .member("id", c.id)
            .member("token", token_text(t, c.id))
            .member("logprob", c.logprob, kReal)
            .end_object();
    w.end_array();
}

void write_ids(io::json::Writer& w, const std::vector<Index>& ids) {
    w.begin_array();
    for (const Index id : ids)
        w.value(id);
    w.end_array();
}

void write_tokens(io::json::Writer& w, const text::HfTokenizer& t, const std::vector<Index>& ids) {
    w.begin_array();
    for (const Index id : ids)
        w.value(token_text(t, id));
    w.end_array();
}

std::optional<std::string_view> view(const std::optional<std::string>& s) {
    return s ? std::optional<std::string_view>(*s) : std::nullopt;
}

void require_head(const models::OpenedModel& m) {
    if (m.model->lm_head() == models::LmHeadKind::None) throw DataError(m.model->lm_head_missing());
}

// ---- predict ------------------------------------------------------------------------------

struct PredictOptions {
    std::string folder, text, out_logits, out_json, lens_positions;
    AblateOptions ablate;
    std::optional<std::string> text2;
    Index top = 10;
    bool lens = false;
    int threads = 1;
};

std::vector<Index> parse_positions(const std::string& spec, Index L) {
    std::vector<Index> out;
    std::stringstream in(spec);
    std::string item;
    while (std::getline(in, item, ',')) {
        Index p = 0;
        try {
            std::size_t used = 0;
            p = std::stoll(item, &used);
            if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw UsageError("--lens-positions " + spec + ": expected positions such as 1,5,-1");
        }
        out.push_back(token_index(p, L, "--lens-positions"));
    }
    return out;
}

int predict(const PredictOptions& o) {
    if (o.out_logits.empty() && o.out_json.empty())
        throw UsageError("nothing to write: give --out-logits and/or --out-json");
    for (const auto& [path, option] :
         {std::pair{&o.out_logits, "--out-logits"}, std::pair{&o.out_json, "--out-json"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelInfo& info = m.model->info();
    models::PredictOptions p;
    p.num_threads = o.threads;
    if (!o.ablate.heads.empty())
        p.interventions =
            models::ablations(models::parse_head_list(o.ablate.heads, info, "--ablate"),
                              o.ablate.mode == "mean" ? models::HeadIntervention::Kind::Mean
                                                      : models::HeadIntervention::Kind::Zero);
    require_head(m);
    const models::EncodedText e = models::encode_text(m, o.text, view(o.text2));
    const auto L = static_cast<Index>(e.input.ids.size());
    p.lens = o.lens;
    if (!o.lens_positions.empty()) {
        if (!o.lens) throw UsageError("--lens-positions needs --lens");
        p.lens_positions = parse_positions(o.lens_positions, L);
    }
    const models::Prediction r = models::predict(*m.model, e.input, p);
    const Index V = info.vocab_size;
    std::string js;
    if (!o.out_json.empty()) {
        io::json::Writer w;
        w.begin_object();
        write_ids(w.key("ids"), e.input.ids);
        write_tokens(w.key("tokens"), m.tokenizer, e.input.ids);
        w.member("head", m.model->lm_head() == models::LmHeadKind::Causal ? "causal" : "masked");
        w.key("top").begin_array();
        for (Index t = 0; t < L; ++t)
            write_top(w, m.tokenizer, r.logits.ptr() + t * V, V, o.top);
        w.end_array();
        if (o.lens) {
            w.key("lens_positions").begin_array();
            for (const Index at : r.lens_positions)
                w.value(at + 1);
            w.end_array().key("lens").begin_array();
            const auto P = static_cast<Index>(r.lens_positions.size());
            for (Index l = 0; l < r.lens.shape[0]; ++l) {
                w.begin_array();
                for (Index i = 0; i < P; ++i)
                    write_top(w, m.tokenizer, r.lens.ptr() + (l * P + i) * V, V, o.top);
                w.end_array();
            }
            w.end_array();
        }
        if (!r.next_logprob.empty()) {
            w.key("next_logprob").begin_array();
            for (const auto v : r.next_logprob)
                w.value(v, kReal);
            w.end_array().member("loss", r.loss, kReal);
        }
        if (!p.interventions.empty()) {
            w.key("ablated").begin_array();
            for (const models::HeadIntervention& h : p.interventions)
                w.begin_object()
                    .member("layer", h.head.layer + 1)
                    .member("head", h.head.head + 1)
                    .member("mode", o.ablate.mode)
                    .end_object();
            w.end_array();
        }
        js = w.end_object().take() + "\n";
    }
    if (!o.out_logits.empty()) io::write_npy(o.out_logits, r.logits);
    if (!o.out_json.empty()) io::write_file_atomically(o.out_json, js);
    return 0;
}

// ---- patch --------------------------------------------------------------------------------

struct PatchOptions {
    std::string folder, heads = "all", out, out_json, out_positions;
    std::string method = "exact";
    PatchInputOptions inputs;
    MemoryOptions memory;
    int threads = 1;
};

/// What a patching run holds besides the weights: the two runs' streams and contexts and a
/// layer's heads patched in one pass (exact), or the gradients of the corrupted run.
std::uint64_t patch_bytes(const models::Model& model, Index L, bool attribution) {
    if (attribution) return models::attribution_patching_bytes(model, L);
    const models::ModelConfig& c = model.config();
    const auto N = static_cast<std::uint64_t>(c.num_layers);
    const auto runs = 2 * ((N + 1) * static_cast<std::uint64_t>(L * c.hidden_size) +
                           N * static_cast<std::uint64_t>(L * c.num_heads * c.head_dim));
    models::ModelForwardOptions batch;
    batch.attention = false;
    return runs * sizeof(float) + model.estimate_forward_bytes(L * c.num_heads, batch);
}

/// Attribution patching's estimate as a sweep's result (m_patched = m_corrupt + estimate),
/// every head but `heads` (empty: all) NaN, as the exact sweep leaves the heads it did not
/// patch; `by_position` loses the same heads.
models::PatchResult estimated_sweep(const models::AttributionPatching& a,
                                    const std::vector<models::HeadRef>& heads, Index num_heads,
                                    Tensor* by_position) {
    models::PatchResult p = models::estimated_patch_result(a);
    *by_position = a.fraction_by_position;
    if (heads.empty()) return p;
    std::vector<bool> kept(p.fraction.data.size(), false);
    for (const models::HeadRef& h : heads)
        kept[static_cast<std::size_t>(h.layer * num_heads + h.head)] = true;
    const std::size_t tokens = by_position->data.size() / kept.size();
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (!kept[i]) {
            p.m_patched.data[i] = p.fraction.data[i] = kNaN;
            std::fill_n(by_position->data.begin() + static_cast<std::ptrdiff_t>(i * tokens), tokens,
                        kNaN);
        }
    return p;
}

std::string patch_json(const models::OpenedModel& m, const models::PatchRequest& r,
                       const models::PatchResult& p, const std::string& method) {
    const models::ModelInfo& info = m.model->info();
    io::json::Writer w;
    w.begin_object().member("method", method).member("position", p.position + 1);
    w.key("target").begin_object();
    w.member("id", r.target).member("token", token_text(m.tokenizer, r.target)).end_object();
    w.key("distractor").begin_object();
    w.member("id", r.distractor)
        .member("token", token_text(m.tokenizer, r.distractor))
        .end_object();
    w.member("m_clean", p.m_clean, kReal).member("m_corrupt", p.m_corrupt, kReal);
    w.key("heads").begin_array();
    for (Index l = 0; l < info.num_layers; ++l)
        for (Index h = 0; h < info.num_heads; ++h) {
            const auto at = static_cast<std::size_t>(l * info.num_heads + h);
            if (std::isnan(p.m_patched.data[at])) continue;  // not patched
            w.begin_object()
                .member("layer", l + 1)
                .member("head", h + 1)
                .member("m_patched", p.m_patched.data[at], kReal)
                .member("fraction", p.fraction.data[at], kReal)
                .end_object();
        }
    return w.end_array().end_object().take() + "\n";
}

int patch(const PatchOptions& o) {
    for (const auto& [path, option] :
         {std::pair{&o.out, "--out"}, std::pair{&o.out_json, "--out-json"},
          std::pair{&o.out_positions, "--out-positions"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelInfo& info = m.model->info();
    const PatchInputOptions& in = o.inputs;
    models::PatchRequest r = models::patch_request(
        m, {*in.clean, *in.corrupt, *in.target, *in.distractor, in.position.value_or(-1)});
    if (o.heads != "all") r.heads = models::parse_head_list(o.heads, info, "--heads");
    r.num_threads = o.threads;
    const auto L = static_cast<Index>(r.clean.ids.size());
    r.weight_cache_bytes = planned_weight_cache(
        *m.model, patch_bytes(*m.model, L, o.method == "attribution"), L, o.memory);
    models::PatchResult p;
    Tensor by_position;
    if (o.method == "attribution") {
        models::GradientOptions backward;
        backward.num_threads = o.threads;
        backward.weight_cache_bytes = r.weight_cache_bytes;
        p = estimated_sweep(models::attribution_patching(*m.model, r, backward), r.heads,
                            info.num_heads, &by_position);
    } else {
        p = models::patch_sweep(*m.model, r);
    }
    if (p.m_clean == p.m_corrupt)
        std::cerr << "attnviz patch: warning: the metric is " << p.m_clean
                  << " on both texts, so no fraction can be restored: every fraction is NaN\n";
    const std::string js = o.out_json.empty() ? "" : patch_json(m, r, p, o.method);
    if (!o.out.empty()) io::write_npy(o.out, p.fraction);
    if (!o.out_positions.empty()) io::write_npy(o.out_positions, by_position);
    if (!o.out_json.empty()) io::write_file_atomically(o.out_json, js);
    return 0;
}

// ---- generate -----------------------------------------------------------------------------

struct GenerateCliOptions {
    std::string folder, text, out_tokens, out_weights;
    Index max_new_tokens = 32;
    SamplingOptions sampling;
    std::int64_t seed = 0;
    int threads = 1;
};

int generate(const GenerateCliOptions& o) {
    for (const auto& [path, option] :
         {std::pair{&o.out_tokens, "--out-tokens"}, std::pair{&o.out_weights, "--out-weights"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelInfo& info = m.model->info();
    if (!info.causal)
        throw UsageError("generate needs a causal language model (GPT-2, Llama, Qwen); " +
                         info.display_name + " is a masked language model: use predict");
    const models::EncodedText e = models::encode_text(m, o.text);
    const auto P = static_cast<Index>(e.input.ids.size());
    if (P + o.max_new_tokens > info.max_positions)
        throw UsageError("--max-new-tokens " + std::to_string(o.max_new_tokens) + ": with the " +
                         std::to_string(P) + " prompt tokens that is more than the " +
                         std::to_string(info.max_positions) + " positions of " + info.display_name +
                         " (at most " + std::to_string(std::max<Index>(0, info.max_positions - P)) +
                         ")");
    models::GenerateOptions g;
    g.max_new_tokens = o.max_new_tokens;
    g.temperature = o.sampling.temperature;
    g.top_k = o.sampling.top_k;
    g.top_p = o.sampling.top_p;
    g.seed = static_cast<std::uint64_t>(o.seed);
    g.eos_ids = m.model->config().eos_token_ids;
    g.attention = !o.out_weights.empty();
    g.num_threads = o.threads;
    const models::Generation r = m.model->generate(e.input.ids, g);
    io::json::Writer w;
    w.begin_object();
    write_ids(w.key("prompt_ids"), e.input.ids);
    write_ids(w.key("ids"), r.ids);
    write_tokens(w.key("tokens"), m.tokenizer, r.ids);
    w.member("text", m.tokenizer.decode(r.ids)).member("finish", r.eos ? "eos" : "length");
    const std::string js = w.end_object().take() + "\n";
    if (!o.out_weights.empty()) io::write_npy(o.out_weights, r.attention);
    if (!o.out_tokens.empty()) io::write_file_atomically(o.out_tokens, js);
    return 0;
}

}  // namespace

void add_sampling_options(CLI::App& sub, SamplingOptions* sampling, const char* group) {
    for (CLI::Option* o :
         {add_real(sub, "--temperature", &sampling->temperature, 0.0, 100.0, UpperBound::Included,
                   "T", "0: greedy"),
          add_integer(sub, "--top-k", &sampling->top_k, 0, 1 << 24, "K",
                      "sample among the K likeliest (0: all)"),
          add_real(sub, "--top-p", &sampling->top_p, 0.0, 1.0, UpperBound::Included, "P",
                   "sample within the smallest set of probability P")})
        if (group) o->group(group);
}

void add_ablate_options(CLI::App& sub, AblateOptions* ablate, const char* group) {
    for (CLI::Option* o :
         {add_text(sub, "--ablate", &ablate->heads, "L.H,...",
                   "knock out heads (layer.head, from 1)"),
          add_choice(sub, "--ablate-mode", &ablate->mode, {"zero", "mean"},
                     "zero: the head's output set to 0; mean: its mean over the text's positions")})
        if (group) o->group(group);
}

void add_patch_inputs(CLI::App& sub, PatchInputOptions* in, bool required, const char* group) {
    const std::vector<CLI::Option*> texts = {
        add_text(sub, "--clean", &in->clean, "TEXT", "the clean text"),
        add_text(sub, "--corrupt", &in->corrupt, "TEXT", "the corrupted text, as many tokens"),
        add_text(sub, "--target", &in->target, "TOKEN",
                 "the token the clean text predicts: a text of one token, or a vocabulary entry"),
        add_text(sub, "--distractor", &in->distractor, "TOKEN", "the token it competes with")};
    CLI::Option* position = add_integer(sub, "--position", &in->position, -1000000, 1000000, "P",
                                        "where the metric is read (from 1; -1 the last)");
    for (CLI::Option* o : texts) {
        if (required) o->required();
        if (group) o->group(group);
    }
    if (group) position->group(group);
}

void add_predict_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<PredictOptions>();
    CLI::App* sub = app.add_subcommand(
        "predict",
        "What a model folder's language-model head predicts at every position: raw logits "
        "[tokens, vocab_size], the top-k, the loss on each next token (causal models), the "
        "logit lens after each layer, with heads knocked out.");
    sub->footer(
        "Example:\n  attnviz predict --model resources/models/attn-only-2l --text \"abcabc\" "
        "--lens --ablate 2.8 --out-logits l.npy --out-json p.json");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face model folder with its head")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_text(*sub, "--text2", &o->text2, "TEXT", "a second text (pair encoding)");
    add_integer(*sub, "--top-k", &o->top, 1, 1000000, "K", "the k most likely tokens in the JSON");
    add_flag(*sub, "--lens", &o->lens, "the logit lens: the head after each layer");
    add_text(*sub, "--lens-positions", &o->lens_positions, "P,P,...",
             "with --lens: only these positions (from 1; -1 the last)");
    add_ablate_options(*sub, &o->ablate);
    add_text(*sub, "--out-logits", &o->out_logits, "LOGITS.npy", "float32 [tokens, vocab_size]");
    add_text(*sub, "--out-json", &o->out_json, "P.json",
             "ids, tokens, top, lens, next_logprob and loss");
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of the forward pass");
    ctx.on_parsed(sub, [o] { return predict(*o); });
}

void add_patch_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<PatchOptions>();
    CLI::App* sub = app.add_subcommand(
        "patch",
        "Activation patching: for each head, the corrupted run with that head's output taken "
        "from the clean run; the fraction of logit(target) - logit(distractor) restored.  "
        "With --method attribution, every head's fraction estimated at once from two passes "
        "and one backward (attribution patching, Nanda 2023).");
    sub->footer(
        "Example:\n  attnviz patch --model DIR --clean \"When Mary and John went, John gave "
        "it to\" --corrupt \"When Mary and John went, Mary gave it to\" --target \" Mary\" "
        "--distractor \" John\" --out patch.npy");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face model folder with its head")
        ->required();
    add_patch_inputs(*sub, &o->inputs, true);
    add_text(*sub, "--heads", &o->heads, "all|L.H,...",
             "the heads to patch (attribution estimates every head and keeps these)");
    add_choice(*sub, "--method", &o->method, {"exact", "attribution"},
               "exact: one corrupted run per head; attribution: the first-order estimate "
               "(z_clean - z_corrupt) · ∂m/∂z at the corrupted run, every head at once");
    add_text(*sub, "--out", &o->out, "PATCH.npy",
             "float32 [layers, heads] of fractions restored (NaN: not patched)")
        ->required();
    add_text(*sub, "--out-json", &o->out_json, "P.json",
             "method, m_clean, m_corrupt and each head's m");
    add_text(*sub, "--out-positions", &o->out_positions, "POS.npy",
             "with --method attribution: float32 [layers, heads, tokens], each head's fraction "
             "split by the position patched (summing over tokens to --out's)");
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of each pass");
    add_memory_budget_option(*sub, &o->memory);
    ctx.on_parsed(
        sub, [o] { return patch(*o); },
        [o] {
            if (!o->out_positions.empty() && o->method != "attribution")
                throw UsageError(
                    "--out-positions needs --method attribution: the exact sweep would take a "
                    "pass per layer, head and token");
        });
}

void add_generate_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<GenerateCliOptions>();
    CLI::App* sub = app.add_subcommand(
        "generate",
        "Continues a text with a causal model and a key/value cache: greedy, or sampling with "
        "temperature, top-k, top-p and a seed (the same seed gives the same text).");
    sub->footer(
        "Example:\n  attnviz generate --model resources/models/attn-only-2l --text \"abcabc\" "
        "--max-new-tokens 8 --out-tokens g.json --out-weights a.npy");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face folder of a causal model")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the prompt (UTF-8)")->required();
    add_integer(*sub, "--max-new-tokens", &o->max_new_tokens, 1, 1 << 24, "N",
                "stop after N new tokens (or at the config's eos_token_id)");
    add_sampling_options(*sub, &o->sampling);
    add_integer(*sub, "--seed", &o->seed, 0, std::numeric_limits<std::int64_t>::max(), "S",
                "the sampler's seed");
    add_text(*sub, "--out-tokens", &o->out_tokens, "G.json",
             "prompt_ids, ids, tokens, text, finish (eos or length)")
        ->required();
    add_text(*sub, "--out-weights", &o->out_weights, "A.npy",
             "float32 [layers, heads, total, total] of the final sequence");
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of each step");
    ctx.on_parsed(sub, [o] { return generate(*o); });
}

}  // namespace attnviz::cli
