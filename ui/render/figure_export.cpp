#include "ui/render/figure_export.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <cmath>
#include <functional>

#include <qcustomplot.h>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "ui/compute/csv.h"
#include "ui/compute/resolved_config.h"
#include "ui/render/figure_factory.h"
#include "ui/render/fonts.h"
#include "ui/render/heatmap_figure.h"

namespace attnviz::ui {

namespace {
constexpr int kMinCutPx = 32;  ///< fitted_figure_size() leaves smaller bands alone

// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct ExportText {
    Q_DECLARE_TR_FUNCTIONS(Export)
};

/// The figure laid out for exactly `size`: a hidden QCustomPlot drawn by HeatmapFigure, or
/// a classroom figure (steps, lines, comparison) that paints itself.
struct OffscreenFigure {
    /// Drawn only through toPainter(), which lays the plot out for the size it is given: the
    /// paint buffers a shown plot draws into (a pixmap of the viewport each, cleared whenever a
    /// layer is added) are never used, so the viewport they follow is kept at one pixel.
    /// Otherwise every figure filled 640 × 480 pixmaps once per layer the figure adds.
    struct Plot : QCustomPlot {
        Plot() { setViewport(QRect(0, 0, 1, 1)); }
    } plot;
    HeatmapFigure figure{&plot};
    std::unique_ptr<ClassroomFigure> classroom;

    OffscreenFigure(const AttentionSnapshot& snapshot, const FigureOptions& options, QSize size,
                    const AttentionSnapshot* compared)
        : classroom(make_classroom_figure(options)) {
        if (options.kind == FigureKind::Compare && !compared)
            throw UsageError(
                ExportText::tr("The comparison has no configuration B to draw.").toStdString());
        // The snapshot is shared read-only; the figure holds it through a non-owning pointer.
        const SnapshotPtr shared(SnapshotPtr(), &snapshot);
        if (classroom) {
            classroom->setSnapshot(shared);
            if (compared) classroom->setCompared(SnapshotPtr(SnapshotPtr(), compared));
            classroom->setOptions(options);
            classroom->layout(size);
            return;
        }
        plot.setAttribute(Qt::WA_DontShowOnScreen);
        plot.resize(size);
        figure.setSnapshot(shared);
        figure.setOptions(options);
        figure.setInteractive(false);
        figure.layout(size);
    }
    QString title() const { return classroom ? classroom->titleText() : figure.titleText(); }
    QString caption() const { return classroom ? classroom->captionText() : figure.captionText(); }
    void paint(QCPPainter* painter, QSize size, bool vector) {
        if (classroom)
            classroom->paint(painter, vector);
        else
            plot.toPainter(painter, size.width(), size.height());
    }
};

QJsonValue json_number(float v) {
    return std::isfinite(v) ? QJsonValue(double(v)) : QJsonValue(QJsonValue::Null);
}
}  // namespace

void write_atomically(const QString& path, const QByteArray& bytes) {
    // Unbuffered: a buffered QSaveFile takes a short write while commit() flushes (a full
    // disk) for a complete one, reports success and replaces the previous file with a
    // truncated copy (Qt 6.4).  Unbuffered, every short write shows here, before commit().
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        throw DataError(
            ExportText::tr("Cannot write '%1': %2").arg(path, file.errorString()).toStdString());
    for (qsizetype done = 0; done < bytes.size();) {
        const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0)
            throw DataError(ExportText::tr("Cannot write '%1': %2")
                                .arg(path, file.errorString())
                                .toStdString());
        done += qsizetype(n);
    }
    if (!file.commit())
        throw DataError(
            ExportText::tr("Cannot write '%1': %2").arg(path, file.errorString()).toStdString());
}

std::optional<ExportFormat> figure_format_for(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return ExportFormat::Png;
    if (suffix == QLatin1String("svg")) return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf")) return ExportFormat::Pdf;
    return std::nullopt;
}

