#include "ui/widgets/input_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>

#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
// A pasted book must arrive whole (QLineEdit keeps 32767 characters unless told otherwise)
// and is then refused or windowed by the memory budget, not cut here.
constexpr int kMaxInputChars = 64 * 1024 * 1024;
// The read-only token line shows this many tokens of a long text, then how many follow:
// laying out a megabyte on every change would stall typing.
constexpr std::size_t kShownTokens = 2000;

QString join_tokens(const std::vector<std::string>& tokens) {
    QStringList out;
    for (const auto& t : tokens)
        out << QString::fromStdString(t);
    return out.join(QStringLiteral(" | "));
}

QString preview_tokens(const std::vector<std::string>& tokens) {
    if (tokens.size() <= kShownTokens) return join_tokens(tokens);
    QStringList out;
    for (std::size_t i = 0; i < kShownTokens; ++i)
        out << QString::fromStdString(tokens[i]);
    return out.join(QStringLiteral(" | ")) +
           InputPanel::tr(" | … (%1 more)").arg(tokens.size() - kShownTokens);
}

void set_text_keeping_cursor(QLineEdit* edit, const QString& text) {
    if (edit->text() == text) return;
    const QSignalBlocker block(edit);
    const int cursor = edit->cursorPosition();
    edit->setText(text);
    edit->setCursorPosition(std::min(cursor, int(text.size())));
}
}  // namespace

InputPanel::InputPanel(AttentionDocument* document, QWidget* parent)
    : QWidget(parent), doc_(document) {
    auto* grid = new QGridLayout(this);
    createWidgets();
    createLayout(grid);
    connectSignals();
    syncFromDocument();
}

/// The mode, the sentences, the token lists and the tokenizer's options.
void InputPanel::createWidgets() {
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("pairModeCombo"));
    mode_->addItem(tr("Self-attention"), int(PairMode::Single));
    mode_->addItem(tr("Cross-attention (keys from the second sentence)"),
                   int(PairMode::CrossAttention));
    mode_->addItem(tr("Padded batch of both sentences"), int(PairMode::PaddedBatch));
    mode_->setToolTip(
        tr("Self-attention: queries, keys and values all come from the sentence.\n"
           "Cross-attention: queries from the sentence, keys and values from the "
           "second sentence.\nPadded batch: both sentences run as a batch of two; "
           "the shorter is padded and its [PAD] keys are masked."));

    sentence_ = new QLineEdit(this);
    sentence_->setObjectName(QStringLiteral("sentenceEdit"));
    sentence_->setPlaceholderText(tr("Type a sentence…"));
    sentence_->setClearButtonEnabled(true);
    second_ = new QLineEdit(this);
    second_->setObjectName(QStringLiteral("secondSentenceEdit"));
    second_->setPlaceholderText(tr("Second sentence (for cross-attention or a padded batch)"));
    second_->setClearButtonEnabled(true);
    second_label_ = new QLabel(tr("Second sentence:"), this);
    second_label_->setBuddy(second_);

    edit_tokens_ = new QCheckBox(tr("Edit tokens"), this);
    edit_tokens_->setObjectName(QStringLiteral("editTokensCheck"));
    edit_tokens_->setToolTip(
        tr("Use the token lists below as given (pre-tokenized input) "
           "instead of tokenizing the sentences. Separate tokens with |."));
    tokens_a_ = new QLineEdit(this);
    tokens_a_->setObjectName(QStringLiteral("tokenListEdit"));
    tokens_b_ = new QLineEdit(this);
    tokens_b_->setObjectName(QStringLiteral("secondTokenListEdit"));
    tokens_b_label_ = new QLabel(tr("Second tokens:"), this);
    lowercase_ = new QCheckBox(tr("Lowercase"), this);
    lowercase_->setObjectName(QStringLiteral("lowercaseCheck"));
    special_ = new QCheckBox(tr("Add [CLS] / [SEP]"), this);
    special_->setObjectName(QStringLiteral("specialTokensCheck"));
    count_ = new QLabel(this);
    count_->setObjectName(QStringLiteral("tokenCountLabel"));
    count_->setForegroundRole(QPalette::PlaceholderText);
}

