// ui_bench's cases for the why views (issue 38), in the real window, one JSON line each:
//   - click → why-panel: an Alt-click on a cell of a GPT-2-small-shaped model's heatmaps at
//     128 tokens until the pane's figure is repainted with that cell's attribution (<= 100 ms);
//   - the flow graph: a move of the threshold slider until the graph is repainted (<= 50 ms),
//     heads summed and per head;
//   - who writes: a text change on a Qwen2.5-0.5B-shaped model at 64 tokens, from the window's
//     pass until the DLA map is repainted (<= 300 ms), the tab reading the pass's record
//     (ModelPass::stream); then what recording costs the window's pass (<= 5%);
// and for each, the longest GUI-thread stall meanwhile, their computations included (<= 100 ms),
// with the CPU time the GUI thread ran in it (the rest it waited for a core) and the load.
#include <QCheckBox>
#include <QCoreApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QSlider>
#include <QThread>

#include <QFile>
#include <QTimer>

#include <climits>
#include <cstdio>
#include <ctime>

#include <qcustomplot.h>

#include "engine/models/attribution.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"
#include "ui/model/dla_view.h"
#include "ui/model/flow_view.h"
#include "ui/model/why_panel.h"
#include "ui/render/heatmap_figure.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"
#include "window_bench_support.h"

namespace attnviz::bench {

namespace {

using namespace attnviz::ui;

constexpr double kGoalStallMs = 100.0;

double since(const QElapsedTimer& t) {
    return double(t.nsecsElapsed()) / 1e6;
}

/// This thread's CPU time, in milliseconds: what it ran, not what it waited for a core.
double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/// The machine's load (runnable threads, averaged over a minute); -1 where unknown.
double load_average() {
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readLine().split(' ').value(0).toDouble() : -1.0;
}

/// The longest GUI-thread stall (the longest gap between two ticks of a 1 ms timer, as
/// StallMeter measures it) and the CPU time the thread ran in it; the most CPU time in any one
/// gap (the window's longest piece of work); the load when it stopped.  On a shared machine a
/// stall is the window's work plus the time the thread waited for a core: its CPU time tells
/// them apart.
struct GuiStall {
    double wall_ms = 0.0, cpu_ms = 0.0, busiest_ms = 0.0, load = -1.0;
};

class GuiStallMeter : public QObject {
  public:
    GuiStallMeter() {
        timer_.setInterval(1);
        timer_.setTimerType(Qt::PreciseTimer);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const double now = since(clock_), cpu = thread_cpu_ms();
            if (last_ >= 0 && now - last_ > worst_.wall_ms) {
                worst_.wall_ms = now - last_;
                worst_.cpu_ms = cpu - last_cpu_;
            }
            if (last_ >= 0) worst_.busiest_ms = std::max(worst_.busiest_ms, cpu - last_cpu_);
            last_ = now;
            last_cpu_ = cpu;
        });
    }
    void start() {
        worst_ = {};
        last_ = -1;
        clock_.start();
        timer_.start();
    }
    GuiStall stop() {
        timer_.stop();
        worst_.load = load_average();
        return worst_;
    }

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    double last_ = -1, last_cpu_ = 0.0;
    GuiStall worst_;
};

/// A point of the grid's plot over head `head`'s cell nearest (row, col), and that cell as the
/// figure's own hit test finds it (beside the pane a cell of 128 tokens is under a pixel: the
/// mouse gets the one under it); region None when the head is not on screen.
std::pair<QPoint, FigureHit> aim(HeatmapGridView* grid, int head, int row, int col) {
    const HeatmapFigure* f = grid->figure();
    std::pair<QPoint, FigureHit> best;
    int distance = INT_MAX;
    for (int panel = 0; panel < f->panelCount(); ++panel) {
        if (f->panelHead(panel) != head) continue;
        const QRect inner = f->panelRect(panel)->rect();
        for (int y = inner.top(); y <= inner.bottom(); ++y)
            for (int x = inner.left(); x <= inner.right(); ++x) {
                const FigureHit hit = f->hitTest(QPointF(x, y));
                const int d = std::abs(hit.row - row) + std::abs(hit.col - col);
                if (hit.region == FigureHit::Region::Cells && hit.head == head &&
                    hit.col <= hit.row && d < distance) {
                    distance = d;
                    best = {QPoint(x, y), hit};
                }
            }
    }
    return best;
}

