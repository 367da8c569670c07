#include "ui/model/corpus_source.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"

namespace attnviz::ui {

namespace {
/// Whether `path`, not named .jsonl, begins like JSON Lines: its first line that is not blank
/// is a JSON object or string (then it could be either, and the user says which).
bool looks_like_json_lines(const QString& path) {
    if (path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive)) return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;  // the run says why it cannot be read
    for (int k = 0; k < 64 && !file.atEnd(); ++k) {
        const QByteArray line = file.readLine(1 << 16).trimmed();
        if (line.isEmpty()) continue;
        return line.startsWith('{') || line.startsWith('"');
    }
    return false;
}
}  // namespace

CorpusSource::CorpusSource(MainWindow* window, AttentionDocument* document,
                           ComputeController* compute, DocumentHistory* history)
    : QObject(window),
      window_(window),
      doc_(document),
      compute_(compute),
      history_(history),
      runner_(new CorpusRunner(this)) {
    createActions();
    createProgress();
    retranslate();
    connect(runner_, &CorpusRunner::progressed, this, &CorpusSource::showProgress);
    connect(runner_, &CorpusRunner::finished, this, &CorpusSource::finish);
    connect(runner_, &CorpusRunner::failed, this, [this](const QString& message) {
        endRun();
        emit failed(tr("Cannot measure the corpus"), message);
    });
    connect(runner_, &CorpusRunner::cancelled, this, &CorpusSource::endRun);
    connect(compute_, &ComputeController::resultReady, this, &CorpusSource::followResult);
    // A corpus of another source waits no more: its model is not the one shown.
    connect(doc_, &AttentionDocument::modelFolderChanged, this, [this](const QString& folder) {
        if (waiting_ && QFileInfo(folder).absoluteFilePath() != waiting_folder_) waiting_.reset();
    });
    window_->installEventFilter(this);
    // Each text entered (Return, or the box left) is one of the history's.
    connect(window_->inputPanel()->sentenceEdit(), &QLineEdit::editingFinished, this, [this] {
        const QString t = doc_->textA();
        if (t.trimmed().isEmpty()) return;
        entered_.removeAll(t);
        entered_ << t;
        if (entered_.size() > kHeldTexts) entered_.removeFirst();
    });
}

QStringList CorpusSource::heldTexts() const {
    QStringList out;
    for (const QString& t : history_->texts())
        if (!entered_.contains(t)) out << t;
    out << entered_;
    const QString now = doc_->textA();
    out.removeAll(now);
    if (!now.trimmed().isEmpty()) out << now;
    return out;
}

CorpusSource::~CorpusSource() = default;

void CorpusSource::createActions() {
    open_act_ = new QAction(window_);
    open_act_->setObjectName(QStringLiteral("openCorpusAction"));
    connect(open_act_, &QAction::triggered, this, &CorpusSource::openDialog);
    history_act_ = new QAction(window_);
    history_act_->setObjectName(QStringLiteral("corpusFromHistoryAction"));
    connect(history_act_, &QAction::triggered, this, &CorpusSource::openHistory);
}

void CorpusSource::createProgress() {
    progress_ = new QWidget(window_);
    progress_->setObjectName(QStringLiteral("corpusProgress"));
    auto* row = new QHBoxLayout(progress_);
    row->setContentsMargins(0, 0, 0, 0);
    label_ = new QLabel(progress_);
    bar_ = new QProgressBar(progress_);
    bar_->setObjectName(QStringLiteral("corpusProgressBar"));
    bar_->setMaximumWidth(180);
    cancel_ = new QPushButton(progress_);
    cancel_->setObjectName(QStringLiteral("corpusCancel"));
    connect(cancel_, &QPushButton::clicked, this, &CorpusSource::cancel);
    row->addWidget(label_);
    row->addWidget(bar_);
    row->addWidget(cancel_);
    progress_->hide();
}

void CorpusSource::retranslate() {
    open_act_->setText(tr("Open &Corpus…"));
    open_act_->setStatusTip(
        tr("Measure every head of the open model over a file of texts (one per line, per "
           "paragraph or per JSON Lines record)"));
    history_act_->setText(tr("Corpus from &History"));
    history_act_->setStatusTip(
        tr("Measure every head of the open model over the texts the text box held in this "
           "session"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(
        tr("Stop after the text under way: the texts measured are kept, "
           "marked partial"));
    label_->setText(runner_->headRun() ? tr("Queries and keys…") : tr("Measuring the corpus…"));
}

bool CorpusSource::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::LanguageChange) retranslate();
    return QObject::eventFilter(watched, event);
}

