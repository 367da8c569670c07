// The window's side of the memory budget: it resolves the budget (ATTNVIZ_MEMORY_BUDGET, the
// app's setting, the default), hands it to the compute worker, and when a configuration is
// over it shows the OverBudgetDialog and applies the offer the user picks to the document.
// It keeps the ScopeBar's figures (tokens, memory needed) up to date.
#pragma once

#include <QObject>
#include <QPointer>

#include <cstdint>
#include <optional>

#include "engine/budget/memory_budget.h"
#include "ui/compute/attention_snapshot.h"

class QAction;
class QMessageBox;
class QWidget;

namespace attnviz::ui {

class AppSettings;
class AttentionDocument;
class ComputeController;
class MemoryBudgetDialog;
class OverBudgetDialog;
class ScopeBar;

class MemoryGuard : public QObject {
    Q_OBJECT
  public:
    /// `window` parents the dialogs; everything else is used, not owned.
    MemoryGuard(QWidget* window, AttentionDocument* document, ComputeController* compute,
                AppSettings* settings, ScopeBar* bar);

    /// Reads the budget again (after the setting changed) and recomputes if it matters.
    void reloadBudget();
    /// Opens the budget dialog (non-blocking).
    void editBudget();
    /// Attention ▸ Memory Budget…
    QAction* budgetAction() const { return action_; }

    /// The over-budget dialog while it is open.
    OverBudgetDialog* overBudgetDialog() const;
    MemoryBudgetDialog* budgetDialog() const;
    /// The offer of a too long text's start while it is open.
    QMessageBox* tooLongBox() const;

    /// A pass is long when it needs at least this part of the budget: the OOM killer's size.
    static constexpr double kLongPassFraction = 0.25;
    /// Whether computing `config` is a long pass: its estimate (the demo layer's, or the
    /// model's last pass when a model runs again on another text) reaches kLongPassFraction
    /// of the budget.  A model's first pass counts as long: it reads all of its weights.
    bool isLongPass(const ComputeConfig& config) const;
    /// The window calls this just before it hands `config` to the worker: a long pass
    /// announces itself (longComputationStarting) first.
    void aboutToCompute(const ComputeConfig& config);
    /// What may take long or much memory.  Patching sweeps and generation are not in the
    /// window yet: they are to call beforeLongComputation() as a model pass does.
    enum class LongComputation { ModelPass, PatchingSweep, Generation };
    Q_ENUM(LongComputation)
    /// Announces a long computation before it starts; whatever is connected to
    /// longComputationStarting (the recovery copy) runs before this returns.
    void beforeLongComputation(LongComputation what);

  signals:
    /// A problem to show in the status bar (a bad ATTNVIZ_MEMORY_BUDGET).
    void warning(const QString& message);
    /// The budget was (re)loaded: every other worker of the window follows it.
    void budgetChanged(const attnviz::budget::MemoryBudget& budget);
    /// A long computation is about to start (beforeLongComputation()).
    void longComputationStarting(attnviz::ui::MemoryGuard::LongComputation what);

  private:
    void overBudget(const budget::MemoryPlan& plan, const budget::MemoryBudget& budget);
    void resultReady(const SnapshotPtr& snapshot);
    /// A text longer than the model's positions: offer its first `max_positions` tokens.
    void textTooLong(const QString& fitting, qint64 tokens, qint64 max_positions);
    void apply(const budget::ResultScope& scope);

    QWidget* window_;
    AttentionDocument* doc_;
    ComputeController* compute_;
    AppSettings* settings_;
    ScopeBar* bar_;
    QAction* action_ = nullptr;
    QPointer<OverBudgetDialog> dialog_;
    QPointer<MemoryBudgetDialog> budget_dialog_;
    QPointer<QMessageBox> too_long_;
    QString fitting_;  ///< what too_long_ offers
    /// The last result of a model: its folder, texts and what its pass needed.
    struct LastModelPass {
        QString folder, text_a, text_b;
        std::uint64_t bytes = 0;
    };
    std::optional<LastModelPass> last_model_pass_;
};

}  // namespace attnviz::ui
