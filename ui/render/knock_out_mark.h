// How a knocked-out (ablated) head is drawn wherever its map appears: a cross over the map and
// the way it is knocked out, "zero" or "mean", in a label at its centre.  The Model tab's
// mosaic, its exports and the heatmap grid of a model's layer all draw it with this function.
#pragma once

#include <QRectF>
#include <QString>

#include "ui/document/attention_config.h"

class QPainter;

namespace attnviz::ui {

/// The label drawn on a knocked-out head: "zero" or "mean", translated.
QString knock_out_label(KnockOut how);
/// A cross over `r` and, when it fits, knock_out_label(how) on a white tag at its centre.
void paint_knocked_out(QPainter* painter, const QRectF& r, KnockOut how);

}  // namespace attnviz::ui
