// The token boxes of the model tabs (Patching's target and distractor, Who writes's): a
// completer over the model's vocabulary, and the one token a typed text names.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

#include "engine/models/model_folder.h"

class QCompleter;
class QObject;

namespace attnviz::ui {

/// A completer over `model`'s vocabulary in id order (null model: an empty list), matching
/// anywhere in an entry, case-sensitively, owned by `parent`.
QCompleter* vocabulary_completer(const models::OpenedModel* model, QObject* parent);

/// The one token `typed` names in `model`'s vocabulary (a text of one token, or a vocabulary
/// entry, as models::single_token_id reads it), or nullopt.
std::optional<std::int64_t> vocabulary_token(const models::OpenedModel& model,
                                             const QString& typed);

}  // namespace attnviz::ui