std::optional<WeightsFormat> weights_format_for(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) return WeightsFormat::Csv;
    if (suffix == QLatin1String("npy")) return WeightsFormat::Npy;
    if (suffix == QLatin1String("json")) return WeightsFormat::Json;
    return std::nullopt;
}

QString figure_format_suffix(ExportFormat format) {
    switch (format) {
        case ExportFormat::Png:
            return QStringLiteral("png");
        case ExportFormat::Svg:
            return QStringLiteral("svg");
        case ExportFormat::Pdf:
            return QStringLiteral("pdf");
    }
    return {};
}

void validate_export_size(const ExportSize& size) {
    if (size.width < kMinExportSide || size.width > kMaxExportSide ||
        size.height < kMinExportSide || size.height > kMaxExportSide)
        throw UsageError(
            ExportText::tr("The figure size must be between %1 and %2 pixels a side (got %3 x %4).")
                .arg(kMinExportSide)
                .arg(kMaxExportSide)
                .arg(size.width)
                .arg(size.height)
                .toStdString());
    if (!(size.scale >= 0.25 && size.scale <= kMaxExportScale))
        throw UsageError(ExportText::tr("The scale must be between 0.25 and %1 (got %2).")
                             .arg(kMaxExportScale)
                             .arg(size.scale)
                             .toStdString());
    if (double(size.width) * size.scale * double(size.height) * size.scale > 400e6)
        throw UsageError(ExportText::tr("%1 x %2 at scale %3 is too large an image.")
                             .arg(size.width)
                             .arg(size.height)
                             .arg(size.scale)
                             .toStdString());
}

