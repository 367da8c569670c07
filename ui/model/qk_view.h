// The Queries & Keys tab (issue 39, after AttentionViz): the joint scatter of the queries and
// keys of the head in focus over the document's corpus (QkFigure).  A head the corpus has no
// vectors of gets a button that computes them (CorpusSource::measureHead, off the GUI thread).
// The dots are coloured by query or key, or by the token's position; the projection is the PCA
// of the vectors or of their directions.  Hovering a dot shows its token in its context;
// clicking it opens its text in the main view with the head in focus, at that query's row.
#pragma once

#include <QWidget>

#include "ui/document/corpus_data.h"
#include "ui/model/qk_figure.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace attnviz::ui {

class FigureCanvas;

class QkView : public QWidget {
    Q_OBJECT
  public:
    explicit QkView(QWidget* parent = nullptr);

    /// The document's corpus (null: none).
    void setCorpus(CorpusPtr corpus);
    /// The model shown (empty: none): a corpus of another model is not shown.
    void setModelFolder(const QString& folder);
    /// The head in focus (from 0): the one drawn.
    void setHead(int layer, int head);
    int layer() const { return layer_; }
    int head() const { return head_; }
    /// A run for a head's vectors is under way (the button waits).
    void setComputing(bool on);

    /// The view drawn (null: none for the head, or no corpus of the model shown).
    const CorpusQkView* qkView() const;
    const QkFigure& figure() const { return *figure_; }
    FigureCanvas* canvas() const { return canvas_; }
    QComboBox* headCombo() const { return head_combo_; }
    QComboBox* projectionCombo() const { return projection_; }
    QComboBox* colourCombo() const { return colouring_; }
    QPushButton* computeButton() const { return compute_; }
    QPushButton* exportButton() const { return export_; }
    QLabel* placeholderLabel() const { return placeholder_; }
    QLabel* messageLabel() const { return message_; }

    /// Writes the figure (.png, .svg, .pdf) or the points (.csv: qk_points_csv) to `path`;
    /// false and failed() on an error (nothing written).
    bool exportTo(const QString& path);
    void exportDialog();

  signals:
    /// The head combo chose another head: make it the head in focus.
    void headChosen(int layer, int head);
    /// Compute the queries and keys of this head over the corpus.
    void computeRequested(int layer, int head);
    /// A dot clicked: its text (from 0) and position (from 0), and whether it is a key.
    void pointActivated(qint64 text, int layer, int head, qint64 position, bool key);
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    QWidget* createControls();
    void connectControls();
    void retranslate();
    /// The corpus usable here: of the model shown.
    const CorpusData* shownCorpus() const;
    void fillHeads();
    /// The placeholder, the message and its button, and the figure, for what is known.
    void refresh();
    void relayout();
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);

    CorpusPtr corpus_;
    QString folder_;
    int layer_ = 0, head_ = 0;
    bool computing_ = false;
    QLabel* placeholder_;
    QWidget* controls_;
    QLabel *head_label_, *projection_label_, *colouring_label_, *message_;
    QComboBox *head_combo_, *projection_, *colouring_;
    QPushButton *compute_, *export_;
    FigureCanvas* canvas_;
    QkFigure* figure_;  ///< canvas_'s
    int hover_ = -1;
};

}  // namespace attnviz::ui
