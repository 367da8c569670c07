// A word-wrapped QLabel that remembers its height at the widths it was asked about until its
// text, font or style changes.  QLabel lays its text out anew on every heightForWidth(), and
// a layout asks it several times per pass (the box's height for a width, its minimum for a
// width, the scroll area's smart minimum), none of them cached by QWidgetItem.  For the text a
// generation writes (rich text, one span a token, growing by a token several times a second)
// that was most of the window's work per token: ui_bench, Qwen2.5-0.5B's shape, a token was
// drawn 5-9 ms later.
// Margins, indent and alignment are set before the text is shown: only the text, the font,
// the style sheet and the contents margins are watched.
#pragma once

#include <QLabel>

#include <array>
#include <utility>

namespace attnviz::ui {

class WrappedLabel : public QLabel {
  public:
    explicit WrappedLabel(QWidget* parent = nullptr);

    int heightForWidth(int width) const override;

  protected:
    void changeEvent(QEvent* event) override;

  private:
    /// Heights at the last few widths, for the text they were laid out with.
    mutable QString text_;
    mutable std::array<std::pair<int, int>, 4> heights_{};  ///< (width, height); width -1: none
    mutable std::size_t next_ = 0;
    void forget() const;
};

}  // namespace attnviz::ui
