#include "ui/model/dla_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "engine/errors.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/shipped_models.h"
#include "ui/model/vocabulary_completer.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
/// The pause after a keystroke in a token box before the attribution runs.
constexpr int kTypingPauseMs = 300;
/// The saliency strip takes at most this share of the tab's height: the map keeps the rest.
constexpr double kStripShare = 0.35;

/// The model's most likely next token at `piece`, as the window's pass predicted it (the
/// intact model's when heads are knocked out: knocking a head out shows what it did for the
/// same token); nullopt when the pass has no prediction there.
std::optional<std::int64_t> predicted_token(const ModelPass& pass, int piece) {
    const ModelPredictions* p =
        (pass.knocked_out.empty() ? pass.predictions : pass.intact_predictions).get();
    if (!p) return std::nullopt;
    for (std::size_t k = 0; k < p->positions.size() && k < p->top.size(); ++k)
        if (p->positions[k] == piece && !p->top[k].empty()) return p->top[k].front().id;
    return std::nullopt;
}

/// The options every export of the tab draws with.
FigureOptions export_options() {
    FigureOptions options;
    options.font_px = 14;
    return options;
}

/// The figure of `result` and the strip of `saliency` (may be null) for `path` (its format from
/// the suffix), as every export draws it.
RenderedFigure render_dla_figure(const DlaResult& result, const SaliencyResult* saliency,
                                 const QString& path) {
    DlaFigure figure;
    figure.setResult(&result);
    figure.setSaliency(saliency);
    figure.setOptions(export_options());
    return render_painted_figure(figure, ExportSize{}, path);
}
}  // namespace

DlaView::DlaView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("dlaView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 6, 8, 4);
    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("dlaPlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    v->addWidget(placeholder_, 1);
    v->addWidget(createControls());
    auto strip = std::make_unique<SaliencyFigure>();
    sal_figure_ = strip.get();
    sal_figure_->setCompact(true);
    sal_canvas_ = new FigureCanvas(std::move(strip), this);
    sal_canvas_->setObjectName(QStringLiteral("saliencyCanvas"));
    sal_canvas_->setMouseTracking(true);
    sal_canvas_->hide();
    v->addWidget(sal_canvas_);
    auto figure = std::make_unique<DlaFigure>();
    figure_ = figure.get();
    canvas_ = new FigureCanvas(std::move(figure), this);
    canvas_->setObjectName(QStringLiteral("dlaCanvas"));
    v->addWidget(canvas_, 1);
    typing_ = new QTimer(this);
    typing_->setSingleShot(true);
    connectControls();
    retranslate();
}

DlaView::~DlaView() = default;

/// The token in focus, the target and the distractor with their ids, Export, and the line that
/// says what is wrong (red).
QWidget* DlaView::createControls() {
    controls_ = new QWidget(this);
    auto* v = new QVBoxLayout(controls_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    position_label_ = new QLabel(controls_);
    target_label_ = new QLabel(controls_);
    distractor_label_ = new QLabel(controls_);
    position_ = new TokenFocusCombo(QStringLiteral("dlaPosition"), controls_);
    target_ = new QLineEdit(controls_);
    target_->setObjectName(QStringLiteral("dlaTarget"));
    distractor_ = new QLineEdit(controls_);
    distractor_->setObjectName(QStringLiteral("dlaDistractor"));
    target_id_ = new QLabel(controls_);
    target_id_->setObjectName(QStringLiteral("dlaTargetId"));
    distractor_id_ = new QLabel(controls_);
    distractor_id_->setObjectName(QStringLiteral("dlaDistractorId"));
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("dlaExport"));
    export_->setEnabled(false);
    row->addWidget(position_label_);
    row->addWidget(position_);
    row->addSpacing(12);
    row->addWidget(target_label_);
    row->addWidget(target_, 1);
    row->addWidget(target_id_);
    row->addSpacing(12);
    row->addWidget(distractor_label_);
    row->addWidget(distractor_, 1);
    row->addWidget(distractor_id_);
    row->addSpacing(12);
    row->addWidget(export_);
    v->addLayout(row);
    // The saliency: a method, its steps, and progress with Cancel while it computes.
    auto* second = new QHBoxLayout;
    saliency_label_ = new QLabel(controls_);
    method_ = new QComboBox(controls_);
    method_->setObjectName(QStringLiteral("saliencyMethod"));
    method_->addItems({QString(), QString(), QString()});
    steps_label_ = new QLabel(controls_);
    steps_ = new QComboBox(controls_);
    steps_->setObjectName(QStringLiteral("saliencySteps"));
    for (const int n : kSaliencyStepChoices)
        steps_->addItem(QString::number(n), n);
    steps_->setCurrentIndex(steps_->findData(kDefaultSaliencySteps));
    progress_ = new QProgressBar(controls_);
    progress_->setObjectName(QStringLiteral("saliencyProgress"));
    progress_->setMaximumWidth(220);
    cancel_ = new QPushButton(controls_);
    cancel_->setObjectName(QStringLiteral("saliencyCancel"));
    second->addWidget(saliency_label_);
    second->addWidget(method_);
    second->addSpacing(12);
    second->addWidget(steps_label_);
    second->addWidget(steps_);
    second->addSpacing(12);
    second->addWidget(progress_);
    second->addWidget(cancel_);
    second->addStretch(1);
    v->addLayout(second);
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("dlaMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b2182b;"));
    message_->hide();
    v->addWidget(message_);
    note_ = new QLabel(controls_);
    note_->setObjectName(QStringLiteral("dlaSaliencyOnlyNote"));
    note_->setWordWrap(true);
    note_->hide();
    v->addWidget(note_);
    return controls_;
}

