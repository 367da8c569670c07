// The computation steps on screen: the StepsFigure on a canvas, with buttons and the
// Left/Right keys to step, a head chooser, "every step at once" and "focus on this step".
// Hovering a cell shows its value and lights up the cells it was computed from.  The
// current step, the focus and the head live in the AttentionDocument.
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace attnviz::ui {

class AttentionDocument;
class FigureCanvas;
class StepsFigure;
class WholeModelView;

class StepsView : public QWidget {
    Q_OBJECT
  public:
    explicit StepsView(AttentionDocument* document, QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    /// Base text size in pixels (presentation mode makes it large) and high contrast.
    void setPresentation(int font_px, bool high_contrast);

    StepsFigure* figure() const;
    FigureCanvas* canvas() const { return canvas_; }
    /// The whole-model mode's view (shown when the document's wholeModel() is on and the
    /// source is a model).
    WholeModelView* wholeModel() const { return whole_; }
    QString hoverText() const { return hover_text_; }
    /// Hover at a point of the canvas, as a mouse move would.
    void hoverAt(const QPointF& pos);
    /// One step forward (+1) or back (-1).  From "every step", forward starts at the first.
    void stepBy(int delta);

  signals:
    void hovered(const QString& text);

  protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void sync();
    void retranslate();

    AttentionDocument* doc_;
    FigureCanvas* canvas_ = nullptr;
    QToolButton* prev_ = nullptr;
    QToolButton* next_ = nullptr;
    QLabel* step_label_ = nullptr;
    QLabel* head_label_ = nullptr;
    QComboBox* head_combo_ = nullptr;
    QCheckBox* all_box_ = nullptr;
    QCheckBox* focus_box_ = nullptr;
    QToolButton* one_layer_ = nullptr;
    QToolButton* whole_button_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    WholeModelView* whole_ = nullptr;
    QWidget* layer_bar_ = nullptr;
    SnapshotPtr snapshot_;
    QString hover_text_;
    int font_px_ = 0;
    bool high_contrast_ = false;
};

}  // namespace attnviz::ui
