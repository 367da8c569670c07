// ColourTable (ui/compute/colour_table.h), which colours thumbnails on the worker without
// QCustomPlot, against the QCPColorGradient the heatmaps draw with: every level of every map,
// and values below, inside and above the range and NaN, must get the very same colour.
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

#include <qcustomplot.h>

#include "ui/compute/colour_table.h"
#include "ui/render/colormaps.h"

using namespace attnviz::ui;

class ColourTableTest : public QObject {
    Q_OBJECT
  private slots:
    void everyLevelIsQCustomPlotsColour_data() {
        QTest::addColumn<int>("map");
        QTest::newRow("viridis") << int(Colormap::Viridis);
        QTest::newRow("cividis") << int(Colormap::Cividis);
        QTest::newRow("magma") << int(Colormap::Magma);
        QTest::newRow("grey") << int(Colormap::Grey);
    }
    void everyLevelIsQCustomPlotsColour() {
        QFETCH(int, map);
        const ColourTable table{Colormap(map)};
        QCPColorGradient gradient = make_gradient(Colormap(map));
        const int n = ColourTable::kLevels;
        for (int i = 0; i < n; ++i) {
            // The middle of level i's interval of [0, 1].
            const double v = (i + 0.5) / double(n - 1);
            const QRgb want = gradient.color(v, QCPRange(0.0, 1.0));
            if (table.level(i) != want)
                QFAIL(qPrintable(QStringLiteral("level %1: ours #%2, QCustomPlot's #%3")
                                     .arg(i)
                                     .arg(table.level(i), 8, 16, QLatin1Char('0'))
                                     .arg(want, 8, 16, QLatin1Char('0'))));
        }
        // The ends are the first and last stops.
        QCOMPARE(table.level(0), QColor(colormap_stops(Colormap(map)).front()).rgba());
        QCOMPARE(table.level(n - 1), QColor(colormap_stops(Colormap(map)).back()).rgba());
    }

    void aRowIsColouredAsQCustomPlotColoursIt() {
        for (Colormap map : {Colormap::Viridis, Colormap::Magma, Colormap::Grey}) {
            const ColourTable table(map);
            QCPColorGradient gradient = make_gradient(map);
            std::vector<double> row;
            for (int k = -40; k <= 1040; ++k)
                row.push_back(0.37 * k / 1000.0);  // below 0, across [0, 0.37], above
            row.push_back(std::numeric_limits<double>::quiet_NaN());
            const int n = int(row.size());
            std::vector<QRgb> ours(std::size_t(n), 0), theirs(std::size_t(n), 1);
            table.colorize(row.data(), 0.0, 0.37, ours.data(), n);
            gradient.colorize(row.data(), QCPRange(0.0, 0.37), theirs.data(), n);
            for (int k = 0; k < n; ++k)
                if (ours[std::size_t(k)] != theirs[std::size_t(k)])
                    QFAIL(qPrintable(QStringLiteral("value %1: ours #%2, QCustomPlot's #%3")
                                         .arg(row[std::size_t(k)])
                                         .arg(ours[std::size_t(k)], 8, 16, QLatin1Char('0'))
                                         .arg(theirs[std::size_t(k)], 8, 16, QLatin1Char('0'))));
            QCOMPARE(ours.back(), masked_cell_color(map).rgba());
            QVERIFY(ours.front() != ours[std::size_t(n) / 2]);  // the row is not one colour
        }
    }
};

QTEST_MAIN(ColourTableTest)
#include "ui_colour_table_test.moc"
