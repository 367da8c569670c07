// The head view on screen: a checkbox per head (in its line colour) to choose the heads
// drawn, and the LinesFigure; hovering a token keeps only its lines.  Which heads are drawn
// lives in the AttentionDocument.
#pragma once

#include <QWidget>

#include <vector>

#include "ui/compute/attention_snapshot.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QToolButton;

namespace attnviz::ui {

class AttentionDocument;
class FigureCanvas;
class LinesFigure;

class LinesView : public QWidget {
    Q_OBJECT
  public:
    explicit LinesView(AttentionDocument* document, QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setPresentation(int font_px, bool high_contrast);

    LinesFigure* figure() const;
    FigureCanvas* canvas() const { return canvas_; }
    QCheckBox* headBox(int head) const;
    QString hoverText() const { return hover_text_; }
    void hoverAt(const QPointF& pos);

  signals:
    void hovered(const QString& text);

  protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void sync();
    void syncBoxes();
    void retranslate();

    AttentionDocument* doc_;
    FigureCanvas* canvas_ = nullptr;
    QHBoxLayout* boxes_layout_ = nullptr;
    QLabel* heads_label_ = nullptr;
    QToolButton* all_ = nullptr;
    QToolButton* none_ = nullptr;
    std::vector<QCheckBox*> boxes_;
    SnapshotPtr snapshot_;
    bool stale_ = false;  ///< a snapshot came while hidden
    QString hover_text_;
    int font_px_ = 0;
    bool high_contrast_ = false;
};

}  // namespace attnviz::ui