/// Four rows (sentence and mode, second sentence, tokens and options, second tokens and count)
/// and the unknown-characters warning under them.
void InputPanel::createLayout(QGridLayout* grid) {
    grid->setContentsMargins(8, 6, 8, 6);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    auto* sentence_label = new QLabel(tr("&Sentence:"), this);
    sentence_label->setBuddy(sentence_);
    auto* mode_label = new QLabel(tr("&Mode:"), this);
    mode_label->setBuddy(mode_);
    auto* tokens_label = new QLabel(tr("Tokens:"), this);
    tokens_label->setBuddy(tokens_a_);

    int row = 0;
    grid->addWidget(sentence_label, row, 0);
    grid->addWidget(sentence_, row, 1);
    grid->addWidget(mode_label, row, 2);
    grid->addWidget(mode_, row, 3);
    ++row;
    grid->addWidget(second_label_, row, 0);
    grid->addWidget(second_, row, 1, 1, 3);
    ++row;
    grid->addWidget(tokens_label, row, 0);
    grid->addWidget(tokens_a_, row, 1);
    auto* options = new QHBoxLayout;
    options->addWidget(edit_tokens_);
    options->addWidget(lowercase_);
    options->addWidget(special_);
    options->addStretch(1);
    grid->addLayout(options, row, 2, 1, 2);
    ++row;
    grid->addWidget(tokens_b_label_, row, 0);
    grid->addWidget(tokens_b_, row, 1);
    grid->addWidget(count_, row, 2, 1, 2);
    ++row;
    // A model that reads the text as <unk>: said where the tokens are, with the way out.
    unknown_ = new QLabel(this);
    unknown_->setObjectName(QStringLiteral("unknownCharactersLabel"));
    unknown_->setWordWrap(true);
    unknown_->setTextFormat(Qt::PlainText);
    unknown_->setStyleSheet(QStringLiteral("#unknownCharactersLabel { color: #a33a00; }"));
    bilingual_ = new QPushButton(tr("Use the Chinese and English model"), this);
    bilingual_->setObjectName(QStringLiteral("bilingualModelButton"));
    bilingual_->setToolTip(
        tr("Open char-zh-en-4l, the model AttnViz ships for Chinese and English text"));
    auto* unknown_row = new QHBoxLayout;
    unknown_row->addWidget(unknown_, 1);
    unknown_row->addWidget(bilingual_);
    grid->addLayout(unknown_row, row, 1, 1, 3);
    unknown_->hide();
    bilingual_->hide();
    connect(bilingual_, &QPushButton::clicked, this, &InputPanel::bilingualModelRequested);
    grid->setColumnStretch(1, 1);
}

/// View -> document, the window's shortcuts over the line edits, document -> view.
void InputPanel::connectSignals() {
    // View -> document.
    connect(mode_, &QComboBox::currentIndexChanged, this,
            [this] { doc_->setPairMode(PairMode(mode_->currentData().toInt())); });
    connect(sentence_, &QLineEdit::textChanged, doc_, &AttentionDocument::setTextA);
    connect(second_, &QLineEdit::textChanged, doc_, &AttentionDocument::setTextB);
    connect(tokens_a_, &QLineEdit::textEdited, doc_, &AttentionDocument::setTokenListA);
    connect(tokens_b_, &QLineEdit::textEdited, doc_, &AttentionDocument::setTokenListB);
    connect(edit_tokens_, &QCheckBox::toggled, this, &InputPanel::setEditingTokens);
    connect(lowercase_, &QCheckBox::toggled, doc_, &AttentionDocument::setLowercase);
    connect(special_, &QCheckBox::toggled, doc_, &AttentionDocument::setSpecialTokens);

    // Ctrl+K (causal) and Ctrl+E (export) are the window's, even while typing: on X11 a
    // line edit would otherwise take them as emacs-style "kill line" / "end of line".
    for (QLineEdit* edit : {sentence_, second_, tokens_a_, tokens_b_}) {
        edit->installEventFilter(this);
        edit->setMaxLength(kMaxInputChars);
    }

    // Document -> view.
    connect(doc_, &AttentionDocument::computeConfigChanged, this, &InputPanel::syncFromDocument);
    // What is editable depends on these: follow them at once, not on the next turn.
    connect(doc_, &AttentionDocument::pairModeChanged, this, &InputPanel::syncFromDocument);
    connect(doc_, &AttentionDocument::useTokenListChanged, this, &InputPanel::syncFromDocument);
}

void InputPanel::setEditingTokens(bool on) {
    if (on) {
        // Start editing from what the tokenizer produced.
        const TokenSequences t = resolve_tokens(doc_->computeConfig());
        doc_->setTokenListA(join_tokens(t.a));
        ComputeConfig second = doc_->computeConfig();
        second.pair_mode = PairMode::CrossAttention;
        second.use_token_list = false;
        doc_->setTokenListB(join_tokens(resolve_tokens(second).b));
    }
    doc_->setUseTokenList(on);
}

