#include "ui/classroom/whole_model_view.h"

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "engine/models/token_trace.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/classroom/model_walk_figure.h"
#include "ui/compute/model_trace.h"
#include "ui/document/attention_document.h"
#include "ui/widgets/wrapping_row_layout.h"

namespace attnviz::ui {

namespace {
constexpr int kTemperatureSteps = 100;      ///< the slider's units per 1.0
constexpr int kMaxTemperatureSlider = 200;  ///< 2.0: hotter than that is noise
}  // namespace

WholeModelView::WholeModelView(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("wholeModelView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);

    auto* bar = new WrappingRowLayout;  // presenting, one row is wider than a projector
    token_label_ = new QLabel(this);
    token_combo_ = new QComboBox(this);
    token_combo_->setObjectName(QStringLiteral("walkTokenCombo"));
    token_combo_->setMaximumWidth(260);
    token_combo_->setMinimumContentsLength(8);
    token_combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    token_label_->setBuddy(token_combo_);
    fold_ = new QToolButton(this);
    fold_->setObjectName(QStringLiteral("walkFoldAll"));
    unfold_ = new QToolButton(this);
    unfold_->setObjectName(QStringLiteral("walkUnfoldAll"));
    bar->addWidget(token_label_);
    bar->addWidget(token_combo_);
    bar->addSpacing(12);
    bar->addWidget(fold_);
    bar->addWidget(unfold_);
    bar->addStretch(1);
    layout->addLayout(bar);

    // Two short rows rather than one long one: the steps tab shares the window with the docks.
    auto* sampling = new WrappingRowLayout;
    temperature_label_ = new QLabel(this);
    temperature_ = new QSlider(Qt::Horizontal, this);
    temperature_->setObjectName(QStringLiteral("walkTemperature"));
    temperature_->setRange(0, kMaxTemperatureSlider);
    temperature_->setMinimumWidth(80);
    temperature_value_ = new QLabel(this);
    top_k_label_ = new QLabel(this);
    top_k_ = new QSpinBox(this);
    top_k_->setObjectName(QStringLiteral("walkTopK"));
    top_k_->setRange(0, AttentionDocument::kMaxTopK);
    top_p_label_ = new QLabel(this);
    top_p_ = new QSlider(Qt::Horizontal, this);
    top_p_->setObjectName(QStringLiteral("walkTopP"));
    top_p_->setRange(1, 100);
    top_p_->setMinimumWidth(60);
    top_p_value_ = new QLabel(this);
    seed_label_ = new QLabel(this);
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("walkSeed"));
    seed_->setRange(0, 1'000'000);
    seed_->setWrapping(true);  // each draw steps on; past the last seed comes 0
    draw_ = new QPushButton(this);
    draw_->setObjectName(QStringLiteral("walkDraw"));
    append_ = new QPushButton(this);
    append_->setObjectName(QStringLiteral("walkAppend"));
    temperature_label_->setBuddy(temperature_);
    top_k_label_->setBuddy(top_k_);
    top_p_label_->setBuddy(top_p_);
    seed_label_->setBuddy(seed_);
    sampling->addWidget(temperature_label_);
    sampling->addWidget(temperature_, 2);
    sampling->addWidget(temperature_value_);
    sampling->addSpacing(8);
    sampling->addWidget(top_k_label_);
    sampling->addWidget(top_k_);
    sampling->addSpacing(8);
    sampling->addWidget(top_p_label_);
    sampling->addWidget(top_p_, 1);
    sampling->addWidget(top_p_value_);
    layout->addLayout(sampling);
    bar->addWidget(seed_label_);
    bar->addWidget(seed_);
    bar->addWidget(draw_);
    bar->addWidget(append_);

    canvas_ = new FigureCanvas(std::make_unique<ModelWalkFigure>());
    canvas_->setObjectName(QStringLiteral("walkCanvas"));
    canvas_->setMinimumSize(200, 120);
    scroll_ = new QScrollArea(this);
    scroll_->setObjectName(QStringLiteral("walkScroll"));
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(false);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->viewport()->installEventFilter(this);
    layout->addWidget(scroll_, 1);
    setFocusProxy(scroll_);

    connect(token_combo_, &QComboBox::activated, this, [this](int index) {
        // Item 0: the default token (the last one, or a masked LM's [MASK]).
        doc_->setTokenFocus(index - 1, false);
    });
    connect(fold_, &QToolButton::clicked, this, [this] { doc_->setOpenLayers(0); });
    connect(unfold_, &QToolButton::clicked, this, [this] { doc_->setOpenLayers(~quint64(0)); });
    connect(temperature_, &QSlider::valueChanged, this, &WholeModelView::pushSampling);
    connect(top_p_, &QSlider::valueChanged, this, &WholeModelView::pushSampling);
    connect(top_k_, &QSpinBox::valueChanged, this, &WholeModelView::pushSampling);
    connect(draw_, &QPushButton::clicked, this, &WholeModelView::draw);
    connect(append_, &QPushButton::clicked, this, &WholeModelView::appendDrawn);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &WholeModelView::hoverAt);
    connect(canvas_, &FigureCanvas::clicked, this, &WholeModelView::clickAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] {
        figure()->setHover({});
        hover_text_.clear();
        canvas_->update();
        emit hovered(QString());
    });
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &WholeModelView::sync);
    retranslate();
}

