#include "ui/widgets/scope_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/budget/memory_budget.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
// Before the first result the text's length is unknown: the spin boxes accept any window.
constexpr int kUnknownTokens = 100'000'000;
constexpr int kDefaultWindow = 256;
}  // namespace

ScopeBar::ScopeBar(AttentionDocument* document, QWidget* parent) : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("scopeBar"));
    // Two rows: what is kept and what it costs; then, for a window, the navigator whose
    // slider spans the width, so a long text is walked through in steps the eye can follow.
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(8, 2, 8, 2);
    rows->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->setSpacing(6);
    rows->addLayout(row);

    heads_label_ = new QLabel(tr("Per-head wei&ghts:"), this);
    heads_ = new QComboBox(this);
    heads_->setObjectName(QStringLiteral("headsShownCombo"));
    heads_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    heads_->setToolTip(
        tr("Whose weights are kept: every head, only the first ones, or only their mean. "
           "The mean is always over every head."));
    heads_label_->setBuddy(heads_);
    row->addWidget(heads_label_);
    row->addWidget(heads_);
    row->addSpacing(12);

    window_ = new QCheckBox(tr("Wi&ndow of"), this);
    window_->setObjectName(QStringLiteral("windowCheck"));
    window_->setToolTip(
        tr("Show the attention of a stretch of a long text: these rows and columns of the "
           "full attention (the softmax still runs over every key)."));
    length_ = new QSpinBox(this);
    length_->setObjectName(QStringLiteral("windowLengthSpin"));
    length_->setKeyboardTracking(false);
    length_->setSuffix(tr(" tokens"));
    row->addWidget(window_);
    row->addWidget(length_);
    row->addStretch(1);

    memory_ = new QLabel(this);
    memory_->setObjectName(QStringLiteral("memoryLabel"));
    budget_ = new QPushButton(tr("Budget…"), this);
    budget_->setObjectName(QStringLiteral("budgetButton"));
    budget_->setToolTip(tr("Change the memory budget"));
    everything_ = new QPushButton(tr("Show A&ll"), this);
    everything_->setObjectName(QStringLiteral("showEverythingButton"));
    everything_->setToolTip(tr("Every head's weights over every token again"));
    row->addWidget(memory_);
    row->addWidget(budget_);
    row->addWidget(everything_);

    nav_ = new QWidget(this);
    nav_->setObjectName(QStringLiteral("windowNavigator"));
    auto* nav = new QHBoxLayout(nav_);
    nav->setContentsMargins(0, 0, 0, 0);
    nav->setSpacing(6);
    of_ = new QLabel(nav_);
    of_->setObjectName(QStringLiteral("windowOfLabel"));
    previous_ = new QToolButton(nav_);
    previous_->setObjectName(QStringLiteral("windowPreviousButton"));
    previous_->setArrowType(Qt::LeftArrow);
    previous_->setToolTip(tr("The previous window"));
    previous_->setAutoRaise(true);
    slider_ = new QSlider(Qt::Horizontal, nav_);
    slider_->setObjectName(QStringLiteral("windowSlider"));
    slider_->setToolTip(tr("Move the window along the text"));
    next_ = new QToolButton(nav_);
    next_->setObjectName(QStringLiteral("windowNextButton"));
    next_->setArrowType(Qt::RightArrow);
    next_->setToolTip(tr("The next window"));
    next_->setAutoRaise(true);
    from_ = new QLabel(tr("First to&ken:"), nav_);
    start_ = new QSpinBox(nav_);
    start_->setObjectName(QStringLiteral("windowStartSpin"));
    start_->setKeyboardTracking(false);
    start_->setToolTip(tr("The window's first token (1 is the first of the text)."));
    from_->setBuddy(start_);
    nav->addWidget(of_);
    nav->addWidget(previous_);
    nav->addWidget(slider_, 1);
    nav->addWidget(next_);
    nav->addWidget(from_);
    nav->addWidget(start_);
    rows->addWidget(nav_);

    // View -> document.
    connect(heads_, &QComboBox::activated, this,
            [this] { doc_->setHeadsShown(heads_->currentData().toInt()); });
    connect(window_, &QCheckBox::toggled, this, [this](bool on) {
        if (!on) {
            doc_->setWindow(0, 0);
            return;
        }
        const int length =
            tokens_ > 1 ? int(std::min<std::int64_t>(kDefaultWindow, tokens_ / 2)) : kDefaultWindow;
        doc_->setWindow(0, std::max(1, length));
    });
    connect(length_, &QSpinBox::valueChanged, this, [this](int length) {
        if (doc_->windowLength() > 0) doc_->setWindow(doc_->windowStart(), length);
    });
    connect(start_, &QSpinBox::valueChanged, this, [this](int first) { moveWindow(first - 1); });
    connect(slider_, &QSlider::valueChanged, this, [this](int start) { moveWindow(start); });
    connect(previous_, &QToolButton::clicked, this,
            [this] { moveWindow(doc_->windowStart() - doc_->windowLength()); });
    connect(next_, &QToolButton::clicked, this,
            [this] { moveWindow(doc_->windowStart() + doc_->windowLength()); });
    connect(budget_, &QPushButton::clicked, this, &ScopeBar::budgetRequested);
    connect(everything_, &QPushButton::clicked, doc_, &AttentionDocument::showEverything);

    // Document -> view, at once: the bar must never show a stale window.
    connect(doc_, &AttentionDocument::headsShownChanged, this, &ScopeBar::sync);
    connect(doc_, &AttentionDocument::windowChanged, this, &ScopeBar::sync);
    connect(doc_, &AttentionDocument::numHeadsChanged, this, &ScopeBar::sync);
    connect(doc_, &AttentionDocument::computeConfigChanged, this, &ScopeBar::sync);
    sync();
}

