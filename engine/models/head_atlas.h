// The head atlas: what every layer × head does, in numbers, as the interpretability literature
// measures it, and a label when a number is decisive.  Used by the window's Atlas tab,
// `attnviz export --view atlas` and the shipped models' tests.
//
// Every measure averages over query rows i of one head's map p (rows sum to 1 over the keys a
// row may see):
//   entropy        −Σ_j p_ij ln p_ij, in nats; `broadness` divides it by ln(keys row i sees)
//   mean_distance  Σ_j p_ij |i − j|, in tokens
//   first          p_i0: attention to the first token (BOS, [CLS]; rows i ≥ 1)
//   self           p_ii
//   previous       p_i,i−1 (rows i ≥ 1)
//   induction      on a sequence the tool makes: the first token, then P random tokens twice;
//                  mean over i in the second copy of the attention from i to i − P + 1, the
//                  token after the earlier occurrence of token i (Olsson et al. 2022).  Random
//                  attention gives about 1/i; −1 when not measured.
// Labels (thresholds on those means): "previous token" previous ≥ 0.4, "sink" first ≥ 0.5,
// "self" self ≥ 0.5, "induction" induction ≥ 0.3, "broad" broadness ≥ 0.8.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/model.h"
#include "engine/tensor.h"

namespace attnviz::models {

struct HeadMeasures {
    double entropy = 0.0, broadness = 0.0, mean_distance = 0.0, first = 0.0, self = 0.0,
           previous = 0.0, induction = -1.0;
    std::vector<std::string> labels;  ///< "previous token", "sink", "self", "induction", "broad"
};

struct HeadAtlasThresholds {
    double previous = 0.4, sink = 0.5, self = 0.5, induction = 0.3, broad = 0.8;
};

/// The measure names, in the order of HeadMeasures and of the CSV columns.
const std::vector<std::string>& head_measure_names();
/// A measure by its name (head_measure_names()); throws std::invalid_argument otherwise.
double head_measure(const HeadMeasures& m, const std::string& name);

class HeadAtlas {
  public:
    HeadAtlas() = default;
    HeadAtlas(std::int64_t layers, std::int64_t heads)
        : layers_(layers), heads_(heads), cells_(std::size_t(layers * heads)) {}
    std::int64_t layers() const { return layers_; }
    std::int64_t heads() const { return heads_; }
    HeadMeasures& at(std::int64_t layer, std::int64_t head) {
        return cells_[std::size_t(layer * heads_ + head)];
    }
    const HeadMeasures& at(std::int64_t layer, std::int64_t head) const {
        return cells_[std::size_t(layer * heads_ + head)];
    }
    /// One line per head: layer,head (counted from 1, as the window shows them),<measures>,
    /// labels (joined with '+').
    std::string to_csv() const;

  private:
    std::int64_t layers_ = 0, heads_ = 0;
    std::vector<HeadMeasures> cells_;
};

/// Measures every head from its maps: `layers[l]` is [H, L, L] (or [1, H, L, L]), rows summing
/// to 1 over the keys they see (`causal`: keys j ≤ i).  Induction stays −1.
HeadAtlas measure_heads(const std::vector<Tensor>& layers, bool causal);

/// The induction sequence: `first` (BOS or [CLS], or the first random token when none), then
/// `period` tokens drawn from [low, high) with `seed`, twice.
std::vector<std::int64_t> induction_sequence(std::int64_t first, std::int64_t period,
                                             std::int64_t low, std::int64_t high,
                                             std::uint64_t seed);

/// The induction score of one head's causal map `p` ([L, L], row-major) of a sequence whose
/// last 2 × `period` tokens are a string said twice: the mean over the queries i of the second
/// copy of p[i, i − period + 1], the weight on the token after the query's earlier occurrence.
double induction_score(const float* p, std::int64_t L, std::int64_t period);

/// Runs `model` on induction_sequence() and fills every head's induction score.
/// `bos` is the tokenizer's BOS (or [CLS]) id, or -1.  Labels are recomputed.
void add_induction_scores(const Model& model, std::int64_t bos, HeadAtlas* atlas,
                          std::int64_t period = 50, std::uint64_t seed = 0, int num_threads = 1,
                          const HeadAtlasThresholds& thresholds = {});

/// Sets each head's labels from its measures.
void label_heads(HeadAtlas* atlas, const HeadAtlasThresholds& thresholds = {});

}  // namespace attnviz::models