void CorpusSource::openDialog() {
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open a Corpus"), window_->dialogDirectory(),
                                     tr("Texts (*.txt *.jsonl);;All files (*)"));
    if (path.isEmpty()) return;
    window_->rememberDirectory(path);
    std::optional<models::CorpusFormat> format;
    if (looks_like_json_lines(path)) {
        QMessageBox ask(QMessageBox::Question, tr("Open a Corpus"),
                        tr("“%1” begins like JSON Lines. Read each line as a JSON record, or "
                           "as plain text?")
                            .arg(QFileInfo(path).fileName()),
                        QMessageBox::Cancel, window_);
        ask.setObjectName(QStringLiteral("corpusFormatQuestion"));
        QPushButton* jsonl = ask.addButton(tr("JSON Lines"), QMessageBox::AcceptRole);
        QPushButton* lines = ask.addButton(tr("One text per line"), QMessageBox::AcceptRole);
        ask.setDefaultButton(jsonl);
        ask.exec();
        if (ask.clickedButton() == jsonl)
            format = models::CorpusFormat::Jsonl;
        else if (ask.clickedButton() == lines)
            format = models::CorpusFormat::Lines;
        else
            return;
    }
    openCorpus(path, format);
}

CorpusRequest CorpusSource::request() const {
    CorpusRequest r;
    r.options.top_k = kTopExamples;
    r.options.context = kContext;
    r.budget = compute_->memoryBudget();
    // The head in focus has its queries and keys ready in the Queries & Keys view.
    if (doc_->view() == FigureView::Head)
        r.options.qk_heads = {{doc_->computeConfig().layer, doc_->viewHead()}};
    return r;
}

bool CorpusSource::openCorpus(const QString& path, std::optional<models::CorpusFormat> format) {
    CorpusRequest r = request();
    r.source = QFileInfo(path).absoluteFilePath();
    if (format) r.format = QLatin1String(models::corpus_format_name(*format));
    return startWhenReady(std::move(r));
}

bool CorpusSource::openExampleCorpus(const QString& path) {
    const bool started = openCorpus(path);
    example_run_ = started;
    return started;
}

bool CorpusSource::openHistory() {
    const QStringList texts = heldTexts();
    if (texts.size() < 2) {
        emit failed(tr("Cannot measure the corpus"),
                    tr("The text box has held %n text(s) in this session: a corpus needs at "
                       "least two. Type a few more, or open a file (File ▸ Open Corpus…).",
                       nullptr, int(texts.size())));
        return false;
    }
    CorpusRequest r = request();
    r.texts = texts;
    return startWhenReady(std::move(r));
}

bool CorpusSource::measureHead(int layer, int head) {
    const CorpusPtr corpus = doc_->corpus();
    if (!corpus || isRunning()) return false;
    CorpusRequest r = request();
    r.base = corpus;
    r.options.top_k = 0;
    r.options.qk_heads = {{layer, head}};
    r.source = corpus->source;
    r.format = corpus->format;
    if (corpus->hasMeasuredTexts()) {
        r.texts = QStringList(corpus->texts.begin(), corpus->texts.end());
    } else if (corpus->fromHistory() || !QFileInfo::exists(corpus->source)) {
        emit failed(tr("Cannot compute the queries and keys"),
                    tr("The session kept only the texts of the examples, and the corpus file "
                       "“%1” is gone: open it again (File ▸ Open Corpus…).")
                        .arg(corpus->source));
        return false;
    }
    r.count = corpus->result.texts;  // the texts the measures are of
    return startWhenReady(std::move(r));
}

ModelPtr CorpusSource::shownModel() const {
    const ComputeConfig& c = doc_->computeConfig();
    const SnapshotPtr s = compute_->latest();
    if (!c.usesModel() || c.usesMaps() || !s || !s->model ||
        QFileInfo(s->model->folder).absoluteFilePath() !=
            QFileInfo(c.model_folder).absoluteFilePath())
        return nullptr;
    return find_model(s->model->folder);
}