/// The boxes check (and run once typing pauses), Enter runs, the canvas hovers.
void DlaView::connectControls() {
    connect(position_, &QComboBox::activated, this, [this](int index) {
        position_->setChosen(index);
        check();
        schedule(0);
    });
    for (QLineEdit* e : {target_, distractor_}) {
        connect(e, &QLineEdit::textChanged, this, [this] {
            check();
            schedule(kTypingPauseMs);
        });
        connect(e, &QLineEdit::returnPressed, this, &DlaView::run);
        e->installEventFilter(this);
    }
    connect(typing_, &QTimer::timeout, this, &DlaView::run);
    connect(export_, &QPushButton::clicked, this, &DlaView::exportDialog);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &DlaView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1, -1)); });
    // A head's cell knocks it out or restores it, as the Model mosaic's do.
    canvas_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(canvas_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QPoint at = figure_->cellAt(pos);
        if (at.x() >= 0) emit headMenuRequested(at.y(), at.x(), canvas_->mapToGlobal(pos));
    });
    connect(canvas_, &FigureCanvas::clicked, this, [this](const QPointF& pos) {
        const QPoint at = figure_->cellAt(pos);
        if (at.x() >= 0 && (QGuiApplication::keyboardModifiers() & Qt::ControlModifier))
            emit knockOutToggled(at.y(), at.x());
    });
    connect(method_, &QComboBox::currentIndexChanged, this, &DlaView::saliencyChosen);
    connect(steps_, &QComboBox::currentIndexChanged, this, &DlaView::saliencyChosen);
    connect(cancel_, &QPushButton::clicked, this, [this] { job_.cancel(); });
    connect(sal_canvas_, &FigureCanvas::mouseMoved, this, &DlaView::hoverSaliency);
    connect(sal_canvas_, &FigureCanvas::mouseLeft, this,
            [this] { hoverSaliency(QPointF(-1, -1)); });
    showSaliencyState();
}

