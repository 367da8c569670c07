// CSV as the data tables write it (the lens's predictions, a figure's weights, the statistics).
#pragma once

#include <QString>

namespace attnviz::ui {

/// A CSV field: as it is, or quoted (with its quotes doubled) when it holds a comma, a quote
/// or a line break.
QString csv_field(const QString& s);

/// A CSV number with `digits` significant digits ("nan" for a missing value): 7 show what a
/// float holds, 9 read back as the same float bit for bit.
QString csv_number(double v, int digits = 7);

}  // namespace attnviz::ui
