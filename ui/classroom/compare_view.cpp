#include "ui/classroom/compare_view.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

#include "engine/errors.h"
#include "ui/classroom/compare_figure.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/error_text.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
constexpr int kSame = -1;  ///< combo data: B keeps A's value

QComboBox* combo(QWidget* parent, const char* name) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QLatin1String(name));
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return c;
}

/// Selects the item with `data`, or the first.
void select(QComboBox* c, int data) {
    c->setCurrentIndex(std::max(0, c->findData(data)));
}

template <typename T>
int data_of(const std::optional<T>& v) {
    return v ? int(*v) : kSame;
}

/// Lays its items out left to right and wraps them onto further lines when the width runs
/// out, so B's editor takes two lines in a wide window and more in a narrow one instead of
/// widening the window.
class FlowLayout : public QLayout {
  public:
    explicit FlowLayout(QWidget* parent) : QLayout(parent) { setContentsMargins(0, 0, 0, 0); }
    ~FlowLayout() override {
        while (QLayoutItem* item = takeAt(0))
            delete item;
    }
    void addItem(QLayoutItem* item) override { items_.append(item); }
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override {
        return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
    }
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), true); }
    void setGeometry(const QRect& rect) override {
        QLayout::setGeometry(rect);
        arrange(rect, false);
    }
    QSize sizeHint() const override { return minimumSize(); }
    QSize minimumSize() const override {
        QSize size;
        for (const QLayoutItem* item : items_)
            size = size.expandedTo(item->minimumSize());
        return size;
    }

  private:
    int arrange(const QRect& rect, bool measure_only) const {
        const int hspace = 14, vspace = 3;
        int x = rect.x(), y = rect.y(), line_h = 0;
        for (QLayoutItem* item : items_) {
            if (item->isEmpty()) continue;
            const QSize hint = item->sizeHint();
            if (x > rect.x() && x + hint.width() > rect.right() + 1) {
                x = rect.x();
                y += line_h + vspace;
                line_h = 0;
            }
            if (!measure_only) item->setGeometry(QRect(QPoint(x, y), hint));
            x += hint.width() + hspace;
            line_h = std::max(line_h, hint.height());
        }
        return y + line_h - rect.y();
    }

    QList<QLayoutItem*> items_;
};

/// A box on `flow` holding `widgets` in a row, so that they stay together when the line
/// wraps.  With `label`: a new label first, the buddy of the first widget.
QWidget* add_group(QLayout* flow, std::initializer_list<QWidget*> widgets,
                   QLabel** label = nullptr) {
    auto* box = new QWidget(flow->parentWidget());
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    if (label) {
        *label = new QLabel(box);
        (*label)->setBuddy(*widgets.begin());
        row->addWidget(*label);
    }
    for (QWidget* w : widgets) {
        w->setParent(box);
        row->addWidget(w);
    }
    flow->addWidget(box);
    return box;
}
}  // namespace

