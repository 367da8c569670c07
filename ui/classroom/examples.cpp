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
                   QLatin1String(tab)};
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
    };
}

}  // namespace attnviz::ui
