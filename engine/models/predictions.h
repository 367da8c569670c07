// What a model predicts and what its heads do, on top of Model::forward and Model::logits:
// log-probabilities and top-k, the loss on each next token, the logit lens, head ablation and
// activation patching.  One definition for every family (model.h, HeadIntervention): the
// command line and the window both call these.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/models/model.h"

namespace attnviz::models {

struct TokenScore {
    std::int64_t id = 0;
    double logprob = 0.0;
};

/// log softmax of one row of logits, in double.
std::vector<double> log_softmax(const float* logits, std::int64_t vocab);
/// The mean of -logprob: the loss in nats per token (NaN with none).
double mean_loss(const std::vector<double>& logprob);
/// The k most likely ids of one row (ties: the lower id first), with their log-probabilities.
std::vector<TokenScore> top_k(const float* logits, std::int64_t vocab, std::int64_t k);
/// top_k of each row of [rows, vocab] logits, the rows spread over `threads`.
std::vector<std::vector<TokenScore>> top_k_rows(const Tensor& logits, std::int64_t k,
                                                int threads = 1);

/// The logit lens: the head applied to the residual stream after each layer (residuals as
/// StreamSink keeps them, [layers + 1]), at `positions`: [layers, positions, vocab].  All
/// layers' rows go through one product.
Tensor lens_logits(const Model& model, const std::vector<Tensor>& residuals,
                   const std::vector<std::int64_t>& positions, int threads = 1);

/// One pass with its residual streams kept: logits at every position, the lens after each
/// layer (where asked), interventions applied.
struct Prediction {
    Tensor logits;  ///< [tokens, vocab]
    /// [layers, positions asked, vocab]: the lens after each layer; empty without a lens.
    /// Over every position the last layer's block is `logits`, bit for bit.
    Tensor lens;
    std::vector<std::int64_t> lens_positions;
    /// Causal models: log p(ids[t + 1] | ids[..t]) for t < tokens - 1.
    std::vector<double> next_logprob;
    double loss = std::numeric_limits<double>::quiet_NaN();  ///< mean of -next_logprob
};

struct PredictOptions {
    std::vector<HeadIntervention> interventions;
    bool lens = false;
    std::vector<std::int64_t> lens_positions;  ///< empty: every position
    int num_threads = 1;
};

/// Throws DataError when the model has no language-model head.
Prediction predict(const Model& model, const ModelInput& input, const PredictOptions& options);

/// What the head says at each row of a final residual stream (StreamSink's
/// residuals[layers]): each of `rows`' k most likely tokens and, for a causal head, the
/// log-probability of the actual next token at every position.  The logits are made a block of
/// rows at a time, so [L, vocab] never exists whole (a long text on a 150,000-token vocabulary).
struct RowPredictions {
    std::vector<std::int64_t> rows;
    std::vector<std::vector<TokenScore>> top;  ///< per row of `rows`
    /// Causal: log p(ids[t + 1] | ids[..t]) for t < L - 1; empty for a masked LM.
    std::vector<double> next_logprob;
    double loss = std::numeric_limits<double>::quiet_NaN();  ///< mean of -next_logprob
};
/// `rows` empty: every row.  Throws DataError when the model has no head.
RowPredictions predict_rows(const Model& model, const Tensor& final_residual,
                            const std::vector<std::int64_t>& ids,
                            const std::vector<std::int64_t>& rows, std::int64_t k, int threads = 1);

/// Zero or mean ablation of `heads` (layer, head from 0).
std::vector<HeadIntervention> ablations(const std::vector<HeadRef>& heads,
                                        HeadIntervention::Kind kind);

/// Heads as the command line spells them, "2.4,1.7" (layer.head, from 1), into heads from 0.
/// Throws UsageError naming `option` for an item that is not LAYER.HEAD, a head `info` does
/// not have, or an empty list.
std::vector<HeadRef> parse_head_list(const std::string& spec, const ModelInfo& info,
                                     const char* option);

struct PatchRequest {
    ModelInput clean, corrupt;  ///< as many tokens
    std::int64_t target = 0, distractor = 0;
    std::int64_t position = -1;  ///< -1: the last
    std::vector<HeadRef> heads;  ///< empty: every head
    /// Heads of one layer patched in one pass (B variants of the text); 0: all of a layer's.
    std::int64_t batch = 0;
    int num_threads = 1;
    /// Set (by any thread) to stop: every pass polls it before each layer and the sweep
    /// throws Cancelled (a window's Cancel answers within one layer).  nullptr: no stop.
    const std::atomic<bool>* stop = nullptr;
    /// ModelForwardOptions::weight_cache_bytes of every pass (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
};

struct PatchResult {
    double m_clean = 0.0, m_corrupt = 0.0;
    Tensor m_patched;           ///< [layers, heads], NaN where a head was not patched
    Tensor fraction;            ///< (m_patched - m_corrupt) / (m_clean - m_corrupt); NaN when equal
    std::int64_t position = 0;  ///< the metric's position, counted from 0
};

/// The metric's position of a patching request, from 0 (request.position < 0: from the end).
/// Throws std::invalid_argument for texts of different lengths or a position outside them,
/// DataError for a model without a language-model head.
std::int64_t patch_position(const Model& model, const PatchRequest& request);

/// Activation patching, one head at a time: m = logit(target) - logit(distractor) at
/// `position`; the corrupted run with the head's output taken from the clean run.  Each
/// head's run resumes at its own layer from the corrupted run's cached residual stream and
/// context.  `progress(done, total, so_far)` is called after each pass (`batch` heads, or a
/// layer's), with the heads run until then filled in `so_far`; returning false stops the
/// sweep (the heads not run stay NaN).  Throws std::invalid_argument for texts of different
/// lengths or a position outside them, Cancelled when `request.stop` is set.
using PatchProgress =
    std::function<bool(std::int64_t done, std::int64_t total, const PatchResult& so_far)>;
PatchResult patch_sweep(const Model& model, const PatchRequest& request,
                        const PatchProgress& progress = {});

}  // namespace attnviz::models
