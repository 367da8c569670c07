#include "ui/document/attention_document.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
ComputeConfig default_compute() {
    ComputeConfig c;
    c.text_a = AttentionDocument::demoSentence();
    c.text_b = AttentionDocument::demoSecondSentence();
    return c;
}

template <typename T, typename Signal>
bool assign(T& field, const T& value, AttentionDocument* doc, Signal signal) {
    if (field == value) return false;
    field = value;
    emit(doc->*signal)(value);
    return true;
}
}  // namespace

AttentionDocument::AttentionDocument(QObject* parent)
    : QObject(parent), compute_(default_compute()) {}

QString AttentionDocument::demoSentence() {
    return QStringLiteral("The cat sat on the mat because it was tired");
}

QString AttentionDocument::demoSecondSentence() {
    return QStringLiteral("那只猫坐在垫子上，因为它累了");
}

// --- inputs -------------------------------------------------------------------------------

void AttentionDocument::setPairMode(PairMode mode) {
    if (compute_.pair_mode == mode) return;
    compute_.pair_mode = mode;
    emit pairModeChanged(mode);
    dropGenerated();               // a continuation of a single text
    compute_.masked_keys.clear();  // key positions mean something else now
    emit maskedKeysChanged();
    if (mode != PairMode::PaddedBatch && figure_.batch_item != 0) {
        figure_.batch_item = 0;
        emit batchItemChanged(0);
        figureChanged();
    }
    computeChanged();
}

bool AttentionDocument::tokensDiffer(const ComputeConfig& before, const ComputeConfig& after,
                                     bool b) const {
    if (!token_resolver_ && after.usesModel()) return true;  // no tokenizer to ask
    const auto tokens = [this](const ComputeConfig& c) {
        return token_resolver_ ? token_resolver_(c) : demo_tokens(c);
    };
    const TokenSequences x = tokens(before), y = tokens(after);
    return b ? x.b != y.b : x.a != y.a;
}

void AttentionDocument::setTextA(const QString& text) {
    const ComputeConfig before = compute_;
    if (assign(compute_.text_a, text, this, &AttentionDocument::textAChanged)) {
        dropGenerated();  // it continued another text
        computeChanged(tokensDiffer(before, compute_, false));
    }
}

void AttentionDocument::setTextB(const QString& text) {
    const ComputeConfig before = compute_;
    if (assign(compute_.text_b, text, this, &AttentionDocument::textBChanged))
        computeChanged(tokensDiffer(before, compute_, true));
}

void AttentionDocument::setUseTokenList(bool on) {
    if (assign(compute_.use_token_list, on, this, &AttentionDocument::useTokenListChanged))
        computeChanged(true);
}

void AttentionDocument::setTokenListA(const QString& list) {
    if (assign(compute_.token_list_a, list, this, &AttentionDocument::tokenListAChanged))
        computeChanged(compute_.use_token_list);
}

void AttentionDocument::setTokenListB(const QString& list) {
    if (assign(compute_.token_list_b, list, this, &AttentionDocument::tokenListBChanged))
        computeChanged(compute_.use_token_list);
}

void AttentionDocument::setLowercase(bool on) {
    if (assign(compute_.lowercase, on, this, &AttentionDocument::lowercaseChanged))
        computeChanged(true);
}

void AttentionDocument::setSpecialTokens(bool on) {
    if (assign(compute_.special_tokens, on, this, &AttentionDocument::specialTokensChanged))
        computeChanged(true);
}

// --- the layer ----------------------------------------------------------------------------

QList<int> AttentionDocument::validHeadCounts(int embed_dim) {
    QList<int> out;
    for (int h = 1; h <= std::min(kMaxHeads, embed_dim); ++h)
        if (embed_dim % h == 0) out << h;
    return out;
}

bool AttentionDocument::setEmbedDim(int embed_dim) {
    if (embed_dim < kMinEmbedDim || embed_dim > kMaxEmbedDim) {
        setMessage(tr("embed_dim must be between %1 and %2.").arg(kMinEmbedDim).arg(kMaxEmbedDim));
        return false;
    }
    if (compute_.embed_dim == embed_dim) return true;
    compute_.embed_dim = embed_dim;
    emit embedDimChanged(embed_dim);
    if (embed_dim % compute_.num_heads != 0) {
        const QList<int> valid = validHeadCounts(embed_dim);
        int best = 1;
        for (int h : valid)
            if (h <= compute_.num_heads) best = h;
        setMessage(tr("%1 heads do not divide embed_dim %2, so %3 heads are used.")
                       .arg(compute_.num_heads)
                       .arg(embed_dim)
                       .arg(best));
        compute_.num_heads = best;
        emit numHeadsChanged(best);
        normalizeHeadsShown();
        clampViewToData();
    } else {
        setMessage(QString());
    }
    computeChanged();
    return true;
}

bool AttentionDocument::setNumHeads(int num_heads) {
    if (num_heads < 1 || num_heads > kMaxHeads || compute_.embed_dim % num_heads != 0) {
        setMessage(tr("%1 heads do not divide embed_dim %2: each head gets embed_dim / heads "
                      "dimensions. Choose one of %3.")
                       .arg(num_heads)
                       .arg(compute_.embed_dim)
                       .arg([&] {
                           QStringList s;
                           for (int h : validHeadCounts(compute_.embed_dim))
                               s << QString::number(h);
                           return s.join(QStringLiteral(", "));
                       }()));
        return false;
    }
    setMessage(QString());
    if (compute_.num_heads == num_heads) return true;
    compute_.num_heads = num_heads;
    emit numHeadsChanged(num_heads);
    normalizeHeadsShown();
    clampViewToData();
    computeChanged();
    return true;
}

void AttentionDocument::setBias(bool on) {
    if (assign(compute_.bias, on, this, &AttentionDocument::biasChanged)) computeChanged();
}

void AttentionDocument::setScoring(Scoring scoring) {
    if (assign(compute_.scoring, scoring, this, &AttentionDocument::scoringChanged))
        computeChanged();
}

