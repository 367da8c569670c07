#include "ui/model/positions_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/errors.h"
#include "qcustomplot.h"
#include "ui/compute/csv.h"
#include "ui/compute/error_text.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"
#include "ui/model/atlas_view.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {

/// Tableau 10: told apart in print and by most colour-blind readers.
const QColor kLineColors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                              QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                              QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                              QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
                              QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};

const float* curve_of(const models::HeadStatistics& s, models::HeadRef h,
                      PositionsPlotOptions::Curve curve) {
    return curve == PositionsPlotOptions::Curve::Received ? s.received_of(h.layer, h.head)
                                                          : s.first_token_of(h.layer, h.head);
}

QString head_name(models::HeadRef h) {
    return PositionsView::tr("Layer %1 · head %2").arg(h.layer + 1).arg(h.head + 1);
}

/// The heads a first look shows: those that put most attention on the first token (sinks)
/// and those that look furthest back, at most four.
std::vector<models::HeadRef> default_heads(const models::HeadStatistics& s) {
    std::vector<models::HeadRef> all;
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < s.heads; ++h)
            all.push_back({l, h});
    const auto by = [&](auto measure) {
        std::vector<models::HeadRef> sorted = all;
        std::stable_sort(sorted.begin(), sorted.end(), [&](models::HeadRef a, models::HeadRef b) {
            return measure(s.atlas.at(a.layer, a.head)) > measure(s.atlas.at(b.layer, b.head));
        });
        return sorted;
    };
    std::vector<models::HeadRef> out;
    const auto add = [&](const std::vector<models::HeadRef>& from, std::size_t n) {
        for (const models::HeadRef& h : from) {
            if (n == 0) break;
            if (std::find(out.begin(), out.end(), h) != out.end()) continue;
            out.push_back(h);
            --n;
        }
    };
    add(by([](const models::HeadMeasures& m) { return m.first; }), 2);
    add(by([](const models::HeadMeasures& m) { return m.mean_distance; }), 2);
    return out;
}

}  // namespace