void DlaView::retranslate() {
    position_label_->setText(tr("Token in focus:"));
    position_->setToolTip(
        tr("The token whose prediction of the next token is attributed (default: the last)"));
    target_label_->setText(tr("Target:"));
    target_->setPlaceholderText(tr("the top prediction"));
    target_->setToolTip(
        tr("The next token whose logit is split into parts: a text that is one "
           "token, or a vocabulary entry; empty: the model's top prediction"));
    distractor_label_->setText(tr("Distractor:"));
    distractor_->setPlaceholderText(tr("none"));
    distractor_->setToolTip(
        tr("A token it competes with: the parts of logit(target) − logit(distractor) instead"));
    saliency_label_->setText(tr("Saliency:"));
    method_->setItemText(SaliencyOff, tr("Off"));
    method_->setItemText(GradientTimesInput, tr("Gradient × input"));
    method_->setItemText(IntegratedGradients, tr("Integrated gradients"));
    method_->setToolTip(
        tr("Each input token's share of the same prediction, from the gradient with respect to "
           "its token embedding: one backward pass, or integrated gradients (steps + 2 passes)"));
    steps_label_->setText(tr("Steps:"));
    steps_->setToolTip(
        tr("Integrated gradients' steps along the path from the baseline: more "
           "steps close the completeness gap, each costs a pass forwards and "
           "back"));
    cancel_->setText(tr("Cancel"));
    progress_->setFormat(tr("Saliency %p%"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF) or the numbers (CSV)"));
    unavailable_ = model_ ? dla_unavailable(*model_) : QString();
    showAvailability();
    fillPositions();
    check();
    relayout();  // the figure's title and notes, in the new language
}

void DlaView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

void DlaView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();  // the strip's height follows its width (its boxes wrap)
}

bool DlaView::eventFilter(QObject* watched, QEvent* event) {
    auto* box = qobject_cast<QLineEdit*>(watched);
    if (event->type() == QEvent::FocusIn && box && !box->completer() && model_)
        box->setCompleter(vocabulary_completer(model_.get(), box));
    return QWidget::eventFilter(watched, event);
}

void DlaView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (waiting_) schedule(0);
}

void DlaView::setSource(SnapshotPtr snapshot, ModelPtr model) {
    // The writer's rows grow the maps a token at a time: the full pass after it is attributed.
    if (snapshot && snapshot->model && snapshot->model->provisional && model == model_) return;
    if (model != model_) {
        job_.drop();
        model_ = std::move(model);
        result_.reset();
        figure_->setResult(nullptr);
        saliency_.reset();
        sal_figure_->setResult(nullptr);
        saliency_running_ = false;
        showSaliencyState();
        position_->setChosen(-1);
        hover_ = QPoint(-1, -1);
        figure_->setHover(-1, -1);
        export_->setEnabled(false);
        unavailable_ = model_ ? dla_unavailable(*model_) : QString();
        saliency_only_ = model_ && model_->model->lm_head() == models::LmHeadKind::Masked;
        // A box's completer is made when it is first focused (eventFilter): a large
        // vocabulary's list takes the GUI thread tens of milliseconds, which the new model's
        // first pass and attribution need not wait for.
        for (QLineEdit* e : {target_, distractor_}) {
            QCompleter* old = e->completer();
            e->setCompleter(nullptr);
            if (old) old->deleteLater();
        }
        relayout();
    }
    snapshot_ = (snapshot && snapshot->model) ? std::move(snapshot) : nullptr;
    showAvailability();
    fillPositions();
    check();
    schedule(0);
}

bool DlaView::usable() const {
    return model_ && (unavailable_.isEmpty() || saliency_only_);
}