void AttentionDocument::setDropout(double p) {
    p = std::clamp(p, 0.0, kMaxDropout);
    p = std::round(p * 1000.0) / 1000.0;
    if (assign(compute_.dropout, p, this, &AttentionDocument::dropoutChanged)) computeChanged();
}

void AttentionDocument::setTraining(bool on) {
    if (assign(compute_.training, on, this, &AttentionDocument::trainingChanged)) computeChanged();
}

void AttentionDocument::setDropoutSeed(int seed) {
    seed = std::clamp(seed, 0, kMaxSeed);
    if (assign(compute_.dropout_seed, seed, this, &AttentionDocument::dropoutSeedChanged))
        computeChanged();
}

void AttentionDocument::resampleDropout() {
    setDropoutSeed(compute_.dropout_seed >= kMaxSeed ? 0 : compute_.dropout_seed + 1);
}

void AttentionDocument::setWeightSeed(int seed) {
    seed = std::clamp(seed, 0, kMaxSeed);
    if (assign(compute_.weight_seed, seed, this, &AttentionDocument::weightSeedChanged))
        computeChanged();
}

void AttentionDocument::setPositionalEncoding(bool on) {
    if (assign(compute_.positional_encoding, on, this,
               &AttentionDocument::positionalEncodingChanged))
        computeChanged();
}

void AttentionDocument::setWeightsFile(const QString& path) {
    if (assign(compute_.weights_file, path, this, &AttentionDocument::weightsFileChanged))
        computeChanged();
}

void AttentionDocument::setAttentionMaps(const QString& file, const QString& tokens) {
    if (compute_.model_folder == file && compute_.tokens_file == tokens) return;
    compute_.tokens_file = tokens;  // read with the maps: one request for both
    if (compute_.model_folder == file) {
        computeChanged();
        return;
    }
    setModelFolder(file);
}

void AttentionDocument::setModelFolder(const QString& folder) {
    if (!assign(compute_.model_folder, folder, this, &AttentionDocument::modelFolderChanged))
        return;
    if (!compute_.usesMaps()) compute_.tokens_file.clear();
    model_heads_ = -1;
    compute_.layers_shown = compute_.model_heads_shown = -1;  // another model: its own
    if (!compute_.knocked_out.empty()) {  // another model's heads are other heads
        compute_.knocked_out.clear();
        emit knockedOutChanged();
    }
    dropGenerated();                                      // another model's ids
    if (!compute_.usesMaps() && compare_.changes.maps) {  // B's maps compare with maps only
        compare_.changes.maps.reset();
        compare_.changes.maps_tokens.reset();
        compare_dirty_ = true;
        emit compareChanged();
    }
    clampViewToData();  // back to the demo layer: its heads
    computeChanged();
}

int AttentionDocument::viewableHeads() const {
    if (compute_.usesModel()) return model_heads_ >= 0 ? model_heads_ : kMaxHeads;
    return compute_.scope().kept_heads(compute_.num_heads);
}

void AttentionDocument::setModelScope(int layers, int heads) {
    layers = layers < 1 ? -1 : std::min(layers, kMaxLayers);
    heads = std::clamp(heads, -1, kMaxHeads);
    if (compute_.layers_shown == layers && compute_.model_heads_shown == heads) return;
    compute_.layers_shown = layers;
    compute_.model_heads_shown = heads;
    computeChanged();  // once: both change in one request
}

void AttentionDocument::setModelHeads(int heads) {
    if (heads == model_heads_) return;
    model_heads_ = heads;
    clampViewToData();
}

void AttentionDocument::setLayer(int layer) {
    if (assign(compute_.layer, std::clamp(layer, 0, kMaxLayers - 1), this,
               &AttentionDocument::layerChanged))
        computeChanged(false, Change::View);
}

void AttentionDocument::setWords(bool on) {
    if (assign(compute_.words, on, this, &AttentionDocument::wordsChanged)) computeChanged();
}

void AttentionDocument::setHideSpecial(bool on) {
    if (assign(compute_.hide_special, on, this, &AttentionDocument::hideSpecialChanged))
        computeChanged();
}

void AttentionDocument::setAttentionShown(AttentionShown shown) {
    if (assign(compute_.attention, shown, this, &AttentionDocument::attentionShownChanged))
        computeChanged();
}

bool AttentionDocument::isKnockedOut(int layer, int head) const {
    return compute_.knocked_out.count({layer, head}) != 0;
}

void AttentionDocument::knockOut(int layer, int head, KnockOut how) {
    if (layer < 0 || head < 0 || layer >= kMaxLayers || head >= kMaxHeads) return;
    auto heads = compute_.knocked_out;
    heads[{layer, head}] = how;
    setKnockedOut(heads);
}

void AttentionDocument::restoreHead(int layer, int head) {
    auto heads = compute_.knocked_out;
    if (heads.erase({layer, head})) setKnockedOut(heads);
}

void AttentionDocument::restoreAllHeads() {
    setKnockedOut({});
}

void AttentionDocument::setKnockedOut(const std::map<ModelHead, KnockOut>& heads) {
    if (compute_.knocked_out == heads) return;
    compute_.knocked_out = heads;
    emit knockedOutChanged();
    computeChanged();
}

void AttentionDocument::dropGenerated() {
    if (compute_.generated.empty() && compute_.timeline < 0) return;
    compute_.generated.clear();
    compute_.timeline = -1;
    emit generatedChanged();
}

void AttentionDocument::appendGenerated(qint64 id) {
    auto ids = compute_.generated;
    ids.push_back(id);
    setGenerated(ids);
}

void AttentionDocument::setGenerated(const std::vector<qint64>& ids) {
    if (compute_.generated == ids && compute_.timeline < 0) return;
    compute_.generated = ids;
    compute_.timeline = -1;  // the newest token
    emit generatedChanged();
    computeChanged(true);
}

void AttentionDocument::keepGenerated(const QString& text) {
    const bool had = !compute_.generated.empty() || compute_.timeline >= 0;
    compute_.generated.clear();
    compute_.timeline = -1;
    if (had) emit generatedChanged();
    const bool changed = assign(compute_.text_a, text, this, &AttentionDocument::textAChanged);
    if (had || changed) computeChanged(true);
}

