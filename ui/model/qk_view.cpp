#include "ui/model/qk_view.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <utility>

#include "engine/errors.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/render/figure_export.h"
#include "ui/widgets/wrapping_row_layout.h"

namespace attnviz::ui {

QkView::QkView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("qkView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 6, 8, 4);
    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("qkPlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    v->addWidget(placeholder_, 1);
    v->addWidget(createControls());
    auto figure = std::make_unique<QkFigure>();
    figure_ = figure.get();
    canvas_ = new FigureCanvas(std::move(figure), this);
    canvas_->setObjectName(QStringLiteral("qkCanvas"));
    canvas_->setMouseTracking(true);
    v->addWidget(canvas_, 1);
    connectControls();
    retranslate();
}

/// The head, the projection, the colouring and Export in a row; under it the line that says
/// the head has no vectors yet, with the button that computes them.
QWidget* QkView::createControls() {
    controls_ = new QWidget(this);
    auto* v = new QVBoxLayout(controls_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new WrappingRowLayout;  // presenting, one row is wider than a projector
    head_label_ = new QLabel(controls_);
    head_combo_ = new QComboBox(controls_);
    head_combo_->setObjectName(QStringLiteral("qkHead"));
    head_combo_->setMaxVisibleItems(20);
    projection_label_ = new QLabel(controls_);
    projection_ = new QComboBox(controls_);
    projection_->setObjectName(QStringLiteral("qkProjection"));
    projection_->addItems({QString(), QString()});  // QkProjection's order
    colouring_label_ = new QLabel(controls_);
    colouring_ = new QComboBox(controls_);
    colouring_->setObjectName(QStringLiteral("qkColouring"));
    colouring_->addItems({QString(), QString()});  // QkColouring's order
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("qkExport"));
    row->addWidget(head_label_);
    row->addWidget(head_combo_);
    row->addSpacing(12);
    row->addWidget(projection_label_);
    row->addWidget(projection_);
    row->addSpacing(12);
    row->addWidget(colouring_label_);
    row->addWidget(colouring_);
    row->addStretch(1);
    row->addWidget(export_);
    v->addLayout(row);
    auto* missing = new QHBoxLayout;
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("qkMessage"));
    message_->setWordWrap(true);
    compute_ = new QPushButton(controls_);
    compute_->setObjectName(QStringLiteral("qkCompute"));
    missing->addWidget(message_, 1);
    missing->addWidget(compute_);
    v->addLayout(missing);
    return controls_;
}

void QkView::connectControls() {
    connect(head_combo_, &QComboBox::activated, this, [this](int index) {
        const QPoint lh = head_combo_->itemData(index).toPoint();
        emit headChosen(lh.x(), lh.y());
    });
    connect(projection_, &QComboBox::currentIndexChanged, this, [this](int index) {
        figure_->setProjection(QkProjection(std::max(index, 0)));
        relayout();
    });
    connect(colouring_, &QComboBox::currentIndexChanged, this, [this](int index) {
        figure_->setColouring(QkColouring(std::max(index, 0)));
        relayout();
    });
    connect(compute_, &QPushButton::clicked, this,
            [this] { emit computeRequested(layer_, head_); });
    connect(export_, &QPushButton::clicked, this, &QkView::exportDialog);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &QkView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1e6, -1e6)); });
    connect(canvas_, &FigureCanvas::clicked, this, &QkView::clickAt);
}