namespace {
/// Paints a figure of `size` logical pixels (`vector`: on SVG or PDF).
using PaintFigure = std::function<void(QCPPainter* painter, bool vector)>;

QImage paint_image(const PaintFigure& paint, QSize size, double scale) {
    QImage image(int(std::lround(size.width() * scale)), int(std::lround(size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    // Record the scale as resolution, so "2x" images open at their intended physical size.
    const int dpm = int(std::lround(96.0 * scale / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNoCaching);
    if (scale > 1.0) painter.setMode(QCPPainter::pmNonCosmetic);
    painter.scale(scale, scale);
    paint(&painter, false);
    painter.end();
    return image.convertToFormat(QImage::Format_RGB32);
}

/// Whether XML 1.0 allows the character at all (escaped or not): not most C0 controls,
/// U+FFFE or U+FFFF.  Lone surrogates never reach here (UTF-8 has none).
bool xml_char(char32_t ch) {
    return ch == 0x9 || ch == 0xa || ch == 0xd || (ch >= 0x20 && ch != 0xfffe && ch != 0xffff);
}

/// `text` with every character XML forbids replaced by U+FFFD, ready for an XML writer.
QString xml_text(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const char32_t ch : text.toUcs4())
        out += xml_char(ch) ? QString::fromUcs4(&ch, 1) : QString(QChar::ReplacementCharacter);
    return out;
}

/// The UTF-8 document with every character XML forbids replaced by U+FFFD: QSvgGenerator
/// copies a label's control characters into the file as they are.  Each is one byte or the
/// sequence EF BF BE/BF, which no other character's encoding contains.
QByteArray xml_bytes(QByteArray utf8) {
    static const QByteArray replacement = QString(QChar::ReplacementCharacter).toUtf8();
    for (qsizetype k = 0; k < utf8.size(); ++k) {
        const auto c = static_cast<unsigned char>(utf8[k]);
        if (c < 0x20 && !xml_char(c)) {
            utf8.replace(k, 1, replacement);
            k += replacement.size() - 1;
        } else if (c == 0xef && k + 2 < utf8.size() &&
                   static_cast<unsigned char>(utf8[k + 1]) == 0xbf &&
                   (static_cast<unsigned char>(utf8[k + 2]) & 0xfe) == 0xbe) {
            utf8.replace(k, 3, replacement);
            k += replacement.size() - 1;
        }
    }
    return utf8;
}

/// A CSS font-family list for SVG text holding CJK characters: Noto Sans CJK SC (what most
/// systems that draw SVG have), the family the window draws `text` in, then `family` (what
/// QSvgGenerator named: the Latin font, for the Latin characters) and sans-serif.
QString cjk_font_family(const QString& text, QStringView family) {
    static const QStringList generic{QStringLiteral("serif"),     QStringLiteral("sans-serif"),
                                     QStringLiteral("monospace"), QStringLiteral("cursive"),
                                     QStringLiteral("fantasy"),   QStringLiteral("system-ui")};
    QStringList names{QStringLiteral("Noto Sans CJK SC"), cjk_family_for(text)};
    for (QStringView name : family.split(QLatin1Char(','))) {
        name = name.trimmed();
        if (name.size() >= 2 &&
            (name.front() == QLatin1Char('\'') || name.front() == QLatin1Char('"')) &&
            name.back() == name.front())
            name = name.mid(1, name.size() - 2);
        names << name.toString();
    }
    names << QStringLiteral("sans-serif");
    QStringList out;
    QStringList seen;
    for (const QString& name : names) {
        if (name.isEmpty() || seen.contains(name, Qt::CaseInsensitive)) continue;
        seen << name;
        if (generic.contains(name, Qt::CaseInsensitive)) {
            out << name;
        } else {
            QString quoted = name;
            quoted.replace(QLatin1String("\\"), QLatin1String("\\\\"));
            quoted.replace(QLatin1String("'"), QLatin1String("\\'"));
            out << QLatin1Char('\'') + quoted + QLatin1Char('\'');
        }
    }
    return out.join(QStringLiteral(", "));
}

/// QSvgGenerator's document made well-formed and readable everywhere: the title and the
/// description written through the XML writer (Qt 6.4 copies them in unescaped, and a token
/// such as <|bos|> in the caption ends the document), and every <text> element holding CJK
/// characters given a font-family list that names a CJK family first (the generator names
/// only the font's first family, a Latin one, and other programs do not fall back from it as
/// Qt does: they draw boxes or nothing).  Everything else is copied token by token.
QByteArray finish_svg(const QByteArray& generated, const QString& title, const QString& caption) {
    const QByteArray xml = xml_bytes(generated);
    const auto check = [](const QXmlStreamReader& r) {
        // Not the user's doing and nothing they can change: a message for a bug report.
        if (r.hasError())
            throw DataError(QStringLiteral("The SVG writer made a document that is not XML "
                                           "(line %1, column %2: %3).")
                                .arg(r.lineNumber())
                                .arg(r.columnNumber())
                                .arg(r.errorString())
                                .toStdString());
    };
    // First pass: the text of each <text> element, in document order (empty: no CJK in it).
    std::vector<QString> cjk_texts;
    {
        QXmlStreamReader r(xml);
        r.setNamespaceProcessing(false);
        while (!r.atEnd()) {
            if (r.readNext() == QXmlStreamReader::StartElement &&
                r.qualifiedName() == QLatin1String("text")) {
                const QString text = r.readElementText(QXmlStreamReader::IncludeChildElements);
                cjk_texts.push_back(holds_cjk(text) ? text : QString());
            }
        }
        check(r);
    }
    // Second pass: the copy.  Without namespace processing every name and attribute is
    // copied as it is spelt (xmlns:xlink, xlink:href, xml:space).
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(false);
    QXmlStreamReader r(xml);
    r.setNamespaceProcessing(false);
    std::size_t text_index = 0;
    int depth = 0;
    while (!r.atEnd()) {
        const QXmlStreamReader::TokenType token = r.readNext();
        if (token == QXmlStreamReader::Invalid) break;
        if (token != QXmlStreamReader::StartElement) {
            depth -= token == QXmlStreamReader::EndElement ? 1 : 0;
            w.writeCurrentToken(r);
            if (token == QXmlStreamReader::StartDocument) w.writeCharacters(QStringLiteral("\n"));
            continue;
        }
        // A title or description of the generator's own (its defaults) gives way to the
        // figure's, written below.
        if (depth == 1 && (r.qualifiedName() == QLatin1String("title") ||
                           r.qualifiedName() == QLatin1String("desc"))) {
            r.skipCurrentElement();
            continue;
        }
        ++depth;
        w.writeStartElement(r.qualifiedName().toString());
        for (const QXmlStreamNamespaceDeclaration& ns : r.namespaceDeclarations())
            w.writeAttribute(ns.prefix().isEmpty()
                                 ? QStringLiteral("xmlns")
                                 : QStringLiteral("xmlns:") + ns.prefix().toString(),
                             ns.namespaceUri().toString());
        QString cjk;
        if (r.qualifiedName() == QLatin1String("text") && text_index < cjk_texts.size())
            cjk = cjk_texts[text_index++];
        bool family = false;
        for (const QXmlStreamAttribute& a : r.attributes()) {
            if (!cjk.isEmpty() && a.qualifiedName() == QLatin1String("font-family")) {
                w.writeAttribute(QStringLiteral("font-family"), cjk_font_family(cjk, a.value()));
                family = true;
            } else {
                w.writeAttribute(a.qualifiedName().toString(), a.value().toString());
            }
        }
        if (!cjk.isEmpty() && !family)
            w.writeAttribute(QStringLiteral("font-family"), cjk_font_family(cjk, {}));
        if (depth == 1) {  // the root: where QSvgGenerator puts them
            if (!title.isEmpty()) {
                w.writeCharacters(QStringLiteral("\n"));
                w.writeTextElement(QStringLiteral("title"), xml_text(title));
            }
            if (!caption.isEmpty()) {
                w.writeCharacters(QStringLiteral("\n"));
                w.writeTextElement(QStringLiteral("desc"), xml_text(caption));
            }
        }
    }
    check(r);
    return out;
}

QByteArray paint_svg(const PaintFigure& paint, QSize size, const QString& title,
                     const QString& caption) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);
    // None (Qt 6.4 would write them unescaped, or its defaults): finish_svg() writes them.
    generator.setTitle(QString());
    generator.setDescription(QString());
    QCPPainter painter;
    if (!painter.begin(&generator))
        throw DataError(ExportText::tr("Cannot start the SVG writer.").toStdString());
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic);
    paint(&painter, true);
    painter.end();
    return finish_svg(bytes, title, caption);
}

QByteArray paint_pdf(const PaintFigure& paint, QSize size, const QString& title) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("AttnViz"));
        writer.setTitle(title);
        // One logical pixel of the figure is one point of the page.
        QPageLayout page(
            QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
        page.setMode(QPageLayout::FullPageMode);
        writer.setPageLayout(page);
        QCPPainter painter;
        if (!painter.begin(&writer))
            throw DataError(ExportText::tr("Cannot start the PDF writer.").toStdString());
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
        // Without it Qt's PDF engine stores each heatmap as a JPEG when that is smaller: bright
        // cells print brown and the grey of masked cells pink.  The data's colours are the
        // figure, so every image goes in losslessly (Flate).
        painter.setRenderHint(QPainter::LosslessImageRendering);
        painter.setWindow(QRect(QPoint(0, 0), size));
        paint(&painter, true);
        painter.end();
    }
    return bytes;
}