CompareView::CompareView(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("compareView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->setSpacing(4);
    layout->addWidget(createBar());
    layout->addWidget(createEditor());
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("compareStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);
    canvas_ = new FigureCanvas(std::make_unique<CompareFigure>(), this);
    canvas_->setObjectName(QStringLiteral("compareCanvas"));
    canvas_->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(canvas_, 1);
    setFocusProxy(canvas_);
    retranslate();
    connectControls();
    connectDocument();
    syncEditor();
    sync();
}

/// The bar: presets, the head compared, and the editor's toggle; it wraps onto a second line
/// rather than widen the window (presentation fonts are large).
QWidget* CompareView::createBar() {
    auto* bar_widget = new QWidget(this);
    auto* bar = new FlowLayout(bar_widget);
    presets_label_ = new QLabel(this);
    const char* preset_names[] = {"comparePresetCausal", "comparePresetHeads",
                                  "comparePresetDropout"};
    for (int k = 0; k < 3; ++k) {
        presets_[std::size_t(k)] = new QPushButton(this);
        presets_[std::size_t(k)]->setObjectName(QLatin1String(preset_names[k]));
    }
    presets_box_ = add_group(bar, {presets_label_, presets_[0], presets_[1], presets_[2]});
    head_label_ = new QLabel(this);
    head_combo_ = combo(this, "compareHeadCombo");
    head_label_->setBuddy(head_combo_);
    add_group(bar, {head_label_, head_combo_});
    edit_toggle_ = new QToolButton(this);
    edit_toggle_->setObjectName(QStringLiteral("compareEditToggle"));
    edit_toggle_->setCheckable(true);
    // Closed at first: the presets are what a class needs most, and the figure keeps the room.
    edit_toggle_->setChecked(false);
    edit_toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(edit_toggle_);
    return bar_widget;
}

/// The editor: what B changes.  "Same as A" keeps following A.  Hidden until Edit B.
QWidget* CompareView::createEditor() {
    editor_ = new QWidget(this);
    editor_->setObjectName(QStringLiteral("compareEditor"));
    auto* flow = new FlowLayout(editor_);
    editor_title_ = new QLabel(editor_);
    QFont bold = editor_title_->font();
    bold.setBold(true);
    editor_title_->setFont(bold);
    flow->addWidget(editor_title_);
    createLayerFields();
    // Made before the model's fields: that is its place in the tab order.
    reset_ = new QPushButton(editor_);
    reset_->setObjectName(QStringLiteral("compareResetButton"));
    layer_fields_ = {add_group(flow, {causal_}, &causal_label_),
                     add_group(flow, {heads_}, &heads_label_),
                     add_group(flow, {dropout_, dropout_p_}, &dropout_label_),
                     add_group(flow, {scoring_}, &scoring_label_),
                     add_group(flow, {masked_rows_}, &masked_rows_label_),
                     add_group(flow, {bias_}, &bias_label_),
                     add_group(flow, {positional_}, &positional_label_),
                     add_group(flow, {weight_seed_}, &weight_seed_label_)};
    createModelFields(flow);
    flow->addWidget(reset_);
    editor_->hide();
    return editor_;
}

/// The demo layer's settings B may change (their labels come with createEditor()).
void CompareView::createLayerFields() {
    causal_ = combo(editor_, "compareCausalCombo");
    heads_ = combo(editor_, "compareHeadsCombo");
    dropout_ = combo(editor_, "compareDropoutCombo");
    dropout_p_ = new QDoubleSpinBox(editor_);
    dropout_p_->setObjectName(QStringLiteral("compareDropoutSpin"));
    dropout_p_->setRange(0.0, AttentionDocument::kMaxDropout);
    dropout_p_->setSingleStep(0.05);
    dropout_p_->setDecimals(2);
    dropout_p_->setPrefix(QStringLiteral("p = "));
    scoring_ = combo(editor_, "compareScoringCombo");
    masked_rows_ = combo(editor_, "compareMaskedRowsCombo");
    bias_ = combo(editor_, "compareBiasCombo");
    positional_ = combo(editor_, "comparePositionalCombo");
    weight_seed_ = new QSpinBox(editor_);
    weight_seed_->setObjectName(QStringLiteral("compareWeightSeedSpin"));
    weight_seed_->setRange(kSame, AttentionDocument::kMaxSeed);
}

/// A trained model's: B's layer, head and sentence, or B's maps file for maps read from one.
void CompareView::createModelFields(QLayout* flow) {
    layer_ = new QSpinBox(editor_);
    layer_->setObjectName(QStringLiteral("compareLayerSpin"));
    layer_->setRange(0, 1);
    layer_->setKeyboardTracking(false);
    other_head_ = combo(editor_, "compareOtherHeadCombo");
    text_ = new QLineEdit(editor_);
    text_->setObjectName(QStringLiteral("compareTextEdit"));
    text_->setClearButtonEnabled(true);
    text_->setMinimumWidth(260);
    text_box_ = add_group(flow, {text_}, &text_label_);
    maps_file_ = new QLabel(editor_);
    maps_file_->setObjectName(QStringLiteral("compareMapsFile"));
    maps_button_ = new QPushButton(editor_);
    maps_button_->setObjectName(QStringLiteral("compareMapsButton"));
    maps_box_ = add_group(flow, {maps_file_, maps_button_}, &maps_label_);
    model_fields_ = {add_group(flow, {layer_}, &layer_label_),
                     add_group(flow, {other_head_}, &other_head_label_), text_box_, maps_box_};
}

/// The presets, the head chooser, the editor's fields and the canvas.
void CompareView::connectControls() {
    for (int k = 0; k < 3; ++k)
        connect(presets_[std::size_t(k)], &QPushButton::clicked, this,
                [this, k] { applyPreset(ComparePreset(k)); });
    connect(maps_button_, &QPushButton::clicked, this, &CompareView::chooseMapsRequested);
    connect(edit_toggle_, &QToolButton::toggled, editor_, &QWidget::setVisible);
    connect(head_combo_, &QComboBox::activated, this,
            [this](int index) { doc_->setCompareHead(head_combo_->itemData(index).toInt()); });
    for (QComboBox* c : {causal_, heads_, dropout_, scoring_, masked_rows_, bias_, positional_})
        connect(c, &QComboBox::activated, this, &CompareView::writeChanges);
    connect(dropout_p_, &QDoubleSpinBox::valueChanged, this, &CompareView::writeChanges);
    connect(weight_seed_, &QSpinBox::valueChanged, this, &CompareView::writeChanges);
    connect(layer_, &QSpinBox::valueChanged, this, &CompareView::writeChanges);
    connect(other_head_, &QComboBox::activated, this, &CompareView::writeChanges);
    connect(text_, &QLineEdit::editingFinished, this, &CompareView::writeChanges);
    connect(reset_, &QPushButton::clicked, this, [this] { doc_->setCompareChanges({}); });
    connect(canvas_, &FigureCanvas::mouseMoved, this, &CompareView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, &CompareView::clearHover);
}

/// B follows what the document says it changes, and A's own settings.
void CompareView::connectDocument() {
    connect(doc_, &AttentionDocument::compareChanged, this, &CompareView::followCompare);
    // A's own settings show in the editor ("same as A (4)") and decide the valid head counts.
    connect(doc_, &AttentionDocument::computeConfigChanged, this, &CompareView::syncEditor);
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &CompareView::sync);
}

void CompareView::applyPreset(ComparePreset preset) {
    if (!doc_->applyComparePreset(preset)) {
        status_->setText(doc_->validationMessage());
        status_->show();
    }
}

void CompareView::clearHover() {
    figure()->setHover({});
    hover_text_.clear();
    canvas_->update();
    emit hovered(QString());
}

void CompareView::followCompare() {
    syncEditor();
    requestB();
    sync();
}

CompareView::~CompareView() = default;

CompareFigure* CompareView::figure() const {
    return static_cast<CompareFigure*>(canvas_->figure());
}

void CompareView::retranslate() {
    presets_label_->setText(tr("Compare:"));
    presets_[std::size_t(ComparePreset::Causal)]->setText(tr("Without vs with causal mask"));
    presets_[std::size_t(ComparePreset::Causal)]->setToolTip(
        tr("A without the causal mask, B with it: what a language model may not look at"));
    presets_[std::size_t(ComparePreset::Heads)]->setText(tr("4 vs 8 heads"));
    presets_[std::size_t(ComparePreset::Heads)]->setToolTip(
        tr("A with 4 heads, B with 8, compared on the mean over heads"));
    presets_[std::size_t(ComparePreset::Dropout)]->setText(tr("Dropout off vs on, same seed"));
    presets_[std::size_t(ComparePreset::Dropout)]->setToolTip(
        tr("A in evaluation mode, B training with dropout: the dropped weights become 0 and "
           "the others grow by 1/(1 − p)"));
    head_label_->setText(tr("Sh&ow:"));
    edit_toggle_->setText(tr("E&dit B"));
    edit_toggle_->setToolTip(tr("Show or hide the settings B changes"));
    editor_title_->setText(tr("B = A with:"));
    causal_label_->setText(tr("Causal mask"));
    heads_label_->setText(tr("Heads"));
    dropout_label_->setText(tr("Dropout"));
    dropout_p_->setToolTip(tr("B's dropout probability; B keeps A's dropout seed"));
    scoring_label_->setText(tr("Scoring"));
    masked_rows_label_->setText(tr("Fully masked rows"));
    bias_label_->setText(tr("Bias"));
    positional_label_->setText(tr("Positional encoding"));
    weight_seed_label_->setText(tr("Weight seed"));
    layer_label_->setText(tr("Layer"));
    layer_->setToolTip(tr("B shows this layer of the model"));
    other_head_label_->setText(tr("Head"));
    other_head_->setToolTip(
        tr("B shows this head, against the head A shows (Show, above): two heads of one "
           "layer, or of two layers"));
    text_label_->setText(tr("Sentence"));
    text_->setPlaceholderText(tr("Same as A"));
    text_->setToolTip(
        tr("B runs the model on this sentence; with as many tokens as A's, the two are "
           "compared token by token (swap one word)"));
    maps_label_->setText(tr("Maps"));
    maps_button_->setText(tr("Choose…"));
    maps_button_->setToolTip(
        tr("B's attention maps: another file with the same layers, heads and tokens count, e.g. "
           "another checkpoint on the same text"));
    reset_->setText(tr("B = A"));
    reset_->setToolTip(tr("Undo every change of B"));
    syncEditor();
    syncHeads();
    syncStatus();
}

void CompareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void CompareView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    requestB();
}

