#include "ui/widgets/wrapping_row_layout.h"

#include <QSpacerItem>
#include <QWidget>

#include <algorithm>
#include <numeric>

namespace attnviz::ui {

namespace {
/// Gives up to `extra` pixels to the items of `who` in proportion to `weight`, none past its
/// `cap`; returns what is left.
int share(int extra, const std::vector<int>& who, const std::vector<int>& weight,
          const std::vector<int>& cap, std::vector<int>& width) {
    std::vector<int> open = who;
    while (extra > 0 && !open.empty()) {
        long total = 0;
        for (int k : open)
            total += weight[std::size_t(k)];
        if (total <= 0) break;
        int given = 0;
        std::vector<int> still;
        for (int k : open) {
            const auto i = std::size_t(k);
            const int want = int(long(extra) * weight[i] / total);
            const int add = std::min(want, cap[i] - width[i]);
            width[i] += add;
            given += add;
            if (width[i] < cap[i]) still.push_back(k);
        }
        if (given == 0) {  // what rounding left: a pixel each, from the first
            for (int k : still) {
                if (extra - given == 0) break;
                ++width[std::size_t(k)];
                ++given;
            }
            if (given == 0) break;
        }
        extra -= given;
        open.swap(still);
    }
    return extra;
}
}  // namespace

WrappingRowLayout::WrappingRowLayout(QWidget* parent) : QLayout(parent) {}

WrappingRowLayout::~WrappingRowLayout() {
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void WrappingRowLayout::addWidget(QWidget* widget, int stretch) {
    addChildWidget(widget);
    entries_.push_back({new QWidgetItem(widget), stretch});
    invalidate();
}

void WrappingRowLayout::addLayout(QLayout* layout, int stretch) {
    addChildLayout(layout);
    entries_.push_back({layout, stretch});
    invalidate();
}

void WrappingRowLayout::addSpacing(int size) {
    addItem(new QSpacerItem(size, 0, QSizePolicy::Fixed, QSizePolicy::Minimum));
}

void WrappingRowLayout::addStretch(int stretch) {
    entries_.push_back(
        {new QSpacerItem(0, 0, QSizePolicy::Expanding, QSizePolicy::Minimum), stretch});
    invalidate();
}

void WrappingRowLayout::addItem(QLayoutItem* item) {
    entries_.push_back({item, 0});
    invalidate();
}

int WrappingRowLayout::count() const {
    return int(entries_.size());
}

QLayoutItem* WrappingRowLayout::itemAt(int index) const {
    return index >= 0 && index < count() ? entries_[std::size_t(index)].item : nullptr;
}

QLayoutItem* WrappingRowLayout::takeAt(int index) {
    if (index < 0 || index >= count()) return nullptr;
    QLayoutItem* item = entries_[std::size_t(index)].item;
    entries_.erase(entries_.begin() + index);
    if (QLayout* l = item->layout(); l && l->parent() == this) l->setParent(nullptr);
    invalidate();
    return item;
}

Qt::Orientations WrappingRowLayout::expandingDirections() const {
    Qt::Orientations out;
    for (const Entry& e : entries_)
        if (!e.item->isEmpty() || e.item->spacerItem()) out |= e.item->expandingDirections();
    return out;
}

void WrappingRowLayout::invalidate() {
    hfw_width_ = hfw_height_ = -1;
    QLayout::invalidate();
}

WrappingRowLayout::Arrangement WrappingRowLayout::arrange(const QRect& contents) const {
    const int gap = std::max(0, spacing());
    const int n = count();
    Arrangement out;
    out.rects.resize(std::size_t(n));
    out.placed.resize(std::size_t(n), 0);
    const auto shown = [this](int k) { return !entries_[std::size_t(k)].item->isEmpty(); };
    const auto spacer = [this](int k) { return entries_[std::size_t(k)].item->spacerItem(); };
    const auto min_w = [this](int k) {
        return entries_[std::size_t(k)].item->minimumSize().width();
    };

    // Rows of entries: a group (the shown items between two spacings) starts a new row when
    // it does not fit after the row's last; the spacing where a row breaks is dropped.
    std::vector<std::vector<int>> rows(1);
    int row_w = 0;
    bool row_empty = true;
    std::vector<int> pending;  // spacers before the next group
    for (int k = 0; k < n;) {
        if (spacer(k)) {
            pending.push_back(k++);
            continue;
        }
        if (!shown(k)) {
            ++k;
            continue;
        }
        std::vector<int> group;
        int group_w = 0;
        for (; k < n && !spacer(k); ++k)
            if (shown(k)) {
                group_w += (group.empty() ? 0 : gap) + min_w(k);
                group.push_back(k);
            }
        int spacing_w = 0;
        for (int s : pending)
            spacing_w += min_w(s);
        if (!row_empty && row_w + gap + spacing_w + group_w > contents.width()) {
            rows.emplace_back();
            row_w = group_w;
        } else {
            if (!row_empty || rows.size() == 1) {
                rows.back().insert(rows.back().end(), pending.begin(), pending.end());
                row_w += spacing_w;
            }
            row_w += (row_empty ? 0 : gap) + group_w;
        }
        pending.clear();
        rows.back().insert(rows.back().end(), group.begin(), group.end());
        row_empty = false;
    }
    rows.back().insert(rows.back().end(), pending.begin(), pending.end());

    // Each row as a QHBoxLayout lays it out: minimum widths, then towards the size hints,
    // then to the stretch factors (or, with none, to what expands).
    int y = contents.top();
    for (const std::vector<int>& row : rows) {
        const std::size_t m = row.size();
        std::vector<int> width(m), hint(m), cap(m), stretch(m), expand(m, 0), all(m);
        int items = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const Entry& e = entries_[std::size_t(row[i])];
            width[i] = e.item->minimumSize().width();
            hint[i] = std::max(width[i], e.item->sizeHint().width());
            cap[i] = std::max(width[i], e.item->maximumSize().width());
            stretch[i] = e.stretch;
            expand[i] = (e.item->expandingDirections() & Qt::Horizontal) ? 1 : 0;
            all[i] = int(i);
            if (!e.item->spacerItem()) ++items;
        }
        int extra = contents.width() - std::max(0, items - 1) * gap -
                    std::accumulate(width.begin(), width.end(), 0);
        std::vector<int> deficit(m);
        for (std::size_t i = 0; i < m; ++i)
            deficit[i] = hint[i] - width[i];
        extra = share(extra, all, deficit, hint, width);
        std::vector<int> stretched;
        for (std::size_t i = 0; i < m; ++i)
            if (stretch[i] > 0) stretched.push_back(int(i));
        if (!stretched.empty())
            extra = share(extra, stretched, stretch, cap, width);
        else
            extra = share(extra, all, expand, cap, width);

        int height = 0;
        for (std::size_t i = 0; i < m; ++i) {
            QLayoutItem* item = entries_[std::size_t(row[i])].item;
            if (item->spacerItem()) continue;
            const int h = item->hasHeightForWidth() ? item->heightForWidth(width[i])
                                                    : item->sizeHint().height();
            height = std::max({height, h, item->minimumSize().height()});
        }
        int x = contents.left();
        int left = items;
        for (std::size_t i = 0; i < m; ++i) {
            out.rects[std::size_t(row[i])] = QRect(x, y, width[i], height);
            out.placed[std::size_t(row[i])] = 1;
            x += width[i];
            if (!entries_[std::size_t(row[i])].item->spacerItem() && --left > 0) x += gap;
        }
        y += height + gap;
        ++out.rows;
    }
    out.height = y - gap - contents.top();
    return out;
}

int WrappingRowLayout::rowCount(int width) const {
    int l = 0, t = 0, r = 0, b = 0;
    getContentsMargins(&l, &t, &r, &b);
    return arrange(QRect(0, 0, width - l - r, 0)).rows;
}

int WrappingRowLayout::heightForWidth(int width) const {
    if (width != hfw_width_) {
        int l = 0, t = 0, r = 0, b = 0;
        getContentsMargins(&l, &t, &r, &b);
        hfw_width_ = width;
        hfw_height_ = arrange(QRect(0, 0, width - l - r, 0)).height + t + b;
    }
    return hfw_height_;
}

QSize WrappingRowLayout::minimumSize() const {
    // The widest group (the items between two spacings) and the tallest item.
    const int gap = std::max(0, spacing());
    int widest = 0, group = 0, tallest = 0;
    bool first = true;
    for (const Entry& e : entries_) {
        if (e.item->spacerItem()) {
            group = 0;
            first = true;
            continue;
        }
        if (e.item->isEmpty()) continue;
        const QSize min = e.item->minimumSize();
        group += (first ? 0 : gap) + min.width();
        first = false;
        widest = std::max(widest, group);
        tallest = std::max(tallest, min.height());
    }
    int l = 0, t = 0, r = 0, b = 0;
    getContentsMargins(&l, &t, &r, &b);
    return {widest + l + r, tallest + t + b};
}

QSize WrappingRowLayout::sizeHint() const {
    // Everything on one row.
    const int gap = std::max(0, spacing());
    int width = 0, height = 0, items = 0;
    for (const Entry& e : entries_) {
        if (e.item->isEmpty() && !e.item->spacerItem()) continue;
        const QSize hint = e.item->sizeHint();
        width += hint.width();
        if (e.item->spacerItem()) continue;
        height = std::max(height, hint.height());
        ++items;
    }
    int l = 0, t = 0, r = 0, b = 0;
    getContentsMargins(&l, &t, &r, &b);
    return {width + std::max(0, items - 1) * gap + l + r, height + t + b};
}

void WrappingRowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    int l = 0, t = 0, r = 0, b = 0;
    getContentsMargins(&l, &t, &r, &b);
    const Arrangement a = arrange(rect.adjusted(l, t, -r, -b));
    for (std::size_t k = 0; k < entries_.size(); ++k)
        if (a.placed[k]) entries_[k].item->setGeometry(a.rects[k]);
}

}  // namespace attnviz::ui
