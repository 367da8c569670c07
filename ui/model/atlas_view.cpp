#include "ui/model/atlas_view.h"

#include <QComboBox>
#include <QContextMenuEvent>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/document/shipped_models.h"
#include "ui/render/colormaps.h"

namespace attnviz::ui {

namespace {
/// A table cell that sorts by its number, not its text.
class NumberItem : public QTableWidgetItem {
  public:
    /// −1 (not measured) and NaN (does not exist) read "–".
    explicit NumberItem(double v, int decimals)
        : QTableWidgetItem(!(v >= 0) && decimals > 0 ? QStringLiteral("–")
                                                     : QString::number(v, 'f', decimals)) {
        setData(Qt::UserRole, v);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};
}  // namespace

QString AtlasView::labelText(const std::string& label) {
    if (label == "previous token") return tr("previous token");
    if (label == "sink") return tr("sink");
    if (label == "self") return tr("self");
    if (label == "induction") return tr("induction");
    if (label == "broad") return tr("broad");
    return QString::fromStdString(label);
}

QString AtlasView::measureShort(const std::string& name) {
    if (name == "entropy") return tr("Entropy");
    if (name == "broadness") return tr("Broad");
    if (name == "mean_distance") return tr("Distance");
    if (name == "first") return tr("First");
    if (name == "self") return tr("Self");
    if (name == "previous") return tr("Previous");
    if (name == "induction") return tr("Induction");
    return QString::fromStdString(name);
}

QString AtlasView::measureText(const std::string& name) {
    if (name == "entropy") return tr("Entropy (nats)");
    if (name == "broadness") return tr("Broadness (entropy / its maximum)");
    if (name == "mean_distance") return tr("Mean distance (tokens)");
    if (name == "first") return tr("Attention to the first token");
    if (name == "self") return tr("Attention to itself");
    if (name == "previous") return tr("Attention to the previous token");
    if (name == "induction") return tr("Induction score");
    return QString::fromStdString(name);
}

AtlasView::AtlasView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("atlasView"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    measure_label_ = new QLabel(this);
    measure_ = new QComboBox(this);
    measure_->setObjectName(QStringLiteral("atlasMeasureCombo"));
    for (const std::string& n : models::head_measure_names())
        measure_->addItem(QString(), QString::fromStdString(n));
    measure_->setCurrentIndex(int(models::head_measure_names().size()) - 1);  // induction
    export_ = new QPushButton(this);
    export_->setObjectName(QStringLiteral("atlasExportButton"));
    top->addWidget(measure_label_);
    top->addWidget(measure_);
    top->addStretch(1);
    top->addWidget(export_);
    layout->addLayout(top);
    auto* split = split_ = new QSplitter(Qt::Horizontal, this);
    grid_ = new AtlasGrid(split);
    table_ = new QTableWidget(split);
    table_->setObjectName(QStringLiteral("atlasTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    frozen_ = (new FrozenColumns(table_, 2))->view();
    frozen_->setObjectName(QStringLiteral("atlasFrozenColumns"));
    split->addWidget(grid_);
    split->addWidget(table_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    legend_ = new QLabel(this);
    legend_->setWordWrap(true);
    layout->addWidget(legend_);

    connect(measure_, &QComboBox::currentIndexChanged, this,
            [this] { grid_->setAtlas(atlas(), measure().toStdString()); });
    connect(grid_, &AtlasGrid::activated, this, &AtlasView::activated);
    connect(grid_, &AtlasGrid::hovered, this, [this](int l, int h) {
        const models::HeadAtlas* a = atlas();
        if (!a || l < 0) return emit hovered(QString());
        const models::HeadMeasures& m = a->at(l, h);
        QStringList labels;
        for (const std::string& s : m.labels)
            labels << labelText(s);
        emit hovered(tr("Layer %1 · head %2: %3 %4%5")
                         .arg(l + 1)
                         .arg(h + 1)
                         .arg(measureText(measure().toStdString()))
                         .arg(models::head_measure(m, measure().toStdString()), 0, 'f', 3)
                         .arg(labels.isEmpty()
                                  ? QString()
                                  : QStringLiteral(" — ") + labels.join(QStringLiteral(", "))));
    });
    connect(table_, &QTableWidget::cellClicked, this, &AtlasView::activateRow);
    connect(grid_, &AtlasGrid::menuRequested, this, &AtlasView::headMenu);
    for (QAbstractItemView* view :
         {static_cast<QAbstractItemView*>(table_), static_cast<QAbstractItemView*>(frozen_)}) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& pos) {
            const QModelIndex index = view->indexAt(pos);
            if (!index.isValid()) return;
            const int row = index.row();
            headMenu(table_->item(row, 0)->data(Qt::UserRole).toInt() - 1,
                     table_->item(row, 1)->data(Qt::UserRole).toInt() - 1,
                     view->viewport()->mapToGlobal(pos));
        });
    }
    connect(split_, &QSplitter::splitterMoved, this, [this] { user_sized_ = true; });
    // Pressed, not clicked: the press selects the row in the shared selection, and the table
    // scrolling to it leaves the frozen view no release on the same index.
    connect(frozen_, &QTableView::pressed, this,
            [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(export_, &QPushButton::clicked, this, &AtlasView::exportCsv);
    retranslate();
}

void AtlasView::activateRow(int row) {
    // The table counts from 1, as the heatmap grid's titles do.
    emit activated(table_->item(row, 0)->data(Qt::UserRole).toInt() - 1,
                   table_->item(row, 1)->data(Qt::UserRole).toInt() - 1);
}

void AtlasView::headMenu(int layer, int head, const QPoint& global) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("atlasHeadMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSection(tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1));
    QAction* full = menu->addAction(tr("Open Full Map…"), this,
                                    [this, layer, head] { emit fullMapRequested(layer, head); });
    full->setObjectName(QStringLiteral("openFullMapAction"));
    QAction* grid = menu->addAction(tr("Show in Heatmaps"), this,
                                    [this, layer, head] { emit activated(layer, head); });
    grid->setObjectName(QStringLiteral("showInHeatmapsAction"));
    menu->popup(global);
}

void AtlasView::fitTable() {
    if (user_sized_ || !isVisible() || table_->rowCount() == 0) return;
    int need = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < table_->columnCount(); ++c)
        need += table_->columnWidth(c);
    const int room = split_->width() - split_->handleWidth();
    if (need <= room - grid_->minimumWidth()) split_->setSizes({room - need, need});
}

const models::HeadAtlas* AtlasView::atlas() const {
    return snapshot_ && snapshot_->model ? &snapshot_->model->atlas : nullptr;
}

QString AtlasView::measure() const {
    return measure_->currentData().toString();
}

void AtlasView::retranslate() {
    measure_label_->setText(tr("Colour the grid by:"));
    for (int k = 0; k < measure_->count(); ++k)
        measure_->setItemText(k, measureText(measure_->itemData(k).toString().toStdString()));
    export_->setText(tr("Export CSV…"));
    fill();
}

QString AtlasView::placeholderText() {
    const QString shipped = shipped_model_names();
    if (shipped.isEmpty()) return tr("Open a trained model to measure its heads.");
    return tr("Choose a trained model in the Source box of the tool bar (built in, nothing to "
              "download: %1), or open one (File ▸ Open Model…), to measure its heads.")
        .arg(shipped);
}

void AtlasView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTable();
}

void AtlasView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    fitTable();
}

void AtlasView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void AtlasView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    // Maps read from a file have no induction score (it runs the model): colour by another.
    if (snapshot_ && snapshot_->config.usesMaps() && measure() == QLatin1String("induction"))
        measure_->setCurrentIndex(measure_->findData(QStringLiteral("previous")));
    fill();
}

