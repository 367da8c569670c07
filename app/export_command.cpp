// `attnviz export`: the window's figure, headless.  The options are declared here like
// every other subcommand's; the figure is rendered by the window's own code
// (ui/cli/export_command.h, render_export), which applies them to an AttentionDocument.
// Kept out of attnviz_cli because it links the Qt front end (app/CMakeLists.txt).
#include <memory>

#include "app/commands.h"
#include "engine/layers/multi_head_attention.h"
#include "ui/cli/export_command.h"
#include "ui/document/attention_document.h"
#include "ui/render/figure_export.h"

namespace attnviz::cli {

void add_export_command(CLI::App& app, CommandContext& ctx) {
    // The options go into `a`; the option groups shared with other subcommands into their
    // own structs, copied into `a` once parsed.
    struct Parsed {
        ui::ExportOptions options;
        SeedOptions seeds;
        MemoryOptions memory;
        PatchInputOptions patch;
        AblateOptions ablate;
        SamplingOptions sampling;
    };
    auto parsed = std::make_shared<Parsed>();
    ui::ExportOptions* a = &parsed->options;
    CLI::App* sub = app.add_subcommand(
        "export",
        "Renders the same figure as the window (heatmaps, the computation steps, lines, a "
        "comparison) to PNG, SVG or PDF, without a display.  Configuration A is the window's "
        "controls; --view compare adds a configuration B.");
    sub->footer(
        "An option given twice takes the last value (--mask-key adds each).\n"
        "\n"
        "Examples:\n"
        "  attnviz export --text \"The cat sat on the mat\" --embed-dim 32 --num-heads 4 "
        "--causal --out cat.png\n"
        "  attnviz export --text \"The cat sat on the mat\" --view compare --compare causal "
        "--out causal.pdf\n"
        "  attnviz export --attentions ckpt1/A.npy --b-attentions ckpt2/A.npy --view compare "
        "--layer 2 --out ckpt.pdf\n"
        "  attnviz export --model resources/models/attn-only-2l --view patch --clean TEXT "
        "--corrupt TEXT --target T --distractor D --out patch.pdf\n"
        "  attnviz export --model resources/models/attn-only-2l --text "
        "\"q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Q\" --view predictions "
        "--ablate 2.4,2.5,2.8 --out knocked.pdf");

    const char* input = "Input";
    add_text(*sub, "--text", &a->text, "TEXT", "the sentence (queries)")->group(input);
    add_text(*sub, "--text2", &a->text2, "TEXT",
             "a second sentence: keys/values (cross) or a batch item")
        ->group(input);
    add_choice(*sub, "--mode", &a->mode, {"self", "cross", "batch"},
               "self (default without --text2), cross (default with it) or batch", {"single"},
               LetterCase::Any)
        ->group(input);
    add_text(*sub, "--tokens", &a->tokens, "LIST",
             "pre-tokenized input instead of --text (tokens separated by |)")
        ->group(input);
    add_text(*sub, "--tokens2", &a->tokens2, "LIST", "the same for the second sentence")
        ->group(input);
    add_flag(*sub, "--lowercase", &a->lowercase, "lowercase before tokenizing")->group(input);
    add_flag(*sub, "--special-tokens", &a->special_tokens, "add [CLS] and [SEP]")->group(input);

    const char* model = "Trained model";
    add_text(*sub, "--model", &a->model, "DIR",
             "a Hugging Face model folder: its tokenizer splits --text (and --text2, a pair) "
             "and every layer runs; the Layer options below do not apply")
        ->group(model);
    add_text(*sub, "--attentions", &a->attentions, "A.npy",
             "attention maps computed elsewhere instead of a model: [layers, heads, L, L] "
             "(.npy) or layer.N tensors (.safetensors), float32 or float16 (attnviz view)")
        ->group(model);
    add_text(*sub, "--attention-tokens", &a->attention_tokens, "T.json",
             "the tokens of --attentions; default: tokens.json beside them")
        ->group(model);
    add_integer(*sub, "--layer", &a->model_layer, 1, ui::AttentionDocument::kMaxLayers, "N",
                "the model's layer that grid, mean and head:K show (from 1; default 1)")
        ->group(model);
    add_flag(*sub, "--words", &a->words,
             "pieces grouped into words and characters (attention summed over a word's key "
             "pieces, averaged over its query pieces)")
        ->group(model);
    add_flag(*sub, "--hide-special", &a->hide_special,
             "special tokens left out, every row rescaled to sum to 1")
        ->group(model);
    add_integer(*sub, "--focus-token", &a->focus_token, 1, ui::AttentionDocument::kMaxTokens, "N",
                "--view model: token N's attention (from 1) in every layer and head; --view "
                "predictions: the token whose top 10 the box lists (default: the last)")
        ->group(model);
    add_flag(*sub, "--focus-to", &a->focus_to,
             "with --focus-token: the attention to the token instead of from it")
        ->group(model);
    add_choice(*sub, "--thumbnails", &a->thumbnails, {"max", "mean", "kept"},
               "--view model when only some maps are kept (--window, --heads-shown, "
               "--mean-only, fewer layers) of a text over 64 tokens: every layer and head over "
               "the whole text, pooled by each square's largest weight (max, the default) or "
               "mean weight, or the kept maps")
        ->group(model);
    add_ablate_options(*sub, &parsed->ablate, model);
    add_integer(*sub, "--generate", &a->generate, 1, ui::AttentionDocument::kMaxGenerated, "N",
                "the text continued by the model first: N new tokens, drawn in orange (greedy, "
                "or sampled with --temperature, --top-k, --top-p and --seed)")
        ->group(model);
    add_sampling_options(*sub, &parsed->sampling, model);
    add_flag(*sub, "--whole-model", &a->whole_model,
             "--view steps: every step of --model at one token (--focus-token; default: the "
             "last, or a masked LM's [MASK]), from its embedding through every layer to the "
             "next token's probabilities under --temperature (default 1 here), --top-k and "
             "--top-p")
        ->group(model);
    add_text(*sub, "--open-layers", &a->open_layers, "LIST|all|none",
             "--whole-model: the layers shown unfolded, from 1 (default: 1)")
        ->group(model);
    add_integer(*sub, "--draw", &a->draw, 0, 1000000, "SEED",
                "--whole-model: highlight the next token a draw with this seed picks")
        ->group(model);

    const char* layer = "Layer";
    add_integer(*sub, "--embed-dim", &a->embed_dim, ui::AttentionDocument::kMinEmbedDim,
                ui::AttentionDocument::kMaxEmbedDim, "E", "model width")
        ->group(layer);
    add_integer(*sub, "--num-heads", &a->num_heads, 1, ui::AttentionDocument::kMaxHeads, "H",
                "heads; must divide --embed-dim")
        ->group(layer);
    add_text(*sub, "--weights", &a->weights, "FILE",
             "a safetensors nn.MultiheadAttention state_dict instead of random weights")
        ->group(layer);
    add_choice(*sub, "--scoring", &a->scoring, {"dot", "additive"},
               "scaled dot-product or additive scores", {"scaled_dot_product"})
        ->group(layer);
    add_flag(*sub, "--no-bias", &a->no_bias, "projections without bias")->group(layer);
    add_flag(*sub, "--no-positional", &a->no_positional, "no sinusoidal positional encoding")
        ->group(layer);
    add_real(*sub, "--dropout", &a->dropout, 0.0, ui::AttentionDocument::kMaxDropout,
             UpperBound::Included, "P", "dropout on the weights, active with --train")
        ->group(layer);
    add_flag(*sub, "--train", &a->train, "training mode (dropout active)")->group(layer);
    add_seed_options(*sub, &parsed->seeds, ui::AttentionDocument::kMaxSeed,
                     SeedUse{.weights = true, .dropout = true});

    const char* masks = "Masks";
    add_flag(*sub, "--causal", &a->causal, "mask keys after each query")->group(masks);
    add_repeated_integer(*sub, "--mask-key", &a->mask_keys, 1, 1 << 20, "K",
                         "mask key position K (from 1)")
        ->group(masks);
    add_choice(*sub, "--masked-rows", &a->masked_rows, masked_row_policy_names(),
               "the weights of a query row whose every key is masked")
        ->group(masks);

    const char* figure = "Figure";
    add_text(*sub, "--view", &a->view,
             "grid|mean|head:K|steps[:K]|lines|compare[:K]|model|atlas|lens|predictions|patch",
             "grid (default), mean, or head:K with K from 1 to H; steps[:K]: the computation of "
             "head K (default 1) stage by stage; lines: BertViz-style lines from queries to "
             "keys; compare[:K]: see Comparison (with --out FILE.csv: every cell's A, B and "
             "B - A); model, atlas: every head of --model (atlas: "
             "a CSV table); lens: the logit lens of --model, a figure or, with --out FILE.csv, "
             "the top 5 tokens of every layer and position; predictions: --model's top guess after "
             "every token, the loss on each and the top 10 at --focus-token (a masked LM: at "
             "each mask), a figure or, with --out FILE.csv, the top 10 at every position; "
             "patch: see Activation patching")
        ->group(figure);
    add_integer(*sub, "--step", &a->step, 1, 64, "N",
                "steps: reveal stages 1 to N and explain stage N (default: every stage)")
        ->group(figure);
    add_flag(*sub, "--focus", &a->focus, "steps: only stage N and its inputs, large")
        ->group(figure);
    add_text(*sub, "--heads", &a->heads, "LIST",
             "lines: the heads to draw, e.g. 1,3 (default: all)")
        ->group(figure);
    add_integer(*sub, "--item", &a->item, 1, 2, "N",
                "which sentence of a padded batch (--mode batch) to draw")
        ->group(figure);
    add_choice(*sub, "--colormap", &a->colormap, ui::export_colormap_names(),
               "the heatmaps' colours", {"gray"}, LetterCase::Any)
        ->group(figure);
    CLI::Option* per_head = add_flag(*sub, "--per-head-scale", &a->per_head_scale,
                                     "scale each head from its own min to its own max");
    CLI::Option* unit = add_flag(*sub, "--unit-scale", &a->unit_scale,
                                 "colours from 0 to 1 (default: the data's min to max)");
    per_head->excludes(unit);
    for (CLI::Option* o : {per_head, unit})
        o->group(figure);
    add_flag(*sub, "--no-values", &a->no_values, "never print values in the cells")->group(figure);
    add_text(*sub, "--title", &a->title, "TEXT", "figure title (default: states the configuration)")
        ->group(figure);
    add_flag(*sub, "--no-title", &a->no_title, "no title or caption")->group(figure);
    add_integer(*sub, "--width", &a->width, ui::kMinExportSide, ui::kMaxExportSide, "PX",
                "figure width (PDF: points)")
        ->group(figure);
    add_integer(*sub, "--height", &a->height, ui::kMinExportSide, ui::kMaxExportSide, "PX",
                "figure height (PDF: points)")
        ->group(figure);
    add_real(*sub, "--scale", &a->scale, 0.25, ui::kMaxExportScale, UpperBound::Included, "F",
             "PNG pixel scale, e.g. 2 or 3 for slides")
        ->group(figure);
    add_integer(*sub, "--font-size", &a->font_size, 6, 96, "PX", "base text size")->group(figure);
    add_text(*sub, "--lang", &a->lang, "LANG",
             "language of the title and caption: en (default) or zh_CN")
        ->group(figure);
    add_text(*sub, "-o,--out", &a->out, "FILE",
             "the figure; the format follows the suffix: .png, .svg or .pdf (required)")
        ->group(figure);

    const char* comparison = "Comparison (--view compare): B is A with changes";
    add_choice(*sub, "--compare", &a->compare, {"causal", "heads", "dropout"},
               "causal: A without the causal mask, B with it; heads: A with 4 heads, B with 8; "
               "dropout: A in evaluation, B training with the same dropout seed, on head 1 "
               "unless compare:K says otherwise",
               {}, LetterCase::Any)
        ->option_text("PRESET")
        ->group(comparison);
    add_switch(*sub, "--b-causal", &a->b_causal, "B's causal mask")->group(comparison);
    add_integer(*sub, "--b-num-heads", &a->b_num_heads, 1, ui::AttentionDocument::kMaxHeads, "H",
                "B's heads; must divide --embed-dim")
        ->group(comparison);
    add_switch(*sub, "--b-train", &a->b_train, "B's training mode (dropout active)")
        ->group(comparison);
    add_real(*sub, "--b-dropout", &a->b_dropout, 0.0, ui::AttentionDocument::kMaxDropout,
             UpperBound::Included, "P", "B's dropout")
        ->group(comparison);
    add_choice(*sub, "--b-scoring", &a->b_scoring, {"dot", "additive"}, "B's scoring",
               {"scaled_dot_product"})
        ->group(comparison);
    add_choice(*sub, "--b-masked-rows", &a->b_masked_rows, masked_row_policy_names(),
               "B's fully masked rows")
        ->group(comparison);
    add_switch(*sub, "--b-bias", &a->b_bias, "B's projection bias")->group(comparison);
    add_switch(*sub, "--b-positional", &a->b_positional, "B's positional encoding")
        ->group(comparison);
    add_integer(*sub, "--b-seed", &a->b_seed, 0, ui::AttentionDocument::kMaxSeed, "S",
                "B's weight seed")
        ->group(comparison);
    add_integer(*sub, "--b-layer", &a->b_layer, 1, ui::AttentionDocument::kMaxLayers, "N",
                "with --model: B shows layer N (from 1)")
        ->group(comparison);
    add_integer(*sub, "--b-head", &a->b_head, 1, ui::AttentionDocument::kMaxHeads, "K",
                "B shows head K, against the head of --view compare:K (another head of the "
                "same input)")
        ->group(comparison);
    add_text(*sub, "--b-text", &a->b_text, "TEXT",
             "with --model: B's sentence, compared token by token (as many tokens as --text)")
        ->group(comparison);
    add_text(*sub, "--b-attentions", &a->b_attentions, "B.npy",
             "with --attentions: B's maps, another file with the same layers, heads and tokens "
             "count (e.g. another checkpoint on the same text); tokens spelled differently are "
             "a warning, compared position by position")
        ->group(comparison);
    add_text(*sub, "--b-attention-tokens", &a->b_attention_tokens, "T.json",
             "the tokens of --b-attentions; default: tokens.json beside them")
        ->group(comparison);

    add_patch_inputs(*sub, &parsed->patch, false,
                     "Activation patching (--view patch, with --model): the fraction restored by "
                     "each head, as attnviz patch computes it; --out .png, .svg, .pdf, or the "
                     "array as .npy or .csv");

    add_memory_options(*sub, &parsed->memory, ui::AttentionDocument::kMaxHeads);
    // Scripts (and ui_compare_test) give a base command line and append to it: the last
    // --text wins, as it always has for export.
    let_last_repeat_win(*sub);

    const auto options = [parsed, sub] {
        ui::ExportOptions o = parsed->options;
        o.seed = parsed->seeds.seed;
        o.dropout_seed = parsed->seeds.dropout_seed;
        o.memory_budget = parsed->memory.memory_budget;
        o.heads_shown = parsed->memory.heads_shown;
        o.mean_only = parsed->memory.mean_only;
        o.window = parsed->memory.window;
        o.clean = parsed->patch.clean;
        o.corrupt = parsed->patch.corrupt;
        o.target = parsed->patch.target;
        o.distractor = parsed->patch.distractor;
        o.position = parsed->patch.position;
        if (!parsed->ablate.heads.empty()) o.ablate = parsed->ablate.heads;
        o.ablate_mode = parsed->ablate.mode;
        o.temperature = parsed->sampling.temperature;
        o.temperature_given = sub->get_option("--temperature")->count() > 0;
        o.top_k = int(parsed->sampling.top_k);
        o.top_p = parsed->sampling.top_p;
        return o;
    };
    ctx.on_parsed(
        sub,
        [options] {
            ui::render_export(options());
            return 0;
        },
        [options] { ui::check_export_options(options()); });
}
}  // namespace attnviz::cli
