// Information-flow routes as a figure (the Flow tab, Ferrando & Voita 2024): the streams of the
// residual as dots, layers as rows (the embeddings at the bottom, the last layer on top) and
// tokens as columns, and the graph's edges (models::flow_graph) as lines as wide as their
// importance, coloured by what carries them: attention (or each head), the MLP, the residual.
// The tab, its exports and `attnviz export --view flow` all draw it with this one class; the
// importances are the engine's (models::information_flow), never recomputed here.
#pragma once

#include <QFont>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

#include "engine/models/information_flow.h"
#include "engine/models/model_folder.h"
#include "engine/pass_control.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// One text's importances on one model: computed once, then graphs at any position and
/// threshold are cheap (models::flow_graph).
struct FlowData {
    QString model;  ///< model_display_name()
    QString text;   ///< the text as typed
    std::vector<QString> pieces;
    /// The model's ids of the text, and whether the attention's terms are per head: what the
    /// importances were computed for.
    std::vector<std::int64_t> ids;
    models::InformationFlow flow;
    bool hasMlp() const { return !flow.mlp.data.empty(); }
};

/// Why `model` has no information flow (a post-norm model), in the interface's language;
/// empty when it has one.
QString flow_unavailable(const models::OpenedModel& model);

/// The importances of `text` (the model's encoding of `text_shown`): one pass.  Throws
/// DataError (flow_unavailable's reason) and what models::information_flow throws.  Any thread.
FlowData compute_flow(const models::OpenedModel& model, const models::EncodedText& text,
                      const QString& text_shown, bool per_head, int num_threads,
                      const PassControl& control = {});

class FlowFigure : public PaintedFigure {
  public:
    /// What is drawn: the importances and one graph of them (both outlive the figure's use).
    void setData(const FlowData* data, const models::FlowGraph* graph) {
        data_ = data;
        graph_ = graph;
    }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// The edge (index into the graph's edges) or the node (layer, position) framed, e.g.
    /// the one under the mouse; -1: none.
    void setHover(int edge, QPoint node) {
        hover_edge_ = edge;
        hover_node_ = node;
    }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }
    int usedWidth() const override { return used_width_; }

    /// After layout(): the edge under `pos` (an index into the graph's edges, the one drawn on
    /// top where several are), or -1.
    int edgeAt(const QPointF& pos) const;
    /// After layout(): the stream under `pos` as (row, position): row 0 the embeddings, then
    /// each layer's attention (and MLP) stage; (-1, -1) when none is.
    QPoint nodeAt(const QPointF& pos) const;
    /// The centre of a stream's dot (row as nodeAt() counts it); a null point outside.
    QPointF nodeCentre(int row, int position) const;
    /// A point on edge `edge`'s line where the mouse picks it (the nearest to half-way along
    /// it); a null point for no such edge.
    QPointF edgePoint(int edge) const;
    /// What hovering an edge says: "L2H8 · token 18 “8” → token 47 “P”, layer 2: importance
    /// 0.41"; empty for no edge.
    QString describeEdge(int edge) const;
    /// What hovering a stream says; empty outside.
    QString describeNode(int row, int position) const;
    /// The row of a graph node (0: the embeddings).
    int rowOf(const models::FlowNode& node) const;
    int rowCount() const;

  private:
    struct Curve {
        std::vector<QPointF> points;  ///< the line, sampled for hit tests
        double width = 1.0;
    };
    QString rowLabel(int row) const;
    QString notesText() const;
    QString piece(std::int64_t position) const;
    QColor edgeColor(const models::FlowEdge& edge) const;
    /// The line of an edge, as painted (and sampled).
    QPainterPath edgePath(const models::FlowEdge& edge) const;
    double columnX(std::int64_t position) const;
    double rowY(int row) const;
    void paintGrid(QPainter* p) const;
    void paintEdges(QPainter* p) const;
    void paintLabels(QPainter* p) const;
    void paintLegend(QPainter* p) const;

    const FlowData* data_ = nullptr;
    const models::FlowGraph* graph_ = nullptr;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_, bold_;
    QRectF plot_;    ///< the dots' centres span it
    QRectF legend_;  ///< one line of swatches above the plot
    QRectF tokens_;  ///< the token labels and their numbers, under the plot
    QRectF notes_;
    QString notes_text_;
    double column_ = 0.0, row_ = 0.0, label_w_ = 0.0, radius_ = 3.0, max_width_ = 8.0;
    int stride_ = 1;
    std::vector<Curve> curves_;  ///< per graph edge
    int hover_edge_ = -1;
    QPoint hover_node_{-1, -1};
    int used_height_ = -1, used_width_ = -1;
};

}  // namespace attnviz::ui
