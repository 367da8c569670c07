// The AttentionDocument owns every piece of state the user can change: the inputs, the
// layer's settings, the masks and how the figure is drawn.  It holds no widget: panels show
// it and write to it, the compute worker runs on a copy of computeConfig(), the renderer
// draws with figureOptions().  Each property has its own change signal; the coalesced
// computeConfigChanged / figureOptionsChanged / settingsChanged fire once per event-loop turn
// however many properties changed in it.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

#include "ui/document/attention_config.h"
#include "ui/document/compare_config.h"

namespace attnviz::ui {

struct CorpusData;

class AttentionDocument : public QObject {
    Q_OBJECT
  public:
    static constexpr int kMinEmbedDim = 1;
    static constexpr int kMaxEmbedDim = 4096;
    static constexpr int kMaxHeads = 64;
    static constexpr int kMaxSeed = 2147483647;
    static constexpr int kMaxLayers = 1024;
    static constexpr double kMaxDropout = 0.95;
    static constexpr int kMaxStep = 12;             ///< the last of at most 13 computation stages
    static constexpr double kMaxTemperature = 5.0;  ///< the whole-model view's sampling
    static constexpr int kMaxTopK = 1000;
    static constexpr int kMaxTokens = 1 << 20;  ///< a token index a session may name
    static constexpr int kMaxGenerated = 4096;  ///< tokens one Continue may ask for

    explicit AttentionDocument(QObject* parent = nullptr);

    const ComputeConfig& computeConfig() const { return compute_; }
    const FigureOptions& figureOptions() const { return figure_; }

    /// The demo the window opens with, so the first launch already shows heatmaps.
    static QString demoSentence();
    static QString demoSecondSentence();

    // --- inputs ---
    PairMode pairMode() const { return compute_.pair_mode; }
    void setPairMode(PairMode mode);
    QString textA() const { return compute_.text_a; }
    void setTextA(const QString& text);
    QString textB() const { return compute_.text_b; }
    void setTextB(const QString& text);
    bool useTokenList() const { return compute_.use_token_list; }
    void setUseTokenList(bool on);
    QString tokenListA() const { return compute_.token_list_a; }
    void setTokenListA(const QString& list);
    QString tokenListB() const { return compute_.token_list_b; }
    void setTokenListB(const QString& list);
    bool lowercase() const { return compute_.lowercase; }
    void setLowercase(bool on);
    bool specialTokens() const { return compute_.special_tokens; }
    void setSpecialTokens(bool on);
    /// How the document tells whether an edit of a text changed its tokens (a changed token
    /// drops the masks clicked on keys).  The window sets ui/compute's resolve_tokens; without
    /// one, every edit of a model's text counts as changing its tokens.
    using TokenResolver = std::function<TokenSequences(const ComputeConfig&)>;
    void setTokenResolver(TokenResolver resolver) { token_resolver_ = std::move(resolver); }

