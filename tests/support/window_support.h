// For the GUI tests that drive a real MainWindow: waiting until what the window shows is the
// result of its current settings.  Header-only, because the shared test library does not
// link the Qt front end.
#pragma once

#include <QTest>

#include "ui/compute/compute_controller.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"

namespace attnviz::test {

/// The worker is idle, a result exists and the grid has painted that result.
inline bool settled(ui::MainWindow& w) {
    const ui::ComputeController* c = w.compute();
    return !c->isBusy() && c->latest() && w.grid()->paintedGeneration() == c->latest()->generation;
}

}  // namespace attnviz::test

/// Lets the document's coalesced signals fire, then waits for the worker and the repaint
/// (the bound only matters when a test fails; big inputs under sanitizers take a while).
#define SETTLE(w)                                                     \
    do {                                                              \
        QTest::qWait(1);                                              \
        QTRY_VERIFY_WITH_TIMEOUT(::attnviz::test::settled(w), 60000); \
    } while (false)
