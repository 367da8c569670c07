// The command line's model subcommands: inspect, tokenize --model, attend --model and
// bench --model.  Options are parsed by the CLI (app/cli.cpp); these run what they ask for.
// Errors are thrown (UsageError: exit 2, DataError / std::invalid_argument: exit 1).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "engine/budget/memory_budget.h"
#include "engine/ops/softmax.h"

namespace attnviz::cli {

/// `attnviz inspect --model DIR`: one JSON object on `out`; a folder of tokenizer files
/// without weights is described as a tokenizer ("kind": "tokenizer").
void inspect_model(const std::string& folder, std::ostream& out);

/// `attnviz tokenize --model DIR --text T [--text2 T2]`: the encoding the model sees, as JSON.
/// Needs only the tokenizer files.  Any length: past the model's positions it warns on `err`,
/// as Hugging Face does, and still prints every token.
void tokenize_with_model(const std::string& folder, const std::string& text,
                         const std::optional<std::string>& text2, std::ostream& out,
                         std::ostream& err);

struct ModelAttendRequest {
    std::string folder;
    std::string text;
    std::optional<std::string> text2;
    std::string layers = "all";  ///< --layers SPEC
    budget::ResultScope scope;   ///< --heads-shown / --mean-only / --window
    budget::MemoryBudget budget;
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    int threads = 1;
    std::string out_weights;  ///< float32 [layers, heads, L, L]
    std::string out_mean;     ///< float32 [layers, L, L]
    std::string out_tokens;   ///< the maps' tokens (models::attention_tokens_json)
    bool effective = false;   ///< norm-based maps instead (models/effective_attention.h)
};

/// `attnviz attend --model DIR --text T ...`: every kept layer × head in one forward pass,
/// written atomically after the whole pass (a failure leaves no file).
void attend_with_model(const ModelAttendRequest& request);

struct StatsRequest {
    std::string folder;
    std::string text;  ///< the whole text (--text, or --text-file read)
    budget::MemoryBudget budget;
    int threads = 1;
    std::string out_json;   ///< per-head measures, labels and curves' summary
    std::string out_npy;    ///< float32 [layers, heads, L]: the attention each key receives
    std::string out_first;  ///< float32 [layers, heads, L]: each query's weight on token 1
    std::string out_csv;    ///< the head atlas's CSV
    std::string map;        ///< --map L.H (from 1): one head's full map after the pass
    std::string out_map;    ///< float32 [L, L] of that head
};

/// `attnviz stats --model DIR --text-file F`: the statistics pass (engine/models/
/// head_statistics.h) over a text of any length the model takes, keeping no map; every
/// output computed before the first is written.
void stats_with_model(const StatsRequest& request);

/// What `bench --model` times besides the forward pass, one JSON line each.
struct ModelBenchExtras {
    bool lm_head = false;       ///< the head's logits at every position
    bool lens = false;          ///< the lens after every layer, and its top-k
    std::int64_t generate = 0;  ///< new tokens after the --tokens prompt
    bool patch = false;         ///< a patching sweep over every head
    // Issue 37's "Fast" list, each against the same forward pass:
    bool backward = false;  ///< Model::gradients of log p at the last position, head gradients
    bool eap = false;       ///< attribution patching over every head
    bool dla = false;       ///< logit attribution of every component at the last position
    bool flow = false;      ///< information flow and its graph at the last position
    bool circuits = false;  ///< composition and copying scores, from the weights
};
/// `attnviz bench --model DIR --tokens N [--threads T]`: one JSON line with the open time,
/// the first pass (weights read from the files), the median of `repeats` passes with every
/// map kept, and the forward pass's GFLOP/s against the sgemm peak measured in the same run.
void bench_model(const std::string& folder, std::int64_t tokens, int threads, int repeats,
                 std::ostream& out, const ModelBenchExtras& extras = {});

/// The CPU time this process has used, all threads, in ms (bench's second clock: robust to
/// a busy machine's descheduling).
double process_cpu_ms();

}  // namespace attnviz::cli