// --- B ------------------------------------------------------------------------------------

void CompareView::setSnapshot(SnapshotPtr snapshot) {
    a_ = std::move(snapshot);
    if (b_ && a_ && b_->config != compared_config(a_->config, doc_->compare().changes)) b_.reset();
    requestB();
    syncEditor();  // a model's layers and heads are known now
}

int CompareView::comparedHeads() const {
    if (a_ && a_->model) return a_->heads;
    const ComputeConfig a = a_ ? a_->config : doc_->computeConfig();
    return compared_config(a, doc_->compare().changes).num_heads;
}

void CompareView::requestB() {
    // Only a shown view computes B: a class that never opens the tab pays nothing for it.
    if (!a_ || !isVisible()) return;
    const CompareChanges& changes = doc_->compare().changes;
    problem_ = compare_problem(a_->config, changes);
    if (problem_.isEmpty())
        problem_ = compare_size_problem(std::size_t(a_->target_len), std::size_t(a_->source_len));
    if (problem_.isEmpty() && changes.maps) {  // a session's B may no longer fit A (headers only)
        try {
            check_compared_maps(a_->config, compared_config(a_->config, changes));
        } catch (const std::exception& e) {
            problem_ = tr("B cannot be compared: %1").arg(error_text(e));
        }
    }
    figure()->setProblem(problem_);
    if (!problem_.isEmpty()) {
        b_.reset();
        showPair(a_, nullptr);
        return;
    }
    const ComputeConfig want = compared_config(a_->config, changes);
    if (want == a_->config) {
        b_ = a_;  // nothing to compute: B is A (or another head of it)
        showPair(a_, b_);
        return;
    }
    if (b_ && b_->config == want) {
        showPair(a_, b_);
        return;
    }
    if (!compute_) {
        compute_ = new ComputeController(this);
        compute_->setObjectName(QStringLiteral("compareCompute"));
        if (budget_) compute_->setMemoryBudget(*budget_);
        connect(compute_, &ComputeController::resultReady, this, &CompareView::onResult);
        connect(compute_, &ComputeController::failed, this, &CompareView::onFailed);
        connect(compute_, &ComputeController::busyChanged, this, &CompareView::syncStatus);
    }
    if (std::exchange(request_again_, false)) {
        compute_->requestAgain(want);
    } else if (const SnapshotPtr latest = compute_->latest(); latest && latest->config == want) {
        onResult(latest);
        return;
    } else {
        compute_->request(want);  // nothing new if this B is already on its way
    }
    if (!compute_->isBusy() && !compute_->lastError().isEmpty()) onFailed(compute_->lastError());
    syncStatus();
}