bool InputPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->modifiers() == Qt::ControlModifier &&
            (key->key() == Qt::Key_K || key->key() == Qt::Key_E)) {
            event->ignore();
            return true;  // not overridden: the window's shortcut runs
        }
    }
    return QWidget::eventFilter(watched, event);
}

void InputPanel::syncFromDocument() {
    {
        const QSignalBlocker b(mode_);
        mode_->setCurrentIndex(mode_->findData(int(doc_->pairMode())));
    }
    if (file_tokens_.empty()) {
        set_text_keeping_cursor(sentence_, doc_->textA());
    } else {  // the maps' tokens as text: their pieces one after the other
        std::string text;
        for (const std::string& t : file_tokens_)
            text += t;
        set_text_keeping_cursor(sentence_, QString::fromStdString(text));
    }
    set_text_keeping_cursor(second_, doc_->textB());
    {
        const QSignalBlocker b1(edit_tokens_), b2(lowercase_), b3(special_);
        edit_tokens_->setChecked(doc_->useTokenList());
        lowercase_->setChecked(doc_->lowercase());
        special_->setChecked(doc_->specialTokens());
    }
    const bool pair = doc_->pairMode() != PairMode::Single;
    second_->setEnabled(pair);
    second_label_->setEnabled(pair);
    tokens_b_->setVisible(pair);
    tokens_b_label_->setVisible(pair);
    const bool editing = doc_->useTokenList();
    sentence_->setEnabled(!editing);
    second_->setEnabled(pair && !editing);
    lowercase_->setEnabled(!editing);
    special_->setEnabled(!editing);
    tokens_a_->setReadOnly(!editing);
    tokens_b_->setReadOnly(!editing);
    refreshTokens();
}

void InputPanel::showFileTokens(const std::vector<std::string>& tokens) {
    if (tokens == file_tokens_) return;
    file_tokens_ = tokens;
    syncFromDocument();
}

void InputPanel::refreshTokens() {
    TokenSequences t = resolve_tokens(doc_->computeConfig());
    if (!file_tokens_.empty()) t = TokenSequences{file_tokens_, {}};
    // The fonts for the tokens on show (a long text's first ones; Qt falls back per glyph).
    QStringList all;
    for (const auto* tokens : {&t.a, &t.b})
        for (std::size_t i = 0; i < std::min(tokens->size(), kShownTokens); ++i)
            all << QString::fromStdString((*tokens)[i]);
    const QFont font = figure_font(QFontInfo(this->font()).pixelSize(), all);
    tokens_a_->setFont(font);
    tokens_b_->setFont(font);
    sentence_->setFont(font);
    second_->setFont(font);
    if (doc_->useTokenList()) {
        set_text_keeping_cursor(tokens_a_, doc_->tokenListA());
        set_text_keeping_cursor(tokens_b_, doc_->tokenListB());
    } else {
        set_text_keeping_cursor(tokens_a_, preview_tokens(t.a));
        set_text_keeping_cursor(tokens_b_, preview_tokens(t.b));
    }
    if (doc_->pairMode() == PairMode::Single)
        count_->setText(tr("%n token(s)", nullptr, int(t.a.size())));
    else
        count_->setText(tr("%1 + %2 tokens").arg(t.a.size()).arg(t.b.size()));
}

void InputPanel::setUnknownCharacters(int unknown, int total, bool offer_bilingual) {
    unknown_->setVisible(unknown > 0);
    bilingual_->setVisible(unknown > 0 && offer_bilingual);
    if (unknown > 0)
        unknown_->setText(tr("%1 of %2 characters are unknown to this model: it reads each as "
                             "its unknown token (<unk>), whatever the labels show.")
                              .arg(unknown)
                              .arg(total));
}

void InputPanel::setModelSource(bool model) {
    const QString why =
        model ? tr("The model's own tokenizer splits the text; these options belong to the "
                   "demo layer.")
              : QString();
    for (QWidget* w : {static_cast<QWidget*>(edit_tokens_), static_cast<QWidget*>(lowercase_),
                       static_cast<QWidget*>(special_)}) {
        w->setEnabled(!model);
        w->setToolTip(why);
    }
    if (model && doc_->computeConfig().use_token_list) doc_->setUseTokenList(false);
}

}  // namespace attnviz::ui