void draw_positions_plot(QCustomPlot* plot, const PositionStatistics& stats,
                         const PositionsPlotOptions& options) {
    const models::HeadStatistics& s = stats.statistics;
    plot->clearGraphs();
    plot->clearItems();
    const QFont font = figure_font(options.font_px);
    const QFont small = figure_font(std::max(9, options.font_px - 2));
    const bool received = options.curve == PositionsPlotOptions::Curve::Received;
    const int L = int(s.length);
    QVector<double> x(L);
    for (int j = 0; j < L; ++j)
        x[j] = j + 1;  // positions from 1, as the window counts tokens
    const auto add_line = [&](const QVector<double>& y, const QPen& pen, const QString& name) {
        QCPGraph* g = plot->addGraph();
        g->setData(x, y, true);
        g->setPen(pen);
        g->setName(name);
        g->setLineStyle(L > 1 ? QCPGraph::lsLine : QCPGraph::lsNone);
        if (L <= 1) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    };
    // The mean over every head, dashed under the heads picked: what a head does differently.
    QVector<double> mean(L, 0.0);
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < s.heads; ++h) {
            const float* c = curve_of(s, {l, h}, options.curve);
            for (int j = 0; j < L; ++j)
                mean[j] += c[j];
        }
    const double heads = double(std::max<std::int64_t>(1, s.layers * s.heads));
    for (double& v : mean)
        v /= heads;
    add_line(mean, QPen(QColor(120, 120, 120), 1.5, Qt::DashLine),
             PositionsView::tr("mean of all %1 heads").arg(s.layers * s.heads));
    int k = 0;
    for (const models::HeadRef& h : options.heads) {
        if (h.layer < 0 || h.layer >= s.layers || h.head < 0 || h.head >= s.heads) continue;
        const float* c = curve_of(s, h, options.curve);
        QVector<double> y(L);
        for (int j = 0; j < L; ++j)
            y[j] = c[j];
        QString name = head_name(h);
        const auto& labels = s.atlas.at(h.layer, h.head).labels;
        if (!labels.empty()) name += QStringLiteral(" (%1)").arg(AtlasView::labelText(labels[0]));
        add_line(y, QPen(kLineColors[k++ % std::size(kLineColors)], 1.8), name);
    }
    QCPAxis* xa = plot->xAxis;
    QCPAxis* ya = plot->yAxis;
    xa->setLabel(received ? PositionsView::tr("key position (token)")
                          : PositionsView::tr("query position (token)"));
    ya->setLabel(received ? PositionsView::tr("attention received (mean over the queries that "
                                              "see it)")
                          : PositionsView::tr("attention on the first token"));
    for (QCPAxis* a : {xa, ya}) {
        a->setLabelFont(font);
        a->setTickLabelFont(small);
    }
    ya->setScaleType(options.log_scale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (options.log_scale) {
        ya->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        ya->setNumberFormat(QStringLiteral("eb"));
        ya->setNumberPrecision(0);
    } else {
        ya->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        ya->setNumberFormat(QStringLiteral("g"));
        ya->setNumberPrecision(3);
    }
    plot->rescaleAxes();
    xa->setRange(0.5, L + 0.5);
    if (options.log_scale) {
        double lo = 1.0, hi = 0.0;
        for (int g = 0; g < plot->graphCount(); ++g)
            for (auto it = plot->graph(g)->data()->constBegin();
                 it != plot->graph(g)->data()->constEnd(); ++it)
                if (it->value > 0) {
                    lo = std::min(lo, it->value);
                    hi = std::max(hi, it->value);
                }
        if (hi > 0) ya->setRange(std::max(lo, 1e-8) * 0.8, hi * 1.25);
    } else {
        ya->setRange(0.0, std::max(ya->range().upper * 1.05, 1e-6));
    }
    plot->legend->setVisible(true);
    plot->legend->setFont(small);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // The title: what, over how many tokens, of which model.
    if (plot->plotLayout()->rowCount() < 2) {
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString(), font));
    }
    if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0))) {
        title->setFont(figure_font(options.font_px + 2, {stats.name}, true));
        title->setText((received ? PositionsView::tr("Attention each position receives · %1 · "
                                                     "%2 tokens")
                                 : PositionsView::tr("Attention on the first token · %1 · "
                                                     "%2 tokens"))
                           .arg(stats.name)
                           .arg(L));
    }
    plot->replot();
}

PositionsFigure::PositionsFigure(PositionStatisticsPtr statistics, PositionsPlotOptions options)
    : statistics_(std::move(statistics)),
      options_(std::move(options)),
      plot_(std::make_unique<QCustomPlot>()) {
    if (statistics_) draw_positions_plot(plot_.get(), *statistics_, options_);
}

PositionsFigure::~PositionsFigure() = default;

void PositionsFigure::layout(QSize size) {
    size_ = size;
    plot_->setGeometry(QRect(QPoint(0, 0), size));
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void PositionsFigure::paint(QPainter* painter, bool /*vector*/) const {
    // render_painted_figure paints every format with a QCPPainter (figure_export.cpp).
    plot_->toPainter(static_cast<QCPPainter*>(painter), size_.width(), size_.height());
}

QString PositionsFigure::titleText() const {
    if (auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)))
        return t->text();
    return {};
}

QString PositionsFigure::captionText() const {
    return PositionsView::tr(
        "Computed by AttnViz's statistics pass over the whole text, "
        "keeping no map.");
}