void CompareView::onResult(const SnapshotPtr& b) {
    if (!a_ || !b || b->config != compared_config(a_->config, doc_->compare().changes))
        return;  // B of an older A: the newer one is on its way
    b_ = b;
    problem_.clear();
    figure()->setProblem({});
    showPair(a_, b_);
}

void CompareView::onFailed(const QString& message) {
    b_.reset();  // an older B is not this one
    problem_ = tr("B cannot be computed: %1").arg(message);
    figure()->setProblem(problem_);
    showPair(a_, nullptr);
}

void CompareView::showPair(SnapshotPtr a, SnapshotPtr b) {
    figure()->setSnapshot(std::move(a));
    figure()->setCompared(std::move(b));
    syncHeads();
    syncStatus();
    sync();
}

std::function<SnapshotPtr()> CompareView::comparedFor(const SnapshotPtr& a) const {
    if (!a) return [] { return SnapshotPtr(); };
    if (const QString big =
            compare_size_problem(std::size_t(a->target_len), std::size_t(a->source_len));
        !big.isEmpty())
        throw UsageError(big.toStdString());
    const CompareChanges& changes = doc_->compare().changes;
    if (changes.empty() && compare_problem(a->config, changes).isEmpty()) return [a] { return a; };
    if (b_ && b_ != a && b_->config == compared_config(a->config, changes))
        return [b = b_] { return b; };
    // Copies only: the computation may run on another thread while the view changes.
    return [config = a->config, changes, budget = budget_] {
        return compute_compared(config, changes, 1, nullptr, worker_threads(),
                                budget ? &*budget : nullptr);
    };
}

