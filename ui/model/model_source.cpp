#include "ui/model/model_source.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QToolBar>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "engine/errors.h"

#include "engine/io/attention_arrays.h"
#include "engine/models/local_models.h"
#include "ui/classroom/compare_model.h"
#include "ui/compute/error_text.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/settings/app_settings.h"

namespace attnviz::ui {

namespace {
/// Maps whose values (NaN, row sums) are checked when they are chosen: read in a blink.  Bigger
/// ones are read on the compute thread, whose errors the views show.
constexpr std::uint64_t kCheckedAtOnce = std::uint64_t(64) << 20;
}  // namespace

ModelSource::ModelSource(AttentionDocument* document, AppSettings* settings, QWidget* window)
    : QObject(window), doc_(document), settings_(settings), window_(window) {
    open_act_ = new QAction(this);
    open_act_->setObjectName(QStringLiteral("openModelAction"));
    open_act_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(open_act_, &QAction::triggered, this, &ModelSource::openDialog);
    maps_act_ = new QAction(this);
    maps_act_->setObjectName(QStringLiteral("openMapsAction"));
    connect(maps_act_, &QAction::triggered, this, &ModelSource::openMapsDialog);
    compare_maps_act_ = new QAction(this);
    compare_maps_act_->setObjectName(QStringLiteral("compareMapsAction"));
    compare_maps_act_->setEnabled(false);  // until maps are open
    connect(compare_maps_act_, &QAction::triggered, this, &ModelSource::compareMapsDialog);
    recent_menu_ = new QMenu(window);
    recent_menu_->setObjectName(QStringLiteral("recentModelsMenu"));
    local_menu_ = new QMenu(window);
    local_menu_->setObjectName(QStringLiteral("localModelsMenu"));
    // Listed when it opens: the folders are walked then, not at every start.
    connect(local_menu_, &QMenu::aboutToShow, this, &ModelSource::updateLocalMenu);

    info_ = new QLabel(window);
    info_->setObjectName(QStringLiteral("modelInfo"));
    info_->setWordWrap(true);
    info_->setTextFormat(Qt::RichText);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setContentsMargins(8, 6, 8, 6);
    info_->setStyleSheet(QStringLiteral(
        "#modelInfo { background: #eef5fb; border: 1px solid #c6dbef; border-radius: 4px; }"));
    info_->hide();

    progress_ = new QWidget(window);
    progress_->setObjectName(QStringLiteral("modelLoadProgress"));
    auto* pl = new QHBoxLayout(progress_);
    pl->setContentsMargins(0, 0, 0, 0);
    progress_label_ = new QLabel(progress_);
    cancel_button_ = new QPushButton(progress_);
    cancel_button_->setObjectName(QStringLiteral("cancelModelLoad"));
    pl->addWidget(progress_label_);
    pl->addWidget(cancel_button_);
    connect(cancel_button_, &QPushButton::clicked, this, &ModelSource::cancel);
    progress_->hide();

    // A later choice wins: the document moving to another source (a session, an example, the
    // demo layer) drops a load still under way, whose result would otherwise replace it.
    connect(doc_, &AttentionDocument::modelFolderChanged, this, [this](const QString& folder) {
        if (isLoading() && QFileInfo(folder).absoluteFilePath() != loading_folder_) cancel();
        sync();
    });
    connect(doc_, &AttentionDocument::layerChanged, this, &ModelSource::sync);
    connect(doc_, &AttentionDocument::wordsChanged, this, &ModelSource::sync);
    connect(doc_, &AttentionDocument::hideSpecialChanged, this, &ModelSource::sync);
    window_->installEventFilter(this);
    retranslate();
    updateRecentMenu();
}

// Whatever a load finds after this is dropped (loader_); it is not waited for.
ModelSource::~ModelSource() = default;

void ModelSource::retranslate() {
    open_act_->setText(tr("Open &Model…"));
    open_act_->setStatusTip(
        tr("Open a GGUF file, or a Hugging Face model folder (config.json, "
           "model.safetensors, tokenizer.json)"));
    maps_act_->setText(tr("Open &Attention Maps…"));
    maps_act_->setStatusTip(
        tr("Open attention maps computed elsewhere (.npy or .safetensors, [layers, heads, L, L]) "
           "and their tokens (.json)"));
    compare_maps_act_->setText(tr("Com&pare With Attention Maps…"));
    compare_maps_act_->setStatusTip(
        tr("Compare the attention maps open with another file of the same shape, e.g. another "
           "checkpoint on the same text: A, B and B − A in the Compare view"));
    recent_menu_->setTitle(tr("Recent Mo&dels"));
    local_menu_->setTitle(tr("Models on This &Computer"));
    cancel_button_->setText(tr("Cancel"));
    if (source_combo_) {
        source_combo_->setItemText(0, tr("Demo layer"));
        source_combo_->setToolTip(tr("The demo layer (every control) or a trained model"));
        layer_spin_->setToolTip(tr("The model's layer the views show (Model tab: all of them)"));
        // "Layer 2", "第 2 层": the number sits inside the phrase in some languages.
        const QString layer = tr("Layer %1");
        const qsizetype at = layer.indexOf(QLatin1String("%1"));
        layer_spin_->setPrefix(layer.left(at));
        layer_spin_->setSuffix(at < 0 ? QString() : layer.mid(at + 2));
        words_box_->setText(tr("Words"));
        words_box_->setToolTip(
            tr("Group the model's pieces into words and characters: a word's attention is "
               "summed over its key pieces and averaged over its query pieces"));
        hide_special_box_->setText(tr("Hide special tokens"));
        hide_special_box_->setToolTip(
            tr("Leave out [CLS], [SEP], BOS and the like, and rescale every row to sum to 1 "
               "over the tokens left"));
    }
    updateRecentMenu();
}

bool ModelSource::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::LanguageChange) retranslate();
    return QObject::eventFilter(watched, event);
}

