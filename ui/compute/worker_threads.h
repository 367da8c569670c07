// How many threads a computation of the window (a model's pass, a statistics pass, a patching
// sweep, an export) runs on: every core Qt reports, at least one.
#pragma once

#include <QThread>

#include <algorithm>

namespace attnviz::ui {

inline int worker_threads() {
    return std::max(1, QThread::idealThreadCount());
}

}  // namespace attnviz::ui
