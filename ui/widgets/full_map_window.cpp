#include "ui/widgets/full_map_window.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "ui/compute/error_text.h"
#include "ui/compute/worker_threads.h"
#include "ui/model/why_panel.h"
#include "ui/render/figure_export.h"
#include "ui/widgets/zoom_heatmap.h"

namespace attnviz::ui {

std::uint64_t FullMapWindow::neededBytes(const FullMapSource& source) {
    // The map, its pyramid (a third more) and, while the pooling changes, a second pyramid
    // over the same map.
    return source.mapBytes() * 5 / 3;
}

FullMapWindow::FullMapWindow(FullMapSourcePtr source, int layer, int head,
                             std::uint64_t budget_bytes, Colormap colormap, QWidget* parent)
    : QWidget(parent, Qt::Window),
      source_(std::move(source)),
      layer_(layer),
      head_(head),
      colormap_(colormap) {
    setObjectName(QStringLiteral("fullMapWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    title_ = new QLabel(this);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    pool_label_ = new QLabel(this);
    pool_ = new QComboBox(this);
    pool_->setObjectName(QStringLiteral("fullMapPooling"));
    pool_->addItem(QString(), int(ops::PoolMode::Max));
    pool_->addItem(QString(), int(ops::PoolMode::Mean));
    pool_label_->setBuddy(pool_);
    fit_ = new QPushButton(this);
    fit_->setObjectName(QStringLiteral("fullMapFit"));
    export_ = new QPushButton(this);
    export_->setObjectName(QStringLiteral("fullMapExport"));
    heatmap_ = new ZoomHeatmap(this);
    heatmap_->setColormap(colormap_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("fullMapStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(title_, 1);
    bar->addWidget(pool_label_);
    bar->addWidget(pool_);
    bar->addWidget(fit_);
    bar->addWidget(export_);
    // Beside the map, the "Why?" pane: hidden until a cell is Alt-clicked.
    QSplitter* split = why_splitter(heatmap_, this);
    why_ = new WhyPanel(split);
    why_->hide();
    split->addWidget(why_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    retranslate();
    resize(1100, 900);

    connect(pool_, &QComboBox::activated, this,
            [this] { setPoolMode(ops::PoolMode(pool_->currentData().toInt())); });
    connect(fit_, &QPushButton::clicked, heatmap_, &ZoomHeatmap::fit);
    connect(export_, &QPushButton::clicked, this, &FullMapWindow::exportDialog);
    connect(heatmap_, &ZoomHeatmap::hovered, this, [this](const QString& text) {
        if (!loading_ && error_.isEmpty()) status_->setText(text.isEmpty() ? helpText() : text);
    });
    connectWhyPane();

    if (!source_) {
        fail(tr("There is no full map to show for this source."));
        return;
    }
    if (const QString why = source_->unavailable(layer_, head_); !why.isEmpty()) {
        fail(why);
        return;
    }
    if (const std::uint64_t needed = neededBytes(*source_); needed > budget_bytes) {
        fail(tr("Layer %1, head %2: the full map of %3 × %3 tokens needs %4, more than "
                "the memory budget of %5 (Attention ▸ Memory Budget…).")
                 .arg(layer_ + 1)
                 .arg(head_ + 1)
                 .arg(source_->length())
                 .arg(QString::fromStdString(budget::format_bytes(needed)))
                 .arg(QString::fromStdString(budget::format_bytes(budget_bytes))));
        return;
    }
    const FullMapSourcePtr s = source_;
    start([s, layer, head](const PassControl& control) {
        HeadMap m = s->map(layer, head, control);
        Built b;
        b.tokens = std::move(m.tokens);
        b.pieces = std::move(m.pieces);
        b.causal = m.causal;
        b.pyramid = std::make_shared<const ops::MapPyramid>(
            std::move(m.weights), ops::PoolMode::Max, ops::MapPyramid::kDefaultTopSide,
            worker_threads());
        return b;
    });
}

FullMapWindow::~FullMapWindow() = default;

QString FullMapWindow::titleText() const {
    return (source_ && source_->normBased() ? tr("%1 · layer %2 · head %3 · norm-based ‖α·f(x)‖")
                                            : tr("%1 · layer %2 · head %3"))
        .arg(source_ ? source_->name() : QString())
        .arg(layer_ + 1)
        .arg(head_ + 1);
}

void FullMapWindow::retranslate() {
    setWindowTitle(tr("Full map: %1").arg(titleText()));
    title_->setText(titleText());
    pool_label_->setText(tr("&Zoomed out, a pixel shows:"));
    pool_->setItemText(0, tr("the largest weight"));
    pool_->setItemText(1, tr("the mean weight"));
    pool_->setToolTip(
        tr("Where a pixel covers several cells: the largest weight among them keeps "
           "a single strong weight visible; the mean keeps the total."));
    fit_->setText(tr("&Fit"));
    fit_->setToolTip(tr("Show the whole map (0)"));
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("Save the region in view as PNG, SVG or PDF"));
    heatmap_->setToolTip(QString());
    heatmap_->setWhatsThis(helpText());
    if (loading_)
        status_->setText(tr("Reading layer %1, head %2…").arg(layer_ + 1).arg(head_ + 1));
    else if (!error_.isEmpty())
        status_->setText(error_);
    else if (pyramid_)
        status_->setText(helpText());
    if (pyramid_) {
        ZoomMapContent c = heatmap_->figure().content();
        c.title = titleText();
        heatmap_->setContent(std::move(c), true);
    }
}

QString FullMapWindow::helpText() const {
    return tr(
        "Wheel: zoom about the cursor · drag: pan · + and −: zoom · arrows: pan · 0: the "
        "whole map · Alt-click a cell: why this attention?");
}

void FullMapWindow::connectWhyPane() {
    connect(heatmap_, &ZoomHeatmap::cellExplainRequested, this, &FullMapWindow::explainAt);
    connect(heatmap_, &ZoomHeatmap::cellHovered, this, &FullMapWindow::followAt);
    connect(why_, &WhyPanel::headFocusRequested, this, &FullMapWindow::headFocusRequested);
    connect(why_, &WhyPanel::hovered, this, [this](const QString& text) {
        if (!text.isEmpty()) status_->setText(text);
    });
    connect(why_, &WhyPanel::failed, this, &FullMapWindow::warn);
}

void FullMapWindow::setWhySource(SnapshotPtr snapshot, ModelPtr model) {
    why_source_ = true;
    why_->setSource(std::move(snapshot), std::move(model));
}

int FullMapWindow::pieceOfRow(int row) const {
    return pieces_.empty() ? row : pieces_[std::size_t(row)];
}

int FullMapWindow::rowOfPiece(int piece) const {
    if (!pyramid_ || piece < 0) return -1;
    if (pieces_.empty()) return piece < pyramid_->rows() ? piece : -1;
    // A word stands for its last piece: the first row at or past the piece is its word.
    const auto at = std::lower_bound(pieces_.begin(), pieces_.end(), piece);
    return at == pieces_.end() ? -1 : int(at - pieces_.begin());
}

void FullMapWindow::explainAt(int row, int col) {
    if (!why_source_) {
        status_->setText(
            tr("Why this attention? explains the maps of the window's own text: open this "
               "head's full map from the Heatmaps or Model tab (right-click it)."));
        return;
    }
    why_->explainPieces(layer_, head_, pieceOfRow(row), pieceOfRow(col), weightAt(row, col));
}

void FullMapWindow::followAt(int row, int col) {
    if (!why_source_ || !why_->following()) return;
    why_->followPieces(layer_, head_, pieceOfRow(row), pieceOfRow(col), weightAt(row, col));
}

double FullMapWindow::weightAt(int row, int col) const {
    // The map's value is the head's weight, unless it shows the norm-based maps.
    return source_->normBased() ? std::nan("") : double(pyramid_->level(0).at(row, col));
}

void FullMapWindow::showQuery(int query, int key) {
    query_ = std::pair{query, key};
    if (pyramid_ && !loading_) applyQuery();
}

void FullMapWindow::applyQuery() {
    if (!query_ || !pyramid_) return;
    const auto [query, key] = *query_;
    query_.reset();
    const int row = rowOfPiece(query);
    if (row < 0) return;  // outside the map's rows (a window): the whole map stays in view
    int col = rowOfPiece(key);
    if (col < 0) {  // where the query looks most
        const ops::PyramidLevel& cells = pyramid_->level(0);
        col = 0;
        for (std::int64_t j = 1; j < pyramid_->cols(); ++j)
            if (cells.at(row, j) > cells.at(row, col)) col = int(j);
    }
    heatmap_->focusCell(row, col);
}

void FullMapWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void FullMapWindow::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

void FullMapWindow::start(std::function<Built(const PassControl&)> work) {
    loading_ = true;
    pool_->setEnabled(false);
    status_->setText(tr("Reading layer %1, head %2…").arg(layer_ + 1).arg(head_ + 1));
    job_.start([work = std::move(work)](const JobControl& control) { return work(control); },
               {.finished = [this](Built built) { showBuilt(std::move(built)); },
                .failed = [this](const QString& message) { fail(message); }});
}

void FullMapWindow::showBuilt(Built built) {
    loading_ = false;
    pool_->setEnabled(true);
    if (built.first) {
        tokens_ = std::move(built.tokens);
        causal_ = built.causal;
    }
    const bool keep_view = pyramid_ != nullptr;
    pyramid_ = std::move(built.pyramid);
    pool_->setCurrentIndex(pool_->findData(int(pyramid_->mode())));
    heatmap_->setContent(ZoomMapContent{pyramid_, tokens_, causal_, titleText()}, keep_view);
    status_->setText(helpText());
    if (built.first) {
        pieces_ = std::move(built.pieces);
        applyQuery();
    }
    heatmap_->setFocus();
    emit loaded();
}

void FullMapWindow::fail(const QString& message) {
    loading_ = false;
    error_ = message;
    pool_->setEnabled(false);
    fit_->setEnabled(pyramid_ != nullptr);
    export_->setEnabled(pyramid_ != nullptr);
    status_->setText(message);
    // Once the window shows (fail() may run in the constructor): a dialog over it.
    QTimer::singleShot(0, this, [this, message] {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot show the full map"), message,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setObjectName(QStringLiteral("fullMapError"));
        box->setWindowModality(Qt::WindowModal);
        box->open();
    });
    emit failed(message);
}

void FullMapWindow::setPoolMode(ops::PoolMode mode) {
    if (!pyramid_ || pyramid_->mode() == mode || loading_) return;
    const std::shared_ptr<const Tensor> map = pyramid_->map();
    start([map, mode](const PassControl&) {
        Built b;
        b.first = false;
        b.pyramid = std::make_shared<const ops::MapPyramid>(
            map, mode, ops::MapPyramid::kDefaultTopSide, worker_threads());
        return b;
    });
}

bool FullMapWindow::exportTo(const QString& path) {
    try {
        if (!pyramid_)
            throw UsageError(
                tr("The map is not read yet: there is nothing to export.").toStdString());
        ZoomMapFigure figure = heatmap_->figure();  // the region in view, drawn anew
        const QSize size = heatmap_->size();
        write_atomically(path, encode_figure(render_painted_figure(
                                   figure, ExportSize{size.width(), size.height(), 2.0}, path)));
        return true;
    } catch (const std::exception& e) {
        warn(tr("Cannot export the full map"), error_text(e));
        return false;
    }
}

void FullMapWindow::warn(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

void FullMapWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the full map"),
        QStringLiteral("layer%1_head%2.png").arg(layer_ + 1).arg(head_ + 1),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
