// Text that does not fit, for the window tests that check that every label and button shows
// its whole text in both languages and at every size (issue 35).  Header-only, as
// window_support.h is.
#pragma once

#include <QAbstractButton>
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTextLayout>
#include <QTextOption>
#include <QToolButton>
#include <QWidget>

#include <algorithm>

namespace attnviz::test {

/// "QLabel exampleTitle “Induction head”": enough to find the widget.
inline QString widget_name(const QWidget* w, const QString& text) {
    QString shown = text.left(60);
    shown.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QStringLiteral("%1 %2 “%3”")
        .arg(QLatin1String(w->metaObject()->className()),
             w->objectName().isEmpty() ? QStringLiteral("(unnamed)") : w->objectName(), shown);
}

/// The part of `w` its parents let show, in its own coordinates: a widget wider than its
/// container is cut at the container's edge even when its own rectangle holds the text.
/// Inside a scroll area only the area's own bound counts (what scrolls away still exists).
inline QRect shown_rect(const QWidget* w) {
    QRect r = w->rect();
    for (const QWidget* p = w->parentWidget(); p && !w->isWindow(); p = p->parentWidget()) {
        const QRect in_p(w->mapTo(p, QPoint(0, 0)), w->size());
        const QRect cut = in_p.intersected(p->rect());
        r = r.intersected(QRect(cut.topLeft() - in_p.topLeft(), cut.size()));
        if (p->isWindow() || qobject_cast<const QAbstractScrollArea*>(p)) break;
    }
    return r;
}

/// The width a push button needs for its text and icon: the style's size for those contents,
/// without the minimum width some styles give every button with text (Fusion: 80 px).
inline int push_button_need(const QPushButton* b, const QString& text) {
    QStyleOptionButton opt;
    opt.initFrom(b);
    opt.icon = b->icon();
    opt.iconSize = b->iconSize();
    if (b->isDefault() || b->autoDefault()) opt.features |= QStyleOptionButton::AutoDefaultButton;
    int w = b->fontMetrics().horizontalAdvance(text);
    if (!opt.icon.isNull()) w += opt.iconSize.width() + 4;
    if (b->menu()) w += b->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, &opt, b);
    return b->style()
        ->sizeFromContents(QStyle::CT_PushButton, &opt, QSize(w, b->fontMetrics().height()), b)
        .width();
}

/// The first line of `text` wrapped at word boundaries to `width` in `font` that is still
/// wider than `width` (a word that cannot break), or "" when every line fits.
inline QString overlong_line(const QString& text, const QFont& font, int width) {
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QTextLayout layout(paragraph, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WordWrap);
        layout.setTextOption(option);
        layout.beginLayout();
        QString over;
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            if (over.isEmpty() && line.naturalTextWidth() > width + 1)
                over = paragraph.mid(line.textStart(), line.textLength());
        }
        layout.endLayout();
        if (!over.isEmpty()) return over;
    }
    return {};
}

/// Every label and button under `root` (shown now) that shows less than its whole text, each
/// with what it needs and what it has; empty when everything fits.  Word-wrapped labels must
/// be tall enough for their text at their width, and no word of theirs wider than they are;
/// other labels and buttons wide and tall enough for their text on one line.
inline QStringList clipped_texts(QWidget* root) {
    QStringList out;
    const auto cut = [&out](const QWidget* w, const QString& text, const QString& why) {
        out << widget_name(w, text) + QStringLiteral(": ") + why;
    };
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root) || w->width() <= 0 || w->height() <= 0) continue;
        const QRect shown = shown_rect(w);
        if (shown.isEmpty()) continue;  // scrolled away or behind its container: not cut text
        if (auto* label = qobject_cast<QLabel*>(w)) {
            const QString text = label->text();
            if (text.trimmed().isEmpty() || !label->pixmap().isNull()) continue;
            if (label->wordWrap()) {
                const int need = label->heightForWidth(label->width());
                if (need > label->height() + 1)
                    cut(w, text,
                        QStringLiteral("needs %1 px high at %2 px wide, has %3")
                            .arg(need)
                            .arg(label->width())
                            .arg(label->height()));
                if (label->textFormat() != Qt::RichText && !Qt::mightBeRichText(text)) {
                    // Laid out as the label lays it out (Unicode line breaking: Chinese breaks
                    // between characters, a long random string nowhere): a line wider than the
                    // label is cut at its right edge.
                    const int room = label->contentsRect().width() - 2 * label->margin();
                    const QString over = overlong_line(text, label->font(), room);
                    if (!over.isEmpty())
                        cut(w, text,
                            QStringLiteral("“%1” is wider than %2 px")
                                .arg(over.left(40))
                                .arg(room));
                }
                if (shown.width() + 1 < label->width())
                    cut(w, text,
                        QStringLiteral("%1 px wide, %2 of them shown")
                            .arg(label->width())
                            .arg(shown.width()));
            } else {
                const QSize need = label->sizeHint();
                if (need.width() > shown.width() + 1 || need.height() > label->height() + 1)
                    cut(w, text,
                        QStringLiteral("needs %1×%2 px, shows %3×%4")
                            .arg(need.width())
                            .arg(need.height())
                            .arg(shown.width())
                            .arg(label->height()));
            }
        } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
            QString text = button->text();
            text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
            if (text.trimmed().isEmpty()) continue;
            if (auto* tool = qobject_cast<QToolButton*>(button);
                tool && tool->toolButtonStyle() == Qt::ToolButtonIconOnly && !tool->icon().isNull())
                continue;
            const int need = qobject_cast<QPushButton*>(button)
                                 ? push_button_need(static_cast<QPushButton*>(button), text)
                                 : button->sizeHint().width();
            if (need > shown.width() + 1)
                cut(w, text,
                    QStringLiteral("needs %1 px wide, shows %2").arg(need).arg(shown.width()));
        }
    }
    return out;
}

/// Scroll areas under `root` whose content is wider than the area gives it (a column pushed
/// wider than its splitter by one long word): their right edge is cut or needs scrolling.
inline QStringList overwide_areas(QWidget* root) {
    QStringList out;
    for (QScrollArea* area : root->findChildren<QScrollArea*>()) {
        if (!area->isVisibleTo(root) || !area->widget()) continue;
        const int content =
            std::max(area->widget()->width(), area->widget()->minimumSizeHint().width());
        if (content > area->viewport()->width() + 1)
            out << QStringLiteral("%1: content %2 px wide in %3 px")
                       .arg(widget_name(area, QString()))
                       .arg(content)
                       .arg(area->viewport()->width());
    }
    return out;
}

}  // namespace attnviz::test
