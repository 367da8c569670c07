#include "ui/classroom/lines_view.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/classroom/figure_canvas.h"
#include "ui/classroom/lines_figure.h"
#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
QIcon swatch(const QColor& color) {
    // Drawn at twice the normal size so it stays crisp when presentation mode enlarges it.
    QPixmap pm(36, 20);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color, 8, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(4, 10), QPointF(32, 10));
    return QIcon(pm);
}
}  // namespace

LinesView::LinesView(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("linesView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    heads_label_ = new QLabel(this);
    bar->addWidget(heads_label_);
    boxes_layout_ = new QHBoxLayout;
    bar->addLayout(boxes_layout_);
    all_ = new QToolButton(this);
    none_ = new QToolButton(this);
    bar->addSpacing(8);
    bar->addWidget(all_);
    bar->addWidget(none_);
    bar->addStretch(1);
    layout->addLayout(bar);
    canvas_ = new FigureCanvas(std::make_unique<LinesFigure>(), this);
    canvas_->setObjectName(QStringLiteral("linesCanvas"));
    canvas_->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(canvas_, 1);
    setFocusProxy(canvas_);
    retranslate();

    connect(all_, &QToolButton::clicked, this, [this] { doc_->setLineHeads(~quint64(0)); });
    connect(none_, &QToolButton::clicked, this, [this] { doc_->setLineHeads(0); });
    connect(canvas_, &FigureCanvas::mouseMoved, this, &LinesView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] {
        figure()->setHover({});
        hover_text_.clear();
        canvas_->update();
        emit hovered(QString());
    });
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &LinesView::sync);
    connect(doc_, &AttentionDocument::numHeadsChanged, this, &LinesView::sync);
    sync();
}

LinesFigure* LinesView::figure() const {
    return static_cast<LinesFigure*>(canvas_->figure());
}

QCheckBox* LinesView::headBox(int head) const {
    return head >= 0 && head < int(boxes_.size()) ? boxes_[std::size_t(head)] : nullptr;
}

void LinesView::retranslate() {
    heads_label_->setText(tr("Heads:"));
    all_->setText(tr("All"));
    none_->setText(tr("None"));
    syncBoxes();
}

void LinesView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void LinesView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    // Collecting the lines walks every weight: a hidden view waits until it is shown.
    if (!isVisible()) {
        stale_ = true;
        return;
    }
    stale_ = false;
    figure()->setSnapshot(snapshot_);
    sync();
}

void LinesView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) setSnapshot(snapshot_);
}

void LinesView::setPresentation(int font_px, bool high_contrast) {
    font_px_ = font_px;
    high_contrast_ = high_contrast;
    sync();
}

void LinesView::sync() {
    const int heads =
        snapshot_ && snapshot_->model ? std::min(64, snapshot_->heads) : doc_->numHeads();
    if (int(boxes_.size()) != heads) {
        for (QCheckBox* b : boxes_)
            delete b;
        boxes_.clear();
        for (int h = 0; h < heads; ++h) {
            auto* box = new QCheckBox(QString::number(h + 1), this);
            box->setObjectName(QStringLiteral("lineHead%1").arg(h + 1));
            box->setIcon(swatch(paint::head_color(h)));
            connect(box, &QCheckBox::toggled, this, [this, h](bool on) {
                quint64 mask = doc_->lineHeads();
                const quint64 bit = quint64(1) << h;
                doc_->setLineHeads(on ? (mask | bit) : (mask & ~bit));
            });
            boxes_layout_->addWidget(box);
            boxes_.push_back(box);
        }
    }
    syncBoxes();
    FigureOptions o = doc_->figureOptions();
    o.kind = FigureKind::Lines;
    o.font_px = font_px_ > 0 ? font_px_ : QFontInfo(font()).pixelSize();
    o.high_contrast = high_contrast_;
    figure()->setOptions(o);
    figure()->setHover(figure()->hover());
    canvas_->relayout();
}

void LinesView::syncBoxes() {
    const quint64 mask = doc_->lineHeads();
    // Heads the memory budget did not keep have no lines to draw: their boxes say so.
    const int heads = int(boxes_.size());
    const int kept =
        snapshot_ && snapshot_->num_heads == heads ? std::min(snapshot_->heads, heads) : heads;
    // Presenting, the boxes and colour swatches grow with the text, so they can be read
    // (and hit) from the front of a room.
    const int px = QFontInfo(font()).pixelSize();
    const QString indicator =
        font_px_ > 0
            ? QStringLiteral("QCheckBox::indicator { width: %1px; height: %1px; }").arg(px * 3 / 4)
            : QString();
    for (int h = 0; h < heads; ++h) {
        QCheckBox* box = boxes_[std::size_t(h)];
        const QSignalBlocker b(box);
        box->setChecked(h >= 64 || (mask >> h & 1u));
        box->setEnabled(h < kept);
        box->setToolTip(h < kept ? tr("Draw the lines of head %1").arg(h + 1)
                        : kept == 0
                            ? tr("Head %1 was not kept: within the memory budget only the mean "
                                 "over heads is shown (see the bar above the views).")
                                  .arg(h + 1)
                            : tr("Head %1 was not kept: within the memory budget only heads "
                                 "1–%2 are shown (see the bar above the views).")
                                  .arg(h + 1)
                                  .arg(kept));
        box->setIconSize(font_px_ > 0 ? QSize(px * 3 / 2, px * 3 / 4) : QSize(18, 10));
        if (box->styleSheet() != indicator) box->setStyleSheet(indicator);
    }
}

void LinesView::hoverAt(const QPointF& pos) {
    LinesFigure* f = figure();
    const LinesFigure::Hit hit = f->hitTest(pos);
    const LinesFigure::Hit old = f->hover();
    if (hit.side == old.side && hit.token == old.token) return;
    f->setHover(hit);
    hover_text_ = f->describe(hit);
    canvas_->update();
    emit hovered(hover_text_);
}

}  // namespace attnviz::ui
