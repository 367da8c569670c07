// `attnviz export`'s options, one struct per group of its --help: each holds the group's
// values, declares them on the subcommand (`declare`, in --help's order) and applies them to
// the document and the figure (`apply_*`), both in one export_*_options.cpp, so an option is
// added, named, checked and applied in one place.  apply_arguments (export_command.cpp) calls
// the apply steps in the order the document needs them; a step that checks a rule between
// groups reads the others' values through `a`, the whole ExportOptions.
#pragma once

#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/commands.h"

namespace attnviz::ui {

struct ExportOptions;
struct Applying;  // export_applying.h: the state the steps hand each other
struct ComputeConfig;

/// Input: the sentences.
struct ExportInput {
    std::optional<std::string> text, text2, tokens, tokens2, mode;
    bool lowercase = false, special_tokens = false;

    void declare(CLI::App& sub);
    /// The texts and how they are split.
    void apply_settings(Applying& s) const;
    /// Text or tokens, one sentence or two, and the pair mode: once a model or maps are known.
    void apply_sentences(Applying& s) const;
};

/// Trained model: a model folder or maps computed elsewhere, and what only they have: the
/// model, atlas, lens and predictions views, heads knocked out, generation, the whole model.
struct ExportModel {
    std::optional<std::string> model;
    /// Attention maps computed elsewhere instead (engine/io/attention_arrays.h), and their
    /// tokens (default: tokens.json beside them).
    std::optional<std::string> attentions, attention_tokens;
    std::optional<int> model_layer;  ///< --layer, from 1
    bool words = false, hide_special = false;
    std::optional<int> focus_token;  ///< from 1
    bool focus_to = false;
    /// --view model when only some maps are kept: "max", "mean" (the whole text pooled) or
    /// "kept" (FigureOptions::model_thumbnails); unset: max.
    std::optional<std::string> thumbnails;
    /// Heads knocked out of the model's pass: --ablate L.H,... (from 1), --ablate-mode.
    cli::AblateOptions ablate;
    /// The text continued by the model first (the generation timeline): --generate N new
    /// tokens, greedy or sampled (the sampler's seed is --seed).
    std::optional<int> generate;
    cli::SamplingOptions sampling;
    /// --view steps: the whole model at --focus-token, layers --open-layers ("all", "none" or
    /// "1,3"; default: the first) unfolded, the next token sampled with --temperature (default
    /// 1 here), --top-k, --top-p, and --draw SEED's draw highlighted.
    bool whole_model = false;
    std::optional<std::string> open_layers;
    std::optional<int> draw;
    const CLI::Option* temperature_option = nullptr;  ///< set by declare

    bool ablating() const { return !ablate.heads.empty(); }
    bool temperature_given() const { return temperature_option && temperature_option->count(); }

    void declare(CLI::App& sub);
    /// Opens the model or the maps (DataError when they are broken) into the document.
    void apply_source(const ExportOptions& a, Applying& s) const;
    /// --view model, atlas, predictions or lens.
    void apply_view(Applying& s) const;
    /// --whole-model and the options that need one of the views above.
    void apply_view_options(const ExportOptions& a, Applying& s) const;
    /// --generate: the text continued by the model, last (it runs the model).
    void apply_generation(const ExportOptions& a, Applying& s) const;
};

/// Layer: the demo layer (and Seeds).
struct ExportLayer {
    int embed_dim = 64;
    int num_heads = 4;
    std::optional<std::string> weights;
    std::string scoring = "dot";
    bool no_bias = false, no_positional = false;
    double dropout = 0.0;
    bool train = false;
    cli::SeedOptions seeds;

    void declare(CLI::App& sub);
    void apply_settings(Applying& s) const;
    /// The width and the heads, once a model or maps may have brought their own.
    void apply_heads(Applying& s) const;
    void apply_seeds(Applying& s) const;
};

/// Masks.
struct ExportMasks {
    bool causal = false;
    std::vector<int> mask_keys;  ///< from 1
    std::string masked_rows = "zero";

    void declare(CLI::App& sub);
    void apply_settings(Applying& s) const;
    /// The masked keys, after everything that may change the tokens (which clears them).
    void apply_keys(Applying& s) const;
};

/// Figure: the view and how it is drawn, the file.
struct ExportFigure {
    std::string view = "grid";
    std::optional<int> step;  ///< steps: from 1
    bool focus = false;
    std::optional<std::string> heads;  ///< lines
    std::optional<int> item;           ///< from 1
    std::string colormap = "viridis";
    bool per_head_scale = false, unit_scale = false, no_values = false;
    std::optional<std::string> title;
    bool no_title = false;
    int width = 1600, height = 1000;
    double scale = 2.0;
    int font_size = 14;
    std::optional<std::string> lang;
    std::optional<std::string> out;
    /// --effective weights|norm: what the map views draw (AttentionShown); unset: weights.
    std::optional<std::string> effective;

