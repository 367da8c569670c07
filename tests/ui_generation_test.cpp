// The generation timeline in the window, driven through its widgets on the shipped
// attn-only-2l: a random string said once and begun again, which its induction head copies.
// Continue writes the engine's own greedy (and seeded sampled) continuation, knocked-out heads
// included; the slider shows the text as it was at a step (the maps' rows equal the final
// pass's rows, the model being causal); Play visits every step; Stop drops the tokens still
// on their way; Keep, Discard, Undo and sessions keep or drop the continuation.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <chrono>
#include <thread>

#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/generation_feed.h"
#include "ui/compute/generation_runner.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/model/generation_panel.h"
#include "ui/model/model_panel.h"
#include "ui/render/generated_tokens.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/main_window.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
const QString kPrompt = QStringLiteral("zK8&pW3!rT6~bN1^ zK8&");

/// The engine's own continuation of the document's text (its generated ids included).
std::vector<qint64> engine_continuation(const ComputeConfig& c, const GenerationSettings& s,
                                        const std::vector<models::HeadIntervention>& iv = {}) {
    const ModelPtr m = open_model(c.model_folder);
    const models::EncodedText e = encode_model_text(*m, c);
    models::GenerateOptions o;
    o.max_new_tokens = s.count;
    o.temperature = s.temperature;
    o.top_k = s.top_k;
    o.top_p = s.top_p;
    o.seed = std::uint64_t(s.seed) * 1000003u + std::uint64_t(e.input.ids.size());
    o.eos_ids = m->model->config().eos_token_ids;
    o.interventions = iv;
    const models::Generation g = m->model->generate(e.input.ids, o);
    return {g.ids.begin(), g.ids.end()};
}
}  // namespace

class GenerationTest : public test::WindowFixture {
    Q_OBJECT
  private:
    GenerationPanel* panel() const { return w_->modelPanel()->generation(); }
    AttentionDocument* doc() const { return w_->document(); }
    void openModel() {
        w_->openModel(shipped_model(QStringLiteral("attn-only-2l")));
        QTRY_VERIFY_WITH_TIMEOUT(doc()->computeConfig().usesModel(), 60000);
        doc()->setTextA(kPrompt);
        SETTLE(*w_);
        QTRY_VERIFY_WITH_TIMEOUT(snap()->model && snap()->model->predictions, 60000);
        QTRY_VERIFY(!panel()->isHidden());
    }
    /// Clicks Continue and waits for the writing to end by itself.
    void writeTokens(int count) {
        panel()->countBox()->setValue(count);
        QTest::mouseClick(panel()->continueButton(), Qt::LeftButton);
        QVERIFY(panel()->isWriting());
        QVERIFY(panel()->stopButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!panel()->isWriting(), 60000);
        SETTLE(*w_);
    }