bool CorpusSource::startWhenReady(CorpusRequest r) {
    const ComputeConfig& c = doc_->computeConfig();
    example_run_ = false;
    if (!c.usesModel() || c.usesMaps()) {
        emit failed(tr("Cannot measure the corpus"),
                    tr("A corpus is measured on a trained model: choose one in the Source box, "
                       "or open one (File ▸ Open Model…)."));
        return false;
    }
    if (const ModelPtr m = shownModel()) {
        // A run under way is dropped by the new one: its end will not come.
        if (isRunning() && runner_->headRun()) emit headRunChanged(false);
        waiting_.reset();
        progress_->show();
        bar_->setRange(0, 0);  // busy while the texts are read and encoded
        const bool head_run = r.base != nullptr;
        runner_->start(m, std::move(r));
        retranslate();
        if (head_run) emit headRunChanged(true);
        return true;
    }
    waiting_ = std::move(r);
    waiting_folder_ = QFileInfo(c.model_folder).absoluteFilePath();
    return true;
}

void CorpusSource::followResult() {
    if (waiting_ && shownModel()) {
        CorpusRequest r = std::move(*waiting_);
        waiting_.reset();
        const bool example = example_run_;
        startWhenReady(std::move(r));
        example_run_ = example;
    }
    const SnapshotPtr s = compute_->latest();
    if (!focus_ || !s || !s->model || s->model->text_a != focus_->text) return;
    const Focus f = *focus_;
    focus_.reset();
    // The head in focus on the heatmaps (a layer the pass did not keep: its full map only).
    if (f.layer < s->model->num_layers) {
        doc_->setLayer(f.layer);
        if (f.head < doc_->viewableHeads()) doc_->setView(FigureView::Head, f.head);
        window_->views()->setCurrentTab(ViewTabs::GridTab);
    }
    doc_->setTokenFocus(int(f.query), f.key_only);
    if (f.key_only) return;
    if (map_) map_->close();  // one map at a time: the last point or example clicked
    map_ = window_->openFullMap(f.layer, f.head);
    if (map_) map_->showQuery(int(f.query), int(f.key));
}

bool CorpusSource::openText(qint64 text, int layer, int head, qint64 query, qint64 key,
                            bool key_only) {
    const CorpusPtr corpus = doc_->corpus();
    const ComputeConfig& c = doc_->computeConfig();
    if (!corpus || text < 0 || text >= std::int64_t(corpus->texts.size()) ||
        corpus->texts[std::size_t(text)].isNull())
        return false;
    if (!c.usesModel() || !corpus->isOf(c.model_folder)) {
        emit failed(tr("Cannot open the text"),
                    tr("The corpus was measured on %1: choose that model in the Source box to "
                       "open its texts.")
                        .arg(QFileInfo(corpus->model_folder).fileName()));
        return false;
    }
    focus_ = Focus{corpus->texts[std::size_t(text)], layer, head, query, key, key_only};
    doc_->setUseTokenList(false);
    doc_->setTextA(focus_->text);
    followResult();  // the text may be shown already
    return true;
}

FullMapWindow* CorpusSource::openedMap() const {
    return map_;
}

void CorpusSource::cancel() {
    waiting_.reset();
    runner_->cancel();
    cancel_->setEnabled(false);
}

void CorpusSource::showProgress(qint64 done, qint64 total) {
    bar_->setRange(0, int(std::min<qint64>(total, 1 << 30)));
    bar_->setValue(int(std::min<qint64>(done, 1 << 30)));
    bar_->setFormat(tr("%1 of %2 texts").arg(done).arg(total));
}

void CorpusSource::finish(const CorpusPtr& corpus) {
    endRun();
    // Measured on a model the window no longer shows (a new session, another source): the
    // result is the old document's.
    if (!corpus->isOf(doc_->computeConfig().model_folder)) return;
    doc_->setCorpus(corpus, !example_run_);
    const models::CorpusResult& r = corpus->result;
    window_->statusBar()->showMessage(
        r.partial ? tr("Corpus measured in part: %1 of %2 texts (stopped)")
                        .arg(r.texts)
                        .arg(corpus->texts_given)
                  : tr("Corpus measured: %1 texts, %2 tokens").arg(r.texts).arg(r.tokens),
        10000);
    emit measured(r.partial, runner_->headRun());
}

void CorpusSource::endRun() {
    if (runner_->headRun()) emit headRunChanged(false);
    progress_->hide();
    cancel_->setEnabled(true);
    bar_->setRange(0, 1);
    bar_->setValue(0);
}

QString CorpusSource::shippedCorpus(const QString& name) {
    const QString models = shipped_models_dir();
    const QString dir = models.isEmpty()
                            ? QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                              QStringLiteral("/../share/attnviz/corpora"))
                            : QDir::cleanPath(models + QStringLiteral("/../corpora"));
    const QString path = dir + QLatin1Char('/') + name;
    return QFileInfo::exists(path) ? path : QString();
}

}  // namespace attnviz::ui