void AttentionDocument::setTimeline(int step) {
    step = step < 0 || step >= int(compute_.generated.size()) ? -1 : step;
    if (compute_.timeline == step) return;
    compute_.timeline = step;
    emit generatedChanged();
    computeChanged(true, Change::View);
}

void AttentionDocument::setGenerationSettings(const GenerationSettings& settings) {
    GenerationSettings g = settings;
    g.count = std::clamp(g.count, 1, kMaxGenerated);
    g.temperature = std::clamp(g.temperature, 0.0, 100.0);
    g.top_k = std::clamp(g.top_k, 0, kMaxTokens);
    g.top_p = std::clamp(g.top_p, 0.0, 1.0);
    g.seed = std::clamp(g.seed, 0, kMaxSeed);
    if (generation_ == g) return;
    generation_ = g;
    emit generationSettingsChanged();
    figureChanged(Change::Edit);  // nothing to compute, but saved
}

// --- masks --------------------------------------------------------------------------------

void AttentionDocument::setCausal(bool on) {
    if (assign(compute_.causal, on, this, &AttentionDocument::causalChanged)) computeChanged();
}

bool AttentionDocument::isKeyMasked(int item, int key) const {
    return compute_.masked_keys.count({item, key}) != 0;
}

void AttentionDocument::toggleMaskedKey(int item, int key) {
    if (item < 0 || key < 0) return;
    auto keys = compute_.masked_keys;
    if (!keys.erase({item, key})) keys.insert({item, key});
    setMaskedKeys(keys);
}

void AttentionDocument::setMaskedKeys(const std::set<MaskedKey>& keys) {
    if (compute_.masked_keys == keys) return;
    compute_.masked_keys = keys;
    emit maskedKeysChanged();
    computeChanged();
}

void AttentionDocument::clearMaskedKeys() {
    setMaskedKeys({});
}

void AttentionDocument::setMaskedRowPolicy(MaskedRowPolicy policy) {
    if (assign(compute_.masked_rows, policy, this, &AttentionDocument::maskedRowPolicyChanged))
        computeChanged();
}

// --- what of the result is kept -----------------------------------------------------------

void AttentionDocument::setHeadsShown(int k) {
    // Every head, however it was asked for, is -1: equal configurations stay equal.
    k = k < 0 || k >= compute_.num_heads ? -1 : k;
    if (!assign(compute_.heads_shown, k, this, &AttentionDocument::headsShownChanged)) return;
    clampViewToData();
    computeChanged();
}

void AttentionDocument::setWindow(int start, int length) {
    length = std::max(length, 0);
    start = length == 0 ? 0 : std::max(start, 0);
    if (compute_.window_start == start && compute_.window_length == length) return;
    compute_.window_start = start;
    compute_.window_length = length;
    emit windowChanged(start, length);
    computeChanged();
}

void AttentionDocument::showEverything() {
    if (compute_.usesModel())
        setModelScope(-1, -1);
    else
        setHeadsShown(-1);
    setWindow(0, 0);
}

// --- the figure ---------------------------------------------------------------------------

void AttentionDocument::setView(FigureView view, int head) {
    head = std::clamp(head, 0, std::max(1, viewableHeads()) - 1);
    if (view != FigureView::Head) head = figure_.head;
    if (figure_.view == view && figure_.head == head) return;
    figure_.view = view;
    figure_.head = head;
    emit viewChanged(view, head);
    figureChanged();
}

void AttentionDocument::setBatchItem(int item) {
    item = compute_.pair_mode == PairMode::PaddedBatch ? std::clamp(item, 0, 1) : 0;
    if (assign(figure_.batch_item, item, this, &AttentionDocument::batchItemChanged))
        figureChanged();
}

void AttentionDocument::setColormap(Colormap map) {
    if (assign(figure_.colormap, map, this, &AttentionDocument::colormapChanged))
        figureChanged(Change::Edit);
}

void AttentionDocument::setScaleMode(ScaleMode mode) {
    if (assign(figure_.scale, mode, this, &AttentionDocument::scaleModeChanged))
        figureChanged(Change::Edit);
}

void AttentionDocument::setShowValues(bool on) {
    if (assign(figure_.values, on, this, &AttentionDocument::showValuesChanged))
        figureChanged(Change::Edit);
}

void AttentionDocument::setStep(int step) {
    // 13 stages at most (cross-attention); the figure clamps to the stages it has.
    if (assign(figure_.step, std::clamp(step, -1, kMaxStep), this, &AttentionDocument::stepChanged))
        figureChanged();
}

void AttentionDocument::setStepFocus(bool on) {
    if (assign(figure_.focus, on, this, &AttentionDocument::stepFocusChanged)) figureChanged();
}

void AttentionDocument::setWholeModel(bool on) {
    if (assign(figure_.whole_model, on, this, &AttentionDocument::wholeModelChanged))
        figureChanged();
}

void AttentionDocument::setOpenLayers(quint64 layers) {
    if (figure_.open_layers == layers) return;
    figure_.open_layers = layers;
    emit walkChanged();
    figureChanged();
}

void AttentionDocument::setSampling(double temperature, int top_k, double top_p) {
    temperature = std::clamp(temperature, 0.0, kMaxTemperature);
    top_k = std::clamp(top_k, 0, kMaxTopK);
    top_p = std::clamp(top_p, 0.01, 1.0);
    if (figure_.temperature == temperature && figure_.top_k == top_k && figure_.top_p == top_p)
        return;
    figure_.temperature = temperature;
    figure_.top_k = top_k;
    figure_.top_p = top_p;
    figure_.drawn = -1;  // a draw from other odds
    emit walkChanged();
    figureChanged();
}

void AttentionDocument::setDrawn(qint64 id) {
    if (figure_.drawn == id) return;
    figure_.drawn = id;
    emit walkChanged();
    figureChanged();
}