ExportFormat checked_format(const QString& path, std::optional<ExportFormat> format,
                            const ExportSize& size) {
    if (!format) format = figure_format_for(path);
    if (!format)
        throw UsageError(ExportText::tr("Unknown figure format for '%1': use .png, .svg or .pdf.")
                             .arg(path)
                             .toStdString());
    validate_export_size(size);
    return *format;
}
}  // namespace

QImage render_figure_image(const AttentionSnapshot& snapshot, const FigureOptions& options,
                           QSize size, double scale, const AttentionSnapshot* compared) {
    OffscreenFigure f(snapshot, options, size, compared);
    return paint_image([&](QCPPainter* p, bool vector) { f.paint(p, size, vector); }, size, scale);
}

QByteArray render_figure_svg(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             QSize size, const AttentionSnapshot* compared) {
    OffscreenFigure f(snapshot, options, size, compared);
    return paint_svg([&](QCPPainter* p, bool vector) { f.paint(p, size, vector); }, size, f.title(),
                     f.caption());
}

QByteArray render_figure_pdf(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             QSize size, const AttentionSnapshot* compared) {
    OffscreenFigure f(snapshot, options, size, compared);
    return paint_pdf([&](QCPPainter* p, bool vector) { f.paint(p, size, vector); }, size,
                     f.title());
}

