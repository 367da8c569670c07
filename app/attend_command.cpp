// `attnviz attend`: nn.MultiheadAttention from a safetensors state_dict on .npy inputs,
// per-head weights, their mean and the output written as .npy.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

#include "app/commands.h"
#include "app/model_commands.h"
#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "engine/layers/multi_head_attention.h"
#include "engine/models/effective_attention.h"
#include "engine/models/pass_plan.h"

namespace attnviz::cli {

std::size_t planned_weight_cache(const models::Model& model, std::uint64_t bytes,
                                 std::int64_t tokens, const MemoryOptions& memory) {
    const std::uint64_t total = bytes + model.streaming_weight_bytes();
    return models::plan_pass(
               model, [&](const budget::ResultScope&) { return total; }, {}, tokens,
               memory.budget())
        .weight_cache_bytes();
}

namespace {

struct AttendOptions {
    std::string weights, query;
    std::optional<std::string> key, value;
    std::optional<std::int64_t> num_heads;
    std::optional<std::string> key_padding_mask, attn_mask;
    bool causal = false, add_zero_attn = false;
    std::string masked_rows = "zero";
    double dropout = 0.0;
    bool train = false;
    SeedOptions seeds;
    std::optional<std::string> out_weights, out_mean, out_output;
    std::string effective = "weights";  ///< --effective: the weights, or their norm-based maps
    MemoryOptions memory;
    int threads = 1;
    // A Hugging Face model folder instead of one layer's .npy inputs.
    std::optional<std::string> model, text, text2, out_tokens;
    std::string layers = "all";
};

}  // namespace

void require_output_folder(const std::string& path, const char* option) {
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw DataError(std::string(option) + " '" + path + "' is a folder, not a file");
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw DataError(std::string(option) + " '" + path + "': folder '" + parent.string() +
                        "' does not exist");
}

std::int64_t token_index(std::int64_t position, std::int64_t tokens, const char* option) {
    const std::int64_t at = position < 0 ? tokens + position : position - 1;
    if (position == 0 || at < 0 || at >= tokens)
        throw UsageError(std::string(option) + " " + std::to_string(position) + " is not in the " +
                         std::to_string(tokens) + " tokens (1 to " + std::to_string(tokens) +
                         ", or negative from the end)");
    return at;
}

namespace {

void require_finite(const Tensor& t, const std::string& what) {
    for (std::size_t i = 0; i < t.numel(); ++i)
        if (!std::isfinite(t.data[i]))
            throw DataError(what + ": element " + std::to_string(i) + " is " +
                            (std::isnan(t.data[i]) ? "NaN" : "infinite"));
}

void require_no_nan(const Mask& m, const std::string& what) {
    for (std::size_t i = 0; i < m.numel(); ++i)
        if (std::isnan(m.values[i]))
            throw DataError(what + ": element " + std::to_string(i) + " is NaN");
}

std::size_t tensor_bytes(const Tensor& t) {
    return t.numel() * sizeof(float) + 64;
}

Tensor unsqueeze0(Tensor t) {
    t.shape.insert(t.shape.begin(), 1);
    return t;
}

/// The rules between options; no file is read.
/// --model DIR computes a checkpoint on a text; the options of one layer's .npy inputs do
/// not apply to it, and the other way round.
void check_sources(const AttendOptions& o) {
    if (o.model) {
        if (!o.text) throw UsageError("--model needs --text (the text to compute)");
        const std::pair<bool, const char*> layer_only[] = {
            {!o.weights.empty(), "--weights"},
            {!o.query.empty(), "--query"},
            {o.key.has_value(), "--key"},
            {o.value.has_value(), "--value"},
            {o.num_heads.has_value(), "--num-heads"},
            {o.key_padding_mask.has_value(), "--key-padding-mask"},
            {o.attn_mask.has_value(), "--attn-mask"},
            {o.causal, "--causal"},
            {o.add_zero_attn, "--add-zero-attn"},
            {o.train, "--train"},
            {o.out_output.has_value(), "--out-output"}};
        for (const auto& [given, name] : layer_only)
            if (given)
                throw UsageError(std::string(name) +
                                 " is for one layer's .npy inputs; a model folder (--model) "
                                 "computes its own");
        return;
    }
    const std::pair<bool, const char*> model_only[] = {{o.text.has_value(), "--text"},
                                                       {o.text2.has_value(), "--text2"},
                                                       {o.layers != "all", "--layers"},
                                                       {o.out_tokens.has_value(), "--out-tokens"}};
    for (const auto& [given, name] : model_only)
        if (given) throw UsageError(std::string(name) + " needs --model DIR");
    for (const auto& [missing, name] :
         {std::pair{o.weights.empty(), "--weights"}, std::pair{o.query.empty(), "--query"},
          std::pair{!o.num_heads.has_value(), "--num-heads"}})
        if (missing) throw UsageError(std::string(name) + " is required (or give --model DIR)");
}

void check(const AttendOptions& o) {
    check_sources(o);
    const budget::ResultScope scope = o.memory.scope();
    if (o.model) {
        if (scope.mean_only() && o.out_weights)
            throw UsageError(
                "--mean-only keeps no per-head weights: write the mean with --out-mean");
        if (!o.out_weights && !o.out_mean)
            throw UsageError("--out-weights or --out-mean is required");
        return;
    }
    if (scope.heads_shown > *o.num_heads)
        throw UsageError("--heads-shown must be between 1 and " + std::to_string(*o.num_heads) +
                         ", got " + std::to_string(scope.heads_shown));
    if (scope.mean_only() && o.out_weights)
        throw UsageError("--mean-only keeps no per-head weights: write the mean with --out-mean");
    if (scope.mean_only() && !o.out_mean) throw UsageError("--mean-only needs --out-mean");
    if (!scope.mean_only() && !o.out_weights) throw UsageError("--out-weights is required");
}

int attend_model(const AttendOptions& o) {
    ModelAttendRequest r;
    r.folder = *o.model;
    r.text = *o.text;
    r.text2 = o.text2;
    r.layers = o.layers;
    r.scope = o.memory.scope();
    r.budget = o.memory.budget();
    r.masked_rows = masked_row_policy_from_name(o.masked_rows);
    r.threads = o.threads;
    r.out_weights = o.out_weights.value_or("");
    r.out_mean = o.out_mean.value_or("");
    r.out_tokens = o.out_tokens.value_or("");
    r.effective = o.effective == "norm";
    attend_with_model(r);
    return 0;
}

int attend(const AttendOptions& o) {
    if (o.model) return attend_model(o);
    const budget::ResultScope scope = o.memory.scope();
    const budget::MemoryBudget memory = o.memory.budget();
    const std::int64_t num_heads = *o.num_heads;
    // An output given as '' is not written.
    const std::string out_weights = o.out_weights.value_or("");
    const std::string out_mean = o.out_mean.value_or("");
    const std::string out_output = o.out_output.value_or("");
    if (!out_weights.empty()) require_output_folder(out_weights, "--out-weights");
    if (!out_mean.empty()) require_output_folder(out_mean, "--out-mean");
    if (!out_output.empty()) require_output_folder(out_output, "--out-output");

    const io::TensorMap state = io::read_safetensors(o.weights);
    MultiHeadAttentionOptions options;
    try {
        options = options_from_state_dict(state, num_heads);
        options.add_zero_attn = o.add_zero_attn;
        options.dropout = static_cast<float>(o.dropout);
        options.validate();
    } catch (const std::invalid_argument& e) {
        throw DataError(o.weights + ": " + e.what());
    }
    MultiHeadAttention mha(options);
    try {
        mha.load_state_dict(state);
    } catch (const std::invalid_argument& e) {
        throw DataError(o.weights + ": " + e.what());
    }

    Tensor query = io::read_npy(o.query);
    require_finite(query, o.query);
    const std::string key_path = o.key.value_or("");
    const std::string value_path = o.value.value_or(key_path);
    Tensor key = key_path.empty() ? query : io::read_npy(key_path);
    Tensor value = value_path.empty() ? query : io::read_npy(value_path);
    if (!key_path.empty()) require_finite(key, key_path);
    if (!value_path.empty()) require_finite(value, value_path);
    const bool unbatched = query.rank() == 2;  // PyTorch accepts [L, E] for one sequence
    if (unbatched) {
        query = unsqueeze0(std::move(query));
        if (key.rank() == 2) key = unsqueeze0(std::move(key));
        if (value.rank() == 2) value = unsqueeze0(std::move(value));
    }
    std::optional<Mask> kpm, attn_mask;
    if (const std::string p = o.key_padding_mask.value_or(""); !p.empty()) {
        kpm = io::read_npy_mask(p);
        require_no_nan(*kpm, p);
        if (unbatched && kpm->shape.size() == 1) kpm->shape.insert(kpm->shape.begin(), 1);
    }
    if (const std::string p = o.attn_mask.value_or(""); !p.empty()) {
        attn_mask = io::read_npy_mask(p);
        require_no_nan(*attn_mask, p);
    }
    AttentionForwardOptions fwd;
    fwd.key_padding_mask = kpm ? &*kpm : nullptr;
    fwd.attn_mask = attn_mask ? &*attn_mask : nullptr;
    fwd.causal = o.causal;
    fwd.training = o.train;
    fwd.dropout_seed = static_cast<std::uint64_t>(o.seeds.dropout());
    fwd.masked_rows = masked_row_policy_from_name(o.masked_rows);
    fwd.num_threads = o.threads;
    if (query.rank() == 3 && key.rank() == 3) {
        const std::int64_t N = query.dim(0), L = query.dim(1), S = key.dim(1);
        if (scope.windowed() && scope.window_start + scope.window_length > std::max(L, S))
            throw UsageError("--window " + std::to_string(scope.window_start + 1) + ":" +
                             std::to_string(scope.window_length) + " ends after the last of " +
                             std::to_string(std::max(L, S)) + " tokens");
        // Everything this command holds: the inputs and parameters already read, the forward
        // pass, and the largest output file's bytes while it is written.
        std::size_t held = MultiHeadAttention::parameter_bytes(options) + tensor_bytes(query) +
                           tensor_bytes(key) + tensor_bytes(value);
        for (const auto& [name, t] : state)
            held += tensor_bytes(t) + name.size() + 96;
        for (const auto* m : {&kpm, &attn_mask})
            if (*m) held += (*m)->numel() * sizeof(float) + 64;
        const std::int64_t extra = (options.add_bias_kv ? 1 : 0) + (options.add_zero_attn ? 1 : 0);
        const auto footprint = [&](const budget::ResultScope& s) -> std::uint64_t {
            AttentionForwardOptions f = fwd;
            restrict_forward(s, int(options.num_heads), L, S + (s.windowed() ? 0 : extra), &f);
            const std::size_t engine =
                MultiHeadAttention::estimate_forward_bytes(options, N, L, S, f);
            const budget::AxisWindow q = budget::window_on(s, L);
            const budget::AxisWindow k = budget::window_on(s, S + (s.windowed() ? 0 : extra));
            const double cells = double(N) * double(q.count) * double(k.count);
            const double file = std::max({cells * s.kept_heads(int(options.num_heads)), cells,
                                          double(N) * double(q.count) * double(options.embed_dim)});
            return held + engine + std::uint64_t(file * sizeof(float)) + 4096;
        };
        const budget::MemoryPlan plan = budget::plan_memory(
            footprint, scope, int(options.num_heads), std::max(L, S), memory.bytes);
        if (!plan.fits()) throw budget::MemoryBudgetExceeded(plan, memory);
        restrict_forward(scope, int(options.num_heads), L, S + (scope.windowed() ? 0 : extra),
                         &fwd);
    }
    // The layer's norm-based map needs every head's weights; the kept ones are written.
    const std::int64_t kept_heads = fwd.weights_heads < 0 ? num_heads : fwd.weights_heads;
    if (o.effective == "norm") fwd.weights_heads = -1;
    AttentionResult r;
    try {
        r = mha.forward(query, key, value, fwd);
    } catch (const std::invalid_argument& e) {
        throw DataError(e.what());
    }
    if (o.effective == "norm") {
        models::EffectiveAttention norm =
            models::effective_attention(mha, value, r, fwd, kept_heads, o.threads);
        r.weights = std::move(norm.heads);
        r.mean_weights = std::move(norm.layer);
    }
    if (unbatched) {  // PyTorch's unbatched shapes: [H, L, S'], [L, S'], [L, E]
        if (!r.weights.shape.empty()) r.weights.shape.erase(r.weights.shape.begin());
        r.mean_weights.shape.erase(r.mean_weights.shape.begin());
        r.output.shape.erase(r.output.shape.begin());
    }
    if (!out_weights.empty()) io::write_npy(out_weights, r.weights);
    if (!out_mean.empty()) io::write_npy(out_mean, r.mean_weights);
    if (!out_output.empty()) io::write_npy(out_output, r.output);
    return 0;
}

}  // namespace

void add_attend_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<AttendOptions>();
    CLI::App* sub = app.add_subcommand(
        "attend",
        "torch.nn.MultiheadAttention on .npy inputs, with a safetensors state_dict; or, with "
        "--model, every layer x head of a trained model on a text.  "
        " The weights are what mha.state_dict() holds (packed in_proj_weight or "
        "q/k/v_proj_weight, bias_k/bias_v, out_proj); embed_dim, kdim, vdim, bias and "
        "add_bias_kv are read from them.  Writes the "
        "per-head weights [N,H,L,S'], their mean [N,L,S'] and the output [N,L,E] "
        "(unbatched [L,E] queries give PyTorch's unbatched shapes).");
    sub->footer(
        "Examples:\n"
        "  attnviz attend --weights W.safetensors --query Q.npy --num-heads 8 --causal "
        "--out-weights A.npy --out-mean M.npy\n"
        "  attnviz attend --model DIR --text \"The cat sat\" --layers 0-3 --out-weights A.npy");