PositionsView::PositionsView(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document), runner_(new StatisticsRunner(this)) {
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    compute_ = new QPushButton(this);
    cancel_ = new QPushButton(this);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    curve_label_ = new QLabel(this);
    curve_ = new QComboBox(this);
    curve_->addItems({QString(), QString()});
    log_ = new QCheckBox(this);
    export_ = new QPushButton(this);
    heads_label_ = new QLabel(this);
    heads_ = new QListWidget(this);
    heads_->setMinimumWidth(190);
    full_map_ = new QPushButton(this);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(320, 240);

    auto* bar = new QHBoxLayout;
    bar->addWidget(compute_);
    bar->addWidget(cancel_);
    bar->addWidget(progress_);
    bar->addSpacing(12);
    bar->addWidget(curve_label_);
    bar->addWidget(curve_);
    bar->addWidget(log_);
    bar->addStretch(1);
    bar->addWidget(export_);
    auto* side = new QWidget(this);
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    side_layout->addWidget(heads_label_);
    side_layout->addWidget(heads_, 1);
    side_layout->addWidget(full_map_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(side);
    split->addWidget(plot_);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(compute_, &QPushButton::clicked, this, &PositionsView::compute);
    connect(cancel_, &QPushButton::clicked, this, &PositionsView::cancel);
    connect(export_, &QPushButton::clicked, this, &PositionsView::exportDialog);
    connect(curve_, &QComboBox::currentIndexChanged, this, &PositionsView::redraw);
    connect(log_, &QCheckBox::toggled, this, &PositionsView::redraw);
    connect(heads_, &QListWidget::itemChanged, this, &PositionsView::redraw);
    connect(heads_, &QListWidget::itemDoubleClicked, this, &PositionsView::openFullMap);
    connect(heads_, &QListWidget::currentRowChanged, this, &PositionsView::syncButtons);
    connect(full_map_, &QPushButton::clicked, this, &PositionsView::openFullMap);
    connect(plot_, &QCustomPlot::mouseMove, this, &PositionsView::hoverAt);
    connect(runner_, &StatisticsRunner::progressed, this, [this](qint64 done, qint64 total) {
        progress_->setRange(0, int(total));
        progress_->setValue(int(done));
        progress_->setFormat(tr("layer %1 of %2").arg(done).arg(total));
    });
    connect(runner_, &StatisticsRunner::finished, this, [this](PositionStatisticsPtr s) {
        setStatistics(std::move(s));
        emit computed(true);
        runPending();
    });
    // A pass stopped to start another (the text changed) is not reported: the new one is.
    connect(runner_, &StatisticsRunner::cancelled, this, [this] {
        syncButtons();
        if (!pending_) emit computed(false);
        runPending();
    });
    // The window already reports a text the model cannot take (the status bar, a dialog for
    // files): the tab says it where its plot would be, without a second dialog.
    connect(runner_, &StatisticsRunner::failed, this, [this](const QString& message) {
        if (!pending_) {
            error_ = message;
            emit computed(false);
        }
        syncButtons();
        runPending();
    });
    connect(doc_, &AttentionDocument::computeConfigChanged, this, &PositionsView::sourceChanged);
    retranslate();
    sourceChanged();
}

PositionsView::~PositionsView() = default;

bool PositionsView::isRunning() const {
    return runner_->isRunning();
}

void PositionsView::compute() {
    const ComputeConfig& c = doc_->computeConfig();
    if (!c.usesModel()) return;
    if (runner_->isRunning()) {  // the pass under way stops within a layer, then this one runs
        pending_ = true;
        runner_->cancel();
        return;
    }
    runner_->start(c);
    stale_ = false;
    error_.clear();
    progress_->setRange(0, 0);
    progress_->setFormat(QString());
    syncButtons();
}

void PositionsView::cancel() {
    pending_ = false;
    runner_->cancel();
}

void PositionsView::runPending() {
    if (!pending_) return;
    pending_ = false;
    compute();
}

void PositionsView::sourceChanged() {
    stale_ = true;
    // A pass over the old text is of no use: it stops, and the new one starts at once when
    // the tab is visible, else when it is shown.
    if (runner_->isRunning()) runner_->cancel();
    if (isVisible() && doc_->computeConfig().usesModel()) compute();
    syncButtons();
}

void PositionsView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_ && doc_->computeConfig().usesModel() && !runner_->isRunning()) compute();
}

void PositionsView::setStatistics(PositionStatisticsPtr statistics) {
    statistics_ = std::move(statistics);
    error_.clear();
    fillHeads();
    syncButtons();
    redraw();
}

