#include "ui/widgets/wrapped_label.h"

#include <QEvent>

namespace attnviz::ui {

WrappedLabel::WrappedLabel(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    forget();
}

void WrappedLabel::forget() const {
    heights_.fill({-1, 0});
    next_ = 0;
}

int WrappedLabel::heightForWidth(int width) const {
    // The text decides (QLabel::setText is not virtual: compared here, cheaply while shared).
    if (!text_.isSharedWith(text())) {
        if (text_ != text()) forget();
        text_ = text();  // shared from now on: the next calls compare pointers only
    }
    for (const auto& [w, h] : heights_)
        if (w == width) return h;
    const int h = QLabel::heightForWidth(width);
    heights_[next_] = {width, h};
    next_ = (next_ + 1) % heights_.size();
    return h;
}

void WrappedLabel::changeEvent(QEvent* event) {
    switch (event->type()) {
        case QEvent::FontChange:
        case QEvent::StyleChange:
        case QEvent::ContentsRectChange:
        case QEvent::LanguageChange:
        case QEvent::LayoutDirectionChange:
            forget();
            break;
        default:
            break;
    }
    QLabel::changeEvent(event);
}

}  // namespace attnviz::ui