    const char* inputs = "Inputs";
    add_text(*sub, "--weights", &o->weights, "W.safetensors",
             "what safetensors.torch.save_file(mha.state_dict(), ...) writes")
        ->group(inputs);
    add_text(*sub, "--query", &o->query, "Q.npy", "queries [N,L,E] (batch first) or [L,E]")
        ->group(inputs);
    add_text(*sub, "--key", &o->key, "K.npy", "keys [N,S,kdim]; default: the queries")
        ->group(inputs);
    add_text(*sub, "--value", &o->value, "V.npy", "values [N,S,vdim]; default: the keys")
        ->group(inputs);
    add_integer(*sub, "--num-heads", &o->num_heads, 1, 1 << 20, "H", "heads; must divide embed_dim")
        ->group(inputs);

    const char* model = "A trained model (instead of the inputs above)";
    add_text(*sub, "--model", &o->model, "DIR",
             "a Hugging Face model folder (config.json, safetensors, tokenizer files)")
        ->group(model);
    add_text(*sub, "--text", &o->text, "TEXT", "the text the model reads (UTF-8)")->group(model);
    add_text(*sub, "--text2", &o->text2, "TEXT",
             "a second text: the pair encoding ([CLS] A [SEP] B [SEP])")
        ->group(model);
    add_text(*sub, "--layers", &o->layers, "SPEC",
             "layers kept, from 1: all, 3, 1-4,8 or -1 (the last); default all")
        ->group(model);
    add_text(*sub, "--out-tokens", &o->out_tokens, "T.json",
             "the maps' tokens (the window's with --window), for attnviz view --attentions "
             "--tokens: tokenize's lists and the input text their offsets count in")
        ->group(model);

