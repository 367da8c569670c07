// The "token in focus" box of the model tabs that explain one prediction (Flow, Who writes):
// the text's tokens numbered from 1, the user's choice kept while the text still has it.
#pragma once

#include <QComboBox>

#include "engine/models/model_folder.h"

namespace attnviz::ui {

class TokenFocusCombo : public QComboBox {
    Q_OBJECT
  public:
    /// A box named `object_name` (the tests find it by it), wide enough for a short token.
    explicit TokenFocusCombo(const QString& object_name, QWidget* parent = nullptr);

    /// Keeps `index` (from 0) as the user's choice for the texts to come; -1: the default.
    void setChosen(int index) { chosen_ = index; }

    /// Empties the box without a signal: there is no text (or no usable model) to choose in.
    void clearTokens();
    /// `encoding`'s tokens as "3 · cat" (the text's own piece, else the vocabulary's), without
    /// a signal; selects the choice while the text has that many tokens, else (forgetting it)
    /// default_trace_piece.
    void fillTokens(const text::Encoding& encoding, const models::OpenedModel& model);

  private:
    int chosen_ = -1;
};

}  // namespace attnviz::ui