/// A left click with Alt held, as the mouse sends it: press and release at `at`.
void alt_click(QWidget* widget, const QPoint& at) {
    for (const QEvent::Type type : {QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
        QMouseEvent e(type, QPointF(at), widget->mapToGlobal(QPointF(at)), Qt::LeftButton,
                      type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton,
                      Qt::AltModifier);
        QCoreApplication::sendEvent(widget, &e);
    }
}

/// Alt-clicks head `head`'s cell nearest (row, col) in the grid and waits until the pane is
/// repainted with its attribution: the milliseconds from the click, or -1 when it never is.
double click_to_pane(MainWindow& w, int head, int row, int col) {
    HeatmapGridView* grid = w.grid();
    WhyPanel* pane = w.views()->whyPanel();
    QCoreApplication::processEvents();  // the grid laid out beside the pane
    const auto [at, hit] = aim(grid, head, row, col);
    if (hit.region != FigureHit::Region::Cells) {
        std::fprintf(stderr, "head %d's cell (%d, %d) is not on screen\n", head + 1, row + 1,
                     col + 1);
        return -1.0;
    }
    const ModelMaps& m = *w.compute()->latest()->model;
    const std::int64_t query = m.pieceOf(hit.row), key = m.pieceOf(hit.col);
    const int started = pane->requestsStarted();
    QElapsedTimer t;
    t.start();
    alt_click(grid->plot(), at);
    const auto shown = [&] {
        const WhyResult* got = pane->result();
        return pane->requestsStarted() > started && !pane->isRunning() && got &&
               got->attribution.head.head == head && got->attribution.query == query &&
               got->attribution.key == key;
    };
    if (!wait_until(shown, 120000)) {
        std::fprintf(stderr, "the why-panel never explained head %d's cell: %s\n", head + 1,
                     qPrintable(pane->messageLabel()->text()));
        return -1.0;
    }
    pane->canvas()->repaint();
    return since(t);
}

/// Waits until the grid shows layer `layer` of the window's latest request.
bool grid_shows(MainWindow& w, int layer, std::uint64_t after_generation) {
    return wait_until(
        [&] {
            const ComputeController* c = w.compute();
            return c->requestedGeneration() > after_generation && !c->isBusy() && c->latest() &&
                   c->latest()->layer == layer &&
                   w.grid()->paintedGeneration() == c->requestedGeneration();
        },
        600000);
}

/// Click → why-panel on a GPT-2-small-shaped model at 128 tokens, layer 12 (the most
/// components below it): the first Alt-click of the text (which records its pass), then each
/// Alt-click on another head's cell until the pane is repainted with its attribution, then
/// the first click after each of three text changes made with the pane open (its pass recorded
/// as soon as the maps show it, the click at once); the engine's shares after.
bool bench_why_panel(AppSettings* settings, const QString& gpt2) {
    constexpr int kPieces = 128, kReps = 12, kLayer = 11;
    constexpr double kGoalMs = 100.0;
    MainWindow w(settings);
    if (!open_shaped(w, gpt2, ViewTabs::GridTab, kPieces)) {
        std::fprintf(stderr, "could not open %s at %d tokens\n", qPrintable(gpt2), kPieces);
        return false;
    }
    w.document()->setLayer(kLayer);
    if (!grid_shows(w, kLayer, w.compute()->requestedGeneration() - 1)) return false;
    const int tokens = w.compute()->latest()->model->tokens;
    std::vector<double> ms, after_change;
    GuiStallMeter stall;
    stall.start();
    for (int r = 0; r < kReps; ++r) {
        // Another head and cell each time (a cell already shown is not explained again): the
        // query in the text's second half, the key at or before it.
        const int row = tokens / 2 + (r * 37) % (tokens / 2);
        ms.push_back(click_to_pane(w, (r * 5) % 12, row, (r * 53) % (row + 1)));
        if (ms.back() < 0) return false;
    }
    const double first_ms = ms.front();
    ms.erase(ms.begin());
    const ModelPtr model = find_model(w.compute()->latest()->model->folder);
    const QString texts[] = {text_of_pieces(*model, kPieces - 1), text_of_pieces(*model, kPieces)};
    for (int r = 0; r < 3; ++r) {
        const auto before = w.compute()->requestedGeneration();
        w.document()->setTextA(texts[r % 2]);
        if (!grid_shows(w, kLayer, before)) return false;
        after_change.push_back(click_to_pane(w, 2 + r, tokens - 8, 5 + r));
        if (after_change.back() < 0) return false;
    }
    const GuiStall gui = stall.stop();
    const double worst_stall = gui.wall_ms;
    // The engine's shares: the pass recorded, and a cell from the record (on this thread).
    const ComputeConfig config = w.compute()->latest()->config;
    std::vector<double> record_ms, engine;
    for (int r = 0; r < 3; ++r) {
        QElapsedTimer t;
        t.start();
        const WhyStream stream =
            record_why_stream(*model, encode_model_text(*model, config), worker_threads());
        record_ms.push_back(since(t));
        t.start();
        compute_why(*model, stream, QString(), {{kLayer, r}, stream.record->tokens() - 1 - r, r},
                    0.0, worker_threads());
        engine.push_back(since(t));
    }
    const double med = median(ms);
    print_json(
        {{QStringLiteral("bench"), QStringLiteral("why_panel_click")},
         {QStringLiteral("model"), QStringLiteral("gpt2-small-shaped")},
         {QStringLiteral("tokens"), kPieces},
         {QStringLiteral("layer"), kLayer + 1},
         {QStringLiteral("threads"), worker_threads()},
         {QStringLiteral("clicks"), kReps - 1},
         {QStringLiteral("click_ms_median"), med},
         {QStringLiteral("click_ms_worst"), worst(ms)},
         {QStringLiteral("first_click_ms"), first_ms},
         {QStringLiteral("click_after_text_change_ms_median"), median(after_change)},
         {QStringLiteral("record_pass_ms_median"), median(record_ms)},
         {QStringLiteral("engine_ms_median"), median(engine)},
         {QStringLiteral("gui_stall_ms"), worst_stall},
         {QStringLiteral("gui_stall_cpu_ms"), gui.cpu_ms},
         {QStringLiteral("gui_busiest_ms"), gui.busiest_ms},
         {QStringLiteral("load"), gui.load},
         {QStringLiteral("goal"), QStringLiteral("click to pane <= 100 ms, stall <= 100 ms")},
         {QStringLiteral("pass"), med <= kGoalMs && worst_stall <= kGoalStallMs}});
    return true;
}

/// The flow graph of one computation of the importances (heads summed, or per head): each
/// move of the threshold slider, from its end to its other end and back, until the canvas is
/// repainted; the importances' computation, and the stall while it runs.
bool bench_flow_threshold(MainWindow& w, bool per_head) {
    constexpr int kReps = 21;
    constexpr double kGoalMs = 50.0;
    FlowView* view = w.views()->flowView();
    GuiStallMeter stall;
    stall.start();
    QElapsedTimer computed;
    computed.start();
    const int before = view->computations();
    if (view->perHeadBox()->isChecked() != per_head)
        view->perHeadBox()->setChecked(per_head);
    else
        view->run();
    if (!wait_until(
            [&] { return view->computations() > before && !view->isRunning() && view->graph(); },
            600000)) {
        std::fprintf(stderr, "the flow graph was never drawn: %s\n",
                     qPrintable(view->messageLabel()->text()));
        return false;
    }
    view->canvas()->repaint();
    const double compute_ms = since(computed);
    QSlider* slider = view->thresholdSlider();
    std::vector<double> ms;
    std::size_t most_edges = 0;
    for (int r = 0; r < kReps; ++r) {
        // Every tenth of the slider, the lowest threshold (the most edges) included.
        const int value = slider->maximum() * (r <= 10 ? 10 - r : r - 10) / 10;
        if (value == slider->value()) slider->setValue(value + 1);
        QElapsedTimer t;
        t.start();
        slider->setValue(value);
        view->canvas()->repaint();
        ms.push_back(since(t));
        most_edges = std::max(most_edges, view->graph() ? view->graph()->edges.size() : 0);
    }
    const GuiStall gui = stall.stop();
    const double worst_stall = gui.wall_ms;
    const double med = median(ms);
    print_json({{QStringLiteral("bench"), QStringLiteral("flow_threshold")},
                {QStringLiteral("model"), QStringLiteral("gpt2-small-shaped")},
                {QStringLiteral("tokens"), w.compute()->latest()->model->pieces},
                {QStringLiteral("per_head"), per_head},
                {QStringLiteral("threads"), worker_threads()},
                {QStringLiteral("importances_ms"), compute_ms},
                {QStringLiteral("moves"), kReps},
                {QStringLiteral("most_edges"), qint64(most_edges)},
                {QStringLiteral("redraw_ms_median"), med},
                {QStringLiteral("redraw_ms_worst"), worst(ms)},
                {QStringLiteral("gui_stall_ms"), worst_stall},
                {QStringLiteral("gui_stall_cpu_ms"), gui.cpu_ms},
                {QStringLiteral("gui_busiest_ms"), gui.busiest_ms},
                {QStringLiteral("load"), gui.load},
                {QStringLiteral("goal"), QStringLiteral("redraw <= 50 ms, stall <= 100 ms")},
                {QStringLiteral("pass"), med <= kGoalMs && worst_stall <= kGoalStallMs}});
    return true;
}

bool bench_flow(AppSettings* settings, const QString& gpt2) {
    constexpr int kPieces = 128;
    MainWindow w(settings);
    if (!open_shaped(w, gpt2, ViewTabs::FlowTab, kPieces)) {
        std::fprintf(stderr, "could not open %s at %d tokens\n", qPrintable(gpt2), kPieces);
        return false;
    }
    return bench_flow_threshold(w, false) && bench_flow_threshold(w, true);
}

/// Who writes, on a Qwen2.5-0.5B-shaped model at 64 tokens: each text change (a word more or
/// less) until the DLA map of its last token is repainted, timed from the window's pass (its
/// result handed to the window) and from the change; the engine's share after, from the
/// window's recorded pass and with a pass of its own; and what the record costs the window.
bool bench_dla(AppSettings* settings, const QString& qwen) {
    constexpr int kPieces = 64, kReps = 7;
    constexpr double kGoalMs = 300.0;
    MainWindow w(settings);
    if (!open_shaped(w, qwen, ViewTabs::DlaTab, kPieces)) {
        std::fprintf(stderr, "could not open %s at %d tokens\n", qPrintable(qwen), kPieces);
        return false;
    }
    DlaView* view = w.views()->dlaView();
    const ModelPtr model = find_model(w.compute()->latest()->model->folder);
    const QString texts[] = {text_of_pieces(*model, kPieces + 1), text_of_pieces(*model, kPieces)};
    if (texts[0].isEmpty() || texts[1].isEmpty()) return false;
    if (!wait_until([&] { return view->result() && !view->isRunning(); }, 600000)) return false;
    QElapsedTimer t;
    double passed_at = -1.0;
    QObject::connect(w.compute(), &ComputeController::resultReady, view, [&](const SnapshotPtr& s) {
        if (s && s->model && passed_at < 0) passed_at = since(t);
    });
    std::vector<double> after_pass, after_change;
    GuiStallMeter stall;
    stall.start();
    for (int r = 0; r < kReps; ++r) {
        const QString& text = texts[r % 2];
        passed_at = -1.0;
        t.start();
        w.document()->setTextA(text);
        const auto drawn = [&] {
            return passed_at >= 0 && !view->isRunning() && view->result() &&
                   view->result()->text == text;
        };
        if (!wait_until(drawn, 600000)) {
            std::fprintf(stderr, "the DLA map never followed the text: %s\n",
                         qPrintable(view->messageLabel()->text()));
            return false;
        }
        view->canvas()->repaint();
        after_change.push_back(since(t));
        after_pass.push_back(after_change.back() - passed_at);
    }
    const GuiStall gui = stall.stop();
    const double worst_stall = gui.wall_ms;
    const SnapshotPtr s = w.compute()->latest();
    if (!s->model->stream || !s->model->stream->has_attention()) {
        std::fprintf(stderr, "the window's pass was not recorded with its attention\n");
        return false;
    }
    // The engine's share: from the window's recorded pass, as the tab computes it, and with a
    // pass of its own, as it did before.
    std::vector<double> engine, engine_pass;
    for (int r = 0; r < 3; ++r)
        for (const models::StreamRecord* record :
             {s->model->stream.get(), static_cast<const models::StreamRecord*>(nullptr)}) {
            QElapsedTimer e;
            e.start();
            DlaRequest request;
            request.position = kPieces - 1;
            request.target = view->result()->attribution.what.target;
            compute_dla(*model, encode_model_text(*model, s->config), QString(), request,
                        worker_threads(), {}, record);
            (record ? engine : engine_pass).push_back(since(e));
        }
    // What recording costs the window's pass, in pairs run one right after the other (the
    // load of a shared machine drifts): run_model with the budget's room for the record and
    // with a budget of exactly what the pass and its kept weights need (no record); and the
    // forward pass alone, its maps kept, with and without the recorder.
    std::vector<double> induction, run_ms[2], run_ratio, forward_ms[2], forward_ratio;
    const budget::MemoryBudget plenty = budget::resolve_memory_budget("", "");
    const auto first = run_model(s->config, worker_threads(), plenty, &induction);
    budget::MemoryBudget tight = plenty;
    tight.bytes = first->estimated_bytes - model->model->streaming_weight_bytes() +
                  model->model->weight_bytes();
    const models::ModelInput input = encode_model_text(*model, s->config).input;
    models::ModelForwardOptions forward;
    forward.num_threads = worker_threads();
    for (int r = 0; r < 7; ++r) {
        for (const bool record : {true, false}) {
            QElapsedTimer e;
            e.start();
            const auto maps =
                run_model(s->config, worker_threads(), record ? plenty : tight, &induction);
            run_ms[record].push_back(since(e));
            if (bool(maps->stream) != record) {
                std::fprintf(stderr, "the pass was %s\n", record ? "not recorded" : "recorded");
                return false;
            }
            models::CollectingSink kept;
            e.start();
            if (record) {
                models::StreamRecorder recorder(model->model->config(), input, forward,
                                                models::RecordedParts::StreamAndAttention, &kept);
                model->model->forward(input, forward, recorder);
                recorder.take();
            } else {
                model->model->forward(input, forward, kept);
            }
            forward_ms[record].push_back(since(e));
        }
        run_ratio.push_back(run_ms[1].back() / run_ms[0].back());
        forward_ratio.push_back(forward_ms[1].back() / forward_ms[0].back());
    }
    const double med = median(after_pass);
    print_json(
        {{QStringLiteral("bench"), QStringLiteral("dla_after_pass")},
         {QStringLiteral("model"), QStringLiteral("qwen2.5-0.5b-shaped")},
         {QStringLiteral("tokens"), kPieces},
         {QStringLiteral("threads"), worker_threads()},
         {QStringLiteral("changes"), kReps},
         {QStringLiteral("after_pass_ms_median"), med},
         {QStringLiteral("after_pass_ms_worst"), worst(after_pass)},
         {QStringLiteral("after_change_ms_median"), median(after_change)},
         {QStringLiteral("window_pass_ms"), s->model->elapsed_ms},
         {QStringLiteral("engine_ms_median"), median(engine)},
         {QStringLiteral("engine_own_pass_ms_median"), median(engine_pass)},
         {QStringLiteral("run_model_recorded_ms_median"), median(run_ms[1])},
         {QStringLiteral("run_model_plain_ms_median"), median(run_ms[0])},
         {QStringLiteral("run_model_record_cost_pct_median"), 100.0 * (median(run_ratio) - 1.0)},
         {QStringLiteral("forward_recorded_ms_median"), median(forward_ms[1])},
         {QStringLiteral("forward_plain_ms_median"), median(forward_ms[0])},
         {QStringLiteral("forward_record_cost_pct_median"), 100.0 * (median(forward_ratio) - 1.0)},
         {QStringLiteral("gui_stall_ms"), worst_stall},
         {QStringLiteral("gui_stall_cpu_ms"), gui.cpu_ms},
         {QStringLiteral("gui_busiest_ms"), gui.busiest_ms},
         {QStringLiteral("load"), gui.load},
         {QStringLiteral("goal"), QStringLiteral("pass to DLA map <= 300 ms, stall <= 100 ms")},
         {QStringLiteral("pass"), med <= kGoalMs && worst_stall <= kGoalStallMs}});
    return true;
}

}  // namespace

bool bench_why(AppSettings* settings, const QString& gpt2, const QString& qwen) {
    return bench_why_panel(settings, gpt2) && bench_flow(settings, gpt2) &&
           bench_dla(settings, qwen);
}

}  // namespace attnviz::bench
