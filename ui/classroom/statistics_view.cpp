#include "ui/classroom/statistics_view.h"

#include <QClipboard>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <cstdio>
#include <exception>
#include <numbers>

#include "engine/io/file_util.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/compute/error_text.h"

namespace attnviz::ui {

namespace {
/// The engine measures entropy in nats; this tab has always shown bits (log2 of the keys for
/// attention spread evenly over them).
double bits(double nats) {
    return nats * std::numbers::log2e;
}
}  // namespace

std::string head_statistics_table(const std::vector<models::HeadMeasures>& stats, char separator) {
    std::string out;
    const char* const names[] = {"head",  "rows", "entropy_bits", "max_weight", "mean_distance",
                                 "first", "cls",  "sep",          "self",       "previous"};
    for (const char* name : names) {
        if (name != names[0]) out += separator;
        out += name;
    }
    out += '\n';
    char buffer[32];
    const auto number = [&](double v) {
        out += separator;
        if (std::isnan(v)) return;
        std::snprintf(buffer, sizeof buffer, "%.9g", v);
        out += buffer;
    };
    for (std::size_t h = 0; h < stats.size(); ++h) {
        const models::HeadMeasures& m = stats[h];
        out += std::to_string(h + 1);
        out += separator;
        out += std::to_string(m.rows);
        for (double v : {bits(m.entropy), m.max_weight, m.mean_distance, m.first, m.cls, m.sep,
                         m.self, m.previous})
            number(v);
        out += '\n';
    }
    return out;
}

void HeadStatisticsModel::setStatistics(std::vector<models::HeadMeasures> stats, int focused_head) {
    beginResetModel();
    stats_ = std::move(stats);
    focused_ = focused_head;
    endResetModel();
}

int HeadStatisticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(stats_.size());
}

int HeadStatisticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

QVariant HeadStatisticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(stats_.size())) return {};
    const int head = index.row();
    const models::HeadMeasures& s = stats_[std::size_t(head)];
    double v = 0.0;
    switch (index.column()) {
        case Head:
            v = head;
            break;
        case Entropy:
            v = bits(s.entropy);
            break;
        case MaxWeight:
            v = s.max_weight;
            break;
        case Distance:
            v = s.mean_distance;
            break;
        case First:
            v = s.first;
            break;
        case Cls:
            v = s.cls;
            break;
        case Sep:
            v = s.sep;
            break;
        case Self:
            v = s.self;
            break;
        case Previous:
            v = s.previous;
            break;
        default:
            return {};
    }
    switch (role) {
        case ValueRole:
            return v;
        case Qt::DisplayRole:
            if (index.column() == Head) return tr("Head %1").arg(head + 1);
            if (std::isnan(v)) return QStringLiteral("—");
            if (index.column() == Entropy || index.column() == Distance)
                return QString::number(v, 'f', 2);
            return QStringLiteral("%1 %").arg(100.0 * v, 0, 'f', 1);
        case Qt::TextAlignmentRole:
            return index.column() == Head ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::DecorationRole:
            if (index.column() == Head) return paint::head_color(head);
            return {};
        case Qt::FontRole:
            if (head == focused_) {
                QFont f;
                f.setBold(true);
                return f;
            }
            return {};
        default:
            return {};
    }
}

QVariant HeadStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case Head:
                return tr("Head");
            case Entropy:
                return tr("Entropy (bits)");
            case MaxWeight:
                return tr("Max weight");
            case Distance:
                return tr("Mean distance");
            case First:
                return tr("First token");
            case Cls:
                return tr("[CLS]");
            case Sep:
                return tr("[SEP]");
            case Self:
                return tr("Itself");
            case Previous:
                return tr("Previous token");
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Entropy:
                return tr(
                    "How spread out each query's attention is, averaged over queries: 0 "
                    "bits = all on one key, log2(keys) = evenly on every key.");
            case MaxWeight:
                return tr(
                    "The largest weight of each query row, averaged: near 1 means the "
                    "head picks one key.");
            case Distance:
                return tr("How far each query looks, in tokens: Σ weight × |query − key|.");
            case First:
                return tr("Share of the weight on the first key token.");
            case Cls:
                return tr("Share of the weight on [CLS] keys (— if there are none).");
            case Sep:
                return tr("Share of the weight on [SEP] keys (— if there are none).");
            case Self:
                return tr("Share of the weight a token puts on itself (self-attention only).");
            case Previous:
                return tr(
                    "Share of the weight on the token just before (a 'previous-token "
                    "head').");
            default:
                return {};
        }
    }
    return {};
}

