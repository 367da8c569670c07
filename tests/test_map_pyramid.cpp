// The multi-resolution pyramid of one map (engine/ops/map_pyramid.h): level 0 is the map bit
// for bit, every pooled cell is the max (or the mean) of the level-0 cells it covers, odd
// edges included, and a query picks the finest level whose cells are at least a pixel.  The
// reference is the brute-force pooling of level 0 written out here, in double for the mean.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "engine/ops/map_pyramid.h"
#include "test_support.h"

using namespace attnviz;
using ops::MapPyramid;
using ops::PoolMode;

namespace {

Tensor random_map(std::int64_t rows, std::int64_t cols, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Tensor t({rows, cols});
    for (float& v : t.data)
        v = u(rng);
    return t;
}

/// The max or the mean of level 0's cells under cell (i, j) of a level of `scale`.
double pooled(const Tensor& map, std::int64_t i, std::int64_t j, std::int64_t scale,
              PoolMode mode) {
    const std::int64_t R = map.dim(0), C = map.dim(1);
    double best = -INFINITY, sum = 0.0;
    std::int64_t n = 0;
    for (std::int64_t r = i * scale; r < std::min(R, (i + 1) * scale); ++r)
        for (std::int64_t c = j * scale; c < std::min(C, (j + 1) * scale); ++c) {
            const double v = map.data[std::size_t(r * C + c)];
            best = std::max(best, v);
            sum += v;
            ++n;
        }
    return mode == PoolMode::Max ? best : sum / double(n);
}

/// The first cell of any level that differs from the reference by more than `atol`, or "".
QString first_mismatch(const MapPyramid& p, const Tensor& map, double atol) {
    for (int k = 1; k < p.levels(); ++k) {
        const ops::PyramidLevel& l = p.level(k);
        for (std::int64_t i = 0; i < l.rows; ++i)
            for (std::int64_t j = 0; j < l.cols; ++j) {
                const double want = pooled(map, i, j, l.scale, p.mode());
                if (std::abs(double(l.at(i, j)) - want) > atol)
                    return QStringLiteral("level %1 cell (%2, %3): got %4, expected %5")
                        .arg(k)
                        .arg(i)
                        .arg(j)
                        .arg(double(l.at(i, j)), 0, 'g', 9)
                        .arg(want, 0, 'g', 9);
            }
    }
    return {};
}

}  // namespace

class TestMapPyramid : public QObject {
    Q_OBJECT

  private slots:
    void levelZeroIsTheMapBitForBit() {
        auto map = std::make_shared<const Tensor>(random_map(37, 53, 1));
        const MapPyramid p(map, PoolMode::Max, 4);
        QCOMPARE(p.level(0).values, map->ptr());  // shared, not copied
        QCOMPARE(p.level(0).rows, std::int64_t(37));
        QCOMPARE(p.level(0).cols, std::int64_t(53));
        // Moved in: the same bits.
        Tensor moved = random_map(37, 53, 1);
        const MapPyramid q(std::move(moved), PoolMode::Mean, 4);
        QVERIFY(std::memcmp(q.level(0).values, map->ptr(), map->numel() * sizeof(float)) == 0);
        QCOMPARE(p.max_value(), *std::max_element(map->data.begin(), map->data.end()));
        QCOMPARE(p.min_value(), *std::min_element(map->data.begin(), map->data.end()));
    }

    void levelsHalveDownToTheTopSide() {
        const MapPyramid p(random_map(37, 53, 2), PoolMode::Max, 4);
        const std::vector<std::pair<std::int64_t, std::int64_t>> sizes{
            {37, 53}, {19, 27}, {10, 14}, {5, 7}, {3, 4}};
        QCOMPARE(p.levels(), int(sizes.size()));
        for (int k = 0; k < p.levels(); ++k) {
            QCOMPARE(p.level(k).rows, sizes[std::size_t(k)].first);
            QCOMPARE(p.level(k).cols, sizes[std::size_t(k)].second);
            QCOMPARE(p.level(k).scale, std::int64_t(1) << k);
        }
        // A map that already fits is its own top.
        QCOMPARE(MapPyramid(random_map(3, 200, 3)).levels(), 1);
        QCOMPARE(MapPyramid(random_map(1, 1, 3), PoolMode::Max, 1).levels(), 1);
        QCOMPARE(MapPyramid(random_map(1, 9, 3), PoolMode::Max, 1).levels(), 5);  // 9 5 3 2 1
    }

