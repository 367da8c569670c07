#include "ui/model/lens_view.h"

#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/compute/error_text.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

class LensCanvas : public QWidget {
  public:
    explicit LensCanvas(LensView* view) : QWidget(view), view_(view) {
        setObjectName(QStringLiteral("lensCanvas"));
        setMouseTracking(true);
        setMinimumSize(320, 200);
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        view_->figure_.paint(&p, false);
        const QRectF r = view_->figure_.grid().cellRect(hover_.y(), hover_.x());
        if (!r.isEmpty()) {
            p.setPen(QPen(QColor(0, 114, 178), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }
    void resizeEvent(QResizeEvent*) override { view_->relayout(); }
    void mouseMoveEvent(QMouseEvent* event) override {
        const QPoint cell = view_->figure_.grid().cellAt(event->position().toPoint());
        if (cell == hover_) return;
        hover_ = cell;
        update();
        const QString text = view_->describe(cell.y(), cell.x());
        emit view_->hovered(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
    void leaveEvent(QEvent*) override {
        hover_ = QPoint(-1, -1);
        update();
        emit view_->hovered(QString());
    }

  private:
    LensView* view_;
    QPoint hover_{-1, -1};
};

LensView::LensView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lensView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 4, 0, 0);
    v->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 0, 8, 0);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("lensNote"));
    note_->setWordWrap(true);
    export_ = new QPushButton(this);
    export_->setObjectName(QStringLiteral("lensExportCsvButton"));
    export_->hide();
    bar->addWidget(note_, 1);
    bar->addWidget(export_);
    v->addLayout(bar);
    canvas_ = new LensCanvas(this);
    v->addWidget(canvas_, 1);
    setFocusProxy(canvas_);
    options_.kind = FigureKind::Lens;
    options_.show_title = false;  // the tab says what it is; the exports carry the title
    connect(export_, &QPushButton::clicked, this, &LensView::exportCsv);
    retranslate();
    relayout();
}

QWidget* LensView::canvas() const {
    return canvas_;
}

void LensView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    relayout();
}

void LensView::setColormap(Colormap colormap) {
    if (options_.colormap == colormap) return;
    options_.colormap = colormap;
    relayout();
}

void LensView::relayout() {
    options_.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_.setSnapshot(snapshot_);
    figure_.setOptions(options_);
    figure_.layout(canvas_->size());
    const LensGrid* g = figure_.lens();
    export_->setVisible(g != nullptr);
    note_->setText(g ? figure_.captionText() : QString());
    note_->setVisible(g != nullptr);
    canvas_->update();
}

void LensView::retranslate() {
    export_->setText(tr("Export CSV…"));
    export_->setToolTip(tr("The top %1 tokens of every cell, with their probabilities, as a CSV "
                           "table")
                            .arg(kLensTopK));
    relayout();
}

void LensView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

bool LensView::exportCsvTo(const QString& path) {
    const LensGrid* g = figure_.lens();
    if (!g) return false;
    try {
        write_atomically(path, g->to_csv());
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the logit lens"), error_text(e));
        return false;
    }
    return true;
}

void LensView::exportCsv() {
    if (!figure_.lens()) return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the Logit Lens"),
                                     QStringLiteral("logit-lens.csv"), tr("CSV files (*.csv)"));
    if (!path.isEmpty()) exportCsvTo(path);
}

}  // namespace attnviz::ui
