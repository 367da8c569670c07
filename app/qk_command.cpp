// `attnviz qk`: which parts of the residual stream make a head's query match a key, from the
// command line (engine/models/qk_attribution.h).  Positions, layers and heads count from 1.
// Everything is computed before the file is written, and it is written atomically.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/qk_json.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "engine/models/qk_attribution.h"

namespace attnviz::cli {

namespace {

using Index = std::int64_t;

/// Scores and their parts: 7 significant digits, about a float's precision.
constexpr io::json::Format kReal = io::json::Format::general(7);

struct QkOptions {
    std::string folder, text, head, out_json;
    std::optional<Index> query, key;  ///< from 1; negative: from the end (required)
    std::optional<Index> top;
    int threads = 1;
};

void write_position(io::json::Writer& w, const models::OpenedModel& m,
                    const models::ModelInput& input, Index p) {
    const Index id = input.ids[static_cast<std::size_t>(p)];
    const std::string s = m.tokenizer.id_to_token(id);
    w.begin_object()
        .member("position", p + 1)
        .member("id", id)
        .member("token", s.empty() ? "<id " + std::to_string(id) + ">" : s)
        .end_object();
}

/// Each term of one side with its total over the other side's terms, in the engine's order.
void write_side(io::json::Writer& w, const std::vector<models::QkTerm>& terms,
                const std::vector<double>& totals) {
    w.begin_array();
    for (std::size_t t = 0; t < terms.size(); ++t)
        w.begin_object()
            .member("name", terms[t].name())
            .member("value", totals[t], kReal)
            .end_object();
    w.end_array();
}

}  // namespace

std::string qk_json(const models::OpenedModel& m, const models::ModelInput& input,
                    const models::QkAttribution& a, std::optional<Index> top) {
    const std::size_t A = a.queries.size(), B = a.keys.size();
    io::json::Writer w;
    w.begin_object();
    w.key("head")
        .begin_object()
        .member("layer", a.head.layer + 1)
        .member("head", a.head.head + 1)
        .end_object();
    w.key("query");
    write_position(w, m, input, a.query);
    w.key("key");
    write_position(w, m, input, a.key);
    w.member("scale", a.scale, kReal).member("score", a.score, kReal);
    std::vector<double> by_query(A, 0.0), by_key(B, 0.0);
    for (std::size_t q = 0; q < A; ++q)
        for (std::size_t k = 0; k < B; ++k) {
            by_query[q] += a.pair(q, k);
            by_key[k] += a.pair(q, k);
        }
    w.key("query_terms");
    write_side(w, a.queries, by_query);
    w.key("key_terms");
    write_side(w, a.keys, by_key);

    std::vector<std::size_t> order(A * B);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // NaN (a broken weight) first: it is what the reader must see.
    const auto magnitude = [&](std::size_t n) {
        return std::isnan(a.pairs[n]) ? INFINITY : std::abs(a.pairs[n]);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return magnitude(x) > magnitude(y); });
    const std::size_t shown =
        top ? std::min(order.size(), static_cast<std::size_t>(*top)) : order.size();
    w.key("pairs").begin_array();
    for (std::size_t n = 0; n < shown; ++n)
        w.begin_object()
            .member("query", a.queries[order[n] / B].name())
            .member("key", a.keys[order[n] % B].name())
            .member("value", a.pairs[order[n]], kReal)
            .end_object();
    w.end_array();
    if (top) {
        double rest = 0.0;
        for (std::size_t n = shown; n < order.size(); ++n)
            rest += a.pairs[order[n]];
        w.member("rest", rest, kReal)
            .member("rest_pairs", static_cast<Index>(order.size() - shown));
    }
    return w.end_object().take() + "\n";
}

namespace {

int qk(const QkOptions& o) {
    require_output_folder(o.out_json, "--out-json");
    const models::OpenedModel m = models::open_model_folder(o.folder);
    const std::vector<models::HeadRef> heads =
        models::parse_head_list(o.head, m.model->info(), "--head");
    if (heads.size() != 1) throw UsageError("--head takes one head (L.H, from 1)");
    const models::EncodedText e = models::encode_text(m, o.text, std::nullopt);
    const auto L = static_cast<Index>(e.input.ids.size());
    const Index query = token_index(*o.query, L, "--query"), key = token_index(*o.key, L, "--key");
    models::AttributionOptions options;
    options.num_threads = o.threads;
    models::QkAttribution a;
    try {
        a = models::attribute_qk(*m.model, e.input, heads.front(), query, key, options);
    } catch (const std::invalid_argument& ex) {
        throw UsageError(ex.what());
    }
    io::write_file_atomically(o.out_json, qk_json(m, e.input, a, o.top));
    return 0;
}

}  // namespace

void add_qk_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<QkOptions>();
    CLI::App* sub = app.add_subcommand(
        "qk",
        "QK attribution: a head's pre-softmax score between a query and a key, split into "
        "pairs (query-side term, key-side term) over what wrote the residual stream below its "
        "layer (embeddings, heads, attention biases, MLPs; each side's biases as \"const\"), the "
        "norms' scales frozen (pre-norm models: GPT-2, Llama, Qwen).");
    sub->footer(
        "Example (the induction head of the shipped model at the string's second copy):\n"
        "  attnviz qk --model resources/models/attn-only-2l --text "
        "\"q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP\" --head 2.8 --query -1 --key 18 "
        "--top 10 --out-json Q.json");
    add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face folder of a causal model")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)")->required();
    add_text(*sub, "--head", &o->head, "L.H", "the head (layer.head, from 1)")->required();
    add_integer(*sub, "--query", &o->query, -(Index{1} << 24), Index{1} << 24, "I",
                "the query's position, from 1; negative from the end")
        ->required();
    add_integer(*sub, "--key", &o->key, -(Index{1} << 24), Index{1} << 24, "J",
                "the key's position, from 1 (at most the query's); negative from the end")
        ->required();
    add_integer(*sub, "--top", &o->top, 1, Index{1} << 30, "N",
                "only the N largest pairs; the others summed as \"rest\" (default: every pair)");
    add_text(*sub, "--out-json", &o->out_json, "Q.json",
             "head, query, key, scale, score, query_terms and key_terms [{name, value}], pairs "
             "[{query, key, value}] sorted by |value| (they add up to score), rest, rest_pairs")
        ->required();
    add_threads_option(*sub, &o->threads);
    ctx.on_parsed(sub, [o] { return qk(*o); });
}

}  // namespace attnviz::cli