StatisticsView::StatisticsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("statisticsView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* top = new QHBoxLayout;
    intro_ = new QLabel(this);
    intro_->setObjectName(QStringLiteral("statisticsIntro"));
    intro_->setWordWrap(true);
    top->addWidget(intro_, 1);
    copy_ = new QPushButton(this);
    copy_->setObjectName(QStringLiteral("statisticsCopyButton"));
    export_ = new QPushButton(this);
    export_->setObjectName(QStringLiteral("statisticsExportButton"));
    top->addWidget(copy_);
    top->addWidget(export_);
    layout->addLayout(top);
    connect(copy_, &QPushButton::clicked, this, &StatisticsView::copyTable);
    connect(export_, &QPushButton::clicked, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Export Head Statistics"),
                                                    QStringLiteral("head_statistics.csv"),
                                                    tr("CSV files (*.csv)"));
        if (path.isEmpty()) return;
        if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
        QString error;
        if (!exportCsv(path, &error)) emit failed(tr("Cannot export the statistics"), error);
    });
    model_ = new HeadStatisticsModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(HeadStatisticsModel::ValueRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("statisticsTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(HeadStatisticsModel::Head, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    layout->addWidget(table_, 1);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { emit headActivated(headAtRow(index.row())); });
    connect(table_, &QTableView::activated, this,
            [this](const QModelIndex& index) { emit headActivated(headAtRow(index.row())); });
    retranslate();
}

void StatisticsView::retranslate() {
    copy_->setText(tr("&Copy Table"));
    copy_->setToolTip(tr("Copy the table, tab-separated, to paste into a spreadsheet"));
    export_->setText(tr("E&xport CSV…"));
    export_->setToolTip(tr("Save the table as a CSV file"));
    intro_->setText(
        tr("What each head does, averaged over the query tokens. Click a column to sort; click "
           "a head to see it in the grid. Hover a column title for its meaning.") +
        (norm_based_ ? QLatin1Char(' ') + tr("Norm-based: each row of ‖α·f(x)‖ is measured as "
                                             "shares of its total, in place of the weights.")
                     : QString()));
}

void StatisticsView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

int StatisticsView::headAtRow(int row) const {
    const QModelIndex source = proxy_->mapToSource(proxy_->index(row, 0));
    return source.isValid() ? source.row() : -1;  // one row per head, in head order
}

void StatisticsView::setSnapshot(SnapshotPtr snapshot, int item, int focused_head,
                                 const std::vector<models::HeadMeasures>* measured) {
    // The intro says what is measured: the weights, or the norm-based maps' shares.
    norm_based_ = snapshot && snapshot->norm_based;
    retranslate();
    model_->setStatistics(measured   ? *measured
                          : snapshot ? snapshot_head_measures(*snapshot, item)
                                     : std::vector<models::HeadMeasures>{},
                          focused_head);
}

bool StatisticsView::exportCsv(const QString& path, QString* error) const {
    try {
        io::write_file_atomically(QFile::encodeName(path).toStdString(),
                                  head_statistics_table(model_->statistics(), ','));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = error_text(e);
        return false;
    }
}

void StatisticsView::copyTable() const {
    QGuiApplication::clipboard()->setText(
        QString::fromStdString(head_statistics_table(model_->statistics(), '\t')));
}

}  // namespace attnviz::ui