    // --- the layer ---
    int embedDim() const { return compute_.embed_dim; }
    /// Also adjusts the head count to the largest divisor not above it, with a message.
    bool setEmbedDim(int embed_dim);
    int numHeads() const { return compute_.num_heads; }
    /// The heads the views show one by one: a model's kept heads (setModelHeads(), once its
    /// first result is in; until then any head), else the demo layer's kept heads (0: the
    /// mean only).
    int viewableHeads() const;
    /// The open model's kept heads (ModelMaps::heads_kept), from its latest result (the window
    /// calls it).
    void setModelHeads(int heads);
    /// What of a model's maps is kept, the memory budget's offers: its first `layers` layers
    /// (-1: every layer), and per-head maps of the first `heads` heads of each (-1: every
    /// head, 0: the means only).
    void setModelScope(int layers, int heads);
    int layersShown() const { return compute_.layers_shown; }
    int modelHeadsShown() const { return compute_.model_heads_shown; }
    /// Refused (returns false, message set) unless num_heads divides embed_dim.
    bool setNumHeads(int num_heads);
    /// Head counts that divide embed_dim (up to kMaxHeads).
    static QList<int> validHeadCounts(int embed_dim);
    bool bias() const { return compute_.bias; }
    void setBias(bool on);
    Scoring scoring() const { return compute_.scoring; }
    void setScoring(Scoring scoring);
    double dropout() const { return compute_.dropout; }
    void setDropout(double p);
    bool training() const { return compute_.training; }
    void setTraining(bool on);
    int dropoutSeed() const { return compute_.dropout_seed; }
    void setDropoutSeed(int seed);
    /// A fresh dropout sample: the next seed.
    void resampleDropout();
    int weightSeed() const { return compute_.weight_seed; }
    void setWeightSeed(int seed);
    bool positionalEncoding() const { return compute_.positional_encoding; }
    void setPositionalEncoding(bool on);
    QString weightsFile() const { return compute_.weights_file; }
    void setWeightsFile(const QString& path);
    /// The source: a model folder (already opened by the window), or empty for the demo
    /// layer.  The layer is kept when it exists in the new model (the views clamp it).
    void setModelFolder(const QString& folder);
    /// Attention maps read from a file as the source (ComputeConfig::usesMaps()), with their
    /// tokens file (empty: tokens.json beside the maps).
    void setAttentionMaps(const QString& file, const QString& tokens);
    /// The model's layer the views show (0-based).
    void setLayer(int layer);
    /// The model's heads knocked out of its pass (ComputeConfig::knocked_out).
    const std::map<ModelHead, KnockOut>& knockedOut() const { return compute_.knocked_out; }
    bool isKnockedOut(int layer, int head) const;
    /// Knocks (layer, head) out, or changes how it is (both from 0).
    void knockOut(int layer, int head, KnockOut how);
    /// Puts a knocked-out head back.
    void restoreHead(int layer, int head);
    void restoreAllHeads();
    void setKnockedOut(const std::map<ModelHead, KnockOut>& heads);
    /// The generation timeline (ComputeConfig::generated, timeline): the model's continuation
    /// of the text, token by token.  Appending follows the newest token (timeline -1).
    const std::vector<qint64>& generated() const { return compute_.generated; }
    void appendGenerated(qint64 id);
    void setGenerated(const std::vector<qint64>& ids);
    /// The continuation dropped; the text as it was.
    void discardGenerated() { setGenerated({}); }
    /// The continuation made part of the sentence: `text` (the text and the continuation
    /// decoded) becomes text_a, and the generated ids are cleared.
    void keepGenerated(const QString& text);
    /// How many generated tokens the views show (-1: all); view state, like the layer.
    int timeline() const { return compute_.timeline; }
    void setTimeline(int step);
    const GenerationSettings& generationSettings() const { return generation_; }
    void setGenerationSettings(const GenerationSettings& settings);

    /// A model's tokens as words and characters instead of pieces.
    bool words() const { return compute_.words; }
    void setWords(bool on);
    /// A model's special tokens ([CLS], [SEP], BOS) left out, rows renormalised.
    bool hideSpecial() const { return compute_.hide_special; }
    void setHideSpecial(bool on);
    /// What the map views show: the weights or the norm-based maps (ComputeConfig::attention).
    AttentionShown attentionShown() const { return compute_.attention; }
    void setAttentionShown(AttentionShown shown);

    // --- masks ---
    bool causal() const { return compute_.causal; }
    void setCausal(bool on);
    const std::set<MaskedKey>& maskedKeys() const { return compute_.masked_keys; }
    bool isKeyMasked(int item, int key) const;
    void toggleMaskedKey(int item, int key);
    void setMaskedKeys(const std::set<MaskedKey>& keys);
    void clearMaskedKeys();
    MaskedRowPolicy maskedRowPolicy() const { return compute_.masked_rows; }
    void setMaskedRowPolicy(MaskedRowPolicy policy);

