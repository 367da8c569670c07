// Heads across a corpus in the window (issue 39), on the shipped attn-only-2l: File ▸ Open
// Corpus… through its file dialog, the Atlas's corpus mode against models::analyse_corpus, a
// head's top examples and an example opened in the main view, the Queries & Keys view against
// models::joint_query_keys (and its Compute button for another head), Cancel's partial result,
// the corpus in the session, a bad file and a small budget refused with a dialog, Corpus from
// History, the two examples' numbers, the figure's text in both languages, and `attnviz export
// --view qk|atlas --texts` against `attnviz corpus`.
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

#include <QRadioButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <functional>

#include <atomic>
#include <cmath>

#include "engine/models/corpus.h"
#include "engine/models/corpus_texts.h"
#include "engine/models/qk_embedding.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/corpus_runner.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"
#include "ui/document/corpus_data.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/atlas_view.h"
#include "ui/model/corpus_examples.h"
#include "ui/model/corpus_source.h"
#include "ui/model/qk_figure.h"
#include "ui/model/qk_view.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/view_tabs.h"
#include "ui/widgets/zoom_heatmap.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// The corpus the window tests open: the first texts of the bundled English fortunes, as
/// paragraphs (what the file dialog's guess reads).
constexpr int kTexts = 24;

QString attn_only() {
    return shipped_model(QStringLiteral("attn-only-2l"));
}

QStringList first_fortunes(int count) {
    QStringList texts;
    for (const models::CorpusEntry& e : models::read_corpus(
             CorpusSource::shippedCorpus(QStringLiteral("fortunes_en.txt")).toStdString()))
        if (texts.size() < count) texts << QString::fromStdString(e.text);
    return texts;
}

/// `texts` written as a corpus of paragraphs; its path.
QString write_corpus(const QString& name, const QStringList& texts) {
    const QString path = test::temp_path(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(texts.join(QStringLiteral("\n\n")).toUtf8() + "\n");
    return path;
}

/// The engine's analysis of `texts` with the window's options, nothing of the window between.
models::CorpusResult engine(const ModelPtr& m, const QStringList& texts,
                            std::vector<models::HeadRef> qk = {}) {
    models::CorpusOptions o;
    o.top_k = CorpusSource::kTopExamples;
    o.context = CorpusSource::kContext;
    o.num_threads = worker_threads();
    o.qk_heads = std::move(qk);
    return models::analyse_corpus(
        *m->model, texts.size(),
        [&](std::int64_t i) {
            bool cut = false;
            models::EncodedText e =
                models::encode_corpus_text(*m, texts[i].toStdString(), kModelPositions, &cut);
            return models::CorpusText{std::move(e.input), std::move(e.encoding.text), 0};
        },
        o);
}

/// Where two analyses differ beyond `tol` (measures, labels, examples), or empty.
QString results_differ(const models::CorpusResult& got, const models::CorpusResult& want,
                       double tol) {
    if (got.texts != want.texts || got.tokens != want.tokens || got.partial != want.partial)
        return QStringLiteral("texts %1/%2, tokens %3/%4")
            .arg(got.texts)
            .arg(want.texts)
            .arg(got.tokens)
            .arg(want.tokens);
    for (std::size_t h = 0; h < want.per_head.size(); ++h) {
        const models::CorpusHead &a = got.per_head[h], &b = want.per_head[h];
        for (std::size_t k = 0; k < b.measures.size(); ++k)
            for (const auto& [x, y] : {std::pair{a.measures[k].mean, b.measures[k].mean},
                                       std::pair{a.measures[k].low, b.measures[k].low},
                                       std::pair{a.measures[k].high, b.measures[k].high}})
                if (!(std::abs(x - y) <= tol) && !(std::isnan(x) && std::isnan(y)))
                    return QStringLiteral("head %1, measure %2: %3 against %4")
                        .arg(h)
                        .arg(k)
                        .arg(x, 0, 'g', 10)
                        .arg(y, 0, 'g', 10);
        if (a.labels != b.labels) return QStringLiteral("head %1: other labels").arg(h);
        if (a.examples.size() != b.examples.size())
            return QStringLiteral("head %1: %2 examples against %3")
                .arg(h)
                .arg(a.examples.size())
                .arg(b.examples.size());
        for (std::size_t e = 0; e < b.examples.size(); ++e)
            if (a.examples[e].text != b.examples[e].text ||
                a.examples[e].query != b.examples[e].query ||
                a.examples[e].key != b.examples[e].key ||
                !(std::abs(a.examples[e].weight - b.examples[e].weight) <= tol))
                return QStringLiteral("head %1, example %2").arg(h).arg(e);
    }
    return {};
}

/// `widget` as it looks, saved: ATTNVIZ_SHOTS=DIR keeps it to look at (else the test's own
/// folder, gone at its end).  False when it cannot be written.
bool shot(QWidget* widget, const QString& name) {
    const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
    return widget->grab().save(shots.isEmpty() ? test::temp_path(name)
                                               : shots + QLatin1Char('/') + name);
}

/// Where `got`'s points differ from `want`'s beyond `tol`, or empty.
QString points_differ(const std::vector<float>& got, const std::vector<float>& want, double tol) {
    if (got.size() != want.size())
        return QStringLiteral("%1 values against %2").arg(got.size()).arg(want.size());
    for (std::size_t k = 0; k < want.size(); ++k)
        if (!(std::abs(double(got[k]) - double(want[k])) <= tol))
            return QStringLiteral("value %1: %2 against %3").arg(k).arg(got[k]).arg(want[k]);
    return {};
}
}  // namespace