ModelWalkFigure* WholeModelView::figure() const {
    return static_cast<ModelWalkFigure*>(canvas_->figure());
}

void WholeModelView::retranslate() {
    token_label_->setText(tr("&Token:"));
    token_combo_->setToolTip(tr("The token whose whole path through the model is shown"));
    fold_->setText(tr("Fold all"));
    fold_->setToolTip(tr("Fold every layer to one line (click a layer's header to open it)"));
    unfold_->setText(tr("Open all"));
    unfold_->setToolTip(tr("Open every layer's steps"));
    temperature_label_->setText(tr("Temperat&ure:"));
    temperature_->setToolTip(
        tr("Divides the logits before the softmax: below 1 the likeliest token gains, above 1 "
           "the odds even out; 0 always takes the likeliest"));
    top_k_label_->setText(tr("Top-&k:"));
    top_k_->setSpecialValueText(tr("all"));
    top_k_->setToolTip(tr("Draw only among the k likeliest tokens (all: no limit)"));
    top_p_label_->setText(tr("Top-&p:"));
    top_p_->setToolTip(tr("Draw only among the likeliest tokens whose probabilities add up to p"));
    seed_label_->setText(tr("Seed:"));
    seed_->setToolTip(tr("The same seed draws the same token; each draw moves to the next seed"));
    draw_->setText(tr("&Draw"));
    draw_->setToolTip(tr("Draw the next token from these probabilities with this seed"));
    append_->setText(tr("Add t&o the text"));
    sync();
}

void WholeModelView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

bool WholeModelView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) relayout();
    return QWidget::eventFilter(watched, event);
}

void WholeModelView::setSnapshot(SnapshotPtr snapshot) {
    const bool new_trace =
        snapshot && snapshot->trace && (!snapshot_ || snapshot_->trace != snapshot->trace);
    // A new trace with every layer folded (the Temperature example), or after Add: the
    // prediction is what the class looks at.
    if (new_trace && (reveal_on_trace_ || doc_->figureOptions().open_layers == 0)) {
        reveal_prediction_ = true;
        reveal_on_trace_ = false;
    }
    snapshot_ = std::move(snapshot);
    figure()->setSnapshot(snapshot_);
    sync();
}

void WholeModelView::setPresentation(int font_px, bool high_contrast) {
    font_px_ = font_px;
    high_contrast_ = high_contrast;
    sync();
}

void WholeModelView::relayout() {
    // As wide as the viewport, as tall as the content: the scroll area scrolls it.
    const int width = std::max(200, scroll_->viewport()->width());
    const int height = std::max(scroll_->viewport()->height(), figure()->naturalHeight(width));
    // naturalHeight() laid the figure out at this width; a new size lays it out again.
    if (canvas_->size() != QSize(width, height))
        canvas_->resize(width, height);
    else
        canvas_->update();
}

