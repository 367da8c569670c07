#include "ui/compute/csv.h"

#include <cmath>

namespace attnviz::ui {

QString csv_field(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString csv_number(double v, int digits) {
    if (std::isnan(v)) return QStringLiteral("nan");
    return QString::number(v, 'g', digits);
}

}  // namespace attnviz::ui
