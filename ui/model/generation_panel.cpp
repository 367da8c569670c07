#include "ui/model/generation_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/compute/error_text.h"
#include "ui/compute/generation_runner.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/render/generated_tokens.h"
#include "ui/widgets/wrapped_label.h"

namespace attnviz::ui {

namespace {
/// The prompt's end shown before the continuation.
constexpr int kPromptChars = 160;

QString html(const QString& text) {
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

/// A piece of the shown text and the colour it is drawn in (empty: the label's own).
struct Segment {
    QString text;
    QString colour;
};

/// The segments as rich text in which a run of kBreakableRun or more characters without a
/// space (a random string, a line of Chinese) may break anywhere: a label wraps only at
/// spaces, so such a run would widen the whole column past its dock.
QString wrapping_html(const std::vector<Segment>& segments) {
    constexpr int kBreakableRun = 16;
    QString all;
    for (const Segment& s : segments)
        all += s.text;
    std::vector<bool> breakable(std::size_t(all.size()), false);
    for (qsizetype i = 0; i < all.size();) {
        qsizetype j = i;
        while (j < all.size() && !all[j].isSpace())
            ++j;
        if (j - i >= kBreakableRun)
            for (qsizetype k = i; k < j; ++k)
                breakable[std::size_t(k)] = !all[k].isHighSurrogate();
        i = j + 1;
    }
    QString rich;
    qsizetype at = 0;
    for (const Segment& s : segments) {
        QString text;
        for (const QChar c : s.text) {
            text += c;
            if (breakable[std::size_t(at++)]) text += QChar(0x200B);  // zero-width space
        }
        rich += s.colour.isEmpty()
                    ? html(text)
                    : QStringLiteral("<span style=\"color:%1;font-weight:600\">%2</span>")
                          .arg(s.colour, html(text));
    }
    return rich;
}
}  // namespace

GenerationPanel::GenerationPanel(AttentionDocument* document, QWidget* parent)
    : QGroupBox(parent), doc_(document), runner_(new GenerationRunner(this)) {
    setObjectName(QStringLiteral("generationPanel"));
    auto* column = new QVBoxLayout(this);
    column->setSpacing(6);
    createSettings(column);
    createTimeline(column);
    connectControls();
    connectRunner();
    connectDocument();
    setVisible(false);
    retranslate();
    syncSettings();
    syncTimeline();
}

/// The text written so far, the count and the mode, and the sampling settings.
void GenerationPanel::createSettings(QVBoxLayout* column) {
    text_ = new WrappedLabel(this);
    text_->setObjectName(QStringLiteral("generatedText"));
    text_->setTextFormat(Qt::RichText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(text_);

    auto* how = new QHBoxLayout;
    count_ = new QSpinBox(this);
    count_->setObjectName(QStringLiteral("generateCount"));
    count_->setRange(1, AttentionDocument::kMaxGenerated);
    how->addWidget(count_);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("generateMode"));
    mode_->addItems({QString(), QString()});
    how->addWidget(mode_, 1);
    column->addLayout(how);

    sampling_ = new QWidget(this);
    auto* form = new QFormLayout(sampling_);
    form->setContentsMargins(0, 0, 0, 0);
    temperature_ = new QDoubleSpinBox(sampling_);
    temperature_->setObjectName(QStringLiteral("generateTemperature"));
    temperature_->setRange(0.05, 5.0);
    temperature_->setSingleStep(0.1);
    temperature_->setDecimals(2);
    top_k_ = new QSpinBox(sampling_);
    top_k_->setObjectName(QStringLiteral("generateTopK"));
    top_k_->setRange(0, 100000);
    top_p_ = new QDoubleSpinBox(sampling_);
    top_p_->setObjectName(QStringLiteral("generateTopP"));
    top_p_->setRange(0.01, 1.0);
    top_p_->setSingleStep(0.05);
    top_p_->setDecimals(2);
    seed_ = new QSpinBox(sampling_);
    seed_->setObjectName(QStringLiteral("generateSeed"));
    seed_->setRange(0, AttentionDocument::kMaxSeed);
    temperature_label_ = new QLabel(sampling_);
    top_k_label_ = new QLabel(sampling_);
    top_p_label_ = new QLabel(sampling_);
    seed_label_ = new QLabel(sampling_);
    form->addRow(temperature_label_, temperature_);
    form->addRow(top_k_label_, top_k_);
    form->addRow(top_p_label_, top_p_);
    form->addRow(seed_label_, seed_);
    column->addWidget(sampling_);
}

/// Continue and Stop, Play and the timeline's slider, Keep and Discard, the status; the timer
/// that plays.
void GenerationPanel::createTimeline(QVBoxLayout* column) {
    auto* run = new QHBoxLayout;
    continue_ = new QPushButton(this);
    continue_->setObjectName(QStringLiteral("continueButton"));
    stop_ = new QPushButton(this);
    stop_->setObjectName(QStringLiteral("stopButton"));
    run->addWidget(continue_, 1);
    run->addWidget(stop_, 1);
    column->addLayout(run);

    auto* scrub = new QHBoxLayout;
    play_ = new QToolButton(this);
    play_->setObjectName(QStringLiteral("playTimelineButton"));
    play_->setCheckable(true);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("timelineSlider"));
    slider_->setPageStep(1);
    step_ = new QLabel(this);
    step_->setObjectName(QStringLiteral("timelineStep"));
    scrub->addWidget(play_);
    scrub->addWidget(slider_, 1);
    scrub->addWidget(step_);
    column->addLayout(scrub);