void ModelSource::addToToolBar(QToolBar* bar) {
    source_combo_ = new QComboBox(bar);
    source_combo_->setObjectName(QStringLiteral("sourceCombo"));
    source_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    source_combo_->addItem(QString(), QString());
    bar->addWidget(source_combo_);
    connect(source_combo_, &QComboBox::activated, this, [this] {
        const QString folder = source_combo_->currentData().toString();
        if (is_attention_maps_path(folder)) {
            openMaps(folder, maps_tokens_);
        } else if (folder.isEmpty() || find_model(folder)) {
            cancel();  // a model still opening from an earlier pick must not replace this one
            doc_->setModelFolder(folder);
        } else {
            load(folder);
        }
        sync();
    });
    layer_spin_ = new QSpinBox(bar);
    layer_spin_->setObjectName(QStringLiteral("layerSpin"));
    layer_spin_->setRange(0, 0);
    layer_spin_->setKeyboardTracking(false);
    bar->addWidget(layer_spin_);
    // Shown from 1, as heads are; the document counts from 0.
    connect(layer_spin_, &QSpinBox::valueChanged, doc_,
            [this](int shown) { doc_->setLayer(shown - 1); });
    words_box_ = new QCheckBox(bar);
    words_box_->setObjectName(QStringLiteral("wordsCheck"));
    bar->addWidget(words_box_);
    connect(words_box_, &QCheckBox::toggled, doc_, &AttentionDocument::setWords);
    hide_special_box_ = new QCheckBox(bar);
    hide_special_box_->setObjectName(QStringLiteral("hideSpecialCheck"));
    bar->addWidget(hide_special_box_);
    connect(hide_special_box_, &QCheckBox::toggled, doc_, &AttentionDocument::setHideSpecial);
    retranslate();
    sync();
}

void ModelSource::openDialog() {
    const QString start = doc_->computeConfig().usesModel()
                              ? QFileInfo(doc_->computeConfig().model_folder).absolutePath()
                              : QDir::homePath();
    // One dialog for both kinds: a GGUF file, or a Hugging Face folder picked by its
    // config.json (a folder dialog cannot show .gguf files, a file dialog cannot pick folders).
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Open a Model: a .gguf file, or a model folder's config.json"), start,
        tr("Models (*.gguf config.json);;GGUF files (*.gguf);;Hugging Face folders "
           "(config.json);;All files (*)"));
    if (!path.isEmpty()) load(model_path_of(path));
}

QString model_path_of(const QString& picked) {
    const QFileInfo info(picked);
    return info.isFile() && info.fileName() == QLatin1String("config.json") ? info.absolutePath()
                                                                            : picked;
}

