// ui_bench: how long from a change of a control to the repainted grid, in the real window.
//
//   QT_QPA_PLATFORM=offscreen ./ui_bench [--quick]
//
// For each case (tokens x heads, embed_dim) it toggles the causal check box (alternating,
// so every change needs a new forward pass) and measures until the grid has been replotted
// with the new snapshot; it reports the median and the worst, the engine's share, and the
// longest time the GUI thread did not return to its event loop (a 1 ms timer measures the
// gaps).  Then it zooms into and pans across the map and times each replot.  Targets (issue
// 3): 16 x 8 <= 16 ms, 256 x 12 <= 150 ms, 1024 x 16 no GUI stall over 100 ms.
#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <qcustomplot.h>

#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"

using namespace attnviz::ui;

namespace {
struct Case {
    int tokens, heads, embed_dim, reps;
    double target_ms;  // change -> repaint median target; 0 = none (stall target applies)
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

QString token_list(int n) {
    static const char* words[] = {"the",   "cat", "sat",  "on",    "mat", "because", "it",   "was",
                                  "tired", "and", "then", "slept", "all", "day",     "long", "."};
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << QString::fromLatin1(words[i % 16]);
    return out.join(QLatin1Char('|'));
}

/// Measures the longest gap between ticks of a 1 ms timer: the GUI thread's longest stall.
class StallMeter : public QObject {
  public:
    StallMeter() {
        timer_.setInterval(1);
        timer_.setTimerType(Qt::PreciseTimer);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const double now = clock_.nsecsElapsed() / 1e6;
            if (last_ >= 0) worst_ = std::max(worst_, now - last_);
            last_ = now;
        });
    }
    void start() {
        worst_ = 0;
        last_ = -1;
        clock_.start();
        timer_.start();
    }
    double stop() {
        timer_.stop();
        return worst_;
    }

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    double last_ = -1, worst_ = 0;
};

bool wait_until(const std::function<bool()>& done, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeout_ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

bool painted(MainWindow& w) {
    const ComputeController* c = w.compute();
    return !c->isBusy() && c->latest() && w.grid()->paintedGeneration() == c->requestedGeneration();
}
}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    const bool quick = QCoreApplication::arguments().contains(QStringLiteral("--quick"));
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("bench.ini")));

    std::vector<Case> cases{
        {16, 8, 64, 41, 16.0}, {256, 12, 768, 21, 150.0}, {1024, 16, 1024, 7, 0.0}};
    if (quick)
        for (auto& c : cases)
            c.reps = std::max(3, c.reps / 4);

    std::printf("%-14s %9s %9s %9s %9s %12s %10s  %s\n", "case", "median", "worst", "engine", "gui",
                "gui stall", "target", "verdict");
    for (const Case& c : cases) {
        MainWindow w(&settings);
        w.setConfirmOnClose(false);
        w.resize(1600, 1000);
        w.show();
        AttentionDocument* doc = w.document();
        doc->setUseTokenList(true);
        doc->setTokenListA(token_list(c.tokens));
        doc->setEmbedDim(c.embed_dim);
        doc->setNumHeads(c.heads);
        if (!wait_until([&] { return painted(w) && w.compute()->latest()->target_len == c.tokens; },
                        120000)) {
            std::fprintf(stderr, "timed out preparing %d x %d\n", c.tokens, c.heads);
            return 1;
        }
        QCheckBox* causal = w.findChild<QCheckBox*>(QStringLiteral("causalCheck"));
        std::vector<double> total, engine, gui;
        StallMeter stall;
        stall.start();
        for (int r = 0; r < c.reps; ++r) {
            QElapsedTimer t;
            t.start();
            const auto before = w.compute()->requestedGeneration();
            causal->setChecked(!causal->isChecked());  // the control change
            if (!wait_until(
                    [&] { return w.compute()->requestedGeneration() > before && painted(w); },
                    120000)) {
                std::fprintf(stderr, "timed out\n");
                return 1;
            }
            const double ms = t.nsecsElapsed() / 1e6;
            total.push_back(ms);
            engine.push_back(w.compute()->latest()->elapsed_ms);
            gui.push_back(ms - w.compute()->latest()->elapsed_ms);
        }
        const double worst_stall = stall.stop();

        char label[32];
        std::snprintf(label, sizeof label, "%d x %d", c.tokens, c.heads);
        char target[32];
        bool ok;
        if (c.target_ms > 0) {
            std::snprintf(target, sizeof target, "<=%.0f ms", c.target_ms);
            ok = median(total) <= c.target_ms;
        } else {
            std::snprintf(target, sizeof target, "stall<=100");
            ok = worst_stall <= 100.0;
        }
        std::printf("%-14s %7.1fms %7.1fms %7.1fms %7.1fms %10.1fms %10s  %s\n", label,
                    median(total), *std::max_element(total.begin(), total.end()), median(engine),
                    median(gui), worst_stall, target, ok ? "ok" : "MISSED");

        // Zoom and pan: replot times of the whole grid while the view moves.
        HeatmapFigure* fig = w.grid()->figure();
        QCustomPlot* plot = w.grid()->plot();
        std::vector<double> replots;
        QCPAxis* x = fig->panelRect(0)->axis(QCPAxis::atBottom);
        QCPAxis* y = fig->panelRect(0)->axis(QCPAxis::atLeft);
        const double window = std::max(8.0, c.tokens / 8.0);
        for (int step = 0; step < 20; ++step) {
            QElapsedTimer t;
            t.start();
            const double at = (c.tokens - window) * step / 19.0;
            x->setRange(at - 0.5, at + window - 0.5);
            y->setRange(at - 0.5, at + window - 0.5);
            plot->replot(QCustomPlot::rpImmediateRefresh);
            replots.push_back(t.nsecsElapsed() / 1e6);
        }
        std::printf("%-14s zoom/pan replot median %.1f ms, worst %.1f ms (%d panels)\n", "",
                    median(replots), *std::max_element(replots.begin(), replots.end()),
                    fig->panelCount());
        std::fflush(stdout);
    }
    return 0;
}
