#include "ui/widgets/memory_guard.h"

#include <QAction>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

#include <algorithm>

#include "ui/compute/compute_controller.h"
#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/memory_dialogs.h"
#include "ui/widgets/scope_bar.h"

namespace attnviz::ui {

MemoryGuard::MemoryGuard(QWidget* window, AttentionDocument* document, ComputeController* compute,
                         AppSettings* settings, ScopeBar* bar)
    : QObject(window),
      window_(window),
      doc_(document),
      compute_(compute),
      settings_(settings),
      bar_(bar) {
    action_ = new QAction(tr("&Memory Budget…"), this);
    action_->setObjectName(QStringLiteral("memoryBudgetAction"));
    connect(action_, &QAction::triggered, this, &MemoryGuard::editBudget);
    connect(compute_, &ComputeController::overBudget, this, &MemoryGuard::overBudget);
    connect(compute_, &ComputeController::resultReady, this, &MemoryGuard::resultReady);
    connect(compute_, &ComputeController::textTooLong, this, &MemoryGuard::textTooLong);
    connect(bar_, &ScopeBar::budgetRequested, this, &MemoryGuard::editBudget);
}

OverBudgetDialog* MemoryGuard::overBudgetDialog() const {
    return dialog_;
}

MemoryBudgetDialog* MemoryGuard::budgetDialog() const {
    return budget_dialog_;
}

QMessageBox* MemoryGuard::tooLongBox() const {
    return too_long_;
}

void MemoryGuard::textTooLong(const QString& fitting, qint64 tokens, qint64 max_positions) {
    // As with the memory offers: only an answer to what the document still holds.
    const std::optional<ComputeConfig>& refused = compute_->lastRequest();
    if (!refused || !(*refused == doc_->computeConfig())) return;
    fitting_ = fitting;
    const QString text =
        tr("The text is %1 tokens, more than the %2 positions the model has.\n\n"
           "Keep its first %2 tokens? The rest of the text is removed from the box.")
            .arg(tokens)
            .arg(max_positions);
    if (!too_long_) {
        auto* box = new QMessageBox(QMessageBox::Question, tr("Text Too Long for the Model"), text,
                                    QMessageBox::Cancel, window_);
        box->setObjectName(QStringLiteral("textTooLongBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setWindowModality(Qt::WindowModal);
        QPushButton* keep = box->addButton(tr("Keep the First %1 Tokens").arg(max_positions),
                                           QMessageBox::AcceptRole);
        keep->setObjectName(QStringLiteral("keepFirstTokensButton"));
        // The rest of the text is removed: Return keeps it, the offer needs a click.
        box->setDefaultButton(QMessageBox::Cancel);
        connect(keep, &QPushButton::clicked, this, [this] {
            if (!fitting_.isEmpty()) doc_->setTextA(fitting_);
        });
        too_long_ = box;
    } else {
        too_long_->setText(text);
        if (auto* keep =
                too_long_->findChild<QPushButton*>(QStringLiteral("keepFirstTokensButton")))
            keep->setText(tr("Keep the First %1 Tokens").arg(max_positions));
    }
    if (!too_long_->isVisible()) too_long_->open();
}

bool MemoryGuard::isLongPass(const ComputeConfig& c) const {
    const double limit = kLongPassFraction * double(compute_->memoryBudget().bytes);
    if (c.usesModel()) {
        const LastModelPass* last = last_model_pass_ ? &*last_model_pass_ : nullptr;
        if (!last || last->folder != c.model_folder) return true;
        // Another layer or grouping re-slices the maps; only another text runs a pass.
        const QString text_b = c.pair_mode == PairMode::Single ? QString() : c.text_b;
        if (last->text_a == c.text_a && last->text_b == text_b) return false;
        return double(last->bytes) >= limit;
    }
    const TokenSequences tokens = resolve_tokens(c);
    if (tokens.a.empty()) return false;
    return double(estimate_snapshot_bytes(c, tokens, c.scope())) >= limit;
}

void MemoryGuard::aboutToCompute(const ComputeConfig& config) {
    if (isLongPass(config)) beforeLongComputation(LongComputation::ModelPass);
}

void MemoryGuard::beforeLongComputation(LongComputation what) {
    emit longComputationStarting(what);
}

void MemoryGuard::reloadBudget() {
    std::string problem;
    const budget::MemoryBudget chosen =
        budget::resolve_app_budget(settings_->memoryBudget().toStdString(), &problem);
    if (!problem.empty())
        emit warning(
            tr("%1 — the app's own budget is used instead.").arg(QString::fromStdString(problem)));
    const bool changed = chosen.bytes != compute_->memoryBudget().bytes;
    compute_->setMemoryBudget(chosen);
    emit budgetChanged(chosen);
    bar_->setBudgetSource(tr("Memory budget: %1 (%2)")
                              .arg(QString::fromStdString(budget::format_bytes(chosen.bytes)),
                                   OverBudgetDialog::budgetSource(chosen)));
    // A new budget decides again about what was refused (or would now be refused).
    if (changed && compute_->requestedGeneration() > 0) {
        aboutToCompute(doc_->computeConfig());
        compute_->requestAgain(doc_->computeConfig());
    }
}

void MemoryGuard::editBudget() {
    if (budget_dialog_) {
        budget_dialog_->raise();
        budget_dialog_->activateWindow();
        return;
    }
    auto* dialog =
        new MemoryBudgetDialog(settings_->memoryBudget(), budget::usable_memory_bytes(), window_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        settings_->setMemoryBudget(dialog->budgetText());
        reloadBudget();
    });
    budget_dialog_ = dialog;
    dialog->open();
}

void MemoryGuard::overBudget(const budget::MemoryPlan& plan, const budget::MemoryBudget& b) {
    // The offers are changes to the configuration that was refused.  When the document has
    // changed since (another session or example opened, more typed; its request is on the
    // way), they are no answer to it: its own computation decides.
    const std::optional<ComputeConfig>& refused = compute_->lastRequest();
    if (!refused || !(*refused == doc_->computeConfig())) return;
    bar_->setTokenCount(plan.tokens);
    bar_->setMemory(plan.needed, plan.budget, true);
    if (!dialog_) {
        auto* dialog = new OverBudgetDialog(window_);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        // Window-modal and non-blocking, as the window's error messages: the offer is in
        // front, the app keeps running.
        dialog->setWindowModality(Qt::WindowModal);
        connect(dialog, &OverBudgetDialog::offerChosen, this, &MemoryGuard::apply);
        connect(dialog, &OverBudgetDialog::changeBudgetRequested, this, &MemoryGuard::editBudget);
        dialog_ = dialog;
    }
    dialog_->setPlan(plan, b);
    if (!dialog_->isVisible()) dialog_->open();
}

void MemoryGuard::resultReady(const SnapshotPtr& s) {
    if (!s) return;
    if (s->model)
        last_model_pass_ =
            LastModelPass{s->config.model_folder, s->config.text_a,
                          s->config.pair_mode == PairMode::Single ? QString() : s->config.text_b,
                          s->estimated_bytes};
    // A model's window is over its pieces (words or not), the demo's over its tokens.
    bar_->setTokenCount(s->model ? s->model->text_pieces : std::max(s->query_total, s->key_total));
    bar_->setMemory(s->estimated_bytes, s->budget_bytes, false);
    // What was refused has been replaced by something that fits.
    if (dialog_) dialog_->close();
    if (too_long_) too_long_->close();
}

void MemoryGuard::apply(const budget::ResultScope& scope) {
    if (doc_->computeConfig().usesModel())  // a model's offer: its first layers or heads
        doc_->setModelScope(scope.layers_shown, scope.heads_shown);
    else
        doc_->setHeadsShown(scope.heads_shown);
    doc_->setWindow(int(scope.window_start), int(scope.window_length));
}

}  // namespace attnviz::ui