bool ModelSource::chooseMaps(const QString& title, QString* file, QString* tokens) {
    const ComputeConfig& c = doc_->computeConfig();
    const QString start =
        c.usesModel() ? QFileInfo(c.model_folder).absolutePath() : QDir::homePath();
    *file = QFileDialog::getOpenFileName(window_, title, start,
                                         tr("Attention maps (*.npy *.safetensors);;All files (*)"));
    if (file->isEmpty()) return false;
    tokens->clear();
    if (io::tokens_beside(QFile::encodeName(*file).toStdString()).empty()) {
        *tokens = QFileDialog::getOpenFileName(
            window_, tr("Open the Tokens of %1").arg(QFileInfo(*file).fileName()),
            QFileInfo(*file).absolutePath(), tr("Tokens (*.json);;All files (*)"));
        if (tokens->isEmpty()) return false;
    }
    return true;
}

void ModelSource::openMapsDialog() {
    QString file, tokens;
    if (chooseMaps(tr("Open Attention Maps"), &file, &tokens)) openMaps(file, tokens);
}

void ModelSource::compareMapsDialog() {
    QString file, tokens;
    if (chooseMaps(tr("Compare With Attention Maps"), &file, &tokens)) compareMaps(file, tokens);
}

bool ModelSource::compareMaps(const QString& file, const QString& tokens) {
    const ComputeConfig& a = doc_->computeConfig();
    CompareChanges changes = doc_->compare().changes;
    changes.maps = QFileInfo(file).absoluteFilePath();
    changes.maps_tokens.reset();
    if (!tokens.isEmpty()) changes.maps_tokens = QFileInfo(tokens).absoluteFilePath();
    try {
        if (!a.usesMaps())
            throw DataError(
                tr("no attention maps are open to compare them with: open A's first with File ▸ "
                   "Open Attention Maps…")
                    .toStdString());
        // Their values (NaN) at once when they are read in a blink, as openMaps does; the
        // shapes and the tokens against A's always.
        const io::AttentionArrays arrays =
            io::AttentionArrays::open(QFile::encodeName(*changes.maps).toStdString());
        check_compared_maps(a, compared_config(a, changes));
        if (std::uint64_t(arrays.layers()) * arrays.layer_values() <= kCheckedAtOnce)
            io::validate_attention_arrays(arrays);
    } catch (const std::exception& e) {
        emit failed(
            tr("Cannot Compare the Attention Maps"),
            tr("%1 cannot be compared with the maps open: %2")
                .arg(QDir::toNativeSeparators(QFileInfo(file).absoluteFilePath()), error_text(e)));
        return false;
    }
    doc_->setCompareChanges(changes);
    emit comparedMapsOpened();
    return true;
}

bool ModelSource::openMaps(const QString& file, const QString& tokens) {
    const QString path = QFileInfo(file).absoluteFilePath();
    try {
        // The headers and the tokens, then the values (NaN) of files read in a blink; bigger
        // ones are read on the compute thread, whose errors the heatmaps show.
        const io::AttentionArrays arrays =
            io::AttentionArrays::open(QFile::encodeName(path).toStdString());
        std::string tokens_path = QFile::encodeName(tokens).toStdString();
        if (tokens_path.empty()) tokens_path = io::tokens_beside(arrays.path());
        if (tokens_path.empty())
            throw DataError(
                tr("there is no tokens.json beside it: choose its tokens file").toStdString());
        io::check_tokens(arrays, io::read_attention_tokens(tokens_path), tokens_path);
        if (std::uint64_t(arrays.layers()) * arrays.layer_values() <= kCheckedAtOnce)
            io::validate_attention_arrays(arrays);  // the rows' warning comes with the result
    } catch (const std::exception& e) {
        emit failed(
            tr("Cannot Open the Attention Maps"),
            tr("%1 could not be opened: %2").arg(QDir::toNativeSeparators(path), error_text(e)));
        return false;
    }
    cancel();
    maps_tokens_ = tokens.isEmpty() ? QString() : QFileInfo(tokens).absoluteFilePath();
    opener_([&] {
        // Another file's tokens may not group: its pieces first, as they are.
        doc_->setWords(false);
        doc_->setHideSpecial(false);
        doc_->setAttentionMaps(path, maps_tokens_);
    });
    sync();
    return true;
}

