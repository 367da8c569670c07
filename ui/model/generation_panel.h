// The generation timeline, in the model's panel while a causal model is the source: Continue
// (a count, greedy or sampled with temperature, top-k, top-p and a seed) appends the model's
// own tokens to the text one by one (GenerationRunner), Stop ends it at once, a slider scrubs
// the steps (every view then shows the text as it was at that step: the newest token's row
// is the attention it wrote with) and Play replays them, a row a step.  Keep makes the
// continuation part of the sentence; Discard drops it.  The model's tokens are drawn in
// generated_token_color() here and in every view.
#pragma once

#include <QGroupBox>

#include "ui/compute/attention_snapshot.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;
class QToolButton;
class QVBoxLayout;
class QWidget;

namespace attnviz::ui {

class AttentionDocument;
class GenerationRunner;

class GenerationPanel : public QGroupBox {
    Q_OBJECT
  public:
    /// A step of Play.
    static constexpr int kPlayStepMs = 350;

    explicit GenerationPanel(AttentionDocument* document, QWidget* parent = nullptr);
    ~GenerationPanel() override;

    /// Shown for a causal model's snapshot only.
    void setSnapshot(const SnapshotPtr& snapshot);

    QPushButton* continueButton() const { return continue_; }
    QPushButton* stopButton() const { return stop_; }
    QPushButton* keepButton() const { return keep_; }
    QPushButton* discardButton() const { return discard_; }
    QSlider* timeline() const { return slider_; }
    QToolButton* playButton() const { return play_; }
    QSpinBox* countBox() const { return count_; }
    QComboBox* modeBox() const { return mode_; }
    QLabel* textLabel() const { return text_; }
    QLabel* statusLabel() const { return status_; }
    GenerationRunner* runner() const { return runner_; }
    bool isWriting() const;
    /// Play is stepping through the timeline.
    bool isPlaying() const;
    /// Play, as its button does: from the step shown (from the prompt at the last step).
    void startPlaying();
    /// Play's step, kPlayStepMs until set (a classroom reads along; a test that does not
    /// watch the playing need not wait for it).
    void setPlayStep(int ms);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // The constructor's steps, in order.
    void createSettings(QVBoxLayout* column);
    void createTimeline(QVBoxLayout* column);
    void connectControls();
    void connectRunner();
    void connectDocument();

    void retranslate();
    void continueWriting();
    void stopWriting();
    void keep();
    void discard();
    /// The slider's last step is the whole text (no timeline step).
    void scrubTo(int step);
    /// Greedy (0) or sampled (1).
    void chooseMode(int index);
    /// The runner wrote a token: into the document, and counted.
    void appendToken(qint64 id);
    void finishWriting(bool eos, bool full);
    void failWriting(const QString& message);
    /// The text, the model, the pair mode or the knocked-out heads changed: writing stops.
    void stopOnEdit();
    /// The text changed: the writing stops and the shown text follows.
    void followText();
    /// The continuation changed: the timeline, the text and the buttons follow.
    void syncGenerated();
    void togglePlay();
    void playStep();
    void syncSettings();
    void writeSettings();
    void syncTimeline();
    void syncText();
    void syncButtons();
    void setStatus(const QString& text, bool error = false);

    AttentionDocument* doc_;
    GenerationRunner* runner_;
    SnapshotPtr snapshot_;
    QLabel* text_ = nullptr;
    QSpinBox* count_ = nullptr;
    QComboBox* mode_ = nullptr;
    QWidget* sampling_ = nullptr;
    QLabel* temperature_label_ = nullptr;
    QLabel* top_k_label_ = nullptr;
    QLabel* top_p_label_ = nullptr;
    QLabel* seed_label_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QSpinBox* top_k_ = nullptr;
    QDoubleSpinBox* top_p_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QPushButton* continue_ = nullptr;
    QPushButton* stop_ = nullptr;
    QSlider* slider_ = nullptr;
    QToolButton* play_ = nullptr;
    QLabel* step_ = nullptr;
    QPushButton* keep_ = nullptr;
    QPushButton* discard_ = nullptr;
    QLabel* status_ = nullptr;
    QTimer* player_ = nullptr;
    int written_ = 0;  ///< tokens of the generation under way
    /// A written token is being added to the document: the panel shows it after the
    /// document's flush (appendToken()).
    bool appending_ = false;
};

}  // namespace attnviz::ui
