#include "ui/classroom/steps_view.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/classroom/figure_canvas.h"
#include "ui/classroom/steps_figure.h"
#include "ui/classroom/whole_model_view.h"
#include "ui/document/attention_document.h"
#include "ui/widgets/wrapping_row_layout.h"

namespace attnviz::ui {

StepsView::StepsView(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("stepsView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->setSpacing(4);
    // Bars that wrap where the page is narrower than one row of them (presenting, a model's
    // mode buttons beside the step's).
    auto* top = new WrappingRowLayout;
    top->setSpacing(0);
    // One layer's computation, or the whole model at one token (a model's only).
    one_layer_ = new QToolButton(this);
    one_layer_->setObjectName(QStringLiteral("stepsOneLayer"));
    whole_button_ = new QToolButton(this);
    whole_button_->setObjectName(QStringLiteral("stepsWholeModel"));
    auto* modes = new QButtonGroup(this);
    for (QToolButton* b : {one_layer_, whole_button_}) {
        b->setCheckable(true);
        b->setAutoRaise(false);
        modes->addButton(b);
        top->addWidget(b);
    }
    top->addSpacing(16);
    layer_bar_ = new QWidget(this);
    auto* bar = new WrappingRowLayout(layer_bar_);
    bar->setContentsMargins(0, 0, 0, 0);
    top->addWidget(layer_bar_, 1);
    top->addStretch(0);  // the mode buttons stay left when the layer's bar is hidden
    prev_ = new QToolButton(this);
    prev_->setObjectName(QStringLiteral("stepBack"));
    next_ = new QToolButton(this);
    next_->setObjectName(QStringLiteral("stepForward"));
    step_label_ = new QLabel(this);
    step_label_->setObjectName(QStringLiteral("stepLabel"));
    head_label_ = new QLabel(this);
    head_combo_ = new QComboBox(this);
    head_combo_->setObjectName(QStringLiteral("stepsHeadCombo"));
    all_box_ = new QCheckBox(this);
    all_box_->setObjectName(QStringLiteral("stepsAllBox"));
    focus_box_ = new QCheckBox(this);
    focus_box_->setObjectName(QStringLiteral("stepsFocusBox"));
    bar->addWidget(prev_);
    bar->addWidget(step_label_);
    bar->addWidget(next_);
    bar->addSpacing(16);
    bar->addWidget(head_label_);
    bar->addWidget(head_combo_);
    bar->addSpacing(16);
    bar->addWidget(all_box_);
    bar->addWidget(focus_box_);
    bar->addStretch(1);
    layout->addLayout(top);

    auto steps = std::make_unique<StepsFigure>();
    steps->setInteractive(true);
    canvas_ = new FigureCanvas(std::move(steps), this);
    canvas_->setObjectName(QStringLiteral("stepsCanvas"));
    canvas_->setFocusPolicy(Qt::StrongFocus);
    whole_ = new WholeModelView(doc_, this);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(canvas_);
    pages_->addWidget(whole_);
    layout->addWidget(pages_, 1);
    setFocusProxy(canvas_);
    retranslate();

    connect(one_layer_, &QToolButton::clicked, this, [this] { doc_->setWholeModel(false); });
    connect(whole_button_, &QToolButton::clicked, this, [this] { doc_->setWholeModel(true); });
    connect(whole_, &WholeModelView::hovered, this, &StepsView::hovered);

    connect(prev_, &QToolButton::clicked, this, [this] { stepBy(-1); });
    connect(next_, &QToolButton::clicked, this, [this] { stepBy(1); });
    connect(head_combo_, &QComboBox::activated, this,
            [this](int index) { doc_->setView(FigureView::Head, index); });
    connect(all_box_, &QCheckBox::toggled, this, [this](bool on) {
        const int count = figure()->model().count();
        doc_->setStep(on ? -1 : std::max(0, count - 1));
    });
    connect(focus_box_, &QCheckBox::toggled, doc_, &AttentionDocument::setStepFocus);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &StepsView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] {
        figure()->setHover(-1, -1, -1);
        hover_text_.clear();
        canvas_->update();
        emit hovered(QString());
    });
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &StepsView::sync);
    sync();
}

StepsFigure* StepsView::figure() const {
    return static_cast<StepsFigure*>(canvas_->figure());
}

void StepsView::retranslate() {
    one_layer_->setText(tr("One layer"));
    one_layer_->setToolTip(tr("Every step of one attention layer, for every token at once"));
    whole_button_->setText(tr("Whole model"));
    whole_button_->setToolTip(
        tr("Every step of the model at one token, from its embedding to the next token"));
    prev_->setText(tr("◀ Back"));
    prev_->setToolTip(tr("Previous step (Left arrow)"));
    next_->setText(tr("Next ▶"));
    next_->setToolTip(tr("Next step (Right arrow)"));
    head_label_->setText(tr("Head:"));
    all_box_->setText(tr("Every step at once"));
    focus_box_->setText(tr("Only this step and its inputs"));
    focus_box_->setToolTip(
        tr("Show the current step large, next to the matrices it is "
           "computed from (good for the back of the room)"));
    sync();
}

