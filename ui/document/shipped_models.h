// The small trained models AttnViz ships (resources/models/, trained by
// tools/train_models.py): where they are on disk, so the first launch and the examples show
// learned heads without a download.
//
// They are found, in order, in $ATTNVIZ_MODELS_DIR, then in share/attnviz/models beside the
// program's bin/ (installed: <prefix>/bin/attnviz and <prefix>/share/attnviz/models; in a build
// tree the build copies them to <build>/share/attnviz/models, beside <build>/app/ and
// <build>/tests/).
#pragma once

#include <QString>
#include <QStringList>

namespace attnviz::ui {

/// The folder holding the shipped models, or "" when none is found.
QString shipped_models_dir();
/// The absolute folder of shipped model `name` ("attn-only-2l"), or "" when it is missing.
QString shipped_model(const QString& name);
/// The shipped models' folders (absolute), sorted by name.
QStringList shipped_model_folders();
/// Whether `folder` is one of the shipped models.
bool is_shipped_model(const QString& folder);
/// Their names for a sentence ("attn-only-2l, char-zh-en-4l"), or "" when none is found.
QString shipped_model_names();

}  // namespace attnviz::ui