void CompareView::setMemoryBudget(const budget::MemoryBudget& budget) {
    const bool changed = !budget_ || budget_->bytes != budget.bytes;
    budget_ = budget;
    if (!compute_ || !changed) return;
    compute_->setMemoryBudget(budget);
    if (compute_->requestedGeneration() == 0) return;
    b_.reset();
    request_again_ = true;
    requestB();
}

bool CompareView::isComputing() const {
    return compute_ && compute_->isBusy();
}

// --- widgets ------------------------------------------------------------------------------

void CompareView::setPresentation(int font_px, bool high_contrast) {
    font_px_ = font_px;
    high_contrast_ = high_contrast;
    // Presenting: B's editor is an advanced control; the presets and the head stay, on one
    // line at the presentation size (the buttons say what they compare without the label).
    edit_toggle_->setVisible(!high_contrast);
    presets_label_->setVisible(!high_contrast);
    editor_->setVisible(!high_contrast && edit_toggle_->isChecked());
    sync();
}

void CompareView::sync() {
    const CompareSettings& s = doc_->compare();
    FigureOptions o = doc_->figureOptions();
    o.kind = FigureKind::Compare;
    o.view = s.head < 0 ? FigureView::Mean : FigureView::Head;
    o.head = std::max(0, s.head);
    o.compare_b_head = s.changes.head ? *s.changes.head : -2;
    o.font_px = font_px_ > 0 ? font_px_ : QFontInfo(font()).pixelSize();
    o.high_contrast = high_contrast_;
    figure()->setOptions(o);
    canvas_->relayout();
    if (figure()->hover().row >= 0) {
        hover_text_ = figure()->describe(figure()->hover());
        emit hovered(hover_text_);
    }
}

void CompareView::syncHeads() {
    const QSignalBlocker blocker(head_combo_);
    const int ha = a_ ? a_->heads : doc_->numHeads();
    const int hb = b_ ? b_->heads : comparedHeads();
    head_combo_->clear();
    head_combo_->addItem(tr("Mean over heads"), -1);
    for (int h = 0; h < std::max(ha, hb); ++h) {
        if (h < std::min(ha, hb))
            head_combo_->addItem(tr("Head %1").arg(h + 1), h);
        else
            head_combo_->addItem(
                (h < ha ? tr("Head %1 (only in A)") : tr("Head %1 (only in B)")).arg(h + 1), h);
    }
    const int head = doc_->compare().head;
    if (head_combo_->findData(head) < 0 && head >= 0)
        head_combo_->addItem(tr("Head %1").arg(head + 1), head);
    select(head_combo_, head);
}

