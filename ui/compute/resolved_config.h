// What a configuration means once the models are consulted: its tokens (a model's own
// tokenizer, or the demo's) and its one-line description (with the model's name).  Here and not
// in the document, which knows no model.
#pragma once

#include <QString>

#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// Tokenizes (or splits the token lists) exactly as the compute worker does.
TokenSequences resolve_tokens(const ComputeConfig& config);

/// "8 heads · embed_dim 64 · scaled dot-product · causal · dropout 0.1 (train, seed 3)"; a
/// model's configuration names the model (its display name when it is open).
QString describe_config(const ComputeConfig& config);

}  // namespace attnviz::ui