void AtlasView::fill() {
    QString legend =
        tr("Each measure is averaged over the query tokens of the text above. The induction "
           "score is measured on a sequence the tool makes (the first token, then 50 random "
           "tokens twice): the attention from a token of the second copy to the token after its "
           "earlier occurrence. Labels: previous token ≥ 0.4, sink (first token) ≥ 0.5, self ≥ "
           "0.5, induction ≥ 0.3, broad ≥ 0.8.");
    if (snapshot_ && snapshot_->config.usesMaps())
        legend += QLatin1Char(' ') +
                  tr("These maps were read from a file: the induction score needs the model "
                     "itself to run that sequence, so it is left out (–).");
    legend_->setText(legend);
    const models::HeadAtlas* a = atlas();
    grid_->setAtlas(a, measure().toStdString());
    const auto& names = models::head_measure_names();
    QStringList headers{tr("Layer"), tr("Head")};
    for (const std::string& n : names)
        headers << measureShort(n);
    headers << tr("Labels");
    table_->setSortingEnabled(false);
    table_->clear();
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    for (std::size_t k = 0; k < names.size(); ++k)
        table_->horizontalHeaderItem(int(k) + 2)->setToolTip(measureText(names[k]));
    table_->setRowCount(a ? int(a->layers() * a->heads()) : 0);
    if (a) {
        int row = 0;
        for (std::int64_t l = 0; l < a->layers(); ++l)
            for (std::int64_t h = 0; h < a->heads(); ++h, ++row) {
                const models::HeadMeasures& m = a->at(l, h);
                table_->setItem(row, 0, new NumberItem(double(l + 1), 0));
                table_->setItem(row, 1, new NumberItem(double(h + 1), 0));
                int col = 2;
                for (const std::string& n : names)
                    table_->setItem(row, col++, new NumberItem(models::head_measure(m, n), 3));
                QStringList labels;
                for (const std::string& s : m.labels)
                    labels << labelText(s);
                table_->setItem(row, col, new QTableWidgetItem(labels.join(QStringLiteral(", "))));
            }
    }
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
    fitTable();
    export_->setEnabled(a != nullptr);
}

