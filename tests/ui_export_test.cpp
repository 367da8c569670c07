// Figure and weight exports through the one export function, and `attnviz export` run as a
// real process: sizes, SVG text, PDF headers, exit codes, nothing left behind on failure,
// and Chinese tokens drawn as characters rather than empty boxes.
#include <QComboBox>
#include <QFile>
#include <QFontMetrics>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QXmlStreamReader>

#include "engine/errors.h"
#include "engine/io/npy.h"
#include "file_support.h"
#include "test_support.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/i18n/language.h"
#include "ui/model/patch_figure.h"
#include "ui/model/positions_view.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"
#include "ui/render/heatmap_figure.h"
#include "ui/render/zoom_map_figure.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/main_window.h"  // language.h holds a QPointer<MainWindow>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::test::read_all;

namespace {
/// `attnviz export ARGS`, run with no display at all: the command must manage on its own.
test::ProcessRun run_cli(const QStringList& args) {
    return test::run_attnviz(QStringList{QStringLiteral("export")} + args, true);
}

/// Texts of all <text> elements of an SVG, checking the XML is well formed.
QStringList svg_texts(const QByteArray& xml, bool* ok) {
    QXmlStreamReader r(xml);
    QStringList texts;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement() && r.name() == QLatin1String("text"))
            texts << r.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    *ok = !r.hasError();
    return texts;
}

