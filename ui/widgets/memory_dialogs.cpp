#include "ui/widgets/memory_dialogs.h"

#include <QCommandLinkButton>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

#include <cstdlib>

namespace attnviz::ui {

namespace {
QString bytes_text(std::uint64_t bytes) {
    return QString::fromStdString(budget::format_bytes(bytes));
}
QString count_text(std::int64_t n) {
    return QLocale().toString(qlonglong(n));
}
}  // namespace

// --- over the budget ------------------------------------------------------------------------

OverBudgetDialog::OverBudgetDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("memoryBudgetDialog"));
    setWindowTitle(tr("Not Enough Memory for This"));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    auto* icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);
    top->addWidget(icon);
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("memoryBudgetMessage"));
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::RichText);
    message_->setMinimumWidth(440);
    top->addWidget(message_, 1);
    layout->addLayout(top);

    fewer_heads_ = new QCommandLinkButton(this);
    fewer_heads_->setObjectName(QStringLiteral("fewerHeadsButton"));
    window_ = new QCommandLinkButton(this);
    window_->setObjectName(QStringLiteral("windowButton"));
    mean_only_ = new QCommandLinkButton(this);
    mean_only_->setObjectName(QStringLiteral("meanOnlyButton"));
    fewer_layers_ = new QCommandLinkButton(this);
    fewer_layers_->setObjectName(QStringLiteral("fewerLayersButton"));
    for (QCommandLinkButton* b : {fewer_layers_, fewer_heads_, window_, mean_only_})
        layout->addWidget(b);
    nothing_ = new QLabel(
        tr("Nothing smaller fits either: shorten the text, lower embed_dim or raise the budget."),
        this);
    nothing_->setObjectName(QStringLiteral("nothingFitsLabel"));
    nothing_->setWordWrap(true);
    layout->addWidget(nothing_);

    auto* buttons = new QDialogButtonBox(this);
    change_budget_ = buttons->addButton(tr("Change the &Budget…"), QDialogButtonBox::ActionRole);
    change_budget_->setObjectName(QStringLiteral("changeBudgetButton"));
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    layout->addWidget(buttons);

    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(change_budget_, &QPushButton::clicked, this, [this] {
        emit changeBudgetRequested();
        accept();
    });
    const auto offer = [this](QCommandLinkButton* button,
                              std::optional<budget::ResultScope> budget::MemoryPlan::*member) {
        connect(button, &QCommandLinkButton::clicked, this, [this, member] {
            if (!(plan_.*member)) return;
            const budget::ResultScope scope = *(plan_.*member);
            accept();
            emit offerChosen(scope);
        });
    };
    offer(fewer_heads_, &budget::MemoryPlan::fewer_heads);
    offer(window_, &budget::MemoryPlan::window);
    offer(mean_only_, &budget::MemoryPlan::mean_only);
    offer(fewer_layers_, &budget::MemoryPlan::fewer_layers);
}

QString OverBudgetDialog::budgetSource(const budget::MemoryBudget& b) {
    switch (b.source) {
        case budget::MemoryBudget::Source::Option:
            return tr("set by --memory-budget");
        case budget::MemoryBudget::Source::Environment:
            return tr("set by ATTNVIZ_MEMORY_BUDGET=%1").arg(QString::fromStdString(b.text));
        case budget::MemoryBudget::Source::Setting:
            return tr("your setting");
        case budget::MemoryBudget::Source::Default:
            break;
    }
    return tr("the default: %1% of this machine's %2")
        .arg(int(budget::kDefaultBudgetFraction * 100))
        .arg(bytes_text(b.memory));
}

QString OverBudgetDialog::aboutBytes(std::uint64_t bytes) {
    return tr("about %1").arg(bytes_text(bytes));
}

