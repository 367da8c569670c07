// The bar over the heatmaps that says what of the result is kept and what it costs: whose
// per-head weights (every head, the first k, or the mean only), a window of tokens with a
// slider and arrows to move it along a long text, and the memory the shown configuration
// needs against the budget.  It writes the document (so every choice is saved, shown in
// every view and undone the same way) and owns no data.
#pragma once

#include <QWidget>

#include <cstdint>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace attnviz::ui {

class AttentionDocument;

class ScopeBar : public QWidget {
    Q_OBJECT
  public:
    explicit ScopeBar(AttentionDocument* document, QWidget* parent = nullptr);

    /// The longest sequence of the current input (the window's range), once known.
    void setTokenCount(std::int64_t tokens);
    std::int64_t tokenCount() const { return tokens_; }
    /// What the shown configuration needs of the budget; `over`: it was refused.
    void setMemory(std::uint64_t needed, std::uint64_t budget, bool over);
    /// Hover text of the memory figure: where the budget comes from.
    void setBudgetSource(const QString& text);

    QComboBox* headsCombo() const { return heads_; }
    QCheckBox* windowCheck() const { return window_; }
    QSpinBox* windowLengthSpin() const { return length_; }
    QSpinBox* windowStartSpin() const { return start_; }
    QSlider* windowSlider() const { return slider_; }
    QLabel* memoryLabel() const { return memory_; }

  signals:
    void budgetRequested();

  private:
    void sync();
    void moveWindow(std::int64_t start);

    AttentionDocument* doc_;
    std::int64_t tokens_ = 0;
    QLabel* heads_label_ = nullptr;
    QComboBox* heads_ = nullptr;
    QCheckBox* window_ = nullptr;
    QSpinBox* length_ = nullptr;
    QWidget* nav_ = nullptr;
    QLabel* from_ = nullptr;
    QSpinBox* start_ = nullptr;
    QToolButton* previous_ = nullptr;
    QSlider* slider_ = nullptr;
    QToolButton* next_ = nullptr;
    QLabel* of_ = nullptr;
    QLabel* memory_ = nullptr;
    QPushButton* budget_ = nullptr;
    QPushButton* everything_ = nullptr;
};

}  // namespace attnviz::ui
