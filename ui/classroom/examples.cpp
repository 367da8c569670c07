#include "ui/classroom/examples.h"

#include <QCoreApplication>

namespace attnviz::ui {

namespace {
// The translation context of the examples' texts, as a class so lupdate files them under
// the context tr() looks them up in.
struct ExamplesText {
    Q_DECLARE_TR_FUNCTIONS(Examples)
};

Example make(const char* id, const QString& group, const QString& title, const QString& text,
             const char* tab) {
    return Example{QLatin1String(id),
                   group,
                   title,
                   text,
                   QStringLiteral(":/examples/%1.attnviz").arg(QLatin1String(id)),
                   QLatin1String(tab),
                   false,
                   {}};
}

/// An example on a trained model AttnViz ships.
Example trained(const char* id, const QString& title, const QString& text, const char* tab) {
    Example e = make(id, {}, title, text, tab);
    e.trained = true;
    return e;
}
/// The Patching tab's example: the shipped attn-only-2l and a pair where its induction head
/// stands out (found with `attnviz patch`: 2.8 restores 0.74, no other head over 0.08).
Example patching(const QString& title, const QString& text) {
    Example e = trained("patching", title, text, "patch");
    e.patch = {QStringLiteral("zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1"),
               QStringLiteral("zK8&pW3!rT6~bN1x zK8&pW3!rT6~bN1"), QStringLiteral("^"),
               QStringLiteral("x")};
    return e;
}
/// The generation timeline's example: a random string said once and begun again, which the
/// model's induction head goes on copying, token by token (the session holds the model's
/// greedy continuation, written with `attnviz generate`).
Example writing(const char* id, const QString& title, const QString& text) {
    Example e = trained(id, title, text, "grid");
    e.plays = true;
    return e;
}
/// Heads across a corpus: the session's model measured over `corpus` (resources/corpora) once
/// it is open, in the Atlas's corpus mode.
Example across(const char* id, const char* corpus, const QString& title, const QString& text) {
    Example e = trained(id, title, text, "atlas");
    e.corpus = QLatin1String(corpus);
    return e;
}
}  // namespace

std::vector<Example> builtin_examples() {
    const QString heads_group = ExamplesText::tr("What the head count does");
    const QString heads_text = ExamplesText::tr(
        "The same sentence and embed_dim 64, split into %1. Each head gets 64 / heads "
        "dimensions for its queries and keys, and its own W_Q, W_K, W_V. With more heads, "
        "each head is smaller, but the layer can attend to several things at once: "
        "compare the heads' patterns, and open Statistics to see how differently they "
        "spread their attention.");
    return {
        make("self_attention", {}, ExamplesText::tr("Self-attention: “The cat sat on the mat”"),
             ExamplesText::tr(
                 "Every token is a query, a key and a value. Step through the computation: "
                 "each token's query is compared with every token's key (QKᵀ), the scores "
                 "are scaled by √d_k and turned into weights by a softmax along each row, "
                 "and each token's output is the weighted average of the values. Use the "
                 "arrow keys to step; hover a cell to see where it came from."),
             "steps"),
        make("padding_mask", {}, ExamplesText::tr("Padding mask: a batch of two sentences"),
             ExamplesText::tr(
                 "Sentences in a batch must have the same length, so the shorter one is "
                 "padded with [PAD] tokens. The key padding mask adds −∞ to the scores of "
                 "the padding keys, so after the softmax they get exactly zero weight "
                 "(hatched cells). Switch between the two sentences in the toolbar: the "
                 "longer one needs no mask at all."),
             "grid"),
        make("causal_mask", {},
             ExamplesText::tr("Causal mask: a language model reads left to right"),
             ExamplesText::tr(
                 "A language model predicting the next word may not look ahead. The causal "
                 "mask hides every key after the query (the upper triangle), so the first "
                 "token can only attend to itself and each row spreads its weight over the "
                 "tokens so far. Press Ctrl+K to switch the mask off and on."),
             "grid"),
        make("cross_attention", {}, ExamplesText::tr("Cross-attention: English → Chinese"),
             ExamplesText::tr(
                 "In a translation model the decoder's tokens (queries) attend to the "
                 "encoder's tokens (keys and values) of the other sentence. The matrix is "
                 "no longer square: one row per English token, one column per Chinese "
                 "token. The lines show where each query looks; hover a token to see only "
                 "its lines. (The weights are random, not trained: the alignment is not "
                 "meaningful, the mechanics are.)"),
             "lines"),
        make("heads_1", heads_group, ExamplesText::tr("1 head"),
             heads_text.arg(ExamplesText::tr("1 head")), "grid"),
        make("heads_2", heads_group, ExamplesText::tr("2 heads"),
             heads_text.arg(ExamplesText::tr("2 heads")), "grid"),
        make("heads_4", heads_group, ExamplesText::tr("4 heads"),
             heads_text.arg(ExamplesText::tr("4 heads")), "grid"),
        make("heads_8", heads_group, ExamplesText::tr("8 heads"),
             heads_text.arg(ExamplesText::tr("8 heads")), "grid"),
        make("dropout", {}, ExamplesText::tr("Dropout in training mode"),
             ExamplesText::tr(
                 "During training, dropout sets each attention weight to zero with "
                 "probability p (here 0.3) and scales the others by 1/(1 − p), so rows no "
                 "longer sum to exactly 1. The seed fixes which weights are dropped: press "
                 "Ctrl+R to draw a new sample, and switch training mode off (Ctrl+T) to see "
                 "the weights the model uses at inference."),
             "grid"),
        make("compare_causal", {}, ExamplesText::tr("Comparing: without and with the causal mask"),
             ExamplesText::tr(
                 "The same sentence and the same weights twice: A attends to every token, B "
                 "only to the tokens so far. The third map is B − A: red where B gives more "
                 "weight, blue where it gives less. The weight B may not put on later tokens "
                 "(hatched) goes to the earlier ones, so the first rows change most and the "
                 "last row not at all. Try the other comparisons above the figure."),
             "compare"),
        // Trained heads, on the models AttnViz ships (resources/models/).
        trained("learned_heads", ExamplesText::tr("Learned heads: every head of a trained model"),
                ExamplesText::tr(
                    "A 2-layer, attention-only model that AttnViz trained on English fortunes "
                    "(built in: nothing to download), on a string it has never seen, said twice. "
                    "Each thumbnail is one head. In layer 1, some heads look at the previous "
                    "character: the stripe just left of the diagonal. In layer 2, induction heads "
                    "look from each character of the second copy to the one that followed it in "
                    "the first: the stripe in the lower left. Click a thumbnail to open that "
                    "head; choose Demo layer in the Source box to compute one random layer step "
                    "by step."),
                "model"),
        trained("induction_head", ExamplesText::tr("Induction head"),
                ExamplesText::tr(
                    "A string of random characters, said twice. In the second copy, this layer-2 "
                    "head looks from each character to the one that followed it the first time: "
                    "the bright stripe parallel to the diagonal. It finds the same character "
                    "earlier and copies what came next, which is how a model continues a pattern "
                    "it has just seen, even one it never saw in training. It only works with a "
                    "previous-token head in layer 1 before it. Uniform attention would give that "
                    "cell about 1/L. On repeated ordinary English this small model relies on "
                    "other heads, so its induction heads are fainter there; try your own string."),
                "grid"),
        trained("induction_head_zh", ExamplesText::tr("Induction head in Chinese"),
                ExamplesText::tr(
                    "Thirty common Chinese characters in random order, said twice, in a 2-layer, "
                    "attention-only model that AttnViz trained on Chinese and English text. In "
                    "the second copy, this layer-2 head looks from each character to the one "
                    "that followed it the first time: the bright stripe parallel to the "
                    "diagonal. In the first copy, with nothing to copy yet, it rests on "
                    "<|bos|>. A layer-1 head before it looks at the character just before each "
                    "one (Model tab). The same heads work on English letters and digits said "
                    "twice; type your own string twice and watch the stripe."),
                "grid"),
        trained("previous_token", ExamplesText::tr("Previous-token head"),
                ExamplesText::tr(
                    "A layer-1 head of the same trained model. About half of each row's weight, "
                    "in most rows the largest part, is on the character just before the query: "
                    "the stripe below the diagonal, whatever the text. Nobody programmed it: the "
                    "model learned that the "
                    "previous character predicts the next one, and the induction heads of "
                    "layer 2 build on what this head passes on."),
                "grid"),
        trained("attention_sink", ExamplesText::tr("Attention sink"),
                ExamplesText::tr(
                    "A 4-layer model trained on Chinese and English text, on Meng Haoran's "
                    "“Spring Dawn”. This layer-4 head puts nearly all of every row's weight on "
                    "the first token, <|bos|>: the first column is bright. The softmax must give "
                    "its weights to something, so a head with nothing useful to read parks them "
                    "on a token that is always there. Large language models do the same; the "
                    "Model tab shows how many heads here do. On English text this small model's "
                    "sinks are weaker."),
                "grid"),
        trained("chinese_poetry", ExamplesText::tr("Chinese poetry: “Quiet Night Thoughts”"),
                ExamplesText::tr(
                    "Li Bai's poem, one character per token, in the 4-layer model trained on "
                    "Tang and Song poems and English text. All 16 heads are shown: on Chinese "
                    "verse most heads of layers 2 to 4 rest on <|bos|> (the bright first "
                    "column), while those of layer 1 spread over the characters before the "
                    "query. Click a thumbnail to open that head."),
                "model"),
        patching(ExamplesText::tr("Activation patching: find the induction head"),
                 ExamplesText::tr(
                     "Activation patching asks which head carries a piece of information. The "
                     "clean text is a random string said twice, cut before its last character: "
                     "after “1” the first copy had “^”, so the model predicts “^”. The corrupted "
                     "text differs in one character, the first copy's “^” became “x”, so the "
                     "model predicts “x”. Each head in turn runs on the corrupted text with its "
                     "output taken from the clean run, and the map shows how much of logit(“^”) "
                     "− logit(“x”) comes back: 1 is all of it, 0 nothing. Layer 2 head 8, the "
                     "induction head, restores about three quarters on its own; every other "
                     "head less than a tenth. Click a head to see its attention on both texts: "
                     "head 8 looks from the last “1” to the character after the first “1”.")),
        writing("watch_it_write", ExamplesText::tr("Watch it write"),
                ExamplesText::tr(
                    "A random string, said once and begun again. The model continued it one "
                    "character at a time (Write with the model, on the left), and Play replays "
                    "that: each new character is the model's top guess, drawn in orange, and its "
                    "row of this layer-2 head "
                    "is where it looked while choosing it, the character after the same one in "
                    "the first copy. The map grows a row a step; drag the slider to see any step. "
                    "Knock out this head (right-click it), drag the slider back to 0 and press "
                    "Continue: the copying stops.")),
        writing("watch_it_write_zh", ExamplesText::tr("Watch it write, in Chinese"),
                ExamplesText::tr(
                    "Thirty common Chinese characters in random order, said once and begun again, "
                    "in the bilingual 2-layer model. Play replays how it wrote the rest of the "
                    "second copy, one character at a time, in orange: each new row of this "
                    "layer-2 head looks at the character that followed the same one the first "
                    "time. Drag the slider to see any step; Continue writes more, and Keep makes "
                    "the text yours.")),
        // Knock-outs: the heads tools/train_models.py measured as induction heads on the
        // string (2.4, 2.5, 2.8 of both models); the counts below were measured with
        // `attnviz export --view predictions --ablate`, and ui_model_test checks them.
        trained("knock_out", ExamplesText::tr("Knock out the induction heads"),
                ExamplesText::tr(
                    "Thirty random letters and digits, said twice. The strip under the maps "
                    "shows the model's top guess after each character, green where it is the "
                    "character that follows, and the loss under it. The intact model guesses "
                    "the second copy right character by character (29 of 29, a loss of 0.25 "
                    "nats/token). Here layer 2's three induction heads, 4, 5 and 8, are knocked "
                    "out (their output set to zero): without the heads that look back at what "
                    "followed the same character the first time, the model cannot continue the "
                    "string and gets none of the second copy right (a loss of 4.5). The "
                    "Predictions box shows each guess before → after. Right-click head 8 and "
                    "restore it: alone, it brings back all 29."),
                "grid"),
        trained("knock_out_zh", ExamplesText::tr("Knock out the induction heads in Chinese"),
                ExamplesText::tr(
                    "Thirty common Chinese characters in random order, said twice, in the "
                    "bilingual attention-only model. The intact model guesses all 29 of the "
                    "second copy's characters that it can (a loss of 0.39 nats/token). With "
                    "layer 2's induction heads 4, 5 and 8 knocked out it gets none (a loss of "
                    "6.7): the strip under the maps turns grey and red, and the Predictions box "
                    "shows each guess before → after. Head 8 carries most of it: right-click "
                    "it and restore it, and 28 come back; knocked out on its own, it leaves "
                    "only 10."),
                "grid"),
        trained("logit_lens", ExamplesText::tr("What the model predicts: the logit lens"),
                ExamplesText::tr(
                    "What the 2-layer model would predict after each character if it stopped "
                    "after layer 1, and after layer 2, its output: each row reads the residual "
                    "stream through the model's own output head. Each cell is the most likely "
                    "next character, coloured by its probability, framed where it is the "
                    "character that actually follows. Layer 1 alone is right 19 times of 60, "
                    "mostly on pairs such as “a” → “n” and “d” → space; with layer 2 the model "
                    "is right 30 times, and in the second “early” it copies what followed the "
                    "first. Hover a cell for its top 5."),
                "lens"),
        trained("logit_lens_zh",
                ExamplesText::tr("What the model predicts in Chinese: the logit lens"),
                ExamplesText::tr(
                    "Wang Zhihuan's “On the Stork Tower” in the 4-layer model trained on Chinese "
                    "poems and English text. Each row reads the residual stream after one layer "
                    "through the model's output head: the most likely next character, coloured "
                    "by its probability, framed where it is the one that follows; the last row "
                    "is the model's output. The model knows the verse's form better than its "
                    "words: at the end of three of the four lines it expects the comma or the "
                    "full stop from layer 1 on, while of the words only 千 → 里 is right, from "
                    "layer 2 on. Hover a cell for its top 5."),
                "lens"),
        // The whole model step by step (tools/train_models.py writes the sessions); the
        // percentages are the model's, measured with `attnviz predict`.
        trained("writes_one_token", ExamplesText::tr("How a model writes one token"),
                ExamplesText::tr(
                    "The 4-layer model AttnViz trained on Chinese and English text, at the last "
                    "character of “Thank yo”, from top to bottom: the character's embedding plus "
                    "its position; in each layer the norm, the queries, keys and values, the "
                    "attention over the characters so far, the output projection added to the "
                    "residual stream, and the MLP (up, GELU, down) added again; then the final "
                    "norm, the logits and the softmax, which gives “u” 94%. Click a layer's "
                    "header to open or fold it, hover a cell for its value. Press Draw, then Add "
                    "to the text: the model writes on, one character at a time."),
                "steps"),
        trained("temperature", ExamplesText::tr("Temperature: how a model chooses"),
                ExamplesText::tr(
                    "The same model after “Once upon a ti”: the next letter is open, “m” 20%, "
                    "“n” 18%, “t” 13%, “s” 13%. The temperature divides the logits before the "
                    "softmax. At 0 the model always takes “m”; at 0.5 “m” and “n” have 58% "
                    "between them; at 2 the four share only 31% and rare letters get their "
                    "chance. Top-k draws only among the k likeliest letters, top-p among the "
                    "likeliest until their probabilities reach p. Press Draw a few times at each "
                    "setting: each seed draws one letter."),
                "steps"),
        // Why, in the window (issue 38), on docs/guide.md's string said one and a half times;
        // the numbers are `attnviz qk`'s and `attnviz attribute`'s there (3.04: `attnviz
        // attribute --ablate 2.8`).
        trained("why_induction", ExamplesText::tr("Why the induction head looks there"),
                ExamplesText::tr(
                    "A random string said once and begun again. Layer 2 head 8 looks from the "
                    "last “P” (query 47) to key 18, the “8” that followed the first “P” (weight "
                    "0.92). Alt-click that cell, the bright one in the last row: the pane that "
                    "opens splits its score, 30.7, into pairs of what the query and the key "
                    "read. The largest, a third, is the query's own character with what the "
                    "previous-token head L1H4 wrote at the key. That is K-composition: L1H4 "
                    "tells each key which character came before it, so L2H8 finds the one after "
                    "the same character; the Circuits tab shows it in the weights."),
                "grid"),
        trained("who_writes", ExamplesText::tr("Which heads write the answer"),
                ExamplesText::tr(
                    "The same string, at its last “P”: the model's top guess is “8”, which "
                    "followed “P” the first time. Who Writes splits the logit of “8”, 9.03, "
                    "into what each head adds to the residual stream, read through the "
                    "model's output head. The induction head L2H8 writes 5.71 of it, more "
                    "than all the other heads together; almost all of that comes from its "
                    "weight on the “8” after the first “P”. Right-click its cell and choose "
                    "Knock Out (Zero): its share vanishes, and the logit of “8” falls to 3.04. "
                    "Restore it from the same menu."),
                "dla"),
        trained("information_flow", ExamplesText::tr("How information flows"),
                ExamplesText::tr(
                    "The same string as a graph: layers are rows, tokens are columns, and a line "
                    "joins two streams where one carries much of what the other becomes in the "
                    "next layer. "
                    "From the last “P”, the strong path runs in layer 2 to the “8” after the "
                    "first “P”, and in layer 1 from that “8” to the “P” before it: the "
                    "previous-token head, then the induction head. Move the threshold to see "
                    "fewer or more edges."),
                "flow"),
        // Heads across a corpus (issue 39): the shipped models over the held-out fortunes of
        // resources/corpora; the numbers are `attnviz corpus`'s there (ui_corpus_test checks them).
        across("corpus_heads", "fortunes_en.txt", ExamplesText::tr("Heads across a corpus"),
               ExamplesText::tr(
                   "The 2-layer model over 390 fortunes it never saw in training, one pass per "
                   "text: each cell is now a measure's mean over the texts, its whiskers the 95% "
                   "interval. Layer 1 head 4 is a previous-token head on nearly every text: 0.498 "
                   "of a query's weight goes to the character before it (0.495 to 0.501), and 98% "
                   "of the texts agree. English prose repeats little, so induction scores are low, "
                   "yet layer 2 head 8 stands out: 0.189 (0.183 to 0.195), nearly twice any other "
                   "head. Click a head for its top examples; double-click one to open its text.")),
        across("corpus_heads_zh", "fortunes_zh.txt",
               ExamplesText::tr("Heads across a corpus, in Chinese"),
               ExamplesText::tr(
                   "The bilingual 2-layer model over 254 Tang poems, Song lyrics and other Chinese "
                   "texts it never saw in training. Each cell is a measure's mean over the texts, its whiskers "
                   "the 95% interval. Layer 1 head 4 looks at the character before the query: "
                   "0.659 of the weight (0.654 to 0.664), and every text agrees. Poems repeat "
                   "characters, and layer 2's induction heads show it: head 4 scores 0.394 (0.380 "
                   "to 0.408), head 5 0.363, head 7 0.319. Queries & Keys shows where head 4's "
                   "queries and keys lie.")),
    };
}

}  // namespace attnviz::ui
