#include "ui/model/atlas_view.h"

#include <QComboBox>
#include <QContextMenuEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

#include "ui/document/shipped_models.h"
#include "ui/model/corpus_examples.h"
#include "ui/render/colormaps.h"
#include "ui/widgets/wrapping_row_layout.h"

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
    /// `text` shown, sorted by `v`.
    NumberItem(double v, const QString& text) : QTableWidgetItem(text) {
        setData(Qt::UserRole, v);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

/// Decimals a measure is shown with: tokens and nats with two, shares with three.
int decimals_of(const std::string& measure) {
    return measure == "entropy" || measure == "mean_distance" ? 2 : 3;
}

/// A corpus's mean as the table shows it: "0.498 ±0.003" (half its 95% interval).
QString mean_text(const models::MeasureSummary& m, int decimals) {
    if (!std::isfinite(m.mean)) return QStringLiteral("–");
    const QString mean = QString::number(m.mean, 'f', decimals);
    if (!std::isfinite(m.low)) return mean;
    return mean + QStringLiteral(" ±") + QString::number((m.high - m.low) / 2, 'f', decimals);
}
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
    // A bar: presenting, the view tabs give it their bars' type, and it wraps when narrow.
    auto* top = new WrappingRowLayout;
    createModeRow(top);
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
    // The grid and the table, over the corpus mode's examples of the head clicked.
    vertical_ = new QSplitter(Qt::Vertical, this);
    vertical_->setObjectName(QStringLiteral("atlasVerticalSplitter"));
    auto* split = split_ = new QSplitter(Qt::Horizontal, vertical_);
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
    examples_ = new CorpusExamples(vertical_);
    vertical_->addWidget(split);
    vertical_->addWidget(examples_);
    vertical_->setStretchFactor(0, 3);
    vertical_->setStretchFactor(1, 2);
    vertical_->setCollapsible(0, false);
    examples_->hide();
    layout->addWidget(vertical_, 1);
    legend_ = new QLabel(this);
    legend_->setObjectName(QStringLiteral("atlasLegend"));
    legend_->setWordWrap(true);
    layout->addWidget(legend_);
    connectGrid();
    retranslate();
}

/// "This text | Corpus (N texts)": the corpus's choice is offered once one measured the model.
void AtlasView::createModeRow(WrappingRowLayout* row) {
    text_mode_ = new QRadioButton(this);
    text_mode_->setObjectName(QStringLiteral("atlasTextMode"));
    text_mode_->setChecked(true);
    corpus_mode_ = new QRadioButton(this);
    corpus_mode_->setObjectName(QStringLiteral("atlasCorpusMode"));
    corpus_mode_->setEnabled(false);
    row->addWidget(text_mode_);
    row->addWidget(corpus_mode_);
    row->addSpacing(16);
    connect(corpus_mode_, &QRadioButton::toggled, this, [this] {
        examples_->setVisible(corpusMode());
        fill();
    });
}

/// The grid, the table and the examples: hover, click, context menu, export.
void AtlasView::connectGrid() {
    connect(measure_, &QComboBox::currentIndexChanged, this, [this] { fill(); });
    connect(grid_, &AtlasGrid::activated, this, &AtlasView::chooseHead);
    connect(grid_, &AtlasGrid::hovered, this, &AtlasView::hoverHead);
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
    connect(examples_, &CorpusExamples::exampleActivated, this, &AtlasView::exampleActivated);
}

void AtlasView::hoverHead(int l, int h) {
    const models::HeadAtlas* a = atlas();
    const std::string name = measure().toStdString();
    if (l < 0 || (!a && !corpus())) return emit hovered(QString());
    if (const CorpusData* c = corpus()) {
        const models::CorpusHead& head = c->result.at(l, h);
        const models::MeasureSummary& m = head.measure(name);
        QStringList labels;
        for (const models::LabelAgreement& agree : head.agreement)
            if (std::find(head.labels.begin(), head.labels.end(), agree.label) != head.labels.end())
                labels << tr("%1 (%2% of texts agree)")
                              .arg(labelText(agree.label))
                              .arg(std::lround(100 * agree.share));
        const int d = decimals_of(name);
        emit hovered(tr("Layer %1 · head %2: %3 %4 (95% interval %5 to %6, %n text(s))%7", nullptr,
                        int(m.texts))
                         .arg(l + 1)
                         .arg(h + 1)
                         .arg(measureText(name))
                         .arg(m.mean, 0, 'f', d)
                         .arg(m.low, 0, 'f', d)
                         .arg(m.high, 0, 'f', d)
                         .arg(labels.isEmpty()
                                  ? QString()
                                  : QStringLiteral(" — ") + labels.join(QStringLiteral(", "))));
        return;
    }
    const models::HeadMeasures& m = a->at(l, h);
    QStringList labels;
    for (const std::string& s : m.labels)
        labels << labelText(s);
    emit hovered(tr("Layer %1 · head %2: %3 %4%5")
                     .arg(l + 1)
                     .arg(h + 1)
                     .arg(measureText(name))
                     .arg(models::head_measure(m, name), 0, 'f', 3)
                     .arg(labels.isEmpty()
                              ? QString()
                              : QStringLiteral(" — ") + labels.join(QStringLiteral(", "))));
}

