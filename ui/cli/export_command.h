// `attnviz export`, the rendering side: the window's figure, headless, through the same
// document and renderer.  The command line (app/export_command.cpp) declares the options
// and fills an ExportOptions; this file applies them to an AttentionDocument and writes the
// figure.  Plain C++ types only: the front door that parses them is not the window's
// business.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::ui {

/// `attnviz export`'s options as given, before the document sees them (the names are the
/// options', e.g. `no_bias` is --no-bias).  The defaults are the options' defaults.
struct ExportOptions {
    // Input
    std::optional<std::string> text, text2, tokens, tokens2, mode;
    bool lowercase = false, special_tokens = false;
    // A trained model instead of the demo layer.
    std::optional<std::string> model;
    std::optional<int> model_layer;  ///< --layer, from 1
    /// Heads knocked out of the model's pass: --ablate L.H,... (from 1), --ablate-mode.
    std::optional<std::string> ablate;
    std::string ablate_mode = "zero";
    /// The text continued by the model first (the generation timeline): --generate N new
    /// tokens, greedy or sampled (--temperature, --top-k, --top-p; the sampler's seed is
    /// --seed).
    std::optional<int> generate;
    double temperature = 0.0, top_p = 1.0;
    int top_k = 0;
    bool temperature_given = false;  ///< --temperature was on the command line
    /// --view steps: the whole model at --focus-token, layers --open-layers ("all", "none" or
    /// "1,3"; default: the first) unfolded, the next token sampled with --temperature (default 1
    /// here), --top-k, --top-p, and --draw SEED's draw highlighted.
    bool whole_model = false;
    std::optional<std::string> open_layers;
    std::optional<int> draw;
    /// Attention maps computed elsewhere instead (engine/io/attention_arrays.h), and their
    /// tokens (default: tokens.json beside them).
    std::optional<std::string> attentions, attention_tokens;
    bool words = false, hide_special = false, focus_to = false;
    std::optional<int> focus_token;  ///< from 1
    /// --view model when only some maps are kept: "max", "mean" (the whole text pooled) or
    /// "kept" (FigureOptions::model_thumbnails); unset: max.
    std::optional<std::string> thumbnails;
    // The demo layer
    int embed_dim = 64;
    int num_heads = 4;
    std::optional<std::string> weights;
    std::string scoring = "dot";
    bool no_bias = false, no_positional = false;
    double dropout = 0.0;
    bool train = false;
    std::int64_t seed = 0;
    std::optional<std::int64_t> dropout_seed;  ///< default: seed
    // Masks
    bool causal = false;
    std::vector<int> mask_keys;
    std::string masked_rows = "zero";
    // The figure
    std::string view = "grid";
    std::optional<int> step, item;
    bool focus = false;
    std::optional<std::string> heads;
    std::string colormap = "viridis";
    bool per_head_scale = false, unit_scale = false, no_values = false;
    std::optional<std::string> title;
    bool no_title = false;
    int width = 1600, height = 1000;
    double scale = 2.0;
    int font_size = 14;
    std::optional<std::string> lang;
    std::optional<std::string> out;
    // The comparison: a preset, then the --b-... changes on top of it.
    std::optional<std::string> compare;
    std::optional<bool> b_causal, b_train, b_bias, b_positional;
    std::optional<int> b_num_heads, b_seed;
    std::optional<double> b_dropout;
    std::optional<std::string> b_scoring, b_masked_rows;
    std::optional<int> b_layer, b_head;  ///< from 1
    std::optional<std::string> b_text;
    /// With --attentions: B's maps, another file of the same shape, and their tokens.
    std::optional<std::string> b_attentions, b_attention_tokens;
    // Activation patching (--view patch), as `attnviz patch` spells it.
    std::optional<std::string> clean, corrupt, target, distractor;
    std::optional<std::int64_t> position;  ///< from 1; negative: from the end
    // The memory budget and what to keep of the result (README "Limits").
    std::string memory_budget;  ///< as given; "" for the default
    std::optional<int> heads_shown;
    bool mean_only = false;
    std::optional<std::pair<std::int64_t, std::int64_t>> window;  ///< START, LEN
};

/// Refuses (UsageError) what needs no file and no QApplication to refuse: a --lang that is
/// not en or zh_CN.  run by the command line's parse, before anything is read.
void check_export_options(const ExportOptions& options);

/// Creates the QApplication (offscreen unless QT_QPA_PLATFORM says otherwise), applies
/// `options` to an AttentionDocument, computes and writes the figure.  Throws UsageError
/// (options that do not go together, exit 2) or DataError / std::invalid_argument (a file
/// that is missing or broken, a computation over the budget, exit 1); nothing is written
/// then.
void render_export(const ExportOptions& options);

/// The names --colormap accepts, as the window's Colormap box lists them.
std::vector<std::string> export_colormap_names();

}  // namespace attnviz::ui
