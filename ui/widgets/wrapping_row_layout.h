// A row of controls that wraps onto more rows when its container is narrower than the row:
// the bars over the views (Steps, Flow, Circuits, Queries & Keys) at a presenter's 24 pt on a
// 1280-pixel projector, or beside the left column of a 1280-pixel window, where one row of
// them is wider than the screen.  A QHBoxLayout's minimum width is the whole row's, and a page
// of the view tabs whose minimum is wider than the screen makes the window wider than the
// screen.  This layout's minimum is its widest control's; it is used as a QHBoxLayout is
// (addWidget with a stretch, addSpacing, addStretch) and, where the row fits, lays it out as
// that box would: each item from its minimum towards its size hint, then the stretch factors.
// A row breaks only where the code put spacing (addSpacing, addStretch): the items between two
// spacings (a label and its box; Back, the step and Next) stay on one row, and the spacing
// where the row breaks is dropped.
#pragma once

#include <QLayout>

#include <vector>

namespace attnviz::ui {

class WrappingRowLayout : public QLayout {
    Q_OBJECT  // found by type: presenting, the tabs size every bar's type (ViewTabs)
        public : explicit WrappingRowLayout(QWidget* parent = nullptr);
    ~WrappingRowLayout() override;

    void addWidget(QWidget* widget, int stretch = 0);
    void addLayout(QLayout* layout, int stretch = 0);
    void addSpacing(int size);
    void addStretch(int stretch = 0);
    /// The rows the items take when the layout is `width` wide (margins included).
    int rowCount(int width) const;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;
    void invalidate() override;

  private:
    struct Entry {
        QLayoutItem* item;
        int stretch;
    };
    struct Arrangement {
        std::vector<QRect> rects;  ///< per entry
        std::vector<char> placed;  ///< per entry: false for a hidden widget
        int rows = 0;
        int height = 0;  ///< of the contents, margins excluded
    };
    /// Where every entry goes in `contents` (margins excluded; only its width and origin count).
    Arrangement arrange(const QRect& contents) const;

    std::vector<Entry> entries_;
    mutable int hfw_width_ = -1;
    mutable int hfw_height_ = -1;
};

}  // namespace attnviz::ui