void AttentionDocument::setTokenFocus(int token, bool to) {
    token = std::clamp(token, -1, kMaxTokens - 1);
    if (token == figure_.focus_token && to == figure_.focus_to) return;
    figure_.focus_token = token;
    figure_.focus_to = to;
    emit tokenFocusChanged(token, to);
    figureChanged();
}

void AttentionDocument::setModelThumbnails(ModelThumbnails shown) {
    if (assign(figure_.model_thumbnails, shown, this, &AttentionDocument::modelThumbnailsChanged))
        figureChanged();
}

void AttentionDocument::setLineHeads(quint64 heads) {
    if (assign(figure_.line_heads, heads, this, &AttentionDocument::lineHeadsChanged))
        figureChanged();
}

// --- comparing ------------------------------------------------------------------------

void AttentionDocument::setCompareChanges(const CompareChanges& changes) {
    if (compare_.changes == changes) return;
    compare_.changes = changes;
    compare_dirty_ = edit_dirty_ = true;
    emit compareChanged();
    schedule();
}

void AttentionDocument::setCompareHead(int head) {
    head = std::clamp(head, -1, kMaxHeads - 1);
    if (compare_.head == head) return;
    compare_.head = head;
    compare_dirty_ = true;
    emit compareChanged();
    schedule();
}

bool AttentionDocument::applyComparePreset(ComparePreset preset) {
    CompareChanges b;
    switch (preset) {
        case ComparePreset::Causal:
            setCausal(false);
            b.causal = true;
            break;
        case ComparePreset::Heads:
            if (compute_.embed_dim % 8 != 0) {
                setMessage(tr("4 vs 8 heads needs an embed_dim that 8 divides (it is %1).")
                               .arg(compute_.embed_dim));
                return false;
            }
            setNumHeads(4);
            b.num_heads = 8;
            break;
        case ComparePreset::Dropout:
            setTraining(false);
            b.training = true;
            // The class sees dropout only if p > 0; A keeps its own p (unused in evaluation).
            b.dropout = compute_.dropout > 0.0 ? compute_.dropout : 0.1;
            break;
    }
    setMessage(QString());
    setCompareChanges(b);
    // Head k of 4 heads and head k of 8 are different projections: compare the means.  Dropout
    // shows in one head (a dropped weight is 0, the others grow); the mean blurs it.
    if (preset == ComparePreset::Heads) setCompareHead(-1);
    if (preset == ComparePreset::Dropout) setCompareHead(0);
    return true;
}

void AttentionDocument::normalizeHeadsShown() {
    if (compute_.heads_shown >= compute_.num_heads) {
        compute_.heads_shown = -1;
        emit headsShownChanged(-1);
    }
}

void AttentionDocument::clampViewToData() {
    // Only the kept heads have weights to show (the mean only: head 0 stands for the mean).
    const int kept = std::max(1, viewableHeads());
    if (figure_.head >= kept) {
        figure_.head = kept - 1;
        emit viewChanged(figure_.view, figure_.head);
        figureChanged();
    }
}

// --- change notification ------------------------------------------------------------------

void AttentionDocument::setMessage(const QString& message) {
    if (message_ == message) return;
    message_ = message;
    emit validationMessageChanged(message);
}

void AttentionDocument::computeChanged(bool tokens_may_change, Change change) {
    // A clicked mask names a key position; when the tokens change it no longer means the
    // same word, so it is dropped rather than silently moved to another token.
    if (tokens_may_change && !compute_.masked_keys.empty()) {
        compute_.masked_keys.clear();
        emit maskedKeysChanged();
    }
    compute_dirty_ = true;
    edit_dirty_ = edit_dirty_ || change == Change::Edit;
    schedule();
}

void AttentionDocument::figureChanged(Change change) {
    figure_dirty_ = true;
    edit_dirty_ = edit_dirty_ || change == Change::Edit;
    schedule();
}

void AttentionDocument::schedule() {
    if (flush_scheduled_) return;
    flush_scheduled_ = true;
    QTimer::singleShot(0, this, &AttentionDocument::flush);
}

void AttentionDocument::flush() {
    flush_scheduled_ = false;
    const bool compute = compute_dirty_;
    const bool figure = figure_dirty_;
    const bool compare = compare_dirty_;
    const bool edit = edit_dirty_;
    compute_dirty_ = figure_dirty_ = compare_dirty_ = edit_dirty_ = false;
    if (edit) emit edited();  // first: what the edit starts already sees it
    if (compute) emit computeConfigChanged();
    if (figure) emit figureOptionsChanged();
    if (compute || figure || compare) emit settingsChanged();
}

void AttentionDocument::emitAll() {
    emit pairModeChanged(compute_.pair_mode);
    emit textAChanged(compute_.text_a);
    emit textBChanged(compute_.text_b);
    emit useTokenListChanged(compute_.use_token_list);
    emit tokenListAChanged(compute_.token_list_a);
    emit tokenListBChanged(compute_.token_list_b);
    emit lowercaseChanged(compute_.lowercase);
    emit specialTokensChanged(compute_.special_tokens);
    emit embedDimChanged(compute_.embed_dim);
    emit numHeadsChanged(compute_.num_heads);
    // The source and its layer too: a session or an example that opens a model must show it in
    // the Source box at once, not when its first snapshot arrives.
    emit modelFolderChanged(compute_.model_folder);
    emit layerChanged(compute_.layer);
    emit wordsChanged(compute_.words);
    emit hideSpecialChanged(compute_.hide_special);
    emit attentionShownChanged(compute_.attention);
    emit biasChanged(compute_.bias);
    emit scoringChanged(compute_.scoring);
    emit dropoutChanged(compute_.dropout);
    emit trainingChanged(compute_.training);
    emit dropoutSeedChanged(compute_.dropout_seed);
    emit weightSeedChanged(compute_.weight_seed);
    emit positionalEncodingChanged(compute_.positional_encoding);
    emit weightsFileChanged(compute_.weights_file);
    emit causalChanged(compute_.causal);
    emit maskedKeysChanged();
    emit knockedOutChanged();
    emit generatedChanged();
    emit generationSettingsChanged();
    emit maskedRowPolicyChanged(compute_.masked_rows);
    emit headsShownChanged(compute_.heads_shown);
    emit windowChanged(compute_.window_start, compute_.window_length);
    emit viewChanged(figure_.view, figure_.head);
    emit batchItemChanged(figure_.batch_item);
    emit colormapChanged(figure_.colormap);
    emit scaleModeChanged(figure_.scale);
    emit showValuesChanged(figure_.values);
    emit stepChanged(figure_.step);
    emit stepFocusChanged(figure_.focus);
    emit wholeModelChanged(figure_.whole_model);
    emit walkChanged();
    emit tokenFocusChanged(figure_.focus_token, figure_.focus_to);
    emit lineHeadsChanged(figure_.line_heads);
    emit modelThumbnailsChanged(figure_.model_thumbnails);
    emit compareChanged();
    setMessage(QString());
    compute_dirty_ = figure_dirty_ = edit_dirty_ = true;
    schedule();
}