    const char* masks = "Masks";
    add_text(*sub, "--key-padding-mask", &o->key_padding_mask, "M.npy",
             "[N,S]; bool/uint8 (true = masked) or float (added)")
        ->group(masks);
    add_text(*sub, "--attn-mask", &o->attn_mask, "A.npy",
             "[L,S] or [N*H,L,S]; bool/uint8 (true = masked) or float (added)")
        ->group(masks);
    add_flag(*sub, "--causal", &o->causal,
             "mask keys after each query (on top of a float mask: -inf above the diagonal)")
        ->group(masks);
    add_flag(*sub, "--add-zero-attn", &o->add_zero_attn, "append a zero key and value")
        ->group(masks);
    add_choice(*sub, "--masked-rows", &o->masked_rows, masked_row_policy_names(),
               "a query row whose every key is masked: zero weights, uniform, or NaN (what "
               "PyTorch returns)")
        ->group(masks);

    add_real(*sub, "--dropout", &o->dropout, 0.0, 1.0, UpperBound::Excluded, "P",
             "dropout on the attention weights, active with --train")
        ->group("Dropout");
    add_flag(*sub, "--train", &o->train, "training mode: dropout is applied")->group("Dropout");
    add_seed_options(*sub, &o->seeds, std::numeric_limits<std::int64_t>::max(),
                     SeedUse{.weights = false, .dropout = true});

