// The inputs: the sentence, the second sentence and how it is used, and the editable token
// lists.  Shows the document and writes to it; owns no data.
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace attnviz::ui {

class AttentionDocument;

class InputPanel : public QWidget {
    Q_OBJECT
  public:
    explicit InputPanel(AttentionDocument* document, QWidget* parent = nullptr);

    QLineEdit* sentenceEdit() const { return sentence_; }
    /// A trained model tokenizes with its own tokenizer: the demo tokenizer's options and the
    /// token lists are disabled, saying why.
    void setModelSource(bool model);
    /// The model read `unknown` of the text's `total` characters as its unknown token: said
    /// under the tokens (hidden at 0), with a button to the bilingual shipped model when
    /// `offer_bilingual`.
    void setUnknownCharacters(int unknown, int total, bool offer_bilingual);
    QLabel* unknownLabel() const { return unknown_; }
    /// Attention maps opened from a file come with their tokens (empty: none): the panel,
    /// disabled, shows them, their text and their count instead of the document's sentence.
    void showFileTokens(const std::vector<std::string>& tokens);
    QPushButton* bilingualButton() const { return bilingual_; }

  signals:
    /// The button under an unknown-characters warning: open the bilingual shipped model.
    void bilingualModelRequested();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The constructor's steps, in order.
    void createWidgets();
    void createLayout(QGridLayout* grid);
    void connectSignals();

    /// Edit tokens: switched on, the token lists start from what the tokenizer produced.
    void setEditingTokens(bool on);
    void syncFromDocument();
    void refreshTokens();

    AttentionDocument* doc_;
    QComboBox* mode_ = nullptr;
    QLineEdit* sentence_ = nullptr;
    QLineEdit* second_ = nullptr;
    QLabel* second_label_ = nullptr;
    QCheckBox* edit_tokens_ = nullptr;
    QLineEdit* tokens_a_ = nullptr;
    QLineEdit* tokens_b_ = nullptr;
    QLabel* tokens_b_label_ = nullptr;
    QCheckBox* lowercase_ = nullptr;
    QCheckBox* special_ = nullptr;
    QLabel* count_ = nullptr;
    QLabel* unknown_ = nullptr;
    QPushButton* bilingual_ = nullptr;
    std::vector<std::string> file_tokens_;  ///< showFileTokens()
};

}  // namespace attnviz::ui