void QkView::retranslate() {
    head_label_->setText(tr("Head:"));
    projection_label_->setText(tr("Projection:"));
    projection_->setItemText(int(QkProjection::Pca), tr("PCA"));
    projection_->setItemText(int(QkProjection::Cosine), tr("Directions (cosine)"));
    projection_->setToolTip(
        tr("PCA of the queries and keys together, or of their directions alone (their "
           "lengths set aside)"));
    colouring_label_->setText(tr("Colour by:"));
    colouring_->setItemText(int(QkColouring::Kind), tr("Query or key"));
    colouring_->setItemText(int(QkColouring::Position), tr("Token position"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF) or the points (CSV)"));
    fillHeads();
    refresh();
}

void QkView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

void QkView::setCorpus(CorpusPtr corpus) {
    // The figure points into the old corpus until refresh() hands it the new one, and showing
    // the placeholder or the message lays the canvas out at once: the old stays alive till then.
    const CorpusPtr old = std::exchange(corpus_, std::move(corpus));
    fillHeads();
    refresh();
}

void QkView::setModelFolder(const QString& folder) {
    if (folder == folder_) return;
    folder_ = folder;
    fillHeads();
    refresh();
}

void QkView::setHead(int layer, int head) {
    if (layer == layer_ && head == head_) return;
    layer_ = layer;
    head_ = head;
    fillHeads();
    refresh();
}

void QkView::setComputing(bool on) {
    computing_ = on;
    refresh();
}

const CorpusData* QkView::shownCorpus() const {
    return corpus_ && corpus_->isOf(folder_) ? corpus_.get() : nullptr;
}

const CorpusQkView* QkView::qkView() const {
    const CorpusData* c = shownCorpus();
    return c ? c->qkView(layer_, head_) : nullptr;
}

void QkView::fillHeads() {
    const QSignalBlocker block(head_combo_);
    head_combo_->clear();
    const CorpusData* c = shownCorpus();
    if (!c) return;
    for (std::int64_t l = 0; l < c->result.layers; ++l)
        for (std::int64_t h = 0; h < c->result.heads; ++h)
            head_combo_->addItem((c->qkView(l, h) ? QStringLiteral("● ") : QStringLiteral("  ")) +
                                     tr("Layer %1 · head %2").arg(l + 1).arg(h + 1),
                                 QPoint(int(l), int(h)));
    head_combo_->setCurrentIndex(head_combo_->findData(QPoint(layer_, head_)));
}

void QkView::refresh() {
    const CorpusData* c = shownCorpus();
    const CorpusQkView* view = qkView();
    // Before anything is shown or hidden: that lays the canvas out, with what it holds.
    hover_ = -1;
    figure_->setHover(-1);
    figure_->setData(view ? c : nullptr, view);
    if (!c) {
        placeholder_->setText(
            corpus_ ? tr("The corpus was measured on %1: choose that model in the Source box "
                         "to see its heads' queries and keys.")
                          .arg(QFileInfo(corpus_->model_folder).fileName())
                    : tr("Open a corpus (File ▸ Open Corpus…, or Corpus from History) to see "
                         "where a head's queries and keys lie over many texts: every query and "
                         "key it computes, as one dot each."));
    }
    placeholder_->setVisible(!c);
    controls_->setVisible(c);
    canvas_->setVisible(c);
    const bool in_range = c && layer_ < c->result.layers && head_ < c->result.heads;
    message_->setVisible(c && !view);
    compute_->setVisible(c && !view && in_range);
    compute_->setEnabled(!computing_);
    compute_->setText(computing_ ? tr("Computing…") : tr("Compute them"));
    message_->setText(
        in_range
            ? tr("The corpus has no queries and keys of layer %1 · head %2 yet.")
                  .arg(layer_ + 1)
                  .arg(head_ + 1)
            : tr("The model shown has no head %1 in layer %2.").arg(head_ + 1).arg(layer_ + 1));
    export_->setEnabled(view != nullptr);
    relayout();
}

void QkView::relayout() {
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    canvas_->relayout();
}

void QkView::hoverAt(const QPointF& pos) {
    const int point = figure_->pointAt(pos);
    if (point == hover_) return;
    hover_ = point;
    figure_->setHover(point);
    canvas_->setToolTip(figure_->describe(point));
    emit hovered(figure_->describePlain(point));
    canvas_->update();
}

void QkView::clickAt(const QPointF& pos) {
    const int point = figure_->pointAt(pos);
    const models::CorpusQueryKeys::Token* t = figure_->token(point);
    if (!t) return;
    emit pointActivated(t->text, layer_, head_, t->position, figure_->isKey(point));
}

bool QkView::exportTo(const QString& path) {
    try {
        const CorpusQkView* view = qkView();
        if (!view)
            throw UsageError(tr("There are no queries and keys of this head to export: compute "
                                "them first.")
                                 .toStdString());
        if (QFileInfo(path).suffix().toLower() == QLatin1String("csv")) {
            write_atomically(path, qk_points_csv(*view));
            return true;
        }
        FigureOptions options;
        options.font_px = 14;
        write_atomically(
            path, encode_figure(render_qk_figure(
                      *shownCorpus(), *view, QkProjection(projection_->currentIndex()),
                      QkColouring(colouring_->currentIndex()), options, ExportSize{}, path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the queries and keys"), error_text(e));
        return false;
    }
}

void QkView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the queries and keys"),
        QStringLiteral("qk_%1_%2.png").arg(layer_ + 1).arg(head_ + 1),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