/// Dark pixels of a text drawn alone in `font`.
int ink(const QFont& font, const QString& text) {
    QImage image(200, 80, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(image.rect(), Qt::AlignCenter, text);
    p.end();
    int dark = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            dark += qGray(image.pixel(x, y)) < 128;
    return dark;
}

QString model_dir(const char* name) {
    return QString::fromStdString(test::golden_dir()) + QStringLiteral("/../../resources/models/") +
           QLatin1String(name);
}

/// A character of Chinese, Japanese or Korean, decided here independently of fonts.h: the
/// scripts, and the punctuation, symbols and full-width forms they share.
bool cjk_char(char32_t ch) {
    const QChar::Script s = QChar::script(ch);
    return s == QChar::Script_Han || s == QChar::Script_Hiragana || s == QChar::Script_Katakana ||
           s == QChar::Script_Hangul || s == QChar::Script_Bopomofo ||
           (ch >= 0x2e80 && ch <= 0x2fdf) || (ch >= 0x3000 && ch <= 0x303f) ||
           (ch >= 0x31c0 && ch <= 0x33ff) || (ch >= 0xfe30 && ch <= 0xfe4f) ||
           (ch >= 0xff00 && ch <= 0xffef);
}

/// The families of a CSS font-family list, unquoted, in order.
QStringList css_families(const QString& value) {
    QStringList out;
    for (QString f : value.split(QLatin1Char(','))) {
        f = f.trimmed();
        if (f.size() >= 2 && (f.front() == QLatin1Char('\'') || f.front() == QLatin1Char('"')))
            f = f.mid(1, f.size() - 2);
        out << f;
    }
    return out;
}

/// What a strict XML reader makes of an SVG: the error (empty: well formed), its <title> and
/// <desc>, and every <text> element's content and font-family.
struct SvgReading {
    QString error;
    QString title, desc;
    QList<QPair<QString, QString>> texts;  ///< content, font-family
    int cjk_texts = 0;                     ///< <text> elements holding a CJK character
    QStringList problems;                  ///< CJK text without a CJK family first, ...
};

SvgReading read_svg(const QByteArray& xml) {
    SvgReading out;
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        if (r.readNext() != QXmlStreamReader::StartElement) continue;
        if (r.name() == QLatin1String("title") && out.title.isEmpty()) {
            out.title = r.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (r.name() == QLatin1String("desc") && out.desc.isEmpty()) {
            out.desc = r.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (r.name() == QLatin1String("text")) {
            const QString family = r.attributes().value(QLatin1String("font-family")).toString();
            const QString text = r.readElementText(QXmlStreamReader::IncludeChildElements);
            out.texts.append({text, family});
            const QList<uint> chars = text.toUcs4();
            const bool cjk = std::any_of(chars.begin(), chars.end(),
                                         [](uint ch) { return cjk_char(char32_t(ch)); });
            const QStringList families = css_families(family);
            if (cjk) {
                ++out.cjk_texts;
                if (families.value(0) != QLatin1String("Noto Sans CJK SC"))
                    out.problems
                        << QStringLiteral("CJK text '%1' in font-family '%2'").arg(text, family);
            } else if (families.value(0).contains(QLatin1String("CJK"))) {
                // Latin-only text keeps the font the figure draws it in.
                out.problems
                    << QStringLiteral("Latin text '%1' in font-family '%2'").arg(text, family);
            }
        }
    }
    if (r.hasError())
        out.error = QStringLiteral("line %1, column %2: %3")
                        .arg(r.lineNumber())
                        .arg(r.columnNumber())
                        .arg(r.errorString());
    return out;
}

/// Dark pixels in row `y` of `image`.
int dark_in_row(const QImage& image, int y) {
    int n = 0;
    for (int x = 0; x < image.width(); ++x)
        n += qGray(image.pixel(x, y)) < 160;
    return n;
}

/// A finished sweep of 2 layers x 8 heads on the shipped activation patching example, drawn
/// without a model: what `attnviz export --view patch` draws for it.
PatchMaps example_patch_maps() {
    PatchMaps m;
    m.model = QStringLiteral("attn-only-2l");
    m.num_layers = 2;
    m.num_heads = 8;
    m.clean_text = QStringLiteral("zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1");
    m.corrupt_text = QStringLiteral("zK8&pW3!rT6~bN1x zK8&pW3!rT6~bN1");
    m.clean_tokens.push_back(QStringLiteral("<|bos|>"));
    m.corrupt_tokens.push_back(QStringLiteral("<|bos|>"));
    for (const QChar c : m.clean_text)
        m.clean_tokens.push_back(QString(c));
    for (const QChar c : m.corrupt_text)
        m.corrupt_tokens.push_back(QString(c));
    m.target = QStringLiteral("^");
    m.distractor = QStringLiteral("x");
    std::vector<float> fraction(16, 0.01f);
    fraction[8 + 7] = 0.74f;  // head 2.8, the induction head
    m.result.fraction = Tensor({2, 8}, fraction);
    m.result.m_patched = Tensor({2, 8}, 1.0f);
    m.result.m_clean = 4.785;
    m.result.m_corrupt = -2.5;
    m.result.position = std::int64_t(m.clean_tokens.size()) - 1;
    m.done = m.total = 16;
    return m;
}

SnapshotPtr demo_snapshot(PairMode mode = PairMode::Single) {
    ComputeConfig c;
    c.text_a = QStringLiteral("The cat sat on the mat");
    c.text_b = QStringLiteral("那只猫坐在垫子上");
    c.pair_mode = mode;
    c.embed_dim = 32;
    c.num_heads = 4;
    c.causal = mode == PairMode::Single;
    return compute_snapshot(c, 1);
}
}  // namespace

class ExportTest : public QObject {
    Q_OBJECT

  private slots:
    void pngHasTheRequestedSizeTimesScale_data() {
        QTest::addColumn<double>("scale");
        QTest::newRow("1x") << 1.0;
        QTest::newRow("2x") << 2.0;
        QTest::newRow("3x") << 3.0;
    }
    void pngHasTheRequestedSizeTimesScale() {
        QFETCH(double, scale);
        const SnapshotPtr s = demo_snapshot();
        const QString path = test::temp_path(QStringLiteral("scale.png"));
        export_figure(*s, FigureOptions{}, ExportSize{640, 400, scale}, path);
        QImage image(path);
        QCOMPARE(image.size(), QSize(int(640 * scale), int(400 * scale)));
        // Not blank: the heatmap paints a good part of the figure.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4) {
                const QColor c = image.pixelColor(x, y);
                coloured += c.saturation() > 60;
            }
        QVERIFY(coloured > 100);
    }

    // A grid of 9 panels of 24 tokens on the default canvas: every token labelled (the
    // labels shrink to the cells), and the export cut under the last row of panels, not
    // padded with white bands.  A figure that fills its canvas keeps the size asked for.
    void gridExportsFitTheirContentAndLabelEveryToken() {
        ComputeConfig c;
        c.text_a = QStringLiteral("a b c d e f g h i j k l m n o p q r s t u v w x");
        c.embed_dim = 64;
        c.num_heads = 8;
        c.causal = true;
        const SnapshotPtr s = compute_snapshot(c, 1);
        QCOMPARE(s->target_len, 24);
        const QSize fitted = fitted_figure_size(*s, FigureOptions{}, QSize(1600, 1000));
        QCOMPARE(fitted.width(), 1600);
        QVERIFY2(fitted.height() < 800, qPrintable(QString::number(fitted.height())));
        const QImage image = render_figure_image(*s, FigureOptions{}, fitted, 1.0);
        // The last 40 rows hold nothing but the bottom margin and the key labels' tails;
        // the panels' colours reach down to within a band of the bottom.
        int lowest = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); x += 2)
                if (image.pixelColor(x, y).saturation() > 60) lowest = y;
        QVERIFY2(image.height() - lowest < 140,
                 qPrintable(QStringLiteral("%1 of %2").arg(lowest).arg(image.height())));

        QCustomPlot plot;
        plot.resize(fitted);
        HeatmapFigure figure(&plot);
        figure.setSnapshot(s);
        figure.setOptions(FigureOptions{});
        figure.layout(fitted);
        plot.replot();
        for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atBottom}) {
            QCPAxis* axis = figure.panelRect(0)->axis(side);
            QCOMPARE(axis->tickVector().size(), 24);                               // every token
            QVERIFY(axis->tickLabelFont().pixelSize() < FigureOptions{}.font_px);  // shrunk
        }

        // The demo's 7 tokens fill 640 × 400: the size asked for.
        QCOMPARE(fitted_figure_size(*demo_snapshot(), FigureOptions{}, QSize(640, 400)),
                 QSize(640, 400));
    }

    void svgIsXmlWithTheTokensAsText() {
        const SnapshotPtr s = demo_snapshot(PairMode::CrossAttention);
        const QString path = test::temp_path(QStringLiteral("cross.svg"));
        export_figure(*s, FigureOptions{}, ExportSize{900, 600, 1.0}, path);
        bool ok = false;
        const QStringList texts = svg_texts(read_all(path), &ok);
        QVERIFY(ok);
        for (const char* token : {"The", "cat", "mat"})
            QVERIFY2(texts.contains(QLatin1String(token)), token);
        QVERIFY(texts.contains(QStringLiteral("猫")));
        QVERIFY(texts.contains(QStringLiteral("attention weight")));
        // The title states the configuration.
        bool caption = false;
        for (const QString& t : texts)
            caption |= t.contains(QLatin1String("embed_dim 32"));
        QVERIFY(caption);
        // Vector cells: rectangles; the only bitmap is the colour bar's gradient.
        QCOMPARE(read_all(path).count("<image"), 1);
    }

    // Issue 35, item 4: every SVG is XML a strict reader accepts, whatever the tokens and texts
    // hold (<|bos|>, &, quotes), in either language; <text> holding CJK names Noto Sans CJK SC
    // first (programs other than Qt do not fall back from the Latin family: they draw boxes or
    // nothing), and Latin-only text keeps its font.  Every figure `attnviz export` draws.
    void svgOfEveryFigureIsXmlWithCjkFonts_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("cjk");  // the figure has CJK text to draw
        const QString latin = QStringLiteral("ab <c & \"d\"> ab");
        const QString chinese = QStringLiteral("春风不觉晓，处处闻啼鸟 <&\"> 春眠不觉晓");
        const QStringList views{"grid",    "mean",  "head:2", "steps",      "lines",
                                "compare", "model", "lens",   "predictions"};
        for (const char* language : {"en", "zh_CN"}) {
            const QString lang = QString::fromLatin1(language);
            const bool zh = lang != QLatin1String("en");
            const QStringList size{"--lang", lang, "--width", "900", "--height", "600"};
            // Random weights (the built-in tokenizer), then the two shipped models.
            for (const char* view : {"grid", "steps", "lines", "compare"}) {
                QStringList args = size + QStringList{"--text", latin, "--view", view};
                if (view == QLatin1String("compare"))
                    args << "--compare"
                         << "causal";
                QTest::addRow("%s no model %s", qPrintable(lang), view) << args << zh;
            }
            for (const char* model : {"attn-only-2l", "attn-only-zh-en-2l"}) {
                const bool zh_model = model == QLatin1String("attn-only-zh-en-2l");
                for (const QString& view : views) {
                    QStringList args = size + QStringList{"--model", model_dir(model),
                                                          "--text",  zh_model ? chinese : latin,
                                                          "--view",  view};
                    if (view == QLatin1String("compare"))
                        args << "--b-layer"
                             << "2";
                    QTest::addRow("%s %s %s", qPrintable(lang), model, qPrintable(view))
                        << args << (zh || zh_model);
                }
            }
            // The shipped activation patching example, and one in Chinese.
            QTest::addRow("%s attn-only-2l patch", qPrintable(lang))
                << size + QStringList{"--model",      model_dir("attn-only-2l"),
                                      "--view",       "patch",
                                      "--clean",      "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1",
                                      "--corrupt",    "zK8&pW3!rT6~bN1x zK8&pW3!rT6~bN1",
                                      "--target",     "^",
                                      "--distractor", "x"}
                << zh;
            QTest::addRow("%s attn-only-zh-en-2l patch", qPrintable(lang))
                << size +
                       QStringList{"--model",      model_dir("attn-only-zh-en-2l"),
                                   "--view",       "patch",
                                   "--clean",      "春风不觉晓 & 处处闻啼鸟。春风不觉晓 & 处处闻啼",
                                   "--corrupt",    "春风不觉晓 & 处处闻啼花。春风不觉晓 & 处处闻啼",
                                   "--target",     "鸟",
                                   "--distractor", "花"}
                << true;
        }
    }
    void svgOfEveryFigureIsXmlWithCjkFonts() {
        QFETCH(QStringList, args);
        QFETCH(bool, cjk);
        QString name = QString::fromLatin1(QTest::currentDataTag());
        name.replace(QLatin1Char(' '), QLatin1Char('-'))
            .replace(QLatin1Char(':'), QLatin1Char('-'));
        const QString out = test::temp_path(QStringLiteral("every-%1.svg").arg(name));
        const test::ProcessRun r = run_cli(args + QStringList{"--out", out});
        QVERIFY2(r.status == 0, r.err.constData());
        const SvgReading svg = read_svg(read_all(out));
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QVERIFY2(svg.problems.isEmpty(), qPrintable(svg.problems.join(QLatin1Char('\n'))));
        QVERIFY(!svg.texts.isEmpty());
        QVERIFY(!svg.title.isEmpty());
        if (cjk) QVERIFY(svg.cjk_texts > 0);
        // The special characters reach the document (<|bos|>, the tokens, the texts in the
        // caption) and come back as they were: escaped once, not twice.
        QString all = svg.title + svg.desc;
        for (const auto& t : svg.texts)
            all += t.first;
        QVERIFY2(all.contains(QLatin1Char('<')) || all.contains(QLatin1Char('&')),
                 qPrintable(all.left(400)));
        for (const char* escaped : {"&lt;", "&amp;", "&quot;", "&gt;"})
            QVERIFY2(!all.contains(QLatin1String(escaped)), escaped);
    }

    // The figures of the window alone (the positions plot, a head's full map) go through the
    // same SVG writer: titles and tokens with <|bos|>, & and quotes, in either language.
    void svgOfWindowFiguresIsXmlWithCjkFonts_data() {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void svgOfWindowFiguresIsXmlWithCjkFonts() {
        QFETCH(QString, lang);
        const auto english = qScopeGuard([] { install_translations(QStringLiteral("en")); });
        QVERIFY(install_translations(lang));
        const std::vector<QString> tokens{"<|bos|>", "猫", "&", "\"q\"", "<a>", "坐"};
        const auto L = std::int64_t(tokens.size());

        auto stats = std::make_shared<PositionStatistics>();
        stats->name = QStringLiteral("模型 <|bos|> & \"q\"");
        for (const QString& t : tokens)
            stats->tokens << t;
        models::HeadStatistics& h = stats->statistics;
        h.layers = h.heads = 1;
        h.length = L;
        h.causal = true;
        for (std::int64_t j = 0; j < L; ++j) {
            h.received.push_back(1.0f / float(j + 1));
            h.first_token.push_back(j == 0 ? 1.0f : 0.5f);
        }
        PositionsFigure positions(stats, PositionsPlotOptions{});

        Tensor map({L, L});
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t j = 0; j <= i; ++j)
                map.data[std::size_t(i * L + j)] = 1.0f / float(i + 1);
        ZoomMapFigure full_map;
        full_map.setContent({std::make_shared<const ops::MapPyramid>(std::move(map)), tokens, true,
                             QStringLiteral("模型 <|bos|> & \"q\" · 1 · 2")});
        full_map.setRegion(QRectF(0, 0, double(L), double(L)));

        for (PaintedFigure* figure :
             {static_cast<PaintedFigure*>(&positions), static_cast<PaintedFigure*>(&full_map)}) {
            const RenderedFigure f =
                render_painted_figure(*figure, ExportSize{900, 600, 1.0}, QStringLiteral("f.svg"));
            const SvgReading svg = read_svg(f.bytes);
            QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
            QVERIFY2(svg.problems.isEmpty(), qPrintable(svg.problems.join(QLatin1Char('\n'))));
            QVERIFY(svg.cjk_texts > 0);
            QCOMPARE(svg.title, figure->titleText());
            QCOMPARE(svg.desc, figure->captionText());
        }
    }

    // Characters XML has no place for (a control character, U+FFFF) in a title the user
    // typed: the SVG still parses, with U+FFFD for each, in the title element and the drawn
    // text alike.
    void svgWithControlCharactersIsXml() {
        FigureOptions options;
        options.title = QStringLiteral("a\u0001b <|bos|> & \"q\" \uFFFF 猫");
        const QByteArray bytes =
            render_figure_svg(*demo_snapshot(), options, QSize(640, 400), nullptr);
        const SvgReading svg = read_svg(bytes);
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QVERIFY2(svg.problems.isEmpty(), qPrintable(svg.problems.join(QLatin1Char('\n'))));
        const QString expected = QStringLiteral("a\uFFFDb <|bos|> & \"q\" \uFFFD 猫");
        QCOMPARE(svg.title, expected);
        QString drawn;
        for (const auto& t : svg.texts)
            drawn += t.first;
        QVERIFY2(drawn.contains(QStringLiteral("<|bos|> & \"q\"")), qPrintable(drawn));
    }

    // Issue 35, item 5: the Chinese patching figure keeps its last line ("所有头均已运行（16
    // 个）").  Its notes are measured in the font they are drawn in (Chinese in the CJK
    // family, taller than the Latin one, and wrapped into more lines), so the canvas is cut
    // under them: nothing is drawn in the bottom padding.
    void patchFigureKeepsItsLastLine_data() {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void patchFigureKeepsItsLastLine() {
        QFETCH(QString, lang);
        const auto english = qScopeGuard([] { install_translations(QStringLiteral("en")); });
        QVERIFY(install_translations(lang));
        const PatchMaps maps = example_patch_maps();
        PatchFigure figure;
        figure.setMaps(&maps);
        FigureOptions options;
        options.font_px = 14;  // attnviz export's
        figure.setOptions(options);
        const QImage image = render_painted_figure(figure, ExportSize{1600, 1000, 1.0},
                                                   test::temp_path(QStringLiteral("patch.png")))
                                 .image;
        // Cut to the content: the canvas is the height the layout reported.
        QCOMPARE(image.height(), figure.usedHeight());
        const QRectF notes = figure.notesRect();
        const QString lines = figure.notesLines();
        QVERIFY(!notes.isEmpty());
        QVERIFY2(lines.section(QLatin1Char('\n'), -1).contains(QLatin1String("16")),
                 qPrintable(lines));
        // Where the text engine puts the lines the figure draws, in the font it draws them in
        // (the CJK fallback's metrics included): inside the notes' rectangle, which drawText
        // clips them to, and inside the canvas.
        const QRectF drawn = QFontMetricsF(figure.notesFont())
                                 .boundingRect(notes, Qt::AlignLeft | Qt::AlignTop, lines);
        QVERIFY2(drawn.bottom() <= notes.bottom() && notes.bottom() <= image.height(),
                 qPrintable(QStringLiteral("lines drawn down to %1; notes end at %2; canvas %3")
                                .arg(drawn.bottom())
                                .arg(notes.bottom())
                                .arg(image.height())));
        // The pixels agree: the notes are the lowest thing drawn, and their last line ends
        // above the rectangle's bottom edge (a line cut there has ink down to the edge).
        int lowest = -1;
        for (int y = 0; y < image.height(); ++y)
            if (dark_in_row(image, y) > 0) lowest = y;
        QVERIFY2(lowest > notes.top() && lowest < notes.bottom() - 1.5,
                 qPrintable(QStringLiteral("ink down to %1; notes %2 to %3; canvas %4")
                                .arg(lowest)
                                .arg(notes.top())
                                .arg(notes.bottom())
                                .arg(image.height())));
    }

    void pdfIsAVectorDocument() {
        const SnapshotPtr s = demo_snapshot();
        const QString path = test::temp_path(QStringLiteral("grid.pdf"));
        export_figure(*s, FigureOptions{}, ExportSize{900, 600, 1.0}, path);
        const QByteArray pdf = read_all(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.size() > 5000);
        QVERIFY(pdf.contains("/Font"));  // labels are text, not pixels
    }

    // The PDF keeps the data's colours: rasterised by poppler at one pixel per point, it
    // matches the PNG export of the same figure.  Qt's PDF engine stored heatmaps as JPEG
    // (bright cells brown, masked grey pink) until images went in losslessly.
    void pdfColoursMatchThePng() {
        const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
        QVERIFY2(!pdftoppm.isEmpty(), "pdftoppm (poppler-utils, installed by tools/setup.sh test)");
        const QString model = model_dir("char-zh-en-4l");
        const QString text = QStringLiteral("春眠不觉晓，处处闻啼鸟。春眠不觉晓，处处闻啼鸟。");
        const QString png = test::temp_path(QStringLiteral("model.png")),
                      pdf = test::temp_path(QStringLiteral("model.pdf"));
        for (const QString& out : {png, pdf}) {
            QStringList args = {"export", "--model", model,     "--text", text,
                                "--view", "model",   "--width", "900",    "--height",
                                "600",    "--out",   out};
            if (out == png)
                args << "--scale"
                     << "1";
            const auto r = test::run_cli(args);
            QVERIFY2(r.status == 0, qPrintable(r.err));
        }
        const QString prefix = test::temp_path(QStringLiteral("model_pdf"));
        QProcess p;
        p.start(pdftoppm, {QStringLiteral("-r"), QStringLiteral("72"), QStringLiteral("-png"),
                           QStringLiteral("-singlefile"), pdf, prefix});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage a = QImage(png).convertToFormat(QImage::Format_RGB32);
        const QImage b =
            QImage(prefix + QStringLiteral(".png")).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(b.size(), a.size());
        // Text and edges are antialiased differently by the two rasterisers, so only the
        // inside of flat areas (a pixel of the PNG equal to its eight neighbours: cell
        // interiors, the masked grey, the background) is compared, where the colours must agree.
        qint64 flat = 0, off = 0;
        int worst = 0;
        for (int y = 1; y + 1 < a.height(); ++y)
            for (int x = 1; x + 1 < a.width(); ++x) {
                const QRgb c = a.pixel(x, y);
                bool same = true;
                for (int dy = -1; dy <= 1 && same; ++dy)
                    for (int dx = -1; dx <= 1 && same; ++dx)
                        same = a.pixel(x + dx, y + dy) == c;
                if (!same) continue;
                ++flat;
                const QRgb o = b.pixel(x, y);
                const int d =
                    std::max({std::abs(qRed(c) - qRed(o)), std::abs(qGreen(c) - qGreen(o)),
                              std::abs(qBlue(c) - qBlue(o))});
                worst = std::max(worst, d);
                off += d > 16 ? 1 : 0;
            }
        const double fraction = double(off) / double(flat);
        qInfo("flat pixels: %lld; off by more than 16: %.3f%%; worst %d", flat, 100.0 * fraction,
              worst);
        QVERIFY(flat > a.width() * a.height() / 2);
        QVERIFY2(fraction < 0.01,  // lossless: 0.23% (image edges a pixel apart); JPEG: 4.2%
                 qPrintable(QStringLiteral("%1% of the flat pixels differ").arg(100 * fraction)));
    }

    void unknownFormatAndBadPathLeaveNothing() {
        const SnapshotPtr s = demo_snapshot();
        const QString bmp = test::temp_path(QStringLiteral("figure.bmp"));
        QVERIFY_THROWS_EXCEPTION(UsageError, export_figure(*s, FigureOptions{}, ExportSize{}, bmp));
        QVERIFY(!QFile::exists(bmp));
        const QString missing = test::temp_path(QStringLiteral("nowhere/figure.png"));
        QVERIFY_THROWS_EXCEPTION(
            DataError, export_figure(*s, FigureOptions{}, ExportSize{300, 200, 1}, missing));
        QVERIFY(!QFile::exists(missing));
        QVERIFY_THROWS_EXCEPTION(
            UsageError,
            export_figure(*s, FigureOptions{}, ExportSize{10, 10, 1}, test::temp_path("tiny.png")));
    }

    void weightsAsCsvNpyAndJson() {
        const SnapshotPtr s = demo_snapshot();
        const QString npy = test::temp_path(QStringLiteral("w.npy"));
        export_weights(*s, npy);
        const Tensor t = io::read_npy(npy.toStdString());
        QCOMPARE(t.shape, (Shape{1, 4, 6, 6}));
        ATTNVIZ_COMPARE_TENSORS(t, s->weights, 0.0);

        const QString json = test::temp_path(QStringLiteral("w.json"));
        export_weights(*s, json);
        const QJsonObject root = QJsonDocument::fromJson(read_all(json)).object();
        QCOMPARE(root[QStringLiteral("format")].toString(), QStringLiteral("attnviz-weights"));
        const QJsonObject item = root[QStringLiteral("items")].toArray()[0].toObject();
        QCOMPARE(item[QStringLiteral("key_tokens")].toArray()[1].toString(), QStringLiteral("cat"));
        const double stored =
            item[QStringLiteral("weights")].toArray()[2].toArray()[1].toArray()[0].toDouble();
        ATTNVIZ_FUZZY(stored, s->weight(0, 2, 1, 0), 1e-6);

        const QString csv = test::temp_path(QStringLiteral("w.csv"));
        export_weights(*s, csv);
        const QList<QByteArray> lines = read_all(csv).split('\n');
        QCOMPARE(
            lines[0],
            QByteArray("item,head,query_index,query_token,0:The,1:cat,2:sat,3:on,4:the,5:mat"));
        QCOMPARE(lines.size() - 1, 1 + 5 * 6);  // header + (4 heads + mean) x 6 queries
    }

    void chineseTokensRenderAsCharacters() {
        const QFont font = figure_font(16, {QStringLiteral("猫坐在垫子上")});
        QVERIFY2(font_covers(font, QStringLiteral("猫坐在垫子上")),
                 qPrintable(font.families().join(QLatin1Char(','))));
        QVERIFY2(!cjk_font_families().isEmpty(), "install fonts-noto-cjk or fonts-wqy-microhei");
        // A real glyph has more ink than a missing-glyph box and differs from it.
        QImage glyph(100, 60, QImage::Format_RGB32), box(100, 60, QImage::Format_RGB32);
        QVERIFY(ink(font, QStringLiteral("猫")) > 20);
        QVERIFY(ink(font, QStringLiteral("猫")) != ink(font, QStringLiteral("\U000F0000")));
    }

    void cliWritesPngSvgAndPdf() {
        const QStringList common{"--text",      "The cat sat on the mat because it was tired",
                                 "--embed-dim", "64",
                                 "--num-heads", "4",
                                 "--seed",      "3",
                                 "--causal"};
        const QString png = test::temp_path(QStringLiteral("cli.png"));
        test::ProcessRun r = run_cli(common + QStringList{"--width", "700", "--height", "500",
                                                          "--scale", "2", "--out", png});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(QImageReader(png).size(), QSize(1400, 1000));

        const QString svg = test::temp_path(QStringLiteral("cli.svg"));
        r = run_cli(common + QStringList{"--view", "head:2", "--colormap", "magma", "--out", svg});
        QVERIFY2(r.status == 0, r.err.constData());
        bool ok = false;
        const QStringList texts = svg_texts(read_all(svg), &ok);
        QVERIFY(ok);
        QVERIFY(texts.contains(QStringLiteral("because")));
        QVERIFY(texts.contains(QStringLiteral("Head 2")));

        const QString pdf = test::temp_path(QStringLiteral("cli.pdf"));
        r = run_cli(common +
                    QStringList{"--view", "mean", "--dropout", "0.3", "--train", "--out", pdf});
        QVERIFY2(r.status == 0, r.err.constData());
        const QByteArray bytes = read_all(pdf);
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 5000);
    }

    void cliSameFigureAsTheWindowFunction() {
        // The command line and export_figure share one renderer: same input, same pixels.
        const QString cli = test::temp_path(QStringLiteral("same-cli.png"));
        const test::ProcessRun r =
            run_cli({"--text", "The cat sat on the mat", "--embed-dim", "32", "--num-heads", "4",
                     "--causal", "--width", "640", "--height", "400", "--scale", "1", "--font-size",
                     "14", "--out", cli});
        QVERIFY2(r.status == 0, r.err.constData());
        // attnviz export draws its texts in English through the app's catalog; so does this.
        QVERIFY(install_translations(QStringLiteral("en")));
        const SnapshotPtr s = demo_snapshot();
        FigureOptions options;
        options.font_px = 14;
        const QString direct = test::temp_path(QStringLiteral("same-direct.png"));
        export_figure(*s, options, ExportSize{640, 400, 1.0}, direct);
        QCOMPARE(QImage(cli).convertToFormat(QImage::Format_RGB32),
                 QImage(direct).convertToFormat(QImage::Format_RGB32));
    }

    void cliErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("file");
        QTest::newRow("no text") << QStringList{"--out", "x.png"} << 2 << QString();
        QTest::newRow("unknown option")
            << QStringList{"--text", "a b", "--frobnicate", "--out", "u.png"} << 2 << "u.png";
        QTest::newRow("heads do not divide")
            << QStringList{"--text",      "a b", "--embed-dim", "64",
                           "--num-heads", "6",   "--out",       "h.png"}
            << 2 << "h.png";
        QTest::newRow("unknown format")
            << QStringList{"--text", "a b", "--out", "f.bmp"} << 2 << "f.bmp";
        QTest::newRow("bad view") << QStringList{"--text", "a b",   "--view",
                                                 "head:9", "--out", "v.png"}
                                  << 2 << "v.png";
        QTest::newRow("bad colormap")
            << QStringList{"--text", "a b", "--colormap", "jet", "--out", "c.png"} << 2 << "c.png";
        QTest::newRow("missing value") << QStringList{"--text", "a b", "--out"} << 2 << QString();
        QTest::newRow("unwritable") << QStringList{"--text", "a b", "--out", "no-such-dir/w.png"}
                                    << 1 << "no-such-dir/w.png";
        QTest::newRow("missing weights")
            << QStringList{"--text", "a b", "--weights", "missing.safetensors", "--out", "m.png"}
            << 1 << "m.png";
    }
    void cliErrors() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, file);
        for (QString& a : args)
            if (a.endsWith(QLatin1String(".png")) || a.endsWith(QLatin1String(".bmp")) ||
                a.endsWith(QLatin1String(".safetensors")))
                a = test::temp_path(a);
        const test::ProcessRun r = run_cli(args);
        QCOMPARE(r.status, code);
        // Exactly one message, on stderr.
        QVERIFY2(r.err.trimmed().count('\n') == 0 && !r.err.trimmed().isEmpty(), r.err.constData());
        QVERIFY(r.err.startsWith("attnviz export: "));
        if (!file.isEmpty()) QVERIFY(!QFile::exists(test::temp_path(file)));
    }

    // The dialog offers what the current view can show, and its choice is what is exported.
    void dialogFollowsTheFigureKind() {
        FigureOptions heatmaps;
        heatmaps.view = FigureView::Head;
        heatmaps.head = 2;
        {
            ExportDialog dialog(heatmaps, 4, nullptr);
            auto* show = dialog.findChild<QComboBox*>(QStringLiteral("exportViewCombo"));
            QVERIFY(show);
            QCOMPARE(show->count(), 2 + 4);  // grid, mean, heads 1..4
            QCOMPARE(show->currentData().toInt(), 2);
            QCOMPARE(dialog.figureOptions().view, FigureView::Head);
            QCOMPARE(dialog.figureOptions().head, 2);
            show->setCurrentIndex(1);
            QCOMPARE(dialog.figureOptions().view, FigureView::Mean);
            QVERIFY(dialog.findChild<QComboBox*>(QStringLiteral("exportHeadCombo"))->isHidden());
        }
        FigureOptions steps;
        steps.kind = FigureKind::Steps;
        steps.head = 1;
        steps.step = 7;
        steps.focus = true;
        {
            ExportDialog dialog(steps, 4, nullptr);
            auto* show = dialog.findChild<QComboBox*>(QStringLiteral("exportViewCombo"));
            auto* head = dialog.findChild<QComboBox*>(QStringLiteral("exportHeadCombo"));
            QCOMPARE(show->count(), 3);  // every stage, stages 1..8, stage 8 focused
            QCOMPARE(head->count(), 4);
            QVERIFY(!head->isHidden());
            FigureOptions o = dialog.figureOptions();
            QCOMPARE(o.head, 1);
            QCOMPARE(o.step, 7);
            QVERIFY(o.focus);
            head->setCurrentIndex(3);
            show->setCurrentIndex(0);
            o = dialog.figureOptions();
            QCOMPARE(o.kind, FigureKind::Steps);
            QCOMPARE(o.head, 3);
            QCOMPARE(o.step, -1);
            QVERIFY(!o.focus);
            show->setCurrentIndex(1);
            QCOMPARE(dialog.figureOptions().step, 7);
            QVERIFY(!dialog.figureOptions().focus);
        }
        FigureOptions lines;
        lines.kind = FigureKind::Lines;
        lines.line_heads = 0b0101;
        {
            ExportDialog dialog(lines, 4, nullptr);
            auto* show = dialog.findChild<QComboBox*>(QStringLiteral("exportViewCombo"));
            QCOMPARE(show->count(), 1 + 1 + 4);  // as shown (1, 3), all, heads 1..4
            QVERIFY(show->currentText().contains(QStringLiteral("1, 3")));
            QCOMPARE(dialog.figureOptions().line_heads, quint64(0b0101));
            show->setCurrentIndex(1);
            QCOMPARE(dialog.figureOptions().line_heads, ~quint64(0));
            show->setCurrentIndex(2 + 3);
            QCOMPARE(dialog.figureOptions().line_heads, quint64(1) << 3);
        }
    }

    void cliHelp() {
        const test::ProcessRun r = run_cli({"--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("--view grid|mean|head:K"));
    }
};

QTEST_MAIN(ExportTest)
#include "ui_export_test.moc"