void DlaView::showAvailability() {
    const bool usable = this->usable();
    if (!model_) {
        const QString shipped = shipped_model_names();
        placeholder_->setText(
            shipped.isEmpty()
                ? tr("Who writes the answer needs a trained causal language model: open one "
                     "(File ▸ Open Model…).")
                : tr("Who writes the answer needs a trained causal language model: choose one in "
                     "the Source box (built in: %1), or open one (File ▸ Open Model…).")
                      .arg(shipped));
    } else if (!usable) {
        placeholder_->setText(unavailable_);
    } else if (saliency_only_) {
        // Chinese sentences follow each other without a space.
        const QString gap = unavailable_.endsWith(QChar(0x3002)) ? QString() : QStringLiteral(" ");
        note_->setText(unavailable_ + gap +
                       tr("For a masked language model this tab shows the saliency alone: each "
                          "input token's share of the prediction at the token in focus (at "
                          "first, the [MASK]). Choose a method in the Saliency box."));
    }
    placeholder_->setVisible(!usable);
    controls_->setVisible(usable);
    canvas_->setVisible(usable && !saliency_only_);
    note_->setVisible(usable && saliency_only_);
    // A masked LM's strip is the tab's figure: there from the start, given the map's room.
    sal_canvas_->setVisible(usable && (saliency_.has_value() || saliency_only_));
    if (auto* box = qobject_cast<QBoxLayout*>(layout()))
        box->setStretchFactor(sal_canvas_, saliency_only_ ? 1 : 0);
}

void DlaView::fillPositions() {
    if (!usable() || !snapshot_)
        position_->clearTokens();
    else
        position_->fillTokens(snapshot_->model->encoding, *model_);
}

void DlaView::check() {
    request_.reset();
    if (!usable() || !snapshot_ || position_->currentIndex() < 0) {
        message_->hide();
        return;
    }
    DlaRequest r;
    r.position = position_->currentIndex();
    r.knocked_out = snapshot_->model->knocked_out;
    QStringList problems;
    const auto resolve = [&](QLineEdit* box, QLabel* id_label) -> std::optional<std::int64_t> {
        const std::optional<std::int64_t> found = vocabulary_token(*model_, box->text());
        if (!found) {
            id_label->setText(tr("not one token"));
            problems << tr("“%1” is not one token of this vocabulary: pick one from the list.")
                            .arg(box->text());
            return std::nullopt;
        }
        id_label->setText(tr("id %1").arg(*found));
        return found;
    };
    if (target_->text().isEmpty()) {
        r.target = predicted_token(*snapshot_->model, int(r.position));
        r.predicted = true;
        target_id_->setText(r.target ? tr("%1 · id %2")
                                           .arg(visible_token(QString::fromStdString(
                                                    model_->tokenizer.id_to_token(*r.target))),
                                                QString::number(*r.target))
                                     : QString());
    } else {
        r.target = resolve(target_, target_id_);
    }
    if (distractor_->text().isEmpty())
        distractor_id_->clear();
    else
        r.distractor = resolve(distractor_, distractor_id_);
    message_->setText(problems.join(QLatin1Char(' ')));
    message_->setVisible(!problems.isEmpty());
    if (problems.isEmpty()) request_ = r;
}

void DlaView::schedule(int delay_ms) {
    if (!request_) {
        typing_->stop();
        return;
    }
    // Already shown (or on its way) for this text and these tokens: nothing to run.
    if ((result_ || saliency_ || isRunning()) &&
        ran_ == Ran{snapshot_->model->encoding.ids, *request_})
        return;
    waiting_ = true;
    if (isVisible()) typing_->start(delay_ms);
}

bool DlaView::run() {
    if (!request_ || !model_ || !snapshot_) return false;
    waiting_ = false;
    typing_->stop();
    ran_ = Ran{snapshot_->model->encoding.ids, *request_};
    // The strip explained the old prediction: it follows the new attribution.
    saliency_.reset();
    sal_figure_->setResult(nullptr);
    saliency_running_ = false;
    showSaliencyState();
    if (saliency_only_) {  // a masked LM: no attribution, the strip alone
        job_.drop();
        export_->setEnabled(false);
        if (method_->currentIndex() != SaliencyOff) runSaliency();
        relayout();
        return true;
    }
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = snapshot_->model->text_a;
    const DlaRequest request = *request_;
    // The window's pass, recorded: read instead of a pass of its own when it is this one.
    const std::shared_ptr<const models::StreamRecord> record = snapshot_->model->stream;
    job_.start(
        [model, config, text, request, record](const JobControl& control) {
            const models::EncodedText e = encode_model_text(*model, config);
            return compute_dla(*model, e, text, request, worker_threads(), control, record.get());
        },
        {.finished = [this](DlaResult r) { showResult(std::move(r)); },
         .failed = [this](const QString& message) { showFailure(message); }});
    return true;
}