void AttentionDocument::resetToDefaults() {
    compute_ = default_compute();
    figure_ = FigureOptions{};
    generation_ = GenerationSettings{};
    compare_ = CompareSettings{};
    emitAll();
    setCorpus(nullptr);
}

void AttentionDocument::setCorpus(std::shared_ptr<const CorpusData> corpus, bool edit) {
    if (corpus == corpus_) return;
    corpus_ = std::move(corpus);
    emit corpusChanged();
    // Not in editsJson(): undo does not take it back, but closing would lose it.
    if (!edit) return;
    edit_dirty_ = true;
    schedule();
}

// --- sessions -----------------------------------------------------------------------------

QJsonObject AttentionDocument::toJson() const {
    const ComputeConfig& c = compute_;
    QJsonObject input{{QStringLiteral("pair_mode"), pair_mode_name(c.pair_mode)},
                      {QStringLiteral("text_a"), c.text_a},
                      {QStringLiteral("text_b"), c.text_b},
                      {QStringLiteral("use_token_list"), c.use_token_list},
                      {QStringLiteral("token_list_a"), c.token_list_a},
                      {QStringLiteral("token_list_b"), c.token_list_b},
                      {QStringLiteral("lowercase"), c.lowercase},
                      {QStringLiteral("special_tokens"), c.special_tokens}};
    const QJsonObject layer = layer_json(c);
    QJsonArray keys;
    for (const auto& [item, key] : c.masked_keys)
        keys.append(QJsonArray{item, key});
    QJsonObject masks{
        {QStringLiteral("causal"), c.causal},
        {QStringLiteral("masked_keys"), keys},
        {QStringLiteral("masked_rows"), QLatin1String(masked_row_policy_name(c.masked_rows))}};
    const FigureOptions& f = figure_;
    QJsonObject figure{{QStringLiteral("view"), figure_view_name(f.view)},
                       {QStringLiteral("head"), f.head},
                       {QStringLiteral("batch_item"), f.batch_item},
                       {QStringLiteral("colormap"), colormap_name(f.colormap)},
                       {QStringLiteral("scale"), scale_mode_name(f.scale)},
                       {QStringLiteral("values"), f.values},
                       {QStringLiteral("step"), f.step},
                       {QStringLiteral("step_focus"), f.focus},
                       {QStringLiteral("focus_token"), f.focus_token},
                       {QStringLiteral("focus_to"), f.focus_to},
                       {QStringLiteral("whole_model"), f.whole_model},
                       {QStringLiteral("temperature"), f.temperature},
                       {QStringLiteral("top_k"), f.top_k},
                       {QStringLiteral("top_p"), f.top_p}};
    if (f.model_thumbnails != ModelThumbnails::WholeMax)
        figure[QStringLiteral("model_thumbnails")] = model_thumbnails_name(f.model_thumbnails);
    const auto bit_list = [](quint64 bits) {
        QJsonArray list;
        for (int k = 0; k < 64; ++k)
            if (bits >> k & 1u) list.append(k);
        return list;
    };
    if (f.open_layers != FigureOptions{}.open_layers)  // the whole model's unfolded layers
        figure[QStringLiteral("open_layers")] = bit_list(f.open_layers);
    if (f.line_heads != ~quint64(0)) figure[QStringLiteral("line_heads")] = bit_list(f.line_heads);
    // What of the result is kept (written always, read when present: older files keep all).
    const QJsonObject scope{{QStringLiteral("heads_shown"), c.heads_shown},
                            {QStringLiteral("window_start"), c.window_start},
                            {QStringLiteral("window_length"), c.window_length},
                            {QStringLiteral("layers_shown"), c.layers_shown},
                            {QStringLiteral("model_heads_shown"), c.model_heads_shown}};
    // The source (version 3): the model folder, empty for the demo layer, and its layer.
    // Knocked-out heads as [layer, head, "zero"|"mean"], from 0 (read when present).
    QJsonArray knocked;
    for (const auto& [head, how] : c.knocked_out)
        knocked.append(QJsonArray{head.first, head.second, knock_out_name(how)});
    QJsonObject source{{QStringLiteral("model_folder"), c.model_folder},
                       {QStringLiteral("layer"), c.layer},
                       {QStringLiteral("words"), c.words},
                       {QStringLiteral("hide_special"), c.hide_special},
                       {QStringLiteral("attention"), attention_shown_name(c.attention)},
                       {QStringLiteral("knocked_out"), knocked}};
    if (!c.tokens_file.isEmpty()) source[QStringLiteral("tokens_file")] = c.tokens_file;
    // The generation timeline: the model's continuation as ids, and the step shown.
    // Written even when empty: undo merges edits over the document as it is.
    QJsonArray ids;
    for (const qint64 id : c.generated)
        ids.append(double(id));
    source[QStringLiteral("generated")] = ids;
    source[QStringLiteral("timeline")] = c.timeline;
    const GenerationSettings& g = generation_;
    const QJsonObject generation{{QStringLiteral("count"), g.count},
                                 {QStringLiteral("temperature"), g.temperature},
                                 {QStringLiteral("top_k"), g.top_k},
                                 {QStringLiteral("top_p"), g.top_p},
                                 {QStringLiteral("seed"), g.seed}};
    return QJsonObject{
        {QStringLiteral("source"), source}, {QStringLiteral("generation"), generation},
        {QStringLiteral("input"), input},   {QStringLiteral("layer"), layer},
        {QStringLiteral("masks"), masks},   {QStringLiteral("scope"), scope},
        {QStringLiteral("figure"), figure}, {QStringLiteral("compare"), compare_to_json(compare_)}};
}

