// The whole model at one token, for the steps view's "whole model" mode: the engine's trace
// (models::trace_token) of the text's pass at the token in focus, with what the figure needs
// to label it.  Built on the worker, then shared read-only with the GUI and the exports.
#pragma once

#include <QString>

#include <memory>
#include <vector>

#include "engine/models/model.h"
#include "engine/models/token_trace.h"
#include "engine/pass_control.h"
#include "engine/text/hf/hf_tokenizer.h"
#include "ui/document/attention_config.h"

namespace attnviz::models {
struct OpenedModel;
}

namespace attnviz::ui {

struct ModelTrace {
    models::TokenTrace trace;
    models::ModelInfo info;  ///< family: causal, pre_norm, position_encoding ("rotary")
    bool gated = false;      ///< the MLP has a gate (Llama, Qwen)
    QString name;            ///< "GPT-2"
    /// Every piece of the text as shown (token_label); trace.position indexes it.
    std::vector<QString> pieces;
    /// The model, kept for the text of any vocabulary id a draw may pick (text()).
    std::shared_ptr<const models::OpenedModel> model;
    /// The vocabulary entry `id` as the predictions show it ("<id 7>" when it has none).
    QString text(std::int64_t id) const;
};

struct ModelMaps;

/// The token the whole-model view traces when none is chosen: a masked LM's first [MASK], else
/// the text's last piece (not a template's closing token).  A piece index, from 0.
int default_trace_piece(const text::Encoding& encoding, const models::OpenedModel& model);

/// The whole pass at shown token `token` of `shown` (config's maps as the views show them; -1:
/// default_trace_piece), with config's knocked-out heads.  Throws as run_model does.
std::shared_ptr<const ModelTrace> model_trace(const ComputeConfig& config, int token,
                                              const ModelMaps& shown, int num_threads,
                                              const PassControl* control = nullptr);

}  // namespace attnviz::ui