  private slots:
    void init() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        openWindow();
        SETTLE(*w_);
    }
    void cleanup() { closeWindow(); }

    void continueWritesTheModelsGreedyTokens() {
        openModel();
        const int prompt_tokens = snap()->model->tokens;
        QCOMPARE(prompt_tokens, 22);  // <|bos|> and 21 characters
        GenerationSettings s = doc()->generationSettings();
        s.count = 12;
        const std::vector<qint64> want = engine_continuation(doc()->computeConfig(), s);
        writeTokens(12);
        QCOMPARE(doc()->generated(), want);
        QCOMPARE(panel()->statusLabel()->text(),
                 GenerationPanel::tr("Wrote %n token(s).", nullptr, 12));
        // The induction head copies the string: "pW3!rT6~bN1^".
        const ModelPtr m = open_model(doc()->computeConfig().model_folder);
        QCOMPARE(QString::fromStdString(m->tokenizer.decode({want.begin(), want.end()})),
                 QStringLiteral("pW3!rT6~bN1^"));
        // Every view reads the continued text; the model's tokens are the last 12.
        const ModelMaps& maps = *snap()->model;
        QCOMPARE(maps.tokens, prompt_tokens + 12);
        QCOMPARE(maps.text_a, kPrompt + QStringLiteral("pW3!rT6~bN1^"));
        QCOMPARE(maps.firstGeneratedToken(), prompt_tokens);
        QVERIFY(!maps.isGenerated(prompt_tokens - 1));
        QVERIFY(maps.isGenerated(prompt_tokens + 11));
        QCOMPARE(maps.token_text.back(), QStringLiteral("^"));
        // The panel shows them in the continuation's colour.
        QVERIFY(panel()->textLabel()->text().contains(generated_token_color().name()));
        QCOMPARE(panel()->timeline()->maximum(), 12);
        QCOMPARE(panel()->timeline()->value(), 12);
        // Writing on continues from there.
        s.count = 4;
        const std::vector<qint64> more = engine_continuation(doc()->computeConfig(), s);
        writeTokens(4);
        QCOMPARE(doc()->generated().size(), std::size_t(16));
        QVERIFY(std::equal(more.begin(), more.end(), doc()->generated().begin() + 12));
    }

    // While the writer runs, the maps grow by the rows it hands over (extend_model) rather
    // than by a pass: a token at a time or several at once, they equal a fresh pass over the
    // same text within float rounding, the newest position's prediction waiting for the next
    // token; once the writer stops, the pass the window runs is the fresh pass, value for value.
    void theWritersRowsExtendTheMapsAsAPassWould() {
        openModel();
        const ComputeConfig prompt = doc()->computeConfig();
        const budget::MemoryBudget memory = w_->compute()->memoryBudget();
        const auto compute = [&](const ComputeConfig& c, ComputeCache* cache,
                                 GenerationFeed* feed) {
            return compute_snapshot(c, 1, cache, 2, &memory, false, nullptr, false, feed);
        };
        ComputeCache cache;
        GenerationFeed feed;
        QVERIFY(!compute(prompt, &cache, &feed)->model->provisional);
        feed.open(prompt);
        GenerationSettings s = doc()->generationSettings();
        s.count = 9;
        std::vector<qint64> ids;
        continue_text(prompt, s, {}, [&](models::GenerationStep&& step) {
            ids.push_back(step.id);
            feed.add(fed_token(std::move(step)));
        });
        QCOMPARE(ids, engine_continuation(prompt, s));
        const auto close_to_a_pass = [&](const ModelMaps& grown, const ComputeConfig& c) {
            const SnapshotPtr pass = compute(c, nullptr, nullptr);
            const ModelMaps& fresh = *pass->model;
            QVERIFY(grown.provisional);
            QVERIFY(!fresh.provisional);
            QCOMPARE(grown.tokens, fresh.tokens);
            QCOMPARE(grown.token_text, fresh.token_text);
            QCOMPARE(grown.generated_pieces, fresh.generated_pieces);
            const auto L = std::size_t(fresh.tokens);
            for (int l = 0; l < fresh.num_layers; ++l) {
                const auto at = std::size_t(l);
                const auto tag = [&](const char* what) {
                    return (std::string(what) + " of layer " + std::to_string(l) + ": ");
                };
                const auto maps =
                    test::compare_arrays(grown.weights[at].ptr(), fresh.weights[at].ptr(),
                                         std::size_t(fresh.num_heads) * L * L, 1e-5);
                QVERIFY2(maps.ok, (tag("maps") + maps.message).c_str());
                const auto means =
                    test::compare_arrays(grown.means[at].ptr(), fresh.means[at].ptr(), L * L, 1e-5);
                QVERIFY2(means.ok, (tag("means") + means.message).c_str());
                const auto rollout = test::compare_arrays(grown.rollout[at].ptr(),
                                                          fresh.rollout[at].ptr(), L * L, 1e-5);
                QVERIFY2(rollout.ok, (tag("rollout") + rollout.message).c_str());
                for (int h = 0; h < fresh.num_heads; ++h) {
                    const models::HeadMeasures &a = grown.atlas.at(l, h), &b = fresh.atlas.at(l, h);
                    QVERIFY(std::abs(a.previous - b.previous) < 1e-5);
                    QVERIFY(std::abs(a.entropy - b.entropy) < 1e-4);
                    QCOMPARE(a.induction, b.induction);
                    QCOMPARE(a.labels, b.labels);
                }
            }
            QCOMPARE(grown.thumbnails.size(), fresh.thumbnails.size());
            // The thumbnails grown from the earlier ones are those coloured afresh.
            ModelMaps whole = grown;
            add_thumbnails(&whole);
            QCOMPARE(grown.thumbnails.size(), whole.thumbnails.size());
            for (std::size_t k = 0; k < whole.thumbnails.size(); ++k)
                QVERIFY2(grown.thumbnails[k] == whole.thumbnails[k],
                         qPrintable(QStringLiteral("head thumbnail %1").arg(k)));
            QCOMPARE(grown.aggregate_thumbnails.size(), whole.aggregate_thumbnails.size());
            for (std::size_t k = 0; k < whole.aggregate_thumbnails.size(); ++k)
                QVERIFY2(grown.aggregate_thumbnails[k] == whole.aggregate_thumbnails[k],
                         qPrintable(QStringLiteral("aggregate thumbnail %1").arg(k)));
            // Every position's prediction but the newest's, which waits for the next token.
            const ModelPredictions &p = *grown.predictions, &q = *fresh.predictions;
            QCOMPARE(int(p.positions.size()), fresh.tokens - 1);
            QCOMPARE(p.next_logprob.size(), q.next_logprob.size());
            for (std::size_t t = 0; t < p.next_logprob.size(); ++t)
                QVERIFY2(std::abs(p.next_logprob[t] - q.next_logprob[t]) < 1e-4,
                         qPrintable(QStringLiteral("position %1: %2 against %3")
                                        .arg(t)
                                        .arg(p.next_logprob[t])
                                        .arg(q.next_logprob[t])));
            for (std::size_t r = 0; r < p.positions.size(); ++r) {
                QCOMPARE(p.positions[r], q.positions[r]);
                QCOMPARE(p.top[r].front().id, q.top[r].front().id);
                QVERIFY(std::abs(p.top[r].front().logprob - q.top[r].front().logprob) < 1e-4);
                QCOMPARE(p.top_text[r].front(), q.top_text[r].front());
            }
            QVERIFY(std::abs(p.loss - q.loss) < 1e-4);
        };
        // A token at a time, then the rest at once.
        ComputeConfig c = prompt;
        for (std::size_t k = 0; k < 4; ++k) {
            c.generated.push_back(ids[k]);
            close_to_a_pass(*compute(c, &cache, &feed)->model, c);
        }
        c.generated = ids;
        const SnapshotPtr grown = compute(c, &cache, &feed);
        close_to_a_pass(*grown->model, c);
        // A token the writer did not write: a pass.
        ComputeCache side;
        compute(prompt, &side, &feed);
        ComputeConfig other = prompt;
        other.generated = {ids.front() + 1};
        QVERIFY(!compute(other, &side, &feed)->model->provisional);
        // The writer stopped: the same text again is a pass.
        feed.close();
        const SnapshotPtr settled = compute(c, &cache, &feed);
        QVERIFY(!settled->model->provisional);
        const SnapshotPtr pass = compute(c, nullptr, nullptr);
        const ModelMaps& fresh = *pass->model;
        for (int l = 0; l < fresh.num_layers; ++l)
            QCOMPARE(settled->model->weights[std::size_t(l)].data,
                     fresh.weights[std::size_t(l)].data);
        QCOMPARE(settled->model->predictions->next_logprob, fresh.predictions->next_logprob);
        QCOMPARE(int(settled->model->predictions->positions.size()), fresh.tokens);

        // In the window: once the writer stops, the maps are a fresh pass's.
        writeTokens(9);
        QCOMPARE(doc()->generated(), ids);
        const ModelMaps& shown = *snap()->model;
        QVERIFY(!shown.provisional);
        QCOMPARE(shown.tokens, fresh.tokens);
        for (int l = 0; l < fresh.num_layers; ++l) {
            QCOMPARE(shown.weights[std::size_t(l)].data, fresh.weights[std::size_t(l)].data);
            QCOMPARE(shown.means[std::size_t(l)].data, fresh.means[std::size_t(l)].data);
            QCOMPARE(shown.rollout[std::size_t(l)].data, fresh.rollout[std::size_t(l)].data);
        }
        QCOMPARE(shown.predictions->next_logprob, fresh.predictions->next_logprob);
        QCOMPARE(shown.predictions->positions, fresh.predictions->positions);
    }

    /// The writer's pace: waitShown() returns once the window has shown a snapshot holding
    /// every token added (shown() with its config), at once when the writer finishes or the
    /// feed closes, and false when nothing is shown in time.  A snapshot of another text, or of
    /// fewer tokens, does not count.
    void theWriterWaitsUntilTheWindowShowsItsTokens() {
        openModel();
        const ComputeConfig prompt = doc()->computeConfig();
        GenerationFeed feed;
        QVERIFY(feed.waitShown(std::chrono::milliseconds(0)));  // nothing added
        feed.open(prompt);
        QVERIFY(feed.waitShown(std::chrono::milliseconds(0)));  // open, nothing added yet
        FedToken token;
        token.id = 7;
        token.attention = Tensor({1, 1, 1});
        feed.add(token);
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        // Taken by the worker is not shown.
        feed.forget(prompt.shownGenerated().size() + 1);
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        ComputeConfig other = prompt;  // another text: not the writer's
        other.text_a += QStringLiteral(" more");
        other.generated.push_back(7);
        feed.shown(other);
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        ComputeConfig wrong = prompt;  // the same text, another token
        wrong.generated.push_back(8);
        feed.shown(wrong);
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        feed.shown(prompt);  // the text before the writer's tokens
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        ComputeConfig with_token = prompt;
        with_token.generated.push_back(7);
        // Shown from another thread (the GUI's) while the writer waits (a generous bound: the
        // notify, not the time, is what is tested).
        std::thread window([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            feed.shown(with_token);
        });
        QElapsedTimer t;
        t.start();
        QVERIFY(feed.waitShown(std::chrono::seconds(30)));
        QVERIFY2(t.elapsed() < 20000, "waited past the window's shown()");
        window.join();
        feed.add(token);  // a second token, not shown yet
        QVERIFY(!feed.waitShown(std::chrono::milliseconds(20)));
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            feed.finish();
        });
        t.restart();
        QVERIFY(feed.waitShown(std::chrono::seconds(30)));
        QVERIFY2(t.elapsed() < 20000, "waited past finish()");
        stopper.join();
        feed.open(prompt);
        feed.add(token);
        std::thread closer([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            feed.close();
        });
        t.restart();
        QVERIFY(feed.waitShown(std::chrono::seconds(30)));
        QVERIFY2(t.elapsed() < 20000, "waited past close()");
        closer.join();
    }

    /// The window tells the writer's feed when it has shown a token: the snapshot that holds
    /// it, delivered by the compute controller, marks it shown.
    void theWindowMarksTheTokensItShows() {
        openModel();
        const ComputeConfig prompt = doc()->computeConfig();
        const std::shared_ptr<GenerationFeed> feed = panel()->runner()->feed();
        feed->open(prompt);
        GenerationSettings s = doc()->generationSettings();
        s.count = 1;
        std::vector<qint64> ids;
        continue_text(prompt, s, {}, [&](models::GenerationStep&& step) {
            ids.push_back(step.id);
            feed->add(fed_token(std::move(step)));
        });
        QCOMPARE(int(ids.size()), 1);
        QVERIFY(!feed->waitShown(std::chrono::milliseconds(0)));
        doc()->appendGenerated(ids.front());
        SETTLE(*w_);
        QVERIFY(snap()->model->provisional);  // the writer's rows extended the maps
        QVERIFY(feed->waitShown(std::chrono::milliseconds(0)));
        feed->finish();
        feed->close();
    }

    void theWindowAsksForAWrittenTokensMapsBeforeThePanelShowsIt() {
        openModel();
        const ComputeConfig prompt = doc()->computeConfig();
        GenerationSettings s = doc()->generationSettings();
        s.count = 1;
        const models::Generation g = continue_text(prompt, s, {}, {});
        QCOMPARE(int(g.ids.size()), 1);
        QLabel* text = panel()->textLabel();
        const QString before = text->text();
        // The document's flush asks the worker for the token's maps: the panel's text (a
        // layout pass over all the text written) is not yet redone then, nor on the signal.
        int asked = 0;
        QString text_when_asked;
        const QMetaObject::Connection c =
            connect(doc(), &AttentionDocument::computeConfigChanged, this, [&] {
                if (asked++ == 0) text_when_asked = text->text();
            });
        emit panel()->runner()->tokenGenerated(qint64(g.ids.front()));
        QCOMPARE(text->text(), before);
        QTRY_VERIFY(asked > 0);
        disconnect(c);
        QCOMPARE(text_when_asked, before);
        // Then it is.
        QTRY_VERIFY(text->text() != before);
        QCOMPARE(doc()->generated(), std::vector<qint64>{qint64(g.ids.front())});
        SETTLE(*w_);
    }

    void theTimelineShowsEachStepsAttention() {
        openModel();
        writeTokens(10);
        const SnapshotPtr whole = snap();
        const int P = whole->model->tokens - 10, T = whole->model->tokens;
        const int H = whole->model->num_heads;
        // Step 4: the text as the model had it after writing 4 tokens.  Causal: each row
        // equals the final pass's row over its keys.
        const QJsonObject edits = doc()->editsJson();
        panel()->timeline()->setValue(4);
        QCOMPARE(doc()->timeline(), 4);
        SETTLE(*w_);
        QTRY_VERIFY_WITH_TIMEOUT(snap()->model && snap()->model->tokens == P + 4, 60000);
        const ModelMaps& at = *snap()->model;
        QCOMPARE(at.firstGeneratedToken(), P);
        for (int l = 0; l < at.num_layers; ++l)
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < P + 4; ++i)
                    for (int j = 0; j <= i; ++j)
                        QVERIFY(std::abs(at.value(l, h, i, j) - whole->model->value(l, h, i, j)) <
                                1e-5f);
        QCOMPARE(panel()->timeline()->value(), 4);
        // Looking at a step is no edit.
        QCOMPARE(doc()->editsJson(), edits);
        // Play: from the prompt, a step at a time, to the end.
        std::vector<int> visited;
        connect(doc(), &AttentionDocument::generatedChanged, this,
                [&] { visited.push_back(doc()->timeline()); });
        doc()->setTimeline(-1);
        visited.clear();
        QTest::mouseClick(panel()->playButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!visited.empty() && visited.back() == -1 && visited.size() > 10,
                                 20000);
        const std::vector<int> steps = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1};
        QCOMPARE(visited, steps);
        SETTLE(*w_);
        QCOMPARE(snap()->model->tokens, T);
        // Continue from an earlier step drops the steps after it.
        panel()->timeline()->setValue(3);
        SETTLE(*w_);
        writeTokens(2);
        QCOMPARE(doc()->generated().size(), std::size_t(5));
        QCOMPARE(doc()->timeline(), -1);
    }

    void stopDropsTheTokensOnTheirWay() {
        openModel();
        const GenerationRunner* runner = panel()->runner();
        QSignalSpy chosen(runner, &GenerationRunner::tokenChosen);
        QSignalSpy generated(runner, &GenerationRunner::tokenGenerated);
        panel()->countBox()->setValue(40);
        QTest::mouseClick(panel()->continueButton(), Qt::LeftButton);
        // Stop in the same turn: whatever the thread has chosen is not delivered.
        QTest::mouseClick(panel()->stopButton(), Qt::LeftButton);
        QVERIFY(!panel()->isWriting());
        QCOMPARE(doc()->generated().size(), std::size_t(0));
        QCOMPARE(panel()->statusLabel()->text(),
                 GenerationPanel::tr("Stopped after %n token(s).", nullptr, 0));
        QVERIFY(panel()->continueButton()->isEnabled());
        QVERIFY(!panel()->stopButton()->isEnabled());
        // The stopped thread reads the flag only after a choice, so at least one of its tokens
        // is on its way (more when it ran ahead of the click).  The next writer's work starts
        // only when the stopped one has ended (BackgroundJob runs one work at a time), so all
        // it handed over is queued ahead of the next writer's tokens: once that writer has
        // written its one token and ended, any of them would have arrived.
        writeTokens(1);
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(generated.size(), 1);
        QCOMPARE(doc()->generated().size(), std::size_t(1));
    }

    void keepDiscardAndUndo() {
        openModel();
        writeTokens(6);
        QCOMPARE(doc()->generated().size(), std::size_t(6));
        // Undo takes the whole generation back in one step, Redo brings it again.
        QUndoStack* stack = w_->history()->stack();
        QCOMPARE(stack->undoText(), QStringLiteral("Generate"));
        stack->undo();
        QVERIFY(doc()->generated().empty());
        stack->redo();
        QCOMPARE(doc()->generated().size(), std::size_t(6));
        // Discard: the sentence as typed.
        QTest::mouseClick(panel()->discardButton(), Qt::LeftButton);
        QVERIFY(doc()->generated().empty());
        QCOMPARE(doc()->textA(), kPrompt);
        // Keep: up to the step shown.
        writeTokens(6);
        panel()->timeline()->setValue(3);
        QTest::mouseClick(panel()->keepButton(), Qt::LeftButton);
        QVERIFY(doc()->generated().empty());
        QCOMPARE(doc()->textA(), kPrompt + QStringLiteral("pW3"));
        QVERIFY(!panel()->keepButton()->isEnabled());
        // Typing drops a continuation: it continued another text.
        writeTokens(2);
        doc()->setTextA(QStringLiteral("abc"));
        QVERIFY(doc()->generated().empty());
    }

    // The worked examples hold the model's own greedy continuation and replay it as soon as
    // they open, a token a step, without making the session an edited one.
    void watchItWrite_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("continuation");
        QTest::newRow("en") << QStringLiteral("watch_it_write") << QStringLiteral("pW3!rT6~bN1^");
        QTest::newRow("zh") << QStringLiteral("watch_it_write_zh")
                            << QStringLiteral("全调须统示清识件及模如大据焉疾东广如使过台年");
    }
    void watchItWrite() {
        QFETCH(QString, id);
        QFETCH(QString, continuation);
        std::vector<int> visited;
        connect(doc(), &AttentionDocument::generatedChanged, this,
                [&] { visited.push_back(doc()->timeline()); });
        QVERIFY(w_->loadExample(id));
        const int n = int(continuation.toUcs4().size());
        QCOMPARE(int(doc()->generated().size()), n);
        // What the session holds is what the model writes.
        ComputeConfig prompt = doc()->computeConfig();
        prompt.generated.clear();
        GenerationSettings s = doc()->generationSettings();
        QCOMPARE(s.count, n);
        QCOMPARE(doc()->generated(), engine_continuation(prompt, s));
        const ModelPtr m = open_model(prompt.model_folder);
        const std::vector<qint64>& ids = doc()->generated();
        QCOMPARE(QString::fromStdString(m->tokenizer.decode({ids.begin(), ids.end()})),
                 continuation);
        // Played from step 0 to the end.
        QTRY_VERIFY_WITH_TIMEOUT(!visited.empty() && visited.back() == -1, 60000);
        std::vector<int> steps;
        for (int k = 1; k < n; ++k)
            steps.push_back(k);
        steps.push_back(-1);
        QVERIFY(visited.size() >= steps.size());
        QVERIFY(
            std::equal(steps.begin(), steps.end(), visited.end() - std::ptrdiff_t(steps.size())));
        SETTLE(*w_);
        QCOMPARE(snap()->model->text_a, doc()->textA() + continuation);
        QVERIFY(!panel()->isHidden());
        QCOMPARE(panel()->timeline()->maximum(), n);
        QVERIFY(!w_->isWindowModified());
    }

    void knockedOutHeadsWriteTooAndSessionsKeepIt() {
        openModel();
        doc()->knockOut(1, 7, KnockOut::Zero);  // the induction head
        SETTLE(*w_);
        GenerationSettings s = doc()->generationSettings();
        s.count = 12;
        const ComputeConfig c = doc()->computeConfig();
        const ModelPtr m = open_model(c.model_folder);
        const std::vector<qint64> ablated =
            engine_continuation(c, s, model_knock_outs(c, m->model->info()));
        QVERIFY(ablated != engine_continuation(c, s));  // it no longer copies
        writeTokens(12);
        QCOMPARE(doc()->generated(), ablated);

        // Sampled, with a seed: the same seed writes the same text.
        doc()->discardGenerated();
        panel()->modeBox()->setCurrentIndex(1);
        QVERIFY(doc()->generationSettings().temperature > 0.0);
        QVERIFY(!panel()
                     ->findChild<QDoubleSpinBox*>(QStringLiteral("generateTemperature"))
                     ->isHidden());
        panel()->findChild<QSpinBox*>(QStringLiteral("generateSeed"))->setValue(5);
        s = doc()->generationSettings();
        s.count = 8;
        const std::vector<qint64> sampled =
            engine_continuation(doc()->computeConfig(), s, model_knock_outs(c, m->model->info()));
        writeTokens(8);
        QCOMPARE(doc()->generated(), sampled);

        // A session keeps the continuation, the step and the settings.
        panel()->timeline()->setValue(5);
        const QJsonObject json = doc()->toJson();
        AttentionDocument other;
        QString error;
        QVERIFY2(other.fromJson(json, &error), qPrintable(error));
        QCOMPARE(other.generated(), sampled);
        QCOMPARE(other.timeline(), 5);
        QCOMPARE(other.generationSettings(), doc()->generationSettings());
        // Broken entries are refused, the document untouched.
        QJsonObject bad = json;
        QJsonObject source = bad[QStringLiteral("source")].toObject();
        QJsonArray ids;
        ids.append(1);
        ids.append(-2);
        source[QStringLiteral("generated")] = ids;
        bad[QStringLiteral("source")] = source;
        QVERIFY(!other.fromJson(bad, &error));
        QVERIFY(error.contains(QStringLiteral("generated")));
        QCOMPARE(other.generated(), sampled);
    }
};

QTEST_MAIN(GenerationTest)
#include "ui_generation_test.moc"
