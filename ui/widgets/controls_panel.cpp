#include "ui/widgets/controls_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/render/colormaps.h"

namespace attnviz::ui {

namespace {
template <typename Combo, typename Value>
void select_data(Combo* combo, Value value) {
    const QSignalBlocker b(combo);
    combo->setCurrentIndex(combo->findData(int(value)));
}
}  // namespace

ControlsPanel::ControlsPanel(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(8, 8, 8, 8);
    column->setSpacing(10);
    column->addWidget(createLayerBox());
    column->addWidget(createDropoutBox());
    column->addWidget(createMaskBox());
    column->addWidget(createDisplayBox());
    column->addStretch(1);
    connectViewToDocument();
    connectDocumentToView();
    syncFromDocument();
}

/// embed_dim, the heads, scoring, bias, positional encoding and where the weights come from.
QGroupBox* ControlsPanel::createLayerBox() {
    auto* layer_box = new QGroupBox(tr("Attention layer"), this);
    auto* layer = new QFormLayout(layer_box);
    layer->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    embed_dim_ = new QSpinBox(layer_box);
    embed_dim_->setObjectName(QStringLiteral("embedDimSpin"));
    embed_dim_->setRange(AttentionDocument::kMinEmbedDim, AttentionDocument::kMaxEmbedDim);
    embed_dim_->setKeyboardTracking(false);
    embed_dim_->setToolTip(tr("Model width (num_hiddens): the size of every token vector."));
    layer->addRow(tr("&embed_dim:"), embed_dim_);
    heads_ = new QComboBox(layer_box);
    heads_->setObjectName(QStringLiteral("numHeadsCombo"));
    heads_->setToolTip(
        tr("Only head counts that divide embed_dim are offered: each head works "
           "on embed_dim / heads dimensions."));
    layer->addRow(tr("&Heads:"), heads_);
    heads_message_ = new QLabel(layer_box);
    heads_message_->setObjectName(QStringLiteral("headsMessage"));
    heads_message_->setWordWrap(true);
    heads_message_->setStyleSheet(QStringLiteral("color: #b35900;"));
    heads_message_->hide();
    layer->addRow(heads_message_);
    scoring_ = new QComboBox(layer_box);
    scoring_->setObjectName(QStringLiteral("scoringCombo"));
    scoring_->addItem(tr("Scaled dot-product"), int(Scoring::ScaledDotProduct));
    scoring_->addItem(tr("Additive (Bahdanau)"), int(Scoring::Additive));
    layer->addRow(tr("S&coring:"), scoring_);
    bias_ = new QCheckBox(tr("Projection &bias"), layer_box);
    bias_->setObjectName(QStringLiteral("biasCheck"));
    layer->addRow(bias_);
    positional_ = new QCheckBox(tr("Sinusoidal &positional encoding"), layer_box);
    positional_->setObjectName(QStringLiteral("positionalCheck"));
    layer->addRow(positional_);
    weight_seed_ = new QSpinBox(layer_box);
    weight_seed_->setObjectName(QStringLiteral("weightSeedSpin"));
    weight_seed_->setRange(0, AttentionDocument::kMaxSeed);
    weight_seed_->setKeyboardTracking(false);
    weight_seed_->setToolTip(tr("Seed of the random initialisation of the projections."));
    layer->addRow(tr("&Weight seed:"), weight_seed_);
    weights_file_ = new QLabel(layer_box);
    weights_file_->setObjectName(QStringLiteral("weightsFileLabel"));
    weights_file_->setWordWrap(true);
    load_weights_ = new QPushButton(tr("Load weights…"), layer_box);
    load_weights_->setObjectName(QStringLiteral("loadWeightsButton"));
    load_weights_->setToolTip(
        tr("Load a PyTorch nn.MultiheadAttention state_dict saved with "
           "safetensors."));
    clear_weights_ = new QPushButton(tr("Use seed"), layer_box);
    clear_weights_->setObjectName(QStringLiteral("clearWeightsButton"));
    auto* weights_row = new QHBoxLayout;
    weights_row->addWidget(load_weights_);
    weights_row->addWidget(clear_weights_);
    layer->addRow(tr("Weights:"), weights_file_);
    layer->addRow(weights_row);
    return layer_box;
}

/// The dropout rate, training mode and the dropout mask's seed.
QGroupBox* ControlsPanel::createDropoutBox() {
    auto* dropout_box = new QGroupBox(tr("Dropout on the weights"), this);
    auto* dropout = new QFormLayout(dropout_box);
    dropout_ = new QDoubleSpinBox(dropout_box);
    dropout_->setObjectName(QStringLiteral("dropoutSpin"));
    dropout_->setRange(0.0, AttentionDocument::kMaxDropout);
    dropout_->setSingleStep(0.05);
    dropout_->setDecimals(2);
    dropout->addRow(tr("&Rate:"), dropout_);
    training_ = new QCheckBox(tr("&Training mode (dropout active)"), dropout_box);
    training_->setObjectName(QStringLiteral("trainingCheck"));
    training_->setToolTip(tr("In evaluation mode dropout does nothing, as in PyTorch's eval()."));
    dropout->addRow(training_);
    dropout_seed_ = new QSpinBox(dropout_box);
    dropout_seed_->setObjectName(QStringLiteral("dropoutSeedSpin"));
    dropout_seed_->setRange(0, AttentionDocument::kMaxSeed);
    dropout_seed_->setKeyboardTracking(false);
    resample_ = new QPushButton(tr("Resample"), dropout_box);
    resample_->setObjectName(QStringLiteral("resampleButton"));
    resample_->setToolTip(tr("Draw a new dropout mask (next seed)  Ctrl+R"));
    auto* seed_row = new QHBoxLayout;
    seed_row->addWidget(dropout_seed_, 1);
    seed_row->addWidget(resample_);
    dropout->addRow(tr("S&eed:"), seed_row);
    // A row of several widgets gets a label without a buddy, which would show the "&".
    if (auto* label = qobject_cast<QLabel*>(dropout->labelForField(seed_row)))
        label->setBuddy(dropout_seed_);
    return dropout_box;
}

/// Causal masking, the masked keys and what a fully masked row gets.
QGroupBox* ControlsPanel::createMaskBox() {
    auto* mask_box = new QGroupBox(tr("Masks"), this);
    auto* masks = new QFormLayout(mask_box);
    causal_ = new QCheckBox(tr("&Causal (no looking ahead)"), mask_box);
    causal_->setObjectName(QStringLiteral("causalCheck"));
    causal_->setToolTip(tr("Mask every key after the query's position  Ctrl+K"));
    masks->addRow(causal_);
    masked_keys_ = new QLabel(mask_box);
    masked_keys_->setObjectName(QStringLiteral("maskedKeysLabel"));
    masked_keys_->setWordWrap(true);
    clear_masks_ = new QPushButton(tr("Clear"), mask_box);
    clear_masks_->setObjectName(QStringLiteral("clearMasksButton"));
    // In a widget of its own, so the form gives the row the height the wrapped list needs
    // (a nested layout's height-for-width is not asked for).
    auto* keys_field = new QWidget(mask_box);
    auto* keys_row = new QHBoxLayout(keys_field);
    keys_row->setContentsMargins(0, 0, 0, 0);
    keys_row->addWidget(masked_keys_, 1);
    keys_row->addWidget(clear_masks_, 0, Qt::AlignTop);
    masks->addRow(tr("Masked keys:"), keys_field);
    masked_rows_ = new QComboBox(mask_box);
    masked_rows_->setObjectName(QStringLiteral("maskedRowsCombo"));
    masked_rows_->addItem(tr("Zero weights"), int(MaskedRowPolicy::Zero));
    masked_rows_->addItem(tr("Uniform weights"), int(MaskedRowPolicy::Uniform));
    masked_rows_->addItem(tr("NaN (as PyTorch)"), int(MaskedRowPolicy::NaN));
    masked_rows_->setToolTip(tr("What a query row gets when every key is masked."));
    masks->addRow(tr("&Fully masked rows:"), masked_rows_);
    return mask_box;
}

/// How the figure is drawn: colours, scale and printed values.
QGroupBox* ControlsPanel::createDisplayBox() {
    auto* figure_box = new QGroupBox(tr("Display"), this);
    figure_box->setObjectName(QStringLiteral("displayBox"));
    auto* figure = new QFormLayout(figure_box);
    colormap_ = new QComboBox(figure_box);
    colormap_->setObjectName(QStringLiteral("colormapCombo"));
    for (Colormap c : {Colormap::Viridis, Colormap::Cividis, Colormap::Magma, Colormap::Grey})
        colormap_->addItem(colormap_display_name(c), int(c));
    figure->addRow(tr("Colo&urs:"), colormap_);
    scale_ = new QComboBox(figure_box);
    scale_->setObjectName(QStringLiteral("scaleCombo"));
    scale_->addItem(tr("Shared by all heads (data range)"), int(ScaleMode::Shared));
    scale_->addItem(tr("Each head to its own range"), int(ScaleMode::PerHead));
    scale_->addItem(tr("Fixed 0 – 1"), int(ScaleMode::Unit));
    figure->addRow(tr("Sc&ale:"), scale_);
    values_ = new QCheckBox(tr("Print &values in enlarged heads"), figure_box);
    values_->setObjectName(QStringLiteral("valuesCheck"));
    figure->addRow(values_);
    return figure_box;
}

/// Every control writes its value into the document.
void ControlsPanel::connectViewToDocument() {
    connect(embed_dim_, &QSpinBox::valueChanged, doc_, &AttentionDocument::setEmbedDim);
    connect(heads_, &QComboBox::currentIndexChanged, this, [this] {
        if (heads_->currentIndex() >= 0) doc_->setNumHeads(heads_->currentData().toInt());
    });
    connect(scoring_, &QComboBox::currentIndexChanged, this,
            [this] { doc_->setScoring(Scoring(scoring_->currentData().toInt())); });
    connect(bias_, &QCheckBox::toggled, doc_, &AttentionDocument::setBias);
    connect(positional_, &QCheckBox::toggled, doc_, &AttentionDocument::setPositionalEncoding);
    connect(weight_seed_, &QSpinBox::valueChanged, doc_, &AttentionDocument::setWeightSeed);
    connect(load_weights_, &QPushButton::clicked, this, &ControlsPanel::loadWeightsRequested);
    connect(clear_weights_, &QPushButton::clicked, this,
            [this] { doc_->setWeightsFile(QString()); });
    connect(dropout_, &QDoubleSpinBox::valueChanged, doc_, &AttentionDocument::setDropout);
    connect(training_, &QCheckBox::toggled, doc_, &AttentionDocument::setTraining);
    connect(dropout_seed_, &QSpinBox::valueChanged, doc_, &AttentionDocument::setDropoutSeed);
    connect(resample_, &QPushButton::clicked, doc_, &AttentionDocument::resampleDropout);
    connect(causal_, &QCheckBox::toggled, doc_, &AttentionDocument::setCausal);
    connect(clear_masks_, &QPushButton::clicked, doc_, &AttentionDocument::clearMaskedKeys);
    connect(masked_rows_, &QComboBox::currentIndexChanged, this, [this] {
        doc_->setMaskedRowPolicy(MaskedRowPolicy(masked_rows_->currentData().toInt()));
    });
    connect(colormap_, &QComboBox::currentIndexChanged, this,
            [this] { doc_->setColormap(Colormap(colormap_->currentData().toInt())); });
    connect(scale_, &QComboBox::currentIndexChanged, this,
            [this] { doc_->setScaleMode(ScaleMode(scale_->currentData().toInt())); });
    connect(values_, &QCheckBox::toggled, doc_, &AttentionDocument::setShowValues);
}

/// The controls follow the document, whoever changed it.
void ControlsPanel::connectDocumentToView() {
    connect(doc_, &AttentionDocument::settingsChanged, this, &ControlsPanel::syncFromDocument);
    // The head choices depend on embed_dim: offer the new divisors at once.
    connect(doc_, &AttentionDocument::embedDimChanged, this, &ControlsPanel::syncHeads);
    connect(doc_, &AttentionDocument::numHeadsChanged, this, &ControlsPanel::syncHeads);
    connect(doc_, &AttentionDocument::validationMessageChanged, this,
            &ControlsPanel::showValidationMessage);
}

void ControlsPanel::showValidationMessage(const QString& message) {
    heads_message_->setText(message);
    heads_message_->setVisible(!message.isEmpty());
}

void ControlsPanel::syncHeads() {
    const QSignalBlocker b(heads_);
    const QList<int> valid = AttentionDocument::validHeadCounts(doc_->embedDim());
    const auto label = [this](int h) {
        return tr("%1  (head_dim %2)").arg(h).arg(doc_->embedDim() / h);
    };
    // The same counts can have other head_dims (embed_dim 64 -> 1024 keeps 1..16 heads): the
    // labels are compared too.
    bool same = heads_->count() == valid.size();
    for (int k = 0; same && k < valid.size(); ++k)
        same = heads_->itemData(k).toInt() == valid[k] && heads_->itemText(k) == label(valid[k]);
    if (!same) {
        heads_->clear();
        for (int h : valid)
            heads_->addItem(label(h), h);
    }
    heads_->setCurrentIndex(heads_->findData(doc_->numHeads()));
}

void ControlsPanel::syncMaskedKeys() {
    const auto& keys = doc_->maskedKeys();
    if (keys.empty()) {
        masked_keys_->setText(tr("none — click a token label in the heatmaps"));
        clear_masks_->setEnabled(false);
        return;
    }
    const TokenSequences tokens = resolve_tokens(doc_->computeConfig());
    QStringList names;
    for (const auto& [item, key] : keys) {
        const auto& seq = doc_->pairMode() == PairMode::CrossAttention ? tokens.b
                          : item == 1                                  ? tokens.b
                                                                       : tokens.a;
        const QString token =
            key < int(seq.size()) ? QString::fromStdString(seq[std::size_t(key)]) : QString();
        names << (doc_->pairMode() == PairMode::PaddedBatch
                      ? tr("%1 (#%2, sentence %3)").arg(token).arg(key + 1).arg(item + 1)
                      : tr("%1 (#%2)").arg(token).arg(key + 1));
    }
    masked_keys_->setText(names.join(QStringLiteral(", ")));
    clear_masks_->setEnabled(true);
}

void ControlsPanel::syncFromDocument() {
    {
        const QSignalBlocker b(embed_dim_);
        if (!embed_dim_->hasFocus() || embed_dim_->value() != doc_->embedDim())
            embed_dim_->setValue(doc_->embedDim());
    }
    syncHeads();
    select_data(scoring_, doc_->scoring());
    {
        const QSignalBlocker b1(bias_), b2(positional_), b3(weight_seed_), b4(dropout_),
            b5(training_), b6(dropout_seed_), b7(causal_), b8(values_);
        bias_->setChecked(doc_->bias());
        positional_->setChecked(doc_->positionalEncoding());
        weight_seed_->setValue(doc_->weightSeed());
        dropout_->setValue(doc_->dropout());
        training_->setChecked(doc_->training());
        dropout_seed_->setValue(doc_->dropoutSeed());
        causal_->setChecked(doc_->causal());
        values_->setChecked(doc_->showValues());
    }
    const bool from_file = !doc_->weightsFile().isEmpty();
    weights_file_->setText(from_file ? QFileInfo(doc_->weightsFile()).fileName()
                                     : tr("random, from the weight seed"));
    weights_file_->setToolTip(doc_->weightsFile());
    weight_seed_->setEnabled(!from_file);
    clear_weights_->setEnabled(from_file);
    dropout_seed_->setEnabled(doc_->training());
    resample_->setEnabled(doc_->training());
    select_data(masked_rows_, doc_->maskedRowPolicy());
    select_data(colormap_, doc_->colormap());
    select_data(scale_, doc_->scaleMode());
    syncMaskedKeys();
}

void ControlsPanel::setModelSource(bool model) {
    const QString why = model ? tr("These settings belong to the demo layer; a trained model "
                                   "has its own. Choose “Demo layer” in the tool bar to use them.")
                              : QString();
    for (QGroupBox* box : findChildren<QGroupBox*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (box->objectName() == QLatin1String("displayBox")) continue;
        box->setEnabled(!model);
        box->setToolTip(why);
        box->setVisible(!model);  // the model's own panel (ModelPanel) takes their place
    }
}

}  // namespace attnviz::ui