QSize fitted_painted_figure_size(PaintedFigure& figure, QSize size) {
    figure.layout(size);
    const int used_w = figure.usedWidth();
    // Narrower, the content may wrap and take more height: measured again at that width.
    if (used_w > 0 && used_w < size.width()) figure.layout(QSize(used_w, size.height()));
    const int used_h = figure.usedHeight();
    const QSize logical(used_w > 0 && used_w < size.width() ? used_w : size.width(),
                        used_h > 0 && used_h < size.height() ? used_h : size.height());
    figure.layout(logical);
    return logical;
}

void paint_figure(QPaintDevice* device, const AttentionSnapshot& snapshot,
                  const FigureOptions& options, QSize size, bool vector,
                  const AttentionSnapshot* compared) {
    OffscreenFigure f(snapshot, options, size, compared);
    QCPPainter painter(device);
    painter.setMode(QCPPainter::pmNoCaching);
    if (vector) painter.setMode(QCPPainter::pmVectorized);
    f.paint(&painter, size, vector);
}

void paint_painted_figure(QPaintDevice* device, const PaintedFigure& figure, bool vector) {
    QCPPainter painter(device);
    painter.setMode(QCPPainter::pmNoCaching);
    if (vector) painter.setMode(QCPPainter::pmVectorized);
    figure.paint(&painter, vector);
}

RenderedFigure render_painted_figure(PaintedFigure& figure, const ExportSize& size,
                                     const QString& path, std::optional<ExportFormat> format) {
    RenderedFigure out;
    out.format = checked_format(path, format, size);
    const QSize logical = fitted_painted_figure_size(figure, QSize(size.width, size.height));
    const auto paint = [&](QCPPainter* p, bool vector) { figure.paint(p, vector); };
    switch (out.format) {
        case ExportFormat::Png:
            out.image = paint_image(paint, logical, size.scale);
            out.title = figure.titleText();
            break;
        case ExportFormat::Svg:
            out.bytes = paint_svg(paint, logical, figure.titleText(), figure.captionText());
            break;
        case ExportFormat::Pdf:
            out.bytes = paint_pdf(paint, logical, figure.titleText());
            break;
    }
    return out;
}

QSize fitted_figure_size(const AttentionSnapshot& snapshot, const FigureOptions& options,
                         QSize size, const AttentionSnapshot* compared) {
    int used = -1;
    if (auto classroom = make_classroom_figure(options)) {
        classroom->setSnapshot(SnapshotPtr(SnapshotPtr(), &snapshot));
        if (compared) classroom->setCompared(SnapshotPtr(SnapshotPtr(), compared));
        classroom->setOptions(options);
        classroom->layout(size);
        used = classroom->usedHeight();
    } else {  // the heatmaps: rows of panels, cut under the last
        used = OffscreenFigure(snapshot, options, size, compared).figure.usedHeight();
    }
    // Cut only a band worth cutting: a figure that nearly fills its canvas keeps the size asked.
    // A figure as tall as its content (the whole model, step by step) keeps all of it.
    if (options.kind == FigureKind::Steps && options.whole_model && used > size.height())
        return QSize(size.width(), used);
    return used > 0 && used < size.height() - kMinCutPx ? QSize(size.width(), used) : size;
}

QString figure_title(const AttentionSnapshot& snapshot, const FigureOptions& options,
                     const AttentionSnapshot* compared) {
    if (auto classroom = make_classroom_figure(options)) {
        classroom->setSnapshot(SnapshotPtr(SnapshotPtr(), &snapshot));
        if (compared) classroom->setCompared(SnapshotPtr(SnapshotPtr(), compared));
        classroom->setOptions(options);
        classroom->layout(QSize(800, 600));
        return classroom->titleText();
    }
    return HeatmapFigure::defaultTitle(snapshot, options);
}