QJsonObject AttentionDocument::editsJson() const {
    QJsonObject json = toJson();
    // The view state edited() leaves out, as section/key.
    static const char* const kViewState[][2] = {
        {"figure", "view"},        {"figure", "head"},        {"figure", "batch_item"},
        {"figure", "step"},        {"figure", "step_focus"},  {"figure", "focus_token"},
        {"figure", "focus_to"},    {"figure", "line_heads"},  {"figure", "model_thumbnails"},
        {"figure", "whole_model"}, {"figure", "open_layers"}, {"source", "layer"},
        {"source", "timeline"},    {"compare", "head"}};
    for (const auto& [section, key] : kViewState) {
        QJsonObject o = json.value(QLatin1String(section)).toObject();
        o.remove(QLatin1String(key));
        json[QLatin1String(section)] = o;
    }
    return json;
}

namespace {
// Reads typed values, remembering the first problem with the key's path in it.
class JsonReader {
  public:
    explicit JsonReader(QString* error) : error_(error) {}
    bool ok() const { return ok_; }

    QJsonObject object(const QJsonObject& parent, const QString& key) {
        const QJsonValue v = parent.value(key);
        if (v.isUndefined()) return {};
        if (!v.isObject())
            fail(QCoreApplication::translate("Session", "'%1' is not an object").arg(key));
        return v.toObject();
    }
    void string(const QJsonObject& o, const QString& key, QString* out) {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return;
        if (!v.isString())
            return fail(QCoreApplication::translate("Session", "'%1' is not a string").arg(key));
        *out = v.toString();
    }
    void boolean(const QJsonObject& o, const QString& key, bool* out) {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return;
        if (!v.isBool())
            return fail(
                QCoreApplication::translate("Session", "'%1' is not true or false").arg(key));
        *out = v.toBool();
    }
    void integer(const QJsonObject& o, const QString& key, int lo, int hi, int* out) {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi)
            return fail(
                QCoreApplication::translate("Session", "'%1' must be a whole number from %2 to %3")
                    .arg(key)
                    .arg(lo)
                    .arg(hi));
        *out = int(d);
    }
    void number(const QJsonObject& o, const QString& key, double lo, double hi, double* out) {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !(d >= lo && d <= hi))
            return fail(
                QCoreApplication::translate("Session", "'%1' must be a number from %2 to %3")
                    .arg(key)
                    .arg(lo)
                    .arg(hi));
        *out = d;
    }
    template <typename Enum>
    void enumeration(const QJsonObject& o, const QString& key, bool (*parse)(const QString&, Enum*),
                     Enum* out) {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return;
        if (!v.isString() || !parse(v.toString(), out))
            fail(QCoreApplication::translate("Session", "'%1' has an unknown value '%2'")
                     .arg(key, v.toVariant().toString()));
    }
    void fail(const QString& message) {
        if (ok_ && error_) *error_ = message;
        ok_ = false;
    }

  private:
    QString* error_;
    bool ok_ = true;
};

