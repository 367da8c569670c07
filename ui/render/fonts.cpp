#include "ui/render/fonts.h"

#include <QFontDatabase>
#include <QFontMetrics>

#include <algorithm>

namespace attnviz::ui {

namespace {
const char* const kCjkCandidates[] = {"Noto Sans CJK SC",
                                      "Noto Sans CJK TC",
                                      "Noto Sans CJK JP",
                                      "Noto Sans CJK KR",
                                      "Source Han Sans SC",
                                      "Source Han Sans CN",
                                      "WenQuanYi Micro Hei",
                                      "WenQuanYi Zen Hei",
                                      "Droid Sans Fallback",
                                      "Microsoft YaHei",
                                      "PingFang SC",
                                      "Hiragino Sans GB",
                                      "SimHei"};
const char* const kLatinCandidates[] = {"Noto Sans", "DejaVu Sans", "Liberation Sans", "Arial",
                                        "Helvetica"};

bool single_family_covers(const QString& family, const QString& text) {
    QFont f(family);
    const QFontMetrics fm(f);
    for (const char32_t ch : text.toUcs4())
        if (ch > 0x20 && !fm.inFontUcs4(ch)) return false;
    return true;
}
}  // namespace

QStringList cjk_font_families() {
    static const QStringList families = [] {
        QStringList out;
        const QStringList installed = QFontDatabase::families();
        for (const char* name : kCjkCandidates)
            if (installed.contains(QLatin1String(name))) out << QLatin1String(name);
        return out;
    }();
    return families;
}

bool font_covers(const QFont& font, const QString& text) {
    for (const QString& family : font.families())
        if (single_family_covers(family, text)) return true;
    // Character by character over the family list, as the text engine falls back.
    for (const char32_t ch : text.toUcs4()) {
        if (ch <= 0x20) continue;
        bool found = false;
        for (const QString& family : font.families()) {
            if (QFontMetrics(QFont(family)).inFontUcs4(ch)) {
                found = true;
                break;
            }
        }
        if (!found) return false;
    }
    return true;
}

QFont figure_font(int pixel_size, const QStringList& texts, bool bold) {
    static const QString latin = [] {
        const QStringList installed = QFontDatabase::families();
        for (const char* name : kLatinCandidates)
            if (installed.contains(QLatin1String(name))) return QString::fromLatin1(name);
        return QFontDatabase::systemFont(QFontDatabase::GeneralFont).family();
    }();
    QStringList families{latin};
    const QString joined = texts.join(QString());
    if (!single_family_covers(latin, joined)) {
        for (const QString& cjk : cjk_font_families()) {
            if (single_family_covers(cjk, joined)) {
                families << cjk;
                break;
            }
        }
        // Keep every CJK family as a further fallback for mixed scripts.
        for (const QString& cjk : cjk_font_families())
            if (!families.contains(cjk)) families << cjk;
    }
    QFont font(latin);
    font.setFamilies(families);
    font.setPixelSize(std::max(1, pixel_size));
    font.setBold(bold);
    font.setStyleStrategy(QFont::PreferAntialias);
    return font;
}

QString visible_token(const QString& token) {
    if (token.isEmpty()) return QStringLiteral("\"\"");
    // A character-level model's lone space, newline or tab: the symbols a reader knows.
    if (token == QLatin1String(" ")) return QString(QChar(0x2423));   // ␣
    if (token == QLatin1String("\n")) return QString(QChar(0x21B5));  // ↵
    if (token == QLatin1String("\t")) return QString(QChar(0x21E5));  // ⇥
    auto never_drawn = [](char32_t ch) {
        const QChar::Category c = QChar::category(ch);
        return c == QChar::Other_Control || c == QChar::Other_NotAssigned ||
               c == QChar::Other_Surrogate || (ch & 0xfffe) == 0xfffe ||
               (ch >= 0xfdd0 && ch <= 0xfdef);
    };
    auto blank = [&](char32_t ch) {
        const QChar::Category c = QChar::category(ch);
        return never_drawn(ch) || QChar::isSpace(ch) || c == QChar::Other_Format ||
               c == QChar::Mark_NonSpacing || c == QChar::Mark_Enclosing;
    };
    const QList<uint> code_points = token.toUcs4();
    const bool all_blank = std::all_of(code_points.begin(), code_points.end(),
                                       [&](uint ch) { return blank(char32_t(ch)); });
    QString out;
    for (const uint ch : code_points) {
        if (all_blank || never_drawn(char32_t(ch)))
            out += QStringLiteral("<U+%1>").arg(ch, 4, 16, QLatin1Char('0')).toUpper();
        else
            out += QString::fromUcs4(reinterpret_cast<const char32_t*>(&ch), 1);
    }
    return out;
}

double line_height(const QFont& font, const QString& text) {
    double h = QFontMetricsF(font).height();
    if (single_family_covers(font.family(), text)) return h;
    for (const QString& family : cjk_font_families()) {
        QFont cjk = font;
        cjk.setFamilies({family});
        h = std::max(h, QFontMetricsF(cjk).height());
        break;  // the first is the one the fallback picks (figure_font's order)
    }
    return h;
}

QFont label_font_for(const QFont& font, double spacing, int min_px) {
    const double h = QFontMetricsF(font).height();
    if (h + 2 <= spacing || font.pixelSize() <= min_px) return font;
    QFont f = font;
    f.setPixelSize(std::max(min_px, int(std::floor(font.pixelSize() * (spacing - 2) / h))));
    return f;
}

}  // namespace attnviz::ui
