// `attnviz flow`: the information-flow routes of one prediction (engine/models/
// information_flow.h, Ferrando & Voita 2024).  Positions and layers count from 1; layer 0 is the
// embeddings.  Everything is computed before the file is written, atomically.
#include <memory>
#include <optional>

#include "app/commands.h"
#include "app/flow_json.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/models/information_flow.h"
#include "engine/models/model_folder.h"

namespace attnviz::cli {

namespace {
/// Importances: 6 significant digits, about a float's precision.
constexpr io::json::Format kImportance = io::json::Format::general(6);

void write_node(io::json::Writer& w, const models::FlowNode& n) {
    w.begin_array().value(n.layer).value(n.position + 1).end_array();
}
}  // namespace

std::string flow_graph_json(const std::vector<std::string>& tokens,
                            const models::InformationFlow& flow, const models::FlowGraph& g) {
    io::json::Writer w;
    w.begin_object()
        .member("position", g.position + 1)
        .member("threshold", g.threshold)
        .member("distance", models::flow_distance_name(flow.distance))
        .member("per_head", flow.per_head)
        .member("layers", flow.layers);
    w.key("tokens").begin_array();
    for (const std::string& t : tokens)
        w.value(t);
    w.end_array();
    w.key("nodes").begin_array();
    for (const models::FlowNode& n : g.nodes)
        w.begin_object()
            .member("layer", n.layer)
            .member("position", n.position + 1)
            .member("after", n.after_name())
            .end_object();
    w.end_array();
    w.key("edges").begin_array();
    for (const models::FlowEdge& edge : g.edges) {
        w.begin_object().key("from");
        write_node(w, edge.from);
        w.key("to");
        write_node(w, edge.to);
        w.member("via", edge.via_name())
            .member("block", edge.to.after == models::FlowNode::After::Mlp ? "mlp" : "attention")
            .member("importance", edge.importance, kImportance)
            .end_object();
    }
    w.end_array();
    return w.end_object().take() + "\n";
}

namespace {

using Index = std::int64_t;

constexpr double kDefaultThreshold = 0.04;

struct FlowCommandOptions {
    std::string folder, text, out_json;
    std::optional<Index> position;  ///< from 1; negative: from the end
    double threshold = kDefaultThreshold;
    bool per_head = false;
    std::string distance = "l1";
    MemoryOptions memory;
    int threads = 1;
};

int flow(const FlowCommandOptions& o) {
    require_output_folder(o.out_json, "--out-json");
    if (!(o.threshold > 0.0))
        throw UsageError(
            "--threshold must be more than 0 (and at most 1): every edge of "
            "importance 0 would reach the output");
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const models::ModelConfig& c = m.model->config();
    const models::EncodedText e = models::encode_text(m, o.text, std::nullopt);
    const auto L = static_cast<Index>(e.input.ids.size());
    const Index at = token_index(o.position.value_or(-1), L, "--position");

    models::FlowOptions options;
    options.distance = o.distance == "l2" ? models::FlowDistance::L2 : models::FlowDistance::L1;
    options.per_head = o.per_head;
    options.num_threads = o.threads;
    // The pass keeps no map; the importances and one layer's rows grow with L².
    models::ModelForwardOptions forward;
    forward.attention = false;
    forward.num_threads = o.threads;
    options.weight_cache_bytes =
        planned_weight_cache(*m.model,
                             m.model->estimate_forward_bytes(L, forward) +
                                 models::information_flow_bytes(c, L, o.per_head),
                             L, o.memory);
    // A post-norm model is refused with a DataError: the folder's problem, not the command's.
    const models::InformationFlow flow = models::information_flow(*m.model, e.input, options);
    const std::string js =
        flow_graph_json(e.encoding.text, flow, models::flow_graph(flow, at, o.threshold));
    io::write_file_atomically(o.out_json, js);
    return 0;
}

}  // namespace

void add_flow_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<FlowCommandOptions>();
    CLI::App* sub = app.add_subcommand(
        "flow",
        "Information-flow routes (Ferrando & Voita 2024): the graph of what a prediction is made "
        "of, from one forward pass.  Each block's output is a sum of terms (the attention's: "
        "each source token through every head, or per head, and the token's own residual; the "
        "MLP's: its output and the residual); a term's importance is its proximity to the sum, "
        "max(0, |y| - |y - z|), over the block's.  The graph holds every edge of importance >= "
        "the threshold that reaches the stream after the last layer at the position.  Pre-norm "
        "models: GPT-2, Llama, Qwen.");
    sub->footer(
        "The JSON: position, threshold, distance, per_head, layers, tokens; nodes [{layer, "
        "position, after}], the stream after layer `layer`'s attention or its MLP (\"after\": "
        "\"attention\" | \"mlp\"; an attention-only layer's output is its \"attention\" node); "
        "layer 0 is the embeddings (\"after\": \"embeddings\"), layers and positions count from "
        "1; edges [{from: [layer, position], to: [layer, position], via: \"attention\" | \"L3H4\" "
        "| \"mlp\" | \"residual\", block: \"attention\" | \"mlp\", importance}].  An "
        "attention-block edge goes from the stream after layer l - 1 to the stream after layer "
        "l's attention; an MLP-block edge (via mlp, or the residual around the MLP) from there "
        "to layer l's output.  A node's incoming importances, every edge counted, sum to 1.\n\n"
        "Example:\n  attnviz flow --model resources/models/attn-only-2l --text "
        "\"zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1^\" --per-head --out-json G.json");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face folder of a pre-norm model")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_integer(*sub, "--position", &o->position, -(Index{1} << 24), Index{1} << 24, "P",
                "the position whose stream after the last layer the graph explains, from 1; "
                "negative from the end (default -1, the last)");
    add_real(*sub, "--threshold", &o->threshold, 0.0, 1.0, UpperBound::Included, "T",
             "the least importance of an edge in the graph; more than 0");
    add_flag(*sub, "--per-head", &o->per_head,
             "the attention's terms per source token and head (edges via \"L3H4\") rather than "
             "per source token through every head (via \"attention\")");
    add_choice(*sub, "--distance", &o->distance, {"l1", "l2"},
               "the norm of the proximity: l1 as in the paper and Meta's LLM Transparency Tool, "
               "or l2");
    add_text(*sub, "--out-json", &o->out_json, "G.json", "the graph (below)")->required();
    add_memory_budget_option(*sub, &o->memory);
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of the pass");
    ctx.on_parsed(sub, [o] { return flow(*o); });
}

}  // namespace attnviz::cli