bool parse_scoring(const QString& name, Scoring* out) {
    try {
        *out = scoring_from_name(name.toStdString());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

bool parse_policy(const QString& name, MaskedRowPolicy* out) {
    try {
        *out = masked_row_policy_from_name(name.toStdString());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}
// The limits a session's values are checked against.
using Doc = AttentionDocument;

/// "input": the text(s) and how they are split into tokens.
void read_input(JsonReader& r, const QJsonObject& input, ComputeConfig* c) {
    r.enumeration(input, QStringLiteral("pair_mode"), &pair_mode_from_name, &c->pair_mode);
    r.string(input, QStringLiteral("text_a"), &c->text_a);
    r.string(input, QStringLiteral("text_b"), &c->text_b);
    r.boolean(input, QStringLiteral("use_token_list"), &c->use_token_list);
    r.string(input, QStringLiteral("token_list_a"), &c->token_list_a);
    r.string(input, QStringLiteral("token_list_b"), &c->token_list_b);
    r.boolean(input, QStringLiteral("lowercase"), &c->lowercase);
    r.boolean(input, QStringLiteral("special_tokens"), &c->special_tokens);
}

/// "layer": the demo layer's shape, scoring, dropout and seeds.
void read_layer(JsonReader& r, const QJsonObject& layer, ComputeConfig* c) {
    r.integer(layer, QStringLiteral("embed_dim"), Doc::kMinEmbedDim, Doc::kMaxEmbedDim,
              &c->embed_dim);
    r.integer(layer, QStringLiteral("num_heads"), 1, Doc::kMaxHeads, &c->num_heads);
    r.boolean(layer, QStringLiteral("bias"), &c->bias);
    r.enumeration(layer, QStringLiteral("scoring"), &parse_scoring, &c->scoring);
    r.number(layer, QStringLiteral("dropout"), 0.0, Doc::kMaxDropout, &c->dropout);
    r.boolean(layer, QStringLiteral("training"), &c->training);
    r.integer(layer, QStringLiteral("dropout_seed"), 0, Doc::kMaxSeed, &c->dropout_seed);
    r.integer(layer, QStringLiteral("weight_seed"), 0, Doc::kMaxSeed, &c->weight_seed);
    r.boolean(layer, QStringLiteral("positional_encoding"), &c->positional_encoding);
    r.string(layer, QStringLiteral("weights_file"), &c->weights_file);
    if (r.ok() && c->embed_dim % c->num_heads != 0)
        r.fail(AttentionDocument::tr("num_heads %1 does not divide embed_dim %2")
                   .arg(c->num_heads)
                   .arg(c->embed_dim));
}

/// "source"'s "knocked_out": [layer, head, "zero" or "mean"] entries, a model's only.
void read_knocked_out(JsonReader& r, const QJsonObject& source, ComputeConfig* c) {
    const QJsonValue knocked = source.value(QStringLiteral("knocked_out"));
    if (knocked.isUndefined()) return;
    if (!knocked.isArray()) r.fail(AttentionDocument::tr("'knocked_out' is not a list"));
    for (const QJsonValue& k : knocked.toArray()) {
        const QJsonArray e = k.toArray();
        KnockOut how = KnockOut::Zero;
        if (e.size() != 3 || !e[0].isDouble() || !e[1].isDouble() || e[0].toInt(-1) < 0 ||
            e[0].toInt(-1) >= Doc::kMaxLayers || e[1].toInt(-1) < 0 ||
            e[1].toInt(-1) >= Doc::kMaxHeads || !knock_out_from_name(e[2].toString(), &how)) {
            r.fail(AttentionDocument::tr(
                "'knocked_out' entries must be [layer, head, \"zero\" or \"mean\"], "
                "layer and head from 0"));
            break;
        }
        c->knocked_out[{e[0].toInt(), e[1].toInt()}] = how;
    }
    if (r.ok() && !c->knocked_out.empty() && c->model_folder.isEmpty())
        r.fail(AttentionDocument::tr(
            "'knocked_out' names heads of a model, but the source is the demo layer"));
}

/// "source"'s "generated" token ids (a model's continuation) and the timeline's position.
void read_generated(JsonReader& r, const QJsonObject& source, ComputeConfig* c) {
    const QJsonValue generated = source.value(QStringLiteral("generated"));
    if (generated.isUndefined()) return;
    const QJsonArray ids = generated.toArray();
    if (!generated.isArray() || ids.size() > Doc::kMaxTokens) {
        r.fail(AttentionDocument::tr("'generated' is not a list of token ids"));
    } else {
        for (const QJsonValue& id : ids) {
            const double v = id.toDouble(-1.0);
            if (!id.isDouble() || v < 0 || v > double(Doc::kMaxSeed) || v != std::floor(v)) {
                r.fail(
                    AttentionDocument::tr("'generated' entries must be token ids, whole numbers "
                                          "from 0"));
                break;
            }
            c->generated.push_back(qint64(v));
        }
    }
    r.integer(source, QStringLiteral("timeline"), -1, Doc::kMaxTokens, &c->timeline);
    if (c->timeline >= int(c->generated.size())) c->timeline = -1;
    if (r.ok() && !c->generated.empty() && c->model_folder.isEmpty())
        r.fail(AttentionDocument::tr(
            "'generated' continues a model's text, but the source is the demo layer"));
}

/// "source": the model or maps read, its layer and how its tokens show; versions 1 and 2
/// have none (the demo layer).
void read_source(JsonReader& r, const QJsonObject& source, ComputeConfig* c) {
    r.string(source, QStringLiteral("model_folder"), &c->model_folder);
    r.string(source, QStringLiteral("tokens_file"), &c->tokens_file);  // attention maps' tokens
    r.integer(source, QStringLiteral("layer"), 0, Doc::kMaxLayers - 1, &c->layer);
    r.boolean(source, QStringLiteral("words"), &c->words);
    r.boolean(source, QStringLiteral("hide_special"), &c->hide_special);
    // "weights" or "norm"; older sessions have none: the weights.
    r.enumeration(source, QStringLiteral("attention"), &attention_shown_from_name, &c->attention);
    read_knocked_out(r, source, c);
    read_generated(r, source, c);
}

/// "generation": how the model writes its continuation.
void read_generation(JsonReader& r, const QJsonObject& generation, GenerationSettings* gen) {
    r.integer(generation, QStringLiteral("count"), 1, Doc::kMaxGenerated, &gen->count);
    r.number(generation, QStringLiteral("temperature"), 0.0, 100.0, &gen->temperature);
    r.integer(generation, QStringLiteral("top_k"), 0, Doc::kMaxTokens, &gen->top_k);
    r.number(generation, QStringLiteral("top_p"), 0.0, 1.0, &gen->top_p);
    r.integer(generation, QStringLiteral("seed"), 0, Doc::kMaxSeed, &gen->seed);
}

/// "masks": the causal mask, the fully masked rows' policy and the masked keys.
void read_masks(JsonReader& r, const QJsonObject& masks, ComputeConfig* c) {
    r.boolean(masks, QStringLiteral("causal"), &c->causal);
    r.enumeration(masks, QStringLiteral("masked_rows"), &parse_policy, &c->masked_rows);
    const QJsonValue keys = masks.value(QStringLiteral("masked_keys"));
    if (keys.isUndefined()) return;
    if (!keys.isArray()) r.fail(AttentionDocument::tr("'masked_keys' is not a list"));
    for (const QJsonValue& k : keys.toArray()) {
        const QJsonArray pair = k.toArray();
        if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble() ||
            pair[0].toInt(-1) < 0 || pair[1].toInt(-1) < 0) {
            r.fail(AttentionDocument::tr(
                "'masked_keys' entries must be [item, key] pairs of whole numbers"));
            break;
        }
        c->masked_keys.insert({pair[0].toInt(), pair[1].toInt()});
    }
}

/// "scope": the heads, layers and window the memory budget keeps.
void read_scope(JsonReader& r, const QJsonObject& scope, ComputeConfig* c) {
    r.integer(scope, QStringLiteral("heads_shown"), -1, Doc::kMaxHeads, &c->heads_shown);
    r.integer(scope, QStringLiteral("window_start"), 0, Doc::kMaxSeed, &c->window_start);
    r.integer(scope, QStringLiteral("window_length"), 0, Doc::kMaxSeed, &c->window_length);
    r.integer(scope, QStringLiteral("layers_shown"), -1, Doc::kMaxLayers, &c->layers_shown);
    if (c->layers_shown == 0) c->layers_shown = -1;
    r.integer(scope, QStringLiteral("model_heads_shown"), -1, Doc::kMaxHeads,
              &c->model_heads_shown);
    if (c->heads_shown >= c->num_heads) c->heads_shown = -1;
    if (c->window_length == 0) c->window_start = 0;
}

/// "figure": the view and how it draws, but for the bit lists (read_figure_bits).
void read_figure(JsonReader& r, const QJsonObject& figure, FigureOptions* f) {
    r.enumeration(figure, QStringLiteral("view"), &figure_view_from_name, &f->view);
    r.integer(figure, QStringLiteral("head"), 0, Doc::kMaxHeads - 1, &f->head);
    r.integer(figure, QStringLiteral("batch_item"), 0, 1, &f->batch_item);
    r.enumeration(figure, QStringLiteral("colormap"), &colormap_from_name, &f->colormap);
    r.enumeration(figure, QStringLiteral("scale"), &scale_mode_from_name, &f->scale);
    r.boolean(figure, QStringLiteral("values"), &f->values);
    r.integer(figure, QStringLiteral("step"), -1, Doc::kMaxStep, &f->step);
    r.boolean(figure, QStringLiteral("step_focus"), &f->focus);
    r.integer(figure, QStringLiteral("focus_token"), -1, Doc::kMaxTokens - 1, &f->focus_token);
    r.boolean(figure, QStringLiteral("focus_to"), &f->focus_to);
    r.boolean(figure, QStringLiteral("whole_model"), &f->whole_model);
    r.number(figure, QStringLiteral("temperature"), 0.0, Doc::kMaxTemperature, &f->temperature);
    r.integer(figure, QStringLiteral("top_k"), 0, Doc::kMaxTopK, &f->top_k);
    r.number(figure, QStringLiteral("top_p"), 0.01, 1.0, &f->top_p);
    r.enumeration(figure, QStringLiteral("model_thumbnails"), &model_thumbnails_from_name,
                  &f->model_thumbnails);
}

/// A list of bit numbers from 0 to 63 under `key` of `figure` into `out` (untouched when
/// absent); false with `error` (`bad_item` for a bad entry) when it is not such a list.
bool read_bits(const QJsonObject& figure, const char* key, const QString& bad_item, quint64* out,
               QString* error) {
    const QJsonValue list = figure.value(QLatin1String(key));
    if (list.isUndefined()) return true;
    if (!list.isArray()) {
        *error = AttentionDocument::tr("'%1' is not an array").arg(QLatin1String(key));
        return false;
    }
    *out = 0;
    for (const QJsonValue& v : list.toArray()) {
        if (!v.isDouble() || v.toInt() < 0 || v.toInt() >= 64) {
            *error = bad_item;
            return false;
        }
        *out |= quint64(1) << v.toInt();
    }
    return true;
}

/// Heads (lines) and layers (the whole model) as lists of bit numbers, from 0.
bool read_figure_bits(const QJsonObject& figure, FigureOptions* f, QString* error) {
    return read_bits(figure, "line_heads",
                     AttentionDocument::tr("'line_heads' must list head numbers from 0 to 63"),
                     &f->line_heads, error) &&
           read_bits(figure, "open_layers",
                     AttentionDocument::tr("'open_layers' must list layer numbers from 0 to 63"),
                     &f->open_layers, error);
}

/// "compare": sessions written before the Compare view (version 1) have none: no comparison.
bool read_compare(const QJsonObject& json, CompareSettings* compare, QString* error) {
    const QJsonValue compare_json = json.value(QStringLiteral("compare"));
    if (compare_json.isUndefined()) return true;
    if (!compare_json.isObject()) {
        *error = QCoreApplication::translate("Session", "'%1' is not an object")
                     .arg(QStringLiteral("compare"));
        return false;
    }
    return compare_from_json(compare_json.toObject(), compare, error);
}
}  // namespace

bool AttentionDocument::fromJson(const QJsonObject& json, QString* error) {
    JsonReader r(error);
    ComputeConfig c = default_compute();
    FigureOptions f;
    GenerationSettings gen;
    read_input(r, r.object(json, QStringLiteral("input")), &c);
    read_layer(r, r.object(json, QStringLiteral("layer")), &c);
    read_source(r, r.object(json, QStringLiteral("source")), &c);
    read_generation(r, r.object(json, QStringLiteral("generation")), &gen);
    read_masks(r, r.object(json, QStringLiteral("masks")), &c);
    read_scope(r, r.object(json, QStringLiteral("scope")), &c);
    const QJsonObject figure = r.object(json, QStringLiteral("figure"));
    read_figure(r, figure, &f);
    if (!r.ok() || !read_figure_bits(figure, &f, error)) return false;
    CompareSettings compare;
    if (!read_compare(json, &compare, error)) return false;

    // A model's heads are known once it is open; the views clamp the head then.
    if (!c.usesModel())
        f.head = std::min(f.head, std::max(1, c.scope().kept_heads(c.num_heads)) - 1);
    if (c.pair_mode != PairMode::PaddedBatch) f.batch_item = 0;
    compute_ = c;
    figure_ = f;
    generation_ = gen;
    compare_ = compare;
    emitAll();
    return true;
}

QStringList changed_json_keys(const QJsonObject& a, const QJsonObject& b) {
    QStringList keys;
    QStringList sections = a.keys() + b.keys();
    sections.removeDuplicates();
    for (const QString& section : sections) {
        const QJsonValue va = a.value(section), vb = b.value(section);
        if (va == vb) continue;
        if (!va.isObject() || !vb.isObject()) {
            keys << section;
            continue;
        }
        const QJsonObject oa = va.toObject(), ob = vb.toObject();
        QStringList names = oa.keys() + ob.keys();
        names.removeDuplicates();
        for (const QString& name : names)
            if (oa.value(name) != ob.value(name)) keys << section + QLatin1Char('/') + name;
    }
    return keys;
}

}  // namespace attnviz::ui
