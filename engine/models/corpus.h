// Heads across a corpus: the head atlas over many texts instead of one, each head's top
// examples, the attention keys receive by relative position, and the queries and keys of the
// heads asked for (HeadVis's dataset view; AttentionViz's joint embedding, qk_embedding.h).
//
// One statistics pass per text (head_statistics.h: every head, rows reduced as they are
// computed, no map kept), with a sink beside it that takes from the same rows what the corpus
// needs.  Nothing per text is kept but the top examples and, up to a cap, the asked heads'
// vectors, so memory does not grow with the corpus (corpus_bytes).
//
// Per head, over the texts (each text weighs the same):
//   measures   each atlas measure's mean over the texts where it exists (a text's value is the
//              statistics pass's mean over its rows) and the 95% t-interval of that mean,
//              x̄ ± t(0.975, n − 1) · s / √n (s the texts' sample standard deviation; none for
//              n < 2).  Streaming (Welford's sums): no per-text value is kept.
//   induction  a text's own: over the queries i whose token occurred before at some j < i − 1,
//              the mean of Σ_j p(i, j + 1), the weight on the tokens that followed its earlier
//              occurrences (Olsson et al. 2022's prefix matching, on the text's own repeats
//              instead of a repeated random string).  Texts without such a query do not count.
//   labels     label_heads on the means, each with its agreement: the share of the texts
//              (among those where its measure exists) whose own measures earn the label, and
//              whether the interval's lower end clears the threshold.
//   received   key j of an L-token text falls in bin ⌊B j / L⌋; a text's bin value is the mean
//              of the attention its keys there receive (HeadStatistics::received), the
//              corpus's the mean over the texts with keys in the bin (NaN where none has).
//   examples   the top_k cells (text, query i, key j) of largest weight with j neither the
//              first token nor i, exactly (every row of every text is seen), largest first;
//              ties go to the earlier text, query, key.  Each with the tokens around its key
//              and its query.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/io/json_writer.h"
#include "engine/models/head_atlas.h"
#include "engine/models/model.h"

namespace attnviz::models {

struct JointQueryKeys;

struct CorpusOptions {
    int num_threads = 1;
    std::int64_t top_k = 10;              ///< examples kept per head
    std::int64_t context = 6;             ///< tokens on each side of an example's key and query
    std::int64_t bins = 20;               ///< of the received-attention curve
    std::vector<HeadRef> qk_heads;        ///< heads whose queries and keys are kept
    std::int64_t qk_max_tokens = 50'000;  ///< per head: the corpus's first tokens
    HeadAtlasThresholds thresholds;
    /// stop: polled before each text and within its pass (a text stopped in its pass counts
    /// nowhere); progress: after each text, (texts done, texts).
    PassControl control;
    /// ModelForwardOptions::weight_cache_bytes of every pass (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
};

/// One text as the model sees it.
struct CorpusText {
    ModelInput input;
    std::vector<std::string> tokens;  ///< what a person reads of each (text::Encoding::text)
    std::int64_t line = 0;            ///< where it starts in its file, from 1 (0: unknown)
};

/// A mean over texts with its 95% interval.
struct MeasureSummary {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    /// NaN when no text has the measure (low, high and sd: fewer than 2).
    double mean = kNone, low = kNone, high = kNone, sd = kNone;
    std::int64_t texts = 0;  ///< the texts where the measure exists
};

struct LabelAgreement {
    std::string label;    ///< as label_heads names it
    std::string measure;  ///< the measure it is a threshold on
    double threshold = 0.0;
    double share = 0.0;            ///< of `texts`, those whose own measures earn the label
    std::int64_t texts = 0;        ///< the texts where the measure exists
    bool interval_clears = false;  ///< the interval's lower end is at or above the threshold
};

/// Tokens [first, first + tokens.size()) of a text.
struct TokenSpan {
    std::int64_t first = 0;
    std::vector<std::string> tokens;
};

struct CorpusExample {
    std::int64_t text = 0;            ///< from 0, in the order the texts were given
    std::int64_t line = 0;            ///< CorpusText::line
    std::int64_t query = 0, key = 0;  ///< positions from 0
    float weight = 0.0f;
    /// The tokens within `context` of the key and of the query: one span when they meet, else
    /// two, in the text's order.
    std::vector<TokenSpan> context;
};

struct CorpusHead {
    std::vector<MeasureSummary> measures;   ///< in head_measure_names() order
    std::vector<std::string> labels;        ///< label_heads on the means
    std::vector<LabelAgreement> agreement;  ///< every label label_heads gives, earned or not
    std::vector<CorpusExample> examples;    ///< largest weight first
    const MeasureSummary& measure(const std::string& name) const;
};

/// One asked head's vectors (QueryKeyReader): rows 0..n−1 of both are the same tokens.
struct CorpusQueryKeys {
    HeadRef head;
    std::int64_t dim = 0;
    std::vector<float> queries, keys;  ///< [n, dim]
    struct Token {
        std::int64_t text = 0, position = 0;  ///< from 0
        std::string token;
    };
    std::vector<Token> tokens;  ///< [n]
};

struct CorpusResult {
    std::int64_t layers = 0, heads = 0, bins = 0;
    std::int64_t texts = 0;               ///< measured
    std::int64_t texts_with_repeats = 0;  ///< of them, those the induction measure counts
    std::int64_t tokens = 0;              ///< in the texts measured
    bool partial = false;                 ///< stopped before the last text
    std::vector<CorpusHead> per_head;     ///< [layers × heads]
    std::vector<float> received;          ///< [layers, heads, bins]
    std::vector<CorpusQueryKeys> qk;      ///< in the order asked
    const CorpusHead& at(std::int64_t layer, std::int64_t head) const {
        return per_head[std::size_t(layer * heads + head)];
    }
};

/// The corpus's running sums; texts are added one at a time.
class CorpusAnalysis {
  public:
    /// std::invalid_argument for top_k, bins or qk_max_tokens below 0 or 1, or a qk head the
    /// model does not have.
    CorpusAnalysis(const Model& model, CorpusOptions options);
    ~CorpusAnalysis();
    CorpusAnalysis(const CorpusAnalysis&) = delete;
    CorpusAnalysis& operator=(const CorpusAnalysis&) = delete;