void WholeModelView::sync() {
    FigureOptions o = doc_->figureOptions();
    o.kind = FigureKind::Steps;
    o.whole_model = true;
    o.font_px = font_px_ > 0 ? font_px_ : QFontInfo(font()).pixelSize();
    o.high_contrast = high_contrast_;
    figure()->setOptions(o);
    relayout();

    const ModelTrace* trace = snapshot_ ? snapshot_->trace.get() : nullptr;
    {
        const QSignalBlocker b(token_combo_);
        QStringList items{tr("Last token (default)")};
        if (snapshot_ && snapshot_->model) {
            const ModelMaps& m = *snapshot_->model;
            if (trace && trace->trace.head == models::LmHeadKind::Masked)
                items[0] = tr("First [MASK] (default)");
            for (int t = 0; t < m.tokens; ++t)
                items << tr("%1 · %2").arg(m.first_token + t + 1).arg(m.token_text[std::size_t(t)]);
        }
        bool same = token_combo_->count() == items.size();
        for (int i = 0; same && i < items.size(); ++i)
            same = token_combo_->itemText(i) == items[i];
        if (!same) {
            token_combo_->clear();
            token_combo_->addItems(items);
        }
        token_combo_->setCurrentIndex(std::clamp(o.focus_token + 1, 0, token_combo_->count() - 1));
    }
    {
        const QSignalBlocker a(temperature_), b(top_k_), c(top_p_);
        temperature_->setValue(int(std::lround(o.temperature * kTemperatureSteps)));
        top_k_->setValue(o.top_k);
        top_p_->setValue(int(std::lround(o.top_p * 100)));
    }
    temperature_value_->setText(o.temperature <= 0.0 ? tr("0 (greedy)")
                                                     : QString::number(o.temperature, 'f', 2));
    top_p_value_->setText(QString::number(o.top_p, 'f', 2));
    const bool logits = trace && !trace->trace.logits.empty();
    for (QWidget* w : std::initializer_list<QWidget*>{temperature_, top_k_, top_p_, seed_, draw_})
        w->setEnabled(logits);
    const QString blocked = appendBlocked();
    append_->setEnabled(blocked.isEmpty());
    append_->setToolTip(blocked.isEmpty() ? tr("Append the drawn token to the text and trace "
                                               "the new last token")
                                          : blocked);
    if (reveal_prediction_) revealPrediction();
}

void WholeModelView::revealPrediction() {
    reveal_prediction_ = false;
    const QRectF r = figure()->predictionRect();
    if (r.isEmpty()) return;
    // Its bottom, then its top: the whole panel when it fits, else its top (the formula and
    // the likeliest tokens).
    const int x = int(r.center().x());
    scroll_->ensureVisible(x, int(r.bottom()), 0, 8);
    scroll_->ensureVisible(x, int(r.top()), 0, 8);
}

void WholeModelView::pushSampling() {
    reveal_prediction_ = true;
    doc_->setSampling(double(temperature_->value()) / kTemperatureSteps, top_k_->value(),
                      double(top_p_->value()) / 100.0);
}

void WholeModelView::draw() {
    const ModelTrace* trace = snapshot_ ? snapshot_->trace.get() : nullptr;
    if (!trace || trace->trace.logits.empty()) return;
    const FigureOptions& o = doc_->figureOptions();
    const std::vector<float>& z = trace->trace.logits;
    reveal_prediction_ = true;
    doc_->setDrawn(models::sample_next(z.data(), std::int64_t(z.size()),
                                       {o.temperature, o.top_k, o.top_p},
                                       std::uint64_t(seed_->value())));
    seed_->stepBy(1);
}

QString WholeModelView::appendBlocked() const {
    const ModelTrace* trace = snapshot_ ? snapshot_->trace.get() : nullptr;
    if (!trace || doc_->figureOptions().drawn < 0) return tr("Draw a token first");
    if (trace->trace.head != models::LmHeadKind::Causal)
        return tr("A masked language model fills in its [MASK]; it does not write on");
    if (trace->trace.position + 1 != std::int64_t(trace->pieces.size()))
        return tr("Only the last token's prediction continues the text: choose the last token");
    return {};
}

void WholeModelView::appendDrawn() {
    if (!appendBlocked().isEmpty()) return;
    const qint64 id = doc_->figureOptions().drawn;
    doc_->setDrawn(-1);
    doc_->setTokenFocus(-1, false);  // follow the new last token
    reveal_on_trace_ = true;
    doc_->appendGenerated(id);
}

void WholeModelView::clickAt(const QPointF& pos) {
    const ModelWalkFigure::Hit hit = figure()->hitTest(pos);
    using Kind = ModelWalkFigure::Hit::Kind;
    if (hit.kind == Kind::LayerHeader && hit.layer >= 0) {
        const quint64 bit = quint64(1) << std::min(hit.layer, 63);
        doc_->setOpenLayers(doc_->figureOptions().open_layers ^ bit);
    } else if (hit.kind == Kind::Candidate) {
        doc_->setDrawn(hit.id);
    }
}

void WholeModelView::hoverAt(const QPointF& pos) {
    const ModelWalkFigure::Hit hit = figure()->hitTest(pos);
    figure()->setHover(hit);
    hover_text_ = figure()->describe(hit);
    canvas_->setCursor(hit.kind == ModelWalkFigure::Hit::Kind::LayerHeader ||
                               hit.kind == ModelWalkFigure::Hit::Kind::Candidate
                           ? Qt::PointingHandCursor
                           : Qt::ArrowCursor);
    canvas_->update();
    emit hovered(hover_text_);
}

}  // namespace attnviz::ui