    const char* outputs = "Outputs (written atomically, after the whole computation)";
    add_text(*sub, "--out-weights", &o->out_weights, "A.npy",
             "per-head weights [N,H,L,S'] (--model: [layers,heads,L,L]); required unless "
             "--mean-only")
        ->group(outputs);
    add_text(*sub, "--out-mean", &o->out_mean, "M.npy",
             "their mean over heads [N,L,S'] (--model: [layers,L,L])")
        ->group(outputs);
    add_text(*sub, "--out-output", &o->out_output, "O.npy", "the attention output [N,L,E]")
        ->group(outputs);
    add_choice(*sub, "--effective", &o->effective, {"weights", "norm"},
               "what --out-weights and --out-mean hold: the weights and their mean, or the "
               "norm-based maps of Kobayashi et al. 2020: per head ||a_ij f_h(x_j)|| (the value "
               "through the head's slice of the output projection) and, instead of the mean, the "
               "layer's ||sum_h a_ij f_h(x_j)||, in the same layouts")
        ->group(outputs);

    add_memory_options(*sub, &o->memory, 1 << 20);
    add_threads_option(*sub, &o->threads);

    ctx.on_parsed(
        sub, [o] { return attend(*o); }, [o] { check(*o); });
}

}  // namespace attnviz::cli
