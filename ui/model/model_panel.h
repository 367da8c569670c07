// The left column's panel while a trained model is the source (in place of the demo layer's
// controls): the layer and head in focus, the heads knocked out (each with its mode, each
// removable, Restore All), the generation timeline and the predictions box.  It writes knock-outs
// to the document and shows what the last pass predicted.
#pragma once

#include <QGroupBox>
#include <QWidget>

#include "ui/compute/attention_snapshot.h"

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace attnviz::ui {

class AttentionDocument;
class GenerationPanel;
class PredictionsBox;

class ModelPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ModelPanel(AttentionDocument* document, QWidget* parent = nullptr);

    void setSnapshot(const SnapshotPtr& snapshot);
    PredictionsBox* predictions() const { return predictions_; }
    /// The generation timeline (causal models).
    GenerationPanel* generation() const { return generation_; }
    QLabel* focusLabel() const { return focus_; }
    QPushButton* restoreAllButton() const { return restore_all_; }
    /// One row per knocked-out head: "Layer 2 · head 8 — zero" and its Restore button.
    QWidget* knockedOutList() const { return list_; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslate();
    void syncFocus();
    void syncKnockedOut();

    AttentionDocument* doc_;
    SnapshotPtr snapshot_;
    QGroupBox* focus_box_ = nullptr;
    QLabel* focus_ = nullptr;
    GenerationPanel* generation_ = nullptr;
    QGroupBox* knocked_box_ = nullptr;
    QWidget* list_ = nullptr;
    QVBoxLayout* list_layout_ = nullptr;
    QLabel* knocked_hint_ = nullptr;
    QPushButton* restore_all_ = nullptr;
    QGroupBox* predictions_box_ = nullptr;
    PredictionsBox* predictions_ = nullptr;
};

}  // namespace attnviz::ui
