// The logit lens for the window's Logit Lens tab and `attnviz export --view lens`: a model's
// head applied to the residual stream after each layer (models::lens_logits), reduced on the
// worker to each cell's top-k tokens and their probabilities, so the GUI thread only draws.
#pragma once

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "engine/pass_control.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// Positions the lens shows at most: the last ones of a longer text (a readable grid, and
/// layers × positions × vocabulary floats bounded).
inline constexpr int kLensMaxPositions = 64;
/// The top tokens kept per cell: the hover shows 5, the CSV all of them.
inline constexpr int kLensTopK = 5;

struct LensGrid {
    QString name;  ///< model_display_name()
    /// Why there is no lens, one sentence for people (a model without a language-model head,
    /// maps read from a file), else empty; `detail` what the engine said, if anything.
    QString unavailable, detail;
    int num_layers = 0;  ///< rows: the residual stream after layer 1 .. num_layers
    int positions = 0;   ///< columns
    /// Column p is the text's token first_position + p of total_positions (the last ones).
    int first_position = 0, total_positions = 0;
    int top_k = 0;
    /// Causal: each position guesses the next token; a masked LM: the token at the position.
    bool causal = false;
    std::vector<QString> tokens;        ///< [positions] what each column's token stands for
    std::vector<std::int64_t> targets;  ///< [positions] the token to guess, -1: none (the last)
    std::vector<QString> target_text;   ///< [positions]
    /// [layers, positions, top_k], best first.
    std::vector<std::int64_t> top_ids;
    std::vector<double> top_logprob;
    std::vector<QString> top_text;
    /// The heads knocked out of the pass (ComputeConfig::knocked_out).
    std::map<ModelHead, KnockOut> knocked_out;

    bool available() const { return unavailable.isEmpty() && positions > 0; }
    std::size_t at(int layer, int position, int rank = 0) const {
        return (std::size_t(layer) * std::size_t(positions) + std::size_t(position)) *
                   std::size_t(top_k) +
               std::size_t(rank);
    }
    double probability(int layer, int position, int rank = 0) const;
    /// The lens's top-1 is the token to guess.
    bool hit(int layer, int position) const {
        return targets[std::size_t(position)] >= 0 &&
               top_ids[at(layer, position)] == targets[std::size_t(position)];
    }
    /// One row per (layer, position, rank), layers and positions from 1 as in the window:
    /// layer,position,token,rank,id,prediction,probability.
    QByteArray to_csv() const;
};

using LensPtr = std::shared_ptr<const LensGrid>;

/// The lens of `config`'s model on its text (text_a, and text_b as encode does), with the
/// config's knocked-out heads.  A model without a language-model head, or maps read from a
/// file, give a grid that says so (unavailable) rather than an error: the other views still
/// work.  Throws UsageError for
/// an empty text, Cancelled when `control` is stopped.
LensPtr compute_lens(const ComputeConfig& config, int num_threads,
                     const PassControl* control = nullptr);

}  // namespace attnviz::ui