void PositionsView::fillHeads() {
    const QSignalBlocker block(heads_);
    // The heads picked stay picked when the list is filled again for the same model (the
    // language changed, the text changed); a new model starts from its most telling heads.
    const bool same = statistics_ && heads_->count() == int(statistics_->statistics.layers *
                                                            statistics_->statistics.heads);
    const std::vector<models::HeadRef> kept = plotOptions().heads;
    heads_->clear();
    if (!statistics_) return;
    const models::HeadStatistics& s = statistics_->statistics;
    const std::vector<models::HeadRef> picked = same ? kept : default_heads(s);
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < s.heads; ++h) {
            QString text = head_name({l, h});
            const auto& labels = s.atlas.at(l, h).labels;
            if (!labels.empty()) text += QStringLiteral(" · ") + AtlasView::labelText(labels[0]);
            auto* item = new QListWidgetItem(text, heads_);
            item->setData(Qt::UserRole, QPoint(int(h), int(l)));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            const bool on =
                std::find(picked.begin(), picked.end(), models::HeadRef{l, h}) != picked.end();
            item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
}

PositionsPlotOptions PositionsView::plotOptions() const {
    PositionsPlotOptions o;
    o.curve = curve_->currentIndex() == 1 ? PositionsPlotOptions::Curve::FirstToken
                                          : PositionsPlotOptions::Curve::Received;
    o.log_scale = log_->isChecked();
    for (int i = 0; i < heads_->count(); ++i)
        if (heads_->item(i)->checkState() == Qt::Checked) {
            const QPoint p = heads_->item(i)->data(Qt::UserRole).toPoint();
            o.heads.push_back({p.y(), p.x()});
        }
    return o;
}

