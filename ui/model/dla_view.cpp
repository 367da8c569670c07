#include "ui/model/dla_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
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

/// The model's most likely next token at `piece`, as the window's pass predicted it (the
/// intact model's when heads are knocked out: the attribution is of the intact model); nullopt
/// when the pass has no prediction there.
std::optional<std::int64_t> predicted_token(const ModelPass& pass, int piece) {
    const ModelPredictions* p =
        (pass.knocked_out.empty() ? pass.predictions : pass.intact_predictions).get();
    if (!p) return std::nullopt;
    for (std::size_t k = 0; k < p->positions.size() && k < p->top.size(); ++k)
        if (p->positions[k] == piece && !p->top[k].empty()) return p->top[k].front().id;
    return std::nullopt;
}

/// The figure of `result` for `path` (its format from the suffix), as every export draws it.
RenderedFigure render_dla_figure(const DlaResult& result, const QString& path) {
    DlaFigure figure;
    figure.setResult(&result);
    FigureOptions options;
    options.font_px = 14;
    figure.setOptions(options);
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

/// The token in focus, the target and the distractor with their ids, Export, and the lines
/// that say what is wrong (red) or what to know (knocked-out heads).
QWidget* DlaView::createControls() {
    controls_ = new QWidget(this);
    auto* v = new QVBoxLayout(controls_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    position_label_ = new QLabel(controls_);
    target_label_ = new QLabel(controls_);
    distractor_label_ = new QLabel(controls_);
    position_ = new QComboBox(controls_);
    position_->setObjectName(QStringLiteral("dlaPosition"));
    position_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    position_->setMinimumContentsLength(10);
    position_->setMaxVisibleItems(20);
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
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("dlaMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b2182b;"));
    message_->hide();
    note_ = new QLabel(controls_);
    note_->setObjectName(QStringLiteral("dlaNote"));
    note_->setWordWrap(true);
    note_->hide();
    v->addWidget(message_);
    v->addWidget(note_);
    return controls_;
}

/// The boxes check (and run once typing pauses), Enter runs, the canvas hovers.
void DlaView::connectControls() {
    connect(position_, &QComboBox::activated, this, [this](int index) {
        chosen_ = index;
        check();
        schedule(0);
    });
    for (QLineEdit* e : {target_, distractor_}) {
        connect(e, &QLineEdit::textChanged, this, [this] {
            check();
            schedule(kTypingPauseMs);
        });
        connect(e, &QLineEdit::returnPressed, this, &DlaView::run);
    }
    connect(typing_, &QTimer::timeout, this, &DlaView::run);
    connect(export_, &QPushButton::clicked, this, &DlaView::exportDialog);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &DlaView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1, -1)); });
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
        chosen_ = -1;
        hover_ = QPoint(-1, -1);
        figure_->setHover(-1, -1);
        export_->setEnabled(false);
        unavailable_ = model_ ? dla_unavailable(*model_) : QString();
        for (QLineEdit* e : {target_, distractor_}) {
            if (QCompleter* old = e->completer()) old->deleteLater();
            e->setCompleter(vocabulary_completer(model_.get(), e));
        }
        relayout();
    }
    snapshot_ = (snapshot && snapshot->model) ? std::move(snapshot) : nullptr;
    showAvailability();
    fillPositions();
    check();
    schedule(0);
}

void DlaView::showAvailability() {
    const bool usable = model_ && unavailable_.isEmpty();
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
    }
    placeholder_->setVisible(!usable);
    controls_->setVisible(usable);
    canvas_->setVisible(usable);
    const bool knocked = usable && snapshot_ && !snapshot_->model->knocked_out.empty();
    note_->setText(knocked ? tr("The heads knocked out in the window are not knocked out here: "
                                "this is the intact model's attribution.")
                           : QString());
    note_->setVisible(knocked);
}

void DlaView::fillPositions() {
    const QSignalBlocker block(position_);
    position_->clear();
    if (!model_ || !unavailable_.isEmpty() || !snapshot_) return;
    const text::Encoding& e = snapshot_->model->encoding;
    QStringList items;
    items.reserve(qsizetype(e.size()));
    for (std::size_t k = 0; k < e.size(); ++k)
        items << QStringLiteral("%1 · %2").arg(k + 1).arg(visible_token(QString::fromStdString(
            k < e.text.size() ? e.text[k] : model_->tokenizer.id_to_token(e.ids[k]))));
    position_->addItems(items);
    if (chosen_ >= int(e.size())) chosen_ = -1;
    position_->setCurrentIndex(chosen_ >= 0 ? chosen_ : default_trace_piece(e, *model_));
}

void DlaView::check() {
    request_.reset();
    const bool usable = model_ && unavailable_.isEmpty() && snapshot_;
    if (!usable || position_->currentIndex() < 0) {
        message_->hide();
        return;
    }
    DlaRequest r;
    r.position = position_->currentIndex();
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
    if ((result_ || isRunning()) && ran_ == Ran{snapshot_->model->encoding.ids, *request_}) return;
    waiting_ = true;
    if (isVisible()) typing_->start(delay_ms);
}

bool DlaView::run() {
    if (!request_ || !model_ || !snapshot_) return false;
    waiting_ = false;
    typing_->stop();
    ran_ = Ran{snapshot_->model->encoding.ids, *request_};
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = snapshot_->model->text_a;
    const DlaRequest request = *request_;
    job_.start(
        [model, config, text, request](const JobControl& control) {
            const models::EncodedText e = encode_model_text(*model, config);
            return compute_dla(*model, e, text, request, worker_threads(), control);
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
    canvas_->setToolTip(figure_->describe(hover_.y(), hover_.x()));  // the new numbers
    emit attributed();
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
}

void DlaView::hoverAt(const QPointF& pos) {
    const QPoint at = figure_->cellAt(pos);
    if (at == hover_) return;
    hover_ = at;
    figure_->setHover(at.y(), at.x());
    const QString text = figure_->describe(at.y(), at.x());
    canvas_->setToolTip(text);
    emit hovered(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    canvas_->update();
}

QPoint DlaView::cellCentre(int layer, int column) const {
    const QRectF r = figure_->cellRect(layer, column);
    return r.isValid() ? r.center().toPoint() : QPoint();
}

bool DlaView::exportTo(const QString& path) {
    try {
        if (!result_)
            throw UsageError(
                tr("There is no attribution yet: there is nothing to export.").toStdString());
        if (QFileInfo(path).suffix().toLower() == QLatin1String("csv"))
            write_atomically(path, dla_csv(*result_));
        else
            write_atomically(path, encode_figure(render_dla_figure(*result_, path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the attribution"), error_text(e));
        return false;
    }
}

void DlaView::copyFigure() {
    if (!result_) {
        emit failed(tr("Cannot copy the figure"),
                    tr("There is no attribution yet: there is nothing to copy."));
        return;
    }
    QApplication::clipboard()->setImage(
        render_dla_figure(*result_, QStringLiteral("who-writes.png")).image);
}

void DlaView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the attribution"), QStringLiteral("who-writes.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
