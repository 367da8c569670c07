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

/// `family` alone: its metrics say what it has itself.  Without NoFontMerging the engine
/// merges in the system's fallback fonts and has (nearly) every character.
QFont alone(const QString& family) {
    QFont f(family);
    f.setStyleStrategy(QFont::NoFontMerging);
    return f;
}

bool single_family_covers(const QString& family, const QString& text) {
    const QFontMetrics fm(alone(family));
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

QString cjk_family_for(const QString& text) {
    const QStringList families = cjk_font_families();
    for (const QString& cjk : families)
        if (single_family_covers(cjk, text)) return cjk;
    return families.isEmpty() ? QString() : families.first();
}

bool holds_cjk(const QString& text) {
    for (const char32_t ch : text.toUcs4()) {
        switch (QChar::script(ch)) {
            case QChar::Script_Han:
            case QChar::Script_Hiragana:
            case QChar::Script_Katakana:
            case QChar::Script_Hangul:
            case QChar::Script_Bopomofo:
                return true;
            default:
                break;
        }
        // Punctuation and symbols the scripts share (script Common): 、。「」，（）…
        if ((ch >= 0x2e80 && ch <= 0x2fdf) ||  // radicals
            (ch >= 0x3000 && ch <= 0x303f) ||  // CJK symbols and punctuation
            (ch >= 0x31c0 && ch <= 0x31ef) ||  // strokes
            (ch >= 0x3200 && ch <= 0x33ff) ||  // enclosed letters, compatibility
            (ch >= 0xfe30 && ch <= 0xfe4f) ||  // compatibility forms
            (ch >= 0xff00 && ch <= 0xffef))    // half-width and full-width forms
            return true;
    }
    return false;
}

bool font_covers(const QFont& font, const QString& text) {
    for (const QString& family : font.families())
        if (single_family_covers(family, text)) return true;
    // Character by character over the family list, as the text engine falls back.
    for (const char32_t ch : text.toUcs4()) {
        if (ch <= 0x20) continue;
        bool found = false;
        for (const QString& family : font.families()) {
            if (QFontMetrics(alone(family)).inFontUcs4(ch)) {
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
        if (const QString cjk = cjk_family_for(joined); !cjk.isEmpty()) families << cjk;
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
    const QFontMetricsF first(font);
    if (single_family_covers(font.family(), text)) return first.height();
    // A line is as tall as the highest ascent over the lowest descent of the families it
    // takes glyphs from.
    double ascent = first.ascent(), descent = first.descent();
    const auto use = [&](const QString& family) {
        QFont f = font;
        f.setFamilies({family});
        const QFontMetricsF fm(f);
        ascent = std::max(ascent, fm.ascent());
        descent = std::max(descent, fm.descent());
    };
    // The text engine takes each character from the first family of the list that has it.
    const QStringList families = font.families();
    QList<uint> missing = text.toUcs4();
    missing.removeIf([](uint ch) { return ch <= 0x20; });
    for (qsizetype k = 0; k < families.size() && !missing.isEmpty(); ++k) {
        const QFontMetricsF fm(alone(families[k]));
        const qsizetype before = missing.size();
        missing.removeIf([&](uint ch) { return fm.inFontUcs4(ch); });
        if (k > 0 && missing.size() < before) use(families[k]);
    }
    // What the list lacks comes from the system's fallback; for CJK text that is the family
    // figure_font() would have added.
    if (!missing.isEmpty()) {
        QString rest;
        for (const uint ch : missing)
            rest += QString::fromUcs4(reinterpret_cast<const char32_t*>(&ch), 1);
        if (const QString cjk = cjk_family_for(rest); !cjk.isEmpty()) use(cjk);
    }
    return ascent + descent;
}

double text_height(const QFont& font, const QString& text) {
    // QPainter::drawText stacks the lines with the font's leading between them...
    const QFontMetricsF fm(font);
    const QStringList lines = text.split(QLatin1Char('\n'));
    double h = double(lines.size() - 1) * std::max(0.0, fm.leading());
    for (const QString& line : lines)
        h += line_height(font, line);
    // ...and rounds each line's fallback metrics up: its own layout of the lines, which
    // takes the fallback families' metrics too, can come out a little taller.
    return std::max(
        h, fm.boundingRect(QRectF(0, 0, 1e6, 1e6), Qt::AlignLeft | Qt::AlignTop, text).height());
}

QFont label_font_for(const QFont& font, double spacing, int min_px, const QString& labels) {
    const double h = line_height(font, labels);
    if (h + 2 <= spacing || font.pixelSize() <= min_px) return font;
    QFont f = font;
    int px = std::max(min_px, int(std::floor(font.pixelSize() * (spacing - 2) / h)));
    f.setPixelSize(px);
    // Line heights do not scale exactly with the size: smaller until the lines fit.
    while (px > min_px && line_height(f, labels) + 2 > spacing)
        f.setPixelSize(--px);
    return f;
}

}  // namespace attnviz::ui