void DlaView::showResult(DlaResult result) {
    result_ = std::move(result);
    figure_->setResult(&*result_);
    if (result_->predicted)
        target_id_->setText(tr("%1 · id %2")
                                .arg(visible_token(result_->target))
                                .arg(result_->attribution.what.target));
    export_->setEnabled(true);
    relayout();
    // The new numbers where the mouse is (a knock-out from the cell's menu changes them).
    if (hover_.y() >= 0) showHoverText();
    emit attributed();
    if (method_->currentIndex() != SaliencyOff) runSaliency();
}

void DlaView::saliencyChosen() {
    steps_->setEnabled(method_->currentIndex() == IntegratedGradients);
    if (saliency_running_) job_.drop();
    saliency_running_ = false;
    saliency_.reset();
    sal_figure_->setResult(nullptr);
    if (saliency_only_) export_->setEnabled(false);  // the tab's one figure is gone
    // While the attribution runs, its end starts the saliency.
    if (method_->currentIndex() != SaliencyOff && (result_ || (saliency_only_ && ran_)) &&
        !isRunning())
        runSaliency();
    showSaliencyState();
    relayout();
}

void DlaView::runSaliency() {
    if (!model_ || !snapshot_ || !(result_ || (saliency_only_ && ran_))) return;
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = snapshot_->model->text_a;
    // The attribution's prediction, or (a masked LM) the request's: its target unset when the
    // pass predicted nothing there, then the intact model's top prediction, as the DLA's.
    models::LogitTarget what;
    std::optional<std::int64_t> target;
    std::map<ModelHead, KnockOut> knocked;
    if (result_) {
        what = result_->attribution.what;
        target = what.target;
        knocked = result_->knocked_out;
    } else {
        what.position = ran_->request.position;
        what.distractor = ran_->request.distractor;
        target = ran_->request.target;
        knocked = ran_->request.knocked_out;
    }
    const std::int64_t steps =
        method_->currentIndex() == IntegratedGradients ? steps_->currentData().toInt() : 0;
    saliency_running_ = true;
    progress_->setRange(0, 0);  // busy until the first pass reports
    job_.start(
        [model, config, text, what, target, steps, knocked](const JobControl& control) mutable {
            const models::EncodedText e = encode_model_text(*model, config);
            what.target =
                target ? *target
                       : top_prediction(*model, e.input, what.position, worker_threads(), control);
            return compute_saliency(*model, e, text, what, steps, knocked, worker_threads(),
                                    control);
        },
        {.finished = [this](SaliencyResult r) { showSaliency(std::move(r)); },
         .failed =
             [this](const QString& message) {
                 saliency_running_ = false;
                 showSaliencyState();
                 message_->setText(tr("Cannot compute the saliency: %1").arg(message));
                 message_->show();
             },
         .cancelled =
             [this] {
                 saliency_running_ = false;
                 showSaliencyState();
             },
         .progressed =
             [this](std::int64_t done, std::int64_t total) {
                 progress_->setRange(0, 1000);
                 progress_->setValue(total > 0 ? int(1000 * done / total) : 0);
             }});
    showSaliencyState();
}

void DlaView::showSaliency(SaliencyResult result) {
    saliency_running_ = false;
    saliency_ = std::move(result);
    sal_figure_->setResult(&*saliency_);
    if (saliency_only_) export_->setEnabled(true);  // the strip is what the tab exports
    showSaliencyState();
    relayout();
    sal_canvas_->setToolTip(sal_figure_->describe(sal_hover_));
    emit saliencyReady();
}