    void declare(CLI::App& sub);
    void apply_settings(Applying& s) const;
    /// Refuses (UsageError) --effective with a view that draws no attention map, and norm
    /// with maps read from a file: before any view computes.
    void check_effective(const ExportOptions& a) const;
    /// --view: grid, mean, head:K, steps[:K] and lines here; the others by their groups.
    void apply_view(const ExportOptions& a, Applying& s) const;
    /// What needs a view (--step, --heads, --item) and the file (--out, the size).
    void apply_view_options(Applying& s) const;
    /// Refuses (UsageError) a --lang that is not en or zh_CN: needs no file and no QApplication.
    void check_language() const;
    /// --out of a view that writes a figure or its numbers: true when its suffix is one of
    /// `data` ("csv", "npy", "json"), else a figure format whose size is checked.  UsageError
    /// without --out, or naming the formats that fit.
    bool data_output(const QStringList& data) const;
};

/// Comparison (--view compare): a preset, then the --b-... changes on top of it.
struct ExportComparison {
    std::optional<std::string> compare;
    std::optional<bool> b_causal, b_train, b_bias, b_positional;
    std::optional<int> b_num_heads, b_seed;
    std::optional<double> b_dropout;
    std::optional<std::string> b_scoring, b_masked_rows;
    std::optional<int> b_layer, b_head;  ///< from 1
    std::optional<std::string> b_text;
    /// With --attentions: B's maps, another file of the same shape, and their tokens.
    std::optional<std::string> b_attentions, b_attention_tokens;

    void declare(CLI::App& sub);
    /// The preset and B's changes, checked once A is complete (apply_view).
    void apply_settings(Applying& s) const;
    /// --b-attentions, read and checked against A's maps (`a_source`) as they are opened.
    void apply_b_maps(const ComputeConfig& a_source, Applying& s) const;
    /// --view compare[:K]: B into the document, the head into the figure.
    void apply_view(Applying& s) const;
    /// A --b-... option without --view compare.
    void check_view(const Applying& s) const;
};

/// Activation patching (--view patch): `attnviz patch`'s sweep, drawn or written.
struct ExportPatching {
    cli::PatchInputOptions patch;
    std::optional<std::string> method;  ///< --method exact|attribution (unset: exact)

    void declare(CLI::App& sub);
    /// --view patch: computes and writes it, and returns true.  Any other view: refuses the
    /// patching options and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Circuits (--view circuits): `attnviz circuits`'s scores of --model, drawn or written.
struct ExportCircuits {
    std::optional<std::string> composition;  ///< --composition q|k|v (unset: k)
    std::optional<std::int64_t> rope_offset;

    void declare(CLI::App& sub);
    /// --view circuits: computes and writes it, and returns true.  Any other view: refuses
    /// the circuits' options and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Who writes the answer (--view dla): direct logit attribution of --model on --text, at the
/// patching group's --position for its --target and --distractor, drawn or written.
struct ExportDla {
    /// --view dla: computes and writes it, and returns true.  Any other view: false.
    bool apply(const ExportOptions& a) const;
};

/// Why this attention? (--view why): the QK attribution of one head's cell, drawn or written.
struct ExportWhy {
    std::optional<std::string> head;  ///< --head L.H, from 1
    std::optional<std::int64_t> query, key, top;

    void declare(CLI::App& sub);
    /// --view why: computes and writes it, and returns true.  Any other view: refuses its
    /// options and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Information flow (--view flow): `attnviz flow`'s graph of --model on --text at the patching
/// group's --position, drawn or written.
struct ExportFlow {
    std::optional<double> threshold;  ///< --threshold (unset: 0.04)
    bool flow_per_head = false;       ///< --per-head

    void declare(CLI::App& sub);
    /// --view flow: computes and writes it, and returns true.  Any other view: refuses the
    /// flow's options and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Input saliency (--view saliency): `attnviz attribute --saliency`'s shares of the tokens of
/// --text, for the patching group's --position, --target and --distractor, drawn or written.
struct ExportSaliency {
    std::optional<std::string> saliency;  ///< --saliency grad-input|ig:N (unset: grad-input)

    void declare(CLI::App& sub);
    /// --view saliency: computes and writes it, and returns true.  Any other view: refuses
    /// --saliency and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Heads across a corpus (--view qk, and --view atlas with --texts): the texts of --texts
/// measured as `attnviz corpus` measures them (--head is the Why group's).
struct ExportCorpus {
    std::optional<std::string> texts, texts_format;  ///< --texts, --format
    std::optional<std::int64_t> max_tokens, limit;
    std::optional<std::string> projection, colour_by;  ///< --projection, --colour-by

    void declare(CLI::App& sub);
    /// --view qk or atlas with --texts: computes and writes it, and returns true.  Any other
    /// view: refuses the corpus's options and returns false.
    bool apply(const ExportOptions& a) const;
};

/// Memory budget, and what to keep of the result (README "Limits").
struct ExportMemory {
    cli::MemoryOptions memory;

    void declare(CLI::App& sub);
    /// The budget and --window.
    void apply_settings(Applying& s) const;
    /// --heads-shown and --mean-only, once the heads are known.
    void apply_scope(const ExportOptions& a, Applying& s) const;
};

/// `attnviz export`'s options as given, every group side by side: a field keeps its option's
/// name (`no_bias` is --no-bias) and its default.
struct ExportOptions : ExportInput,
                       ExportModel,
                       ExportLayer,
                       ExportMasks,
                       ExportFigure,
                       ExportComparison,
                       ExportPatching,
                       ExportCircuits,
                       ExportDla,
                       ExportSaliency,
                       ExportFlow,
                       ExportWhy,
                       ExportCorpus,
                       ExportMemory {};

}  // namespace attnviz::ui