void PositionsView::setHeads(const std::vector<models::HeadRef>& heads) {
    {
        const QSignalBlocker block(heads_);
        for (int i = 0; i < heads_->count(); ++i) {
            const QPoint p = heads_->item(i)->data(Qt::UserRole).toPoint();
            const bool on =
                std::find(heads.begin(), heads.end(), models::HeadRef{p.y(), p.x()}) != heads.end();
            heads_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
    }
    redraw();
}

void PositionsView::setCurve(PositionsPlotOptions::Curve curve) {
    curve_->setCurrentIndex(curve == PositionsPlotOptions::Curve::FirstToken ? 1 : 0);
}

void PositionsView::redraw() {
    if (!statistics_) {
        plot_->clearGraphs();
        plot_->replot();
        return;
    }
    draw_positions_plot(plot_, *statistics_, plotOptions());
}

void PositionsView::hoverAt(QMouseEvent* event) {
    if (!statistics_ || plot_->graphCount() == 0) return;
    const int L = int(statistics_->statistics.length);
    const int j = int(std::lround(plot_->xAxis->pixelToCoord(event->position().x()))) - 1;
    if (j < 0 || j >= L) return;
    QString text =
        tr("Position %1 %2:")
            .arg(j + 1)
            .arg(j < statistics_->tokens.size() ? QStringLiteral("“%1”").arg(statistics_->tokens[j])
                                                : QString());
    for (int g = 0; g < plot_->graphCount(); ++g) {
        const auto it = plot_->graph(g)->data()->findBegin(j + 1, false);
        if (it != plot_->graph(g)->data()->constEnd())
            text +=
                QStringLiteral("  %1 %2").arg(plot_->graph(g)->name()).arg(it->value, 0, 'g', 3);
    }
    emit hovered(text);
}

void PositionsView::syncButtons() {
    const ComputeConfig& c = doc_->computeConfig();
    const bool running = runner_->isRunning();
    compute_->setEnabled(c.usesModel() && !running);
    cancel_->setEnabled(running);
    progress_->setVisible(running);
    export_->setEnabled(statistics_ != nullptr);
    full_map_->setEnabled(statistics_ != nullptr && heads_->currentItem() != nullptr);
    plot_->setVisible(statistics_ != nullptr);
    status_->setStyleSheet(error_.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
    if (!c.usesModel())
        status_->setText(
            tr("Open a model or attention maps: the statistics pass measures every "
               "head over the whole text, however long."));
    else if (!error_.isEmpty() && !running)
        status_->setText(tr("Cannot compute the statistics: %1").arg(error_));
    else if (running)
        status_->setText(tr("Measuring every head over the whole text…"));
    else if (statistics_ && !stale_)
        status_->setText(tr("Every head of %1 over all %2 tokens, from one pass that keeps no "
                            "map. Pick heads on the left; hover the plot for values.")
                             .arg(statistics_->name)
                             .arg(statistics_->statistics.length));
    else if (statistics_)
        status_->setText(tr("The text or the model changed: Compute measures it again."));
    else
        status_->setText(tr("Compute measures every head over the whole text."));
}

QByteArray PositionsView::curvesCsv() const {
    if (!statistics_) return {};
    const PositionsPlotOptions o = plotOptions();
    const models::HeadStatistics& s = statistics_->statistics;
    QString out = QStringLiteral("position,token");
    for (const models::HeadRef& h : o.heads)
        out += QStringLiteral(",L%1H%2").arg(h.layer + 1).arg(h.head + 1);
    out += QLatin1Char('\n');
    for (std::int64_t j = 0; j < s.length; ++j) {
        out += QString::number(j + 1) + QLatin1Char(',') +
               csv_field(j < statistics_->tokens.size() ? statistics_->tokens[int(j)] : QString());
        for (const models::HeadRef& h : o.heads)
            out += QLatin1Char(',') + csv_number(curve_of(s, h, o.curve)[j]);
        out += QLatin1Char('\n');
    }
    return out.toUtf8();
}

bool PositionsView::exportTo(const QString& path) {
    try {
        if (!statistics_)
            throw UsageError(
                tr("Compute the statistics first: there is nothing to export.").toStdString());
        if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
            write_atomically(path, curvesCsv());
        } else {
            PositionsFigure figure(statistics_, plotOptions());
            write_atomically(path,
                             encode_figure(render_painted_figure(figure, ExportSize{}, path)));
        }
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the positions"), error_text(e));
        return false;
    }
}

void PositionsView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the positions"), QStringLiteral("positions.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

FullMapSourcePtr PositionsView::fullMapSource() const {
    const PositionStatisticsPtr s = statistics_;
    if (!s) return nullptr;
    const models::HeadStatistics& st = s->statistics;
    if (!s->model)  // the maps file: that head read from it
        return maps_file_source(s->source, s->tokens_file, int(st.layers), int(st.heads), st.length,
                                st.causal);
    std::vector<QString> tokens(s->tokens.begin(), s->tokens.end());
    return std::make_shared<FunctionMapSource>(
        s->name, int(st.layers), int(st.heads), st.length,
        [s, tokens](int layer, int head, const PassControl& control) {
            // That head alone, from the residual stream before its layer when it was kept.
            HeadMap out;
            out.tokens = tokens;
            out.causal = s->statistics.causal;
            const Tensor* residual = std::size_t(layer) < s->residuals.size()
                                         ? s->residuals[std::size_t(layer)].get()
                                         : nullptr;
            out.weights = models::head_map(*s->model->model, s->input, layer, head, residual,
                                           worker_threads(), control);
            return out;
        });
}

void PositionsView::openFullMap() {
    QListWidgetItem* item = heads_->currentItem();
    const FullMapSourcePtr source = fullMapSource();
    if (!item || !source) return;
    const QPoint p = item->data(Qt::UserRole).toPoint();
    emit fullMapRequested(source, p.y(), p.x());
}

void PositionsView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

void PositionsView::retranslate() {
    compute_->setText(tr("Compute"));
    cancel_->setText(tr("Cancel"));
    curve_label_->setText(tr("Curve:"));
    curve_->setItemText(0, tr("Attention each position receives"));
    curve_->setItemText(1, tr("Attention on the first token"));
    log_->setText(tr("Log scale"));
    export_->setText(tr("Export…"));
    heads_label_->setText(tr("Heads"));
    full_map_->setText(tr("Open Full Map…"));
    full_map_->setToolTip(
        tr("The whole map of the head selected in the list, recomputed for "
           "it alone (or double-click a head)"));
    fillHeads();
    syncButtons();
    redraw();
}

}  // namespace attnviz::ui
