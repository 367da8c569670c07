// The steps view's whole-model mode: the ModelWalkFigure (every step of the pass at one token)
// in a scroll area, with the token chooser, the sampling controls (temperature, top-k, top-p),
// a seeded draw of the next token and a button that appends it to the text, so a class can write
// with the model one token at a time.  Its state lives in the AttentionDocument (the token in
// focus, FigureOptions' open layers, sampling and draw); the trace comes with the snapshot.
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"

class QComboBox;
class QLabel;
class QScrollArea;
class QSlider;
class QSpinBox;
class QToolButton;
class QPushButton;

namespace attnviz::ui {

class AttentionDocument;
class FigureCanvas;
class ModelWalkFigure;

class WholeModelView : public QWidget {
    Q_OBJECT
  public:
    explicit WholeModelView(AttentionDocument* document, QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setPresentation(int font_px, bool high_contrast);

    ModelWalkFigure* figure() const;
    FigureCanvas* canvas() const { return canvas_; }
    QString hoverText() const { return hover_text_; }
    /// A click at a point of the canvas: a layer header folds or unfolds it, a bar picks
    /// its token as the draw.
    void clickAt(const QPointF& pos);
    void hoverAt(const QPointF& pos);
    /// Draws the next token with the seed box's seed (then advances it), as the Draw button.
    void draw();
    /// Appends the drawn token to the text (the generation timeline's ids), as the button.
    void appendDrawn();

  signals:
    void hovered(const QString& text);

  protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void sync();
    void retranslate();
    void relayout();
    void pushSampling();
    /// Why the drawn token cannot be appended, or empty.
    QString appendBlocked() const;
    /// Scrolls the prediction into view once the figure has laid the change out.
    void revealPrediction();

    AttentionDocument* doc_;
    QLabel* token_label_ = nullptr;
    QComboBox* token_combo_ = nullptr;
    QToolButton* fold_ = nullptr;
    QToolButton* unfold_ = nullptr;
    QLabel* temperature_label_ = nullptr;
    QSlider* temperature_ = nullptr;
    QLabel* temperature_value_ = nullptr;
    QLabel* top_k_label_ = nullptr;
    QSpinBox* top_k_ = nullptr;
    QLabel* top_p_label_ = nullptr;
    QSlider* top_p_ = nullptr;
    QLabel* top_p_value_ = nullptr;
    QLabel* seed_label_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QPushButton* draw_ = nullptr;
    QPushButton* append_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    FigureCanvas* canvas_ = nullptr;
    SnapshotPtr snapshot_;
    QString hover_text_;
    int font_px_ = 0;
    bool high_contrast_ = false;
    bool reveal_prediction_ = false;  ///< a sampling control moved: show its effect
    /// The next trace's prediction is shown (a token was added: what comes after it).
    bool reveal_on_trace_ = false;
};

}  // namespace attnviz::ui
