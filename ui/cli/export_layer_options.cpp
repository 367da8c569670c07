// `attnviz export`'s Input, Layer, Masks and Memory budget options (configuration A on the
// demo layer, and what to keep of it): each group's declaration beside how it is applied
// (export_options.h).
#include <limits>
#include <set>

#include "engine/errors.h"
#include "engine/layers/multi_head_attention.h"
#include "ui/cli/export_applying.h"
#include "ui/cli/export_options.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

// ---- Input ----------------------------------------------------------------------------------

void ExportInput::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* o :
         {add_text(sub, "--text", &text, "TEXT", "the sentence (queries)"),
          add_text(sub, "--text2", &text2, "TEXT",
                   "a second sentence: keys/values (cross) or a batch item"),
          add_choice(sub, "--mode", &mode, {"self", "cross", "batch"},
                     "self (default without --text2), cross (default with it) or batch", {"single"},
                     LetterCase::Any),
          add_text(sub, "--tokens", &tokens, "LIST",
                   "pre-tokenized input instead of --text (tokens separated by |)"),
          add_text(sub, "--tokens2", &tokens2, "LIST", "the same for the second sentence"),
          add_flag(sub, "--lowercase", &lowercase, "lowercase before tokenizing"),
          add_flag(sub, "--special-tokens", &special_tokens, "add [CLS] and [SEP]")})
        o->group("Input");
}

void ExportInput::apply_settings(Applying& s) const {
    if (text) s.doc->setTextA(qstring(*text));
    if (text2) s.doc->setTextB(qstring(*text2));
    if (tokens) s.doc->setTokenListA(qstring(*tokens));
    if (tokens2) s.doc->setTokenListB(qstring(*tokens2));
    if (mode) {
        PairMode m = PairMode::Single;
        if (qstring(*mode).compare(QLatin1String("self"), Qt::CaseInsensitive) != 0)
            pair_mode_from_name(qstring(*mode), &m);
        s.mode = m;
    }
    if (lowercase) s.doc->setLowercase(true);
    if (special_tokens) s.doc->setSpecialTokens(true);
}

void ExportInput::apply_sentences(Applying& s) const {
    if (!text && !tokens && !s.maps)
        usage_error(ExportCommandText::tr("--text (or --tokens) is required"));
    if (text && tokens)
        usage_error(ExportCommandText::tr("use either --text or --tokens, not both"));
    if (text2 && tokens2)
        usage_error(ExportCommandText::tr("use either --text2 or --tokens2, not both"));
    const bool second = text2 || tokens2;
    if (second && tokens.has_value() != tokens2.has_value())
        usage_error(ExportCommandText::tr("give both sentences as text or both as token lists"));
    s.doc->setUseTokenList(tokens.has_value());
    if (!s.mode) s.mode = second ? PairMode::CrossAttention : PairMode::Single;
    if (*s.mode != PairMode::Single && !second)
        usage_error(ExportCommandText::tr("--mode %1 needs --text2").arg(pair_mode_name(*s.mode)));
    s.doc->setPairMode(*s.mode);
}

// ---- Layer ----------------------------------------------------------------------------------

void ExportLayer::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* o :
         {add_integer(sub, "--embed-dim", &embed_dim, AttentionDocument::kMinEmbedDim,
                      AttentionDocument::kMaxEmbedDim, "E", "model width"),
          add_integer(sub, "--num-heads", &num_heads, 1, AttentionDocument::kMaxHeads, "H",
                      "heads; must divide --embed-dim"),
          add_text(sub, "--weights", &weights, "FILE",
                   "a safetensors nn.MultiheadAttention state_dict instead of random weights"),
          add_choice(sub, "--scoring", &scoring, {"dot", "additive"},
                     "scaled dot-product or additive scores", {"scaled_dot_product"}),
          add_flag(sub, "--no-bias", &no_bias, "projections without bias"),
          add_flag(sub, "--no-positional", &no_positional, "no sinusoidal positional encoding"),
          add_real(sub, "--dropout", &dropout, 0.0, AttentionDocument::kMaxDropout,
                   UpperBound::Included, "P", "dropout on the weights, active with --train"),
          add_flag(sub, "--train", &train, "training mode (dropout active)")})
        o->group("Layer");
    add_seed_options(sub, &seeds, AttentionDocument::kMaxSeed,
                     SeedUse{.weights = true, .dropout = true});
}