void CompareView::stepHead(int delta) {
    const int ha = a_ ? a_->heads : doc_->numHeads();
    const int both = std::min(ha, comparedHeads());
    // Positions 0..both: the mean, then head 1 to `both`.
    int pos = doc_->compare().head + 1;
    if (pos > both) pos = 0;
    pos = ((pos + delta) % (both + 1) + both + 1) % (both + 1);
    doc_->setCompareHead(pos - 1);
}

void CompareView::syncStatus() {
    QString text;
    QString style;
    if (!problem_.isEmpty()) {
        text = problem_;
        style = QStringLiteral("color: #b2182b;");
    } else if (doc_->compare().changes.empty()) {
        text =
            tr("B is the same as A: pick a comparison above, or choose what B changes with "
               "Edit B.");
    } else if (isComputing() && (!b_ || b_ == a_)) {
        text = tr("Computing configuration B…");
    }
    status_->setStyleSheet(style);
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
}

void CompareView::syncEditor() {
    const QScopedValueRollback<bool> guard(syncing_, true);
    const ComputeConfig& a = doc_->computeConfig();
    const CompareChanges& ch = doc_->compare().changes;
    const QString on = tr("on"), off = tr("off");
    auto same = [&](const QString& value) { return tr("Same as A (%1)").arg(value); };
    auto fill = [&](QComboBox* c, const QList<std::pair<QString, int>>& items, int current) {
        const QSignalBlocker b(c);
        c->clear();
        for (const auto& [label, value] : items)
            c->addItem(label, value);
        select(c, current);
    };
    fill(causal_, {{same(a.causal ? on : off), kSame}, {tr("On"), 1}, {tr("Off"), 0}},
         data_of(ch.causal));
    QList<std::pair<QString, int>> heads{{same(QString::number(a.num_heads)), kSame}};
    for (int h : AttentionDocument::validHeadCounts(a.embed_dim))
        heads.append({QString::number(h), h});
    // A head count that no longer divides embed_dim stays visible (and is reported).
    if (ch.num_heads && !AttentionDocument::validHeadCounts(a.embed_dim).contains(*ch.num_heads))
        heads.append({QString::number(*ch.num_heads), *ch.num_heads});
    fill(heads_, heads, data_of(ch.num_heads));
    const bool a_drops = a.training && a.dropout > 0.0;
    fill(dropout_,
         {{same(a_drops ? tr("on, p = %1").arg(a.dropout) : off), kSame},
          {tr("Off (evaluation)"), 0},
          {tr("On (training, A's seed)"), 1}},
         data_of(ch.training));
    {
        const QSignalBlocker b(dropout_p_);
        dropout_p_->setValue(ch.dropout ? *ch.dropout : (a.dropout > 0.0 ? a.dropout : 0.1));
        dropout_p_->setEnabled(ch.training.value_or(false));
    }
    fill(scoring_,
         {{same(a.scoring == Scoring::Additive ? tr("additive") : tr("dot product")), kSame},
          {tr("Scaled dot product"), int(Scoring::ScaledDotProduct)},
          {tr("Additive"), int(Scoring::Additive)}},
         data_of(ch.scoring));
    QList<std::pair<QString, int>> policies{
        {same(QLatin1String(masked_row_policy_name(a.masked_rows))), kSame}};
    for (MaskedRowPolicy p :
         {MaskedRowPolicy::Zero, MaskedRowPolicy::Uniform, MaskedRowPolicy::NaN})
        policies.append({QLatin1String(masked_row_policy_name(p)), int(p)});
    fill(masked_rows_, policies, data_of(ch.masked_rows));
    fill(bias_, {{same(a.bias ? on : off), kSame}, {tr("On"), 1}, {tr("Off"), 0}},
         data_of(ch.bias));
    fill(positional_,
         {{same(a.positional_encoding ? on : off), kSame}, {tr("On"), 1}, {tr("Off"), 0}},
         data_of(ch.positional_encoding));
    {
        const QSignalBlocker b(weight_seed_);
        weight_seed_->setSpecialValueText(same(QString::number(a.weight_seed)));
        weight_seed_->setValue(ch.weight_seed ? *ch.weight_seed : kSame);
    }
    // A model: its layer, head and sentence instead of the demo layer's settings.
    const bool model = a.usesModel();
    const ModelMaps* maps = a_ && a_->model ? a_->model.get() : nullptr;
    for (QWidget* w : layer_fields_)
        w->setVisible(!model);
    for (QWidget* w : model_fields_)
        w->setVisible(model);
    // Maps read from a file: another file instead of another sentence.
    text_box_->setVisible(model && !a.usesMaps());
    maps_box_->setVisible(a.usesMaps());
    maps_file_->setText(ch.maps ? QFileInfo(*ch.maps).fileName()
                                : same(QFileInfo(a.model_folder).fileName()));
    maps_file_->setToolTip(ch.maps ? QDir::toNativeSeparators(*ch.maps) : QString());
    presets_box_->setVisible(!model);
    {
        const QSignalBlocker b(layer_);
        layer_->setRange(0, maps ? maps->num_layers : std::max(1, a.layer + 1));
        layer_->setSpecialValueText(same(QString::number(a.layer + 1)));
        layer_->setValue(ch.layer ? *ch.layer + 1 : 0);
    }
    {
        QList<std::pair<QString, int>> model_heads{{tr("Same as A's"), kSame}};
        for (int h = 0; h < (maps ? maps->heads_kept : 0); ++h)
            model_heads.append({tr("Head %1").arg(h + 1), h});
        if (ch.head && model_heads.size() <= *ch.head + 1)
            model_heads.append({tr("Head %1").arg(*ch.head + 1), *ch.head});
        fill(other_head_, model_heads, data_of(ch.head));
    }
    if (!text_->hasFocus()) {
        const QSignalBlocker b(text_);
        text_->setText(ch.text.value_or(QString()));
    }
    reset_->setEnabled(!ch.empty());
    syncHeads();
    syncStatus();
}

