#include "ui/model/patch_view.h"

#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QStringListModel>
#include <QVBoxLayout>

#include "engine/errors.h"
#include "engine/models/model_folder.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/compute/patch_runner.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
/// The tokens as chips, those that differ from the other text's at the same place marked.
QString chips(const std::vector<QString>& tokens, const std::vector<QString>& other) {
    QString html;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool differs = i >= other.size() || other[i] != tokens[i];
        html += QStringLiteral("<span style=\"background:%1;\">&nbsp;%2&nbsp;</span> ")
                    .arg(differs ? QStringLiteral("#f7c9a8") : QStringLiteral("#e4e4e4"),
                         visible_token(tokens[i]).toHtmlEscaped());
    }
    return html;
}

std::vector<QString> pieces(const text::Encoding& e) {
    std::vector<QString> out;
    for (const std::string& t : e.tokens)
        out.push_back(QString::fromStdString(t));
    return out;
}

/// The token `typed` names in `m`'s vocabulary, or nullopt.
std::optional<std::int64_t> token_id(const models::OpenedModel& m, const QString& typed) {
    try {
        return models::single_token_id(m.tokenizer, typed.toStdString(), "token");
    } catch (const std::exception&) {
        return std::nullopt;
    }
}
}  // namespace

PatchView::PatchView(QWidget* parent) : QWidget(parent), runner_(new PatchRunner(this)) {
    setObjectName(QStringLiteral("patchView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 6, 8, 4);
    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("patchPlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    v->addWidget(placeholder_, 1);
    v->addWidget(createControls());
    auto figure = std::make_unique<PatchFigure>();
    figure_ = figure.get();
    map_ = new FigureCanvas(std::move(figure), this);
    map_->setObjectName(QStringLiteral("patchMap"));
    v->addWidget(map_, 1);
    controls_->hide();
    map_->hide();
    connectControls();
    connectRunner();
    retranslate();
    setModel(nullptr);
}

/// The two texts with their tokens, the target and distractor, the actions and the message.
QWidget* PatchView::createControls() {
    controls_ = new QWidget(this);
    auto* grid = new QGridLayout(controls_);
    grid->setContentsMargins(0, 0, 0, 0);
    createInputs();
    grid->addWidget(clean_label_, 0, 0);
    grid->addWidget(clean_, 0, 1);
    grid->addWidget(clean_tokens_, 1, 1);
    grid->addWidget(corrupt_label_, 2, 0);
    grid->addWidget(corrupt_, 2, 1);
    grid->addWidget(corrupt_tokens_, 3, 1);
    auto* tokens = new QHBoxLayout;
    tokens->addWidget(target_label_);
    tokens->addWidget(target_, 1);
    tokens->addWidget(target_id_);
    tokens->addSpacing(16);
    tokens->addWidget(distractor_label_);
    tokens->addWidget(distractor_, 1);
    tokens->addWidget(distractor_id_);
    grid->addLayout(tokens, 4, 0, 1, 2);
    grid->addLayout(createActions(), 5, 0, 1, 2);
    grid->addWidget(message_, 6, 0, 1, 2);
    grid->setColumnStretch(1, 1);
    return controls_;
}

/// The labels, boxes, token lists and message of createControls(), not yet laid out.
void PatchView::createInputs() {
    clean_label_ = new QLabel(controls_);
    corrupt_label_ = new QLabel(controls_);
    target_label_ = new QLabel(controls_);
    distractor_label_ = new QLabel(controls_);
    clean_ = new QLineEdit(controls_);
    clean_->setObjectName(QStringLiteral("patchClean"));
    corrupt_ = new QLineEdit(controls_);
    corrupt_->setObjectName(QStringLiteral("patchCorrupt"));
    target_ = new QLineEdit(controls_);
    target_->setObjectName(QStringLiteral("patchTarget"));
    distractor_ = new QLineEdit(controls_);
    distractor_->setObjectName(QStringLiteral("patchDistractor"));
    target_id_ = new QLabel(controls_);
    distractor_id_ = new QLabel(controls_);
    clean_tokens_ = new QLabel(controls_);
    clean_tokens_->setObjectName(QStringLiteral("patchCleanTokens"));
    corrupt_tokens_ = new QLabel(controls_);
    corrupt_tokens_->setObjectName(QStringLiteral("patchCorruptTokens"));
    for (QLabel* l : {clean_tokens_, corrupt_tokens_}) {
        l->setTextFormat(Qt::RichText);
        l->setWordWrap(true);
    }
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("patchMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b2182b;"));
}

/// The method, Run, Cancel, the sweep's progress and Export, in a row.
QHBoxLayout* PatchView::createActions() {
    auto* actions = new QHBoxLayout;
    method_label_ = new QLabel(controls_);
    exact_ = new QRadioButton(controls_);
    exact_->setObjectName(QStringLiteral("patchExact"));
    exact_->setChecked(true);
    attribution_ = new QRadioButton(controls_);
    attribution_->setObjectName(QStringLiteral("patchAttribution"));
    actions->addWidget(method_label_);
    actions->addWidget(exact_);
    actions->addWidget(attribution_);
    actions->addSpacing(12);
    run_ = new QPushButton(controls_);
    run_->setObjectName(QStringLiteral("patchRun"));
    cancel_ = new QPushButton(controls_);
    cancel_->setObjectName(QStringLiteral("patchCancel"));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(controls_);
    progress_->setObjectName(QStringLiteral("patchProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("patchExport"));
    export_->setEnabled(false);
    actions->addWidget(run_);
    actions->addWidget(cancel_);
    actions->addWidget(progress_, 1);
    actions->addWidget(export_);
    return actions;
}

/// The boxes check and run, the buttons act, and the map hovers and picks a head.
void PatchView::connectControls() {
    for (QLineEdit* e : {clean_, corrupt_, target_, distractor_})
        connect(e, &QLineEdit::textChanged, this, &PatchView::check);
    for (QLineEdit* e : {clean_, corrupt_, target_, distractor_})
        connect(e, &QLineEdit::returnPressed, this, &PatchView::run);
    connect(run_, &QPushButton::clicked, this, &PatchView::run);
    connect(cancel_, &QPushButton::clicked, this, &PatchView::cancel);
    connect(export_, &QPushButton::clicked, this, &PatchView::exportDialog);
    connect(map_, &FigureCanvas::mouseMoved, this, &PatchView::hoverAt);
    connect(map_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1, -1)); });
    connect(map_, &FigureCanvas::clicked, this, &PatchView::showHeadAt);
}

/// The sweep's progress, end and failure, and a head's maps, from the runner's thread.
void PatchView::connectRunner() {
    connect(runner_, &PatchRunner::progressed, this,
            [this](const models::PatchResult& r, qint64 done, qint64 total) {
                setMaps(r, done, total, false);
            });
    connect(runner_, &PatchRunner::estimated, this, &PatchView::showEstimate);
    connect(runner_, &PatchRunner::finished, this, &PatchView::finishSweep);
    connect(runner_, &PatchRunner::failed, this, &PatchView::failSweep);
    connect(runner_, &PatchRunner::headMapsReady, this, &PatchView::showHeadMaps);
    connect(runner_, &PatchRunner::headMapsFailed, this,
            [this](const QString& message) { emit failed(tr("Cannot show the head"), message); });
}

void PatchView::showHeadAt(const QPointF& pos) {
    const QPoint at = figure_->headAt(pos);
    if (at.x() >= 0) showHead(at.y(), at.x());
}

void PatchView::finishSweep(const models::PatchResult& r, qint64 done, qint64 total, bool stopped) {
    // Cancelled before the first pass ended: nothing was run, the map stays.
    if (!r.fraction.empty()) {
        setMaps(r, done, total, stopped);
    } else {  // out of the estimate's busy state
        progress_->setRange(0, std::max(1, maps_ ? maps_->total : 1));
        progress_->setValue(0);
    }
    if (maps_ && stopped) {
        maps_->stopped = true;
        showMaps();
    }
    run_->setEnabled(request_.has_value());
    cancel_->setEnabled(false);
    emit sweepFinished(stopped);
}

void PatchView::failSweep(const QString& message) {
    progress_->setRange(0, std::max(1, maps_ ? maps_->total : 1));
    progress_->setValue(maps_ ? maps_->done : 0);
    run_->setEnabled(request_.has_value());
    cancel_->setEnabled(false);
    emit failed(tr("Patching failed"), message);
}

void PatchView::showEstimate(const models::AttributionPatching& estimate) {
    if (!maps_) return;
    maps_->setEstimate(estimate);
    showMaps();
}

void PatchView::showHeadMaps(const PatchHeadMaps& h) {
    if (!maps_) return;
    maps_->head = h;
    showMaps();
    emit headShown(h.layer, h.head);
}

PatchView::~PatchView() = default;

void PatchView::retranslate() {
    clean_label_->setText(tr("Clean:"));
    corrupt_label_->setText(tr("Corrupted:"));
    target_label_->setText(tr("Target:"));
    distractor_label_->setText(tr("Distractor:"));
    clean_->setPlaceholderText(tr("the text where the model predicts the target"));
    corrupt_->setPlaceholderText(tr("the same text with a change, as many tokens"));
    target_->setPlaceholderText(tr("a token of the vocabulary"));
    distractor_->setPlaceholderText(tr("a token of the vocabulary"));
    target_->setToolTip(
        tr("The token the clean text predicts: a text that is one token, or a vocabulary entry"));
    distractor_->setToolTip(tr("The token it competes with"));
    method_label_->setText(tr("Method:"));
    exact_->setText(tr("Exact"));
    exact_->setToolTip(
        tr("Patch every head, one at a time, from the clean run into the corrupted run: the "
           "attribution estimate first, each head then replaced by what its run measures"));
    attribution_->setText(tr("Attribution (fast)"));
    attribution_->setToolTip(
        tr("Estimate every head at once from two forward passes and a backward pass "
           "(attribution patching): a first-order estimate, for large models"));
    run_->setText(tr("Run"));
    run_->setToolTip(
        tr("Patch the heads from the clean run into the corrupted run, by the "
           "method chosen"));
    cancel_->setText(tr("Cancel"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF) or the fractions (NPY, CSV)"));
    setModel(model_);  // the placeholder's sentence
    check();
    showMaps();  // the figure's title and notes, in the new language
}

void PatchView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

QCompleter* PatchView::targetCompleter() const {
    return target_->completer();
}

void PatchView::setModel(ModelPtr model) {
    const bool same = model == model_;
    if (!same) {
        runner_->cancel();
        model_ = std::move(model);
        maps_.reset();
        showMaps();
        export_->setEnabled(false);
        progress_->setRange(0, 1);
        progress_->setValue(0);
        // The vocabulary, in id order, for both boxes' completion.
        QStringList vocabulary;
        if (model_) {
            const std::int64_t V = model_->tokenizer.vocab_size();
            for (std::int64_t id = 0; id < V; ++id) {
                const std::string t = model_->tokenizer.id_to_token(id);
                if (!t.empty()) vocabulary << QString::fromStdString(t);
            }
        }
        // An exact sweep of a large model takes hundreds of passes: it starts with the estimate.
        if (model_) setMethod(default_patch_method(model_->model->info().parameter_count));
        for (QLineEdit* e : {target_, distractor_}) {
            auto* c = new QCompleter(e);
            c->setModel(new QStringListModel(vocabulary, c));  // goes with the completer
            c->setFilterMode(Qt::MatchContains);
            c->setCaseSensitivity(Qt::CaseSensitive);
            c->setMaxVisibleItems(15);
            if (QCompleter* old = e->completer()) old->deleteLater();
            e->setCompleter(c);
        }
    }
    const bool causal = model_ && model_->model->lm_head() == models::LmHeadKind::Causal;
    if (!model_) {
        const QString shipped = shipped_model_names();
        placeholder_->setText(
            shipped.isEmpty()
                ? tr("Patching needs a trained causal language model: open one (File ▸ Open "
                     "Model…).")
                : tr("Patching needs a trained causal language model: choose one in the Source "
                     "box (built in: %1), or open one (File ▸ Open Model…).")
                      .arg(shipped));
    } else if (!causal) {
        placeholder_->setText(
            tr("Patching reads the next-token logits of a causal language model; %1 has no such "
               "head.")
                .arg(model_display_name(*model_)));
    }
    placeholder_->setVisible(!causal);
    controls_->setVisible(causal);
    map_->setVisible(causal);
    if (same) return;
    check();
    runIfWaiting();
}

void PatchView::setInputs(const QString& clean, const QString& corrupt, const QString& target,
                          const QString& distractor, const QString& run_on) {
    clean_->setText(clean);
    corrupt_->setText(corrupt);
    target_->setText(target);
    distractor_->setText(distractor);
    run_on_ = run_on.isEmpty() ? QString() : QFileInfo(run_on).canonicalFilePath();
    runIfWaiting();
}

void PatchView::runIfWaiting() {
    if (run_on_.isEmpty() || !model_ || !request_ ||
        QFileInfo(QString::fromStdString(model_->model->info().folder)).canonicalFilePath() !=
            run_on_)
        return;
    run_on_.clear();
    run();
}

void PatchView::check() {
    request_.reset();
    clean_pieces_.clear();
    corrupt_pieces_.clear();
    const bool running = isRunning();
    run_->setEnabled(false);
    if (!model_ || model_->model->lm_head() != models::LmHeadKind::Causal) return;
    QStringList problems;
    models::PatchRequest r;
    bool ok = true;
    const auto encode = [&](QLineEdit* box, std::vector<QString>* out, models::ModelInput* input) {
        if (box->text().isEmpty()) return false;
        try {
            const models::EncodedText e = models::encode_text(*model_, box->text().toStdString());
            *out = pieces(e.encoding);
            *input = e.input;
            return true;
        } catch (const std::exception& e) {
            problems << error_text(e);
            return false;
        }
    };
    ok = encode(clean_, &clean_pieces_, &r.clean) & ok;
    ok = encode(corrupt_, &corrupt_pieces_, &r.corrupt) & ok;
    clean_tokens_->setText(chips(clean_pieces_, corrupt_pieces_));
    corrupt_tokens_->setText(chips(corrupt_pieces_, clean_pieces_));
    if (!clean_pieces_.empty() && !corrupt_pieces_.empty() &&
        clean_pieces_.size() != corrupt_pieces_.size()) {
        problems << tr("The clean text is %1 tokens and the corrupted text %2: patching needs "
                       "texts of as many tokens (the tokens that differ are marked).")
                        .arg(clean_pieces_.size())
                        .arg(corrupt_pieces_.size());
        ok = false;
    }
    const auto resolve = [&](QLineEdit* box, QLabel* id_label, std::int64_t* id) {
        if (box->text().isEmpty()) {
            id_label->clear();
            return false;
        }
        const std::optional<std::int64_t> found = token_id(*model_, box->text());
        if (!found) {
            id_label->setText(tr("not one token"));
            problems << tr("“%1” is not one token of this vocabulary: pick one from the list.")
                            .arg(box->text());
            return false;
        }
        *id = *found;
        id_label->setText(tr("id %1").arg(*found));
        return true;
    };
    ok = resolve(target_, target_id_, &r.target) & ok;
    ok = resolve(distractor_, distractor_id_, &r.distractor) & ok;
    message_->setText(problems.join(QLatin1Char(' ')));
    message_->setVisible(!problems.isEmpty());
    if (!ok) return;
    request_ = r;
    run_->setEnabled(!running);
}

bool PatchView::isRunning() const {
    return runner_->isRunning();
}

PatchMethod PatchView::method() const {
    return attribution_->isChecked() ? PatchMethod::Attribution : PatchMethod::Exact;
}

void PatchView::setMethod(PatchMethod method) {
    (method == PatchMethod::Attribution ? attribution_ : exact_)->setChecked(true);
}

bool PatchView::run() {
    if (!request_ || !model_ || isRunning()) return false;
    PatchMaps m = make_patch_maps(*model_, *request_, clean_->text(), corrupt_->text());
    m.method = method();
    maps_ = std::move(m);
    showMaps();
    // The estimate's passes report no heads: the bar is busy until it ends.
    progress_->setRange(0, method() == PatchMethod::Attribution ? 0 : maps_->total);
    progress_->setValue(0);
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    export_->setEnabled(false);
    runner_->start(model_, *request_, method());
    return true;
}

void PatchView::cancel() {
    runner_->cancel();
    cancel_->setEnabled(false);
}

void PatchView::setMaps(const models::PatchResult& result, qint64 done, qint64 total,
                        bool stopped) {
    if (!maps_) return;
    const PatchHeadMaps head = maps_->head;
    maps_->result = result;
    maps_->done = int(done);
    maps_->total = int(total);
    maps_->stopped = stopped;
    maps_->head = head;
    progress_->setRange(0, int(total));
    progress_->setValue(int(done));
    export_->setEnabled(true);
    showMaps();
}

void PatchView::showMaps() {
    figure_->setMaps(maps_ ? &*maps_ : nullptr);
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    map_->relayout();
}

void PatchView::hoverAt(const QPointF& pos) {
    const QPoint at = figure_->headAt(pos);
    const QString text = figure_->describeAt(pos);  // a dot says more than its cell
    if (at == hover_ && text == hover_text_) return;
    hover_ = at;
    hover_text_ = text;
    figure_->setHover(at.y(), at.x());
    map_->setToolTip(text);
    emit hovered(text);
    map_->update();
}

QPoint PatchView::cellCentre(int layer, int head) const {
    const QRectF r = figure_->cellRect(layer, head);
    return r.isValid() ? r.center().toPoint() : QPoint();
}

void PatchView::showHead(int layer, int head) {
    if (!maps_ || !model_ || layer < 0 || head < 0) return;
    const models::PatchRequest& r = runner_->request();
    runner_->startHeadMaps(model_, r.clean, r.corrupt, layer, head);
}

namespace {
/// The figure of `maps` for `path` (its format from the suffix), as exports draw it.
RenderedFigure render_patch_figure(const PatchMaps& maps, const QString& path) {
    PatchFigure figure;
    figure.setMaps(&maps);
    FigureOptions options;
    options.font_px = 14;
    figure.setOptions(options);
    return render_painted_figure(figure, ExportSize{}, path);
}
}  // namespace

bool PatchView::exportTo(const QString& path) {
    try {
        if (!maps_)
            throw UsageError(tr("Run the sweep first: there is nothing to export.").toStdString());
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (suffix == QLatin1String("npy"))
            write_atomically(path, patch_npy(*maps_));
        else if (suffix == QLatin1String("csv"))
            write_atomically(path, patch_csv(*maps_));
        else
            write_atomically(path, encode_figure(render_patch_figure(*maps_, path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the patching map"), error_text(e));
        return false;
    }
}

void PatchView::copyFigure() {
    if (!maps_) {
        emit failed(tr("Cannot copy the figure"),
                    tr("Run the sweep first: there is nothing to copy."));
        return;
    }
    QApplication::clipboard()->setImage(
        render_patch_figure(*maps_, QStringLiteral("patching.png")).image);
}

void PatchView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the patching map"), QStringLiteral("patching.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;NumPy array (*.npy);;"
           "CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