class CorpusTest : public test::WindowFixture {
    Q_OBJECT
  private:
    ModelPtr model_;
    QStringList texts_;
    QString corpus_file_;

    CorpusSource* source() const { return w_->corpusSource(); }

    /// The window on attn-only-2l, layer 1 head 4 in focus (its queries and keys come with a
    /// corpus opened now).
    void openOnTheModel() {
        openSettledWindow();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openModel(attn_only()));
        w_->document()->setView(FigureView::Head, 3);
        SETTLE(*w_);
        QCOMPARE(w_->document()->viewHead(), 3);
    }

    /// openOnTheModel(), the test corpus measured, and the Queries & Keys tab shown with the
    /// head in focus's points, laid out at its size.
    void showTheQueriesAndKeys() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        QSignalSpy measured(source(), &CorpusSource::measured);
        QVERIFY(source()->openCorpus(corpus_file_));
        QVERIFY(measured.wait(60000));
        w_->views()->setCurrentTab(ViewTabs::QkTab);
        const QkView* v = w_->views()->qkView();
        QVERIFY(v->qkView());
        // Shown and laid out at its size before its dots are pointed at.
        QTRY_VERIFY(v->canvas()->isVisible() && !v->figure().plotRect().isEmpty() &&
                    v->figure().plotRect().right() <= v->canvas()->width());
    }

    /// Runs `trigger`, which opens a file dialog, and answers it with `path` as a user does
    /// (the name typed into its field); `meanwhile` runs once while the dialog is up, before
    /// it is answered.  False when no dialog came.
    bool answerFileDialog(const QString& path, const std::function<void()>& trigger,
                          const std::function<void()>& meanwhile = {}) {
        int picks = 0;
        bool ran = !meanwhile;
        QTimer answer;
        answer.setInterval(20);
        connect(&answer, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog || !dialog->isVisible() || ++picks > 100) return;
            if (!ran) {
                ran = true;
                meanwhile();
            }
            dialog->setDirectory(QFileInfo(path).absolutePath());
            auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            if (!name) return;
            name->setText(QFileInfo(path).fileName());
            if (dialog->selectedFiles() != QStringList{QFileInfo(path).absoluteFilePath()})
                return;  // the folder is not read yet: again at the next tick
            static_cast<QDialog*>(dialog)->done(QDialog::Accepted);
        });
        answer.start();
        trigger();
        answer.stop();
        return picks > 0;
    }

    /// File ▸ Open Corpus… on `path`, answering the file dialog as a user does, then waits for
    /// the measure; false when the dialog or the run failed.
    bool openThroughTheMenu(const QString& path) {
        QSignalSpy measured(source(), &CorpusSource::measured);
        const bool answered =
            answerFileDialog(path, [this] { find<QAction>("openCorpusAction")->trigger(); });
        return answered && (!measured.isEmpty() || measured.wait(60000));
    }

  private slots:
    void initTestCase() {
        QVERIFY2(!attn_only().isEmpty(), "the shipped attn-only-2l is missing");
        QVERIFY2(!CorpusSource::shippedCorpus(QStringLiteral("fortunes_en.txt")).isEmpty(),
                 "the bundled corpora are missing");
        // The window's own words, as the English catalog has them ("24 texts").
        QVERIFY(install_translations(QStringLiteral("en")));
        model_ = open_model(attn_only());
        texts_ = first_fortunes(kTexts);
        QCOMPARE(texts_.size(), kTexts);
        corpus_file_ = write_corpus(QStringLiteral("fortunes.txt"), texts_);
        QVERIFY(!corpus_file_.isEmpty());
    }
    void cleanup() {
        CorpusRunner::setTextHookForTesting({});
        closeWindow();
        install_translations(QStringLiteral("en"));
    }

    /// The menu's corpus in the Atlas: the engine's numbers, a head's examples, one opened.
    void theAtlasShowsTheEnginesNumbersAndOpensAnExample() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openThroughTheMenu(corpus_file_));
        const CorpusPtr corpus = w_->document()->corpus();
        QVERIFY(corpus);
        QCOMPARE(corpus->format, QStringLiteral("paragraphs"));
        QCOMPARE(corpus->texts_given, std::int64_t(kTexts));
        const models::CorpusResult want = engine(model_, texts_, {{0, 3}});
        const QString why = results_differ(corpus->result, want, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The Atlas in its corpus mode, each mean in the table as the engine has it.
        QCOMPARE(w_->views()->currentTab(), ViewTabs::AtlasTab);
        AtlasView* atlas = w_->views()->atlasView();
        QVERIFY(atlas->corpusMode() && atlas->corpusModeButton()->isEnabled());
        QCOMPARE(atlas->corpusModeButton()->text(), QStringLiteral("Corpus (24 texts)"));
        QTableWidget* table = atlas->table();
        QCOMPARE(table->rowCount(), 16);
        const auto& names = models::head_measure_names();
        for (int row = 0; row < table->rowCount(); ++row) {
            const int l = table->item(row, 0)->data(Qt::UserRole).toInt() - 1;
            const int h = table->item(row, 1)->data(Qt::UserRole).toInt() - 1;
            for (std::size_t k = 0; k < names.size(); ++k) {
                const models::MeasureSummary& m = want.at(l, h).measures[k];
                if (!std::isfinite(m.mean)) continue;
                ATTNVIZ_FUZZY(table->item(row, int(k) + 2)->data(Qt::UserRole).toDouble(), m.mean,
                              1e-6);
            }
        }
        // L1H4, the previous-token head, with the share of texts that agree.
        const int previous = int(std::find(names.begin(), names.end(), "previous") - names.begin());
        QVERIFY(want.at(0, 3).measures[std::size_t(previous)].mean > 0.45);
        QVERIFY2(table->item(3, int(names.size()) + 2)
                     ->text()
                     .startsWith(QStringLiteral("previous token ")),
                 qPrintable(table->item(3, int(names.size()) + 2)->text()));
        // A click on the head lists its examples, the engine's.
        atlas->measureCombo()->setCurrentIndex(
            atlas->measureCombo()->findData(QStringLiteral("previous")));
        QTRY_VERIFY(!atlas->grid()->cellRect(0, 3).isEmpty());  // laid out when painted
        QTest::mouseClick(atlas->grid(), Qt::LeftButton, {},
                          atlas->grid()->cellRect(0, 3).center());
        CorpusExamples* examples = atlas->examples();
        QCOMPARE(examples->layer(), 0);
        QCOMPARE(examples->head(), 3);
        const std::vector<models::CorpusExample>& top = want.at(0, 3).examples;
        QCOMPARE(examples->table()->rowCount(), int(top.size()));
        QVERIFY(shot(w_.get(), QStringLiteral("corpus-atlas.png")));
        for (int row = 0; row < int(top.size()); ++row) {
            const models::CorpusExample& e = top[std::size_t(row)];
            QCOMPARE(examples->table()->item(row, 0)->text(),
                     QString::number(double(e.weight), 'f', 3));
            QCOMPARE(examples->table()->item(row, 2)->text(),
                     QStringLiteral("%1 → %2").arg(e.query + 1).arg(e.key + 1));
        }
        // Double-clicking one opens its text with the head in focus, its full map at the query.
        const models::CorpusExample& e = top.front();
        const QRect cell = examples->table()->visualItemRect(examples->table()->item(0, 3));
        // Clicked, then Enter: the row activated (as a double click does).
        QTest::mouseClick(examples->table()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(examples->table()->currentRow(), 0);
        QTest::keyClick(examples->table(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(source()->openedMap(), 60000);
        QCOMPARE(w_->document()->textA(), texts_[int(e.text)]);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);
        QCOMPARE(w_->document()->computeConfig().layer, 0);
        QCOMPARE(w_->document()->viewHead(), 3);
        QCOMPARE(w_->document()->focusToken(), int(e.query));
        FullMapWindow* map = source()->openedMap();
        QCOMPARE(map->layer(), 0);
        QCOMPARE(map->head(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(!map->isLoading() && map->pyramid(), 60000);
        QCOMPARE(map->heatmap()->markedRow(), map->rowOfPiece(int(e.query)));
        QVERIFY(map->heatmap()->markedRow() >= 0);
    }

    /// Queries & Keys: the head in focus's points are the engine's; hovering shows a token in
    /// its context; Compute brings another head's; a click opens a point's text.
    void theQueriesAndKeysAreTheEnginesAndComputeAnotherHead() {
        showTheQueriesAndKeys();
        if (QTest::currentTestFailed()) return;
        QSignalSpy measured(source(), &CorpusSource::measured);
        QkView* v = w_->views()->qkView();
        const models::CorpusResult want = engine(model_, texts_, {{0, 3}, {1, 7}});
        const models::JointQueryKeys joint =
            models::joint_query_keys(want.qk[0].queries, want.qk[0].keys, want.qk[0].dim);
        QString why = points_differ(v->qkView()->pca.points, joint.pca.points, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        why = points_differ(v->qkView()->cosine.points, joint.cosine.points, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QApplication::processEvents();
        // Hovering the first key: "Key" and its token in context.
        const int n = int(v->qkView()->count);
        const QPointF key = v->figure().pointCentre(n + 5);
        QVERIFY(!key.isNull());
        QTest::mouseMove(v->canvas(), QPoint(1, 1));
        QTest::mouseMove(v->canvas(), key.toPoint());
        QTRY_VERIFY(!v->canvas()->toolTip().isEmpty());
        const int hovered = v->figure().pointAt(key);
        QVERIFY(hovered >= 0);
        QVERIFY2(v->canvas()->toolTip().contains(
                     QString::fromStdString(v->figure().token(hovered)->token).toHtmlEscaped()),
                 qPrintable(v->canvas()->toolTip()));
        QVERIFY(shot(w_.get(), QStringLiteral("corpus-qk.png")));
        // Another head: none yet, and its button computes them off the GUI thread.
        v->headCombo()->setCurrentIndex(v->headCombo()->findData(QPoint(1, 7)));
        emit v->headCombo()->activated(v->headCombo()->currentIndex());
        QCOMPARE(v->head(), 7);
        QVERIFY(!v->qkView());
        QVERIFY(v->computeButton()->isVisible());
        QTest::mouseClick(v->computeButton(), Qt::LeftButton);
        QVERIFY(!v->computeButton()->isEnabled());
        QVERIFY(measured.wait(60000));
        QVERIFY(measured.back().at(1).toBool());  // one head's run
        QVERIFY(v->qkView());
        QCOMPARE(w_->views()->currentTab(), ViewTabs::QkTab);  // the tab stays
        const models::JointQueryKeys second =
            models::joint_query_keys(want.qk[1].queries, want.qk[1].keys, want.qk[1].dim);
        why = points_differ(v->qkView()->pca.points, second.pca.points, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The measures stay the first run's.
        QCOMPARE(w_->document()->corpus()->result.texts, std::int64_t(kTexts));
        QVERIFY(w_->document()->corpus()->qkView(0, 3));
        // The CSV the view exports is the points.
        const QString csv = test::temp_path(QStringLiteral("qk.csv"));
        QVERIFY(v->exportTo(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), qk_points_csv(*v->qkView()));
        // A query's dot opens its text at that query, its row marked in the head's map.
        QApplication::processEvents();
        const QPointF query = v->figure().pointCentre(10);
        const int clicked = v->figure().pointAt(query);
        QVERIFY(clicked >= 0 && clicked < n);
        const models::CorpusQueryKeys::Token t = *v->figure().token(clicked);
        QTest::mouseClick(v->canvas(), Qt::LeftButton, {}, query.toPoint());
        QTRY_VERIFY_WITH_TIMEOUT(source()->openedMap(), 60000);
        QCOMPARE(w_->document()->textA(), texts_[int(t.text)]);
        QCOMPARE(w_->document()->viewHead(), 7);
        QCOMPARE(w_->document()->focusToken(), int(t.position));
    }

    /// A corpus that replaces the one shown frees it inside QkView::setCorpus; the tab's message
    /// and placeholder then appear and lay the canvas out again at once, before the figure is
    /// told of the new corpus.  Nothing may read the old one then (the sanitizers' build fails
    /// on a read after free; the release build crashed in the monkey).
    void aNewCorpusLeavesNothingPointingAtTheOld() {
        showTheQueriesAndKeys();
        if (QTest::currentTestFailed()) return;
        const QkView* v = w_->views()->qkView();
        QVERIFY(!v->figure().captionText().isEmpty());
        const int before = v->canvas()->height();
        const CorpusData shown = *w_->document()->corpus();  // a copy: the window's go
        // The same measures without their queries and keys: the message takes a line.
        auto without = std::make_shared<CorpusData>(shown);
        without->qk.clear();
        w_->document()->setCorpus(without);
        QVERIFY(!v->qkView());
        QVERIFY(v->messageLabel()->isVisible());
        QVERIFY(v->canvas()->height() < before);  // laid out again while the old was gone
        QVERIFY(v->figure().captionText().isEmpty());
        // With them again, then a corpus of another model: the placeholder instead.
        w_->document()->setCorpus(std::make_shared<CorpusData>(shown));
        QVERIFY(v->qkView() && v->canvas()->isVisible());
        QVERIFY(!v->figure().captionText().isEmpty());
        auto other = std::make_shared<CorpusData>(shown);
        other->model_folder += QStringLiteral("-elsewhere");
        w_->document()->setCorpus(other);
        QVERIFY(v->placeholderLabel()->isVisible());
        QVERIFY(!v->canvas()->isVisible());
        QVERIFY(v->figure().captionText().isEmpty());
    }

    /// The Atlas's Export writes what was shown when it was clicked, even when another corpus
    /// replaces it (and frees it) while the file dialog is open.
    void theAtlasExportOutlivesANewCorpus() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openThroughTheMenu(corpus_file_));
        AtlasView* atlas = w_->views()->atlasView();
        QVERIFY(atlas->corpusMode());
        const QByteArray want = corpus_atlas_csv(w_->document()->corpus()->result);
        const CorpusData shown = *w_->document()->corpus();
        const QString path = test::temp_path(QStringLiteral("corpus-atlas-export.csv"));
        QFile::remove(path);
        auto* button = atlas->findChild<QPushButton*>(QStringLiteral("atlasExportButton"));
        QVERIFY(button && button->isEnabled());
        QVERIFY(answerFileDialog(
            path, [&] { QTest::mouseClick(button, Qt::LeftButton); },
            [&] {
                // Another corpus (one measure changed): the one shown is freed.
                auto other = std::make_shared<CorpusData>(shown);
                other->result.texts = 1;
                other->result.per_head.front().measures.front().mean += 1;
                w_->document()->setCorpus(other);
            }));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), want);
        QCOMPARE(w_->document()->corpus()->result.texts, std::int64_t(1));
    }

    /// Cancel after three texts: their result, marked partial, equal to the engine's of three.
    void cancelKeepsThePartialResultMarkedPartial() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        std::atomic<bool> reached{false}, cancelled{false};
        CorpusRunner::setTextHookForTesting([&](std::int64_t done, std::int64_t) {
            if (done != 3) return;
            reached = true;
            for (int k = 0; k < 6000 && !cancelled; ++k)
                QThread::msleep(5);
        });
        QSignalSpy measured(source(), &CorpusSource::measured);
        QVERIFY(source()->openCorpus(corpus_file_));
        QTRY_VERIFY_WITH_TIMEOUT(reached.load(), 60000);
        QVERIFY(source()->cancelButton()->isVisible());
        QTest::mouseClick(source()->cancelButton(), Qt::LeftButton);
        cancelled = true;
        QVERIFY(measured.wait(60000));
        CorpusRunner::setTextHookForTesting({});
        QVERIFY(measured.front().front().toBool());  // partial
        const CorpusPtr corpus = w_->document()->corpus();
        QVERIFY(corpus && corpus->result.partial);
        QCOMPARE(corpus->result.texts, std::int64_t(3));
        models::CorpusResult want = engine(model_, texts_.mid(0, 3), {{0, 3}});
        want.partial = true;
        const QString why = results_differ(corpus->result, want, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!source()->progressWidget()->isVisible());
        QVERIFY2(w_->views()->atlasView()->legendLabel()->text().contains(
                     QStringLiteral("Stopped after 3 of 24 texts")),
                 qPrintable(w_->views()->atlasView()->legendLabel()->text()));
    }

    /// Saved with the session and read back exactly; a new session has none; an older
    /// session (an example's) loads as before, without one.
    void theCorpusGoesWithTheSession() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        QVERIFY(source()->openCorpus(corpus_file_));
        QSignalSpy measured(source(), &CorpusSource::measured);
        QVERIFY(measured.wait(60000));
        const CorpusPtr before = w_->document()->corpus();
        const QString path = test::temp_path(QStringLiteral("corpus.attnviz"));
        QVERIFY(w_->saveSessionTo(path));
        QVERIFY(!w_->hasUnsavedChanges());
        w_->document()->resetToDefaults();  // what File ▸ New Session does
        QVERIFY(!w_->document()->corpus());
        QVERIFY(w_->openSession(path));
        SETTLE(*w_);
        const CorpusPtr after = w_->document()->corpus();
        QVERIFY(after && after != before);
        QCOMPARE(QJsonDocument(corpus_to_json(*after)).toJson(),
                 QJsonDocument(corpus_to_json(*before)).toJson());
        QString why = results_differ(after->result, before->result, 0.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(after->result.received.size(), before->result.received.size());
        QVERIFY(after->qkView(0, 3));
        why = points_differ(after->qkView(0, 3)->pca.points, before->qkView(0, 3)->pca.points, 0.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(after->texts, before->texts);
        QTRY_VERIFY(w_->views()->atlasView()->corpusModeButton()->isEnabled());
        // An example's session has no corpus: it opens without one.
        QVERIFY(w_->loadExample(QStringLiteral("previous_token")));
        SETTLE(*w_);
        QVERIFY(!w_->document()->corpus());
        QVERIFY(!w_->views()->atlasView()->corpusModeButton()->isEnabled());
    }

    /// A binary file, a corpus over the budget, a demo source: a dialog each, nothing kept, and
    /// the window goes on.
    void badCorporaAreRefusedAndTheWindowRuns() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        const QString binary = test::temp_path(QStringLiteral("binary.txt"));
        {
            QFile f(binary);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("a text\n\nand then\0 a NUL byte\n", 29));
        }
        QVERIFY(source()->openCorpus(binary));
        QTRY_VERIFY_WITH_TIMEOUT(w_->errorDialog(), 60000);
        QVERIFY2(w_->lastError().contains(QStringLiteral("binary.txt: line 3")),
                 qPrintable(w_->lastError()));
        QVERIFY(!w_->document()->corpus());
        QVERIFY(!source()->isRunning());
        w_->errorDialog()->close();
        QTRY_VERIFY(!w_->errorDialog());
        // The window's budget, far too small: refused with the engine's message, before a pass.
        const budget::MemoryBudget usual = w_->compute()->memoryBudget();
        budget::MemoryBudget tiny;
        tiny.bytes = 64 * 1024;
        w_->compute()->setMemoryBudget(tiny);
        QVERIFY(source()->openCorpus(corpus_file_));
        QTRY_VERIFY_WITH_TIMEOUT(w_->errorDialog(), 60000);
        QVERIFY2(w_->lastError().contains(QStringLiteral("budget")), qPrintable(w_->lastError()));
        QVERIFY(!w_->document()->corpus());
        w_->compute()->setMemoryBudget(usual);
        w_->errorDialog()->close();
        QTRY_VERIFY(!w_->errorDialog());
        // The demo layer has no heads to measure.
        w_->document()->setModelFolder(QString());
        SETTLE(*w_);
        QVERIFY(!source()->openCorpus(corpus_file_));
        QVERIFY(w_->errorDialog());
        QVERIFY2(w_->lastError().contains(QStringLiteral("trained model")),
                 qPrintable(w_->lastError()));
        w_->errorDialog()->close();
        QTRY_VERIFY(!w_->errorDialog());
        // And the window still computes.
        w_->document()->setTextA(QStringLiteral("still here"));
        QTRY_COMPARE_WITH_TIMEOUT(snap()->config.text_a, QStringLiteral("still here"), 60000);
    }

    /// Corpus from History: the texts entered in the text box, measured as a corpus.
    void theTextBoxsHistoryIsASmallCorpus() {
        openOnTheModel();
        if (QTest::currentTestFailed()) return;
        QSignalSpy failed(source(), &CorpusSource::failed);
        // One text only: too few.
        find<QAction>("corpusFromHistoryAction")->trigger();
        QCOMPARE(failed.size(), 1);
        QTRY_VERIFY(w_->errorDialog());
        w_->errorDialog()->close();
        QTRY_VERIFY(!w_->errorDialog());
        // Four texts typed, each entered.
        QLineEdit* box = w_->inputPanel()->sentenceEdit();
        const QStringList typed = texts_.mid(0, 4);
        for (const QString& t : typed) {
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, t);
            QTest::keyClick(box, Qt::Key_Return);
        }
        SETTLE(*w_);
        QCOMPARE(source()->heldTexts().mid(source()->heldTexts().size() - 4), typed);
        const QStringList held = source()->heldTexts();
        QSignalSpy measured(source(), &CorpusSource::measured);
        find<QAction>("corpusFromHistoryAction")->trigger();
        QVERIFY(measured.wait(60000));
        const CorpusPtr corpus = w_->document()->corpus();
        QVERIFY(corpus && corpus->fromHistory());
        QCOMPARE(corpus->result.texts, std::int64_t(held.size()));
        const QString why = results_differ(corpus->result, engine(model_, held, {{0, 3}}), 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY2(w_->views()->atlasView()->legendLabel()->text().contains(
                     QStringLiteral("the texts the text box held")),
                 qPrintable(w_->views()->atlasView()->legendLabel()->text()));
    }

    /// The examples: the shipped models over the held-out fortunes, the previous-token head and
    /// the induction heads with tight intervals, as their explanations say.
    void theExamplesShowThePreviousTokenAndInductionHeads() {
        openSettledWindow();
        struct Expected {
            const char* id;
            double previous;             ///< L1H4's mean
            std::vector<int> induction;  ///< layer 2's best heads, from 1, in order
            double first_induction;      ///< the best one's mean
            std::int64_t texts;
        };
        for (const Expected& x : {Expected{"corpus_heads", 0.498, {8}, 0.189, 390},
                                  Expected{"corpus_heads_zh", 0.659, {4, 5, 7}, 0.394, 254}}) {
            QSignalSpy measured(source(), &CorpusSource::measured);
            QVERIFY(w_->loadExample(QLatin1String(x.id)));
            QVERIFY(measured.wait(60000));
            SETTLE(*w_);
            const CorpusPtr c = w_->document()->corpus();
            QVERIFY(c);
            QCOMPARE(c->result.texts, x.texts);
            QVERIFY(!c->result.partial);
            const models::MeasureSummary& prev = c->result.at(0, 3).measure("previous");
            ATTNVIZ_FUZZY(prev.mean, x.previous, 5e-4);
            QVERIFY2(prev.high - prev.low < 0.012,
                     qPrintable(QString::number(prev.high - prev.low)));
            QCOMPARE(c->result.at(0, 3).labels, std::vector<std::string>{"previous token"});
            std::vector<std::pair<double, int>> induction;
            for (int h = 0; h < 8; ++h)
                induction.push_back({c->result.at(1, h).measure("induction").mean, h + 1});
            std::sort(induction.rbegin(), induction.rend());
            for (std::size_t k = 0; k < x.induction.size(); ++k)
                QCOMPARE(induction[k].second, x.induction[k]);
            ATTNVIZ_FUZZY(induction.front().first, x.first_induction, 5e-4);
            const models::MeasureSummary& best =
                c->result.at(1, x.induction.front() - 1).measure("induction");
            QVERIFY(best.high - best.low < 0.03);
            QCOMPARE(w_->views()->currentTab(), ViewTabs::AtlasTab);
            QVERIFY(w_->views()->atlasView()->corpusMode());
            QVERIFY(w_->views()->explanationVisible());
            // The head in focus has its queries and keys.
            const int layer = w_->document()->computeConfig().layer;
            QVERIFY(c->qkView(layer, w_->document()->viewHead()));
            // The Chinese example in the Chinese window, to look at.
            const bool zh = x.texts == 254;
            if (zh) QVERIFY(install_translations(QStringLiteral("zh_CN")));
            QTest::qWait(50);
            QVERIFY(shot(w_.get(), QLatin1String(x.id) + QStringLiteral(".png")));
            w_->views()->setCurrentTab(ViewTabs::QkTab);
            QTest::qWait(50);
            QVERIFY(shot(w_.get(), QLatin1String(x.id) + QStringLiteral("-qk.png")));
            if (zh) QVERIFY(install_translations(QStringLiteral("en")));
        }
    }

    /// The Queries & Keys figure keeps its text inside its canvas and apart, in both languages.
    void theFigureKeepsItsTextInsideAndApartInBothLanguages() {
        const models::CorpusResult r = engine(model_, texts_, {{1, 7}});
        const CorpusPtr corpus = CorpusRunner::assemble(r, CorpusRequest{}, attn_only(), 0);
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            for (const QSize size : {QSize(1240, 560), QSize(800, 600), QSize(1600, 1000)})
                for (const QkColouring colouring : {QkColouring::Kind, QkColouring::Position}) {
                    QkFigure figure;
                    figure.setData(corpus.get(), &corpus->qk.front());
                    figure.setColouring(colouring);
                    FigureOptions options;
                    options.font_px = size.width() == 1600 ? 14 : 13;
                    figure.setOptions(options);
                    const QSize canvas = fitted_painted_figure_size(figure, size);
                    test::TextLayoutDevice device(canvas);
                    paint_painted_figure(&device, figure, false);
                    QStringList problems = test::texts_outside(device.texts(), canvas);
                    problems << test::overlapping_texts(device.texts());
                    if (device.texts().size() < 5)
                        problems << QStringLiteral("only %1 texts").arg(device.texts().size());
                    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 at %2×%3: ")
                                                                .arg(QLatin1String(language))
                                                                .arg(size.width())
                                                                .arg(size.height()) +
                                                            problems.join(QLatin1Char('\n'))));
                }
        }
    }

    /// `attnviz export --view qk` writes `attnviz corpus`'s qk_L_H.json and its points; --view
    /// atlas --texts its measures; bad input: one line, exit 2 or 1, no file.
    void theExportsEqualTheCommandLines() {
        const QString out = QString::fromStdString(test::fresh_dir("corpus-cli"));
        const QString model = attn_only();
        test::CliRun run =
            test::run_cli({QStringLiteral("corpus"), QStringLiteral("--model"), model,
                           QStringLiteral("--texts"), corpus_file_, QStringLiteral("--qk"),
                           QStringLiteral("2.8"), QStringLiteral("--out"), out});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const auto file = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QString json = test::temp_path(QStringLiteral("qk.json"));
        run = test::run_cli({QStringLiteral("export"), QStringLiteral("--view"),
                             QStringLiteral("qk"), QStringLiteral("--model"), model,
                             QStringLiteral("--texts"), corpus_file_, QStringLiteral("--head"),
                             QStringLiteral("2.8"), QStringLiteral("--out"), json});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QCOMPARE(file(json), file(out + QStringLiteral("/qk_2_8.json")));
        // The figure, and the atlas's numbers as heads.json has them.
        const QString png = test::temp_path(QStringLiteral("qk.png"));
        run = test::run_cli({QStringLiteral("export"), QStringLiteral("--view"),
                             QStringLiteral("qk"), QStringLiteral("--model"), model,
                             QStringLiteral("--texts"), corpus_file_, QStringLiteral("--head"),
                             QStringLiteral("1.4"), QStringLiteral("--colour-by"),
                             QStringLiteral("position"), QStringLiteral("--out"), png});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY(QImage(png).width() > 1000);
        const QString atlas = test::temp_path(QStringLiteral("atlas.json"));
        run = test::run_cli({QStringLiteral("export"), QStringLiteral("--view"),
                             QStringLiteral("atlas"), QStringLiteral("--model"), model,
                             QStringLiteral("--texts"), corpus_file_, QStringLiteral("--out"),
                             atlas});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const QJsonArray got = test::read_json(atlas).value(QStringLiteral("heads")).toArray();
        const QJsonArray want = test::read_json(out + QStringLiteral("/heads.json"))
                                    .value(QStringLiteral("heads"))
                                    .toArray();
        QCOMPARE(got.size(), 16);
        QCOMPARE(got, want);
        // Bad input: a usage error (no --head), a binary file: one line, nothing written.
        const QString none = test::temp_path(QStringLiteral("none.png"));
        run =
            test::run_cli({QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("qk"),
                           QStringLiteral("--model"), model, QStringLiteral("--texts"),
                           corpus_file_, QStringLiteral("--out"), none});
        QCOMPARE(run.status, 2);
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        const QString binary = test::temp_path(QStringLiteral("binary.jsonl"));
        {
            QFile f(binary);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\"one\"\n\x01\x00\x02\n", 9));
        }
        run = test::run_cli({QStringLiteral("export"), QStringLiteral("--view"),
                             QStringLiteral("qk"), QStringLiteral("--model"), model,
                             QStringLiteral("--texts"), binary, QStringLiteral("--head"),
                             QStringLiteral("1.4"), QStringLiteral("--out"), none});
        QCOMPARE(run.status, 1);
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(none));
    }
};

QTEST_MAIN(CorpusTest)
#include "ui_corpus_test.moc"
