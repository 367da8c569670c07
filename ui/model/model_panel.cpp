#include "ui/model/model_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/document/attention_document.h"
#include "ui/model/generation_panel.h"
#include "ui/model/predictions_view.h"
#include "ui/render/knock_out_mark.h"

namespace attnviz::ui {

ModelPanel::ModelPanel(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    setObjectName(QStringLiteral("modelPanel"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(8, 8, 8, 0);
    column->setSpacing(10);

    focus_box_ = new QGroupBox(this);
    auto* focus_layout = new QVBoxLayout(focus_box_);
    focus_ = new QLabel(focus_box_);
    focus_->setObjectName(QStringLiteral("modelFocusLabel"));
    focus_->setWordWrap(true);
    focus_layout->addWidget(focus_);
    column->addWidget(focus_box_);

    generation_ = new GenerationPanel(doc_, this);
    column->addWidget(generation_);

    knocked_box_ = new QGroupBox(this);
    knocked_box_->setObjectName(QStringLiteral("knockedOutBox"));
    auto* knocked_layout = new QVBoxLayout(knocked_box_);
    list_ = new QWidget(knocked_box_);
    list_->setObjectName(QStringLiteral("knockedOutList"));
    list_layout_ = new QVBoxLayout(list_);
    list_layout_->setContentsMargins(0, 0, 0, 0);
    list_layout_->setSpacing(2);
    knocked_layout->addWidget(list_);
    knocked_hint_ = new QLabel(knocked_box_);
    knocked_hint_->setWordWrap(true);
    knocked_hint_->setStyleSheet(QStringLiteral("color: #666;"));
    knocked_layout->addWidget(knocked_hint_);
    restore_all_ = new QPushButton(knocked_box_);
    restore_all_->setObjectName(QStringLiteral("restoreAllButton"));
    connect(restore_all_, &QPushButton::clicked, doc_, &AttentionDocument::restoreAllHeads);
    knocked_layout->addWidget(restore_all_);
    column->addWidget(knocked_box_);

    predictions_box_ = new QGroupBox(this);
    auto* predictions_layout = new QVBoxLayout(predictions_box_);
    predictions_ = new PredictionsBox(predictions_box_);
    predictions_layout->addWidget(predictions_);
    column->addWidget(predictions_box_);

    connect(doc_, &AttentionDocument::knockedOutChanged, this, &ModelPanel::syncKnockedOut);
    connect(doc_, &AttentionDocument::layerChanged, this, &ModelPanel::syncFocus);
    connect(doc_, &AttentionDocument::viewChanged, this, &ModelPanel::syncFocus);
    connect(doc_, &AttentionDocument::tokenFocusChanged, this, [this](int token, bool) {
        const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
        predictions_->setFocusPiece(m && token >= 0 && token < m->tokens ? m->pieceOf(token) : -1);
        syncFocus();
    });
    retranslate();
}

void ModelPanel::setSnapshot(const SnapshotPtr& snapshot) {
    snapshot_ = snapshot && snapshot->model ? snapshot : nullptr;
    // Maps read from a file have no pass to knock heads out of.
    knocked_box_->setVisible(!doc_->computeConfig().usesMaps());
    predictions_->setSnapshot(snapshot_);
    generation_->setSnapshot(snapshot_);
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    const int token = doc_->focusToken();
    predictions_->setFocusPiece(m && token >= 0 && token < m->tokens ? m->pieceOf(token) : -1);
    syncFocus();
}

void ModelPanel::syncFocus() {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    if (!m) {
        focus_->setText(tr("Computing…"));
        return;
    }
    const int layer = std::min(doc_->computeConfig().layer, m->num_layers - 1);
    const FigureOptions o = doc_->figureOptions();
    QString text = o.view == FigureView::Head
                       ? tr("Layer %1 · head %2").arg(layer + 1).arg(o.head + 1)
                   : o.view == FigureView::Mean
                       ? tr("Layer %1 · mean over its %2 heads").arg(layer + 1).arg(m->num_heads)
                       : tr("Layer %1 · all %2 heads").arg(layer + 1).arg(m->num_heads);
    if (o.view == FigureView::Head && doc_->isKnockedOut(layer, o.head))
        text += tr(" (knocked out)");
    text += QLatin1Char('\n') + tr("%1 layers × %2 heads · %3 tokens")
                                    .arg(m->total_layers)
                                    .arg(m->num_heads)
                                    .arg(m->tokens);
    focus_->setText(text);
}

void ModelPanel::syncKnockedOut() {
    while (QLayoutItem* item = list_layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const auto& [head, how] : doc_->knockedOut()) {
        auto* row = new QWidget(list_);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* name = new QLabel(tr("Layer %1 · head %2 — %3")
                                    .arg(head.first + 1)
                                    .arg(head.second + 1)
                                    .arg(knock_out_label(how)),
                                row);
        name->setObjectName(QStringLiteral("knockedOutHead"));
        h->addWidget(name, 1);
        auto* restore = new QToolButton(row);
        restore->setObjectName(QStringLiteral("restoreHeadButton"));
        restore->setText(tr("Restore"));
        restore->setToolTip(
            tr("Put layer %1, head %2 back").arg(head.first + 1).arg(head.second + 1));
        const ModelHead which = head;
        connect(restore, &QToolButton::clicked, this,
                [this, which] { doc_->restoreHead(which.first, which.second); });
        h->addWidget(restore);
        list_layout_->addWidget(row);
    }
    const bool any = !doc_->knockedOut().empty();
    list_->setVisible(any);
    restore_all_->setEnabled(any);
    knocked_hint_->setVisible(!any);
    syncFocus();
}

void ModelPanel::retranslate() {
    focus_box_->setTitle(tr("In focus"));
    knocked_box_->setTitle(tr("Heads knocked out"));
    knocked_hint_->setText(
        tr("None. Right-click a head in the Model tab or the heatmaps (or Ctrl-click it) to "
           "knock it out and see what the model loses."));
    restore_all_->setText(tr("Restore All"));
    predictions_box_->setTitle(tr("Predictions"));
    syncKnockedOut();
}

void ModelPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnviz::ui
