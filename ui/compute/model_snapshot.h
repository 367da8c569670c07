// A trained model's forward pass for the window (ComputeConfig::usesModel()).
#pragma once

#include <QStringList>

#include <memory>

#include "engine/models/model_folder.h"
#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

struct FedToken;

/// The encoding the model sees for `config`: text_a, and text_b as the pair's second text when
/// pair_mode is not Single.  Throws UsageError for an empty text, models::TextTooLong.
models::EncodedText encode_model_text(const models::OpenedModel& model,
                                      const ComputeConfig& config);

/// text_a followed by the continuation the timeline shows (config.shownGenerated()), decoded
/// as the model's tokenizer joins it: what Keep makes the sentence.
QString model_text(const models::OpenedModel& model, const ComputeConfig& config);

/// The interventions of config.knocked_out, as every model pass of the window applies them.
/// Throws UsageError for a head `info`'s model does not have.
std::vector<models::HeadIntervention> model_knock_outs(const ComputeConfig& config,
                                                       const models::ModelInfo& info);

/// Opens the model (model_store), encodes text_a (and text_b as the pair's second text when
/// pair_mode is not Single) and runs every layer once: the maps over the model's pieces (the
/// norm-based maps when config.attention says so), with the atlas and the rollout
/// (config.words and config.hide_special are present_model's).  Throws
/// UsageError for an empty or too long text, DataError for a broken model, MemoryBudgetExceeded
/// before the forward pass when the maps would not fit `memory`. `induction` (may be null) holds
/// the model's induction scores per head (layer * H + head), computed on the first call for a model
/// and reused: they do not depend on the text.
/// `control` (may be null) is the pass's: its stop and its progress per layer.
/// The intact model's predictions on one input, kept between passes: knocking heads out of
/// the same text needs them for "before → after", and they do not change with the heads.
struct IntactPredictions {
    QString folder;
    models::ModelInput input;
    std::shared_ptr<const ModelPredictions> predictions;
};

/// `intact` (may be null): read when heads are knocked out and it holds this model's intact
/// predictions on this input (else they are computed, one pass more), written by every pass
/// that has them.
std::shared_ptr<const ModelMaps> run_model(const ComputeConfig& config, int num_threads,
                                           const budget::MemoryBudget& memory,
                                           std::vector<double>* induction = nullptr,
                                           const PassControl* control = nullptr,
                                           IntactPredictions* intact = nullptr);

/// The thumbnails of every kept head, and of each layer's mean and rollout (ModelMaps::
/// thumbnails, aggregate_thumbnails), each coloured from 0 to its own largest weight.
/// `before`: maps these extend by rows (extend_model), whose images are reused where the rows
/// and the largest weight are unchanged, only the new rows coloured: the same images, pixel for
/// pixel.
void add_thumbnails(ModelMaps* m, const ModelMaps* before = nullptr);

/// The maps of `before`'s text continued by the writer's `fed` tokens (config's text, with its
/// continuation), without a pass: every layer's maps grow by the new tokens' rows (a causal
/// model's earlier rows do not change), the means, atlas, rollout and thumbnails are made again
/// from them, and the predictions gain the position before each new token.  The result is
/// provisional (ModelMaps::provisional): equal to run_model's within float rounding, and its
/// newest position has no prediction yet.  Null when it cannot be done so: a window, fewer
/// heads kept, knocked-out heads, norm-based maps (the writer's rows are weights; a pass makes
/// them), a text that does not continue `before`'s with `fed`, no
/// induction scores (`induction`, run_model's), or maps over `memory` (run_model then
/// refuses with what fits).
std::shared_ptr<const ModelMaps> extend_model(const ModelMaps& before, const ComputeConfig& config,
                                              const std::vector<FedToken>& fed,
                                              const budget::MemoryBudget& memory,
                                              const std::vector<double>& induction);

/// Attention maps read from a file (config.usesMaps(): model_folder is the array, tokens_file or
/// tokens.json beside it the tokens; engine/io/attention_arrays.h) into the structures run_model
/// fills, layer by layer: the kept layers' maps of the kept heads (config.scope()), the atlas
/// without the induction probe (it needs the model), the rollout, `warning` when rows do not sum
/// to 1.  Throws DataError for a bad file (shapes, NaN, tokens that do not fit) and
/// MemoryBudgetExceeded, before reading any layer, when the maps would not fit `memory`.
std::shared_ptr<const ModelMaps> run_maps(const ComputeConfig& config,
                                          const budget::MemoryBudget& memory,
                                          const PassControl* control = nullptr);

/// The tokens file of attention maps: config.tokens_file, else tokens.json beside the maps.
/// Throws DataError when there is neither.
QString maps_tokens_file(const ComputeConfig& config);

/// The maps as the views show them: `pieces` (from run_model) grouped into words and with the
/// special tokens hidden as `config` says (models::group_tokens); `pieces` itself when neither
/// applies.  Throws UsageError when hiding would leave no token.
std::shared_ptr<const ModelMaps> present_model(std::shared_ptr<const ModelMaps> pieces,
                                               const ComputeConfig& config);

/// One layer's computation for the steps view: a forward pass up to `config.layer` (clamped)
/// that keeps that layer's intermediates over the model's pieces (`pieces`: run_model's maps of
/// the same text).  Null when they would exceed kStepsCellBudget.
std::shared_ptr<const StepTensors> model_steps(const ComputeConfig& config, int num_threads,
                                               const ModelMaps& pieces,
                                               const PassControl* control = nullptr);

/// The snapshot every view draws: `config.layer` (clamped) of `maps`, with the layer's
/// steps and the logit lens when given.
SnapshotPtr model_layer_snapshot(const ComputeConfig& config, std::uint64_t generation,
                                 std::shared_ptr<const ModelMaps> maps,
                                 std::shared_ptr<const StepTensors> steps = nullptr,
                                 std::shared_ptr<const LensGrid> lens = nullptr,
                                 std::shared_ptr<const ModelTrace> trace = nullptr);

/// A vocabulary id as people read it: its decoded text (" the" rather than "Ġthe"), its
/// vocabulary entry when it is part of a character only, else "<id N>".  The predictions and
/// the logit lens name their tokens with it.
QString token_label(const text::HfTokenizer& tokenizer, std::int64_t id);

/// What each token of the model's encoding stands for (resolve_tokens for a model).
QStringList model_tokens(const ComputeConfig& config);

}  // namespace attnviz::ui
