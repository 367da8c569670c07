// The whole model at one token, step by step (the steps view's whole-model mode): the
// embeddings, every layer (folded to one header line, or open: norm, Q, K, V, attention,
// output projection, residual adds, MLP), the final norm and the logits, each stage a card with
// its formula, name, shape and the vector as a strip of signed colours; then the prediction:
// the ten likeliest next tokens as bars under the temperature, top-k and top-p of the options,
// the token a seeded draw picked highlighted.  The figure is as tall as its content
// (naturalHeight()): the window scrolls it, the exports cut there.  Window, exports and
// `attnviz export --view steps` draw it.
#pragma once

#include <QFont>
#include <QImage>
#include <QPointF>
#include <QRectF>

#include <memory>
#include <vector>

#include "engine/models/token_trace.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/model_walk.h"

namespace attnviz::ui {

class ModelWalkFigure : public ClassroomFigure {
  public:
    struct Hit {
        enum class Kind { None, LayerHeader, Cell, Candidate };
        Kind kind = Kind::None;
        /// LayerHeader: the layer (from 0).  Cell: the stage's trace layer (-1 embeddings,
        /// layers: the output).
        int layer = -1;
        int section = -1;  ///< Cell: index into walk().sections
        int stage = -1;    ///< Cell: index into that section's stages
        int row = -1;      ///< Cell: in the vector's [rows, cols] (a wrapped vector: row 0)
        int col = -1;
        qint64 id = -1;  ///< Candidate: the vocabulary id
    };
    /// A bar of the prediction panel.
    struct Candidate {
        qint64 id = -1;
        QString text;  ///< as shown (visible_token)
        double logit = 0.0;
        double probability = 0.0;  ///< under the options' sampling; 0 when cut off
        bool kept = false;         ///< left by top-k / top-p (and the temperature's greedy pick)
        bool drawn = false;        ///< options.drawn
        int rank = 0;              ///< by logit, from 1
    };
    /// Every text the figure draws, where and in which font (tests check that none leaves the
    /// canvas or overlaps another).
    struct TextItem {
        QRectF rect;
        QString text;
        QFont font;
        int flags = 0;
        QColor color;
        bool rotated = false;  ///< drawn turned by −90° inside rect
    };

    void setSnapshot(SnapshotPtr snapshot) override;
    /// The trace to draw (what setSnapshot takes from snapshot->trace).
    void setTrace(std::shared_ptr<const ModelTrace> trace);
    /// Only the sampling fields changed (temperature, top_k, top_p, drawn): the next layout()
    /// recomputes the prediction panel alone, and paint() reuses every strip's image.
    void setOptions(const FigureOptions& options) override;
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    /// The content's height at the last layout's width (may exceed the canvas).
    int usedHeight() const override;
    /// The content's height at `width` (lays the figure out at that width).
    int naturalHeight(int width);

    const ModelWalk& walk() const { return walk_; }
    /// Why there is nothing to show (no trace yet), or empty.
    QString message() const { return message_; }
    bool layerOpen(int layer) const;
    /// The prediction's bars, top to bottom (the drawn token last when it is not in the ten).
    const std::vector<Candidate>& candidates() const { return candidates_; }
    /// The options' sampling as a line: "T = 0.80 · top-k = 40 · top-p = 0.90".
    QString samplingText() const;

    QRectF headerRect(int layer) const;  ///< a layer's header line (empty if none)
    QRectF stripRect(int section, int stage) const;
    QRectF cellRect(int section, int stage, int row, int col) const;
    QRectF candidateRect(qint64 id) const;  ///< the bar's whole row
    QRectF candidateBar(qint64 id) const;   ///< its bar's track (100 %)
    QRectF predictionRect() const { return prediction_rect_; }
    std::vector<TextItem> textItems() const;

    Hit hitTest(const QPointF& pos) const;
    /// "Layer 3 · MLP up · [17] = 0.214387": the hovered cell's value as the trace holds it;
    /// a candidate's probability and logit; a header's summary.
    QString describe(const Hit& hit) const;
    /// Outlines the hovered cell (Kind::Cell) or bar (Kind::Candidate).
    void setHover(const Hit& hit) { hover_ = hit; }