    auto* outcome = new QHBoxLayout;
    keep_ = new QPushButton(this);
    keep_->setObjectName(QStringLiteral("keepGeneratedButton"));
    discard_ = new QPushButton(this);
    discard_->setObjectName(QStringLiteral("discardGeneratedButton"));
    outcome->addWidget(keep_, 1);
    outcome->addWidget(discard_, 1);
    column->addLayout(outcome);

    status_ = new WrappedLabel(this);
    status_->setObjectName(QStringLiteral("generationStatus"));
    column->addWidget(status_);

    player_ = new QTimer(this);
    player_->setInterval(kPlayStepMs);
}

/// The buttons, the slider and the settings.
void GenerationPanel::connectControls() {
    connect(player_, &QTimer::timeout, this, &GenerationPanel::playStep);

    connect(continue_, &QPushButton::clicked, this, &GenerationPanel::continueWriting);
    connect(stop_, &QPushButton::clicked, this, &GenerationPanel::stopWriting);
    connect(keep_, &QPushButton::clicked, this, &GenerationPanel::keep);
    connect(discard_, &QPushButton::clicked, this, &GenerationPanel::discard);
    connect(play_, &QToolButton::clicked, this, &GenerationPanel::togglePlay);
    connect(slider_, &QSlider::valueChanged, this, &GenerationPanel::scrubTo);
    connect(count_, &QSpinBox::valueChanged, this, &GenerationPanel::writeSettings);
    connect(mode_, &QComboBox::currentIndexChanged, this, &GenerationPanel::chooseMode);
    for (QDoubleSpinBox* box : {temperature_, top_p_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &GenerationPanel::writeSettings);
    for (QSpinBox* box : {top_k_, seed_})
        connect(box, &QSpinBox::valueChanged, this, &GenerationPanel::writeSettings);
}

/// The writer's tokens, its end and its failure.
void GenerationPanel::connectRunner() {
    connect(runner_, &GenerationRunner::tokenGenerated, this, &GenerationPanel::appendToken);
    connect(runner_, &GenerationRunner::finished, this, &GenerationPanel::finishWriting);
    connect(runner_, &GenerationRunner::failed, this, &GenerationPanel::failWriting);
}

/// The document's continuation, settings and the edits that end the writing.
void GenerationPanel::connectDocument() {
    // (Undo and an opened session re-emit every property, the text's among them.)
    connect(doc_, &AttentionDocument::generatedChanged, this, &GenerationPanel::syncGenerated);
    connect(doc_, &AttentionDocument::modelFolderChanged, this, &GenerationPanel::stopOnEdit);
    connect(doc_, &AttentionDocument::pairModeChanged, this, &GenerationPanel::stopOnEdit);
    connect(doc_, &AttentionDocument::knockedOutChanged, this, &GenerationPanel::stopOnEdit);
    connect(doc_, &AttentionDocument::generationSettingsChanged, this,
            &GenerationPanel::syncSettings);
    connect(doc_, &AttentionDocument::textAChanged, this, &GenerationPanel::followText);
}

void GenerationPanel::discard() {
    player_->stop();
    doc_->discardGenerated();
    setStatus(QString());
}

void GenerationPanel::scrubTo(int step) {
    doc_->setTimeline(step >= int(doc_->generated().size()) ? -1 : step);
}

void GenerationPanel::chooseMode(int index) {
    // Sampling starts from the usual settings rather than from greedy's temperature 0.
    if (index == 1 && temperature_->value() <= temperature_->minimum()) {
        const QSignalBlocker block(temperature_);
        temperature_->setValue(0.8);
    }
    writeSettings();
}

void GenerationPanel::appendToken(qint64 id) {
    ++written_;
    // The document's flush, posted by appendGenerated(), asks the worker for the token's maps;
    // the panel's text and status follow it, posted after it.  Shown first, their layout pass
    // (the whole written text laid out again) came before the worker was asked, on the way to
    // the token's maps: ui_bench, Qwen2.5-0.5B's shape, the flush 1.4-1.7 ms after the token's
    // rows arrived against 0.05-0.1 now.
    appending_ = true;
    doc_->appendGenerated(id);
    appending_ = false;
    QTimer::singleShot(0, this, [this] {
        syncGenerated();
        if (runner_->isRunning())
            setStatus(tr("Writing… %1 of %2").arg(written_).arg(doc_->generationSettings().count));
    });
}

void GenerationPanel::finishWriting(bool eos, bool full) {
    setStatus(eos    ? tr("The model ended its text (end-of-text token).")
              : full ? tr("The model's positions are full.")
                     : tr("Wrote %n token(s).", nullptr, written_));
    syncButtons();
}

void GenerationPanel::failWriting(const QString& message) {
    setStatus(message, true);
    syncButtons();
}

// An edit while writing (undo, another text, model or pair mode) ends the writing: its tokens
// continue a text that is no longer there.
void GenerationPanel::stopOnEdit() {
    if (!runner_->isRunning()) return;
    runner_->stop();
    setStatus(tr("Stopped: the text or the model changed."));
    syncButtons();
}

void GenerationPanel::followText() {
    stopOnEdit();
    syncText();
}

void GenerationPanel::syncGenerated() {
    if (appending_) return;  // appendToken() shows it after the document's flush
    syncTimeline();
    syncText();
    syncButtons();
}

GenerationPanel::~GenerationPanel() = default;

bool GenerationPanel::isWriting() const {
    return runner_->isRunning();
}

bool GenerationPanel::isPlaying() const {
    return player_->isActive();
}

void GenerationPanel::setSnapshot(const SnapshotPtr& snapshot) {
    snapshot_ = snapshot;
    const ComputeConfig& c = doc_->computeConfig();
    const bool causal = snapshot && snapshot->model && snapshot->model->causal;
    setVisible(causal && c.usesModel() && !c.usesMaps() && c.pair_mode == PairMode::Single);
    syncText();
    syncButtons();
}

void GenerationPanel::continueWriting() {
    player_->stop();
    // Continuing from an earlier step drops the steps after it.
    const ComputeConfig& c = doc_->computeConfig();
    if (c.timeline >= 0) doc_->setGenerated(c.shownGenerated());
    written_ = 0;
    setStatus(tr("Writing…"));
    runner_->start(doc_->computeConfig(), doc_->generationSettings());
    syncButtons();
}

void GenerationPanel::stopWriting() {
    if (!runner_->isRunning()) return;
    runner_->stop();
    setStatus(tr("Stopped after %n token(s).", nullptr, written_));
    syncButtons();
}

void GenerationPanel::keep() {
    player_->stop();
    const ComputeConfig& c = doc_->computeConfig();
    try {
        doc_->keepGenerated(model_text(*open_model(c.model_folder), c));
        setStatus(tr("The text now ends with the model's tokens."));
    } catch (const std::exception& e) {
        setStatus(error_text(e), true);
    }
}

void GenerationPanel::togglePlay() {
    if (player_->isActive()) {
        player_->stop();
        syncButtons();
        return;
    }
    startPlaying();
}

void GenerationPanel::setPlayStep(int ms) {
    player_->setInterval(ms);
}

void GenerationPanel::startPlaying() {
    if (player_->isActive() || runner_->isRunning()) return;
    const int n = int(doc_->generated().size());
    if (n == 0) return;
    // From the prompt alone, unless scrubbed back to a step.
    if (doc_->timeline() < 0) doc_->setTimeline(0);
    player_->start();
    syncButtons();
}

void GenerationPanel::playStep() {
    const int n = int(doc_->generated().size());
    const int at = doc_->timeline();
    if (at < 0 || at + 1 >= n) {
        player_->stop();
        doc_->setTimeline(-1);
    } else {
        doc_->setTimeline(at + 1);
    }
    syncButtons();
}

void GenerationPanel::syncSettings() {
    const GenerationSettings& g = doc_->generationSettings();
    const QSignalBlocker b1(count_), b2(mode_), b3(temperature_), b4(top_k_), b5(top_p_), b6(seed_);
    count_->setValue(g.count);
    mode_->setCurrentIndex(g.temperature > 0.0 ? 1 : 0);
    if (g.temperature > 0.0) temperature_->setValue(g.temperature);
    top_k_->setValue(g.top_k);
    top_p_->setValue(g.top_p);
    seed_->setValue(g.seed);
    sampling_->setVisible(g.temperature > 0.0);
}

void GenerationPanel::writeSettings() {
    GenerationSettings g;
    g.count = count_->value();
    g.temperature = mode_->currentIndex() == 1 ? temperature_->value() : 0.0;
    g.top_k = top_k_->value();
    g.top_p = top_p_->value();
    g.seed = seed_->value();
    sampling_->setVisible(mode_->currentIndex() == 1);
    doc_->setGenerationSettings(g);
}

void GenerationPanel::syncTimeline() {
    const int n = int(doc_->generated().size());
    const int at = doc_->timeline() < 0 ? n : doc_->timeline();
    const QSignalBlocker block(slider_);
    slider_->setRange(0, n);
    slider_->setValue(at);
    step_->setText(tr("%1 / %2").arg(at).arg(n));
    slider_->setToolTip(tr("Step %1 of %2: every view shows the text as the model had it "
                           "then, the newest token's row being the attention it wrote with")
                            .arg(at)
                            .arg(n));
}

void GenerationPanel::syncText() {
    const ComputeConfig& c = doc_->computeConfig();
    QString prompt = c.text_a;
    if (prompt.size() > kPromptChars) prompt = QStringLiteral("…") + prompt.right(kPromptChars);
    std::vector<Segment> segments{{prompt, QString()}};
    const ModelPtr m = c.usesModel() && !c.usesMaps() ? find_model(c.model_folder) : nullptr;
    const int shown = int(c.shownGenerated().size());
    if (m && !c.generated.empty()) {
        // Each token as its own text: the ones the views show in the continuation's colour,
        // those after the timeline's step greyed.
        const QString on = generated_token_color().name(), off = QStringLiteral("#a0a0a0");
        for (std::size_t k = 0; k < c.generated.size(); ++k)
            segments.push_back(
                {token_label(m->tokenizer, c.generated[k]), int(k) < shown ? on : off});
    }
    text_->setText(wrapping_html(segments));
}

void GenerationPanel::syncButtons() {
    const bool writing = runner_->isRunning();
    const bool any = !doc_->generated().empty();
    continue_->setEnabled(!writing);
    stop_->setEnabled(writing);
    slider_->setEnabled(!writing && any);
    play_->setEnabled(!writing && any);
    {
        const QSignalBlocker block(play_);
        play_->setChecked(player_->isActive());
    }
    play_->setText(player_->isActive() ? tr("Pause") : tr("Play"));
    keep_->setEnabled(!writing && any);
    discard_->setEnabled(!writing && any);
}

void GenerationPanel::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #b00020;")
                                 : QStringLiteral("color: #555;"));
}

void GenerationPanel::retranslate() {
    setTitle(tr("Write with the model"));
    count_->setSuffix(tr(" tokens"));
    count_->setToolTip(tr("How many tokens Continue writes"));
    mode_->setItemText(0, tr("Greedy (most likely)"));
    mode_->setItemText(1, tr("Sampled"));
    temperature_label_->setText(tr("Temperature"));
    top_k_label_->setText(tr("Top-k"));
    top_k_->setSpecialValueText(tr("all"));
    top_p_label_->setText(tr("Top-p"));
    seed_label_->setText(tr("Seed"));
    continue_->setText(tr("Continue"));
    continue_->setToolTip(
        tr("Append the model's own next tokens to the text, one by one (with the heads "
           "knocked out, the ablated model writes)"));
    stop_->setText(tr("Stop"));
    keep_->setText(tr("Keep"));
    keep_->setToolTip(tr("Make the text shown, with the model's tokens, the sentence"));
    discard_->setText(tr("Discard"));
    discard_->setToolTip(tr("Drop the model's tokens: back to the sentence as typed"));
    syncButtons();
    syncTimeline();
}

void GenerationPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QGroupBox::changeEvent(event);
}

}  // namespace attnviz::ui