void ExportLayer::apply_settings(Applying& s) const {
    if (weights) s.doc->setWeightsFile(qstring(*weights));
    s.doc->setScoring(scoring_from_name(scoring));
    if (no_bias) s.doc->setBias(false);
    if (no_positional) s.doc->setPositionalEncoding(false);
    s.doc->setDropout(dropout);
    if (train) s.doc->setTraining(true);
    s.num_heads = num_heads;
}

void ExportLayer::apply_heads(Applying& s) const {
    if (!s.doc->setEmbedDim(embed_dim)) usage_error(s.doc->validationMessage());
    if (!s.maps) {  // the demo layer's heads; maps from a file have their own
        if (embed_dim % s.num_heads != 0)
            usage_error(ExportCommandText::tr("--num-heads %1 does not divide --embed-dim %2")
                            .arg(s.num_heads)
                            .arg(embed_dim));
        s.doc->setNumHeads(s.num_heads);
    }
}

void ExportLayer::apply_seeds(Applying& s) const {
    s.doc->setWeightSeed(static_cast<int>(seeds.seed));
    s.doc->setDropoutSeed(static_cast<int>(seeds.dropout()));
}

// ---- Masks ----------------------------------------------------------------------------------

void ExportMasks::declare(CLI::App& sub) {
    using namespace cli;
    for (CLI::Option* o : {add_flag(sub, "--causal", &causal, "mask keys after each query"),
                           add_repeated_integer(sub, "--mask-key", &mask_keys, 1, 1 << 20, "K",
                                                "mask key position K (from 1)"),
                           add_choice(sub, "--masked-rows", &masked_rows, masked_row_policy_names(),
                                      "the weights of a query row whose every key is masked")})
        o->group("Masks");
}

void ExportMasks::apply_settings(Applying& s) const {
    if (causal) s.doc->setCausal(true);
    s.doc->setMaskedRowPolicy(masked_row_policy_from_name(masked_rows));
}

void ExportMasks::apply_keys(Applying& s) const {
    std::set<MaskedKey> masked;
    for (const int k : mask_keys)
        masked.insert({0, k - 1});  // --mask-key counts from 1
    s.doc->setMaskedKeys(masked);
}

// ---- Memory budget --------------------------------------------------------------------------

void ExportMemory::declare(CLI::App& sub) {
    cli::add_memory_options(sub, &memory, AttentionDocument::kMaxHeads);
}

void ExportMemory::apply_settings(Applying& s) const {
    s.cmd.memory_budget = qstring(memory.memory_budget);
    if (memory.window) {
        // The document counts tokens in int; a longer window is no window it could show.
        const auto [start, length] = *memory.window;
        if (start > std::numeric_limits<int>::max() || length > std::numeric_limits<int>::max())
            usage_error(ExportCommandText::tr("--window needs START:LEN, a first token (from "
                                              "1) and a length, e.g. 1:512, not '%1'")
                            .arg(QStringLiteral("%1:%2").arg(start + 1).arg(length)));
        s.doc->setWindow(static_cast<int>(start), static_cast<int>(length));
    }
}

void ExportMemory::apply_scope(const ExportOptions& a, Applying& s) const {
    s.heads_shown = memory.mean_only ? std::optional<int>(0) : memory.heads_shown;
    if (!s.heads_shown) return;
    if (*s.heads_shown > s.num_heads)
        usage_error(ExportCommandText::tr("--heads-shown %1 is more than --num-heads %2")
                        .arg(*s.heads_shown)
                        .arg(s.num_heads));
    if (a.model || s.maps)  // the model's own scope; the demo layer's stays as it is
        s.doc->setModelScope(s.doc->layersShown(), *s.heads_shown);
    else
        s.doc->setHeadsShown(*s.heads_shown);
}

}  // namespace attnviz::ui
