// The Logit Lens tab (issue 23) in the real window against an independent models::predict
// run: the last row is the model's own output, each cell's probability is the engine's, the
// tool tip names the top 5; a long text keeps its last positions; a model without a head says
// why; and `attnviz export --view lens` writes the figure and the top-k CSV, or exits 2 with
// one line and no file.
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <cmath>

#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/model_lens.h"
#include "ui/document/attention_document.h"
#include "ui/model/lens_figure.h"
#include "ui/model/lens_view.h"
#include "ui/model/model_source.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
using Index = std::int64_t;

QString shipped(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/../../resources/models/") + QLatin1String(name);
}
QString golden_model(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/") + QLatin1String(name);
}

/// The engine's own answer: logits and the lens over every position.
struct EngineLens {
    models::OpenedModel model;
    models::EncodedText text;
    models::Prediction prediction;
};
EngineLens engine_lens(const QString& folder, const QString& text,
                       const std::vector<models::HeadRef>& zeroed = {}) {
    EngineLens e{models::open_model_folder(folder.toStdString()), {}, {}};
    e.text = models::encode_text(e.model, text.toStdString());
    models::PredictOptions o;
    o.lens = true;
    o.interventions = models::ablations(zeroed, models::HeadIntervention::Kind::Zero);
    e.prediction = models::predict(*e.model.model, e.text.input, o);
    return e;
}
/// The records of a CSV file, each split into fields (quoted fields may hold commas and
/// newlines: a token can be "\n").
QList<QStringList> csv_records(const QString& path) {
    QFile f(path);
    QList<QStringList> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    const QString text = QString::fromUtf8(f.readAll());
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                field += text[++i];
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            out << (record << field);
            record.clear();
            field.clear();
        } else {
            field += c;
        }
    }
    return out;
}
void lay_out(LensFigure* figure, SnapshotPtr snapshot) {
    figure->setSnapshot(std::move(snapshot));
    FigureOptions o;
    o.kind = FigureKind::Lens;
    figure->setOptions(o);
    figure->layout(QSize(1200, 600));
}
Index argmax(const float* row, Index n) {
    return Index(std::max_element(row, row + n) - row);
}
}  // namespace

class LensTest : public test::WindowFixture {
    Q_OBJECT
  private:
    LensView* lensView() { return w_->views()->lensView(); }