void OverBudgetDialog::setPlan(const budget::MemoryPlan& plan, const budget::MemoryBudget& b) {
    plan_ = plan;
    const budget::ResultScope& r = plan.requested;
    const int kept = r.kept_heads(plan.num_heads);
    const std::int64_t window = budget::window_on(r, plan.tokens).count;
    const QString heads = kept == 0 ? tr("the mean over the heads")
                          : kept == plan.num_heads
                              ? tr("the weights of every head (%1)").arg(plan.num_heads)
                              : tr("the weights of heads 1–%1 of %2").arg(kept).arg(plan.num_heads);
    const QString tokens =
        window < plan.tokens
            ? tr("a window of %1 of %2 tokens").arg(count_text(window), count_text(plan.tokens))
            : tr("%1 tokens").arg(count_text(plan.tokens));
    message_->setText(
        tr("<p>Showing %1 over %2 needs <b>%3</b>, more than the memory budget of <b>%4</b> "
           "(%5). Nothing was computed.</p><p>Per-head weights grow with heads × tokens². "
           "%6</p>")
            .arg(heads, tokens, bytes_text(plan.needed), bytes_text(plan.budget), budgetSource(b),
                 (plan.weights > 0
                      ? tr("The model's weights take %1 of it: converted layer by layer, they "
                           "need no more. ")
                            .arg(bytes_text(plan.weights))
                      : QString()) +
                     (plan.any_offer() ? tr("What still fits:") : QString())));

    fewer_heads_->setVisible(plan.fewer_heads.has_value());
    if (plan.fewer_heads) {
        const int k = plan.fewer_heads->heads_shown;
        fewer_heads_->setText(k == 1 ? tr("Show head 1 only") : tr("Show heads 1–%1 only").arg(k));
        fewer_heads_->setDescription(tr("Needs %1. The mean still covers all %2 heads.")
                                         .arg(aboutBytes(plan.fewer_heads_bytes))
                                         .arg(plan.num_heads));
    }
    window_->setVisible(plan.window.has_value());
    if (plan.window) {
        const std::int64_t first = plan.window->window_start + 1;
        window_->setText(
            tr("Show a window of %1 tokens").arg(count_text(plan.window->window_length)));
        window_->setDescription(
            tr("Needs %1. Tokens %2–%3 first; move the window along the text above the "
               "heatmaps.")
                .arg(aboutBytes(plan.window_bytes), count_text(first),
                     count_text(first + plan.window->window_length - 1)));
    }
    mean_only_->setVisible(plan.mean_only.has_value());
    if (plan.mean_only) {
        mean_only_->setText(tr("Show the mean over heads only"));
        mean_only_->setDescription(
            tr("Needs %1. No heatmap per head.").arg(aboutBytes(plan.mean_only_bytes)));
    }
    fewer_layers_->setVisible(plan.fewer_layers.has_value());
    if (plan.fewer_layers) {
        const int k = plan.fewer_layers->layers_shown;
        fewer_layers_->setText(k == 1
                                   ? tr("Keep layer 1 only")
                                   : tr("Keep layers 1–%1 of %2").arg(k).arg(plan.layers.size()));
        fewer_layers_->setDescription(
            tr("Needs %1. Every head of those layers; the later layers are not computed.")
                .arg(aboutBytes(plan.fewer_layers_bytes)));
    }
    nothing_->setVisible(!plan.any_offer());
    adjustSize();
}

QString OverBudgetDialog::text() const {
    return message_->text();
}

// --- the budget itself ------------------------------------------------------------------------

MemoryBudgetDialog::MemoryBudgetDialog(const QString& setting, std::uint64_t memory,
                                       QWidget* parent)
    : QDialog(parent), memory_(memory) {
    setObjectName(QStringLiteral("memoryBudgetSettingsDialog"));
    setWindowTitle(tr("Memory Budget"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Before computing, AttnViz estimates the memory a configuration needs (per-head "
           "weights grow with heads × tokens²). Above this budget it computes nothing and "
           "offers what still fits: fewer heads, a window of tokens or the mean only."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    default_ = new QRadioButton(
        tr("&Default: %1% of this machine's memory (%2 of %3)")
            .arg(int(budget::kDefaultBudgetFraction * 100))
            .arg(bytes_text(std::uint64_t(double(memory) * budget::kDefaultBudgetFraction)),
                 bytes_text(memory)),
        this);
    default_->setObjectName(QStringLiteral("defaultBudgetRadio"));
    custom_ = new QRadioButton(tr("&Custom:"), this);
    custom_->setObjectName(QStringLiteral("customBudgetRadio"));
    size_ = new QLineEdit(setting, this);
    size_->setObjectName(QStringLiteral("budgetEdit"));
    size_->setPlaceholderText(tr("e.g. 2G, 512M or 60%"));
    feedback_ = new QLabel(this);
    feedback_->setObjectName(QStringLiteral("budgetFeedback"));
    layout->addWidget(default_);
    auto* row = new QHBoxLayout;
    row->addWidget(custom_);
    row->addWidget(size_, 1);
    layout->addLayout(row);
    layout->addWidget(feedback_);
    if (const char* env = std::getenv(budget::kBudgetEnvironmentVariable); env && *env) {
        auto* note = new QLabel(tr("ATTNVIZ_MEMORY_BUDGET=%1 is set: it overrides this setting "
                                   "as long as the app runs with it.")
                                    .arg(QString::fromLocal8Bit(env)),
                                this);
        note->setObjectName(QStringLiteral("budgetEnvironmentNote"));
        note->setWordWrap(true);
        layout->addWidget(note);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    (setting.isEmpty() ? default_ : custom_)->setChecked(true);
    connect(default_, &QRadioButton::toggled, this, &MemoryBudgetDialog::validate);
    connect(size_, &QLineEdit::textChanged, this, [this] {
        if (!custom_->isChecked()) custom_->setChecked(true);
        validate();
    });
    validate();
}

QString MemoryBudgetDialog::budgetText() const {
    return default_->isChecked() ? QString() : size_->text().trimmed();
}

void MemoryBudgetDialog::validate() {
    size_->setEnabled(true);
    if (default_->isChecked()) {
        feedback_->clear();
        ok_->setEnabled(true);
        return;
    }
    try {
        const std::uint64_t bytes = budget::parse_memory_size(size_->text().toStdString(), memory_);
        feedback_->setStyleSheet(QString());
        feedback_->setText(memory_ && bytes > memory_
                               ? tr("= %1, more than this machine's %2: computations that large "
                                    "may fail")
                                     .arg(bytes_text(bytes), bytes_text(memory_))
                               : tr("= %1").arg(bytes_text(bytes)));
        ok_->setEnabled(true);
    } catch (const std::invalid_argument&) {
        feedback_->setStyleSheet(QStringLiteral("color: #b00020;"));
        feedback_->setText(tr("Not a size: write e.g. 2G, 512M or 60% (at least 1M)."));
        ok_->setEnabled(false);
    }
}

}  // namespace attnviz::ui