    // --- what of the result is kept (the memory budget's offers) ---
    /// Per-head weights of the first k heads (-1: every head, 0: the mean only); k at or
    /// above the head count means every head.
    int headsShown() const { return compute_.heads_shown; }
    void setHeadsShown(int k);
    /// A window of `length` tokens from `start` (0-based); length 0: every token.
    int windowStart() const { return compute_.window_start; }
    int windowLength() const { return compute_.window_length; }
    void setWindow(int start, int length);
    /// Every head and every token again.
    void showEverything();

    // --- the figure ---
    FigureView view() const { return figure_.view; }
    int viewHead() const { return figure_.head; }
    void setView(FigureView view, int head = 0);
    int batchItem() const { return figure_.batch_item; }
    void setBatchItem(int item);
    Colormap colormap() const { return figure_.colormap; }
    void setColormap(Colormap map);
    ScaleMode scaleMode() const { return figure_.scale; }
    void setScaleMode(ScaleMode mode);
    bool showValues() const { return figure_.values; }
    void setShowValues(bool on);
    /// The computation steps: the current stage (-1: every stage at once) and whether only
    /// it and its inputs are shown.
    int step() const { return figure_.step; }
    void setStep(int step);
    bool stepFocus() const { return figure_.focus; }
    void setStepFocus(bool on);
    /// The steps view with a model: the whole model at the token in focus instead of one
    /// layer, which layers are unfolded, how the next token is sampled (temperature 0:
    /// greedy; top-k 0: all) and the token the last draw picked (-1: none).
    bool wholeModel() const { return figure_.whole_model; }
    void setWholeModel(bool on);
    void setOpenLayers(quint64 layers);
    void setSampling(double temperature, int top_k, double top_p);
    void setDrawn(qint64 id);
    /// The model view's token focus (FigureOptions::focus_token, focus_to); −1: off.
    int focusToken() const { return figure_.focus_token; }
    bool focusTo() const { return figure_.focus_to; }
    void setTokenFocus(int token, bool to);
    ModelThumbnails modelThumbnails() const { return figure_.model_thumbnails; }
    /// The Model tab's mosaic when only some maps are kept: the whole text pooled, or the kept.
    void setModelThumbnails(ModelThumbnails shown);
    /// The head view: which heads draw their lines (bit h = head h).
    quint64 lineHeads() const { return figure_.line_heads; }
    void setLineHeads(quint64 heads);

    // --- comparing: configuration B = A with a few changes (the Compare view) ---
    const CompareSettings& compare() const { return compare_; }
    void setCompareChanges(const CompareChanges& changes);
    /// -1: the mean over heads; k: head k (0-based) of both configurations.
    void setCompareHead(int head);
    /// A one-click comparison: sets A's side (no causal mask, 4 heads, evaluation mode) and
    /// B's (causal mask, 8 heads, dropout with the same seed); other changes of B are
    /// dropped.  False, with a validation message, when this layer cannot have it.
    bool applyComparePreset(ComparePreset preset);

    /// The last inline validation message ("6 heads do not divide embed_dim 64"), or empty.
    QString validationMessage() const { return message_; }

    // --- sessions: the document writes and reads itself ---
    QJsonObject toJson() const;
    /// toJson() without the view state (see edited()): equal for two documents that differ
    /// only in where the user looks.
    QJsonObject editsJson() const;
    /// Validates everything before changing anything; on error returns false with a message
    /// and leaves the document untouched.
    bool fromJson(const QJsonObject& json, QString* error);
    void resetToDefaults();

    // --- heads across a corpus (File ▸ Open Corpus…): a result, not an edit of the input ---
    /// The last corpus measured (ui/document/corpus_data.h), or null.  Saved with a session;
    /// undo leaves it, a new session drops it.
    const std::shared_ptr<const CorpusData>& corpus() const { return corpus_; }
    /// Replaces it (null: none); with `edit` the session has unsaved changes (not for what an
    /// example measures as it opens).
    void setCorpus(std::shared_ptr<const CorpusData> corpus, bool edit = true);

