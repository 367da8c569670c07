// How the model's own tokens (the generation timeline's continuation) are told apart wherever
// tokens are drawn: one colour, for the panel's text, the predictions strip and the line the
// heatmaps draw where the continuation begins.
#pragma once

#include <QColor>

namespace attnviz::ui {

/// Dark orange: apart from every colour map's hues and readable on white.
inline QColor generated_token_color() {
    return QColor(0xd9, 0x5f, 0x02);
}

}  // namespace attnviz::ui