void ModelSource::load(const QString& folder) {
    if (is_attention_maps_path(folder)) {  // a drop, the command line: maps, not a model
        openMaps(folder, QString());
        return;
    }
    if (ModelPtr m = find_model(folder)) {  // already open: no thread, no wait
        loader_.drop();                     // a load under way is of no use now
        finish(folder, std::move(m), QString());
        return;
    }
    loading_folder_ = QFileInfo(folder).absoluteFilePath();
    progress_label_->setText(tr("Opening %1…").arg(QFileInfo(folder).fileName()));
    progress_->show();
    // A load under way is abandoned, not waited for: its result is dropped.
    loader_.start(
        [folder](const JobControl&) {
            try {
                return open_model(folder);
            } catch (const std::exception&) {
                throw;
            } catch (...) {  // said as a reading error, not a computation's
                throw std::runtime_error(
                    tr("an unexpected error stopped the reading").toStdString());
            }
        },
        {.finished = [this, folder](ModelPtr model) { finish(folder, std::move(model), {}); },
         .failed = [this, folder](const QString& error) { finish(folder, nullptr, error); }});
}

void ModelSource::cancel() {
    if (!isLoading()) return;
    loader_.drop();
    progress_->hide();
    emit loadFinished(false);
}

void ModelSource::finish(const QString& folder, ModelPtr model, const QString& error) {
    progress_->hide();
    if (!model) {
        settings_->removeRecent(AppSettings::RecentKind::Models, folder);
        updateRecentMenu();
        emit failed(tr("Cannot Open the Model"),
                    tr("%1 could not be opened: %2").arg(QDir::toNativeSeparators(folder), error));
        emit loadFinished(false);
        return;
    }
    last_model_ = QFileInfo(folder).absoluteFilePath();
    settings_->addRecent(AppSettings::RecentKind::Models, last_model_);
    updateRecentMenu();
    opener_([&] { doc_->setModelFolder(last_model_); });
    sync();
    emit loadFinished(true);
}

void ModelSource::updateRecentMenu() {
    recent_menu_->clear();
    const QStringList folders = settings_->recentList(AppSettings::RecentKind::Models);
    for (const QString& folder : folders) {
        QAction* a = recent_menu_->addAction(QFileInfo(folder).fileName());
        a->setToolTip(QDir::toNativeSeparators(folder));
        connect(a, &QAction::triggered, this, [this, folder] { load(folder); });
    }
    if (!folders.isEmpty()) {
        recent_menu_->addSeparator();
        recent_menu_->addAction(tr("Clear List"), this, [this] {
            settings_->clearRecent(AppSettings::RecentKind::Models);
            updateRecentMenu();
        });
    }
    recent_menu_->setEnabled(!folders.isEmpty());
}

void ModelSource::updateLocalMenu() {
    local_menu_->clear();
    const auto found = models::find_local_models(QDir::homePath().toStdString());
    for (const models::LocalModel& m : found) {
        const QString path = QString::fromStdString(m.path);
        QAction* a = local_menu_->addAction(
            tr("%1 · %2").arg(QString::fromStdString(m.runner), QString::fromStdString(m.name)));
        a->setToolTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { load(path); });
    }
    if (found.empty())
        local_menu_->addAction(tr("No ollama or LM Studio models in their default folders"))
            ->setEnabled(false);
}

