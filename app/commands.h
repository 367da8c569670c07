// The subcommands of app/, each one function that declares its options and registers its
// handler (app/command_line.h).  app/cli.cpp adds them to the tree in this order, then the
// extensions app/main.cpp passes (export).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "app/command_line.h"

namespace attnviz::models {
class Model;
}

namespace attnviz::cli {

/// Folder of `path` exists and `path` is not a folder: checked before any work, so a run
/// never computes for minutes and then fails to write, and never leaves one output of two.
void require_output_folder(const std::string& path, const char* option);

/// A position as the options give it (from 1; negative from the end, -1 the last) into one
/// from 0; UsageError naming `option` when it is not one of the `tokens` tokens.
std::int64_t token_index(std::int64_t position, std::int64_t tokens, const char* option);

/// The weight cache of a computation needing `bytes` besides the weights at `tokens` tokens,
/// under the memory budget (models::plan_pass: the weights kept when they fit, else streamed).
/// Throws budget::MemoryBudgetExceeded, naming what fits, when even streamed they do not.
std::size_t planned_weight_cache(const models::Model& model, std::uint64_t bytes,
                                 std::int64_t tokens, const MemoryOptions& memory);

/// Activation patching's inputs, as `attnviz patch` and `attnviz export --view patch` spell
/// them: --clean, --corrupt, --target, --distractor, --position.
struct PatchInputOptions {
    std::optional<std::string> clean, corrupt, target, distractor;
    std::optional<std::int64_t> position;  ///< from 1; negative: from the end
};
/// Declares them on `sub`; the texts and tokens `required` (else in the group `group`).
void add_patch_inputs(CLI::App& sub, PatchInputOptions* inputs, bool required,
                      const char* group = nullptr);

/// Heads knocked out of a model's pass, as `attnviz predict` and `attnviz export` spell them:
/// --ablate L.H,... (layer.head, from 1; models::parse_head_list reads it) and --ablate-mode.
struct AblateOptions {
    std::string heads;  ///< as given; empty: none
    std::string mode = "zero";
};
/// Declares them on `sub` (in the group `group`).
void add_ablate_options(CLI::App& sub, AblateOptions* ablate, const char* group = nullptr);

/// How a model continues a text, as `attnviz generate` and `attnviz export --generate` spell
/// it: greedy (--temperature 0) or sampled with --temperature, --top-k and --top-p.
struct SamplingOptions {
    double temperature = 0.0, top_p = 1.0;
    std::int64_t top_k = 0;
};
/// Declares them on `sub` (in the group `group`).
void add_sampling_options(CLI::App& sub, SamplingOptions* sampling, const char* group = nullptr);

/// `attnviz inspect --model DIR`: the model folder as JSON.
void add_inspect_command(CLI::App& app, CommandContext& ctx);
/// `attnviz attend`: nn.MultiheadAttention from a safetensors state_dict on .npy inputs.
void add_attend_command(CLI::App& app, CommandContext& ctx);
/// `attnviz tokenize`: the app's tokenizer, tokens as a JSON array.
void add_tokenize_command(CLI::App& app, CommandContext& ctx);
/// `attnviz bench`: one attention layer's forward pass, or the SIMD softmax, timed.
void add_bench_command(CLI::App& app, CommandContext& ctx);
/// `attnviz predict`: a model's logits, top-k, loss and logit lens, heads knocked out.
void add_predict_command(CLI::App& app, CommandContext& ctx);
/// `attnviz patch`: activation patching over heads.
void add_patch_command(CLI::App& app, CommandContext& ctx);
/// `attnviz generate`: a causal model's continuation with a key/value cache.
void add_generate_command(CLI::App& app, CommandContext& ctx);
/// `attnviz stats`: the statistics pass over a long text (engine/models/head_statistics.h).
void add_stats_command(CLI::App& app, CommandContext& ctx);
/// `attnviz corpus`: every head over a file of texts (engine/models/corpus.h).
void add_corpus_command(CLI::App& app, CommandContext& ctx);
/// `attnviz attribute`: direct logit attribution (engine/models/attribution.h).
void add_attribute_command(CLI::App& app, CommandContext& ctx);
/// `attnviz qk`: QK attribution (engine/models/qk_attribution.h).
void add_qk_command(CLI::App& app, CommandContext& ctx);
/// `attnviz circuits`: composition and copying scores (engine/models/circuits.h).
void add_circuits_command(CLI::App& app, CommandContext& ctx);
/// `attnviz flow`: information-flow routes (engine/models/information_flow.h).
void add_flow_command(CLI::App& app, CommandContext& ctx);
/// `attnviz export`: the window's figure, headless (ui/cli/export_command.h renders it).
/// Not in attnviz_cli, which is Qt-free: app/main.cpp passes it as an extension.
void add_export_command(CLI::App& app, CommandContext& ctx);

}  // namespace attnviz::cli