void ScopeBar::setTokenCount(std::int64_t tokens) {
    if (tokens_ == tokens) return;
    tokens_ = tokens;
    sync();
}

void ScopeBar::setMemory(std::uint64_t needed, std::uint64_t budget_bytes, bool over) {
    const QString need = QString::fromStdString(budget::format_bytes(needed));
    const QString limit = QString::fromStdString(budget::format_bytes(budget_bytes));
    memory_->setText(over ? tr("Needs %1: over the %2 budget").arg(need, limit)
                          : tr("Memory: %1 of %2").arg(need, limit));
    memory_->setStyleSheet(over ? QStringLiteral("color: #b00020; font-weight: bold;") : QString());
}

void ScopeBar::setBudgetSource(const QString& text) {
    memory_->setToolTip(text);
    budget_->setToolTip(text);
}

void ScopeBar::moveWindow(std::int64_t start) {
    const int length = doc_->windowLength();
    if (length <= 0) return;
    const std::int64_t last =
        tokens_ > 0 ? std::max<std::int64_t>(0, tokens_ - length) : std::int64_t(kUnknownTokens);
    doc_->setWindow(int(std::clamp<std::int64_t>(start, 0, last)), length);
}

void ScopeBar::sync() {
    const int H = doc_->numHeads();
    {
        const QSignalBlocker b(heads_);
        if (heads_->count() != H + 1 || heads_->itemData(0).toInt() != -1) {
            heads_->clear();
            heads_->addItem(tr("All heads (%1)").arg(H), -1);
            for (int k = 1; k < H; ++k)
                heads_->addItem(k == 1 ? tr("Head 1 only") : tr("Heads 1–%1").arg(k), k);
            heads_->addItem(tr("Mean only"), 0);
        }
        heads_->setCurrentIndex(
            heads_->findData(doc_->headsShown() >= H ? -1 : doc_->headsShown()));
    }
    // A model keeps its heads per layer (the memory budget's offers; the Model tab's button
    // brings them back and says what is kept): this list is the demo layer's, hidden meanwhile.
    const bool model = doc_->computeConfig().usesModel();
    heads_label_->setVisible(!model);
    heads_->setVisible(!model);
    const bool windowed = doc_->windowLength() > 0;
    const int total =
        tokens_ > 0 ? int(std::min<std::int64_t>(tokens_, kUnknownTokens)) : kUnknownTokens;
    // What the computation uses: the window within the text (budget::window_on).
    budget::ResultScope scope = doc_->computeConfig().scope();
    const budget::AxisWindow w = budget::window_on(scope, total);
    {
        const QSignalBlocker b1(window_), b2(length_), b3(start_), b4(slider_);
        window_->setChecked(windowed);
        length_->setRange(1, std::max(1, total));
        length_->setValue(windowed ? int(w.count) : std::min(kDefaultWindow, total));
        start_->setRange(1, std::max(1, total - int(w.count) + 1));
        start_->setValue(int(w.begin) + 1);
        slider_->setRange(0, std::max(0, total - int(w.count)));
        slider_->setPageStep(std::max(1, int(w.count)));
        slider_->setValue(int(w.begin));
    }
    length_->setEnabled(windowed);
    nav_->setVisible(windowed);
    previous_->setEnabled(windowed && w.begin > 0);
    next_->setEnabled(windowed && (tokens_ <= 0 || w.begin + w.count < tokens_));
    const QLocale locale;
    of_->setText(tokens_ > 0 ? tr("Tokens %1–%2 of %3")
                                   .arg(locale.toString(qlonglong(w.begin + 1)),
                                        locale.toString(qlonglong(w.begin + w.count)),
                                        locale.toString(qlonglong(tokens_)))
                             : tr("Tokens %1–%2")
                                   .arg(locale.toString(qlonglong(w.begin + 1)),
                                        locale.toString(qlonglong(w.begin + w.count))));
    everything_->setVisible(windowed ||
                            (!model && doc_->headsShown() >= 0 && doc_->headsShown() < H));
}

}  // namespace attnviz::ui