void ModelSource::sync() {
    const ComputeConfig& c = doc_->computeConfig();
    compare_maps_act_->setEnabled(c.usesMaps());
    if (c.usesModel()) last_model_ = c.model_folder;
    if (source_combo_) {
        const QSignalBlocker block(source_combo_);
        while (source_combo_->count() > 1)
            source_combo_->removeItem(1);
        // The shipped models are always one click away, as is the demo layer; then the model
        // opened last, if it is another.
        QStringList folders = shipped_model_folders();
        const QString last = QFileInfo(last_model_).absoluteFilePath();
        if (!last_model_.isEmpty() && !folders.contains(last)) folders << last;
        for (const QString& folder : folders) {
            const bool shipped = is_shipped_model(folder);
            const ModelPtr m = shipped ? nullptr : find_model(folder);
            const QString name = m ? model_display_name(*m) : QFileInfo(folder).fileName();
            source_combo_->addItem(shipped ? tr("%1 (trained, built in)").arg(name) : name, folder);
            source_combo_->setItemData(source_combo_->count() - 1, QDir::toNativeSeparators(folder),
                                       Qt::ToolTipRole);
        }
        const int current =
            c.usesModel() ? source_combo_->findData(QFileInfo(c.model_folder).absoluteFilePath())
                          : 0;
        source_combo_->setCurrentIndex(std::max(0, current));
        const ModelPtr m = c.usesModel() ? find_model(c.model_folder) : nullptr;
        const QSignalBlocker block_layer(layer_spin_);
        const bool maps = c.usesMaps() && maps_;
        layer_spin_->setEnabled(m != nullptr || maps);
        // The memory budget may keep only the first layers.
        const int layers = m ? int(m->model->info().num_layers) : maps ? maps_->total_layers : 1;
        layer_spin_->setRange(1, c.layers_shown > 0 ? std::min(layers, c.layers_shown) : layers);
        layer_spin_->setValue(c.layer + 1);
        // Maps from a file group into words when their tokens have offsets into an input,
        // and hide special tokens when they are marked.
        for (auto [box, on, can] :
             {std::tuple{words_box_, c.words, maps && maps_words_},
              std::tuple{hide_special_box_, c.hide_special, maps && maps_special_}}) {
            const QSignalBlocker block_box(box);
            box->setEnabled(m != nullptr || can);
            box->setChecked(on);
        }
    }
    if (c.usesMaps() && maps_) {
        QString text =
            tr("<b>%1</b><br>attention maps read from a file · %2 layers · %3 heads · %4 tokens · "
               "%5<br>Steps and predictions need the model itself.")
                .arg(QFileInfo(maps_->folder).fileName().toHtmlEscaped())
                .arg(maps_->total_layers)
                .arg(maps_->num_heads)
                .arg(maps_->text_tokens)
                .arg(maps_->causal ? tr("causal") : tr("bidirectional"));
        if (!maps_->warning.isEmpty())
            text += QStringLiteral("<br><span style='color:#a04000'>%1</span>")
                        .arg(tr("Warning: %1").arg(maps_->warning.toHtmlEscaped()));
        info_->setText(text);
        info_->show();
        return;
    }
    const ModelPtr m = c.usesModel() ? find_model(c.model_folder) : nullptr;
    if (!m) {
        info_->hide();
        return;
    }
    const models::ModelInfo& i = m->model->info();
    const QLocale locale;
    QString heads = tr("%1 heads").arg(i.num_heads);
    if (i.num_kv_heads > 0 && i.num_kv_heads != i.num_heads)
        heads = tr("%1 heads (%2 kv heads)").arg(i.num_heads).arg(i.num_kv_heads);
    info_->setText(
        tr("<b>%1</b><br>%2 · %3 layers · %4 · head_dim %5<br>hidden %6 · %7 parameters · "
           "%8<br>%9 positions · %10 · tokenizer: %11 (%12 tokens)")
            .arg(model_display_name(*m).toHtmlEscaped(),
                 QString::fromStdString(i.architecture.empty() ? i.model_type : i.architecture))
            .arg(i.num_layers)
            .arg(heads)
            .arg(i.head_dim)
            .arg(i.hidden_size)
            .arg(locale.toString(qulonglong(i.parameter_count)), QString::fromStdString(i.dtype))
            .arg(i.max_positions)
            .arg(i.causal ? tr("causal") : tr("bidirectional"),
                 QString::fromStdString(m->tokenizer.kind()))
            .arg(m->tokenizer.vocab_size()));
    info_->show();
}

void ModelSource::setSnapshot(const SnapshotPtr& snapshot) {
    if (snapshot && snapshot->model && snapshot->config.usesMaps()) {
        const ModelMaps& m = *snapshot->model;
        if (m.words || m.hide_special) {  // grouped: it could be
            maps_words_ = maps_words_ || m.words;
            maps_special_ = maps_special_ || m.hide_special;
        } else {  // the pieces, with what their tokens file says of them
            maps_words_ = m.encoding.size() > 0 && !m.text_a.isEmpty();
            maps_special_ = std::any_of(m.encoding.special.begin(), m.encoding.special.end(),
                                        [](std::uint8_t s) { return s != 0; });
        }
        maps_ = snapshot->model;
        maps_tokens_ = snapshot->config.tokens_file;
    }
    sync();
}

}  // namespace attnviz::ui
