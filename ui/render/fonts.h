// Fonts that cover the tokens.  Chinese, Japanese and Korean tokens must render as
// characters, never as empty boxes, on screen and in every export; Qt's own fallback is not
// reliable on every platform plugin and does not exist in SVG files, so the figure asks for
// an explicit family list: a Latin UI font first, then an installed CJK font.
#pragma once

#include <QFont>
#include <QString>
#include <QStringList>

namespace attnviz::ui {

/// Installed CJK families in order of preference (Noto Sans CJK SC, Source Han Sans, WenQuanYi…).
QStringList cjk_font_families();

/// The CJK family figure_font() adds for `text`: the first of cjk_font_families() that has
/// every character of it, else the first installed; empty when none is installed.
QString cjk_family_for(const QString& text);

/// True if `text` holds a Chinese, Japanese or Korean character: ideographs, kana, hangul,
/// bopomofo, CJK punctuation, full-width forms.  Decided by the characters, not the fonts.
bool holds_cjk(const QString& text);

/// A font of `pixel_size` whose family list covers every character of `texts`: the default
/// sans-serif first, then the first CJK family that has the missing characters.
QFont figure_font(int pixel_size, const QStringList& texts = {}, bool bold = false);

/// The height a line of `text` takes in `font`: its metrics, or the tallest of the families
/// the text engine falls back to for the characters the first family lacks (the font's own
/// family list in order, then the CJK family figure_font() would add).  Noto Sans CJK's lines
/// are a quarter taller than DejaVu's, so Chinese text measured by the first family is cut at
/// its bottom edge.
double line_height(const QFont& font, const QString& text);

/// The height `text` takes drawn in `font` with QPainter::drawText (no wrapping: its lines
/// are split at '\n'): each line as tall as line_height() measures it, or as the text
/// engine lays them out if that is taller.
double text_height(const QFont& font, const QString& text);

/// `font`, or a smaller size of it (down to `min_px` pixels) whose lines of `labels` (every
/// label, run together) fit rows `spacing` pixels apart, measured as line_height() measures
/// them (Chinese labels in the taller CJK family): token labels shrink before any is left out.
QFont label_font_for(const QFont& font, double spacing, int min_px = 7, const QString& labels = {});

/// True if `font` (with its fallback families) has a glyph for every character of `text`.
bool font_covers(const QFont& font, const QString& text);

/// A token as a label that always shows: control characters, unassigned code points and
/// noncharacters become `<U+XXXX>`, and so does every character of a token that would
/// otherwise draw nothing (only spaces, zero-width or format characters); an empty token
/// is `""`; a token that is one space, newline or tab (character-level models) is ␣, ↵, ⇥.  Joiners
/// inside visible text (emoji sequences) stay as they are.
QString visible_token(const QString& token);

}  // namespace attnviz::ui