RenderedFigure render_figure(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             const ExportSize& size, const QString& path,
                             std::optional<ExportFormat> format,
                             const AttentionSnapshot* compared) {
    format = checked_format(path, format, size);
    // A figure shorter than the canvas (a two-layer mosaic) is cut to its content.
    const QSize logical =
        fitted_figure_size(snapshot, options, QSize(size.width, size.height), compared);
    RenderedFigure out;
    out.format = *format;
    switch (*format) {
        case ExportFormat::Png:
            out.image = render_figure_image(snapshot, options, logical, size.scale, compared);
            out.title = figure_title(snapshot, options, compared);
            break;
        case ExportFormat::Svg:
            out.bytes = render_figure_svg(snapshot, options, logical, compared);
            break;
        case ExportFormat::Pdf:
            out.bytes = render_figure_pdf(snapshot, options, logical, compared);
            break;
    }
    return out;
}

QByteArray encode_figure(const RenderedFigure& figure) {
    if (figure.format != ExportFormat::Png) return figure.bytes;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    writer.setText(QStringLiteral("Title"), figure.title);
    writer.setText(QStringLiteral("Software"), QStringLiteral("AttnViz"));
    if (!writer.write(figure.image))
        throw DataError(
            ExportText::tr("Cannot encode the PNG: %1").arg(writer.errorString()).toStdString());
    return bytes;
}

void export_figure(const AttentionSnapshot& snapshot, const FigureOptions& options,
                   const ExportSize& size, const QString& path, std::optional<ExportFormat> format,
                   const AttentionSnapshot* compared) {
    write_atomically(path,
                     encode_figure(render_figure(snapshot, options, size, path, format, compared)));
}

void copy_figure_to_clipboard(const AttentionSnapshot& snapshot, const FigureOptions& options,
                              QSize size, double scale, const AttentionSnapshot* compared) {
    // Rendered before the QMimeData exists, so a refused figure leaks nothing.
    const QSize fitted = fitted_figure_size(snapshot, options, size, compared);
    const QImage image = render_figure_image(snapshot, options, fitted, scale, compared);
    const QByteArray svg = render_figure_svg(snapshot, options, fitted, compared);
    auto* mime = new QMimeData;
    mime->setImageData(image);
    mime->setData(QStringLiteral("image/svg+xml"), svg);
    QApplication::clipboard()->setMimeData(mime);
}

QByteArray weights_csv(const AttentionSnapshot& s) {
    QByteArray out;
    for (int n = 0; n < s.batch; ++n) {
        QStringList header{QStringLiteral("item"), QStringLiteral("head"),
                           QStringLiteral("query_index"), QStringLiteral("query_token")};
        for (int j = 0; j < s.source_len; ++j)
            header << csv_field(
                QStringLiteral("%1:%2").arg(j + s.key_offset).arg(s.key_tokens[n][j]));
        if (n == 0 || s.key_tokens[n] != s.key_tokens[0])
            out += header.join(QLatin1Char(',')).toUtf8() + '\n';
        for (int h = 0; h <= s.heads; ++h) {
            const int head = h == s.heads ? -1 : h;
            for (int i = 0; i < s.target_len; ++i) {
                QStringList row{QString::number(n),
                                head < 0 ? QStringLiteral("mean") : QString::number(head),
                                QString::number(i + s.query_offset),  // in the whole text
                                csv_field(s.query_tokens[n][i])};
                for (int j = 0; j < s.source_len; ++j)
                    row << csv_number(s.value(n, head, i, j));
                out += row.join(QLatin1Char(',')).toUtf8() + '\n';
            }
        }
    }
    return out;
}