    /// One text's pass, then its share of everything.  Throws Cancelled when the options'
    /// stop is set before or during the pass: the result is then still that of the texts
    /// before.  What forward() throws (a text longer than the model).
    void add(const CorpusText& text);
    std::int64_t texts() const;
    /// Everything so far (`partial` false: the caller knows whether it stopped).
    CorpusResult result() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

/// Texts 0..count−1 (`text(i)`, asked for in order), each added; the options' progress after
/// each.  Stops before the next text when `finish` is set, and when the options' stop is (a
/// text stopped within its pass counts nowhere): the result is then marked partial.
CorpusResult analyse_corpus(const Model& model, std::int64_t count,
                            const std::function<CorpusText(std::int64_t)>& text,
                            const CorpusOptions& options,
                            const std::atomic<bool>* finish = nullptr);

/// Bytes a corpus analysis allocates besides the forward pass's own working set, for texts of
/// at most `max_tokens` tokens: one text's statistics and rows, the sums, the examples and
/// the asked heads' vectors (their cap).
std::size_t corpus_bytes(const ModelInfo& info, std::int64_t max_tokens,
                         const CorpusOptions& options);

/// heads.json: {"layers", "heads_per_layer", "bins", "texts", "texts_with_repeats", "tokens",
/// "partial", "interval": "t95", the caller's members (`more`), "heads": [{"layer", "head"
/// (from 1), "measures": {name: {"mean", "low", "high", "sd", "texts"}} (head_measure_names()),
/// "labels", "agreement": [{"label", "measure", "threshold", "share", "texts",
/// "interval_clears"}], "examples": [{"text", "line", "query", "key" (from 1), "weight",
/// "context": [{"first" (from 1), "tokens"}]}]}]}.  Numbers as %.6g; NaN as null.
std::string corpus_json(const CorpusResult& result,
                        const std::function<void(io::json::Writer&)>& more = {});

/// qk_L_H.json, beside the points of `joint` (joint_query_keys of `qk`): {"layer", "head",
/// "tokens" (n), "dim", "normalisation": {"query_scale", "spread", "key_shift"}, "pca" and
/// "cosine": {"explained": [2 shares]}, "points": [{"kind": "query" | "key", "token", "text",
/// "position" (from 1)}]: the n queries, then the n keys, as the projections' rows.
std::string query_keys_json(const CorpusQueryKeys& qk, const JointQueryKeys& joint);

/// The p-quantile of Student's t with `dof` degrees of freedom (p in (0, 1), dof > 0), by
/// bisection on its distribution function (the regularized incomplete beta); within 1e-9.
double student_t_quantile(double p, double dof);

}  // namespace attnviz::models