// --- frozen columns -----------------------------------------------------------------------

FrozenColumns::FrozenColumns(QTableView* table, int count)
    : QObject(table), table_(table), frozen_(new QTableView(table)), count_(count) {
    frozen_->setModel(table_->model());
    frozen_->setSelectionModel(table_->selectionModel());
    frozen_->setFocusPolicy(Qt::NoFocus);
    frozen_->verticalHeader()->hide();
    frozen_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    frozen_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    frozen_->setSelectionBehavior(table_->selectionBehavior());
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollMode(table_->verticalScrollMode());
    frozen_->setFrameShape(QFrame::NoFrame);
    frozen_->setStyleSheet(QStringLiteral("QTableView { border-right: 1px solid #a0a0a0; }"));
    table_->viewport()->stackUnder(frozen_);
    // A click on the frozen Layer or Head header sorts the table (which sorts the one model);
    // the table's indicator shows in the frozen header too.
    frozen_->horizontalHeader()->setSectionsClickable(true);
    frozen_->horizontalHeader()->setSortIndicatorShown(true);
    QHeaderView* header = table_->horizontalHeader();
    connect(frozen_->horizontalHeader(), &QHeaderView::sortIndicatorChanged, header,
            [header](int column, Qt::SortOrder order) { header->setSortIndicator(column, order); });
    connect(header, &QHeaderView::sortIndicatorChanged, frozen_,
            [this](int column, Qt::SortOrder order) {
                frozen_->horizontalHeader()->setSortIndicator(column, order);
            });
    connect(header, &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        if (column >= count_) return;
        frozen_->setColumnWidth(column, size);
        place();
    });
    connect(table_->verticalHeader(), &QHeaderView::sectionResized, frozen_,
            [this](int row, int, int size) { frozen_->setRowHeight(row, size); });
    connect(frozen_->verticalScrollBar(), &QAbstractSlider::valueChanged,
            table_->verticalScrollBar(), &QAbstractSlider::setValue);
    connect(table_->verticalScrollBar(), &QAbstractSlider::valueChanged,
            frozen_->verticalScrollBar(), &QAbstractSlider::setValue);
    connect(table_->model(), &QAbstractItemModel::columnsInserted, this,
            &FrozenColumns::syncColumns);
    connect(table_->model(), &QAbstractItemModel::modelReset, this, &FrozenColumns::syncColumns);
    // The table deletes its headers before its model, whose reset then still reaches here.
    connect(table_->verticalHeader(), &QObject::destroyed, this, [this] { closing_ = true; });
    table_->installEventFilter(this);
    syncColumns();
}

void FrozenColumns::syncColumns() {
    if (closing_) return;
    for (int c = 0; c < table_->model()->columnCount(); ++c) {
        frozen_->setColumnHidden(c, c >= count_);
        if (c < count_) frozen_->setColumnWidth(c, table_->columnWidth(c));
    }
    place();
}

void FrozenColumns::place() {
    if (closing_) return;
    int width = 0;
    for (int c = 0; c < std::min(count_, table_->model()->columnCount()); ++c)
        width += table_->columnWidth(c);
    frozen_->setVisible(width > 0);
    frozen_->setGeometry(table_->verticalHeader()->width() + table_->frameWidth(),
                         table_->frameWidth(), width,
                         table_->viewport()->height() + table_->horizontalHeader()->height());
}

bool FrozenColumns::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_ && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        place();
    return QObject::eventFilter(watched, event);
}

void AtlasView::exportCsv() {
    const models::HeadAtlas* a = atlas();
    if (!a) return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the Head Atlas"),
                                     QStringLiteral("head-atlas.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QSaveFile file(path);
    const QByteArray bytes = QByteArray::fromStdString(a->to_csv());
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        emit failed(tr("Cannot export the head atlas"),
                    tr("Cannot write '%1': %2").arg(path, file.errorString()));
}

// --- the grid -----------------------------------------------------------------------------

AtlasGrid::AtlasGrid(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("atlasGrid"));
    setMouseTracking(true);
    setMinimumSize(240, 200);
}