  private:
    struct Card {
        int section = -1, stage = -1;
        QRectF frame;
        QRectF strip;      ///< the cells
        int per_line = 0;  ///< cells per line of a wrapped single-row vector
        int lines = 1;     ///< lines of the strip (rows of a head matrix)
        double cell_w = 0.0, cell_h = 0.0;
        std::vector<TextItem> texts;
    };
    struct Header {
        int layer = -1;
        QRectF rect;
        std::vector<TextItem> texts;
    };
    struct LayoutKey {
        int width = 0;
        int font_px = 0;
        quint64 open = 0;
        bool show_title = true;
        bool high_contrast = false;
        QString title;
        bool operator==(const LayoutKey&) const = default;
    };

    void rebuild();
    void layoutCards(double width);
    void layoutPrediction();
    /// Recomputes dist_ when the logits or the sampling options changed.
    void updateDistribution();
    /// Fills candidates_ from dist_; returns the probability their bars hold together.
    double collectCandidates();
    /// The prediction's formula, name, explanation and sampling line from `y`; returns the y
    /// below them.
    double layoutPredictionHeading(double x0, double iw, double y);
    /// One bar row per candidate from `y`; returns the y below the last.
    double layoutCandidateBars(double x0, double iw, double y);
    /// Places `card` in the column at x of width w from y; returns its bottom.
    double layoutCard(Card& card, double x, double y, double w);
    /// Formula, name, statistics and explanation inside the column x0..x0 + iw from yy;
    /// returns the y below them.
    double layoutCardHeader(Card& card, double x0, double iw, double yy);
    /// The strip's cells (a line per head, or a vector wrapped into lines) after the gutter;
    /// returns its bottom.
    double layoutStrip(Card& card, double x0, double iw, double yy);
    /// Head numbers, or the index each line of a wrapped vector starts at, in the gutter.
    void layoutRowLabels(Card& card);
    /// The attention's columns: the tokens, the traced one marked, every k-th when narrow;
    /// returns their bottom.
    double layoutTokenLabels(Card& card);
    QColor cellColor(const WalkStage& st, float v, int section, int stage) const;
    const QImage& stripImage(const Card& card) const;
    void paintCard(QPainter* p, const Card& card, bool vector) const;
    const WalkStage& stageOf(int section, int stage) const;
    const Card* cardOf(int section, int stage) const;
    /// (row, col) of the vector at the cell under `pos` in `card`, false when between cells.
    bool cellAt(const Card& card, const QPointF& pos, int* row, int* col) const;
    QString where(const WalkStage& st) const;

    std::shared_ptr<const ModelTrace> trace_;
    FigureOptions options_;
    ModelWalk walk_;
    QString message_;
    bool dirty_ = true;
    bool cards_valid_ = false;
    LayoutKey key_;
    QSize size_;
    double pad_ = 12.0;
    double gutter_ = 0.0;
    paint::TitleBlock titles_;
    std::vector<Header> headers_;
    std::vector<Card> cards_;
    std::vector<TextItem> section_texts_;
    std::vector<std::vector<double>> max_abs_;         ///< [section][stage]: colour range
    mutable std::vector<std::vector<QImage>> images_;  ///< [section][stage]: one pixel a cell
    std::vector<qint64> top_ids_;                      ///< the ten highest logits, highest first
    /// The distribution of the last layout, for its logits and sampling options.
    models::SamplingDistribution dist_;
    const float* dist_logits_ = nullptr;
    models::SamplingOptions dist_options_;
    double prediction_top_ = 0.0;
    QRectF prediction_rect_;
    std::vector<Candidate> candidates_;
    std::vector<QRectF> bar_rows_;  ///< per candidate: its row
    std::vector<QRectF> bars_;      ///< per candidate: its bar at 100 %
    std::vector<TextItem> prediction_texts_;
    double natural_height_ = 0.0;
    Hit hover_;
};

}  // namespace attnviz::ui
