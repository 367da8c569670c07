// The Circuits tab: which heads of the tab's model compose, from its weights alone
// (models::circuit_scores).  A choice of Q-, K- or V-composition and, for rotary models, the
// offset W_QK is taken at; the scores computed in a BackgroundJob with its progress and Cancel,
// and kept per model and offset, so that switching Q, K and V draws at once; CircuitsFigure
// drawn at the tab's size, a hover text over each cell; a click on a pair shows both heads'
// attention on the window's text side by side in a window of its own (the snapshot's maps, read
// and drawn as the Full Map window reads and draws them); the figure and the scores (CSV)
// export.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/model/circuits_figure.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace attnviz::ui {

class FigureCanvas;
class ZoomHeatmap;

class CircuitsView : public QWidget {
    Q_OBJECT
  public:
    /// Models whose scores stay kept, most recently computed first.
    static constexpr std::size_t kKeptScores = 6;

    explicit CircuitsView(QWidget* parent = nullptr);
    ~CircuitsView() override;

    /// The model whose heads the tab shows (null: none is the source).  Its scores are computed
    /// once the tab is shown, unless they are kept from before.
    void setModel(ModelPtr model);
    ModelPtr model() const { return model_; }
    /// The window's pass: the chosen pair's maps are its maps (of the tab's model only).
    void setSnapshot(SnapshotPtr snapshot);

    /// Shows the scores for the model and offset: at once when they are kept, else computed in
    /// the background.  False when there is no model or they are being computed already.
    bool compute();
    void cancel();
    bool isComputing() const;
    /// How many computations the tab started (tests: switching Q, K and V starts none).
    int computations() const { return computations_; }

    void setComposition(Composition c);
    Composition composition() const { return figure_->composition(); }
    /// The scores drawn (null before the first computation ends).
    const CircuitMaps* maps() const { return maps_.get(); }
    const CircuitsFigure& figure() const { return *figure_; }
    FigureCanvas* matrixView() const { return matrix_; }
    /// The centre of a pair's cell in matrixView(), for clicks; a null point when it has none.
    QPoint cellCentre(int from, int to) const;
    /// Frames pair (from, to) (heads layer-major, from 0), says pairChosen() and shows both
    /// heads' maps on the window's text.
    void choosePair(int from, int to);

    /// Writes the figure (.png, .svg, .pdf) or the scores (.csv, circuits_csv) to `path`;
    /// false and failed() on an error (nothing written).
    bool exportTo(const QString& path);
    /// Asks for a file and exportTo() it.
    void exportDialog();
    /// The figure on the clipboard, as an image; failed() when there is none.
    void copyFigure();

    QComboBox* compositionCombo() const { return composition_; }
    QSpinBox* ropeOffsetBox() const { return rope_offset_; }
    QPushButton* computeButton() const { return compute_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* exportButton() const { return export_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* placeholder() const { return placeholder_; }
    QLabel* statusLabel() const { return status_; }
    /// The chosen pair's window: its title, its status (why there are no maps) and the earlier
    /// (0) and later (1) head's map side by side.
    QWidget* pairPanel() const { return pair_; }
    QLabel* pairTitle() const { return pair_title_; }
    QLabel* pairStatus() const { return pair_status_; }
    ZoomHeatmap* pairMap(int k) const { return pair_maps_[k]; }

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);
    /// The scores are drawn (computed, or kept from before).
    void computed();
    /// A pair was clicked: the earlier head (writes) and the later head (reads), from 0.
    void pairChosen(int from_layer, int from_head, int to_layer, int to_head);
    /// Both heads' maps of the chosen pair are drawn.
    void pairMapsShown();

  protected:
    void changeEvent(QEvent* event) override;
    /// The pair's window: Escape closes it, and closing forgets the pair.
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    /// Scores kept for one model and offset.
    struct Kept {
        std::weak_ptr<const models::OpenedModel> model;
        std::int64_t offset = 0;
        std::shared_ptr<const CircuitMaps> maps;
    };
    /// Both heads' maps of a pair, read and ready to draw.
    struct PairMaps;

    // The constructor's steps, in order.
    QWidget* createControls();
    void createPairWindow();
    void connectControls();

    void retranslate();
    /// The offset the scores are asked at: the box's for a rotary model, else 0 (unused).
    std::int64_t offset() const;
    std::shared_ptr<const CircuitMaps> kept(std::int64_t offset) const;
    void keep(std::int64_t offset, std::shared_ptr<const CircuitMaps> maps);
    /// The computation's end, progress and failure.
    void showScores(std::shared_ptr<const CircuitMaps> maps);
    void showProgress(std::int64_t done, std::int64_t total);
    void endComputing(const QString& status);
    /// Draws maps_ (or nothing) with the current composition and font, laid out again.
    void showMaps();
    /// No maps: the figure lets go of them before maps_ does.
    void releaseMaps();
    /// Which controls show: the placeholder, Compute or the progress, the offset.
    void syncControls();
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);
    /// Reads the chosen pair's maps from the snapshot, off the GUI thread.
    void loadPairMaps();
    void showPairMaps(const PairMaps& maps);
    void closePair();

    ModelPtr model_;
    SnapshotPtr snapshot_;
    std::shared_ptr<const CircuitMaps> maps_;
    std::vector<Kept> kept_;
    BackgroundJob job_, pair_job_;
    int computations_ = 0;
    QPoint chosen_{-1, -1};              ///< (from, to); -1: none
    std::uint64_t pair_generation_ = 0;  ///< the snapshot the pair's maps were read from

    QLabel* placeholder_ = nullptr;
    QWidget* controls_ = nullptr;
    QLabel *composition_label_ = nullptr, *rope_label_ = nullptr, *status_ = nullptr;
    QComboBox* composition_ = nullptr;
    QSpinBox* rope_offset_ = nullptr;
    QPushButton *compute_ = nullptr, *cancel_ = nullptr, *export_ = nullptr;
    QProgressBar* progress_ = nullptr;
    FigureCanvas* matrix_ = nullptr;
    CircuitsFigure* figure_ = nullptr;  ///< matrix_'s
    QPoint hover_{-1, -1};
    QWidget* pair_ = nullptr;
    QLabel *pair_title_ = nullptr, *pair_status_ = nullptr;
    ZoomHeatmap* pair_maps_[2] = {nullptr, nullptr};
};

}  // namespace attnviz::ui