void DlaView::showSaliencyState() {
    const bool computing = saliency_running_;
    progress_->setVisible(computing);
    cancel_->setVisible(computing);
    steps_label_->setVisible(method_->currentIndex() == IntegratedGradients);
    steps_->setVisible(method_->currentIndex() == IntegratedGradients);
    sal_canvas_->setVisible((saliency_.has_value() || saliency_only_) &&
                            controls_->isVisibleTo(this));
}

void DlaView::hoverSaliency(const QPointF& pos) {
    const int at = sal_figure_->tokenAt(pos);
    // Over the completeness line: why the gap is what it is.
    if (at < 0 && saliency_ && sal_figure_->sumRect().contains(pos)) {
        sal_canvas_->setToolTip(saliency_gap_text(*saliency_));
        return;
    }
    if (at == sal_hover_) return;
    sal_hover_ = at;
    sal_figure_->setHover(at);
    const QString text = sal_figure_->describe(at);
    sal_canvas_->setToolTip(text);
    emit hovered(text);
    sal_canvas_->update();
}

void DlaView::showFailure(const QString& message) {
    message_->setText(tr("Cannot attribute the logit: %1").arg(message));
    message_->show();
}

void DlaView::relayout() {
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    canvas_->relayout();
    // The strip as tall as its wrapped boxes need, up to its share of the tab.
    sal_figure_->setOptions(options);
    if (saliency_only_) {  // the tab's figure: it takes the map's room
        sal_canvas_->setMinimumHeight(80);
        sal_canvas_->setMaximumHeight(QWIDGETSIZE_MAX);
    } else if (saliency_) {
        sal_figure_->layout(QSize(std::max(200, width() - 16), 4000));
        const int cap = std::max(80, int(kStripShare * height()));
        sal_canvas_->setFixedHeight(std::min(sal_figure_->usedHeight(), cap));
    }
    sal_canvas_->relayout();
}

void DlaView::hoverAt(const QPointF& pos) {
    const QPoint at = figure_->cellAt(pos);
    if (at == hover_) return;
    hover_ = at;
    figure_->setHover(at.y(), at.x());
    showHoverText();
    canvas_->update();
}

void DlaView::showHoverText() {
    const QString text = figure_->describe(hover_.y(), hover_.x());
    canvas_->setToolTip(text);
    emit hovered(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
}

const SaliencyResult* DlaView::shownSaliency() const {
    return saliency_ && sal_canvas_->isVisibleTo(this) ? &*saliency_ : nullptr;
}

QPoint DlaView::cellCentre(int layer, int column) const {
    const QRectF r = figure_->cellRect(layer, column);
    return r.isValid() ? r.center().toPoint() : QPoint();
}

bool DlaView::exportTo(const QString& path) {
    try {
        const bool strip = saliency_only_;  // a masked LM: the strip is the tab's figure
        if (strip ? !saliency_ : !result_)
            throw UsageError((strip
                                  ? tr("There is no saliency yet: there is nothing to export.")
                                  : tr("There is no attribution yet: there is nothing to export."))
                                 .toStdString());
        if (QFileInfo(path).suffix().toLower() == QLatin1String("csv"))
            write_atomically(path, strip ? saliency_csv(*saliency_) : dla_csv(*result_));
        else
            write_atomically(
                path, encode_figure(strip ? render_saliency_figure(*saliency_, export_options(),
                                                                   ExportSize{}, path)
                                          : render_dla_figure(*result_, shownSaliency(), path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the attribution"), error_text(e));
        return false;
    }
}

void DlaView::copyFigure() {
    if (saliency_only_ && saliency_) {
        QApplication::clipboard()->setImage(render_saliency_figure(*saliency_, export_options(),
                                                                   ExportSize{},
                                                                   QStringLiteral("saliency.png"))
                                                .image);
        return;
    }
    if (!result_) {
        emit failed(tr("Cannot copy the figure"),
                    tr("There is no attribution yet: there is nothing to copy."));
        return;
    }
    QApplication::clipboard()->setImage(
        render_dla_figure(*result_, shownSaliency(), QStringLiteral("who-writes.png")).image);
}

void DlaView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the attribution"), QStringLiteral("who-writes.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