QByteArray weights_json(const AttentionSnapshot& s) {
    auto matrix = [&](int n, int h) {
        QJsonArray rows;
        for (int i = 0; i < s.target_len; ++i) {
            QJsonArray row;
            for (int j = 0; j < s.source_len; ++j)
                row.append(json_number(s.value(n, h, i, j)));
            rows.append(row);
        }
        return rows;
    };
    QJsonArray items;
    for (int n = 0; n < s.batch; ++n) {
        QJsonArray queries, keys, heads, masked, fully;
        for (const QString& t : s.query_tokens[n])
            queries.append(t);
        for (const QString& t : s.key_tokens[n])
            keys.append(t);
        for (int h = 0; h < s.heads; ++h) {
            heads.append(matrix(n, h));
            QJsonArray rows;
            for (int i = 0; i < s.target_len; ++i)
                rows.append(s.row_fully_masked(n, h, i) ? 1 : 0);
            fully.append(rows);
        }
        for (int i = 0; i < s.target_len; ++i) {
            QJsonArray row;
            for (int j = 0; j < s.source_len; ++j)
                row.append(s.is_masked(n, i, j) ? 1 : 0);
            masked.append(row);
        }
        items.append(QJsonObject{{QStringLiteral("query_tokens"), queries},
                                 {QStringLiteral("key_tokens"), keys},
                                 {QStringLiteral("weights"), heads},
                                 {QStringLiteral("mean_weights"), matrix(n, -1)},
                                 {QStringLiteral("masked"), masked},
                                 {QStringLiteral("fully_masked_rows"), fully}});
    }
    const ComputeConfig& c = s.config;
    QJsonObject config = layer_json(c);
    config[QStringLiteral("pair_mode")] = pair_mode_name(c.pair_mode);
    config[QStringLiteral("causal")] = c.causal;
    config[QStringLiteral("masked_rows")] = QLatin1String(masked_row_policy_name(c.masked_rows));
    // Norm-based maps in the weights' places (AttentionShown), said so; weights say nothing.
    if (s.norm_based)
        config[QStringLiteral("attention")] = attention_shown_name(AttentionShown::NormBased);
    QJsonObject root{
        {QStringLiteral("format"), QStringLiteral("attnviz-weights")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("description"), describe_config(c)},
        {QStringLiteral("config"), config},
        {QStringLiteral("shape"), QJsonArray{s.batch, s.heads, s.target_len, s.source_len}},
        {QStringLiteral("items"), items}};
    // What of the result was kept (the memory budget): the first `heads` of num_heads, and
    // query/key positions from the offsets (a window of a longer text).
    if (s.windowed() || s.heads < s.num_heads)
        root[QStringLiteral("kept")] = QJsonObject{{QStringLiteral("num_heads"), s.num_heads},
                                                   {QStringLiteral("query_offset"), s.query_offset},
                                                   {QStringLiteral("query_total"), s.query_total},
                                                   {QStringLiteral("key_offset"), s.key_offset},
                                                   {QStringLiteral("key_total"), s.key_total}};
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

void export_weights(const AttentionSnapshot& s, const QString& path,
                    std::optional<WeightsFormat> format) {
    if (!format) format = weights_format_for(path);
    if (!format)
        throw UsageError(ExportText::tr("Unknown weights format for '%1': use .csv, .npy or .json.")
                             .arg(path)
                             .toStdString());
    switch (*format) {
        case WeightsFormat::Csv:
            write_atomically(path, weights_csv(s));
            break;
        case WeightsFormat::Json:
            write_atomically(path, weights_json(s));
            break;
        case WeightsFormat::Npy: {
            // The array is [N, H, L, S]; with the mean only (an offer of the memory budget)
            // there is no H to fill.
            if (s.weights.empty())
                throw UsageError(
                    ExportText::tr("Only the mean over heads was kept, so there are no per-head "
                                   "weights for a .npy array [N, H, L, S]: keep the heads' "
                                   "weights, or export CSV or JSON, which hold the mean.")
                        .toStdString());
            const std::string bytes = io::serialize_npy(s.weights);
            write_atomically(path, QByteArray(bytes.data(), qsizetype(bytes.size())));
            break;
        }
    }
}

}  // namespace attnviz::ui