void CompareView::writeChanges() {
    if (syncing_) return;
    auto flag = [](QComboBox* c) -> std::optional<bool> {
        const int v = c->currentData().toInt();
        if (v == kSame) return std::nullopt;
        return v != 0;
    };
    CompareChanges ch;
    ch.causal = flag(causal_);
    if (const int h = heads_->currentData().toInt(); h != kSame) ch.num_heads = h;
    ch.training = flag(dropout_);
    // B's p matters only when B trains; otherwise it stays A's.
    if (ch.training.value_or(false)) ch.dropout = std::round(dropout_p_->value() * 1000.0) / 1000.0;
    if (const int s = scoring_->currentData().toInt(); s != kSame) ch.scoring = Scoring(s);
    if (const int p = masked_rows_->currentData().toInt(); p != kSame)
        ch.masked_rows = MaskedRowPolicy(p);
    ch.bias = flag(bias_);
    ch.positional_encoding = flag(positional_);
    if (weight_seed_->value() != kSame) ch.weight_seed = weight_seed_->value();
    if (doc_->computeConfig().usesModel()) {
        if (layer_->value() > 0) ch.layer = layer_->value() - 1;
        if (const int h = other_head_->currentData().toInt(); h != kSame) ch.head = h;
        if (const QString t = text_->text();
            !doc_->computeConfig().usesMaps() && !t.trimmed().isEmpty() && t != doc_->textA())
            ch.text = t;
        ch.maps = doc_->compare().changes.maps;  // chosen with Choose…, not edited here
        ch.maps_tokens = doc_->compare().changes.maps_tokens;
    }
    doc_->setCompareChanges(ch);
}

void CompareView::hoverAt(const QPointF& pos) {
    CompareFigure* f = figure();
    const CompareFigure::Hit hit = f->hitTest(pos);
    const CompareFigure::Hit old = f->hover();
    if (hit.row == old.row && hit.col == old.col) return;
    f->setHover(hit);
    hover_text_ = f->describe(hit);
    canvas_->update();
    emit hovered(hover_text_);
}

}  // namespace attnviz::ui
