// The views of the main window's centre, one tab each: the heatmap grid, the classroom's
// computation steps, head lines, head statistics and comparison of two configurations, and a
// trained model's views (model/: every head, the head atlas, the logit lens, patching,
// positions); and above them the banner that explains a loaded example.  Every view shows
// the same snapshot from the one compute worker (the tab shown at once, a hidden one when it
// is shown) and reads and writes the one AttentionDocument.
#pragma once

#include <QWidget>

#include <array>
#include <bitset>
#include <cstdint>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/full_map_source.h"
#include "ui/document/attention_config.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QToolButton;

namespace attnviz::ui {

struct Example;

class AttentionDocument;
class CompareView;
class HeatmapGridView;
class LinesView;
class StatisticsView;
class StepsView;
class ModelView;
class AtlasView;
class LensView;
class PatchView;
class PositionsView;
class CircuitsView;
class DlaView;
class FlowView;
class QkView;
class WhyPanel;
struct SnapshotStatistics;

class ViewTabs : public QWidget {
    Q_OBJECT
  public:
    enum Tab {
        GridTab,
        StepsTab,
        LinesTab,
        StatisticsTab,
        CompareTab,
        ModelTab,
        AtlasTab,
        LensTab,
        PatchTab,
        PositionsTab,
        CircuitsTab,
        DlaTab,
        FlowTab,
        QkTab
    };
    static constexpr int kTabCount = QkTab + 1;

    ViewTabs(AttentionDocument* document, HeatmapGridView* grid, QWidget* parent = nullptr);

    /// `statistics`: the statistics view's numbers for it, measured on the worker (may be null).
    /// Only the tab shown takes it at once; a hidden tab's views catch up when it is shown, or
    /// by catchUp().
    void setSnapshot(SnapshotPtr snapshot,
                     std::shared_ptr<const SnapshotStatistics> statistics = nullptr);
    /// Gives tab `tab`'s views the latest snapshot if they have not had it yet: for whoever
    /// reads a hidden tab's view (the tab shown is always up to date).
    void catchUp(Tab tab);
    /// Whether tab `tab`'s views wait for the latest snapshot (hidden since it came).
    bool isStale(Tab tab) const { return stale_.test(std::size_t(tab)); }
    /// A hidden tab keeps the snapshot it last had until it is shown, unless that snapshot's
    /// maps are this big or it is of another model: then it takes the latest one at once, a
    /// tab a turn of the event loop, so that no hidden view keeps large maps or a model alive
    /// (the memory budget counts one result, the model store two models).
    static constexpr std::uint64_t kHeavySnapshotBytes = std::uint64_t(64) << 20;
    /// Another threshold than kHeavySnapshotBytes (tests).
    void setHeavySnapshotBytes(std::uint64_t bytes) { heavy_bytes_ = bytes; }
    Tab currentTab() const;
    void setCurrentTab(Tab tab);
    /// The figure the current tab shows, for exports ("heatmaps" for statistics).
    FigureKind currentKind() const;
    static QString tabName(Tab tab);  ///< "grid", "steps", "lines", "statistics", "compare", ...
    static bool tabFromName(const QString& name, Tab* out);

    /// Presentation: labels of `font_px` pixels and high contrast in every view (0: normal).
    void setPresentation(int font_px);

    /// The banner over the views: an example's title and its one-paragraph explanation, about
    /// the document as it is now.  It closes when the source changes; while the text differs
    /// from the example's it says so and offers the example's text back.
    void showExplanation(const Example& example);
    void hideExplanation();
    /// The explanation `other` shows (a window rebuilt in another language), in this window's
    /// language, folded as it was and about the same document.
    void takeExplanationFrom(const ViewTabs& other);
    QLabel* explanationLabel() const { return banner_text_; }
    bool explanationVisible() const;
    /// "The explanation is about the example's text…" and its Restore button (shown while the
    /// text is the user's own).
    QLabel* explanationNote() const { return banner_note_; }
    QPushButton* restoreExampleButton() const { return banner_restore_; }

    QTabWidget* tabs() const { return tabs_; }
    ModelView* modelView() const { return model_; }
    AtlasView* atlasView() const { return atlas_; }
    LensView* lensView() const { return lens_; }
    PatchView* patchView() const { return patch_; }
    PositionsView* positionsView() const { return positions_; }
    CircuitsView* circuitsView() const { return circuits_; }
    DlaView* dlaView() const { return dla_; }
    FlowView* flowView() const { return flow_; }
    /// Queries & Keys: the joint scatter of the head in focus over the document's corpus.
    QkView* qkView() const { return qk_; }
    /// The "Why this attention?" pane beside the heatmaps, or the Model tab's mosaic.
    WhyPanel* whyPanel() const { return why_; }
    StepsView* steps() const { return steps_; }
    LinesView* lines() const { return lines_; }
    StatisticsView* statistics() const { return stats_; }
    CompareView* compare() const { return compare_; }

    /// What traceWanted() last said.
    int wantedTrace() const;
    /// Whether one layer's steps are on screen (the Steps tab, not in its whole-model mode).
    bool layerStepsShown() const;

