// The Positions tab: where attention goes over a whole text, however long.  The statistics
// pass (StatisticsRunner) runs over the document's text with its model, or over maps read from
// a file, keeping no map: then a line plot (QCustomPlot) shows, for the heads picked, the
// attention each position receives (averaged over the queries that see it: "lost in the
// middle") or each query's attention on the first token (attention sinks), with the mean of
// every head dashed beneath.  The figure exports to PNG, SVG and PDF, the curves to CSV.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "engine/models/model.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/statistics_runner.h"
#include "ui/render/painted_figure.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace attnviz::ui {

class AttentionDocument;

/// What the plot shows of the statistics.
struct PositionsPlotOptions {
    enum class Curve { Received, FirstToken };
    Curve curve = Curve::Received;
    std::vector<models::HeadRef> heads;  ///< one line each
    bool log_scale = false;
    int font_px = 13;
};

/// Draws `statistics` into `plot` (its graphs, axes, legend and title replaced).  The view's
/// plot and the exported figure are both drawn by it.
void draw_positions_plot(QCustomPlot* plot, const PositionStatistics& statistics,
                         const PositionsPlotOptions& options);

/// The plot as a figure of its own (an off-screen QCustomPlot), for render_painted_figure.
class PositionsFigure : public PaintedFigure {
  public:
    PositionsFigure(PositionStatisticsPtr statistics, PositionsPlotOptions options);
    ~PositionsFigure() override;
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;

  private:
    PositionStatisticsPtr statistics_;
    PositionsPlotOptions options_;
    std::unique_ptr<QCustomPlot> plot_;
    QSize size_;
};

class PositionsView : public QWidget {
    Q_OBJECT
  public:
    explicit PositionsView(AttentionDocument* document, QWidget* parent = nullptr);
    ~PositionsView() override;

    /// Runs the pass over the document as it is now (when it has a model or maps file).
    void compute();
    void cancel();
    bool isRunning() const;
    /// The statistics shown (null before the first pass, or after the source changed).
    PositionStatisticsPtr statistics() const { return statistics_; }
    PositionsPlotOptions plotOptions() const;
    /// Shows these heads (from 0), replacing the picked ones.
    void setHeads(const std::vector<models::HeadRef>& heads);
    void setCurve(PositionsPlotOptions::Curve curve);

    /// Writes the figure (.png, .svg, .pdf) or the curves (.csv) to `path`; false and
    /// failed() on an error (nothing written).
    bool exportTo(const QString& path);
    void exportDialog();

    QCustomPlot* plot() const { return plot_; }
    QListWidget* headList() const { return heads_; }
    QPushButton* computeButton() const { return compute_; }
    QPushButton* cancelButton() const { return cancel_; }
    QComboBox* curveCombo() const { return curve_; }
    QLabel* statusLabel() const { return status_; }
    StatisticsRunner* runner() const { return runner_; }

    /// The curves as CSV: position, token, then one column per head shown.
    QByteArray curvesCsv() const;

    /// Where a head's whole map comes from: recomputed from the model (from the residual
    /// stream the pass kept), or read from the maps file.  Null before the first pass.
    FullMapSourcePtr fullMapSource() const;
    /// Asks for the full map of the head current in the list (fullMapRequested).
    void openFullMap();
    QPushButton* fullMapButton() const { return full_map_; }

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// A pass ended: true when it finished, false when cancelled or failed.
    void computed(bool finished);
    /// A head's whole map (double-click in the list, or Open Full Map…).
    void fullMapRequested(attnviz::ui::FullMapSourcePtr source, int layer, int head);

  protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void retranslate();
    void sourceChanged();
    void setStatistics(PositionStatisticsPtr statistics);
    void fillHeads();
    void redraw();
    void hoverAt(QMouseEvent* event);
    void syncButtons();
    void runPending();

    AttentionDocument* doc_;
    StatisticsRunner* runner_;
    PositionStatisticsPtr statistics_;
    bool stale_ = true;  ///< the document changed since the statistics shown were computed
    bool pending_ = false;
    QString error_;  ///< why the last pass failed, shown in the status line  ///< a pass starts
                     ///< when the one under way has stopped
    QLabel* status_ = nullptr;
    QPushButton* compute_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* curve_label_ = nullptr;
    QComboBox* curve_ = nullptr;
    QCheckBox* log_ = nullptr;
    QLabel* heads_label_ = nullptr;
    QListWidget* heads_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* full_map_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};

}  // namespace attnviz::ui