void StepsView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void StepsView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    figure()->setSnapshot(snapshot_);
    whole_->setSnapshot(snapshot_);
    sync();
}

void StepsView::setPresentation(int font_px, bool high_contrast) {
    font_px_ = font_px;
    high_contrast_ = high_contrast;
    whole_->setPresentation(font_px, high_contrast);
    sync();
}

void StepsView::sync() {
    // The whole model is a model's: the demo layer and maps from a file have one layer.
    const ComputeConfig& c = doc_->computeConfig();
    const bool model = c.usesModel() && !c.usesMaps();
    const bool whole = model && doc_->wholeModel();
    one_layer_->setVisible(model);
    whole_button_->setVisible(model);
    one_layer_->setChecked(!whole);
    whole_button_->setChecked(whole);
    layer_bar_->setVisible(!whole);
    pages_->setCurrentIndex(whole ? 1 : 0);
    setFocusProxy(whole ? static_cast<QWidget*>(whole_) : canvas_);
    // The one layer's figure waits, hidden, until its mode comes back (this runs again then).
    if (whole) return;
    FigureOptions o = doc_->figureOptions();
    o.kind = FigureKind::Steps;
    o.font_px = font_px_ > 0 ? font_px_ : QFontInfo(font()).pixelSize();
    o.high_contrast = high_contrast_;
    // Presenting: twelve cards do not fit labels readable from the back of the room, so
    // only the current step and its inputs are shown.
    if (high_contrast_) o.focus = true;
    figure()->setOptions(o);
    canvas_->relayout();
    const StepsFigure* f = figure();
    const int count = f->model().count();
    const bool all = doc_->step() < 0;
    if (count == 0)
        step_label_->setText(QString());
    else if (all)
        step_label_->setText(tr("All %1 steps").arg(count));
    else
        step_label_->setText(tr("Step %1 of %2").arg(f->currentStep() + 1).arg(count));
    prev_->setEnabled(count > 0 && (all || f->currentStep() > 0));
    next_->setEnabled(count > 0 && !all && f->currentStep() < count - 1);
    {
        const QSignalBlocker b(head_combo_);
        // A model's heads (with the key/value head each reads under grouped-query attention),
        // or the demo layer's.
        const StepsModel& sm = f->model();
        const int heads = sm.layer >= 0 ? sm.heads : doc_->numHeads();
        const int group = sm.layer >= 0 && sm.kv_heads < sm.heads ? sm.heads / sm.kv_heads : 0;
        QStringList names;
        for (int h = 0; h < heads; ++h)
            names << (group > 0 ? tr("Head %1 · key/value head %2").arg(h + 1).arg(h / group + 1)
                                : tr("Head %1").arg(h + 1));
        if (head_combo_->count() != heads || head_combo_->itemText(0) != names.value(0)) {
            head_combo_->clear();
            head_combo_->addItems(names);
        }
        head_combo_->setCurrentIndex(std::min(doc_->viewHead(), heads - 1));
    }
    {
        const QSignalBlocker b(all_box_);
        all_box_->setChecked(all);
    }
    {
        const QSignalBlocker b(focus_box_);
        focus_box_->setChecked(doc_->stepFocus());
        focus_box_->setEnabled(!all);
    }
    if (f->hover().stage >= 0) {
        hover_text_ = f->describe(f->hover());
        emit hovered(hover_text_);
    }
}

void StepsView::stepBy(int delta) {
    const int count = figure()->model().count();
    if (count == 0) return;
    int step = doc_->step();
    if (step < 0)
        step = delta > 0 ? 0 : count - 1;
    else
        step = std::clamp(std::min(step, count - 1) + delta, 0, count - 1);
    doc_->setStep(step);
}

void StepsView::hoverAt(const QPointF& pos) {
    StepsFigure* f = figure();
    const StepsFigure::Hit hit = f->hitTest(pos);
    const StepsFigure::Hit old = f->hover();
    if (hit.stage == old.stage && hit.row == old.row && hit.col == old.col) return;
    f->setHover(hit.stage, hit.row, hit.col);
    hover_text_ = f->describe(hit);
    canvas_->update();
    emit hovered(hover_text_);
}

void StepsView::keyPressEvent(QKeyEvent* event) {
    if (pages_->currentWidget() == whole_) return QWidget::keyPressEvent(event);
    switch (event->key()) {
        case Qt::Key_Right:
        case Qt::Key_Space:
            stepBy(1);
            return;
        case Qt::Key_Left:
        case Qt::Key_Backspace:
            stepBy(-1);
            return;
        case Qt::Key_Home:
            doc_->setStep(0);
            return;
        case Qt::Key_End:
            doc_->setStep(-1);
            return;
        default:
            QWidget::keyPressEvent(event);
    }
}

}  // namespace attnviz::ui
