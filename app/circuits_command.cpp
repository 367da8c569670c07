// `attnviz circuits`: which heads work together, from the weights alone
// (engine/models/circuits.h).  Heads count from 1.  Everything is computed before the first
// file is written, and each file is written atomically.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "app/commands.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/io/npy.h"
#include "engine/models/circuits.h"
#include "engine/models/model_folder.h"

namespace attnviz::cli {

namespace {

using Index = std::int64_t;

/// Scores of 7 significant digits, about a float's precision.
constexpr io::json::Format kReal = io::json::Format::general(7);
/// The strongest pairs of each kind listed in the JSON.
constexpr Index kTopPairs = 10;

struct CircuitsOptions {
    std::string folder, out_json, out_npy;
    std::optional<Index> rope_offset;
    int threads = 1;
};

std::string head_name(Index n, Index heads) {
    return "L" + std::to_string(n / heads + 1) + "H" + std::to_string(n % heads + 1);
}

void write_top_pairs(io::json::Writer& w, const models::CircuitScores& s, Index kind) {
    const Index N = s.layers * s.heads;
    const float* k = s.composition.ptr() + kind * N * N;
    std::vector<Index> pairs;
    for (Index p = 0; p < N * N; ++p)
        if (!std::isnan(k[p])) pairs.push_back(p);
    const auto top = std::min<Index>(kTopPairs, static_cast<Index>(pairs.size()));
    std::partial_sort(pairs.begin(), pairs.begin() + top, pairs.end(),
                      [&](Index a, Index b) { return k[a] > k[b] || (k[a] == k[b] && a < b); });
    w.begin_array();
    for (Index t = 0; t < top; ++t) {
        const Index p = pairs[static_cast<std::size_t>(t)];
        w.begin_object()
            .member("from", head_name(p / N, s.heads))
            .member("to", head_name(p % N, s.heads))
            .member("score", k[p], kReal)
            .end_object();
    }
    w.end_array();
}

std::string circuits_json(const std::string& folder, const models::CircuitScores& s) {
    io::json::Writer w;
    w.begin_object().member("model", folder);
    w.key("rope_offset");
    if (s.rope_offset)
        w.value(*s.rope_offset);
    else
        w.value(nullptr);
    w.member("folded_norms", s.folded_norms);
    w.key("heads").begin_array();
    for (Index n = 0; n < s.layers * s.heads; ++n)
        w.value(head_name(n, s.heads));
    w.end_array();
    w.key("copying");
    if (s.copying.empty()) {
        w.value(nullptr);
    } else {
        w.begin_array();
        for (const double v : s.copying)
            if (std::isnan(v))
                w.value(nullptr);
            else
                w.value(v, kReal);
        w.end_array();
    }
    w.key("top_pairs").begin_object();
    for (Index kind = 0; kind < 3; ++kind) {
        w.key(kind == 0 ? "Q" : kind == 1 ? "K" : "V");
        write_top_pairs(w, s, kind);
    }
    w.end_object();
    return w.end_object().take() + "\n";
}

int circuits(const CircuitsOptions& o) {
    for (const auto& [path, option] :
         {std::pair{&o.out_json, "--out-json"}, std::pair{&o.out_npy, "--out-npy"}})
        if (!path->empty()) require_output_folder(*path, option);
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelConfig& c = m.model->config();
    if (o.rope_offset && !c.rotary())
        throw UsageError("--rope-offset: " + c.display_name() +
                         " has learned positions, so W_QK does not depend on the offset");
    models::CircuitOptions options;
    options.rope_offset = o.rope_offset.value_or(1);
    options.num_threads = o.threads;
    models::CircuitScores s;
    try {
        s = models::circuit_scores(*m.model, options);
    } catch (const std::invalid_argument& ex) {
        throw UsageError(std::string("--rope-offset: ") + ex.what());
    }
    const std::string js = circuits_json(o.folder, s);
    if (!o.out_npy.empty()) io::write_npy(o.out_npy, s.composition);
    io::write_file_atomically(o.out_json, js);
    return 0;
}

}  // namespace

void add_circuits_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<CircuitsOptions>();
    CLI::App* sub = app.add_subcommand(
        "circuits",
        "Which heads work together, from the weights alone (Elhage et al. 2021, \"A "
        "Mathematical Framework for Transformer Circuits\"; as TransformerLens computes them): "
        "the Q-, K- and V-composition of every pair of heads in different layers, "
        "||W_OV1 W_QK2||_F / (||W_OV1||_F ||W_QK2||_F) with W_QK2 transposed for K and W_OV2 "
        "for V, and each head's OV copying score, sum(eig) / sum(|eig|) of W_E W_OV W_U.  The "
        "norms' scales are folded in as TransformerLens's fold_ln does (pre-norm models; a "
        "post-norm BERT's weights are taken as stored).");
    sub->footer(
        "Example:\n  attnviz circuits --model resources/models/attn-only-2l --out-json C.json "
        "--out-npy K.npy");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face model folder or a GGUF file")
        ->required();
    add_integer(*sub, "--rope-offset", &o->rope_offset, 0, Index{1} << 24, "D",
                "rotary models: W_QK = W_Q R(D) W_K^T at query position - key position D "
                "(default 1: the key just before the query); below the model's positions");
    add_text(*sub, "--out-json", &o->out_json, "C.json",
             "model, rope_offset (null for learned positions), folded_norms, heads (\"L1H1\", "
             "... layer-major), copying [N] (null without a causal LM head), top_pairs {Q, K, "
             "V}: the 10 strongest pairs of each, {from, to, score}")
        ->required();
    add_text(*sub, "--out-npy", &o->out_npy, "K.npy",
             "float32 [3, N, N]: Q-, K- and V-composition of head i (row, the earlier) into head "
             "j (column), N = layers x heads layer-major; NaN unless i's layer is below j's");
    add_threads_option(*sub, &o->threads);
    ctx.on_parsed(sub, [o] { return circuits(*o); });
}

}  // namespace attnviz::cli
