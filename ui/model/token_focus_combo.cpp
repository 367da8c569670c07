#include "ui/model/token_focus_combo.h"

#include <QSignalBlocker>
#include <QStringList>

#include "ui/compute/model_trace.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

TokenFocusCombo::TokenFocusCombo(const QString& object_name, QWidget* parent) : QComboBox(parent) {
    setObjectName(object_name);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(10);
    setMaxVisibleItems(20);
}

void TokenFocusCombo::clearTokens() {
    const QSignalBlocker block(this);
    clear();
}

void TokenFocusCombo::fillTokens(const text::Encoding& encoding, const models::OpenedModel& model) {
    const QSignalBlocker block(this);
    clear();
    QStringList items;
    items.reserve(qsizetype(encoding.size()));
    for (std::size_t k = 0; k < encoding.size(); ++k)
        items << QStringLiteral("%1 · %2").arg(k + 1).arg(visible_token(QString::fromStdString(
            k < encoding.text.size() ? encoding.text[k]
                                     : model.tokenizer.id_to_token(encoding.ids[k]))));
    addItems(items);
    if (chosen_ >= int(encoding.size())) chosen_ = -1;
    setCurrentIndex(chosen_ >= 0 ? chosen_ : default_trace_piece(encoding, model));
}

}  // namespace attnviz::ui