    bool waitForLens() {
        return QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->lens && lensView()->lens(); }, 60000);
    }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() { closeWindow(); }

    void theTabShowsTheEnginesLens() {
        const QString folder = shipped("attn-only-2l");
        const QString text = QStringLiteral("the cat sat. the cat sat.");
        QVERIFY(openModel(folder));
        // Not asked for while another tab is shown: no lens is computed.
        QVERIFY(!w_->compute()->modelLens());
        QVERIFY(!snap()->lens);
        w_->document()->setTextA(text);
        SETTLE(*w_);
        QVERIFY(!snap()->lens);
        w_->views()->setCurrentTab(ViewTabs::LensTab);
        QVERIFY(w_->compute()->modelLens());
        QVERIFY(waitForLens());
        const SnapshotPtr first = snap();  // keeps the grid alive past later passes
        const LensGrid& g = *first->lens;
        QCOMPARE(lensView()->lens(), &g);

        const EngineLens ref = engine_lens(folder, text);
        const models::ModelInfo& info = ref.model.model->info();
        const Index L = Index(ref.text.input.ids.size()), V = info.vocab_size, N = info.num_layers;
        QCOMPARE(g.num_layers, int(N));
        QCOMPARE(g.positions, int(L));
        QCOMPARE(g.first_position, 0);
        QVERIFY(g.causal);
        QCOMPARE(g.top_k, kLensTopK);
        for (Index t = 0; t < L; ++t) {
            // The last row is the model's own output: its top-1 is the logits' argmax.
            const Index want = argmax(ref.prediction.logits.ptr() + t * V, V);
            QCOMPARE(g.top_ids[g.at(int(N - 1), int(t))], want);
            QCOMPARE(g.targets[std::size_t(t)],
                     t + 1 < L ? ref.text.input.ids[std::size_t(t + 1)] : Index(-1));
            for (Index l = 0; l < N; ++l) {
                const auto top =
                    models::top_k(ref.prediction.lens.ptr() + (l * L + t) * V, V, kLensTopK);
                for (int r = 0; r < kLensTopK; ++r) {
                    QCOMPARE(g.top_ids[g.at(int(l), int(t), r)], top[std::size_t(r)].id);
                    const double p = g.probability(int(l), int(t), r);
                    QVERIFY2(std::abs(p - std::exp(top[std::size_t(r)].logprob)) < 1e-6,
                             qPrintable(QStringLiteral("layer %1 position %2 rank %3: %4 vs %5")
                                            .arg(l + 1)
                                            .arg(t + 1)
                                            .arg(r + 1)
                                            .arg(p)
                                            .arg(std::exp(top[std::size_t(r)].logprob))));
                }
                QCOMPARE(g.hit(int(l), int(t)),
                         t + 1 < L && top[0].id == ref.text.input.ids[std::size_t(t + 1)]);
            }
        }
        // The repeated text: the model's output guesses some of the second copy.
        int hits = 0;
        for (int t = 0; t < g.positions; ++t)
            hits += g.hit(g.num_layers - 1, t) ? 1 : 0;
        QVERIFY2(hits >= 3, qPrintable(QString::number(hits)));

        // Hovering a cell names the lens's top 5 with their probabilities.
        const LensLayout& grid = lensView()->figure().grid();
        const QRectF cell = grid.cellRect(1, 4);
        QVERIFY(!cell.isEmpty());
        QSignalSpy hovered(w_->views(), &ViewTabs::hovered);
        QTest::mouseMove(lensView()->canvas(), cell.center().toPoint());
        QTRY_VERIFY(!hovered.isEmpty() && !hovered.last().front().toString().isEmpty());
        const QString said = hovered.last().front().toString();
        const QStringList lines = lensView()->describe(1, 4).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + kLensTopK);
        QVERIFY2(lines[0].contains(QStringLiteral("Layer 2")), qPrintable(lines[0]));
        for (int r = 0; r < kLensTopK; ++r) {
            const QString token = visible_token(g.top_text[g.at(1, 4, r)]);
            QVERIFY2(lines[1 + r].contains(token), qPrintable(lines[1 + r]));
            QVERIFY2(said.contains(token), qPrintable(said));
        }

        // The tab's CSV: one row per layer, position and rank.
        const QString csv = test::temp_path(QStringLiteral("tab-lens.csv"));
        QFile::remove(csv);
        QVERIFY(lensView()->exportCsvButton()->isVisible());
        QVERIFY(lensView()->exportCsvTo(csv));
        const QList<QStringList> rows = csv_records(csv);
        QCOMPARE(rows.size(), 1 + int(N * L) * kLensTopK);
        QCOMPARE(rows[0].join(QLatin1Char(',')),
                 QStringLiteral("layer,position,token,rank,id,prediction,probability"));
        // Row by row, the cells of the tab.
        for (int l = 0; l < g.num_layers; ++l)
            for (int t = 0; t < g.positions; ++t)
                for (int k = 0; k < g.top_k; ++k) {
                    const QStringList& row = rows[1 + int(g.at(l, t, k))];
                    QCOMPARE(row.size(), 7);
                    QCOMPARE(row[2], g.tokens[std::size_t(t)]);
                    QCOMPARE(row[4].toLongLong(), g.top_ids[g.at(l, t, k)]);
                    QCOMPARE(row[5], g.top_text[g.at(l, t, k)]);
                }

        // The figure the exports draw: the tab's own, titled.
        FigureOptions options = w_->currentFigureOptions();
        QCOMPARE(options.kind, FigureKind::Lens);
        const QImage image = render_figure_image(*snap(), options, QSize(900, 500), 1.0);
        QVERIFY(!image.isNull());
        QVERIFY(figure_title(*snap(), options).contains(QStringLiteral("Logit lens")));

        // Knocking out the induction head (layer 2, head 8): the lens of the model without
        // it, as models::predict computes it with that ablation.
        w_->document()->knockOut(1, 7, KnockOut::Zero);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->lens && !snap()->lens->knocked_out.empty() &&
                       lensView()->lens() == snap()->lens.get();
            },
            60000));
        {
            const LensGrid& k = *lensView()->lens();
            const EngineLens knocked = engine_lens(folder, text, {{1, 7}});
            int changed = 0;
            for (Index t = 0; t < L; ++t) {
                const Index want = argmax(knocked.prediction.logits.ptr() + t * V, V);
                QCOMPARE(k.top_ids[k.at(int(N - 1), int(t))], want);
                const auto top =
                    models::top_k(knocked.prediction.lens.ptr() + ((N - 1) * L + t) * V, V, 1);
                QVERIFY(std::abs(k.probability(int(N - 1), int(t)) - std::exp(top[0].logprob)) <
                        1e-6);
                changed += want != g.top_ids[g.at(int(N - 1), int(t))] ? 1 : 0;
            }
            QVERIFY(changed > 0);
            QVERIFY2(lensView()->figure().captionText().contains(
                         QStringLiteral("heads knocked out: 2.8")),
                     qPrintable(lensView()->figure().captionText()));
        }
        w_->document()->setKnockedOut({});
        SETTLE(*w_);

        // Leaving the tab stops asking for the lens; another text then has none.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QVERIFY(!w_->compute()->modelLens());
        w_->document()->setTextA(QStringLiteral("abc"));
        SETTLE(*w_);
        QVERIFY(!snap()->lens);
        // Back on the tab, the lens of the new text.
        w_->views()->setCurrentTab(ViewTabs::LensTab);
        QVERIFY(waitForLens());
        QCOMPARE(lensView()->lens()->total_positions,
                 int(engine_lens(folder, QStringLiteral("abc")).text.input.ids.size()));
    }

    void aLongTextKeepsTheLastPositions() {
        ComputeConfig c;
        c.model_folder = shipped("attn-only-2l");
        c.text_a = QString(QStringLiteral("abcdefghij")).repeated(9);  // 90 characters
        const LensPtr g = compute_lens(c, 2);
        QVERIFY(g->available());
        QCOMPARE(g->positions, kLensMaxPositions);
        QCOMPARE(g->first_position + g->positions, g->total_positions);
        QVERIFY(g->total_positions > kLensMaxPositions);
        // The columns are the text's last tokens, the last row the model's output there.
        const EngineLens ref = engine_lens(c.model_folder, c.text_a);
        const Index V = ref.model.model->info().vocab_size;
        for (int p = 0; p < g->positions; ++p) {
            const Index t = g->first_position + p;
            QCOMPARE(g->top_ids[g->at(g->num_layers - 1, p)],
                     argmax(ref.prediction.logits.ptr() + t * V, V));
            QCOMPARE(g->tokens[std::size_t(p)],
                     QString::fromStdString(ref.text.encoding.text[std::size_t(t)]));
        }
        LensFigure figure;
        lay_out(&figure, compute_snapshot(c, 1, nullptr, 2, nullptr, false, nullptr, true));
        QVERIFY2(figure.captionText().contains(QStringLiteral("the last 64 of")),
                 qPrintable(figure.captionText()));
    }

    void aModelWithoutAHeadSaysWhy() {
        ComputeConfig c;
        c.model_folder = golden_model("bert_gamma_beta");
        c.text_a = QStringLiteral("the cat sat");
        const SnapshotPtr s = compute_snapshot(c, 1, nullptr, 2, nullptr, false, nullptr, true);
        QVERIFY(s->model);  // the attention is still there
        QVERIFY(s->lens);
        QVERIFY(!s->lens->available());
        QCOMPARE(s->lens->unavailable,
                 QStringLiteral("BERT · bert_gamma_beta has no language-model head, so there is "
                                "no logit lens to show."));
        QVERIFY2(s->lens->detail.contains(QStringLiteral("no masked-LM head")),
                 qPrintable(s->lens->detail));
        LensFigure figure;
        lay_out(&figure, s);
        QVERIFY2(figure.message().startsWith(
                     QStringLiteral("BERT · bert_gamma_beta has no language-model head, so there "
                                    "is no logit lens to show.")),
                 qPrintable(figure.message()));
    }

    void mapsFromAFileHaveNoLens() {
        ComputeConfig c;
        c.model_folder = QStringLiteral(ATTNVIZ_TEST_DATA_DIR "/attention_maps/maps_f32.npy");
        QVERIFY(c.usesMaps());
        const SnapshotPtr s = compute_snapshot(c, 1, nullptr, 2, nullptr, false, nullptr, true);
        QVERIFY(s->model);  // the maps are there
        QVERIFY(s->lens && !s->lens->available());
        LensFigure figure;
        lay_out(&figure, s);
        QVERIFY2(figure.message().startsWith(QStringLiteral("These attention maps were read")),
                 qPrintable(figure.message()));
    }

    void theExportCommandWritesTheLens() {
        const QString m = shipped("attn-only-2l");
        const QString text = QStringLiteral("abcabc xyz");
        const QString csv = test::temp_path(QStringLiteral("lens.csv"));
        QFile::remove(csv);
        test::ProcessRun r = test::run_attnviz(
            {QStringLiteral("export"), QStringLiteral("--model"), m, QStringLiteral("--text"), text,
             QStringLiteral("--view"), QStringLiteral("lens"), QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        const EngineLens ref = engine_lens(m, text);
        const Index L = Index(ref.text.input.ids.size()), V = ref.model.model->info().vocab_size,
                    N = ref.model.model->info().num_layers;
        const QList<QStringList> rows = csv_records(csv);
        QCOMPARE(rows.size(), 1 + int(N * L) * kLensTopK);
        // Rows go layer, position, rank: every one against the engine.
        for (Index l = 0; l < N; ++l)
            for (Index t = 0; t < L; ++t) {
                const auto top =
                    models::top_k(ref.prediction.lens.ptr() + (l * L + t) * V, V, kLensTopK);
                for (int k = 0; k < kLensTopK; ++k) {
                    const QStringList& row = rows[1 + int((l * L + t) * kLensTopK) + k];
                    QCOMPARE(row.size(), 7);
                    QCOMPARE(row[0].toLongLong(), l + 1);
                    QCOMPARE(row[1].toLongLong(), t + 1);
                    QCOMPARE(row[3].toInt(), k + 1);
                    QCOMPARE(row[4].toLongLong(), top[std::size_t(k)].id);
                    QVERIFY(std::abs(row[6].toDouble() - std::exp(top[std::size_t(k)].logprob)) <
                            1e-6);
                }
            }
        // The figure in every format.
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out = test::temp_path(QStringLiteral("lens.") + QLatin1String(suffix));
            QFile::remove(out);
            r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                                   QStringLiteral("--text"), text, QStringLiteral("--view"),
                                   QStringLiteral("lens"), QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("lens.png"))).isNull());
        // Usage errors: exit 2, one line, no file.
        const QString none = test::temp_path(QStringLiteral("none.csv"));
        QFile::remove(none);
        for (const QStringList& bad :
             {QStringList{QStringLiteral("--view"), QStringLiteral("lens")},  // the demo layer
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--view"),
                          QStringLiteral("lenz")}}) {
            r = test::run_attnviz(QStringList{QStringLiteral("export"), QStringLiteral("--text"),
                                              text, QStringLiteral("--out"), none} +
                                  bad);
            QVERIFY2(r.status == 2, qPrintable(bad.join(' ') + QStringLiteral(": ") + r.err));
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY(!QFile::exists(none));
        }
        // A model without a language-model head: a data error (1), one line, no file.
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"),
                               golden_model("bert_gamma_beta"), QStringLiteral("--text"), text,
                               QStringLiteral("--view"), QStringLiteral("lens"),
                               QStringLiteral("--out"), none});
        QCOMPARE(r.status, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.contains("no masked-LM head"));
        QVERIFY(!QFile::exists(none));
    }
};

QTEST_MAIN(LensTest)
#include "ui_lens_test.moc"
