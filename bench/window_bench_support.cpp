#include "window_bench_support.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <cstdio>

#include "engine/models/model_folder.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/model/model_source.h"
#include "ui/widgets/main_window.h"

namespace attnviz::bench {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double worst(const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

StallMeter::StallMeter() {
    timer_.setInterval(1);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] {
        const double now = clock_.nsecsElapsed() / 1e6;
        if (last_ >= 0) worst_ = std::max(worst_, now - last_);
        last_ = now;
    });
}

void StallMeter::start() {
    worst_ = 0;
    last_ = -1;
    clock_.start();
    timer_.start();
}

double StallMeter::stop() {
    timer_.stop();
    return worst_;
}

bool wait_until(const std::function<bool()>& done, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    QTimer tick;
    tick.start(1);
    while (!done()) {
        if (t.elapsed() > timeout_ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

QString token_list(int n) {
    static const char* words[] = {"the",   "cat", "sat",  "on",    "mat", "because", "it",   "was",
                                  "tired", "and", "then", "slept", "all", "day",     "long", "."};
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << QString::fromLatin1(words[i % 16]);
    return out.join(QLatin1Char('|'));
}

QString sentence(int n) {
    return token_list(n).replace(QLatin1Char('|'), QLatin1Char(' '));
}

void print_json(const QJsonObject& o) {
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QString text_of_pieces(const models::OpenedModel& model, int pieces) {
    const auto count = [&](const QString& text) {
        return int(models::encode_text(model, text.toStdString()).input.ids.size());
    };
    int words = pieces;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int got = count(sentence(words));
        if (got == pieces) return sentence(words);
        words = std::max(1, words + (pieces - got) * words / std::max(got, 1));
    }
    // A tokenizer of characters: a longer text cut a character at a time.
    QString text = sentence(pieces);
    while (text.size() > 1 && count(text) > pieces)
        text.chop(1);
    return count(text) == pieces && !text.endsWith(QLatin1Char(' ')) ? text : QString();
}

bool open_shaped(ui::MainWindow& w, const QString& folder, ui::ViewTabs::Tab tab, int pieces) {
    w.setConfirmOnClose(false);
    w.resize(1600, 1000);
    w.show();
    w.views()->setCurrentTab(tab);
    w.openModel(folder);
    const auto loaded = [&] {
        const ui::SnapshotPtr s = w.compute()->latest();
        return !w.modelSource()->isLoading() && !w.compute()->isBusy() && s && s->model;
    };
    if (!wait_until(loaded, 600000)) return false;
    const ui::ModelPtr model = ui::find_model(w.compute()->latest()->model->folder);
    if (!model) return false;
    const QString text = text_of_pieces(*model, pieces);
    if (text.isEmpty()) return false;
    const auto before = w.compute()->requestedGeneration();
    w.document()->setTextA(text);
    return wait_until(
        [&] {
            return w.compute()->requestedGeneration() > before && loaded() &&
                   w.compute()->latest()->model->text_pieces == pieces;
        },
        600000);
}

}  // namespace attnviz::bench
