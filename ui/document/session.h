// .attnviz session files: a versioned JSON document that each part writes itself into
// (the AttentionDocument under "document", the window under "window").
//
//   {"format": "attnviz-session", "version": 3, "document": {...}, "window": {...}}
//
// Version 3 added "document"."source" (a trained model's folder, relative to the session when
// below it, and its layer); versions 1 and 2 open on the demo layer.  Version 2 added
// "document"."compare" (the Compare view's configuration B); version 1 files load with no
// comparison.
// Any version may hold "corpus" (corpus_data.h: heads across a corpus); without it the document
// has none.
// Files are written atomically (QSaveFile).  Readers accept every version up to
// kSessionVersion and refuse newer ones with a message naming both versions.
#pragma once

#include <QJsonObject>
#include <QString>

namespace attnviz::ui {

class AttentionDocument;

inline constexpr int kSessionVersion = 3;
inline constexpr const char* kSessionFormat = "attnviz-session";
inline constexpr const char* kSessionSuffix = "attnviz";

struct SessionExtras {
    QJsonObject window;  ///< what the main window stores (view state); may be empty
};

/// Writes the document (and extras) to path.  Returns false with a message on failure;
/// the file is then untouched.
bool save_session(const QString& path, const AttentionDocument& document,
                  const SessionExtras& extras, QString* error);

/// Reads path into the document.  Returns false with a message on failure; the document is
/// then untouched.  Relative weight-file paths are resolved against the session's folder.
bool load_session(const QString& path, AttentionDocument* document, SessionExtras* extras,
                  QString* error);

}  // namespace attnviz::ui