  signals:
    void pairModeChanged(attnviz::ui::PairMode mode);
    void textAChanged(const QString& text);
    void textBChanged(const QString& text);
    void useTokenListChanged(bool on);
    void tokenListAChanged(const QString& list);
    void tokenListBChanged(const QString& list);
    void lowercaseChanged(bool on);
    void specialTokensChanged(bool on);
    void embedDimChanged(int embed_dim);
    void numHeadsChanged(int num_heads);
    void biasChanged(bool on);
    void scoringChanged(attnviz::Scoring scoring);
    void dropoutChanged(double p);
    void trainingChanged(bool on);
    void dropoutSeedChanged(int seed);
    void weightSeedChanged(int seed);
    void positionalEncodingChanged(bool on);
    void weightsFileChanged(const QString& path);
    void modelFolderChanged(const QString& folder);
    void layerChanged(int layer);
    void wordsChanged(bool on);
    void hideSpecialChanged(bool on);
    void attentionShownChanged(attnviz::ui::AttentionShown shown);
    void causalChanged(bool on);
    void maskedKeysChanged();
    void knockedOutChanged();
    /// The generated ids or the timeline's step changed.
    void generatedChanged();
    void generationSettingsChanged();
    void maskedRowPolicyChanged(attnviz::MaskedRowPolicy policy);
    void headsShownChanged(int heads_shown);
    void windowChanged(int start, int length);
    void viewChanged(attnviz::ui::FigureView view, int head);
    void batchItemChanged(int item);
    void colormapChanged(attnviz::ui::Colormap map);
    void scaleModeChanged(attnviz::ui::ScaleMode mode);
    void showValuesChanged(bool on);
    void stepChanged(int step);
    void stepFocusChanged(bool on);
    void wholeModelChanged(bool on);
    /// Folded layers, sampling or the draw of the whole-model view.
    void walkChanged();
    void tokenFocusChanged(int token, bool to);
    void modelThumbnailsChanged(ModelThumbnails shown);
    void lineHeadsChanged(quint64 heads);
    /// The comparison's changes or head (not coalesced; settingsChanged follows).
    void compareChanged();
    void validationMessageChanged(const QString& message);
    void corpusChanged();

    /// Coalesced: the engine inputs changed (once per event-loop turn).
    void computeConfigChanged();
    /// Coalesced: only how the figure is drawn changed.
    void figureOptionsChanged();
    /// Coalesced: anything changed (for autosave).
    void settingsChanged();
    /// Coalesced: the user's own input changed, not only where they look.  View state (the
    /// view and head, the model's layer, the step, the token focus, the heads drawing lines,
    /// the padded item and the compared head) is saved with a session but is no edit: looking
    /// around does not make a session unsaved.  Emitted first in its event-loop turn.
    void edited();

  private:
    /// An edit of the user's input, or a change of view state only (see edited()).
    enum class Change { Edit, View };
    void computeChanged(bool tokens_may_change = false, Change change = Change::Edit);
    /// Whether text A (b: text B) has other tokens under `after` than under `before`.
    bool tokensDiffer(const ComputeConfig& before, const ComputeConfig& after, bool b) const;
    void figureChanged(Change change = Change::View);
    void schedule();
    void flush();
    void setMessage(const QString& message);
    /// Clears the generated ids (the text, the model or the pair mode changed).
    void dropGenerated();
    void normalizeHeadsShown();
    void clampViewToData();
    void emitAll();

    ComputeConfig compute_;
    TokenResolver token_resolver_;

    int model_heads_ = -1;  ///< setModelHeads(); -1: not known yet
    FigureOptions figure_;
    GenerationSettings generation_;
    CompareSettings compare_;
    QString message_;
    std::shared_ptr<const CorpusData> corpus_;
    bool compute_dirty_ = false;
    bool figure_dirty_ = false;
    bool compare_dirty_ = false;
    bool edit_dirty_ = false;
    bool flush_scheduled_ = false;
};

/// "section/key" of every value that differs between two editsJson() objects (a section
/// whole where either side's is not an object).
QStringList changed_json_keys(const QJsonObject& a, const QJsonObject& b);

}  // namespace attnviz::ui
