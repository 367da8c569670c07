// The two dialogs of the memory budget.  OverBudgetDialog says that a configuration needs
// more memory than the budget (nothing was computed) and offers, as buttons, what still
// fits: the first k heads, a window of tokens, the mean only.  MemoryBudgetDialog changes
// the budget itself (the app's setting).  Both are opened non-blocking (open()); the app
// keeps running behind them.
#pragma once

#include <QDialog>

#include "engine/budget/memory_budget.h"

class QCommandLinkButton;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace attnviz::ui {

class OverBudgetDialog : public QDialog {
    Q_OBJECT
  public:
    explicit OverBudgetDialog(QWidget* parent = nullptr);

    /// Shows this verdict (replacing any earlier one).
    void setPlan(const budget::MemoryPlan& plan, const budget::MemoryBudget& budget);
    const budget::MemoryPlan& plan() const { return plan_; }
    QString text() const;

    QCommandLinkButton* fewerHeadsButton() const { return fewer_heads_; }
    QCommandLinkButton* windowButton() const { return window_; }
    QCommandLinkButton* meanOnlyButton() const { return mean_only_; }
    QCommandLinkButton* fewerLayersButton() const { return fewer_layers_; }
    QPushButton* changeBudgetButton() const { return change_budget_; }

    /// "the default: 50% of this machine's 16 GiB", "your setting", ... (translated).
    static QString budgetSource(const budget::MemoryBudget& budget);
    /// "about 1.2 GiB"
    static QString aboutBytes(std::uint64_t bytes);

  signals:
    /// One of the offers was clicked (the dialog closes).
    void offerChosen(const attnviz::budget::ResultScope& scope);
    void changeBudgetRequested();

  private:
    budget::MemoryPlan plan_;
    QLabel* message_ = nullptr;
    QLabel* nothing_ = nullptr;
    QCommandLinkButton* fewer_heads_ = nullptr;
    QCommandLinkButton* window_ = nullptr;
    QCommandLinkButton* mean_only_ = nullptr;
    QCommandLinkButton* fewer_layers_ = nullptr;
    QPushButton* change_budget_ = nullptr;
};

class MemoryBudgetDialog : public QDialog {
    Q_OBJECT
  public:
    /// `setting`: the app's setting as typed (empty: the default); `memory`: usable memory.
    MemoryBudgetDialog(const QString& setting, std::uint64_t memory, QWidget* parent = nullptr);

    /// The new setting: empty for the default, else a size such as "2G" or "60%".
    QString budgetText() const;
    QRadioButton* defaultButton() const { return default_; }
    QRadioButton* customButton() const { return custom_; }
    QLineEdit* sizeEdit() const { return size_; }

  private:
    void validate();

    std::uint64_t memory_;
    QRadioButton* default_ = nullptr;
    QRadioButton* custom_ = nullptr;
    QLineEdit* size_ = nullptr;
    QLabel* feedback_ = nullptr;
    QPushButton* ok_ = nullptr;
};

}  // namespace attnviz::ui
