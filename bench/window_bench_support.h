// What ui_bench's cases share (its name does not begin with ui_: AutoUic would take it for a
// form's header): the stall meter, waiting in the event loop, the texts, the JSON lines, and
// opening a shaped checkpoint in the real window.
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <vector>

#include "ui/widgets/view_tabs.h"

namespace attnviz::models {
struct OpenedModel;
}
namespace attnviz::ui {
class AppSettings;
class MainWindow;
}  // namespace attnviz::ui

namespace attnviz::bench {

double median(std::vector<double> v);
double worst(const std::vector<double>& v);

/// Measures the longest gap between ticks of a 1 ms timer: the GUI thread's longest stall.
class StallMeter : public QObject {
  public:
    StallMeter();
    void start();
    double stop();

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    double last_ = -1, worst_ = 0;
};

/// Runs the event loop until `done`; false after `timeout_ms`.  It sleeps between events (a
/// 1 ms timer wakes it to look): spinning would take a core from the compute threads on a
/// small machine.
bool wait_until(const std::function<bool()>& done, int timeout_ms);

/// n words joined by '|' (a token list of the demo layer).
QString token_list(int n);
/// A sentence of n words (the model's tokenizer adds its special tokens).
QString sentence(int n);

/// One measurement as a JSON line: what, the figures, the goal and the verdict.
void print_json(const QJsonObject& o);

/// `n` words whose text `model` reads as exactly `pieces` pieces (words added or removed
/// until it does); empty when it never does.
QString text_of_pieces(const models::OpenedModel& model, int pieces);

/// Opens `folder` in `w` on `tab` with a text of `pieces` pieces; false when it fails.
bool open_shaped(ui::MainWindow& w, const QString& folder, ui::ViewTabs::Tab tab, int pieces);

/// The why views (issue 38): click to the why-panel (GPT-2-small shape), the flow graph's
/// threshold (GPT-2-small shape), the DLA map after a pass (Qwen2.5-0.5B shape), each with the
/// longest GUI stall.  ui_bench_why.cpp.
bool bench_why(ui::AppSettings* settings, const QString& gpt2, const QString& qwen);

}  // namespace attnviz::bench
