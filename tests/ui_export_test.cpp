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
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"
#include "ui/render/heatmap_figure.h"
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
        const QString model = QString::fromStdString(test::golden_dir()) +
                              QStringLiteral("/../../resources/models/char-zh-en-4l");
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