void AtlasGrid::setAtlas(const models::HeadAtlas* atlas, const std::string& measure) {
    atlas_ = atlas;
    measure_ = measure;
    update();
}

QRect AtlasGrid::cellRect(int layer, int head) const {
    if (!atlas_ || cell_ <= 0) return {};
    return QRect(left_ + head * cell_, top_ + layer * cell_, cell_ - 1, cell_ - 1);
}

QPoint AtlasGrid::headAt(const QPoint& pos) const {
    if (!atlas_ || cell_ <= 0 || pos.x() < left_ || pos.y() < top_) return QPoint(-1, -1);
    const int h = (pos.x() - left_) / cell_, l = (pos.y() - top_) / cell_;
    if (h >= atlas_->heads() || l >= atlas_->layers()) return QPoint(-1, -1);
    return QPoint(h, l);
}

void AtlasGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (!atlas_ || atlas_->layers() == 0) {
        p.setPen(QColor(90, 90, 90));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   AtlasView::placeholderText());
        return;
    }
    const QFontMetrics fm(font());
    left_ = fm.horizontalAdvance(QString::number(atlas_->layers())) + 12;
    top_ = fm.height() + 6;
    cell_ = std::clamp(int(std::min((width() - left_ - 4) / atlas_->heads(),
                                    (height() - top_ - 4) / atlas_->layers())),
                       6, 56);
    double lo = 1e300, hi = -1e300;
    for (std::int64_t l = 0; l < atlas_->layers(); ++l)
        for (std::int64_t h = 0; h < atlas_->heads(); ++h) {
            const double v = models::head_measure(atlas_->at(l, h), measure_);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    // Shares (attention to a token, scores) on their natural 0–1 scale; the others from
    // their smallest to their largest value.
    const bool share = measure_ != "entropy" && measure_ != "mean_distance";
    if (share) {
        lo = 0.0;
        hi = 1.0;
    }
    QCPColorGradient g = make_gradient(Colormap::Viridis);
    p.setPen(QColor(60, 60, 60));
    for (std::int64_t h = 0; h < atlas_->heads(); ++h)
        if (cell_ >= fm.horizontalAdvance(QString::number(h + 1)) + 2 || h % 2 == 0)
            p.drawText(QRect(left_ + int(h) * cell_, 0, cell_, top_ - 2),
                       Qt::AlignHCenter | Qt::AlignBottom, QString::number(h + 1));
    for (std::int64_t l = 0; l < atlas_->layers(); ++l)
        p.drawText(QRect(0, top_ + int(l) * cell_, left_ - 6, cell_),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(l + 1));
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
    const QFontMetrics sfm(small);
    for (std::int64_t l = 0; l < atlas_->layers(); ++l)
        for (std::int64_t h = 0; h < atlas_->heads(); ++h) {
            const double v = models::head_measure(atlas_->at(l, h), measure_);
            const QRect r = cellRect(int(l), int(h));
            const bool none = !(v >= 0);  // not measured (−1) or does not exist (NaN)
            const QColor c = none
                                 ? QColor(230, 230, 230)
                                 : QColor::fromRgb(g.color(v, QCPRange(lo, hi > lo ? hi : lo + 1)));
            p.fillRect(r, c);
            const QString text =
                none ? QStringLiteral("–") : QString::number(v, 'f', v >= 10 ? 0 : 2);
            if (sfm.horizontalAdvance(text) + 4 <= r.width() && sfm.height() <= r.height()) {
                p.setFont(small);
                p.setPen(text_color_on(c));
                p.drawText(r, Qt::AlignCenter, text);
                p.setFont(font());
            }
        }
}

void AtlasGrid::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;  // the right button opens the menu
    const QPoint at = headAt(event->position().toPoint());
    if (at.x() >= 0) emit activated(at.y(), at.x());
}

void AtlasGrid::contextMenuEvent(QContextMenuEvent* event) {
    const QPoint at = headAt(event->pos());
    if (at.x() < 0) return QWidget::contextMenuEvent(event);
    emit menuRequested(at.y(), at.x(), event->globalPos());
}

void AtlasGrid::mouseMoveEvent(QMouseEvent* event) {
    const QPoint at = headAt(event->position().toPoint());
    emit hovered(at.y(), at.x());
}

}  // namespace attnviz::ui
