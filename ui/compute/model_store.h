// Trained models the process has opened, shared by the window, its compute workers and the
// export command: a folder is opened once (config, weight headers, tokenizer), and its
// weights are read layer by layer on first use by whichever thread runs it first.
#pragma once

#include <QString>

#include <memory>

#include "engine/models/model_folder.h"

namespace attnviz::ui {

using ModelPtr = std::shared_ptr<const models::OpenedModel>;

/// The opened model of `folder` (any spelling of the same directory), opening it on the
/// calling thread if it is not open yet.  Throws DataError naming the problem.  The two most
/// recently used models stay open.
ModelPtr open_model(const QString& folder);

/// The model of `folder` if it is open, else null; never opens anything.
ModelPtr find_model(const QString& folder);

/// Keeps `model` as the opened model of `folder` (a model opened elsewhere, e.g. by the
/// window's loader thread).
void keep_model(const QString& folder, ModelPtr model);

/// The display name of a model: "Qwen2 · Qwen2.5-0.5B" style, from its info and folder.
QString model_display_name(const models::OpenedModel& model);

}  // namespace attnviz::ui