    void maxCellsAreTheMaxOfTheirBlock_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("threads");
        QTest::newRow("even 64 x 64") << 64 << 64 << 1;
        QTest::newRow("odd 37 x 53") << 37 << 53 << 1;
        QTest::newRow("odd 37 x 53, 3 threads") << 37 << 53 << 3;
        QTest::newRow("one row") << 1 << 33 << 1;
        QTest::newRow("one column") << 45 << 1 << 2;
        QTest::newRow("2^k + 1") << 65 << 129 << 2;
    }
    void maxCellsAreTheMaxOfTheirBlock() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, threads);
        const Tensor map = random_map(rows, cols, unsigned(rows * 1000 + cols));
        const MapPyramid p(Tensor(map), PoolMode::Max, 1, threads);
        QVERIFY(p.levels() > 1);
        const QString bad = first_mismatch(p, map, 0.0);  // max is exact
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // And each level from its own 2 x 2 below, as the pyramid is defined.
        for (int k = 1; k < p.levels(); ++k) {
            const ops::PyramidLevel &l = p.level(k), &b = p.level(k - 1);
            for (std::int64_t i = 0; i < l.rows; ++i)
                for (std::int64_t j = 0; j < l.cols; ++j) {
                    float m = -INFINITY;
                    for (std::int64_t r = 2 * i; r < std::min(b.rows, 2 * i + 2); ++r)
                        for (std::int64_t c = 2 * j; c < std::min(b.cols, 2 * j + 2); ++c)
                            m = std::max(m, b.at(r, c));
                    QCOMPARE(l.at(i, j), m);
                }
        }
    }

    void meanCellsAreTheMeanOfTheLevelZeroCellsTheyCover_data() {
        maxCellsAreTheMaxOfTheirBlock_data();
    }
    void meanCellsAreTheMeanOfTheLevelZeroCellsTheyCover() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, threads);
        const Tensor map = random_map(rows, cols, unsigned(rows * 7 + cols));
        const MapPyramid p(Tensor(map), PoolMode::Mean, 1, threads);
        QCOMPARE(p.mode(), PoolMode::Mean);
        // float sums of up to 2^7 x 2^7 cells, each within rounding of the double reference.
        const QString bad = first_mismatch(p, map, 1e-6);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // An odd edge cell is not pulled towards its neighbour: 3 columns [0, 0, 1] pool to
        // [0, 1] and then to 1/3, the mean of the three, not 1/2.
        const MapPyramid e(Tensor({1, 3}, {0.0f, 0.0f, 1.0f}), PoolMode::Mean, 1);
        QCOMPARE(e.levels(), 3);
        QCOMPARE(e.level(1).at(0, 0), 0.0f);
        QCOMPARE(e.level(1).at(0, 1), 1.0f);
        QVERIFY(std::abs(e.level(2).at(0, 0) - 1.0f / 3.0f) < 1e-7f);
    }

    void queriesPickTheFinestLevelOfAtLeastAPixel() {
        const MapPyramid p(random_map(1024, 1024, 4));  // levels 1024, 512, 256
        QCOMPARE(p.levels(), 3);
        // The whole map on 300 pixels: 4 cells a pixel (256 cells), not 2 (512 > 300).
        ops::PyramidRegion r = p.query(0, 1024, 0, 1024, 300, 300);
        QCOMPARE(r.level, 2);
        QCOMPARE(r.rows(), std::int64_t(256));
        QCOMPARE(r.cols(), std::int64_t(256));
        QCOMPARE(p.query(0, 1024, 0, 1024, 600, 600).level, 1);
        QCOMPARE(p.query(0, 1024, 0, 1024, 1024, 1024).level, 0);
        QCOMPARE(p.query(0, 1024, 0, 1024, 100, 100).level, 2);  // the top: coarser is none
        // Both axes must fit: a wide region on a tall, narrow window.
        QCOMPARE(p.query(0, 100, 0, 1000, 800, 400).level, 2);
        // Zoomed in: level 0, the cells that overlap the fractional region.
        r = p.query(100.5, 200.25, 10.0, 20.0, 800, 800);
        QCOMPARE(r.level, 0);
        QCOMPARE(r.row_begin, std::int64_t(100));
        QCOMPARE(r.row_end, std::int64_t(201));
        QCOMPARE(r.col_begin, std::int64_t(10));
        QCOMPARE(r.col_end, std::int64_t(20));
        // Half-way: region [300, 900) on 200 pixels: 600 / 4 = 150 <= 200 < 300 = 600 / 2.
        r = p.query(300, 900, 300, 900, 200, 200);
        QCOMPARE(r.level, 2);
        QCOMPARE(r.row_begin, std::int64_t(75));
        QCOMPARE(r.row_end, std::int64_t(225));
        // Clipped to the map; outside it, nothing.
        r = p.query(-50, 2000, -50, 2000, 1200, 1200);
        QCOMPARE(r.level, 0);
        QCOMPARE(r.rows(), std::int64_t(1024));
        QCOMPARE(p.query(2000, 3000, 0, 10, 100, 100).rows(), std::int64_t(0));
        // Never more cells than pixels (+ a partial cell at each edge), at any zoom.
        for (double span : {1.0, 7.5, 333.3, 1024.0})
            for (double px : {50.0, 333.0, 900.0}) {
                const ops::PyramidRegion q = p.query(17.3, 17.3 + span, 5.1, 5.1 + span, px, px);
                QVERIFY(q.rows() <= std::int64_t(px) + 2 || q.level == p.levels() - 1);
                QVERIFY(q.cols() <= std::int64_t(px) + 2 || q.level == p.levels() - 1);
            }
    }

    void refusesWhatIsNoMap() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)MapPyramid(Tensor({2, 3, 4})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)MapPyramid(Tensor()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 (void)MapPyramid(Tensor({2, 2}), PoolMode::Max, 0));
        try {
            const MapPyramid p(Tensor({2, 3, 4}));
            QFAIL("a 3-D tensor was taken for a map");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("[2,3,4]") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestMapPyramid)
#include "test_map_pyramid.moc"