  signals:
    void hovered(const QString& text);
    /// One layer's steps became visible (true: the Steps tab in its one-layer mode) or hidden.
    void stepsShown(bool shown);
    /// The logit lens tab became visible (true) or hidden (false).
    void lensShown(bool shown);
    /// The token whose whole pass the steps view's whole-model mode shows (-1: the default
    /// token), or kNoTrace when that mode is not on screen.
    void traceWanted(int token);
    /// A head was chosen in the statistics: focus it in the grid.
    void headActivated(int head);
    /// A head of the model view or the Atlas: show that layer's heads (or, for a layer whose
    /// maps were not kept, the head's full map).
    void modelHeadActivated(int layer, int head);
    /// Open Full Map… on a head of the Atlas.
    void fullMapRequested(int layer, int head);
    /// A head's full map at query `query` and key `key` (pieces, from 0): a line of the Flow.
    void fullMapAtQueryRequested(int layer, int head, int query, int key);
    /// A head's full map from a source of the Positions tab's own (its statistics pass).
    void sourcedFullMapRequested(attnviz::ui::FullMapSourcePtr source, int layer, int head);
    /// Text `text` (from 0) of the document's corpus in the main view, head (layer, head) in
    /// focus at `query` and `key` (positions from 0; key -1: where the query looks most;
    /// `key_only`: a key's dot, focused as the attention to it).
    void corpusTextRequested(qint64 text, int layer, int head, qint64 query, qint64 key,
                             bool key_only);
    /// The Queries & Keys view asks for head (layer, head)'s vectors over the corpus.
    void corpusHeadRequested(int layer, int head);
    /// A view's own action (e.g. the statistics' CSV export) failed.
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // The constructor's steps, in order.
    QWidget* createBanner();
    QHBoxLayout* createBannerNote();
    QTabWidget* createTabs();
    /// The model tab's "Show: [every map | from a token | to a token]  Token: [...]".
    QWidget* createModelTab();
    void connectBanner();
    void connectModelTab();
    void connectViews();
    void connectDocument();
    /// The corpus's views (the Atlas's corpus mode, Queries & Keys) and the head in focus.
    void connectCorpus();
    /// A head chosen in a corpus view becomes the head in focus (the tab stays).
    void focusHead(int layer, int head);
    // What the banner's buttons, the model tab's bar, the tabs and the document ask.
    /// Shows (true) or folds away the explanation under the banner's title.
    void foldExplanation(bool expanded);
    /// The example's text back in the document (the banner's Restore button).
    void restoreExampleText();
    /// Closes the explanation when the source is no longer the example's.
    void followModelFolder(const QString& folder);
    /// The model tab's Show and Token combos into the document's token focus.
    void applyTokenFocus();
    /// Another tab is current: it catches up, and what is shown is announced again.
    void followCurrentTab();
    /// The Steps tab's whole-model mode changed: what it shows is announced again.
    void followWholeModel();
    /// Emits traceWanted() for what is shown now.
    void announceTrace();

    void retranslate();
    void refreshStatistics();
    /// Gives the views of tab `tab` snapshot_.
    void refreshViews(Tab tab);
    /// A hidden tab whose views keep large maps or another model (kHeavySnapshotBytes), or -1.
    int heavyStaleTab() const;
    /// Catches up heavyStaleTab(), and asks for another turn while there is one.
    void releaseHeavySnapshots();
    /// The figure options changed: the statistics follow now if shown, else when shown.
    void followFigureOptions();
    void syncTokenFocus();
    /// The banner's note and Restore button follow whether the text is still the example's.
    void syncExampleNote();

    AttentionDocument* doc_;
    HeatmapGridView* grid_;
    ModelView* model_ = nullptr;
    QComboBox* focus_mode_ = nullptr;
    QComboBox* focus_token_ = nullptr;
    QComboBox* thumbnails_ = nullptr;  ///< whole text or kept maps (ModelThumbnails)
    QPushButton* all_layers_ = nullptr;
    AtlasView* atlas_ = nullptr;
    LensView* lens_ = nullptr;
    PatchView* patch_ = nullptr;
    PositionsView* positions_ = nullptr;
    CircuitsView* circuits_ = nullptr;
    DlaView* dla_ = nullptr;
    FlowView* flow_ = nullptr;
    QkView* qk_ = nullptr;
    WhyPanel* why_ = nullptr;
    QSplitter* grid_split_ = nullptr;   ///< the heatmaps, and the pane when they are shown
    QSplitter* model_split_ = nullptr;  ///< the mosaic, and the pane when it is shown
    QTabWidget* tabs_ = nullptr;
    StepsView* steps_ = nullptr;
    LinesView* lines_ = nullptr;
    StatisticsView* stats_ = nullptr;
    CompareView* compare_ = nullptr;
    /// The tabs whose views have not had snapshot_ (one bit per Tab): refreshing every hidden
    /// view took the GUI thread 30-70 ms per result (the Atlas's table, the mosaic, ...).
    std::bitset<kTabCount> stale_;
    /// What each tab's views were last given: for a hidden tab, what they keep alive.
    struct Held {
        bool any = false;
        std::uint64_t bytes = 0;  ///< its maps'
        QString folder;           ///< the model's; empty: none
    };
    std::array<Held, kTabCount> held_;
    std::uint64_t heavy_bytes_ = kHeavySnapshotBytes;
    bool releasing_ = false;  ///< a releaseHeavySnapshots() is queued
    QWidget* banner_ = nullptr;
    QLabel* banner_title_ = nullptr;
    QLabel* banner_text_ = nullptr;
    QToolButton* banner_fold_ = nullptr;  ///< shows or hides the explanation under the title
    QToolButton* banner_close_ = nullptr;
    QLabel* banner_note_ = nullptr;
    QPushButton* banner_restore_ = nullptr;
    ComputeConfig example_;  ///< the document the banner's explanation is about
    QString example_id_;     ///< the example the banner explains
    SnapshotPtr snapshot_;
    std::shared_ptr<const SnapshotStatistics> statistics_;
};

}  // namespace attnviz::ui
