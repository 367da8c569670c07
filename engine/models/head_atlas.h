// The head atlas: what every layer × head does, in numbers, as the interpretability literature
// measures it, and a label when a number is decisive.  Used by the window's Atlas and
// Statistics tabs, `attnviz stats`, `attnviz export --view atlas` and the shipped models' tests.
//
// The one definition of every measure (measure_row, HeadMeasureSums): each averages over the
// query rows i of one head's map p that are not fully masked (row i sees keys j < seen(i):
// every key, or j ≤ i when causal), over the rows where it exists:
//   entropy        −Σ_j p_ij ln p_ij, in nats; `broadness` divides it by ln(keys row i sees)
//                  (rows that see 2 or more keys)
//   max_weight     max_j p_ij
//   mean_distance  Σ_j p_ij |i − j|, in tokens
//   first          p_i0: attention to the first token (BOS, [CLS]); in self-attention rows
//                  i ≥ 1, since row 0's p_00 is attention to itself (and a causal row 0 has no
//                  other key to choose)
//   cls, sep       Σ p_ij over the keys j that are [CLS] (or [SEP]), wherever they stand;
//                  only when there are such keys
//   self           p_ii (self-attention only)
//   previous       p_i,i−1 (rows i ≥ 1 whose key i − 1 exists)
//   induction      on a sequence the tool makes: the first token, then P random tokens twice;
//                  mean over i in the second copy of the attention from i to i − P + 1, the
//                  token after the earlier occurrence of token i (Olsson et al. 2022).  Random
//                  attention gives about 1/i; −1 when not measured.
// A measure that exists in no row is NaN (a one-token text has no previous token).
// Labels (thresholds on those means): "previous token" previous ≥ 0.4, "sink" first ≥ 0.5,
// "self" self ≥ 0.5, "induction" induction ≥ 0.3, "broad" broadness ≥ 0.8.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/models/model.h"
#include "engine/tensor.h"

namespace attnviz::models {

struct HeadMeasures {
    double entropy = 0.0, broadness = 0.0, mean_distance = 0.0, first = 0.0, self = 0.0,
           previous = 0.0, induction = -1.0;
    double max_weight = 0.0, cls = 0.0, sep = 0.0;
    std::int64_t rows = 0;            ///< the query rows measured (not fully masked)
    std::vector<std::string> labels;  ///< "previous token", "sink", "self", "induction", "broad"
};

/// The keys that are [CLS] and [SEP] (positions from 0), wherever they stand.
struct SpecialKeys {
    std::vector<std::int64_t> cls, sep;
};
/// The positions of the tokens whose text is "[CLS]" or "[SEP]".
SpecialKeys special_keys(const std::vector<std::string>& tokens);

/// What the measures need to know of a head's map besides its weights.
struct MapLayout {
    std::int64_t keys = 0;       ///< weights per row
    bool causal = false;         ///< row i sees keys j ≤ i only
    bool self_attention = true;  ///< the keys are the queries: key i is query i
    SpecialKeys special;         ///< among the keys
    /// The keys row i sees: its first seen(i) weights.
    std::int64_t seen(std::int64_t i) const { return causal ? std::min(i + 1, keys) : keys; }
};

/// One query row's share of each measure; empty where the measure does not exist for it.
struct RowMeasures {
    double entropy = 0.0, max_weight = 0.0, distance = 0.0;
    std::optional<double> broadness, first, cls, sep, self, previous;
};

/// Row i of a map (`row`: its layout.keys weights, the first layout.seen(i) of them read).
/// With `columns` and `column_max` ([seen(i)] each), the row is also added into them (sums,
/// maxima) in the same pass: the statistics pass pools its maps so, loading each weight once.
/// `entropy`, when given, is the row's entropy over those weights as the softmax computed it
/// (RowBlock::entropy): no logarithm is then taken.
RowMeasures measure_row(const float* row, std::int64_t i, const MapLayout& layout,
                        float* columns = nullptr, float* column_max = nullptr,
                        const double* entropy = nullptr);

/// The rows' measures summed, in the order they are added; means() averages each over the rows
/// where it exists (NaN when none).  Sums of several slots add in the order they are added.
class HeadMeasureSums {
  public:
    void add(const RowMeasures& row);
    HeadMeasureSums& operator+=(const HeadMeasureSums& other);
    /// Induction −1 (not measured), no labels.
    HeadMeasures means() const;

  private:
    struct Mean {
        double sum = 0.0;
        std::int64_t rows = 0;
        void add(double v) {
            sum += v;
            ++rows;
        }
        void add(const std::optional<double>& v) {
            if (v) add(*v);
        }
        double value() const;
    };
    std::int64_t rows_ = 0;
    Mean entropy_, broadness_, max_weight_, distance_, first_, cls_, sep_, self_, previous_;
};

/// Every measure of one head's map: `rows` × layout.keys weights, row-major.  Rows whose
/// `fully_masked` byte is nonzero are left out (null: none is).  Induction −1, no labels.
HeadMeasures measure_head(const float* weights, std::int64_t rows, const MapLayout& layout,
                          const std::uint8_t* fully_masked = nullptr);

struct HeadAtlasThresholds {
    double previous = 0.4, sink = 0.5, self = 0.5, induction = 0.3, broad = 0.8;
};

/// The atlas's measure names, in the order of its CSV columns and of the Atlas tab's (max_weight,
/// cls and sep are the Statistics tab's and `attnviz stats --out-json`'s).
const std::vector<std::string>& head_measure_names();
/// A measure by its name (head_measure_names(), max_weight, cls or sep); throws
/// std::invalid_argument otherwise.
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
/// to 1 over the keys they see (`causal`: keys j ≤ i).  Induction stays −1; no [CLS] or [SEP].
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