void AtlasView::chooseHead(int layer, int head) {
    if (!corpus()) return emit activated(layer, head);
    grid_->setSelected(layer, head);
    examples_->setHead(corpus_, layer, head);
    emit headFocused(layer, head);
}

void AtlasView::activateRow(int row) {
    // The table counts from 1, as the heatmap grid's titles do.
    chooseHead(table_->item(row, 0)->data(Qt::UserRole).toInt() - 1,
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

void AtlasView::setPresentation(int bar_px) {
    const bool present = bar_px > 0;
    if (present && bar_px_ == 0) {  // the window's splitter, to come back to
        window_sizes_ = split_->sizes();
        window_user_sized_ = user_sized_;
        user_sized_ = false;
    }
    const bool leaving = !present && bar_px_ > 0;
    bar_px_ = bar_px;
    QFont f;  // not presenting: the view's own again
    if (present) f.setPixelSize(bar_px);
    for (QWidget* w : std::initializer_list<QWidget*>{table_, examples_, legend_, grid_})
        w->setFont(f);
    // Every part of the tables too (their headers and viewports; the frozen columns, a child of
    // the table, and theirs): under a style sheet a widget takes no font from its parent, a
    // header shorter than the table's would shift the frozen rows off the table's, and the
    // table's own header was seen to keep the window's type when the presenting one reached the
    // table under load (ui_layout_test under ASan beside other tests).
    for (QWidget* table : std::initializer_list<QWidget*>{table_, examples_})
        for (QWidget* w : table->findChildren<QWidget*>())
            w->setFont(f);
    grid_->setPresentation(present);
    // The examples' columns to their new type; with no head listed, as they were at first.
    QTableWidget* examples = examples_->table();
    if (present || examples->rowCount() > 0)
        examples->resizeColumnsToContents();
    else
        for (int c = 0; c < examples->columnCount(); ++c)
            examples->setColumnWidth(c, examples->horizontalHeader()->defaultSectionSize());
    finishTable();
    if (leaving && std::accumulate(window_sizes_.begin(), window_sizes_.end(), 0) > 0) {
        split_->setSizes(window_sizes_);
        user_sized_ = window_user_sized_;
    }
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
    text_mode_->setText(tr("This text"));
    text_mode_->setToolTip(tr("Every head measured on the text above"));
    corpus_mode_->setToolTip(
        tr("Every head measured over the texts of a corpus, each measure with its 95% "
           "interval (File ▸ Open Corpus…)"));
    syncModes();
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
    // The grid points into the old snapshot's atlas until fill(): alive till then.
    const SnapshotPtr old = std::exchange(snapshot_, std::move(snapshot));
    // Maps read from a file have no induction score (it runs the model): colour by another.
    if (snapshot_ && snapshot_->config.usesMaps() && measure() == QLatin1String("induction"))
        measure_->setCurrentIndex(measure_->findData(QStringLiteral("previous")));
    syncModes();
    fill();
}

void AtlasView::setCorpus(CorpusPtr corpus) {
    const bool fresh = corpus && corpus != corpus_;
    // The grid points into the old corpus until fill(): alive till then (syncModes() shows and
    // hides, which lays the grid out at once).
    const CorpusPtr old = std::exchange(corpus_, std::move(corpus));
    examples_->setHead(nullptr, -1, -1);
    grid_->setSelected(-1, -1);
    syncModes();
    // A corpus just measured is what the user asked to see.
    if (fresh && corpusOffered()) setCorpusMode(true);
    fill();
}

bool AtlasView::corpusOffered() const {
    return corpus_ && snapshot_ && snapshot_->model && !snapshot_->config.usesMaps() &&
           corpus_->isOf(snapshot_->model->folder);
}

void AtlasView::syncModes() {
    const bool offered = corpusOffered();
    corpus_mode_->setEnabled(offered);
    corpus_mode_->setText(corpus_ ? tr("Corpus (%n text(s))", nullptr, int(corpus_->result.texts))
                                  : tr("Corpus"));
    if (!offered && corpus_mode_->isChecked()) text_mode_->setChecked(true);
}

const CorpusData* AtlasView::corpus() const {
    return corpusMode() ? corpus_.get() : nullptr;
}

bool AtlasView::corpusMode() const {
    return corpus_mode_->isChecked() && corpusOffered();
}

void AtlasView::setCorpusMode(bool on) {
    (on && corpusOffered() ? corpus_mode_ : text_mode_)->setChecked(true);
}

void AtlasView::fillLegend() {
    if (const CorpusData* c = corpus()) {
        const models::CorpusResult& r = c->result;
        const QString from =
            c->fromHistory() ? tr("the texts the text box held") : QFileInfo(c->source).fileName();
        QString legend =
            tr("Each measure is averaged over %1 (%n text(s), %2 tokens; the induction score "
               "over the %3 that repeat a token), with its 95% interval: the whiskers in the "
               "grid, ± in the table. A label is the one the means earn; its share is of the "
               "texts whose own measures earn it. Click a head for its top examples.",
               nullptr, int(r.texts))
                .arg(from)
                .arg(r.tokens)
                .arg(r.texts_with_repeats);
        if (r.partial)
            legend += QLatin1Char(' ') + tr("Stopped after %1 of %2 texts: the result is partial.")
                                             .arg(r.texts)
                                             .arg(c->texts_given);
        if (c->truncated > 0)
            legend +=
                QLatin1Char(' ') + tr("%n text(s) longer than the model were cut to its positions.",
                                      nullptr, int(c->truncated));
        legend_->setText(legend);
        return;
    }
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
}

void AtlasView::fill() {
    // The grid's pointers first: showing the examples lays the view out at once.
    const models::HeadAtlas* a = corpus() ? nullptr : atlas();
    grid_->setCorpus(corpus() ? &corpus_->result : nullptr, measure().toStdString());
    grid_->setAtlas(a, measure().toStdString());
    fillLegend();
    examples_->setVisible(corpus() != nullptr);
    if (corpus()) {
        fillCorpusTable();
        export_->setEnabled(true);
        return;
    }
    const auto& names = models::head_measure_names();
    startTable(tr("Labels"), a ? int(a->layers() * a->heads()) : 0,
               [](const std::string& name) { return measureText(name); });
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
    finishTable();
    export_->setEnabled(a != nullptr);
}

void AtlasView::startTable(const QString& labels, int rows,
                           const std::function<QString(const std::string&)>& tip) {
    QStringList headers{tr("Layer"), tr("Head")};
    const auto& names = models::head_measure_names();
    for (const std::string& n : names)
        headers << measureShort(n);
    headers << labels;
    table_->setSortingEnabled(false);
    table_->clear();
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    for (std::size_t k = 0; k < names.size(); ++k)
        table_->horizontalHeaderItem(int(k) + 2)->setToolTip(tip(names[k]));
    table_->setRowCount(rows);
}

void AtlasView::finishTable() {
    // Presenting, the table lists what the grid shows: all seven measures at a legible size are
    // wider than a projector leaves beside the grid, and a sideways scroll bar hides the labels.
    // The others are the colour-by box away (and in the CSV).
    const auto& names = models::head_measure_names();
    for (std::size_t k = 0; k < names.size(); ++k)
        table_->setColumnHidden(int(k) + 2,
                                bar_px_ > 0 && QString::fromStdString(names[k]) != measure());
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
    fitTable();
}

void AtlasView::fillCorpusTable() {
    const models::CorpusResult& r = corpus_->result;
    const auto& names = models::head_measure_names();
    startTable(tr("Labels (share of texts)"), int(r.layers * r.heads), [](const std::string& n) {
        return tr("%1: the mean over the texts ± half its 95% interval").arg(measureText(n));
    });
    int row = 0;
    for (std::int64_t l = 0; l < r.layers; ++l)
        for (std::int64_t h = 0; h < r.heads; ++h, ++row) {
            const models::CorpusHead& head = r.at(l, h);
            table_->setItem(row, 0, new NumberItem(double(l + 1), 0));
            table_->setItem(row, 1, new NumberItem(double(h + 1), 0));
            for (std::size_t k = 0; k < names.size(); ++k) {
                const models::MeasureSummary& m = head.measures[k];
                auto* item = new NumberItem(std::isfinite(m.mean) ? m.mean : -1.0,
                                            mean_text(m, decimals_of(names[k])));
                if (std::isfinite(m.low))
                    item->setToolTip(
                        tr("95% interval %1 to %2 over %n text(s)", nullptr, int(m.texts))
                            .arg(m.low, 0, 'f', decimals_of(names[k]))
                            .arg(m.high, 0, 'f', decimals_of(names[k])));
                table_->setItem(row, int(k) + 2, item);
            }
            QStringList labels;
            for (const models::LabelAgreement& a : head.agreement)
                if (std::find(head.labels.begin(), head.labels.end(), a.label) != head.labels.end())
                    labels << QStringLiteral("%1 %2%")
                                  .arg(labelText(a.label))
                                  .arg(std::lround(100 * a.share));
            table_->setItem(row, int(names.size()) + 2,
                            new QTableWidgetItem(labels.join(QStringLiteral(", "))));
        }
    finishTable();
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
    // What is shown now is written, and stays alive through the dialog: a pass or a corpus
    // that arrives while it is open replaces snapshot_ and corpus_.
    const SnapshotPtr snapshot = snapshot_;
    const CorpusPtr corpus = corpus_;
    const models::HeadAtlas* a = atlas();
    const CorpusData* c = this->corpus();
    if (!a && !c) return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the Head Atlas"),
        c ? QStringLiteral("corpus-atlas.csv") : QStringLiteral("head-atlas.csv"),
        tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QSaveFile file(path);
    // The corpus's: `attnviz export --view atlas --texts`'s table.
    const QByteArray bytes =
        c ? corpus_atlas_csv(c->result) : QByteArray::fromStdString(a->to_csv());
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

void AtlasGrid::setCorpus(const models::CorpusResult* corpus, const std::string& measure) {
    corpus_ = corpus;
    measure_ = measure;
    update();
}

void AtlasGrid::setPresentation(bool on) {
    presenting_ = on;
    update();
}

void AtlasGrid::setSelected(int layer, int head) {
    selected_ = QPoint(head, layer);
    update();
}

std::int64_t AtlasGrid::layers() const {
    return corpus_ ? corpus_->layers : atlas_ ? atlas_->layers() : 0;
}

std::int64_t AtlasGrid::heads() const {
    return corpus_ ? corpus_->heads : atlas_ ? atlas_->heads() : 0;
}

double AtlasGrid::value(std::int64_t layer, std::int64_t head) const {
    if (corpus_) return corpus_->at(layer, head).measure(measure_).mean;
    return models::head_measure(atlas_->at(layer, head), measure_);
}

std::pair<double, double> AtlasGrid::interval(std::int64_t layer, std::int64_t head) const {
    if (!corpus_) return {std::nan(""), std::nan("")};
    const models::MeasureSummary& m = corpus_->at(layer, head).measure(measure_);
    return {m.low, m.high};
}

QRect AtlasGrid::cellRect(int layer, int head) const {
    if (layers() == 0 || cell_ <= 0) return {};
    return QRect(left_ + head * cell_, top_ + layer * cell_, cell_ - 1, cell_ - 1);
}

QPoint AtlasGrid::headAt(const QPoint& pos) const {
    if (layers() == 0 || cell_ <= 0 || pos.x() < left_ || pos.y() < top_) return QPoint(-1, -1);
    const int h = (pos.x() - left_) / cell_, l = (pos.y() - top_) / cell_;
    if (h >= heads() || l >= layers()) return QPoint(-1, -1);
    return QPoint(h, l);
}

void AtlasGrid::paintWhiskers(QPainter* p, const QRect& r, std::pair<double, double> interval,
                              double mean, double lo, double hi, const QColor& colour) const {
    if (!std::isfinite(interval.first) || !std::isfinite(interval.second) || hi <= lo) return;
    const double inset = 4.0, y = r.bottom() - std::max(3.0, r.height() * 0.16);
    const auto x = [&](double v) {
        return r.left() + inset +
               (r.width() - 2 * inset) * std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
    };
    const double tick = std::max(2.0, r.height() * 0.08);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    // The scale's whole width faintly, so where the whisker sits reads as its value.
    QColor axis = colour;
    axis.setAlpha(70);
    p->setPen(QPen(axis, 1));
    p->drawLine(QPointF(x(lo), y), QPointF(x(hi), y));
    p->setPen(QPen(colour, 1.2));
    const double a = x(interval.first), b = x(interval.second);
    p->drawLine(QPointF(a, y), QPointF(b, y));
    p->drawLine(QPointF(a, y - tick), QPointF(a, y + tick));
    p->drawLine(QPointF(b, y - tick), QPointF(b, y + tick));
    p->setBrush(colour);
    p->drawEllipse(QPointF(x(mean), y), 1.6, 1.6);
    p->restore();
}

void AtlasGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    const std::int64_t L = layers(), H = heads();
    if (L == 0) {
        p.setPen(QColor(90, 90, 90));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   AtlasView::placeholderText());
        return;
    }
    const QFontMetrics fm(font());
    left_ = fm.horizontalAdvance(QString::number(L)) + 12;
    top_ = fm.height() + 6;
    // Presenting, a small model's few cells fill the room a projector gives them.
    cell_ = std::clamp(int(std::min((width() - left_ - 4) / H, (height() - top_ - 4) / L)), 6,
                       presenting_ ? 160 : 56);
    double lo = 1e300, hi = -1e300;
    for (std::int64_t l = 0; l < L; ++l)
        for (std::int64_t h = 0; h < H; ++h) {
            const double v = value(l, h);
            if (!std::isfinite(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            // A corpus's whiskers stay on the scale.
            const auto [a, b] = interval(l, h);
            if (std::isfinite(a)) lo = std::min(lo, a);
            if (std::isfinite(b)) hi = std::max(hi, b);
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
    for (std::int64_t h = 0; h < H; ++h)
        if (cell_ >= fm.horizontalAdvance(QString::number(h + 1)) + 2 || h % 2 == 0)
            p.drawText(QRect(left_ + int(h) * cell_, 0, cell_, top_ - 2),
                       Qt::AlignHCenter | Qt::AlignBottom, QString::number(h + 1));
    for (std::int64_t l = 0; l < L; ++l)
        if (cell_ >= fm.height() || l % 2 == 0)  // every other one where rows are shorter
            p.drawText(QRect(0, top_ + int(l) * cell_, left_ - 6, cell_),
                       Qt::AlignRight | Qt::AlignVCenter, QString::number(l + 1));
    QFont small = font();
    if (presenting_)  // read from the back of a classroom where the cell is large enough
        small.setPixelSize(std::max(QFontInfo(font()).pixelSize() * 4 / 5, cell_ / 4));
    else
        small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
    const QFontMetrics sfm(small);
    for (std::int64_t l = 0; l < L; ++l)
        for (std::int64_t h = 0; h < H; ++h) {
            const double v = value(l, h);
            const QRect r = cellRect(int(l), int(h));
            const bool none = !(v >= 0);  // not measured (−1) or does not exist (NaN)
            const QColor c = none
                                 ? QColor(230, 230, 230)
                                 : QColor::fromRgb(g.color(v, QCPRange(lo, hi > lo ? hi : lo + 1)));
            p.fillRect(r, c);
            const QString text =
                none ? QStringLiteral("–") : QString::number(v, 'f', v >= 10 ? 0 : 2);
            // With whiskers under it, the number moves up to leave them room.
            const bool whiskers = corpus_ && !none && r.height() >= sfm.height() + 10;
            const QRect text_rect = whiskers ? r.adjusted(0, 0, 0, -r.height() / 4) : r;
            if (sfm.horizontalAdvance(text) + 4 <= r.width() &&
                sfm.height() <= text_rect.height()) {
                p.setFont(small);
                p.setPen(text_color_on(c));
                p.drawText(text_rect, Qt::AlignCenter, text);
                p.setFont(font());
            }
            if (corpus_ && !none)
                paintWhiskers(&p, r, interval(l, h), v, lo, hi > lo ? hi : lo + 1,
                              text_color_on(c));
        }
    if (selected_.x() >= 0 && selected_.y() < L && selected_.x() < H) {
        p.setPen(QPen(QColor(0xd5, 0x5e, 0x00), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(selected_.y(), selected_.x()).adjusted(1, 1, -1, -1));
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
