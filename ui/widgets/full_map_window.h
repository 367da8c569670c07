// One head's whole map in a window of its own, zoomable (ZoomHeatmap): opened from a head of the
// Model tab's mosaic, of the Atlas or of the heatmap grid (its context menu: Open Full Map…).
// The map comes from a FullMapSource (compute/full_map_source.h) in a BackgroundJob, and its
// pyramid is built there too; the GUI thread only draws.  The window exports the region in view
// (PNG, SVG, PDF) through the same renderer as every figure.  It can open at one query (the Flow
// tab's edge), that row marked; Alt-click on a cell explains it in a "Why?" pane beside the map.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "engine/ops/map_pyramid.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_config.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace attnviz::ui {

class WhyPanel;
class ZoomHeatmap;

class FullMapWindow : public QWidget {
    Q_OBJECT
  public:
    /// Starts reading head `head` of layer `layer` (both from 0) from `source`; refuses (says
    /// why in the window) a map whose pyramid would not fit `budget_bytes`.  A top-level
    /// window deleted when closed.
    FullMapWindow(FullMapSourcePtr source, int layer, int head, std::uint64_t budget_bytes,
                  Colormap colormap, QWidget* parent);
    ~FullMapWindow() override;

    ZoomHeatmap* heatmap() const { return heatmap_; }
    int layer() const { return layer_; }
    int head() const { return head_; }
    /// Whether the map (or a pyramid of another pooling) is being read or built.
    bool isLoading() const { return loading_; }
    /// The map shown: null until it is read.
    std::shared_ptr<const ops::MapPyramid> pyramid() const { return pyramid_; }
    /// Why there is no map, empty when there is (or it is still being read).
    QString errorText() const { return error_; }
    /// What zoomed-out pixels show: the largest or the mean weight of the cells they cover.
    void setPoolMode(ops::PoolMode mode);
    QComboBox* poolCombo() const { return pool_; }
    /// Writes the region in view to `path` (PNG, SVG or PDF, from its suffix), at the size the
    /// window shows it.  False, with a dialog, when it cannot.
    bool exportTo(const QString& path);
    /// The bytes a map of `source` and its pyramids take: what is checked against the budget.
    static std::uint64_t neededBytes(const FullMapSource& source);

    /// Shows the map around query `query` (a piece of the whole text, from 0), that row marked,
    /// at key `key` (−1: where the query looks most); once the map is read, if it is not yet.
    void showQuery(int query, int key = -1);
    /// The map's row (and column) that stands for piece `piece`, or −1 (not read yet, or a
    /// piece outside the rows, as a window's).
    int rowOfPiece(int piece) const;
    /// The pass the map is of and its model (null: maps read from a file): Alt-click on a
    /// cell explains it in the pane beside the map.  Without one, Alt-click says why not.
    void setWhySource(SnapshotPtr snapshot, ModelPtr model);
    WhyPanel* whyPanel() const { return why_; }
    QLabel* statusLabel() const { return status_; }

  signals:
    /// The map is shown (after each pyramid: a new pooling too).
    void loaded();
    void failed(const QString& message);
    /// A head's bar in the "Why?" pane was clicked: show that head.
    void headFocusRequested(int layer, int head);

  protected:
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    struct Built {
        std::shared_ptr<const ops::MapPyramid> pyramid;
        std::vector<QString> tokens;
        std::vector<int> pieces;  ///< HeadMap::pieces
        bool causal = false;
        bool first = true;  ///< the map itself, not another pooling of it
    };
    void retranslate();
    /// "Wheel: zoom … · Alt-click: why?": what the status line says over the map.
    QString helpText() const;
    void connectWhyPane();
    /// An Alt-click, or the mouse over a cell while the pane follows it.
    void explainAt(int row, int col);
    void followAt(int row, int col);
    /// The head's weight at a cell, for the pane's caption (NaN: the map is not weights).
    double weightAt(int row, int col) const;
    /// A window-modal warning over this window.
    void warn(const QString& title, const QString& text);
    /// The piece of the whole text that map row `row` stands for.
    int pieceOfRow(int row) const;
    /// showQuery()'s, once the map is read.
    void applyQuery();
    /// Runs `work` in the job (one at a time) and hands what it built to showBuilt().
    void start(std::function<Built(const PassControl&)> work);
    void showBuilt(Built built);
    void fail(const QString& message);
    void exportDialog();
    QString titleText() const;

    FullMapSourcePtr source_;
    int layer_, head_;
    Colormap colormap_;
    std::vector<QString> tokens_;
    std::vector<int> pieces_;  ///< HeadMap::pieces
    bool causal_ = false;
    std::optional<std::pair<int, int>> query_;  ///< showQuery()'s, until the map is read
    bool why_source_ = false;                   ///< setWhySource() was called
    WhyPanel* why_ = nullptr;
    std::shared_ptr<const ops::MapPyramid> pyramid_;
    ZoomHeatmap* heatmap_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* pool_label_ = nullptr;
    QComboBox* pool_ = nullptr;
    QPushButton* fit_ = nullptr;
    QPushButton* export_ = nullptr;
    QString error_;
    bool loading_ = false;
    BackgroundJob job_;  ///< dropped with the window: a map being read is not waited for
};

}  // namespace attnviz::ui
