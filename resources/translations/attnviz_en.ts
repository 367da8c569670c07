<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>AttentionConfig</name>
    <message>
        <location filename="../../ui/document/attention_config.cpp" line="+147"/>
        <source>words: a word&apos;s attention summed over its key pieces, averaged over its query pieces</source>
        <translation>words: a word&apos;s attention summed over its key pieces, averaged over its query pieces</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>special tokens hidden, each row rescaled to sum to 1</source>
        <translation>special tokens hidden, each row rescaled to sum to 1</translation>
    </message>
    <message>
        <location filename="../../ui/compute/resolved_config.cpp" line="+38"/>
        <source>layer %1</source>
        <translation>layer %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Self-attention</source>
        <translation>Self-attention</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cross-attention</source>
        <translation>Cross-attention</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Padded batch</source>
        <translation>Padded batch</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n head</numerusform>
            <numerusform>%n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>embed_dim %1</source>
        <translation>embed_dim %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>additive scoring</source>
        <translation>additive scoring</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scaled dot-product</source>
        <translation>scaled dot-product</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no bias</source>
        <translation>no bias</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>causal</source>
        <translation>causal</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n key(s) masked</source>
        <translation>
            <numerusform>%n key masked</numerusform>
            <numerusform>%n keys masked</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dropout %1 (train, seed %2)</source>
        <translation>dropout %1 (train, seed %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dropout %1 (eval: off)</source>
        <translation>dropout %1 (eval: off)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>weights %1</source>
        <translation>weights %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>weight seed %1</source>
        <translation>weight seed %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no positional encoding</source>
        <translation>no positional encoding</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mean only</source>
        <translation>mean only</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first %1 of %2 heads kept</source>
        <translation>first %1 of %2 heads kept</translation>
    </message>
</context>
<context>
    <name>CircuitsFigure</name>
    <message>
        <location filename="../../ui/model/circuits_figure.cpp" line="+119"/>
        <source>%1-composition between heads, from the weights alone</source>
        <translation>%1-composition between heads, from the weights alone</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 layers × %2 heads</source>
        <translation>%1 layers × %2 heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the norms&apos; scales folded in</source>
        <translation>the norms&apos; scales folded in</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotary: W_QK at query − key = %1</source>
        <translation>rotary: W_QK at query − key = %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Later head, reading with its queries</source>
        <translation>Later head, reading with its queries</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Later head, reading with its keys</source>
        <translation>Later head, reading with its keys</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later head, reading with its values</source>
        <translation>Later head, reading with its values</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 has one layer: no head reads another head&apos;s output.</source>
        <translation>%1 has one layer: no head reads another head&apos;s output.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Q-composition: how strongly the later head&apos;s queries read what the earlier head writes, ‖W_OV¹ W_QK²‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021).</source>
        <translation>Q-composition: how strongly the later head&apos;s queries read what the earlier head writes, ‖W_OV¹ W_QK²‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>K-composition: how strongly the later head&apos;s keys read what the earlier head writes, ‖W_OV¹ (W_QK²)ᵀ‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021). An induction head&apos;s keys read what a previous-token head wrote.</source>
        <translation>K-composition: how strongly the later head&apos;s keys read what the earlier head writes, ‖W_OV¹ (W_QK²)ᵀ‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021). An induction head&apos;s keys read what a previous-token head wrote.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>V-composition: how strongly the later head&apos;s values read what the earlier head writes, ‖W_OV¹ W_OV²‖ / (‖W_OV¹‖ ‖W_OV²‖), from the weights alone (Elhage et al. 2021).</source>
        <translation>V-composition: how strongly the later head&apos;s values read what the earlier head writes, ‖W_OV¹ W_OV²‖ / (‖W_OV¹‖ ‖W_OV²‖), from the weights alone (Elhage et al. 2021).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Grey: pairs that cannot compose (the same layer, or a later layer into an earlier one). The colours run from the smallest to the largest score.</source>
        <translation>Grey: pairs that cannot compose (the same layer, or a later layer into an earlier one). The colours run from the smallest to the largest score.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The colours run from the smallest to the largest score.</source>
        <translation>The colours run from the smallest to the largest score.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No copying scores: %1</source>
        <translation>No copying scores: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copying score (the strips, −1 to +1): Σλ / Σ|λ| over the eigenvalues of W_E W_OV W_U; near +1 the head copies the token it attends to into the prediction.</source>
        <translation>Copying score (the strips, −1 to +1): Σλ / Σ|λ| over the eigenvalues of W_E W_OV W_U; near +1 the head copies the token it attends to into the prediction.</translation>
    </message>
    <message>
        <location line="+57"/>
        <location line="+330"/>
        <source>Earlier head, writing</source>
        <translation>Earlier head, writing</translation>
    </message>
    <message>
        <location line="-328"/>
        <location line="+407"/>
        <source>Copying</source>
        <translation>Copying</translation>
    </message>
    <message>
        <location line="-406"/>
        <source>%1-composition</source>
        <translation>%1-composition</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copying score</source>
        <translation>Copying score</translation>
    </message>
    <message>
        <location line="+220"/>
        <source>%1 → %2: no composition (a head reads only what the layers below it wrote)</source>
        <translation>%1 → %2: no composition (a head reads only what the layers below it wrote)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 → %2: %3-composition %4</source>
        <translation>%1 → %2: %3-composition %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: no copying score (its W_OV is zero)</source>
        <translation>%1: no copying score (its W_OV is zero)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: copying score %2</source>
        <translation>%1: copying score %2</translation>
    </message>
</context>
<context>
    <name>Colormap</name>
    <message>
        <location filename="../../ui/render/colormaps.cpp" line="+35"/>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cividis</source>
        <translation>Cividis</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Grey (print)</source>
        <translation>Grey (print)</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <location filename="../../ui/document/compare_config.cpp" line="+89"/>
        <source>Another layer or another sentence needs a trained model: open one with File ▸ Open Model.</source>
        <translation>Another layer or another sentence needs a trained model: open one with File ▸ Open Model.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B&apos;s attention maps are compared with attention maps: open A&apos;s with File ▸ Open Attention Maps…</source>
        <translation>B&apos;s attention maps are compared with attention maps: open A&apos;s with File ▸ Open Attention Maps…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Maps read from a file have no sentence to change: compare them with another file&apos;s maps instead.</source>
        <translation>Maps read from a file have no sentence to change: compare them with another file&apos;s maps instead.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B&apos;s sentence is empty: type one, or compare the same sentence.</source>
        <translation>B&apos;s sentence is empty: type one, or compare the same sentence.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>B&apos;s %1 heads do not divide embed_dim %2: choose a head count that does, or change embed_dim.</source>
        <translation>B&apos;s %1 heads do not divide embed_dim %2: choose a head count that does, or change embed_dim.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>causal mask</source>
        <translation>causal mask</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no causal mask</source>
        <translation>no causal mask</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>dropout %1 (training, seed %2)</source>
        <translation>dropout %1 (training, seed %2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>training, no dropout</source>
        <translation>training, no dropout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no dropout (evaluation)</source>
        <translation>no dropout (evaluation)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>fully masked rows: %1</source>
        <translation>fully masked rows: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>with bias</source>
        <translation>with bias</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>positional encoding</source>
        <translation>positional encoding</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/compare_model.cpp" line="+28"/>
        <source>%1 × %2 tokens are too many to compare (at most %3 cells): shorten the text.</source>
        <translation>%1 × %2 tokens are too many to compare (at most %3 cells): shorten the text.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A and B were computed for different inputs.</source>
        <translation>A and B were computed for different inputs.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>B has no head %1: it has %2 heads.</source>
        <translation>B has no head %1: it has %2 heads.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Nothing computed yet.</source>
        <translation>Nothing computed yet.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>head 1</source>
        <translation>head 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>heads 1 to %1</source>
        <translation>heads 1 to %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1 exists only in B: A has %2 heads. Compare the mean, or %3.</source>
        <translation>Head %1 exists only in B: A has %2 heads. Compare the mean, or %3.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Head %1 exists only in A: B has %2 heads. Compare the mean, or %3.</source>
        <translation>Head %1 exists only in A: B has %2 heads. Compare the mean, or %3.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Neither A nor B has a head %1. Compare the mean, or %2.</source>
        <translation>Neither A nor B has a head %1. Compare the mean, or %2.</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/compare_figure.cpp" line="+102"/>
        <source>Computing configuration B…</source>
        <translation>Computing configuration B…</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Difference B − A</source>
        <translation>Difference B − A</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Comparing two configurations</source>
        <translation>Comparing two configurations</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A and B are the same configuration</source>
        <translation>A and B are the same configuration</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1  vs  %2</source>
        <translation>%1  vs  %2</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+27"/>
        <source>mean over heads</source>
        <translation>mean over heads</translation>
    </message>
    <message>
        <location line="-27"/>
        <location line="+28"/>
        <source>head %1</source>
        <translation>head %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>sentence %1</source>
        <translation>sentence %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>norm-based ‖α·f(x)‖</source>
        <translation>norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A = %1</source>
        <translation>A = %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B = A: choose what B changes</source>
        <translation>B = A: choose what B changes</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B = A with %1; everything else the same</source>
        <translation>B = A with %1; everything else the same</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A&apos;s sentence has %1 tokens and B&apos;s %2: compared position by position, the positions only one has are blank.</source>
        <translation>A&apos;s sentence has %1 tokens and B&apos;s %2: compared position by position, the positions only one has are blank.</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>B&apos;s tokens differ from A&apos;s at %n position(s): compared position by position.</source>
        <translation>
            <numerusform>B&apos;s tokens differ from A&apos;s at %n position: compared position by position.</numerusform>
            <numerusform>B&apos;s tokens differ from A&apos;s at %n positions: compared position by position.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No cell has a weight in both A and B.</source>
        <translation>No cell has a weight in both A and B.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A and B give exactly the same weights here.</source>
        <translation>A and B give exactly the same weights here.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Largest change %1 at “%2” → “%3”   ·   mean |B − A| %4</source>
        <translation>Largest change %1 at “%2” → “%3”   ·   mean |B − A| %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Largest change: %1 (from %2 to %3) at query “%4”, key “%5”</source>
        <translation>Largest change: %1 (from %2 to %3) at query “%4”, key “%5”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>mean |B − A| = %1 over %2 cells</source>
        <translation>mean |B − A| = %1 over %2 cells</translation>
    </message>
    <message>
        <location line="+52"/>
        <location line="+320"/>
        <source>%1 (B lower)</source>
        <translation>%1 (B lower)</translation>
    </message>
    <message>
        <location line="-319"/>
        <location line="+320"/>
        <source>%1 (B higher)</source>
        <translation>%1 (B higher)</translation>
    </message>
    <message>
        <location line="-318"/>
        <location line="+312"/>
        <source>A and B:</source>
        <translation>A and B:</translation>
    </message>
    <message>
        <location line="-309"/>
        <location line="+304"/>
        <source>masked</source>
        <translation>masked</translation>
    </message>
    <message>
        <location line="-303"/>
        <location line="+312"/>
        <source>B − A:</source>
        <translation>B − A:</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>%1 (masked)</source>
        <translation>%1 (masked)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>“%1” → “%2” %3</source>
        <translation>“%1” → “%2” %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no token here</source>
        <translation>no token here</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A: %1   ·   B: %2</source>
        <translation>A: %1   ·   B: %2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A: “%1” → “%2” %3   ·   B: “%4” → “%5” %6   ·   B − A %7</source>
        <translation>A: “%1” → “%2” %3   ·   B: “%4” → “%5” %6   ·   B − A %7</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>query “%1” → key “%2”:   A %3   ·   B %4   ·   B − A %5</source>
        <translation>query “%1” → key “%2”:   A %3   ·   B %4   ·   B − A %5</translation>
    </message>
</context>
<context>
    <name>Compute</name>
    <message>
        <location filename="../../ui/compute/compute_controller.cpp" line="+95"/>
        <source>Running the attention layer…</source>
        <translation>Running the attention layer…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Layer %1 of %2</source>
        <translation>Layer %1 of %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Preparing heatmaps…</source>
        <translation>Preparing heatmaps…</translation>
    </message>
    <message>
        <location line="+24"/>
        <location filename="../../ui/compute/background_job.cpp" line="+49"/>
        <source>An unexpected error stopped the computation.</source>
        <translation>An unexpected error stopped the computation.</translation>
    </message>
    <message>
        <location line="+152"/>
        <source>This needs %1, more than the memory budget of %2, so nothing was computed. Keep fewer heads&apos; weights or a window of the tokens (above the heatmaps), or raise the budget.</source>
        <translation>This needs %1, more than the memory budget of %2, so nothing was computed. Keep fewer heads&apos; weights or a window of the tokens (above the heatmaps), or raise the budget.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The computation was cancelled.</source>
        <translation>The computation was cancelled.</translation>
    </message>
    <message>
        <location filename="../../ui/compute/attention_snapshot.cpp" line="+542"/>
        <location filename="../../ui/compute/model_snapshot.cpp" line="+44"/>
        <source>There are no tokens: type a sentence.</source>
        <translation>There are no tokens: type a sentence.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The second sentence has no tokens.</source>
        <translation>The second sentence has no tokens.</translation>
    </message>
    <message>
        <location line="-173"/>
        <source>%1 does not fit this layer (embed_dim %2, %3 heads): %4</source>
        <translation>%1 does not fit this layer (embed_dim %2, %3 heads): %4</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>The attention scores overflow the range of float (are the layer&apos;s weights far too large?): the weights would be NaN, so none are drawn.</source>
        <translation>The attention scores overflow the range of float (are the layer&apos;s weights far too large?): the weights would be NaN, so none are drawn.</translation>
    </message>
    <message>
        <location filename="../../ui/compute/model_snapshot.cpp" line="+37"/>
        <source>The window holds special tokens only: with special tokens hidden there is nothing to show. Move the window, or show special tokens.</source>
        <translation>The window holds special tokens only: with special tokens hidden there is nothing to show. Move the window, or show special tokens.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every token is a special token: with special tokens hidden there is nothing to show.</source>
        <translation>Every token is a special token: with special tokens hidden there is nothing to show.</translation>
    </message>
    <message>
        <location line="+221"/>
        <source>Layer %1, head %2 is knocked out, but %3 has %4 layers of %5 heads: restore it.</source>
        <translation>Layer %1, head %2 is knocked out, but %3 has %4 layers of %5 heads: restore it.</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Predictions are shown for texts of up to %1 tokens; this one has %2.</source>
        <translation>Predictions are shown for texts of up to %1 tokens; this one has %2.</translation>
    </message>
    <message>
        <location line="+331"/>
        <source>%1: no tokens file was given and there is no tokens.json beside it</source>
        <translation>%1: no tokens file was given and there is no tokens.json beside it</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>Predictions and knocked-out heads need the model itself: maps read from a file hold only its attention.</source>
        <translation>Predictions and knocked-out heads need the model itself: maps read from a file hold only its attention.</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>%1: token %2&apos;s offsets [%3, %4] are past the end of &quot;input&quot; (%5 characters)</source>
        <translation>%1: token %2&apos;s offsets [%3, %4] are past the end of &quot;input&quot; (%5 characters)</translation>
    </message>
</context>
<context>
    <name>Corpus</name>
    <message>
        <location filename="../../ui/document/corpus_data.cpp" line="+111"/>
        <source>the corpus is damaged (%1)</source>
        <translation>the corpus is damaged (%1)</translation>
    </message>
</context>
<context>
    <name>DlaFigure</name>
    <message>
        <location filename="../../ui/model/dla_figure.cpp" line="+34"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>layer %1 · head %2 (%3)</source>
        <translation>layer %1 · head %2 (%3)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <location line="+82"/>
        <source>%1 has no language-model head: there is no logit whose parts could be shown.</source>
        <translation>%1 has no language-model head: there is no logit whose parts could be shown.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 is a post-norm model: a norm sits between its blocks, so its residual stream is no sum of what the heads and MLPs write, and no part&apos;s share of a logit can be read off. Direct logit attribution needs a pre-norm model (GPT-2, Llama, Qwen).</source>
        <translation>%1 is a post-norm model: a norm sits between its blocks, so its residual stream is no sum of what the heads and MLPs write, and no part&apos;s share of a logit can be read off. Direct logit attribution needs a pre-norm model (GPT-2, Llama, Qwen).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is a masked language model: direct logit attribution reads the next-token logit of a causal model.</source>
        <translation>%1 is a masked language model: direct logit attribution reads the next-token logit of a causal model.</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>Who writes the answer: direct logit attribution</source>
        <translation>Who writes the answer: direct logit attribution</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: logit %1 − logit %2</source>
        <translation>Who writes the answer: logit %1 − logit %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: the logit of %1</source>
        <translation>Who writes the answer: the logit of %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1, the intact model&apos;s top prediction there</source>
        <translation>%1, the intact model&apos;s top prediction there</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, the model&apos;s top prediction there</source>
        <translation>%1, the model&apos;s top prediction there</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · “%2” · at token %3 %4 · target %5</source>
        <translation>%1 · “%2” · at token %3 %4 · target %5</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · knocked out: %1</source>
        <translation> · knocked out: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads (Σ)</source>
        <translation>Heads (Σ)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention biases (Σ)</source>
        <translation>Attention biases (Σ)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MLPs (Σ)</source>
        <translation>MLPs (Σ)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constant</source>
        <translation>Constant</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Total</source>
        <translation>Total</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The crossed-out heads are knocked out: the parts are those of the model without them, and add up to its logit.</source>
        <translation>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The crossed-out heads are knocked out: the parts are those of the model without them, and add up to its logit.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The parts add up to the model&apos;s own logit.</source>
        <translation>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The parts add up to the model&apos;s own logit.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Layer %1 · head %2 is knocked out by zeros: it writes nothing.</source>
        <translation>Layer %1 · head %2 is knocked out by zeros: it writes nothing.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Layer %1 · head %2 by source token: %3</source>
        <translation>Layer %1 · head %2 by source token: %3</translation>
    </message>
    <message>
        <location line="+76"/>
        <location line="+24"/>
        <location line="+212"/>
        <location line="+4"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="-239"/>
        <location line="+24"/>
        <location line="+4"/>
        <location line="+199"/>
        <source>Bias</source>
        <translation>Bias</translation>
    </message>
    <message>
        <location line="-226"/>
        <location line="+23"/>
        <location line="+5"/>
        <location line="+198"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location line="-225"/>
        <location line="+52"/>
        <location line="+304"/>
        <source>Σ parts = total %1</source>
        <translation>Σ parts = total %1</translation>
    </message>
    <message>
        <location line="-199"/>
        <source>Layer %1 · attention-output bias: %2 of the total %3</source>
        <translation>Layer %1 · attention-output bias: %2 of the total %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · MLP: %2 of the total %3</source>
        <translation>Layer %1 · MLP: %2 of the total %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · head %2, knocked out (%3): %4 of the total %5</source>
        <translation>Layer %1 · head %2, knocked out (%3): %4 of the total %5</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Layer %1 · head %2: %3 of the total %4</source>
        <translation>Layer %1 · head %2: %3 of the total %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its largest source tokens:</source>
        <translation>Its largest source tokens:</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+8"/>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <location line="+134"/>
        <source>Σ parts %1 ≠ total %2</source>
        <translation>Σ parts %1 ≠ total %2</translation>
    </message>
</context>
<context>
    <name>EngineError</name>
    <message>
        <location filename="../../ui/compute/error_text.cpp" line="+29"/>
        <source>no such file or folder</source>
        <translation>no such file or folder</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>permission denied</source>
        <translation>permission denied</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it is a folder</source>
        <translation>it is a folder</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a part of the path is not a folder</source>
        <translation>a part of the path is not a folder</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the disk is full</source>
        <translation>the disk is full</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the disk is read-only</source>
        <translation>the disk is read-only</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the name is too long</source>
        <translation>the name is too long</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot open “%1”: %2.</source>
        <translation>Cannot open “%1”: %2.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: %2.</source>
        <translation>Cannot read “%1”: %2.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write “%1”: %2.</source>
        <translation>Cannot write “%1”: %2.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read the folder “%1”: %2.</source>
        <translation>Cannot read the folder “%1”: %2.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: it is not a regular file.</source>
        <translation>Cannot read “%1”: it is not a regular file.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>“%1” is empty (0 bytes), not a %2 file.</source>
        <translation>“%1” is empty (0 bytes), not a %2 file.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot read “%1”: it is larger than the %2 limit.</source>
        <translation>Cannot read “%1”: it is larger than the %2 limit.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: it is %2, more than the %3 limit.</source>
        <translation>Cannot read “%1”: it is %2, more than the %3 limit.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The text is %1 tokens, more than the %2 positions of %3.</source>
        <translation>The text is %1 tokens, more than the %2 positions of %3.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The text and its continuation are %1 tokens, more than the %2 positions of %3.</source>
        <translation>The text and its continuation are %1 tokens, more than the %2 positions of %3.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The text is empty.</source>
        <translation>The text is empty.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The text gives no tokens.</source>
        <translation>The text gives no tokens.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Token id %1 is outside the %2-token vocabulary of %3.</source>
        <translation>Token id %1 is outside the %2-token vocabulary of %3.</translation>
    </message>
</context>
<context>
    <name>Examples</name>
    <message>
        <location filename="../../ui/classroom/examples.cpp" line="+59"/>
        <source>What the head count does</source>
        <translation>What the head count does</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same sentence and embed_dim 64, split into %1. Each head gets 64 / heads dimensions for its queries and keys, and its own W_Q, W_K, W_V. With more heads, each head is smaller, but the layer can attend to several things at once: compare the heads&apos; patterns, and open Statistics to see how differently they spread their attention.</source>
        <translation>The same sentence and embed_dim 64, split into %1. Each head gets 64 / heads dimensions for its queries and keys, and its own W_Q, W_K, W_V. With more heads, each head is smaller, but the layer can attend to several things at once: compare the heads&apos; patterns, and open Statistics to see how differently they spread their attention.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Self-attention: “The cat sat on the mat”</source>
        <translation>Self-attention: “The cat sat on the mat”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every token is a query, a key and a value. Step through the computation: each token&apos;s query is compared with every token&apos;s key (QKᵀ), the scores are scaled by √d_k and turned into weights by a softmax along each row, and each token&apos;s output is the weighted average of the values. Use the arrow keys to step; hover a cell to see where it came from.</source>
        <translation>Every token is a query, a key and a value. Step through the computation: each token&apos;s query is compared with every token&apos;s key (QKᵀ), the scores are scaled by √d_k and turned into weights by a softmax along each row, and each token&apos;s output is the weighted average of the values. Use the arrow keys to step; hover a cell to see where it came from.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Padding mask: a batch of two sentences</source>
        <translation>Padding mask: a batch of two sentences</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sentences in a batch must have the same length, so the shorter one is padded with [PAD] tokens. The key padding mask adds −∞ to the scores of the padding keys, so after the softmax they get exactly zero weight (hatched cells). Switch between the two sentences in the toolbar: the longer one needs no mask at all.</source>
        <translation>Sentences in a batch must have the same length, so the shorter one is padded with [PAD] tokens. The key padding mask adds −∞ to the scores of the padding keys, so after the softmax they get exactly zero weight (hatched cells). Switch between the two sentences in the toolbar: the longer one needs no mask at all.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Causal mask: a language model reads left to right</source>
        <translation>Causal mask: a language model reads left to right</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A language model predicting the next word may not look ahead. The causal mask hides every key after the query (the upper triangle), so the first token can only attend to itself and each row spreads its weight over the tokens so far. Press Ctrl+K to switch the mask off and on.</source>
        <translation>A language model predicting the next word may not look ahead. The causal mask hides every key after the query (the upper triangle), so the first token can only attend to itself and each row spreads its weight over the tokens so far. Press Ctrl+K to switch the mask off and on.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cross-attention: English → Chinese</source>
        <translation>Cross-attention: English → Chinese</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In a translation model the decoder&apos;s tokens (queries) attend to the encoder&apos;s tokens (keys and values) of the other sentence. The matrix is no longer square: one row per English token, one column per Chinese token. The lines show where each query looks; hover a token to see only its lines. (The weights are random, not trained: the alignment is not meaningful, the mechanics are.)</source>
        <translation>In a translation model the decoder&apos;s tokens (queries) attend to the encoder&apos;s tokens (keys and values) of the other sentence. The matrix is no longer square: one row per English token, one column per Chinese token. The lines show where each query looks; hover a token to see only its lines. (The weights are random, not trained: the alignment is not meaningful, the mechanics are.)</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>1 head</source>
        <translation>1 head</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>2 heads</source>
        <translation>2 heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>4 heads</source>
        <translation>4 heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>8 heads</source>
        <translation>8 heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout in training mode</source>
        <translation>Dropout in training mode</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>During training, dropout sets each attention weight to zero with probability p (here 0.3) and scales the others by 1/(1 − p), so rows no longer sum to exactly 1. The seed fixes which weights are dropped: press Ctrl+R to draw a new sample, and switch training mode off (Ctrl+T) to see the weights the model uses at inference.</source>
        <translation>During training, dropout sets each attention weight to zero with probability p (here 0.3) and scales the others by 1/(1 − p), so rows no longer sum to exactly 1. The seed fixes which weights are dropped: press Ctrl+R to draw a new sample, and switch training mode off (Ctrl+T) to see the weights the model uses at inference.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Comparing: without and with the causal mask</source>
        <translation>Comparing: without and with the causal mask</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same sentence and the same weights twice: A attends to every token, B only to the tokens so far. The third map is B − A: red where B gives more weight, blue where it gives less. The weight B may not put on later tokens (hatched) goes to the earlier ones, so the first rows change most and the last row not at all. Try the other comparisons above the figure.</source>
        <translation>The same sentence and the same weights twice: A attends to every token, B only to the tokens so far. The third map is B − A: red where B gives more weight, blue where it gives less. The weight B may not put on later tokens (hatched) goes to the earlier ones, so the first rows change most and the last row not at all. Try the other comparisons above the figure.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Learned heads: every head of a trained model</source>
        <translation>Learned heads: every head of a trained model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A 2-layer, attention-only model that AttnViz trained on English fortunes (built in: nothing to download), on a string it has never seen, said twice. Each thumbnail is one head. In layer 1, some heads look at the previous character: the stripe just left of the diagonal. In layer 2, induction heads look from each character of the second copy to the one that followed it in the first: the stripe in the lower left. Click a thumbnail to open that head; choose Demo layer in the Source box to compute one random layer step by step.</source>
        <translation>A 2-layer, attention-only model that AttnViz trained on English fortunes (built in: nothing to download), on a string it has never seen, said twice. Each thumbnail is one head. In layer 1, some heads look at the previous character: the stripe just left of the diagonal. In layer 2, induction heads look from each character of the second copy to the one that followed it in the first: the stripe in the lower left. Click a thumbnail to open that head; choose Demo layer in the Source box to compute one random layer step by step.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A string of random characters, said twice. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. It finds the same character earlier and copies what came next, which is how a model continues a pattern it has just seen, even one it never saw in training. It only works with a previous-token head in layer 1 before it. Uniform attention would give that cell about 1/L. On repeated ordinary English this small model relies on other heads, so its induction heads are fainter there; try your own string.</source>
        <translation>A string of random characters, said twice. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. It finds the same character earlier and copies what came next, which is how a model continues a pattern it has just seen, even one it never saw in training. It only works with a previous-token head in layer 1 before it. Uniform attention would give that cell about 1/L. On repeated ordinary English this small model relies on other heads, so its induction heads are fainter there; try your own string.</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Activation patching: find the induction head</source>
        <translation>Activation patching: find the induction head</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activation patching asks which head carries a piece of information. The clean text is a random string said twice, cut before its last character: after “1” the first copy had “^”, so the model predicts “^”. The corrupted text differs in one character, the first copy&apos;s “^” became “x”, so the model predicts “x”. Each head in turn runs on the corrupted text with its output taken from the clean run, and the map shows how much of logit(“^”) − logit(“x”) comes back: 1 is all of it, 0 nothing. Layer 2 head 8, the induction head, restores about three quarters on its own; every other head less than a tenth. Click a head to see its attention on both texts: head 8 looks from the last “1” to the character after the first “1”.</source>
        <translation>Activation patching asks which head carries a piece of information. The clean text is a random string said twice, cut before its last character: after “1” the first copy had “^”, so the model predicts “^”. The corrupted text differs in one character, the first copy&apos;s “^” became “x”, so the model predicts “x”. Each head in turn runs on the corrupted text with its output taken from the clean run, and the map shows how much of logit(“^”) − logit(“x”) comes back: 1 is all of it, 0 nothing. Layer 2 head 8, the induction head, restores about three quarters on its own; every other head less than a tenth. Click a head to see its attention on both texts: head 8 looks from the last “1” to the character after the first “1”.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Watch it write</source>
        <translation>Watch it write</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A random string, said once and begun again. The model continued it one character at a time (Write with the model, on the left), and Play replays that: each new character is the model&apos;s top guess, drawn in orange, and its row of this layer-2 head is where it looked while choosing it, the character after the same one in the first copy. The map grows a row a step; drag the slider to see any step. Knock out this head (right-click it), drag the slider back to 0 and press Continue: the copying stops.</source>
        <translation>A random string, said once and begun again. The model continued it one character at a time (Write with the model, on the left), and Play replays that: each new character is the model&apos;s top guess, drawn in orange, and its row of this layer-2 head is where it looked while choosing it, the character after the same one in the first copy. The map grows a row a step; drag the slider to see any step. Knock out this head (right-click it), drag the slider back to 0 and press Continue: the copying stops.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Watch it write, in Chinese</source>
        <translation>Watch it write, in Chinese</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said once and begun again, in the bilingual 2-layer model. Play replays how it wrote the rest of the second copy, one character at a time, in orange: each new row of this layer-2 head looks at the character that followed the same one the first time. Drag the slider to see any step; Continue writes more, and Keep makes the text yours.</source>
        <translation>Thirty common Chinese characters in random order, said once and begun again, in the bilingual 2-layer model. Play replays how it wrote the rest of the second copy, one character at a time, in orange: each new row of this layer-2 head looks at the character that followed the same one the first time. Drag the slider to see any step; Continue writes more, and Keep makes the text yours.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Knock out the induction heads</source>
        <translation>Knock out the induction heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty random letters and digits, said twice. The strip under the maps shows the model&apos;s top guess after each character, green where it is the character that follows, and the loss under it. The intact model guesses the second copy right character by character (29 of 29, a loss of 0.25 nats/token). Here layer 2&apos;s three induction heads, 4, 5 and 8, are knocked out (their output set to zero): without the heads that look back at what followed the same character the first time, the model cannot continue the string and gets none of the second copy right (a loss of 4.5). The Predictions box shows each guess before → after. Right-click head 8 and restore it: alone, it brings back all 29.</source>
        <translation>Thirty random letters and digits, said twice. The strip under the maps shows the model&apos;s top guess after each character, green where it is the character that follows, and the loss under it. The intact model guesses the second copy right character by character (29 of 29, a loss of 0.25 nats/token). Here layer 2&apos;s three induction heads, 4, 5 and 8, are knocked out (their output set to zero): without the heads that look back at what followed the same character the first time, the model cannot continue the string and gets none of the second copy right (a loss of 4.5). The Predictions box shows each guess before → after. Right-click head 8 and restore it: alone, it brings back all 29.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Knock out the induction heads in Chinese</source>
        <translation>Knock out the induction heads in Chinese</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said twice, in the bilingual attention-only model. The intact model guesses all 29 of the second copy&apos;s characters that it can (a loss of 0.39 nats/token). With layer 2&apos;s induction heads 4, 5 and 8 knocked out it gets none (a loss of 6.7): the strip under the maps turns grey and red, and the Predictions box shows each guess before → after. Head 8 carries most of it: right-click it and restore it, and 28 come back; knocked out on its own, it leaves only 10.</source>
        <translation>Thirty common Chinese characters in random order, said twice, in the bilingual attention-only model. The intact model guesses all 29 of the second copy&apos;s characters that it can (a loss of 0.39 nats/token). With layer 2&apos;s induction heads 4, 5 and 8 knocked out it gets none (a loss of 6.7): the strip under the maps turns grey and red, and the Predictions box shows each guess before → after. Head 8 carries most of it: right-click it and restore it, and 28 come back; knocked out on its own, it leaves only 10.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>What the model predicts: the logit lens</source>
        <translation>What the model predicts: the logit lens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the 2-layer model would predict after each character if it stopped after layer 1, and after layer 2, its output: each row reads the residual stream through the model&apos;s own output head. Each cell is the most likely next character, coloured by its probability, framed where it is the character that actually follows. Layer 1 alone is right 19 times of 60, mostly on pairs such as “a” → “n” and “d” → space; with layer 2 the model is right 30 times, and in the second “early” it copies what followed the first. Hover a cell for its top 5.</source>
        <translation>What the 2-layer model would predict after each character if it stopped after layer 1, and after layer 2, its output: each row reads the residual stream through the model&apos;s own output head. Each cell is the most likely next character, coloured by its probability, framed where it is the character that actually follows. Layer 1 alone is right 19 times of 60, mostly on pairs such as “a” → “n” and “d” → space; with layer 2 the model is right 30 times, and in the second “early” it copies what followed the first. Hover a cell for its top 5.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>What the model predicts in Chinese: the logit lens</source>
        <translation>What the model predicts in Chinese: the logit lens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wang Zhihuan&apos;s “On the Stork Tower” in the 4-layer model trained on Chinese poems and English text. Each row reads the residual stream after one layer through the model&apos;s output head: the most likely next character, coloured by its probability, framed where it is the one that follows; the last row is the model&apos;s output. The model knows the verse&apos;s form better than its words: at the end of three of the four lines it expects the comma or the full stop from layer 1 on, while of the words only 千 → 里 is right, from layer 2 on. Hover a cell for its top 5.</source>
        <translation>Wang Zhihuan&apos;s “On the Stork Tower” in the 4-layer model trained on Chinese poems and English text. Each row reads the residual stream after one layer through the model&apos;s output head: the most likely next character, coloured by its probability, framed where it is the one that follows; the last row is the model&apos;s output. The model knows the verse&apos;s form better than its words: at the end of three of the four lines it expects the comma or the full stop from layer 1 on, while of the words only 千 → 里 is right, from layer 2 on. Hover a cell for its top 5.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>How a model writes one token</source>
        <translation>How a model writes one token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The 4-layer model AttnViz trained on Chinese and English text, at the last character of “Thank yo”, from top to bottom: the character&apos;s embedding plus its position; in each layer the norm, the queries, keys and values, the attention over the characters so far, the output projection added to the residual stream, and the MLP (up, GELU, down) added again; then the final norm, the logits and the softmax, which gives “u” 94%. Click a layer&apos;s header to open or fold it, hover a cell for its value. Press Draw, then Add to the text: the model writes on, one character at a time.</source>
        <translation>The 4-layer model AttnViz trained on Chinese and English text, at the last character of “Thank yo”, from top to bottom: the character&apos;s embedding plus its position; in each layer the norm, the queries, keys and values, the attention over the characters so far, the output projection added to the residual stream, and the MLP (up, GELU, down) added again; then the final norm, the logits and the softmax, which gives “u” 94%. Click a layer&apos;s header to open or fold it, hover a cell for its value. Press Draw, then Add to the text: the model writes on, one character at a time.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The same model after “Once upon a ti”: the next letter is open, “m” 20%, “n” 18%, “t” 13%, “s” 13%. The temperature divides the logits before the softmax. At 0 the model always takes “m”; at 0.5 “m” and “n” have 58% between them; at 2 the four share only 31% and rare letters get their chance. Top-k draws only among the k likeliest letters, top-p among the likeliest until their probabilities reach p. Press Draw a few times at each setting: each seed draws one letter.</source>
        <translation>The same model after “Once upon a ti”: the next letter is open, “m” 20%, “n” 18%, “t” 13%, “s” 13%. The temperature divides the logits before the softmax. At 0 the model always takes “m”; at 0.5 “m” and “n” have 58% between them; at 2 the four share only 31% and rare letters get their chance. Top-k draws only among the k likeliest letters, top-p among the likeliest until their probabilities reach p. Press Draw a few times at each setting: each seed draws one letter.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why the induction head looks there</source>
        <translation>Why the induction head looks there</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A random string said once and begun again. Layer 2 head 8 looks from the last “P” (query 47) to key 18, the “8” that followed the first “P” (weight 0.92). Alt-click that cell, the bright one in the last row: the pane that opens splits its score, 30.7, into pairs of what the query and the key read. The largest, a third, is the query&apos;s own character with what the previous-token head L1H4 wrote at the key. That is K-composition: L1H4 tells each key which character came before it, so L2H8 finds the one after the same character; the Circuits tab shows it in the weights.</source>
        <translation>A random string said once and begun again. Layer 2 head 8 looks from the last “P” (query 47) to key 18, the “8” that followed the first “P” (weight 0.92). Alt-click that cell, the bright one in the last row: the pane that opens splits its score, 30.7, into pairs of what the query and the key read. The largest, a third, is the query&apos;s own character with what the previous-token head L1H4 wrote at the key. That is K-composition: L1H4 tells each key which character came before it, so L2H8 finds the one after the same character; the Circuits tab shows it in the weights.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Which heads write the answer</source>
        <translation>Which heads write the answer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same string, at its last “P”: the model&apos;s top guess is “8”, which followed “P” the first time. Who Writes splits the logit of “8”, 9.03, into what each head adds to the residual stream, read through the model&apos;s output head. The induction head L2H8 writes 5.71 of it, more than all the other heads together; almost all of that comes from its weight on the “8” after the first “P”. Right-click its cell and choose Knock Out (Zero): its share vanishes, and the logit of “8” falls to 3.04. Restore it from the same menu.</source>
        <translation>The same string, at its last “P”: the model&apos;s top guess is “8”, which followed “P” the first time. Who Writes splits the logit of “8”, 9.03, into what each head adds to the residual stream, read through the model&apos;s output head. The induction head L2H8 writes 5.71 of it, more than all the other heads together; almost all of that comes from its weight on the “8” after the first “P”. Right-click its cell and choose Knock Out (Zero): its share vanishes, and the logit of “8” falls to 3.04. Restore it from the same menu.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>How information flows</source>
        <translation>How information flows</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same string as a graph: layers are rows, tokens are columns, and a line joins two streams where one carries much of what the other becomes in the next layer. From the last “P”, the strong path runs in layer 2 to the “8” after the first “P”, and in layer 1 from that “8” to the “P” before it: the previous-token head, then the induction head. Move the threshold to see fewer or more edges.</source>
        <translation>The same string as a graph: layers are rows, tokens are columns, and a line joins two streams where one carries much of what the other becomes in the next layer. From the last “P”, the strong path runs in layer 2 to the “8” after the first “P”, and in layer 1 from that “8” to the “P” before it: the previous-token head, then the induction head. Move the threshold to see fewer or more edges.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Heads across a corpus</source>
        <translation>Heads across a corpus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The 2-layer model over 390 fortunes it never saw in training, one pass per text: each cell is now a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 is a previous-token head on nearly every text: 0.498 of a query&apos;s weight goes to the character before it (0.495 to 0.501), and 98% of the texts agree. English prose repeats little, so induction scores are low, yet layer 2 head 8 stands out: 0.189 (0.183 to 0.195), nearly twice any other head. Click a head for its top examples; double-click one to open its text.</source>
        <translation>The 2-layer model over 390 fortunes it never saw in training, one pass per text: each cell is now a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 is a previous-token head on nearly every text: 0.498 of a query&apos;s weight goes to the character before it (0.495 to 0.501), and 98% of the texts agree. English prose repeats little, so induction scores are low, yet layer 2 head 8 stands out: 0.189 (0.183 to 0.195), nearly twice any other head. Click a head for its top examples; double-click one to open its text.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Heads across a corpus, in Chinese</source>
        <translation>Heads across a corpus, in Chinese</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bilingual 2-layer model over 254 Tang poems, Song lyrics and other Chinese texts it never saw in training. Each cell is a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 looks at the character before the query: 0.659 of the weight (0.654 to 0.664), and every text agrees. Poems repeat characters, and layer 2&apos;s induction heads show it: head 4 scores 0.394 (0.380 to 0.408), head 5 0.363, head 7 0.319. Queries &amp; Keys shows where head 4&apos;s queries and keys lie.</source>
        <translation>The bilingual 2-layer model over 254 Tang poems, Song lyrics and other Chinese texts it never saw in training. Each cell is a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 looks at the character before the query: 0.659 of the weight (0.654 to 0.664), and every text agrees. Poems repeat characters, and layer 2&apos;s induction heads show it: head 4 scores 0.394 (0.380 to 0.408), head 5 0.363, head 7 0.319. Queries &amp; Keys shows where head 4&apos;s queries and keys lie.</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>Temperature: how a model chooses</source>
        <translation>Temperature: how a model chooses</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>Induction head</source>
        <translation>Induction head</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Induction head in Chinese</source>
        <translation>Induction head in Chinese</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said twice, in a 2-layer, attention-only model that AttnViz trained on Chinese and English text. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. In the first copy, with nothing to copy yet, it rests on &lt;|bos|&gt;. A layer-1 head before it looks at the character just before each one (Model tab). The same heads work on English letters and digits said twice; type your own string twice and watch the stripe.</source>
        <translation>Thirty common Chinese characters in random order, said twice, in a 2-layer, attention-only model that AttnViz trained on Chinese and English text. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. In the first copy, with nothing to copy yet, it rests on &lt;|bos|&gt;. A layer-1 head before it looks at the character just before each one (Model tab). The same heads work on English letters and digits said twice; type your own string twice and watch the stripe.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Previous-token head</source>
        <translation>Previous-token head</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A layer-1 head of the same trained model. About half of each row&apos;s weight, in most rows the largest part, is on the character just before the query: the stripe below the diagonal, whatever the text. Nobody programmed it: the model learned that the previous character predicts the next one, and the induction heads of layer 2 build on what this head passes on.</source>
        <translation>A layer-1 head of the same trained model. About half of each row&apos;s weight, in most rows the largest part, is on the character just before the query: the stripe below the diagonal, whatever the text. Nobody programmed it: the model learned that the previous character predicts the next one, and the induction heads of layer 2 build on what this head passes on.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Attention sink</source>
        <translation>Attention sink</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A 4-layer model trained on Chinese and English text, on Meng Haoran&apos;s “Spring Dawn”. This layer-4 head puts nearly all of every row&apos;s weight on the first token, &lt;|bos|&gt;: the first column is bright. The softmax must give its weights to something, so a head with nothing useful to read parks them on a token that is always there. Large language models do the same; the Model tab shows how many heads here do. On English text this small model&apos;s sinks are weaker.</source>
        <translation>A 4-layer model trained on Chinese and English text, on Meng Haoran&apos;s “Spring Dawn”. This layer-4 head puts nearly all of every row&apos;s weight on the first token, &lt;|bos|&gt;: the first column is bright. The softmax must give its weights to something, so a head with nothing useful to read parks them on a token that is always there. Large language models do the same; the Model tab shows how many heads here do. On English text this small model&apos;s sinks are weaker.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Chinese poetry: “Quiet Night Thoughts”</source>
        <translation>Chinese poetry: “Quiet Night Thoughts”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Li Bai&apos;s poem, one character per token, in the 4-layer model trained on Tang and Song poems and English text. All 16 heads are shown: on Chinese verse most heads of layers 2 to 4 rest on &lt;|bos|&gt; (the bright first column), while those of layer 1 spread over the characters before the query. Click a thumbnail to open that head.</source>
        <translation>Li Bai&apos;s poem, one character per token, in the 4-layer model trained on Tang and Song poems and English text. All 16 heads are shown: on Chinese verse most heads of layers 2 to 4 rest on &lt;|bos|&gt; (the bright first column), while those of layer 1 spread over the characters before the query. Click a thumbnail to open that head.</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <location filename="../../ui/render/figure_export.cpp" line="+57"/>
        <source>The comparison has no configuration B to draw.</source>
        <translation>The comparison has no configuration B to draw.</translation>
    </message>
    <message>
        <location line="+44"/>
        <location line="+4"/>
        <location line="+7"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>Cannot write &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The figure size must be between %1 and %2 pixels a side (got %3 x %4).</source>
        <translation>The figure size must be between %1 and %2 pixels a side (got %3 x %4).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The scale must be between 0.25 and %1 (got %2).</source>
        <translation>The scale must be between 0.25 and %1 (got %2).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 x %2 at scale %3 is too large an image.</source>
        <translation>%1 x %2 at scale %3 is too large an image.</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>Cannot start the SVG writer.</source>
        <translation>Cannot start the SVG writer.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot start the PDF writer.</source>
        <translation>Cannot start the PDF writer.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Unknown figure format for &apos;%1&apos;: use .png, .svg or .pdf.</source>
        <translation>Unknown figure format for &apos;%1&apos;: use .png, .svg or .pdf.</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>Cannot encode the PNG: %1</source>
        <translation>Cannot encode the PNG: %1</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>Unknown weights format for &apos;%1&apos;: use .csv, .npy or .json.</source>
        <translation>Unknown weights format for &apos;%1&apos;: use .csv, .npy or .json.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Only the mean over heads was kept, so there are no per-head weights for a .npy array [N, H, L, S]: keep the heads&apos; weights, or export CSV or JSON, which hold the mean.</source>
        <translation>Only the mean over heads was kept, so there are no per-head weights for a .npy array [N, H, L, S]: keep the heads&apos; weights, or export CSV or JSON, which hold the mean.</translation>
    </message>
</context>
<context>
    <name>ExportCommand</name>
    <message>
        <location filename="../../ui/cli/export_command.cpp" line="+42"/>
        <source>%1 needs a whole number from %2 to %3, not &apos;%4&apos;</source>
        <translation>%1 needs a whole number from %2 to %3, not &apos;%4&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="+36"/>
        <source>--compare and the demo layer&apos;s --b-... options do not apply to --model: compare with --b-layer, --b-head or --b-text</source>
        <translation>--compare and the demo layer&apos;s --b-... options do not apply to --model: compare with --b-layer, --b-head or --b-text</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--b-layer and --b-text need --model</source>
        <translation>--b-layer and --b-text need --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--b-layer %1: %2 has %3 layers</source>
        <translation>--b-layer %1: %2 has %3 layers</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--b-head %1: there are %2 heads</source>
        <translation>--b-head %1: there are %2 heads</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>--b-num-heads %1 does not divide --embed-dim %2</source>
        <translation>--b-num-heads %1 does not divide --embed-dim %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--view compare needs a configuration B: --compare causal|heads|dropout or --b-... options (see attnviz export --help)</source>
        <translation>--view compare needs a configuration B: --compare causal|heads|dropout or --b-... options (see attnviz export --help)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>B is the same as A: the --b-... options change nothing A does not already have</source>
        <translation>B is the same as A: the --b-... options change nothing A does not already have</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+163"/>
        <source>--layer needs --model</source>
        <translation>--layer needs --model</translation>
    </message>
    <message>
        <location line="-83"/>
        <source>--tokens cannot be used with --model: the model&apos;s tokenizer splits --text</source>
        <translation>--tokens cannot be used with --model: the model&apos;s tokenizer splits --text</translation>
    </message>
    <message>
        <location line="-18"/>
        <location line="+28"/>
        <source>--layer %1: %2 has %3 layers</source>
        <translation>--layer %1: %2 has %3 layers</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="-172"/>
        <source>--compare and the demo layer&apos;s --b-... options do not apply to --attentions: compare with --b-attentions, --b-layer or --b-head</source>
        <translation>--compare and the demo layer&apos;s --b-... options do not apply to --attentions: compare with --b-attentions, --b-layer or --b-head</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--b-text needs --model: maps read from a file have no sentence to change (compare them with --b-attentions)</source>
        <translation>--b-text needs --model: maps read from a file have no sentence to change (compare them with --b-attentions)</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_layer_options.cpp" line="+151"/>
        <source>--window needs START:LEN, a first token (from 1) and a length, e.g. 1:512, not &apos;%1&apos;</source>
        <translation>--window needs START:LEN, a first token (from 1) and a length, e.g. 1:512, not &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+69"/>
        <source>use either --model or --attentions, not both</source>
        <translation>use either --model or --attentions, not both</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--attention-tokens needs --attentions</source>
        <translation>--attention-tokens needs --attentions</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--b-attention-tokens needs --b-attentions</source>
        <translation>--b-attention-tokens needs --b-attentions</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--b-attentions compares two maps files: give A&apos;s with --attentions</source>
        <translation>--b-attentions compares two maps files: give A&apos;s with --attentions</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>--attentions brings its own tokens: --text and --tokens do not go with it</source>
        <translation>--attentions brings its own tokens: --text and --tokens do not go with it</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>--words, --hide-special, --focus-token and --focus-to need --model</source>
        <translation>--words, --hide-special, --focus-token and --focus-to need --model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--ablate needs --model</source>
        <translation>--ablate needs --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate needs --model</source>
        <translation>--generate needs --model</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--ablate-mode needs --ablate</source>
        <translation>--ablate-mode needs --ablate</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_layer_options.cpp" line="-100"/>
        <source>--text (or --tokens) is required</source>
        <translation>--text (or --tokens) is required</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>use either --text or --tokens, not both</source>
        <translation>use either --text or --tokens, not both</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>use either --text2 or --tokens2, not both</source>
        <translation>use either --text2 or --tokens2, not both</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>give both sentences as text or both as token lists</source>
        <translation>give both sentences as text or both as token lists</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--mode %1 needs --text2</source>
        <translation>--mode %1 needs --text2</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>--num-heads %1 does not divide --embed-dim %2</source>
        <translation>--num-heads %1 does not divide --embed-dim %2</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>--heads-shown %1 is more than --num-heads %2</source>
        <translation>--heads-shown %1 is more than --num-heads %2</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+21"/>
        <source>--view predictions needs --model</source>
        <translation>--view predictions needs --model</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--view lens needs --model</source>
        <translation>--view lens needs --model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="+137"/>
        <source>--view %1 needs a model: maps read from a file hold only its result</source>
        <translation>--view %1 needs a model: maps read from a file hold only its result</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+9"/>
        <source>--open-layers and --draw need --whole-model</source>
        <translation>--open-layers and --draw need --whole-model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--whole-model needs --view steps</source>
        <translation>--whole-model needs --view steps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--whole-model needs --model</source>
        <translation>--whole-model needs --model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--step and --focus show one layer: not with --whole-model</source>
        <translation>--step and --focus show one layer: not with --whole-model</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>--thumbnails needs --view model</source>
        <translation>--thumbnails needs --view model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="+184"/>
        <source>%1 needs --view compare</source>
        <translation>%1 needs --view compare</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+8"/>
        <source>--generate continues a single text: no --text2</source>
        <translation>--generate continues a single text: no --text2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>--generate %1: with the %2 tokens of the text that is more than the %3 positions of %4 (at most %5)</source>
        <translation>--generate %1: with the %2 tokens of the text that is more than the %3 positions of %4 (at most %5)</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_command.cpp" line="+61"/>
        <source>a PNG of %1 x %2 pixels needs %3, more than the memory budget of %4; use a smaller --width, --height or --scale</source>
        <translation>a PNG of %1 x %2 pixels needs %3, more than the memory budget of %4; use a smaller --width, --height or --scale</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>--focus-token %1: the text has %2 tokens</source>
        <translation>--focus-token %1: the text has %2 tokens</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_patch_options.cpp" line="+22"/>
        <source>--view patch needs --model</source>
        <translation>--view patch needs --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view patch reads --clean and --corrupt, not --text, --tokens or --layer</source>
        <translation>--view patch reads --clean and --corrupt, not --text, --tokens or --layer</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view patch needs --clean, --corrupt, --target and --distractor</source>
        <translation>--view patch needs --clean, --corrupt, --target and --distractor</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>--ablate does not apply to --view patch</source>
        <translation>--ablate does not apply to --view patch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--generate does not apply to --view patch</source>
        <translation>--generate does not apply to --view patch</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--clean, --corrupt, --target, --distractor, --position and --method need --view patch</source>
        <translation>--clean, --corrupt, --target, --distractor, --position and --method need --view patch</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="+23"/>
        <source>--step and --focus need --view steps</source>
        <translation>--step and --focus need --view steps</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="-86"/>
        <source>--temperature, --top-k and --top-p need --generate or --whole-model</source>
        <translation>--temperature, --top-k and --top-p need --generate or --whole-model</translation>
    </message>
    <message>
        <location line="+11"/>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="+41"/>
        <source>--view %1 needs --model</source>
        <translation>--view %1 needs --model</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>--view atlas writes a CSV table: give --out FILE.csv (the window&apos;s Atlas tab draws it)</source>
        <translation>--view atlas writes a CSV table: give --out FILE.csv (the window&apos;s Atlas tab draws it)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>--focus-token needs --view model or predictions, or --view steps with --whole-model</source>
        <translation>--focus-token needs --view model or predictions, or --view steps with --whole-model</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--focus-to needs --view model</source>
        <translation>--focus-to needs --view model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="-48"/>
        <source>--effective needs a view of attention maps (grid, mean, head:K, lines, compare, model), not --view %1</source>
        <translation>--effective needs a view of attention maps (grid, mean, head:K, lines, compare, model), not --view %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--effective norm needs the model&apos;s values: maps read from a file (--attentions) hold only the weights</source>
        <translation>--effective norm needs the model&apos;s values: maps read from a file (--attentions) hold only the weights</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>--view must be grid, mean, head:K, steps, steps:K, lines, compare, compare:K, model, atlas, lens, predictions, patch, circuits, dla, why, flow or saliency, not &apos;%1&apos;</source>
        <translation>--view must be grid, mean, head:K, steps, steps:K, lines, compare, compare:K, model, atlas, lens, predictions, patch, circuits, dla, why, flow or saliency, not &apos;%1&apos;</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>--focus needs --step N</source>
        <translation>--focus needs --step N</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--heads needs --view lines</source>
        <translation>--heads needs --view lines</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--item needs --mode batch</source>
        <translation>--item needs --mode batch</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--view head:%1 is not among the --heads-shown %2</source>
        <translation>--view head:%1 is not among the --heads-shown %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+9"/>
        <source>--out FILE is required</source>
        <translation>--out FILE is required</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>cannot tell the format of &apos;%1&apos;: use .png, .svg or .pdf</source>
        <translation>cannot tell the format of &apos;%1&apos;: use .png, .svg or .pdf</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>cannot tell the format of &apos;%1&apos;: use %2</source>
        <translation>cannot tell the format of &apos;%1&apos;: use %2</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_dla_options.cpp" line="+27"/>
        <source>--generate does not apply to --view dla</source>
        <translation>--generate does not apply to --view dla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view dla needs --model</source>
        <translation>--view dla needs --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view dla needs --text</source>
        <translation>--view dla needs --text</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view dla reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view dla reads --text, not --tokens, --text2 or --layer</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../ui/cli/export_saliency_options.cpp" line="+34"/>
        <source>--clean, --corrupt and --method need --view patch</source>
        <translation>--clean, --corrupt and --method need --view patch</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--saliency with --view dla draws its strip, or writes it into the .json: its .csv is --view saliency&apos;s</source>
        <translation>--saliency with --view dla draws its strip, or writes it into the .json: its .csv is --view saliency&apos;s</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_circuits_options.cpp" line="+19"/>
        <source>--view circuits needs --model: attention maps read from a file have no weights</source>
        <translation>--view circuits needs --model: attention maps read from a file have no weights</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view circuits needs --model</source>
        <translation>--view circuits needs --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view circuits reads the weights of --model alone, not --text, --tokens, --layer or --attentions</source>
        <translation>--view circuits reads the weights of --model alone, not --text, --tokens, --layer or --attentions</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--ablate does not apply to --view circuits</source>
        <translation>--ablate does not apply to --view circuits</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--generate does not apply to --view circuits</source>
        <translation>--generate does not apply to --view circuits</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--rope-offset: %1 has learned positions, so W_QK does not depend on the offset</source>
        <translation>--rope-offset: %1 has learned positions, so W_QK does not depend on the offset</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>--composition and --rope-offset need --view circuits</source>
        <translation>--composition and --rope-offset need --view circuits</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_saliency_options.cpp" line="-7"/>
        <source>--generate does not apply to --view saliency</source>
        <translation>--generate does not apply to --view saliency</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view saliency needs --model</source>
        <translation>--view saliency needs --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view saliency needs --text</source>
        <translation>--view saliency needs --text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view saliency reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view saliency reads --text, not --tokens, --text2 or --layer</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>--saliency needs --view saliency or dla</source>
        <translation>--saliency needs --view saliency or dla</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_flow_options.cpp" line="+24"/>
        <source>--ablate does not apply to --view flow</source>
        <translation>--ablate does not apply to --view flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate does not apply to --view flow</source>
        <translation>--generate does not apply to --view flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view flow needs --model</source>
        <translation>--view flow needs --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view flow needs --text</source>
        <translation>--view flow needs --text</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view flow reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view flow reads --text, not --tokens, --text2 or --layer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--clean, --corrupt, --target, --distractor and --method do not apply to --view flow</source>
        <translation>--clean, --corrupt, --target, --distractor and --method do not apply to --view flow</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>--threshold must be more than 0: every edge of importance 0 would reach the prediction</source>
        <translation>--threshold must be more than 0: every edge of importance 0 would reach the prediction</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--threshold and --per-head need --view flow</source>
        <translation>--threshold and --per-head need --view flow</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_why_options.cpp" line="+20"/>
        <source>--ablate does not apply to --view why</source>
        <translation>--ablate does not apply to --view why</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate does not apply to --view why</source>
        <translation>--generate does not apply to --view why</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view why needs --model</source>
        <translation>--view why needs --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view why needs --text</source>
        <translation>--view why needs --text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view why needs --head L.H, --query I and --key J</source>
        <translation>--view why needs --head L.H, --query I and --key J</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view why reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view why reads --text, not --tokens, --text2 or --layer</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="+20"/>
        <source>--head takes one head (L.H, from 1)</source>
        <translation>--head takes one head (L.H, from 1)</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>--head, --query, --key and --top need --view why</source>
        <translation>--head, --query, --key and --top need --view why</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="-17"/>
        <source>--view %1 reads --texts, not --text, --tokens, --layer, --attentions, --ablate or --generate</source>
        <translation>--view %1 reads --texts, not --text, --tokens, --layer, --attentions, --ablate or --generate</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--view qk needs --texts FILE and --head L.H</source>
        <translation>--view qk needs --texts FILE and --head L.H</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--query, --key and --top need --view why</source>
        <translation>--query, --key and --top need --view why</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>--projection and --colour-by need --view qk</source>
        <translation>--projection and --colour-by need --view qk</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view atlas --texts writes a table: --out FILE.csv or FILE.json</source>
        <translation>--view atlas --texts writes a table: --out FILE.csv or FILE.json</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>--texts, --format, --max-tokens, --limit, --projection and --colour-by need --view qk, or --view atlas with --texts</source>
        <translation>--texts, --format, --max-tokens, --limit, --projection and --colour-by need --view qk, or --view atlas with --texts</translation>
    </message>
</context>
<context>
    <name>FlowFigure</name>
    <message>
        <location filename="../../ui/model/flow_figure.cpp" line="+43"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 is a post-norm model: a norm sits between its blocks, so a block&apos;s output is no sum of the terms it read, and no term&apos;s share of it can be measured. Information flow needs a pre-norm model (GPT-2, Llama, Qwen).</source>
        <translation>%1 is a post-norm model: a norm sits between its blocks, so a block&apos;s output is no sum of the terms it read, and no term&apos;s share of it can be measured. Information flow needs a pre-norm model (GPT-2, Llama, Qwen).</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+93"/>
        <source>Embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+91"/>
        <source>Layer %1 · attention</source>
        <translation>Layer %1 · attention</translation>
    </message>
    <message>
        <location line="-90"/>
        <source>Layer %1 · MLP</source>
        <translation>Layer %1 · MLP</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Information flow</source>
        <translation>Information flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Information flow to the prediction after token %1 %2</source>
        <translation>Information flow to the prediction after token %1 %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>per head</source>
        <translation>per head</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>heads summed per token</source>
        <translation>heads summed per token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · “%2” · edges of importance ≥ %3 · %4</source>
        <translation>%1 · “%2” · edges of importance ≥ %3 · %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each line is a term of a block&apos;s output: what a token brings through the attention, the MLP&apos;s output, or the stream carried on. Its width is its importance, its share of the sum (Ferrando &amp; Voita 2024); the graph keeps every line at or above the threshold that reaches the prediction. Click a token&apos;s dot to explain its prediction, a line to see its head&apos;s map.</source>
        <translation>Each line is a term of a block&apos;s output: what a token brings through the attention, the MLP&apos;s output, or the stream carried on. Its width is its importance, its share of the sum (Ferrando &amp; Voita 2024); the graph keeps every line at or above the threshold that reaches the prediction. Click a token&apos;s dot to explain its prediction, a line to see its head&apos;s map.</translation>
    </message>
    <message>
        <location line="+63"/>
        <location line="+25"/>
        <location line="+177"/>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <location line="-201"/>
        <location line="+203"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location line="-202"/>
        <location line="+203"/>
        <source>Residual</source>
        <translation>Residual</translation>
    </message>
    <message>
        <location line="-202"/>
        <location line="+22"/>
        <location line="+194"/>
        <source>The prediction</source>
        <translation>The prediction</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>token %1 %2</source>
        <translation>token %1 %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L%1H%2 · %3 → %4, layer %5: importance %6</source>
        <translation>L%1H%2 · %3 → %4, layer %5: importance %6</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Attention · %1 → %2, layer %3: importance %4</source>
        <translation>Attention · %1 → %2, layer %3: importance %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>MLP · %1, layer %2: importance %3</source>
        <translation>MLP · %1, layer %2: importance %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Residual · %1, %2 → %3: importance %4</source>
        <translation>Residual · %1, %2 → %3: importance %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Token %1 %2 · %3</source>
        <translation>Token %1 %2 · %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Click: the flow to the prediction after it</source>
        <translation>Click: the flow to the prediction after it</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
</context>
<context>
    <name>FullMapText</name>
    <message>
        <location filename="../../ui/compute/full_map_source.cpp" line="+20"/>
        <source>There is no head %1 of layer %2 here.</source>
        <translation>There is no head %1 of layer %2 here.</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>Layer %1, head %2: the memory budget did not keep its map, and it is recomputed without knocked-out heads: restore them first, or raise the memory budget.</source>
        <translation>Layer %1, head %2: the memory budget did not keep its map, and it is recomputed without knocked-out heads: restore them first, or raise the memory budget.</translation>
    </message>
</context>
<context>
    <name>Generation</name>
    <message>
        <location filename="../../ui/compute/generation_runner.cpp" line="+31"/>
        <source>%1 is a masked language model: only a causal model (GPT-2, Llama, Qwen) continues a text.</source>
        <translation>%1 is a masked language model: only a causal model (GPT-2, Llama, Qwen) continues a text.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The text fills all %1 positions of %2: there is no room for another token.</source>
        <translation>The text fills all %1 positions of %2: there is no room for another token.</translation>
    </message>
</context>
<context>
    <name>KnockOutMark</name>
    <message>
        <location filename="../../ui/render/knock_out_mark.cpp" line="+19"/>
        <source>mean</source>
        <comment>a head knocked out by its mean</comment>
        <translation>mean</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>zero</source>
        <comment>a head knocked out by zeros</comment>
        <translation>zero</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <location filename="../../ui/i18n/language.cpp" line="+107"/>
        <source>Lang&amp;uage</source>
        <translation>Lang&amp;uage</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;System (%1)</source>
        <translation>&amp;System (%1)</translation>
    </message>
</context>
<context>
    <name>LensFigure</name>
    <message>
        <location filename="../../ui/model/lens_figure.cpp" line="+48"/>
        <source>Open a trained model (File ▸ Open Model…) to see what it predicts after each layer.</source>
        <translation>Open a trained model (File ▸ Open Model…) to see what it predicts after each layer.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose a trained model in the Source box of the tool bar (built in: %1), or open one (File ▸ Open Model…), to see what it predicts after each layer.</source>
        <translation>Choose a trained model in the Source box of the tool bar (built in: %1), or open one (File ▸ Open Model…), to see what it predicts after each layer.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The logit lens follows when the model stops writing.</source>
        <translation>The logit lens follows when the model stops writing.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Computing the logit lens…</source>
        <translation>Computing the logit lens…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The text has no tokens.</source>
        <translation>The text has no tokens.</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+75"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+78"/>
        <source>Input</source>
        <translation>Input</translation>
    </message>
    <message>
        <location line="-77"/>
        <location line="+80"/>
        <source>Next</source>
        <translation>Next</translation>
    </message>
    <message>
        <location line="-79"/>
        <location line="+79"/>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Rows: the residual stream after each layer, read through the model&apos;s own head; the last row is the model&apos;s output. Each cell: the most likely next token, coloured by its probability. Framed in bold: it is the actual next token.</source>
        <translation>Rows: the residual stream after each layer, read through the model&apos;s own head; the last row is the model&apos;s output. Each cell: the most likely next token, coloured by its probability. Framed in bold: it is the actual next token.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Rows: the residual stream after each layer, read through the model&apos;s masked-LM head; the last row is the model&apos;s output. Each cell: the most likely token at that position, coloured by its probability. Framed in bold: it is the token there.</source>
        <translation>Rows: the residual stream after each layer, read through the model&apos;s masked-LM head; the last row is the model&apos;s output. Each cell: the most likely token at that position, coloured by its probability. Framed in bold: it is the token there.</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>probability of the top-1 token</source>
        <translation>probability of the top-1 token</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Logit lens</source>
        <translation>Logit lens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Logit lens of %1: what it predicts after each layer</source>
        <translation>Logit lens of %1: what it predicts after each layer</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 layers × %2 positions</source>
        <translation>%1 layers × %2 positions</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the last %1 of %2 tokens</source>
        <translation>the last %1 of %2 tokens</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1.%2 (mean)</source>
        <translation>%1.%2 (mean)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>heads knocked out: %1</source>
        <translation>heads knocked out: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Layer %1 · token %2 “%3”</source>
        <translation>Layer %1 · token %2 “%3”</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>next: “%1”</source>
        <translation>next: “%1”</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>token: “%1”</source>
        <translation>token: “%1”</translation>
    </message>
</context>
<context>
    <name>Lines</name>
    <message>
        <location filename="../../ui/classroom/lines_figure.cpp" line="+60"/>
        <source>How much each key moves each query&apos;s output: norm-based ‖α·f(x)‖</source>
        <translation>How much each key moves each query&apos;s output: norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Where each query token looks in the other sentence</source>
        <translation>Where each query token looks in the other sentence</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where each token looks: one line per query, key and head</source>
        <translation>Where each token looks: one line per query, key and head</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>Queries (sentence 1)</source>
        <translation>Queries (sentence 1)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keys (sentence 2)</source>
        <translation>Keys (sentence 2)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <location line="+79"/>
        <location line="+13"/>
        <source>head %1</source>
        <translation>head %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Only the mean over heads was kept within the memory budget: there are no head lines to draw.</source>
        <translation>Only the mean over heads was kept within the memory budget: there are no head lines to draw.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>opacity = ‖α·f(x)‖ from 0 to its largest, %1 (%2 of %3 lines drawn)</source>
        <translation>opacity = ‖α·f(x)‖ from 0 to its largest, %1 (%2 of %3 lines drawn)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>opacity = attention weight (the %1 strongest of %2 lines drawn)</source>
        <translation>opacity = attention weight (the %1 strongest of %2 lines drawn)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>opacity = attention weight (lines under %1 omitted)</source>
        <translation>opacity = attention weight (lines under %1 omitted)</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>head %1 → “%2” %3</source>
        <translation>head %1 → “%2” %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>“%1” looks most at: %2</source>
        <translation>“%1” looks most at: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is looked at most by: %2</source>
        <translation>“%1” is looked at most by: %2</translation>
    </message>
</context>
<context>
    <name>ModelFigure</name>
    <message>
        <location filename="../../ui/model/model_figure.cpp" line="+50"/>
        <location line="+91"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the largest weight in each</source>
        <translation>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the largest weight in each</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the mean weight over what each query sees</source>
        <translation>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the mean weight over what each query sees</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+1"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+3"/>
        <source>Rollout</source>
        <translation>Rollout</translation>
    </message>
    <message>
        <location line="-2"/>
        <location line="+1"/>
        <source>Mean</source>
        <translation>Mean</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>M</source>
        <comment>mean</comment>
        <translation>M</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>R</source>
        <comment>rollout</comment>
        <translation>R</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Rows: layers. Columns: heads, then the layer&apos;s mean over heads and the attention rollout through it (residual included). Each map coloured from 0 (dark) to its own largest weight (yellow); grey: masked.</source>
        <translation>Rows: layers. Columns: heads, then the layer&apos;s mean over heads and the attention rollout through it (residual included). Each map coloured from 0 (dark) to its own largest weight (yellow); grey: masked.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: every query token&apos;s attention to this one, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</source>
        <translation>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: every query token&apos;s attention to this one, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: this token&apos;s attention to every key token, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</source>
        <translation>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: this token&apos;s attention to every key token, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Norm-based ‖α·f(x)‖ is shown in the kept maps; the whole text&apos;s squares are of the weights.</source>
        <translation>Norm-based ‖α·f(x)‖ is shown in the kept maps; the whole text&apos;s squares are of the weights.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based: each head&apos;s ‖α·f(x)‖, how much each key&apos;s value moves the output; Mean: the heads together; the rollout runs through the weights.</source>
        <translation>Norm-based: each head&apos;s ‖α·f(x)‖, how much each key&apos;s value moves the output; Mean: the heads together; the rollout runs through the weights.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Crossed out: a head knocked out of the model&apos;s pass (its output replaced by zeros or by its mean); the layers above it and the predictions change.</source>
        <translation>Crossed out: a head knocked out of the model&apos;s pass (its output replaced by zeros or by its mean); the layers above it and the predictions change.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1. Mean: the heads&apos; squares averaged. Hatched: a rollout the pass did not have over the whole text.</source>
        <translation>%1. Mean: the heads&apos; squares averaged. Hatched: a rollout the pass did not have over the whole text.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hatched: a head whose maps the memory budget did not keep.</source>
        <translation>Hatched: a head whose maps the memory budget did not keep.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Dashed: the kept window, tokens %1–%2.</source>
        <translation>Dashed: the kept window, tokens %1–%2.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Every layer and head</source>
        <translation>Every layer and head</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · norm-based</source>
        <translation> · norm-based</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attention to “%1” (token %2) in every layer and head of %3</source>
        <translation>Attention to “%1” (token %2) in every layer and head of %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention from “%1” (token %2) in every layer and head of %3</source>
        <translation>Attention from “%1” (token %2) in every layer and head of %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every layer and head of %1</source>
        <translation>Every layer and head of %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 layers × %2 heads</source>
        <translation>%1 layers × %2 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 layers × %2 heads · %3 tokens: %4</source>
        <translation>%1 layers × %2 heads · %3 tokens: %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>layers 1–%1 of %2 kept (memory budget)</source>
        <translation>layers 1–%1 of %2 kept (memory budget)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>pieces %1–%2 of %3: the softmax, the atlas and the rollout are over every piece</source>
        <translation>pieces %1–%2 of %3: the softmax, the atlas and the rollout are over every piece</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the means only kept (memory budget)</source>
        <translation>the means only kept (memory budget)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads 1–%1 of %2 kept (memory budget)</source>
        <translation>heads 1–%1 of %2 kept (memory budget)</translation>
    </message>
</context>
<context>
    <name>ModelLens</name>
    <message>
        <location filename="../../ui/compute/model_lens.cpp" line="+76"/>
        <source>These attention maps were read from a file, without the model that made them: the logit lens needs a model folder with its language-model head.</source>
        <translation>These attention maps were read from a file, without the model that made them: the logit lens needs a model folder with its language-model head.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 has no language-model head, so there is no logit lens to show.</source>
        <translation>%1 has no language-model head, so there is no logit lens to show.</translation>
    </message>
</context>
<context>
    <name>ModelWalk</name>
    <message>
        <location filename="../../ui/classroom/model_walk.cpp" line="+72"/>
        <source>%1 heads × %2 tokens</source>
        <translation>%1 heads × %2 tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 heads × %2</source>
        <translation>%1 heads × %2</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>token embedding</source>
        <translation>token embedding</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Row %1 of the embedding table: the vector the model starts from for “%2”.</source>
        <translation>Row %1 of the embedding table: the vector the model starts from for “%2”.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>position embedding</source>
        <translation>position embedding</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A learned vector for position %1, added so that the model knows where the token stands.</source>
        <translation>A learned vector for position %1, added so that the model knows where the token stands.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>token type embedding</source>
        <translation>token type embedding</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BERT&apos;s segment vector: whether the token is in the first sentence or the second.</source>
        <translation>BERT&apos;s segment vector: whether the token is in the first sentence or the second.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>sum of the embeddings</source>
        <translation>sum of the embeddings</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The three vectors added, number by number.</source>
        <translation>The three vectors added, number by number.</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+4"/>
        <location line="+3"/>
        <source>the residual stream</source>
        <translation>the residual stream</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>The sum, normalised: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>The sum, normalised: what layer 1 reads. Every layer adds its result to this stream.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Token plus position: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>Token plus position: what layer 1 reads. Every layer adds its result to this stream.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Row %1 of the embedding table, and no position vector: positions enter inside attention, where RoPE rotates q and k. Every layer adds its result to this stream.</source>
        <translation>Row %1 of the embedding table, and no position vector: positions enter inside attention, where RoPE rotates q and k. Every layer adds its result to this stream.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Row %1 of the embedding table: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>Row %1 of the embedding table: what layer 1 reads. Every layer adds its result to this stream.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>norm before attention</source>
        <translation>norm before attention</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Divided by its root mean square, then scaled: attention reads a vector of a steady size.</source>
        <translation>Divided by its root mean square, then scaled: attention reads a vector of a steady size.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its mean subtracted, divided by its spread, then scaled and shifted: attention reads a vector of a steady size.</source>
        <translation>Its mean subtracted, divided by its spread, then scaled and shifted: attention reads a vector of a steady size.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>queries</source>
        <translation>queries</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token looks for, one query per head (%1 heads).</source>
        <translation>What this token looks for, one query per head (%1 heads).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Each head&apos;s query is normalised (Qwen3).</source>
        <translation> Each head&apos;s query is normalised (Qwen3).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>keys</source>
        <translation>keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token offers to be found by.</source>
        <translation>What this token offers to be found by.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Grouped-query attention: %1 key heads shared by %2 query heads.</source>
        <translation> Grouped-query attention: %1 key heads shared by %2 query heads.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>values</source>
        <translation>values</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token hands on to the tokens that attend to it.</source>
        <translation>What this token hands on to the tokens that attend to it.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>rotated queries</source>
        <translation>rotated queries</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each pair of numbers turned by an angle that grows with the position: this is how the model knows where the token is.</source>
        <translation>Each pair of numbers turned by an angle that grows with the position: this is how the model knows where the token is.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotated keys</source>
        <translation>rotated keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The keys turned the same way, so q · k depends on how far apart two tokens are.</source>
        <translation>The keys turned the same way, so q · k depends on how far apart two tokens are.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>attention weights</source>
        <translation>attention weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head&apos;s weights over the tokens: how much of each token&apos;s value it takes. Each row sums to 1.</source>
        <translation>Each head&apos;s weights over the tokens: how much of each token&apos;s value it takes. Each row sums to 1.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Tokens after this one are masked (0).</source>
        <translation> Tokens after this one are masked (0).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>head outputs</source>
        <translation>head outputs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head&apos;s weighted average of the values.</source>
        <translation>Each head&apos;s weighted average of the values.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>attention output</source>
        <translation>attention output</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The heads&apos; outputs side by side, projected back to %1 numbers.</source>
        <translation>The heads&apos; outputs side by side, projected back to %1 numbers.</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+33"/>
        <source>residual add</source>
        <translation>residual add</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>The attention&apos;s output added to the residual stream: a layer only writes a change.</source>
        <translation>The attention&apos;s output added to the residual stream: a layer only writes a change.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>norm after attention</source>
        <translation>norm after attention</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BERT normalises after the add (post-norm).</source>
        <translation>BERT normalises after the add (post-norm).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>norm before the MLP</source>
        <translation>norm before the MLP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The stream normalised again, for the MLP.</source>
        <translation>The stream normalised again, for the MLP.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLP gate</source>
        <translation>MLP gate</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A second projection up that decides how much of each of the %1 features passes.</source>
        <translation>A second projection up that decides how much of each of the %1 features passes.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MLP up</source>
        <translation>MLP up</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Up to a wider vector: where the MLP does its work, feature by feature.</source>
        <translation>Up to a wider vector: where the MLP does its work, feature by feature.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>gated activation</source>
        <translation>gated activation</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of the gate times the up projection, number by number: the gate switches features on and off.</source>
        <translation>%1 of the gate times the up projection, number by number: the gate switches features on and off.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>activation</source>
        <translation>activation</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 lets positive numbers through and squashes negative ones towards 0.</source>
        <translation>%1 lets positive numbers through and squashes negative ones towards 0.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MLP down</source>
        <translation>MLP down</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back down to %1 numbers.</source>
        <translation>Back down to %1 numbers.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The MLP&apos;s output added to the stream: the layer&apos;s output.</source>
        <translation>The MLP&apos;s output added to the stream: the layer&apos;s output.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>norm after the MLP</source>
        <translation>norm after the MLP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Normalised after the add (post-norm): the layer&apos;s output.</source>
        <translation>Normalised after the add (post-norm): the layer&apos;s output.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>final norm</source>
        <translation>final norm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The last layer&apos;s output normalised once more before the vocabulary is scored.</source>
        <translation>The last layer&apos;s output normalised once more before the vocabulary is scored.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MLM head: dense layer</source>
        <translation>MLM head: dense layer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The masked-LM head&apos;s own projection of the stream.</source>
        <translation>The masked-LM head&apos;s own projection of the stream.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLM head: activation</source>
        <translation>MLM head: activation</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, as in the MLPs.</source>
        <translation>%1, as in the MLPs.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLM head: norm</source>
        <translation>MLM head: norm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Normalised before the vocabulary is scored.</source>
        <translation>Normalised before the vocabulary is scored.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One score per vocabulary entry (%1 of them): h against every row of the embedding table.</source>
        <translation>One score per vocabulary entry (%1 of them): h against every row of the embedding table.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One score per vocabulary entry (%1 of them): the higher, the more likely.</source>
        <translation>One score per vocabulary entry (%1 of them): the higher, the more likely.</translation>
    </message>
    <message>
        <location line="+68"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+200"/>
        <source>Embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+1"/>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+1"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>the model&apos;s guesses for this token</source>
        <translation>the model&apos;s guesses for this token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>next-token probabilities</source>
        <translation>next-token probabilities</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The logits divided by the temperature T and turned into probabilities: the model&apos;s guesses for the hidden token.</source>
        <translation>The logits divided by the temperature T and turned into probabilities: the model&apos;s guesses for the hidden token.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The logits divided by the temperature T and turned into probabilities. Low T sharpens them, high T flattens them; top-k and top-p keep only the likeliest.</source>
        <translation>The logits divided by the temperature T and turned into probabilities. Low T sharpens them, high T flattens them; top-k and top-p keep only the likeliest.</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="-76"/>
        <source>The pass kept no vectors at this token.</source>
        <translation>The pass kept no vectors at this token.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Computing the whole model at this token…</source>
        <translation>Computing the whole model at this token…</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>The whole model, step by step</source>
        <translation>The whole model, step by step</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How %1 fills in “%2” at position %3, step by step</source>
        <translation>How %1 fills in “%2” at position %3, step by step</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How %1 picks the token after “%2”, step by step</source>
        <translation>How %1 picks the token after “%2”, step by step</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 at “%2”, step by step</source>
        <translation>%1 at “%2”, step by step</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>token %1 of %2</source>
        <translation>token %1 of %2</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n layer</numerusform>
            <numerusform>%n layers</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 numbers per token</source>
        <translation>%1 numbers per token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 vocabulary entries</source>
        <translation>%1 vocabulary entries</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>T = 0 (greedy: always the likeliest)</source>
        <translation>T = 0 (greedy: always the likeliest)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>top-k off</source>
        <translation>top-k off</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>top-p off</source>
        <translation>top-p off</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>How %1 fills in a token</source>
        <translation>How %1 fills in a token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How %1 picks the next token</source>
        <translation>How %1 picks the next token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, step by step</source>
        <translation>%1, step by step</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+674"/>
        <source>‖x‖ %1 → %2</source>
        <translation>‖x‖ %1 → %2</translation>
    </message>
    <message numerus="yes">
        <location line="-672"/>
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
    <message>
        <location line="+60"/>
        <source>max %1</source>
        <translation>max %1</translation>
    </message>
    <message>
        <location line="+154"/>
        <source>This model has no language-model head: it scores no tokens.</source>
        <translation>This model has no language-model head: it scores no tokens.</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>◀ drawn</source>
        <translation>◀ drawn</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>The other %1 candidates share %2.</source>
        <translation>The other %1 candidates share %2.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No other token is left to draw from.</source>
        <translation>No other token is left to draw from.</translation>
    </message>
    <message>
        <location line="+433"/>
        <source>%1: click to fold it</source>
        <translation>%1: click to fold it</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: click to open it</source>
        <translation>%1: click to open it</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>head %1 → “%2” (token %3) = %4</source>
        <translation>head %1 → “%2” (token %3) = %4</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>head %1 [%2] = %3</source>
        <translation>head %1 [%2] = %3</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>“%1” (id %2): %3 · logit %4 · rank %5</source>
        <translation>“%1” (id %2): %3 · logit %4 · rank %5</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> · cut off by top-k / top-p</source>
        <translation> · cut off by top-k / top-p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · drawn</source>
        <translation> · drawn</translation>
    </message>
</context>
<context>
    <name>PatchFigure</name>
    <message>
        <location filename="../../ui/model/patch_figure.cpp" line="+29"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Activation patching: the fraction of the metric each head restores</source>
        <translation>Activation patching: the fraction of the metric each head restores</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>method: attribution (first-order estimate, every head at once)</source>
        <translation>method: attribution (first-order estimate, every head at once)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>method: exact (a patched run per head)</source>
        <translation>method: exact (a patched run per head)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · clean: “%2” · corrupted: “%3” · metric: logit %4 − logit %5 at token %6 %7</source>
        <translation>%1 · clean: “%2” · corrupted: “%3” · metric: logit %4 − logit %5 at token %6 %7</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Estimated by attribution patching: two forward passes and a backward pass for every head, to first order. Exact measures each head in a run of its own.</source>
        <translation>Estimated by attribution patching: two forward passes and a backward pass for every head, to first order. Exact measures each head in a run of its own.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Estimating every head: two forward passes and a backward pass; grey: not estimated yet.</source>
        <translation>Estimating every head: two forward passes and a backward pass; grey: not estimated yet.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stopped after %1 of %2 heads; hatched: estimated, not measured.</source>
        <translation>Stopped after %1 of %2 heads; hatched: estimated, not measured.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Estimated, refining: %1 of %2 heads measured; hatched: the attribution estimate, until the sweep reaches the head.</source>
        <translation>Estimated, refining: %1 of %2 heads measured; hatched: the attribution estimate, until the sweep reaches the head.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Under the corrupted text: the chosen head&apos;s estimate split by the position patched, on the map&apos;s scale.</source>
        <translation>Under the corrupted text: the chosen head&apos;s estimate split by the position patched, on the map&apos;s scale.</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>measured (exact)</source>
        <translation>measured (exact)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>estimated (attribution), until measured</source>
        <translation>estimated (attribution), until measured</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+23"/>
        <location line="+234"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: not run yet; attribution estimates it restores %2</source>
        <translation>%1: not run yet; attribution estimates it restores %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: not run yet</source>
        <translation>%1: not run yet</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: m = %2 (the metric is the same on both texts, so no fraction)</source>
        <translation>%1: m = %2 (the metric is the same on both texts, so no fraction)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: attribution estimates it restores %2 of the metric (m ≈ %3); click to see its attention</source>
        <translation>%1: attribution estimates it restores %2 of the metric (m ≈ %3); click to see its attention</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: restores %2 of the metric (m = %3); click to see its attention</source>
        <translation>%1: restores %2 of the metric (m = %3); click to see its attention</translation>
    </message>
    <message>
        <location line="-180"/>
        <location line="+207"/>
        <source>layer %1 · head %2</source>
        <translation>layer %1 · head %2</translation>
    </message>
    <message>
        <location line="-208"/>
        <location line="+210"/>
        <source>Clean text, %1</source>
        <translation>Clean text, %1</translation>
    </message>
    <message>
        <location line="-210"/>
        <location line="+212"/>
        <source>Corrupted text, %1</source>
        <translation>Corrupted text, %1</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>(attribution estimated %1)</source>
        <translation>(attribution estimated %1)</translation>
    </message>
    <message>
        <location line="+70"/>
        <location line="+4"/>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <location line="-350"/>
        <source>Stopped after %1 of %2 heads; grey: not run.</source>
        <translation>Stopped after %1 of %2 heads; grey: not run.</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Attribution patching: the estimated fraction each head restores</source>
        <translation>Attribution patching: the estimated fraction each head restores</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 of %2 heads run; grey: not run yet.</source>
        <translation>%1 of %2 heads run; grey: not run yet.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head run (%1).</source>
        <translation>Every head run (%1).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>m = logit %1 − logit %2: clean %3, corrupted %4.</source>
        <translation>m = logit %1 − logit %2: clean %3, corrupted %4.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fraction restored = (m patched − m corrupted) / (m clean − m corrupted).</source>
        <translation>Fraction restored = (m patched − m corrupted) / (m clean − m corrupted).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Right: the chosen head&apos;s attention, rows the queries and columns the keys, from 0 (dark) to the larger maximum of the two (yellow); grey: the future, masked.</source>
        <translation>Right: the chosen head&apos;s attention, rows the queries and columns the keys, from 0 (dark) to the larger maximum of the two (yellow); grey: the future, masked.</translation>
    </message>
    <message>
        <location filename="../../ui/model/patch_agreement_figure.cpp" line="+20"/>
        <source>exact fraction</source>
        <translation>exact fraction</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>attribution estimate</source>
        <translation>attribution estimate</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exact against attribution</source>
        <translation>Exact against attribution</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n head(s) measured</source>
        <translation>
            <numerusform>%n head measured</numerusform>
            <numerusform>%n heads measured</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Spearman ρ = %1 (%n head(s))</source>
        <translation>
            <numerusform>Spearman ρ = %1 (%n head)</numerusform>
            <numerusform>Spearman ρ = %1 (%n heads)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+71"/>
        <source>L%1H%2: exact %3, attribution %4</source>
        <translation>L%1H%2: exact %3, attribution %4</translation>
    </message>
</context>
<context>
    <name>PredictionsFigure</name>
    <message>
        <location filename="../../ui/model/predictions_figure.cpp" line="+143"/>
        <source>Open a trained model to see what it predicts.</source>
        <translation>Open a trained model to see what it predicts.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>What the model predicts</source>
        <translation>What the model predicts</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What %1 fills in at each mask</source>
        <translation>What %1 fills in at each mask</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What %1 predicts after each token</source>
        <translation>What %1 predicts after each token</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads knocked out: %1</source>
        <translation>heads knocked out: %1</translation>
    </message>
</context>
<context>
    <name>QkFigure</name>
    <message>
        <location filename="../../ui/model/qk_figure.cpp" line="+50"/>
        <source>PCA axis %1 (%2% of the variance)</source>
        <translation>PCA axis %1 (%2% of the variance)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Directions, axis %1 (%2% of the variance)</source>
        <translation>Directions, axis %1 (%2% of the variance)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Queries and keys</source>
        <translation>Queries and keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queries and keys of layer %1 · head %2</source>
        <translation>Queries and keys of layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the text box&apos;s history</source>
        <translation>the text box&apos;s history</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>PCA of both together, the keys moved and scaled to share the queries&apos; centre and spread (AttentionViz), which leaves every attention weight as it was</source>
        <translation>PCA of both together, the keys moved and scaled to share the queries&apos; centre and spread (AttentionViz), which leaves every attention weight as it was</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PCA of their directions: near means a large cosine, whatever the lengths</source>
        <translation>PCA of their directions: near means a large cosine, whatever the lengths</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%1: %n token(s) of %2 texts, each a query and a key · %3</source>
        <translation>
            <numerusform>%1: %n token of %2 texts, each a query and a key · %3</numerusform>
            <numerusform>%1: %n tokens of %2 texts, each a query and a key · %3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+138"/>
        <source>Queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+137"/>
        <source>Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <location line="-136"/>
        <location line="+149"/>
        <source>Token position</source>
        <translation>Token position</translation>
    </message>
    <message>
        <location line="-38"/>
        <location line="+12"/>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+12"/>
        <source>Query</source>
        <translation>Query</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>&lt;b&gt;%1&lt;/b&gt; “%2” · text %3, token %4&lt;br&gt;%5 &lt;b style=&quot;color:%6&quot;&gt;%2&lt;/b&gt; %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; “%2” · text %3, token %4&lt;br&gt;%5 &lt;b style=&quot;color:%6&quot;&gt;%2&lt;/b&gt; %7</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 “%2” · text %3, token %4: %5 [%2] %6</source>
        <translation>%1 “%2” · text %3, token %4: %5 [%2] %6</translation>
    </message>
</context>
<context>
    <name>Recovery</name>
    <message>
        <location filename="../../ui/document/recovery.cpp" line="+47"/>
        <source>Cannot create the folder &apos;%1&apos;.</source>
        <translation>Cannot create the folder &apos;%1&apos;.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot lock &apos;%1&apos;.</source>
        <translation>Cannot lock &apos;%1&apos;.</translation>
    </message>
</context>
<context>
    <name>SaliencyFigure</name>
    <message>
        <location filename="../../ui/model/saliency_figure.cpp" line="+32"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>integrated gradients, %n steps</source>
        <translation>
            <numerusform>integrated gradients, %n step</numerusform>
            <numerusform>integrated gradients, %n steps</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient × input</source>
        <translation>gradient × input</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>logit %1</source>
        <translation>logit %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>logit %1 − logit %2</source>
        <translation>logit %1 − logit %2</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Σ = %1 (the total is %2: gradient × input need not add up to it)</source>
        <translation>Σ = %1 (the total is %2: gradient × input need not add up to it)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Σ = %1 of total − baseline = %2 (gap %3%)</source>
        <translation>Σ = %1 of total − baseline = %2 (gap %3%)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This model has rotary positions, so the baseline is the all-zero input, where every RMSNorm rescales its input: the metric changes over many orders of magnitude near it, and no step count resolves that. A large gap here is expected, not an error.</source>
        <translation>This model has rotary positions, so the baseline is the all-zero input, where every RMSNorm rescales its input: the metric changes over many orders of magnitude near it, and no step count resolves that. A large gap here is expected, not an error.</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Integrated gradients add up to the total minus the baseline (the token embeddings zeroed, the positions kept) up to the error of the %n-step rule; more steps close the gap.</source>
        <translation>
            <numerusform>Integrated gradients add up to the total minus the baseline (the token embeddings zeroed, the positions kept) up to the error of the %n-step rule; more steps close the gap.</numerusform>
            <numerusform>Integrated gradients add up to the total minus the baseline (the token embeddings zeroed, the positions kept) up to the error of the %n-step rule; more steps close the gap.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saliency of the input tokens</source>
        <translation>Saliency of the input tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency of %1 at %2 %3: %4</source>
        <translation>Saliency of %1 at %2 %3: %4</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Of the model with heads knocked out: %1</source>
        <translation>Of the model with heads knocked out: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 · “%2”</source>
        <translation>%1 · “%2”</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each box is one input token&apos;s share of the prediction, read from the gradient with respect to its token embedding: red raises it, blue lowers it.</source>
        <translation>Each box is one input token&apos;s share of the prediction, read from the gradient with respect to its token embedding: red raises it, blue lowers it.</translation>
    </message>
    <message>
        <location line="+128"/>
        <source>Token %1 %2: %3 of the total %4</source>
        <translation>Token %1 %2: %3 of the total %4</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <location filename="../../ui/document/attention_document.cpp" line="+814"/>
        <location line="+272"/>
        <source>&apos;%1&apos; is not an object</source>
        <translation>&apos;%1&apos; is not an object</translation>
    </message>
    <message>
        <location line="-265"/>
        <source>&apos;%1&apos; is not a string</source>
        <translation>&apos;%1&apos; is not a string</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not true or false</source>
        <translation>&apos;%1&apos; is not true or false</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../../ui/document/compare_config.cpp" line="+42"/>
        <source>&apos;%1&apos; must be a whole number from %2 to %3</source>
        <translation>&apos;%1&apos; must be a whole number from %2 to %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <location filename="../../ui/document/compare_config.cpp" line="+64"/>
        <source>&apos;%1&apos; must be a number from %2 to %3</source>
        <translation>&apos;%1&apos; must be a number from %2 to %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&apos;%1&apos; has an unknown value &apos;%2&apos;</source>
        <translation>&apos;%1&apos; has an unknown value &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/document/session.cpp" line="+114"/>
        <location line="+5"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>Cannot write &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot open &apos;%1&apos;: %2</source>
        <translation>Cannot open &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is too large to be an AttnViz session.</source>
        <translation>&apos;%1&apos; is too large to be an AttnViz session.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; is not a valid session file: %2</source>
        <translation>&apos;%1&apos; is not a valid session file: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the top level is not an object</source>
        <translation>the top level is not an object</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is not an AttnViz session (no &quot;format&quot;: &quot;%2&quot;).</source>
        <translation>&apos;%1&apos; is not an AttnViz session (no &quot;format&quot;: &quot;%2&quot;).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; has no valid session version.</source>
        <translation>&apos;%1&apos; has no valid session version.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; was written by a newer AttnViz (session version %2; this version reads up to %3).</source>
        <translation>&apos;%1&apos; was written by a newer AttnViz (session version %2; this version reads up to %3).</translation>
    </message>
    <message>
        <location line="+50"/>
        <location line="+4"/>
        <source>&apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos;: %2</translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <location filename="../../ui/classroom/steps_figure.cpp" line="+69"/>
        <source>Nothing computed yet.</source>
        <translation>Nothing computed yet.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Computation steps</source>
        <translation>Computation steps</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Inside layer %1, head %2 of %3: softmax(QKᵀ / √d_k + M) V, step by step</source>
        <translation>Inside layer %1, head %2 of %3: softmax(QKᵀ / √d_k + M) V, step by step</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Inside head %1: softmax(QKᵀ / √d_k + M) V, step by step</source>
        <translation>Inside head %1: softmax(QKᵀ / √d_k + M) V, step by step</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> (sentence %1)</source>
        <translation> (sentence %1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The steps compute the weights α; the other views show norm-based ‖α·f(x)‖.</source>
        <translation>The steps compute the weights α; the other views show norm-based ‖α·f(x)‖.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>layer %1</source>
        <translation>layer %1</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n token(s) as the model&apos;s tokenizer split them</source>
        <translation>
            <numerusform>%n token as the model&apos;s tokenizer split it</numerusform>
            <numerusform>%n tokens as the model&apos;s tokenizer split them</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 query heads share %2 key/value heads</source>
        <translation>%1 query heads share %2 key/value heads</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>All %1 steps of head %2</source>
        <translation>All %1 steps of head %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read from X to the output. Hover a cell to light up the cells it was computed from.</source>
        <translation>Read from X to the output. Hover a cell to light up the cells it was computed from.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read from X to the output.</source>
        <translation>Read from X to the output.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Step %1 of %2:  %3</source>
        <translation>Step %1 of %2:  %3</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>values: negative</source>
        <translation>values: negative</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>positive</source>
        <translation>positive</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights: 0</source>
        <translation>weights: 0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max</source>
        <translation>max</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>masked (−∞ before softmax)</source>
        <translation>masked (−∞ before softmax)</translation>
    </message>
    <message>
        <location line="+456"/>
        <source>d_k = %1 features</source>
        <translation>d_k = %1 features</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>embed_dim = %1 features</source>
        <translation>embed_dim = %1 features</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>query “%1”</source>
        <translation>query “%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>key “%1”</source>
        <translation>key “%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>feature %1</source>
        <translation>feature %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>0 (masked)</source>
        <translation>0 (masked)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 [%2, %3] = %4   ·   %5, %6</source>
        <translation>%1 [%2, %3] = %4   ·   %5, %6</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/steps_model.cpp" line="+382"/>
        <source>The steps are kept only when every head&apos;s weights over every token are: this configuration keeps a part of them to fit the memory budget (Show All, over the heatmaps, brings them back).</source>
        <translation>The steps are kept only when every head&apos;s weights over every token are: this configuration keeps a part of them to fit the memory budget (Show All, over the heatmaps, brings them back).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The steps are kept for up to %1 attention cells (items × heads × queries × keys); this input has %2. Shorten the sentence or use fewer heads.</source>
        <translation>The steps are kept for up to %1 attention cells (items × heads × queries × keys); this input has %2. Shorten the sentence or use fewer heads.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Each token as a vector of embed_dim = %1 numbers: its embedding plus a positional encoding, one row per token.</source>
        <translation>Each token as a vector of embed_dim = %1 numbers: its embedding plus a positional encoding, one row per token.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token as a vector of embed_dim = %1 numbers (its embedding; positional encoding is off).</source>
        <translation>Each token as a vector of embed_dim = %1 numbers (its embedding; positional encoding is off).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>X (queries&apos; sentence)</source>
        <translation>X (queries&apos; sentence)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <location line="-190"/>
        <location line="+191"/>
        <location line="+5"/>
        <source>input</source>
        <translation>input</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>X′ (keys&apos; sentence)</source>
        <translation>X′ (keys&apos; sentence)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cross-attention: the keys and values come from the second sentence, so it has its own input matrix X′.</source>
        <translation>Cross-attention: the keys and values come from the second sentence, so it has its own input matrix X′.</translation>
    </message>
    <message>
        <location line="-183"/>
        <location line="+188"/>
        <source>queries</source>
        <translation>queries</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token&apos;s query, what it is looking for: X times this head&apos;s %1 × %2 slice of W_Q, so d_k = %2 numbers per token.</source>
        <translation>Each token&apos;s query, what it is looking for: X times this head&apos;s %1 × %2 slice of W_Q, so d_k = %2 numbers per token.</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+188"/>
        <source>keys</source>
        <translation>keys</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token&apos;s key, what it offers to be found by: the same input times W_K.</source>
        <translation>Each token&apos;s key, what it offers to be found by: the same input times W_K.</translation>
    </message>
    <message>
        <location line="-169"/>
        <location line="+171"/>
        <source>values</source>
        <translation>values</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each token&apos;s value, what it passes on when attended to: the input times W_V.</source>
        <translation>Each token&apos;s value, what it passes on when attended to: the input times W_V.</translation>
    </message>
    <message>
        <location line="-152"/>
        <location line="+162"/>
        <source>scores</source>
        <translation>scores</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Additive (Bahdanau) scoring: one learned vector w scores tanh(q + k) for every query and key.</source>
        <translation>Additive (Bahdanau) scoring: one learned vector w scores tanh(q + k) for every query and key.</translation>
    </message>
    <message>
        <location line="-162"/>
        <location line="+165"/>
        <source>Every query against every key: the dot product of query row i and key row j, so similar vectors score high.</source>
        <translation>Every query against every key: the dot product of query row i and key row j, so similar vectors score high.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(additive: not scaled)</source>
        <translation>(additive: not scaled)</translation>
    </message>
    <message>
        <location line="-161"/>
        <location line="+162"/>
        <source>scaled scores</source>
        <translation>scaled scores</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Additive scores are used as they are.</source>
        <translation>Additive scores are used as they are.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Divided by √d_k = √%1 = %2, so that the scores do not grow with d_k and the softmax does not saturate.</source>
        <translation>Divided by √d_k = √%1 = %2, so that the scores do not grow with d_k and the softmax does not saturate.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>+ mask M</source>
        <translation>+ mask M</translation>
    </message>
    <message>
        <location line="-160"/>
        <location line="+161"/>
        <source>masked scores</source>
        <translation>masked scores</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The mask adds −∞ where a query may not look (future tokens with the causal mask, padding, masked keys), 0 elsewhere.</source>
        <translation>The mask adds −∞ where a query may not look (future tokens with the causal mask, padding, masked keys), 0 elsewhere.</translation>
    </message>
    <message>
        <location line="-375"/>
        <source>attention weights</source>
        <translation>attention weights</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Softmax along each row: e^s / Σ e^s. Every row now sums to 1, and −∞ becomes exactly 0. These are the weights the heatmaps show.</source>
        <translation>Softmax along each row: e^s / Σ e^s. Every row now sums to 1, and −∞ becomes exactly 0. These are the weights the heatmaps show.</translation>
    </message>
    <message>
        <location line="+384"/>
        <source>dropout(A) = A</source>
        <translation>dropout(A) = A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights after dropout</source>
        <translation>weights after dropout</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Training mode: each weight is dropped with probability %1 and the rest are scaled by 1/(1 − p), so rows no longer sum to exactly 1.</source>
        <translation>Training mode: each weight is dropped with probability %1 and the rest are scaled by 1/(1 − p), so rows no longer sum to exactly 1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Evaluation mode (or p = 0): dropout changes nothing.</source>
        <translation>Evaluation mode (or p = 0): dropout changes nothing.</translation>
    </message>
    <message>
        <location line="-385"/>
        <source>head output</source>
        <translation>head output</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>The steps show how a model computes a layer&apos;s attention: maps read from a file hold only the result. Open the model itself (File ▸ Open Model…) to see its steps.</source>
        <translation>The steps show how a model computes a layer&apos;s attention: maps read from a file hold only the result. Open the model itself (File ▸ Open Model…) to see its steps.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The steps show a layer&apos;s whole computation: they are not kept for a window of the text (Show All, over the heatmaps, brings every token back).</source>
        <translation>The steps show a layer&apos;s whole computation: they are not kept for a window of the text (Show All, over the heatmaps, brings every token back).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The steps are computed for up to %1 attention cells (heads × tokens × tokens); this text has %2. Shorten it to see the steps.</source>
        <translation>The steps are computed for up to %1 attention cells (heads × tokens × tokens); this text has %2. Shorten it to see the steps.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The steps of layer %1 follow when the model stops writing.</source>
        <translation>The steps of layer %1 follow when the model stops writing.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Computing the steps of layer %1…</source>
        <translation>Computing the steps of layer %1…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source> Grouped-query attention: the %1 query heads share %2 key/value heads, so heads %3 to %4 all read key/value head %5.</source>
        <translation> Grouped-query attention: the %1 query heads share %2 key/value heads, so heads %3 to %4 all read key/value head %5.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> (key/value head %1 of %2)</source>
        <translation> (key/value head %1 of %2)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Layer %1&apos;s input: each token&apos;s vector in the residual stream, normalised by the layer&apos;s first norm, %2 numbers per token.</source>
        <translation>Layer %1&apos;s input: each token&apos;s vector in the residual stream, normalised by the layer&apos;s first norm, %2 numbers per token.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Layer %1&apos;s input: each token&apos;s vector as the layer before left it (the embeddings for layer 1), %2 numbers per token.</source>
        <translation>Layer %1&apos;s input: each token&apos;s vector as the layer before left it (the embeddings for layer 1), %2 numbers per token.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Each token&apos;s query: X times this head&apos;s %1 × %2 slice of W_Q (plus a bias where the model has one), so head_dim = %2 numbers per token.</source>
        <translation>Each token&apos;s query: X times this head&apos;s %1 × %2 slice of W_Q (plus a bias where the model has one), so head_dim = %2 numbers per token.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Each token&apos;s key, what it offers to be found by: X times W_K.</source>
        <translation>Each token&apos;s key, what it offers to be found by: X times W_K.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotated queries</source>
        <translation>rotated queries</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rotary positions: dimensions c and c + %1 of token t&apos;s query are turned together by an angle t · θ_c. Compare the rows with Q: the first token is not turned at all.</source>
        <translation>Rotary positions: dimensions c and c + %1 of token t&apos;s query are turned together by an angle t · θ_c. Compare the rows with Q: the first token is not turned at all.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>rotated keys</source>
        <translation>rotated keys</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same rotation for the keys. Q′ · K′ then depends on how far apart two tokens are, not on where they stand.</source>
        <translation>The same rotation for the keys. Q′ · K′ then depends on how far apart two tokens are, not on where they stand.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Each token&apos;s value, what it passes on when attended to: X times W_V (not rotated).</source>
        <translation>Each token&apos;s value, what it passes on when attended to: X times W_V (not rotated).</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Divided by √head_dim = √%1 = %2, so that the scores do not grow with head_dim and the softmax does not saturate.</source>
        <translation>Divided by √head_dim = √%1 = %2, so that the scores do not grow with head_dim and the softmax does not saturate.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Multiplied by %1, as this model&apos;s configuration asks.</source>
        <translation>Multiplied by %1, as this model&apos;s configuration asks.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>+ causal mask</source>
        <translation>+ causal mask</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A causal model: each token may look only at itself and the tokens before it, so the mask adds −∞ above the diagonal.</source>
        <translation>A causal model: each token may look only at itself and the tokens before it, so the mask adds −∞ above the diagonal.</translation>
    </message>
    <message>
        <location line="-203"/>
        <source>Each query&apos;s output is the weighted average of the value rows: row i of A times V.</source>
        <translation>Each query&apos;s output is the weighted average of the value rows: row i of A times V.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>concat(head 1 … head %1)</source>
        <translation>concat(head 1 … head %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all heads</source>
        <translation>all heads</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The %1 heads&apos; outputs side by side: %1 × %2 = %3 columns. This head&apos;s columns are outlined.</source>
        <translation>The %1 heads&apos; outputs side by side: %1 × %2 = %3 columns. This head&apos;s columns are outlined.</translation>
    </message>
    <message>
        <location line="+201"/>
        <location line="+216"/>
        <source>output</source>
        <translation>output</translation>
    </message>
    <message>
        <location line="-213"/>
        <source>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual) and then runs its MLP.</source>
        <translation>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual) and then runs its MLP.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual); this model has no MLP, so that sum goes straight to the next layer.</source>
        <translation>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual); this model has no MLP, so that sum goes straight to the next layer.</translation>
    </message>
    <message>
        <location line="+213"/>
        <source>W_O mixes the heads back into one embed_dim vector per token: the layer&apos;s output.</source>
        <translation>W_O mixes the heads back into one embed_dim vector per token: the layer&apos;s output.</translation>
    </message>
</context>
<context>
    <name>WhyFigure</name>
    <message>
        <location filename="../../ui/model/why_figure.cpp" line="+25"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L%1H%2</source>
        <translation>L%1H%2</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>biases</source>
        <translation>biases</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>embeddings</source>
        <translation>embeddings</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L%1 attention bias</source>
        <translation>L%1 attention bias</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>L%1 MLP</source>
        <translation>L%1 MLP</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 at %2 (key side)</source>
        <translation>%1 at %2 (key side)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 at %2 (query side)</source>
        <translation>%1 at %2 (query side)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the other %1 pairs</source>
        <translation>the other %1 pairs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Why this attention? QK attribution</source>
        <translation>Why this attention? QK attribution</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why does %1 at %2 (token %3) look at %4 (token %5)?</source>
        <translation>Why does %1 at %2 (token %3) look at %4 (token %5)?</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 · “%2” · score %3</source>
        <translation>%1 · “%2” · score %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · weight %1</source>
        <translation> · weight %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each bar is one pair&apos;s part of the score (q · k × %1): a part of the residual stream at the key times a part at the query, the norms frozen at the whole stream&apos;s scale. Red raises the score, blue lowers it; the bars add up to the score.</source>
        <translation>Each bar is one pair&apos;s part of the score (q · k × %1): a part of the residual stream at the key times a part at the query, the norms frozen at the whole stream&apos;s scale. Red raises the score, blue lowers it; the bars add up to the score.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: %2 (token %3) → %4 (token %5)</source>
        <translation>%1: %2 (token %3) → %4 (token %5)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: %2 (%3) → %4 (%5)</source>
        <translation>%1: %2 (%3) → %4 (%5)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
</context>
<context>
    <name>ZoomMapFigure</name>
    <message>
        <location filename="../../ui/render/zoom_map_figure.cpp" line="+258"/>
        <source>Query (row)</source>
        <translation>Query (row)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Key (column)</source>
        <translation>Key (column)</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Queries %1–%2 × keys %3–%4 of %5 tokens</source>
        <translation>Queries %1–%2 × keys %3–%4 of %5 tokens</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · each pixel: the largest weight of %1 × %1 cells</source>
        <translation> · each pixel: the largest weight of %1 × %1 cells</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · each pixel: the mean weight of %1 × %1 cells</source>
        <translation> · each pixel: the mean weight of %1 × %1 cells</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · colours from 0 to the map&apos;s largest weight, %1</source>
        <translation> · colours from 0 to the map&apos;s largest weight, %1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AtlasView</name>
    <message>
        <location filename="../../ui/model/atlas_view.cpp" line="+68"/>
        <source>previous token</source>
        <translation>previous token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sink</source>
        <translation>sink</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>self</source>
        <translation>self</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>induction</source>
        <translation>induction</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>broad</source>
        <translation>broad</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Entropy</source>
        <translation>Entropy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Broad</source>
        <translation>Broad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distance</source>
        <translation>Distance</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First</source>
        <translation>First</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Self</source>
        <translation>Self</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous</source>
        <translation>Previous</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Induction</source>
        <translation>Induction</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Entropy (nats)</source>
        <translation>Entropy (nats)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Broadness (entropy / its maximum)</source>
        <translation>Broadness (entropy / its maximum)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean distance (tokens)</source>
        <translation>Mean distance (tokens)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to the first token</source>
        <translation>Attention to the first token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to itself</source>
        <translation>Attention to itself</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to the previous token</source>
        <translation>Attention to the previous token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Induction score</source>
        <translation>Induction score</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>%1 (%2% of texts agree)</source>
        <translation>%1 (%2% of texts agree)</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Layer %1 · head %2: %3 %4 (95% interval %5 to %6, %n text(s))%7</source>
        <translation>
            <numerusform>Layer %1 · head %2: %3 %4 (95% interval %5 to %6, %n text)%7</numerusform>
            <numerusform>Layer %1 · head %2: %3 %4 (95% interval %5 to %6, %n texts)%7</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Layer %1 · head %2: %3 %4%5</source>
        <translation>Layer %1 · head %2: %3 %4%5</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>Open Full Map…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show in Heatmaps</source>
        <translation>Show in Heatmaps</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Colour the grid by:</source>
        <translation>Colour the grid by:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>Export CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This text</source>
        <translation>This text</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every head measured on the text above</source>
        <translation>Every head measured on the text above</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head measured over the texts of a corpus, each measure with its 95% interval (File ▸ Open Corpus…)</source>
        <translation>Every head measured over the texts of a corpus, each measure with its 95% interval (File ▸ Open Corpus…)</translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source>Corpus (%n text(s))</source>
        <translation>
            <numerusform>Corpus (%n text)</numerusform>
            <numerusform>Corpus (%n texts)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the texts the text box held</source>
        <translation>the texts the text box held</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Each measure is averaged over %1 (%n text(s), %2 tokens; the induction score over the %3 that repeat a token), with its 95% interval: the whiskers in the grid, ± in the table. A label is the one the means earn; its share is of the texts whose own measures earn it. Click a head for its top examples.</source>
        <translation>
            <numerusform>Each measure is averaged over %1 (%n text, %2 tokens; the induction score over the %3 that repeat a token), with its 95% interval: the whiskers in the grid, ± in the table. A label is the one the means earn; its share is of the texts whose own measures earn it. Click a head for its top examples.</numerusform>
            <numerusform>Each measure is averaged over %1 (%n texts, %2 tokens; the induction score over the %3 that repeat a token), with its 95% interval: the whiskers in the grid, ± in the table. A label is the one the means earn; its share is of the texts whose own measures earn it. Click a head for its top examples.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stopped after %1 of %2 texts: the result is partial.</source>
        <translation>Stopped after %1 of %2 texts: the result is partial.</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n text(s) longer than the model were cut to its positions.</source>
        <translation>
            <numerusform>%n text longer than the model was cut to its positions.</numerusform>
            <numerusform>%n texts longer than the model were cut to its positions.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each measure is averaged over the query tokens of the text above. The induction score is measured on a sequence the tool makes (the first token, then 50 random tokens twice): the attention from a token of the second copy to the token after its earlier occurrence. Labels: previous token ≥ 0.4, sink (first token) ≥ 0.5, self ≥ 0.5, induction ≥ 0.3, broad ≥ 0.8.</source>
        <translation>Each measure is averaged over the query tokens of the text above. The induction score is measured on a sequence the tool makes (the first token, then 50 random tokens twice): the attention from a token of the second copy to the token after its earlier occurrence. Labels: previous token ≥ 0.4, sink (first token) ≥ 0.5, self ≥ 0.5, induction ≥ 0.3, broad ≥ 0.8.</translation>
    </message>
    <message>
        <location line="-91"/>
        <source>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to measure its heads.</source>
        <translation>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to measure its heads.</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>These maps were read from a file: the induction score needs the model itself to run that sequence, so it is left out (–).</source>
        <translation>These maps were read from a file: the induction score needs the model itself to run that sequence, so it is left out (–).</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Layer</source>
        <translation>Layer</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Labels (share of texts)</source>
        <translation>Labels (share of texts)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: the mean over the texts ± half its 95% interval</source>
        <translation>%1: the mean over the texts ± half its 95% interval</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>95% interval %1 to %2 over %n text(s)</source>
        <translation>
            <numerusform>95% interval %1 to %2 over %n text</numerusform>
            <numerusform>95% interval %1 to %2 over %n texts</numerusform>
        </translation>
    </message>
    <message>
        <location line="+96"/>
        <source>Export the Head Atlas</source>
        <translation>Export the Head Atlas</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot export the head atlas</source>
        <translation>Cannot export the head atlas</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>Cannot write &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <location line="-285"/>
        <source>Open a trained model to measure its heads.</source>
        <translation>Open a trained model to measure its heads.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AttentionDocument</name>
    <message>
        <location filename="../../ui/document/attention_document.cpp" line="-745"/>
        <source>embed_dim must be between %1 and %2.</source>
        <translation>embed_dim must be between %1 and %2.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 heads do not divide embed_dim %2, so %3 heads are used.</source>
        <translation>%1 heads do not divide embed_dim %2, so %3 heads are used.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 heads do not divide embed_dim %2: each head gets embed_dim / heads dimensions. Choose one of %3.</source>
        <translation>%1 heads do not divide embed_dim %2: each head gets embed_dim / heads dimensions. Choose one of %3.</translation>
    </message>
    <message>
        <location line="+401"/>
        <source>4 vs 8 heads needs an embed_dim that 8 divides (it is %1).</source>
        <translation>4 vs 8 heads needs an embed_dim that 8 divides (it is %1).</translation>
    </message>
    <message>
        <location line="+375"/>
        <source>num_heads %1 does not divide embed_dim %2</source>
        <translation>num_heads %1 does not divide embed_dim %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&apos;knocked_out&apos; is not a list</source>
        <translation>&apos;knocked_out&apos; is not a list</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;knocked_out&apos; entries must be [layer, head, &quot;zero&quot; or &quot;mean&quot;], layer and head from 0</source>
        <translation>&apos;knocked_out&apos; entries must be [layer, head, &quot;zero&quot; or &quot;mean&quot;], layer and head from 0</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;knocked_out&apos; names heads of a model, but the source is the demo layer</source>
        <translation>&apos;knocked_out&apos; names heads of a model, but the source is the demo layer</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;generated&apos; is not a list of token ids</source>
        <translation>&apos;generated&apos; is not a list of token ids</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;generated&apos; entries must be token ids, whole numbers from 0</source>
        <translation>&apos;generated&apos; entries must be token ids, whole numbers from 0</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;generated&apos; continues a model&apos;s text, but the source is the demo layer</source>
        <translation>&apos;generated&apos; continues a model&apos;s text, but the source is the demo layer</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&apos;masked_keys&apos; is not a list</source>
        <translation>&apos;masked_keys&apos; is not a list</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;masked_keys&apos; entries must be [item, key] pairs of whole numbers</source>
        <translation>&apos;masked_keys&apos; entries must be [item, key] pairs of whole numbers</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>&apos;%1&apos; is not an array</source>
        <translation>&apos;%1&apos; is not an array</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&apos;line_heads&apos; must list head numbers from 0 to 63</source>
        <translation>&apos;line_heads&apos; must list head numbers from 0 to 63</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;open_layers&apos; must list layer numbers from 0 to 63</source>
        <translation>&apos;open_layers&apos; must list layer numbers from 0 to 63</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CircuitsView</name>
    <message>
        <location filename="../../ui/model/circuits_view.cpp" line="+192"/>
        <source>&amp;Composition:</source>
        <translation>&amp;Composition:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Q-composition (queries)</source>
        <translation>Q-composition (queries)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>K-composition (keys)</source>
        <translation>K-composition (keys)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>V-composition (values)</source>
        <translation>V-composition (values)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How a later head reads what an earlier head writes: through its queries (Q), its keys (K) or its values (V)</source>
        <translation>How a later head reads what an earlier head writes: through its queries (Q), its keys (K) or its values (V)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;RoPE offset:</source>
        <translation>&amp;RoPE offset:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rotary positions make W_QK depend on the distance between query and key: the scores take it at this many positions (1: the key just before the query)</source>
        <translation>Rotary positions make W_QK depend on the distance between query and key: the scores take it at this many positions (1: the key just before the query)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compute</source>
        <translation>Compute</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compute the composition and copying scores from the weights</source>
        <translation>Compute the composition and copying scores from the weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the scores (CSV)</source>
        <translation>The figure (PNG, SVG, PDF) or the scores (CSV)</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+223"/>
        <source>%1 writes, %2 reads: their attention on the window&apos;s text</source>
        <translation>%1 writes, %2 reads: their attention on the window&apos;s text</translation>
    </message>
    <message>
        <location line="-171"/>
        <source>Attention maps read from a file have no weights: the circuits are computed from a model&apos;s weights. Open one (File ▸ Open Model…).</source>
        <translation>Attention maps read from a file have no weights: the circuits are computed from a model&apos;s weights. Open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Circuits are computed from a trained model&apos;s weights: open one (File ▸ Open Model…).</source>
        <translation>Circuits are computed from a trained model&apos;s weights: open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Circuits are computed from a trained model&apos;s weights: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>Circuits are computed from a trained model&apos;s weights: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The scores keep %1 of the weights&apos; factors, more than the memory budget of %2 (Attention ▸ Memory Budget…).</source>
        <translation>The scores keep %1 of the weights&apos; factors, more than the memory budget of %2 (Attention ▸ Memory Budget…).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Computing the scores from the weights…</source>
        <translation>Computing the scores from the weights…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Cannot compute the circuits</source>
        <translation>Cannot compute the circuits</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped: Compute starts again.</source>
        <translation>Stopped: Compute starts again.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Computing the scores from the weights: layer %1 of %2…</source>
        <translation>Computing the scores from the weights: layer %1 of %2…</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Type a text in the input box: the two heads&apos; attention on it shows here.</source>
        <translation>Type a text in the input box: the two heads&apos; attention on it shows here.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The two maps of %1 × %1 tokens need %2, more than the memory budget of %3 (Attention ▸ Memory Budget…).</source>
        <translation>The two maps of %1 × %1 tokens need %2, more than the memory budget of %3 (Attention ▸ Memory Budget…).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Reading the two heads&apos; maps…</source>
        <translation>Reading the two heads&apos; maps…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Rows: the queries; columns: the keys. Wheel: zoom · drag: pan.</source>
        <translation>Rows: the queries; columns: the keys. Wheel: zoom · drag: pan.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · norm-based ‖α·f(x)‖</source>
        <translation> · norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1, the earlier head (writes)</source>
        <translation>%1, the earlier head (writes)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, the later head (reads)</source>
        <translation>%1, the later head (reads)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The scores are not computed yet: there is nothing to export.</source>
        <translation>The scores are not computed yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot export the circuits</source>
        <translation>Cannot export the circuits</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>Cannot copy the figure</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The scores are not computed yet: there is nothing to copy.</source>
        <translation>The scores are not computed yet: there is nothing to copy.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the circuits</source>
        <translation>Export the circuits</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CompareView</name>
    <message>
        <location filename="../../ui/classroom/compare_view.cpp" line="+303"/>
        <source>Compare:</source>
        <translation>Compare:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Without vs with causal mask</source>
        <translation>Without vs with causal mask</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A without the causal mask, B with it: what a language model may not look at</source>
        <translation>A without the causal mask, B with it: what a language model may not look at</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4 vs 8 heads</source>
        <translation>4 vs 8 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A with 4 heads, B with 8, compared on the mean over heads</source>
        <translation>A with 4 heads, B with 8, compared on the mean over heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout off vs on, same seed</source>
        <translation>Dropout off vs on, same seed</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A in evaluation mode, B training with dropout: the dropped weights become 0 and the others grow by 1/(1 − p)</source>
        <translation>A in evaluation mode, B training with dropout: the dropped weights become 0 and the others grow by 1/(1 − p)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sh&amp;ow:</source>
        <translation>Sh&amp;ow:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;dit B</source>
        <translation>E&amp;dit B</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the settings B changes</source>
        <translation>Show or hide the settings B changes</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B = A with:</source>
        <translation>B = A with:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Causal mask</source>
        <translation>Causal mask</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads</source>
        <translation>Heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B&apos;s dropout probability; B keeps A&apos;s dropout seed</source>
        <translation>B&apos;s dropout probability; B keeps A&apos;s dropout seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scoring</source>
        <translation>Scoring</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fully masked rows</source>
        <translation>Fully masked rows</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bias</source>
        <translation>Bias</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Positional encoding</source>
        <translation>Positional encoding</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weight seed</source>
        <translation>Weight seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer</source>
        <translation>Layer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B shows this layer of the model</source>
        <translation>B shows this layer of the model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B shows this head, against the head A shows (Show, above): two heads of one layer, or of two layers</source>
        <translation>B shows this head, against the head A shows (Show, above): two heads of one layer, or of two layers</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sentence</source>
        <translation>Sentence</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same as A</source>
        <translation>Same as A</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B runs the model on this sentence; with as many tokens as A&apos;s, the two are compared token by token (swap one word)</source>
        <translation>B runs the model on this sentence; with as many tokens as A&apos;s, the two are compared token by token (swap one word)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Maps</source>
        <translation>Maps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose…</source>
        <translation>Choose…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B&apos;s attention maps: another file with the same layers, heads and tokens count, e.g. another checkpoint on the same text</source>
        <translation>B&apos;s attention maps: another file with the same layers, heads and tokens count, e.g. another checkpoint on the same text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B = A</source>
        <translation>B = A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo every change of B</source>
        <translation>Undo every change of B</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>B cannot be compared: %1</source>
        <translation>B cannot be compared: %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>B cannot be computed: %1</source>
        <translation>B cannot be computed: %1</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Mean over heads</source>
        <translation>Mean over heads</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+7"/>
        <location line="+109"/>
        <location line="+2"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="-115"/>
        <source>Head %1 (only in A)</source>
        <translation>Head %1 (only in A)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head %1 (only in B)</source>
        <translation>Head %1 (only in B)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>B is the same as A: pick a comparison above, or choose what B changes with Edit B.</source>
        <translation>B is the same as A: pick a comparison above, or choose what B changes with Edit B.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Computing configuration B…</source>
        <translation>Computing configuration B…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>on</source>
        <translation>on</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>off</source>
        <translation>off</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same as A (%1)</source>
        <translation>Same as A (%1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+31"/>
        <location line="+3"/>
        <source>On</source>
        <translation>On</translation>
    </message>
    <message>
        <location line="-34"/>
        <location line="+31"/>
        <location line="+3"/>
        <source>Off</source>
        <translation>Off</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>on, p = %1</source>
        <translation>on, p = %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off (evaluation)</source>
        <translation>Off (evaluation)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On (training, A&apos;s seed)</source>
        <translation>On (training, A&apos;s seed)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>additive</source>
        <translation>additive</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>dot product</source>
        <translation>dot product</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scaled dot product</source>
        <translation>Scaled dot product</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Additive</source>
        <translation>Additive</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Same as A&apos;s</source>
        <translation>Same as A&apos;s</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ControlsPanel</name>
    <message>
        <location filename="../../ui/widgets/controls_panel.cpp" line="+47"/>
        <source>Attention layer</source>
        <translation>Attention layer</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Model width (num_hiddens): the size of every token vector.</source>
        <translation>Model width (num_hiddens): the size of every token vector.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;embed_dim:</source>
        <translation>&amp;embed_dim:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only head counts that divide embed_dim are offered: each head works on embed_dim / heads dimensions.</source>
        <translation>Only head counts that divide embed_dim are offered: each head works on embed_dim / heads dimensions.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Heads:</source>
        <translation>&amp;Heads:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Scaled dot-product</source>
        <translation>Scaled dot-product</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Additive (Bahdanau)</source>
        <translation>Additive (Bahdanau)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;coring:</source>
        <translation>S&amp;coring:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Projection &amp;bias</source>
        <translation>Projection &amp;bias</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sinusoidal &amp;positional encoding</source>
        <translation>Sinusoidal &amp;positional encoding</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Seed of the random initialisation of the projections.</source>
        <translation>Seed of the random initialisation of the projections.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Weight seed:</source>
        <translation>&amp;Weight seed:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load weights…</source>
        <translation>Load weights…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Load a PyTorch nn.MultiheadAttention state_dict saved with safetensors.</source>
        <translation>Load a PyTorch nn.MultiheadAttention state_dict saved with safetensors.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use seed</source>
        <translation>Use seed</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Weights:</source>
        <translation>Weights:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Dropout on the weights</source>
        <translation>Dropout on the weights</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Rate:</source>
        <translation>&amp;Rate:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Training mode (dropout active)</source>
        <translation>&amp;Training mode (dropout active)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In evaluation mode dropout does nothing, as in PyTorch&apos;s eval().</source>
        <translation>In evaluation mode dropout does nothing, as in PyTorch&apos;s eval().</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Resample</source>
        <translation>Resample</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Draw a new dropout mask (next seed)  Ctrl+R</source>
        <translation>Draw a new dropout mask (next seed)  Ctrl+R</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>S&amp;eed:</source>
        <translation>S&amp;eed:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Masks</source>
        <translation>Masks</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Causal (no looking ahead)</source>
        <translation>&amp;Causal (no looking ahead)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mask every key after the query&apos;s position  Ctrl+K</source>
        <translation>Mask every key after the query&apos;s position  Ctrl+K</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear</source>
        <translation>Clear</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Masked keys:</source>
        <translation>Masked keys:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Zero weights</source>
        <translation>Zero weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Uniform weights</source>
        <translation>Uniform weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NaN (as PyTorch)</source>
        <translation>NaN (as PyTorch)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What a query row gets when every key is masked.</source>
        <translation>What a query row gets when every key is masked.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fully masked rows:</source>
        <translation>&amp;Fully masked rows:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Display</source>
        <translation>Display</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Colo&amp;urs:</source>
        <translation>Colo&amp;urs:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Shared by all heads (data range)</source>
        <translation>Shared by all heads (data range)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head to its own range</source>
        <translation>Each head to its own range</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fixed 0 – 1</source>
        <translation>Fixed 0 – 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sc&amp;ale:</source>
        <translation>Sc&amp;ale:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Print &amp;values in enlarged heads</source>
        <translation>Print &amp;values in enlarged heads</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>%1  (head_dim %2)</source>
        <translation>%1  (head_dim %2)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>none — click a token label in the heatmaps</source>
        <translation>none — click a token label in the heatmaps</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (#%2, sentence %3)</source>
        <translation>%1 (#%2, sentence %3)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (#%2)</source>
        <translation>%1 (#%2)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>random, from the weight seed</source>
        <translation>random, from the weight seed</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>These settings belong to the demo layer; a trained model has its own. Choose “Demo layer” in the tool bar to use them.</source>
        <translation>These settings belong to the demo layer; a trained model has its own. Choose “Demo layer” in the tool bar to use them.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusExamples</name>
    <message>
        <location filename="../../ui/model/corpus_examples.cpp" line="+137"/>
        <source>Weight</source>
        <translation>Weight</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Query → key</source>
        <translation>Query → key</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Context (query blue, key orange)</source>
        <translation>Context (query blue, key orange)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click a head for its top examples over the corpus.</source>
        <translation>Click a head for its top examples over the corpus.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Layer %1 · head %2 has no example: every weight it gave went to the first token or to the query itself.</source>
        <translation>Layer %1 · head %2 has no example: every weight it gave went to the first token or to the query itself.</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The %n cell(s) where layer %1 · head %2 puts its largest weight on a key that is neither the first token nor the query itself. Double-click one to open its text with this head in focus.</source>
        <translation>
            <numerusform>The %n cell where layer %1 · head %2 puts its largest weight on a key that is neither the first token nor the query itself. Double-click it to open its text with this head in focus.</numerusform>
            <numerusform>The %n cells where layer %1 · head %2 puts its largest weight on a key that is neither the first token nor the query itself. Double-click one to open its text with this head in focus.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 (line %2)</source>
        <translation>%1 (line %2)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Text %1: the query at %2 “%3” gives the key at %4 “%5” a weight of %6. Double-click to open the text.</source>
        <translation>Text %1: the query at %2 “%3” gives the key at %4 “%5” a weight of %6. Double-click to open the text.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusSource</name>
    <message>
        <location filename="../../ui/model/corpus_source.cpp" line="+60"/>
        <location line="+135"/>
        <location line="+47"/>
        <source>Cannot measure the corpus</source>
        <translation>Cannot measure the corpus</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>Open &amp;Corpus…</source>
        <translation>Open &amp;Corpus…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure every head of the open model over a file of texts (one per line, per paragraph or per JSON Lines record)</source>
        <translation>Measure every head of the open model over a file of texts (one per line, per paragraph or per JSON Lines record)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Corpus from &amp;History</source>
        <translation>Corpus from &amp;History</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure every head of the open model over the texts the text box held in this session</source>
        <translation>Measure every head of the open model over the texts the text box held in this session</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop after the text under way: the texts measured are kept, marked partial</source>
        <translation>Stop after the text under way: the texts measured are kept, marked partial</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Queries and keys…</source>
        <translation>Queries and keys…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Measuring the corpus…</source>
        <translation>Measuring the corpus…</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+6"/>
        <source>Open a Corpus</source>
        <translation>Open a Corpus</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Texts (*.txt *.jsonl);;All files (*)</source>
        <translation>Texts (*.txt *.jsonl);;All files (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>“%1” begins like JSON Lines. Read each line as a JSON record, or as plain text?</source>
        <translation>“%1” begins like JSON Lines. Read each line as a JSON record, or as plain text?</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>JSON Lines</source>
        <translation>JSON Lines</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One text per line</source>
        <translation>One text per line</translation>
    </message>
    <message numerus="yes">
        <location line="+41"/>
        <source>The text box has held %n text(s) in this session: a corpus needs at least two. Type a few more, or open a file (File ▸ Open Corpus…).</source>
        <translation>
            <numerusform>The text box has held %n text in this session: a corpus needs at least two. Type a few more, or open a file (File ▸ Open Corpus…).</numerusform>
            <numerusform>The text box has held %n texts in this session: a corpus needs at least two. Type a few more, or open a file (File ▸ Open Corpus…).</numerusform>
        </translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Cannot compute the queries and keys</source>
        <translation>Cannot compute the queries and keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The session kept only the texts of the examples, and the corpus file “%1” is gone: open it again (File ▸ Open Corpus…).</source>
        <translation>The session kept only the texts of the examples, and the corpus file “%1” is gone: open it again (File ▸ Open Corpus…).</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>A corpus is measured on a trained model: choose one in the Source box, or open one (File ▸ Open Model…).</source>
        <translation>A corpus is measured on a trained model: choose one in the Source box, or open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Cannot open the text</source>
        <translation>Cannot open the text</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The corpus was measured on %1: choose that model in the Source box to open its texts.</source>
        <translation>The corpus was measured on %1: choose that model in the Source box to open its texts.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2 texts</source>
        <translation>%1 of %2 texts</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Corpus measured in part: %1 of %2 texts (stopped)</source>
        <translation>Corpus measured in part: %1 of %2 texts (stopped)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Corpus measured: %1 texts, %2 tokens</source>
        <translation>Corpus measured: %1 texts, %2 tokens</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::DlaView</name>
    <message>
        <location filename="../../ui/model/dla_view.cpp" line="+215"/>
        <source>Token in focus:</source>
        <translation>Token in focus:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token whose prediction of the next token is attributed (default: the last)</source>
        <translation>The token whose prediction of the next token is attributed (default: the last)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target:</source>
        <translation>Target:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the top prediction</source>
        <translation>the top prediction</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The next token whose logit is split into parts: a text that is one token, or a vocabulary entry; empty: the model&apos;s top prediction</source>
        <translation>The next token whose logit is split into parts: a text that is one token, or a vocabulary entry; empty: the model&apos;s top prediction</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Distractor:</source>
        <translation>Distractor:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A token it competes with: the parts of logit(target) − logit(distractor) instead</source>
        <translation>A token it competes with: the parts of logit(target) − logit(distractor) instead</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency:</source>
        <translation>Saliency:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off</source>
        <translation>Off</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gradient × input</source>
        <translation>Gradient × input</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Integrated gradients</source>
        <translation>Integrated gradients</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each input token&apos;s share of the same prediction, from the gradient with respect to its token embedding: one backward pass, or integrated gradients (steps + 2 passes)</source>
        <translation>Each input token&apos;s share of the same prediction, from the gradient with respect to its token embedding: one backward pass, or integrated gradients (steps + 2 passes)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Steps:</source>
        <translation>Steps:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Integrated gradients&apos; steps along the path from the baseline: more steps close the completeness gap, each costs a pass forwards and back</source>
        <translation>Integrated gradients&apos; steps along the path from the baseline: more steps close the completeness gap, each costs a pass forwards and back</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency %p%</source>
        <translation>Saliency %p%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the numbers (CSV)</source>
        <translation>The figure (PNG, SVG, PDF) or the numbers (CSV)</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Who writes the answer needs a trained causal language model: open one (File ▸ Open Model…).</source>
        <translation>Who writes the answer needs a trained causal language model: open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>Who writes the answer needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>For a masked language model this tab shows the saliency alone: each input token&apos;s share of the prediction at the token in focus (at first, the [MASK]). Choose a method in the Saliency box.</source>
        <translation>For a masked language model this tab shows the saliency alone: each input token&apos;s share of the prediction at the token in focus (at first, the [MASK]). Choose a method in the Saliency box.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>not one token</source>
        <translation>not one token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is not one token of this vocabulary: pick one from the list.</source>
        <translation>“%1” is not one token of this vocabulary: pick one from the list.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+66"/>
        <source>%1 · id %2</source>
        <translation>%1 · id %2</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Cannot compute the saliency: %1</source>
        <translation>Cannot compute the saliency: %1</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Cannot attribute the logit: %1</source>
        <translation>Cannot attribute the logit: %1</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>There is no saliency yet: there is nothing to export.</source>
        <translation>There is no saliency yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>There is no attribution yet: there is nothing to export.</source>
        <translation>There is no attribution yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot export the attribution</source>
        <translation>Cannot export the attribution</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cannot copy the figure</source>
        <translation>Cannot copy the figure</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no attribution yet: there is nothing to copy.</source>
        <translation>There is no attribution yet: there is nothing to copy.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the attribution</source>
        <translation>Export the attribution</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::DocumentHistory</name>
    <message>
        <location filename="../../ui/widgets/document_history.cpp" line="+86"/>
        <source>Knock Out Heads</source>
        <translation>Knock Out Heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Typing</source>
        <translation>Typing</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Generate</source>
        <translation>Generate</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep Generated Text</source>
        <translation>Keep Generated Text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change Source</source>
        <translation>Change Source</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mask Keys</source>
        <translation>Mask Keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change Settings</source>
        <translation>Change Settings</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportDialog</name>
    <message>
        <location filename="../../ui/widgets/export_dialog.cpp" line="+19"/>
        <source>Export Figure</source>
        <translation>Export Figure</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>PNG image</source>
        <translation>PNG image</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG vector graphics</source>
        <translation>SVG vector graphics</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF document</source>
        <translation>PDF document</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Format:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>All heads and the mean</source>
        <translation>All heads and the mean</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Mean over heads</source>
        <translation>Mean over heads</translation>
    </message>
    <message>
        <location line="-42"/>
        <location line="+7"/>
        <location line="+29"/>
        <location line="+8"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="-32"/>
        <location line="+13"/>
        <location line="+12"/>
        <location line="+10"/>
        <source>&amp;Show:</source>
        <translation>&amp;Show:</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>&amp;Head:</source>
        <translation>&amp;Head:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every stage</source>
        <translation>Every stage</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stages 1 to %1, as in the view</source>
        <translation>Stages 1 to %1, as in the view</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stage %1 and its inputs, large</source>
        <translation>Stage %1 and its inputs, large</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Heads %1, as in the view</source>
        <translation>Heads %1, as in the view</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All heads</source>
        <translation>All heads</translation>
    </message>
    <message>
        <location line="+30"/>
        <location line="+4"/>
        <location line="+41"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Presets…</source>
        <translation>Presets…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slide 16:9 (1600 × 900)</source>
        <translation>Slide 16:9 (1600 × 900)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slide 4:3 (1200 × 900)</source>
        <translation>Slide 4:3 (1200 × 900)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Square (1000 × 1000)</source>
        <translation>Square (1000 × 1000)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paper column (700 × 500)</source>
        <translation>Paper column (700 × 500)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Si&amp;ze:</source>
        <translation>Si&amp;ze:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>1× (screen)</source>
        <translation>1× (screen)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2× (slides, retina)</source>
        <translation>2× (slides, retina)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>3× (print)</source>
        <translation>3× (print)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4×</source>
        <translation>4×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;cale (PNG):</source>
        <translation>S&amp;cale (PNG):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Text size:</source>
        <translation>&amp;Text size:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Automatic: states the configuration</source>
        <translation>Automatic: states the configuration</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>T&amp;itle:</source>
        <translation>T&amp;itle:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>The image will be %1 × %2 pixels.</source>
        <translation>The image will be %1 × %2 pixels.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Vector output: real text, crisp cells at any zoom (%1 × %2 pt).</source>
        <translation>Vector output: real text, crisp cells at any zoom (%1 × %2 pt).</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FigureExports</name>
    <message>
        <location filename="../../ui/widgets/figure_exports.cpp" line="+112"/>
        <location line="+56"/>
        <location line="+38"/>
        <source>Cannot export</source>
        <translation>Cannot export</translation>
    </message>
    <message>
        <location line="-93"/>
        <source>There is no figure yet: the attention is still being computed or the input has an error.</source>
        <translation>There is no figure yet: the attention is still being computed or the input has an error.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the figure</source>
        <translation>Cannot export the figure</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Exported %1</source>
        <translation>Exported %1</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>There is no figure yet.</source>
        <translation>There is no figure yet.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Export Figure</source>
        <translation>Export Figure</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 files (*.%2)</source>
        <translation>%1 files (*.%2)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>There are no weights yet.</source>
        <translation>There are no weights yet.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot export the weights</source>
        <translation>Cannot export the weights</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export Weights</source>
        <translation>Export Weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV table (*.csv);;NumPy array [N, H, L, S] (*.npy);;JSON with tokens (*.json)</source>
        <translation>CSV table (*.csv);;NumPy array [N, H, L, S] (*.npy);;JSON with tokens (*.json)</translation>
    </message>
    <message>
        <location line="+25"/>
        <location line="+13"/>
        <location line="+9"/>
        <source>Cannot copy the figure</source>
        <translation>Cannot copy the figure</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Figure copied to the clipboard</source>
        <translation>Figure copied to the clipboard</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Load Weights</source>
        <translation>Load Weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>safetensors state_dict (*.safetensors);;All files (*)</source>
        <translation>safetensors state_dict (*.safetensors);;All files (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+33"/>
        <source>Cannot load weights</source>
        <translation>Cannot load weights</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>No file was given.</source>
        <translation>No file was given.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading weights from %1…</source>
        <translation>Reading weights from %1…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&apos;%1&apos; is a layer with kdim %2 and vdim %3, but the demo layer&apos;s keys and values have embed_dim (%4).</source>
        <translation>&apos;%1&apos; is a layer with kdim %2 and vdim %3, but the demo layer&apos;s keys and values have embed_dim (%4).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; has bias_k and bias_v, which the demo layer does not have.</source>
        <translation>&apos;%1&apos; has bias_k and bias_v, which the demo layer does not have.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Loaded weights from %1</source>
        <translation>Loaded weights from %1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FlowView</name>
    <message>
        <location filename="../../ui/model/flow_view.cpp" line="+150"/>
        <source>Token in focus:</source>
        <translation>Token in focus:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token whose prediction of the next token the graph explains (default: the last); clicking a token&apos;s dot in the figure chooses it too</source>
        <translation>The token whose prediction of the next token the graph explains (default: the last); clicking a token&apos;s dot in the figure chooses it too</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Threshold:</source>
        <translation>Threshold:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The least importance of a line in the graph: lower shows more of the routes</source>
        <translation>The least importance of a line in the graph: lower shows more of the routes</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Per head</source>
        <translation>Per head</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF)</source>
        <translation>The figure (PNG, SVG, PDF)</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>The attention&apos;s lines per head rather than per token through every head (measures the importances again)</source>
        <translation>The attention&apos;s lines per head rather than per token through every head (measures the importances again)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Measuring…</source>
        <translation>Measuring…</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Information flow needs a trained pre-norm model: open one (File ▸ Open Model…).</source>
        <translation>Information flow needs a trained pre-norm model: open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Information flow needs a trained pre-norm model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>Information flow needs a trained pre-norm model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Cannot measure the information flow: %1</source>
        <translation>Cannot measure the information flow: %1</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>There is no graph yet: there is nothing to export.</source>
        <translation>There is no graph yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the information flow</source>
        <translation>Cannot export the information flow</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>Cannot copy the figure</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no graph yet: there is nothing to copy.</source>
        <translation>There is no graph yet: there is nothing to copy.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the information flow</source>
        <translation>Export the information flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FullMapWindow</name>
    <message>
        <location filename="../../ui/widgets/full_map_window.cpp" line="+90"/>
        <source>There is no full map to show for this source.</source>
        <translation>There is no full map to show for this source.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Layer %1, head %2: the full map of %3 × %3 tokens needs %4, more than the memory budget of %5 (Attention ▸ Memory Budget…).</source>
        <translation>Layer %1, head %2: the full map of %3 × %3 tokens needs %4, more than the memory budget of %5 (Attention ▸ Memory Budget…).</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 · layer %2 · head %3 · norm-based ‖α·f(x)‖</source>
        <translation>%1 · layer %2 · head %3 · norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · layer %2 · head %3</source>
        <translation>%1 · layer %2 · head %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Full map: %1</source>
        <translation>Full map: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Zoomed out, a pixel shows:</source>
        <translation>&amp;Zoomed out, a pixel shows:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the largest weight</source>
        <translation>the largest weight</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the mean weight</source>
        <translation>the mean weight</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where a pixel covers several cells: the largest weight among them keeps a single strong weight visible; the mean keeps the total.</source>
        <translation>Where a pixel covers several cells: the largest weight among them keeps a single strong weight visible; the mean keeps the total.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Fit</source>
        <translation>&amp;Fit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the whole map (0)</source>
        <translation>Show the whole map (0)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export…</source>
        <translation>&amp;Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the region in view as PNG, SVG or PDF</source>
        <translation>Save the region in view as PNG, SVG or PDF</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+102"/>
        <source>Reading layer %1, head %2…</source>
        <translation>Reading layer %1, head %2…</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>Wheel: zoom about the cursor · drag: pan · + and −: zoom · arrows: pan · 0: the whole map · Alt-click a cell: why this attention?</source>
        <translation>Wheel: zoom about the cursor · drag: pan · + and −: zoom · arrows: pan · 0: the whole map · Alt-click a cell: why this attention?</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Why this attention? explains the maps of the window&apos;s own text: open this head&apos;s full map from the Heatmaps or Model tab (right-click it).</source>
        <translation>Why this attention? explains the maps of the window&apos;s own text: open this head&apos;s full map from the Heatmaps or Model tab (right-click it).</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Cannot show the full map</source>
        <translation>Cannot show the full map</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The map is not read yet: there is nothing to export.</source>
        <translation>The map is not read yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot export the full map</source>
        <translation>Cannot export the full map</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Export the full map</source>
        <translation>Export the full map</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::GenerationPanel</name>
    <message>
        <location filename="../../ui/model/generation_panel.cpp" line="+245"/>
        <source>Writing… %1 of %2</source>
        <translation>Writing… %1 of %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model ended its text (end-of-text token).</source>
        <translation>The model ended its text (end-of-text token).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s positions are full.</source>
        <translation>The model&apos;s positions are full.</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Wrote %n token(s).</source>
        <translation>
            <numerusform>Wrote %n token.</numerusform>
            <numerusform>Wrote %n tokens.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Stopped: the text or the model changed.</source>
        <translation>Stopped: the text or the model changed.</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Writing…</source>
        <translation>Writing…</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Stopped after %n token(s).</source>
        <translation>
            <numerusform>Stopped after %n token.</numerusform>
            <numerusform>Stopped after %n tokens.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The text now ends with the model&apos;s tokens.</source>
        <translation>The text now ends with the model&apos;s tokens.</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step %1 of %2: every view shows the text as the model had it then, the newest token&apos;s row being the attention it wrote with</source>
        <translation>Step %1 of %2: every view shows the text as the model had it then, the newest token&apos;s row being the attention it wrote with</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Play</source>
        <translation>Play</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Write with the model</source>
        <translation>Write with the model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> tokens</source>
        <translation> tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many tokens Continue writes</source>
        <translation>How many tokens Continue writes</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Greedy (most likely)</source>
        <translation>Greedy (most likely)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sampled</source>
        <translation>Sampled</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature</source>
        <translation>Temperature</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all</source>
        <translation>all</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue</source>
        <translation>Continue</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Append the model&apos;s own next tokens to the text, one by one (with the heads knocked out, the ablated model writes)</source>
        <translation>Append the model&apos;s own next tokens to the text, one by one (with the heads knocked out, the ablated model writes)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep</source>
        <translation>Keep</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Make the text shown, with the model&apos;s tokens, the sentence</source>
        <translation>Make the text shown, with the model&apos;s tokens, the sentence</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discard</source>
        <translation>Discard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drop the model&apos;s tokens: back to the sentence as typed</source>
        <translation>Drop the model&apos;s tokens: back to the sentence as typed</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadStatisticsModel</name>
    <message>
        <location filename="../../ui/classroom/statistics_view.cpp" line="+120"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Entropy (bits)</source>
        <translation>Entropy (bits)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max weight</source>
        <translation>Max weight</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mean distance</source>
        <translation>Mean distance</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>First token</source>
        <translation>First token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[CLS]</source>
        <translation>[CLS]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[SEP]</source>
        <translation>[SEP]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Itself</source>
        <translation>Itself</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous token</source>
        <translation>Previous token</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>How spread out each query&apos;s attention is, averaged over queries: 0 bits = all on one key, log2(keys) = evenly on every key.</source>
        <translation>How spread out each query&apos;s attention is, averaged over queries: 0 bits = all on one key, log2(keys) = evenly on every key.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The largest weight of each query row, averaged: near 1 means the head picks one key.</source>
        <translation>The largest weight of each query row, averaged: near 1 means the head picks one key.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How far each query looks, in tokens: Σ weight × |query − key|.</source>
        <translation>How far each query looks, in tokens: Σ weight × |query − key|.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on the first key token.</source>
        <translation>Share of the weight on the first key token.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on [CLS] keys (— if there are none).</source>
        <translation>Share of the weight on [CLS] keys (— if there are none).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on [SEP] keys (— if there are none).</source>
        <translation>Share of the weight on [SEP] keys (— if there are none).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight a token puts on itself (self-attention only).</source>
        <translation>Share of the weight a token puts on itself (self-attention only).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on the token just before (a &apos;previous-token head&apos;).</source>
        <translation>Share of the weight on the token just before (a &apos;previous-token head&apos;).</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapFigure</name>
    <message numerus="yes">
        <location filename="../../ui/render/heatmap_figure.cpp" line="+588"/>
        <source>Mean of %n head(s)</source>
        <translation>
            <numerusform>Mean of %n head</numerusform>
            <numerusform>Mean of %n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> (%1–%2)</source>
        <translation> (%1–%2)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Attention weights per head</source>
        <translation>Attention weights per head</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Attention weights</source>
        <translation>Attention weights</translation>
    </message>
    <message numerus="yes">
        <location line="-8"/>
        <source>Mean attention weights over %n head(s)</source>
        <translation>
            <numerusform>Mean attention weights over %n head</numerusform>
            <numerusform>Mean attention weights over %n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="-24"/>
        <source> · knocked out</source>
        <translation> · knocked out</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Attention weights of the first %1 of %2 heads</source>
        <translation>Attention weights of the first %1 of %2 heads</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Attention weights of head %1 of %2</source>
        <translation>Attention weights of head %1 of %2</translation>
    </message>
    <message numerus="yes">
        <location line="-31"/>
        <source>%n head(s) together</source>
        <translation>
            <numerusform>%n head together</numerusform>
            <numerusform>%n heads together</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>Norm-based attention of %n head(s) together</source>
        <translation>
            <numerusform>Norm-based attention of %n head together</numerusform>
            <numerusform>Norm-based attention of %n heads together</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based attention of head %1 of %2</source>
        <translation>Norm-based attention of head %1 of %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Norm-based attention of the first %1 of %2 heads</source>
        <translation>Norm-based attention of the first %1 of %2 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based attention per head</source>
        <translation>Norm-based attention per head</translation>
    </message>
    <message>
        <location line="+13"/>
        <source> — tokens %1–%2 of %3</source>
        <translation> — tokens %1–%2 of %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> — sentence %1 of %2</source>
        <translation> — sentence %1 of %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>queries %1–%2 of %3 × keys %4–%5 of %6 (the softmax is over every key)</source>
        <translation>queries %1–%2 of %3 × keys %4–%5 of %6 (the softmax is over every key)</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 queries × %2 keys</source>
        <translation>%1 queries × %2 keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rows: queries, columns: keys</source>
        <translation>rows: queries, columns: keys</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>how much each key&apos;s value moves the output, not the weight α</source>
        <translation>how much each key&apos;s value moves the output, not the weight α</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>hatched grey: masked</source>
        <translation>hatched grey: masked</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dashed lines: where the second text begins</source>
        <translation>dashed lines: where the second text begins</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>orange: the tokens the model wrote</source>
        <translation>orange: the tokens the model wrote</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>red outline: fully masked row (%1)</source>
        <translation>red outline: fully masked row (%1)</translation>
    </message>
    <message>
        <location line="+173"/>
        <source>each head: its min (0) to its max (1)</source>
        <translation>each head: its min (0) to its max (1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>norm-based ‖α·f(x)‖</source>
        <translation>norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>attention weight</source>
        <translation>attention weight</translation>
    </message>
    <message>
        <location line="+262"/>
        <source>Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queries</source>
        <translation>Queries</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapGridView</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/heatmap_grid_view.cpp" line="+188"/>
        <source>mean of %n head(s)</source>
        <translation>
            <numerusform>mean of %n head</numerusform>
            <numerusform>mean of %n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>head %1</source>
        <translation>head %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 · query %2 “%3” → key %4 “%5” · weight %6</source>
        <translation>%1 · query %2 “%3” → key %4 “%5” · weight %6</translation>
    </message>
    <message>
        <location line="+8"/>
        <source> · raw score %1</source>
        <translation> · raw score %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · raw score not kept for this size</source>
        <translation> · raw score not kept for this size</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · masked</source>
        <translation> · masked</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · row fully masked (%1)</source>
        <translation> · row fully masked (%1)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · Alt-click: why this attention?</source>
        <translation> · Alt-click: why this attention?</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>key %1 “%2” — click to %3 this key</source>
        <translation>key %1 “%2” — click to %3 this key</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+7"/>
        <source>unmask</source>
        <translation>unmask</translation>
    </message>
    <message>
        <location line="-7"/>
        <location line="+7"/>
        <source>mask</source>
        <translation>mask</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>query %1 “%2”</source>
        <translation>query %1 “%2”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>query %1 “%2” — click to %3 this token as a key</source>
        <translation>query %1 “%2” — click to %3 this token as a key</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 — click to enlarge</source>
        <translation>%1 — click to enlarge</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — double-click to go back</source>
        <translation>%1 — double-click to go back</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::InputPanel</name>
    <message>
        <location filename="../../ui/widgets/input_panel.cpp" line="+40"/>
        <source> | … (%1 more)</source>
        <translation> | … (%1 more)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Self-attention</source>
        <translation>Self-attention</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cross-attention (keys from the second sentence)</source>
        <translation>Cross-attention (keys from the second sentence)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Padded batch of both sentences</source>
        <translation>Padded batch of both sentences</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Self-attention: queries, keys and values all come from the sentence.
Cross-attention: queries from the sentence, keys and values from the second sentence.
Padded batch: both sentences run as a batch of two; the shorter is padded and its [PAD] keys are masked.</source>
        <translation>Self-attention: queries, keys and values all come from the sentence.
Cross-attention: queries from the sentence, keys and values from the second sentence.
Padded batch: both sentences run as a batch of two; the shorter is padded and its [PAD] keys are masked.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Type a sentence…</source>
        <translation>Type a sentence…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Second sentence (for cross-attention or a padded batch)</source>
        <translation>Second sentence (for cross-attention or a padded batch)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Second sentence:</source>
        <translation>Second sentence:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit tokens</source>
        <translation>Edit tokens</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Use the token lists below as given (pre-tokenized input) instead of tokenizing the sentences. Separate tokens with |.</source>
        <translation>Use the token lists below as given (pre-tokenized input) instead of tokenizing the sentences. Separate tokens with |.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Second tokens:</source>
        <translation>Second tokens:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lowercase</source>
        <translation>Lowercase</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add [CLS] / [SEP]</source>
        <translation>Add [CLS] / [SEP]</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Sentence:</source>
        <translation>&amp;Sentence:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Mode:</source>
        <translation>&amp;Mode:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tokens:</source>
        <translation>Tokens:</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Use the Chinese and English model</source>
        <translation>Use the Chinese and English model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open char-zh-en-4l, the model AttnViz ships for Chinese and English text</source>
        <translation>Open char-zh-en-4l, the model AttnViz ships for Chinese and English text</translation>
    </message>
    <message numerus="yes">
        <location line="+125"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 + %2 tokens</source>
        <translation>%1 + %2 tokens</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 of %2 characters are unknown to this model: it reads each as its unknown token (&lt;unk&gt;), whatever the labels show.</source>
        <translation>%1 of %2 characters are unknown to this model: it reads each as its unknown token (&lt;unk&gt;), whatever the labels show.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The model&apos;s own tokenizer splits the text; these options belong to the demo layer.</source>
        <translation>The model&apos;s own tokenizer splits the text; these options belong to the demo layer.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::KnockOutMenu</name>
    <message>
        <location filename="../../ui/widgets/knock_out_menu.cpp" line="+19"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>Open Full Map…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Knock Out (Zero)</source>
        <translation>Knock Out (Zero)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Knock Out (Mean)</source>
        <translation>Knock Out (Mean)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore</source>
        <translation>Restore</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Restore All Heads</source>
        <translation>Restore All Heads</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LensView</name>
    <message>
        <location filename="../../ui/model/lens_view.cpp" line="+116"/>
        <source>Export CSV…</source>
        <translation>Export CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The top %1 tokens of every cell, with their probabilities, as a CSV table</source>
        <translation>The top %1 tokens of every cell, with their probabilities, as a CSV table</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cannot export the logit lens</source>
        <translation>Cannot export the logit lens</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the Logit Lens</source>
        <translation>Export the Logit Lens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LinesView</name>
    <message>
        <location filename="../../ui/classroom/lines_view.cpp" line="+80"/>
        <source>Heads:</source>
        <translation>Heads:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All</source>
        <translation>All</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>None</source>
        <translation>None</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Draw the lines of head %1</source>
        <translation>Draw the lines of head %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1 was not kept: within the memory budget only the mean over heads is shown (see the bar above the views).</source>
        <translation>Head %1 was not kept: within the memory budget only the mean over heads is shown (see the bar above the views).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Head %1 was not kept: within the memory budget only heads 1–%2 are shown (see the bar above the views).</source>
        <translation>Head %1 was not kept: within the memory budget only heads 1–%2 are shown (see the bar above the views).</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MainWindow</name>
    <message>
        <location filename="../../ui/widgets/main_window.cpp" line="+277"/>
        <source>The tokens are those of the attention maps&apos; tokens file.</source>
        <translation>The tokens are those of the attention maps&apos; tokens file.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Warning: %1</source>
        <translation>Warning: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>mean of %n head(s)</source>
        <translation>
            <numerusform>mean of %n head</numerusform>
            <numerusform>mean of %n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 heads</source>
        <translation>%1 of %2 heads</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n head</numerusform>
            <numerusform>%n heads</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 × %2 tokens · %3 · %4 ms</source>
        <translation>%1 × %2 tokens · %3 · %4 ms</translation>
    </message>
    <message>
        <location line="+128"/>
        <location line="+4"/>
        <source>Cannot show the full map</source>
        <translation>Cannot show the full map</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full maps are those of a trained model or of attention maps read from a file: open one (File ▸ Open Model…, File ▸ Open Attention Maps…).</source>
        <translation>Full maps are those of a trained model or of attention maps read from a file: open one (File ▸ Open Model…, File ▸ Open Attention Maps…).</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the computation (the heatmaps keep what they show)</source>
        <translation>Stop the computation (the heatmaps keep what they show)</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Untitled</source>
        <translation>Untitled</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1[*] — AttnViz</source>
        <translation>%1[*] — AttnViz</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>Cannot open the example</source>
        <translation>Cannot open the example</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot open the example&apos;s corpus</source>
        <translation>Cannot open the example&apos;s corpus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The corpus %1 that AttnViz ships is missing.</source>
        <translation>The corpus %1 that AttnViz ships is missing.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MemoryBudgetDialog</name>
    <message>
        <location filename="../../ui/widgets/memory_dialogs.cpp" line="+186"/>
        <source>Memory Budget</source>
        <translation>Memory Budget</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Before computing, AttnViz estimates the memory a configuration needs (per-head weights grow with heads × tokens²). Above this budget it computes nothing and offers what still fits: fewer heads, a window of tokens or the mean only.</source>
        <translation>Before computing, AttnViz estimates the memory a configuration needs (per-head weights grow with heads × tokens²). Above this budget it computes nothing and offers what still fits: fewer heads, a window of tokens or the mean only.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Default: %1% of this machine&apos;s memory (%2 of %3)</source>
        <translation>&amp;Default: %1% of this machine&apos;s memory (%2 of %3)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Custom:</source>
        <translation>&amp;Custom:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. 2G, 512M or 60%</source>
        <translation>e.g. 2G, 512M or 60%</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>ATTNVIZ_MEMORY_BUDGET=%1 is set: it overrides this setting as long as the app runs with it.</source>
        <translation>ATTNVIZ_MEMORY_BUDGET=%1 is set: it overrides this setting as long as the app runs with it.</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>= %1, more than this machine&apos;s %2: computations that large may fail</source>
        <translation>= %1, more than this machine&apos;s %2: computations that large may fail</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>= %1</source>
        <translation>= %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not a size: write e.g. 2G, 512M or 60% (at least 1M).</source>
        <translation>Not a size: write e.g. 2G, 512M or 60% (at least 1M).</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MemoryGuard</name>
    <message>
        <location filename="../../ui/widgets/memory_guard.cpp" line="+27"/>
        <source>&amp;Memory Budget…</source>
        <translation>&amp;Memory Budget…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The text is %1 tokens, more than the %2 positions the model has.

Keep its first %2 tokens? The rest of the text is removed from the box.</source>
        <translation>The text is %1 tokens, more than the %2 positions the model has.

Keep its first %2 tokens? The rest of the text is removed from the box.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text Too Long for the Model</source>
        <translation>Text Too Long for the Model</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+13"/>
        <source>Keep the First %1 Tokens</source>
        <translation>Keep the First %1 Tokens</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1 — the app&apos;s own budget is used instead.</source>
        <translation>%1 — the app&apos;s own budget is used instead.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory budget: %1 (%2)</source>
        <translation>Memory budget: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelPanel</name>
    <message>
        <location filename="../../ui/model/model_panel.cpp" line="+86"/>
        <source>Computing…</source>
        <translation>Computing…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1 · mean over its %2 heads</source>
        <translation>Layer %1 · mean over its %2 heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer %1 · all %2 heads</source>
        <translation>Layer %1 · all %2 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (knocked out)</source>
        <translation> (knocked out)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 layers × %2 heads · %3 tokens</source>
        <translation>%1 layers × %2 heads · %3 tokens</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Layer %1 · head %2 — %3</source>
        <translation>Layer %1 · head %2 — %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Restore</source>
        <translation>Restore</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put layer %1, head %2 back</source>
        <translation>Put layer %1, head %2 back</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>In focus</source>
        <translation>In focus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads knocked out</source>
        <translation>Heads knocked out</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>None. Right-click a head in the Model tab or the heatmaps (or Ctrl-click it) to knock it out and see what the model loses.</source>
        <translation>None. Right-click a head in the Model tab or the heatmaps (or Ctrl-click it) to knock it out and see what the model loses.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore All</source>
        <translation>Restore All</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predictions</source>
        <translation>Predictions</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelSource</name>
    <message>
        <location filename="../../ui/model/model_source.cpp" line="+101"/>
        <source>Open &amp;Model…</source>
        <translation>Open &amp;Model…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open &amp;Attention Maps…</source>
        <translation>Open &amp;Attention Maps…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open attention maps computed elsewhere (.npy or .safetensors, [layers, heads, L, L]) and their tokens (.json)</source>
        <translation>Open attention maps computed elsewhere (.npy or .safetensors, [layers, heads, L, L]) and their tokens (.json)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Com&amp;pare With Attention Maps…</source>
        <translation>Com&amp;pare With Attention Maps…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare the attention maps open with another file of the same shape, e.g. another checkpoint on the same text: A, B and B − A in the Compare view</source>
        <translation>Compare the attention maps open with another file of the same shape, e.g. another checkpoint on the same text: A, B and B − A in the Compare view</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recent Mo&amp;dels</source>
        <translation>Recent Mo&amp;dels</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models on This &amp;Computer</source>
        <translation>Models on This &amp;Computer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo layer</source>
        <translation>Demo layer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The demo layer (every control) or a trained model</source>
        <translation>The demo layer (every control) or a trained model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s layer the views show (Model tab: all of them)</source>
        <translation>The model&apos;s layer the views show (Model tab: all of them)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Words</source>
        <translation>Words</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Group the model&apos;s pieces into words and characters: a word&apos;s attention is summed over its key pieces and averaged over its query pieces</source>
        <translation>Group the model&apos;s pieces into words and characters: a word&apos;s attention is summed over its key pieces and averaged over its query pieces</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hide special tokens</source>
        <translation>Hide special tokens</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Leave out [CLS], [SEP], BOS and the like, and rescale every row to sum to 1 over the tokens left</source>
        <translation>Leave out [CLS], [SEP], BOS and the like, and rescale every row to sum to 1 over the tokens left</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Open Attention Maps</source>
        <translation>Open Attention Maps</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Attention maps (*.npy *.safetensors);;All files (*)</source>
        <translation>Attention maps (*.npy *.safetensors);;All files (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the Tokens of %1</source>
        <translation>Open the Tokens of %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens (*.json);;All files (*)</source>
        <translation>Tokens (*.json);;All files (*)</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>there is no tokens.json beside it: choose its tokens file</source>
        <translation>there is no tokens.json beside it: choose its tokens file</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot Open the Attention Maps</source>
        <translation>Cannot Open the Attention Maps</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Opening %1…</source>
        <translation>Opening %1…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>an unexpected error stopped the reading</source>
        <translation>an unexpected error stopped the reading</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cannot Open the Model</source>
        <translation>Cannot Open the Model</translation>
    </message>
    <message>
        <location line="-56"/>
        <location line="+57"/>
        <source>%1 could not be opened: %2</source>
        <translation>%1 could not be opened: %2</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>Open a GGUF file, or a Hugging Face model folder (config.json, model.safetensors, tokenizer.json)</source>
        <translation>Open a GGUF file, or a Hugging Face model folder (config.json, model.safetensors, tokenizer.json)</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Open a Model: a .gguf file, or a model folder&apos;s config.json</source>
        <translation>Open a Model: a .gguf file, or a model folder&apos;s config.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.gguf config.json);;GGUF files (*.gguf);;Hugging Face folders (config.json);;All files (*)</source>
        <translation>Models (*.gguf config.json);;GGUF files (*.gguf);;Hugging Face folders (config.json);;All files (*)</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Compare With Attention Maps</source>
        <translation>Compare With Attention Maps</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no attention maps are open to compare them with: open A&apos;s first with File ▸ Open Attention Maps…</source>
        <translation>no attention maps are open to compare them with: open A&apos;s first with File ▸ Open Attention Maps…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot Compare the Attention Maps</source>
        <translation>Cannot Compare the Attention Maps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be compared with the maps open: %2</source>
        <translation>%1 cannot be compared with the maps open: %2</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>Clear List</source>
        <translation>Clear List</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No ollama or LM Studio models in their default folders</source>
        <translation>No ollama or LM Studio models in their default folders</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 (trained, built in)</source>
        <translation>%1 (trained, built in)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;attention maps read from a file · %2 layers · %3 heads · %4 tokens · %5&lt;br&gt;Steps and predictions need the model itself.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;attention maps read from a file · %2 layers · %3 heads · %4 tokens · %5&lt;br&gt;Steps and predictions need the model itself.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Warning: %1</source>
        <translation>Warning: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 heads</source>
        <translation>%1 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 heads (%2 kv heads)</source>
        <translation>%1 heads (%2 kv heads)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 layers · %4 · head_dim %5&lt;br&gt;hidden %6 · %7 parameters · %8&lt;br&gt;%9 positions · %10 · tokenizer: %11 (%12 tokens)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 layers · %4 · head_dim %5&lt;br&gt;hidden %6 · %7 parameters · %8&lt;br&gt;%9 positions · %10 · tokenizer: %11 (%12 tokens)</translation>
    </message>
    <message>
        <location line="-19"/>
        <location line="+29"/>
        <source>causal</source>
        <translation>causal</translation>
    </message>
    <message>
        <location line="-29"/>
        <location line="+29"/>
        <source>bidirectional</source>
        <translation>bidirectional</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelView</name>
    <message>
        <location filename="../../ui/model/model_view.cpp" line="+134"/>
        <source>Attention rollout through layer %1: how much each token draws on each input token, residual included</source>
        <translation>Attention rollout through layer %1: how much each token draws on each input token, residual included</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · mean over its %2 heads</source>
        <translation>Layer %1 · mean over its %2 heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (kv head %1)</source>
        <translation> (kv head %1)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> — not over the whole text: the memory budget kept layers 1–%1</source>
        <translation> — not over the whole text: the memory budget kept layers 1–%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> — whole text: strongest square, queries %1–%2 → keys %3–%4 (%5%)</source>
        <translation> — whole text: strongest square, queries %1–%2 → keys %3–%4 (%5%)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> — not kept: the memory budget keeps the means only (the Atlas still measures it)</source>
        <translation> — not kept: the memory budget keeps the means only (the Atlas still measures it)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — not kept: the memory budget keeps heads 1–%1 (the Atlas still measures it)</source>
        <translation> — not kept: the memory budget keeps heads 1–%1 (the Atlas still measures it)</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+1"/>
        <source> — “%1” looks at “%2” most (%3%)</source>
        <translation> — “%1” looks at “%2” most (%3%)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> — most attended token: “%1” (%2% of the attention)</source>
        <translation> — most attended token: “%1” (%2% of the attention)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open a trained model (File ▸ Open Model…) to see every layer and head at once.</source>
        <translation>Open a trained model (File ▸ Open Model…) to see every layer and head at once.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to see every layer and head at once.</source>
        <translation>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to see every layer and head at once.</translation>
    </message>
    <message>
        <location line="-102"/>
        <source>%1 · norm-based ‖α·f(x)‖</source>
        <translation>%1 · norm-based ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · %2 tokens · each map coloured from 0 to its own largest weight; click a head to open its layer, right-click it for its full map or to knock it out, Alt-click it to ask why it looks where it does</source>
        <translation>%1 · %2 tokens · each map coloured from 0 to its own largest weight; click a head to open its layer, right-click it for its full map or to knock it out, Alt-click it to ask why it looks where it does</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 · %2 · right-click a head for its full map</source>
        <translation>%1 · %2 · right-click a head for its full map</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::OverBudgetDialog</name>
    <message>
        <location filename="../../ui/widgets/memory_dialogs.cpp" line="-231"/>
        <source>Not Enough Memory for This</source>
        <translation>Not Enough Memory for This</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Nothing smaller fits either: shorten the text, lower embed_dim or raise the budget.</source>
        <translation>Nothing smaller fits either: shorten the text, lower embed_dim or raise the budget.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Change the &amp;Budget…</source>
        <translation>Change the &amp;Budget…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>set by --memory-budget</source>
        <translation>set by --memory-budget</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>set by ATTNVIZ_MEMORY_BUDGET=%1</source>
        <translation>set by ATTNVIZ_MEMORY_BUDGET=%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>your setting</source>
        <translation>your setting</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the default: %1% of this machine&apos;s %2</source>
        <translation>the default: %1% of this machine&apos;s %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>about %1</source>
        <translation>about %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the mean over the heads</source>
        <translation>the mean over the heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the weights of every head (%1)</source>
        <translation>the weights of every head (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the weights of heads 1–%1 of %2</source>
        <translation>the weights of heads 1–%1 of %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a window of %1 of %2 tokens</source>
        <translation>a window of %1 of %2 tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tokens</source>
        <translation>%1 tokens</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;p&gt;Showing %1 over %2 needs &lt;b&gt;%3&lt;/b&gt;, more than the memory budget of &lt;b&gt;%4&lt;/b&gt; (%5). Nothing was computed.&lt;/p&gt;&lt;p&gt;Per-head weights grow with heads × tokens². %6&lt;/p&gt;</source>
        <translation>&lt;p&gt;Showing %1 over %2 needs &lt;b&gt;%3&lt;/b&gt;, more than the memory budget of &lt;b&gt;%4&lt;/b&gt; (%5). Nothing was computed.&lt;/p&gt;&lt;p&gt;Per-head weights grow with heads × tokens². %6&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model&apos;s weights take %1 of it: converted layer by layer, they need no more. </source>
        <translation>The model&apos;s weights take %1 of it: converted layer by layer, they need no more. </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What still fits:</source>
        <translation>What still fits:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show head 1 only</source>
        <translation>Show head 1 only</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show heads 1–%1 only</source>
        <translation>Show heads 1–%1 only</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Needs %1. The mean still covers all %2 heads.</source>
        <translation>Needs %1. The mean still covers all %2 heads.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Show a window of %1 tokens</source>
        <translation>Show a window of %1 tokens</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. Tokens %2–%3 first; move the window along the text above the heatmaps.</source>
        <translation>Needs %1. Tokens %2–%3 first; move the window along the text above the heatmaps.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show the mean over heads only</source>
        <translation>Show the mean over heads only</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. No heatmap per head.</source>
        <translation>Needs %1. No heatmap per head.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Keep layer 1 only</source>
        <translation>Keep layer 1 only</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep layers 1–%1 of %2</source>
        <translation>Keep layers 1–%1 of %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. Every head of those layers; the later layers are not computed.</source>
        <translation>Needs %1. Every head of those layers; the later layers are not computed.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PatchView</name>
    <message>
        <location filename="../../ui/model/patch_view.cpp" line="+227"/>
        <source>Patching failed</source>
        <translation>Patching failed</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>Cannot show the head</source>
        <translation>Cannot show the head</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Clean:</source>
        <translation>Clean:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Corrupted:</source>
        <translation>Corrupted:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target:</source>
        <translation>Target:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distractor:</source>
        <translation>Distractor:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the text where the model predicts the target</source>
        <translation>the text where the model predicts the target</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the same text with a change, as many tokens</source>
        <translation>the same text with a change, as many tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>a token of the vocabulary</source>
        <translation>a token of the vocabulary</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token the clean text predicts: a text that is one token, or a vocabulary entry</source>
        <translation>The token the clean text predicts: a text that is one token, or a vocabulary entry</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The token it competes with</source>
        <translation>The token it competes with</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Method:</source>
        <translation>Method:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exact</source>
        <translation>Exact</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patch every head, one at a time, from the clean run into the corrupted run: the attribution estimate first, each head then replaced by what its run measures</source>
        <translation>Patch every head, one at a time, from the clean run into the corrupted run: the attribution estimate first, each head then replaced by what its run measures</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attribution (fast)</source>
        <translation>Attribution (fast)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Estimate every head at once from two forward passes and a backward pass (attribution patching): a first-order estimate, for large models</source>
        <translation>Estimate every head at once from two forward passes and a backward pass (attribution patching): a first-order estimate, for large models</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patch the heads from the clean run into the corrupted run, by the method chosen</source>
        <translation>Patch the heads from the clean run into the corrupted run, by the method chosen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the fractions (NPY, CSV)</source>
        <translation>The figure (PNG, SVG, PDF) or the fractions (NPY, CSV)</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Patching needs a trained causal language model: open one (File ▸ Open Model…).</source>
        <translation>Patching needs a trained causal language model: open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patching needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>Patching needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Patching reads the next-token logits of a causal language model; %1 has no such head.</source>
        <translation>Patching reads the next-token logits of a causal language model; %1 has no such head.</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>The clean text is %1 tokens and the corrupted text %2: patching needs texts of as many tokens (the tokens that differ are marked).</source>
        <translation>The clean text is %1 tokens and the corrupted text %2: patching needs texts of as many tokens (the tokens that differ are marked).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>not one token</source>
        <translation>not one token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is not one token of this vocabulary: pick one from the list.</source>
        <translation>“%1” is not one token of this vocabulary: pick one from the list.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>Run the sweep first: there is nothing to export.</source>
        <translation>Run the sweep first: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot export the patching map</source>
        <translation>Cannot export the patching map</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>Cannot copy the figure</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run the sweep first: there is nothing to copy.</source>
        <translation>Run the sweep first: there is nothing to copy.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the patching map</source>
        <translation>Export the patching map</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;NumPy array (*.npy);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;NumPy array (*.npy);;CSV table (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PositionsView</name>
    <message>
        <location filename="../../ui/model/positions_view.cpp" line="+48"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>mean of all %1 heads</source>
        <translation>mean of all %1 heads</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>key position (token)</source>
        <translation>key position (token)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>query position (token)</source>
        <translation>query position (token)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>attention received (mean over the queries that see it)</source>
        <translation>attention received (mean over the queries that see it)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>attention on the first token</source>
        <translation>attention on the first token</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Attention each position receives · %1 · %2 tokens</source>
        <translation>Attention each position receives · %1 · %2 tokens</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attention on the first token · %1 · %2 tokens</source>
        <translation>Attention on the first token · %1 · %2 tokens</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Computed by AttnViz&apos;s statistics pass over the whole text, keeping no map.</source>
        <translation>Computed by AttnViz&apos;s statistics pass over the whole text, keeping no map.</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>layer %1 of %2</source>
        <translation>layer %1 of %2</translation>
    </message>
    <message>
        <location line="+153"/>
        <source>Position %1 %2:</source>
        <translation>Position %1 %2:</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Open a model or attention maps: the statistics pass measures every head over the whole text, however long.</source>
        <translation>Open a model or attention maps: the statistics pass measures every head over the whole text, however long.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot compute the statistics: %1</source>
        <translation>Cannot compute the statistics: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measuring every head over the whole text…</source>
        <translation>Measuring every head over the whole text…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head of %1 over all %2 tokens, from one pass that keeps no map. Pick heads on the left; hover the plot for values.</source>
        <translation>Every head of %1 over all %2 tokens, from one pass that keeps no map. Pick heads on the left; hover the plot for values.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The text or the model changed: Compute measures it again.</source>
        <translation>The text or the model changed: Compute measures it again.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compute measures every head over the whole text.</source>
        <translation>Compute measures every head over the whole text.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Compute the statistics first: there is nothing to export.</source>
        <translation>Compute the statistics first: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot export the positions</source>
        <translation>Cannot export the positions</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the positions</source>
        <translation>Export the positions</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Compute</source>
        <translation>Compute</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Curve:</source>
        <translation>Curve:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention each position receives</source>
        <translation>Attention each position receives</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention on the first token</source>
        <translation>Attention on the first token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log scale</source>
        <translation>Log scale</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads</source>
        <translation>Heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>Open Full Map…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The whole map of the head selected in the list, recomputed for it alone (or double-click a head)</source>
        <translation>The whole map of the head selected in the list, recomputed for it alone (or double-click a head)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PredictionStrip</name>
    <message>
        <location filename="../../ui/model/predictions_view.cpp" line="+146"/>
        <source>Top guess for the next token after each token: %1 of %2 right (green)</source>
        <translation>Top guess for the next token after each token: %1 of %2 right (green)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, %1 of %2 in the second copy</source>
        <translation>, %1 of %2 in the second copy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · loss %1 nats/token (the colour under each guess: pale 0, dark red 6 or more)</source>
        <translation> · loss %1 nats/token (the colour under each guess: pale 0, dark red 6 or more)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · knocked out: %1</source>
        <translation> · knocked out: %1</translation>
    </message>
    <message>
        <location line="+75"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="-121"/>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+13"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+1"/>
        <source>Guess</source>
        <translation>Guess</translation>
    </message>
    <message>
        <location line="+40"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+1"/>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>After “%1”: the model guesses “%2” (%3%)%4 · loss %5 nats</source>
        <translation>After “%1”: the model guesses “%2” (%3%)%4 · loss %5 nats</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, right</source>
        <translation>, right</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>After the text: the model guesses “%1” (%2%)</source>
        <translation>After the text: the model guesses “%1” (%2%)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PredictionsBox</name>
    <message>
        <location line="-355"/>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message>
        <location line="+429"/>
        <source>Loss on %1: %2 → %3 nats/token</source>
        <translation>Loss on %1: %2 → %3 nats/token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loss on %1: %2 nats/token</source>
        <translation>Loss on %1: %2 nats/token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the text</source>
        <translation>the text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the second copy</source>
        <translation>the second copy</translation>
    </message>
    <message>
        <location line="+73"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+74"/>
        <source>No predictions for this model.</source>
        <translation>No predictions for this model.</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>After the last token, “%1”, the model guesses:</source>
        <translation>After the last token, “%1”, the model guesses:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After “%1” (position %2) the model guesses (actually “%3”):</source>
        <translation>After “%1” (position %2) the model guesses (actually “%3”):</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>With %1 knocked out:</source>
        <translation>With %1 knocked out:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Intact model:</source>
        <translation>Intact model:</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>A masked language model: put [MASK] or &lt;mask&gt; in the text to see what it would fill in.</source>
        <translation>A masked language model: put [MASK] or &lt;mask&gt; in the text to see what it would fill in.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Fillers of %1 at piece %2:</source>
        <translation>Fillers of %1 at piece %2:</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PresentationMode</name>
    <message>
        <location filename="../../ui/widgets/presentation_mode.cpp" line="+31"/>
        <source>&amp;Presentation Mode</source>
        <translation>&amp;Presentation Mode</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::QkView</name>
    <message>
        <location filename="../../ui/model/qk_view.cpp" line="+107"/>
        <source>Head:</source>
        <translation>Head:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Projection:</source>
        <translation>Projection:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Directions (cosine)</source>
        <translation>Directions (cosine)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PCA of the queries and keys together, or of their directions alone (their lengths set aside)</source>
        <translation>PCA of the queries and keys together, or of their directions alone (their lengths set aside)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour by:</source>
        <translation>Colour by:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Query or key</source>
        <translation>Query or key</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token position</source>
        <translation>Token position</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the points (CSV)</source>
        <translation>The figure (PNG, SVG, PDF) or the points (CSV)</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The corpus was measured on %1: choose that model in the Source box to see its heads&apos; queries and keys.</source>
        <translation>The corpus was measured on %1: choose that model in the Source box to see its heads&apos; queries and keys.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a corpus (File ▸ Open Corpus…, or Corpus from History) to see where a head&apos;s queries and keys lie over many texts: every query and key it computes, as one dot each.</source>
        <translation>Open a corpus (File ▸ Open Corpus…, or Corpus from History) to see where a head&apos;s queries and keys lie over many texts: every query and key it computes, as one dot each.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Computing…</source>
        <translation>Computing…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compute them</source>
        <translation>Compute them</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The corpus has no queries and keys of layer %1 · head %2 yet.</source>
        <translation>The corpus has no queries and keys of layer %1 · head %2 yet.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model shown has no head %1 in layer %2.</source>
        <translation>The model shown has no head %1 in layer %2.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>There are no queries and keys of this head to export: compute them first.</source>
        <translation>There are no queries and keys of this head to export: compute them first.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot export the queries and keys</source>
        <translation>Cannot export the queries and keys</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the queries and keys</source>
        <translation>Export the queries and keys</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::RecoveryKeeper</name>
    <message>
        <location filename="../../ui/widgets/recovery_keeper.cpp" line="+85"/>
        <source>the tokens “%1”</source>
        <translation>the tokens “%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the text “%1”</source>
        <translation>the text “%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the second text “%1”</source>
        <translation>the second text “%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model %1</source>
        <translation>the model %1</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>the demo layer (%n head(s))</source>
        <translation>
            <numerusform>the demo layer (%n head)</numerusform>
            <numerusform>the demo layer (%n heads)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n masked key(s)</source>
        <translation>
            <numerusform>%n masked key</numerusform>
            <numerusform>%n masked keys</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a comparison</source>
        <translation>a comparison</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a comparison (%1)</source>
        <translation>a comparison (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Restore Unsaved Work</source>
        <translation>Restore Unsaved Work</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AttnViz did not close properly. Restore the work saved at %1?</source>
        <translation>AttnViz did not close properly. Restore the work saved at %1?</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>It holds: %1.</source>
        <translation>It holds: %1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Restore</source>
        <translation>&amp;Restore</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Discard</source>
        <translation>&amp;Discard</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ScopeBar</name>
    <message>
        <location filename="../../ui/widgets/scope_bar.cpp" line="+40"/>
        <source>Per-head wei&amp;ghts:</source>
        <translation>Per-head wei&amp;ghts:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Whose weights are kept: every head, only the first ones, or only their mean. The mean is always over every head.</source>
        <translation>Whose weights are kept: every head, only the first ones, or only their mean. The mean is always over every head.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Wi&amp;ndow of</source>
        <translation>Wi&amp;ndow of</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the attention of a stretch of a long text: these rows and columns of the full attention (the softmax still runs over every key).</source>
        <translation>Show the attention of a stretch of a long text: these rows and columns of the full attention (the softmax still runs over every key).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> tokens</source>
        <translation> tokens</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Budget…</source>
        <translation>Budget…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change the memory budget</source>
        <translation>Change the memory budget</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show A&amp;ll</source>
        <translation>Show A&amp;ll</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head&apos;s weights over every token again</source>
        <translation>Every head&apos;s weights over every token again</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The previous window</source>
        <translation>The previous window</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move the window along the text</source>
        <translation>Move the window along the text</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The next window</source>
        <translation>The next window</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>First to&amp;ken:</source>
        <translation>First to&amp;ken:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The window&apos;s first token (1 is the first of the text).</source>
        <translation>The window&apos;s first token (1 is the first of the text).</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Needs %1: over the %2 budget</source>
        <translation>Needs %1: over the %2 budget</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory: %1 of %2</source>
        <translation>Memory: %1 of %2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>All heads (%1)</source>
        <translation>All heads (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head 1 only</source>
        <translation>Head 1 only</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Heads 1–%1</source>
        <translation>Heads 1–%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean only</source>
        <translation>Mean only</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Tokens %1–%2 of %3</source>
        <translation>Tokens %1–%2 of %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tokens %1–%2</source>
        <translation>Tokens %1–%2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SessionFiles</name>
    <message>
        <location filename="../../ui/widgets/session_files.cpp" line="+54"/>
        <source>Clear List</source>
        <translation>Clear List</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Unsaved changes</source>
        <translation>Unsaved changes</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Save the changes to this session first?</source>
        <translation>Save the changes to this session first?</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Open Session</source>
        <translation>Open Session</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AttnViz sessions (*.%1);;All files (*)</source>
        <translation>AttnViz sessions (*.%1);;All files (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot open session</source>
        <translation>Cannot open session</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Opened %1</source>
        <translation>Opened %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot restore the work</source>
        <translation>Cannot restore the work</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Cannot save session</source>
        <translation>Cannot save session</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save Session</source>
        <translation>Save Session</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>AttnViz sessions (*.%1)</source>
        <translation>AttnViz sessions (*.%1)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::StatisticsView</name>
    <message>
        <location filename="../../ui/classroom/statistics_view.cpp" line="+28"/>
        <source>Export Head Statistics</source>
        <translation>Export Head Statistics</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the statistics</source>
        <translation>Cannot export the statistics</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;Copy Table</source>
        <translation>&amp;Copy Table</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the table, tab-separated, to paste into a spreadsheet</source>
        <translation>Copy the table, tab-separated, to paste into a spreadsheet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport CSV…</source>
        <translation>E&amp;xport CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the table as a CSV file</source>
        <translation>Save the table as a CSV file</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What each head does, averaged over the query tokens. Click a column to sort; click a head to see it in the grid. Hover a column title for its meaning.</source>
        <translation>What each head does, averaged over the query tokens. Click a column to sort; click a head to see it in the grid. Hover a column title for its meaning.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based: each row of ‖α·f(x)‖ is measured as shares of its total, in place of the weights.</source>
        <translation>Norm-based: each row of ‖α·f(x)‖ is measured as shares of its total, in place of the weights.</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::StepsView</name>
    <message>
        <location filename="../../ui/classroom/steps_view.cpp" line="+117"/>
        <source>One layer</source>
        <translation>One layer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every step of one attention layer, for every token at once</source>
        <translation>Every step of one attention layer, for every token at once</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole model</source>
        <translation>Whole model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every step of the model at one token, from its embedding to the next token</source>
        <translation>Every step of the model at one token, from its embedding to the next token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>◀ Back</source>
        <translation>◀ Back</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous step (Left arrow)</source>
        <translation>Previous step (Left arrow)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next ▶</source>
        <translation>Next ▶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next step (Right arrow)</source>
        <translation>Next step (Right arrow)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head:</source>
        <translation>Head:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every step at once</source>
        <translation>Every step at once</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only this step and its inputs</source>
        <translation>Only this step and its inputs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the current step large, next to the matrices it is computed from (good for the back of the room)</source>
        <translation>Show the current step large, next to the matrices it is computed from (good for the back of the room)</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>All %1 steps</source>
        <translation>All %1 steps</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step %1 of %2</source>
        <translation>Step %1 of %2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Head %1 · key/value head %2</source>
        <translation>Head %1 · key/value head %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewTabs</name>
    <message>
        <location filename="../../ui/widgets/view_tabs.cpp" line="+350"/>
        <source>Heatmaps</source>
        <translation>Heatmaps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One heatmap per head, and their mean</source>
        <translation>One heatmap per head, and their mean</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Steps</source>
        <translation>Steps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The computation of one head, step by step</source>
        <translation>The computation of one head, step by step</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines</source>
        <translation>Lines</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines from each query token to each key token</source>
        <translation>Lines from each query token to each key token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Statistics</source>
        <translation>Statistics</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What each head does, in numbers</source>
        <translation>What each head does, in numbers</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Two configurations side by side</source>
        <translation>Two configurations side by side</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every map</source>
        <translation>Every map</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention from a token</source>
        <translation>Attention from a token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to a token</source>
        <translation>Attention to a token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One token&apos;s attention across every layer and head: where it looks (from), or which tokens look at it (to)</source>
        <translation>One token&apos;s attention across every layer and head: where it looks (from), or which tokens look at it (to)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token in focus</source>
        <translation>The token in focus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole text, largest weight</source>
        <translation>Whole text, largest weight</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole text, mean weight</source>
        <translation>Whole text, mean weight</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept maps</source>
        <translation>Kept maps</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The memory budget kept only some maps: show every layer and head over the whole text, pooled into squares by their largest or their mean weight, or the kept maps</source>
        <translation>The memory budget kept only some maps: show every layer and head over the whole text, pooled into squares by their largest or their mean weight, or the kept maps</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Compute every layer again (the memory budget may refuse it for this text)</source>
        <translation>Compute every layer again (the memory budget may refuse it for this text)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every layer and head of a trained model at once</source>
        <translation>Every layer and head of a trained model at once</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Head Atlas</source>
        <translation>Head Atlas</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What every head of a trained model does, in numbers</source>
        <translation>What every head of a trained model does, in numbers</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Logit Lens</source>
        <translation>Logit Lens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What a trained model predicts after each of its layers</source>
        <translation>What a trained model predicts after each of its layers</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Patching</source>
        <translation>Patching</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Activation patching: which heads carry what the corrupted text lost</source>
        <translation>Activation patching: which heads carry what the corrupted text lost</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Positions</source>
        <translation>Positions</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where attention goes over a whole text, however long: the attention each position receives, for every head</source>
        <translation>Where attention goes over a whole text, however long: the attention each position receives, for every head</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Circuits</source>
        <translation>Circuits</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Which heads work together: composition and copying scores from the weights alone (Elhage et al. 2021)</source>
        <translation>Which heads work together: composition and copying scores from the weights alone (Elhage et al. 2021)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Who Writes</source>
        <translation>Who Writes</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: direct logit attribution splits the logit of the next token into what each head, MLP and the embeddings wrote into the residual stream</source>
        <translation>Who writes the answer: direct logit attribution splits the logit of the next token into what each head, MLP and the embeddings wrote into the residual stream</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Queries &amp;&amp; Keys</source>
        <translation>Queries &amp;&amp; Keys</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every query and key of a head over a corpus, as dots in one plane (AttentionViz): its pattern as geometry</source>
        <translation>Every query and key of a head over a corpus, as dots in one plane (AttentionViz): its pattern as geometry</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Flow</source>
        <translation>Flow</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How information flows to a prediction: the routes through the heads and MLPs that matter most (information-flow routes, Ferrando &amp; Voita 2024)</source>
        <translation>How information flows to a prediction: the routes through the heads and MLPs that matter most (information-flow routes, Ferrando &amp; Voita 2024)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hide the explanation</source>
        <translation>Hide the explanation</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The explanation is about the example&apos;s text; the text is now your own.</source>
        <translation>The explanation is about the example&apos;s text; the text is now your own.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore the example&apos;s text</source>
        <translation>Restore the example&apos;s text</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold the explanation to its title, or unfold it</source>
        <translation>Fold the explanation to its title, or unfold it</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>layers 1–%1 of %2</source>
        <translation>layers 1–%1 of %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the means only</source>
        <translation>the means only</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads 1–%1 of %2</source>
        <translation>heads 1–%1 of %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept: %1. Show all</source>
        <translation>Kept: %1. Show all</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>, </source>
        <translation>, </translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WholeModelView</name>
    <message>
        <location filename="../../ui/classroom/whole_model_view.cpp" line="+145"/>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The token whose whole path through the model is shown</source>
        <translation>The token whose whole path through the model is shown</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold all</source>
        <translation>Fold all</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold every layer to one line (click a layer&apos;s header to open it)</source>
        <translation>Fold every layer to one line (click a layer&apos;s header to open it)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open all</source>
        <translation>Open all</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open every layer&apos;s steps</source>
        <translation>Open every layer&apos;s steps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperat&amp;ure:</source>
        <translation>Temperat&amp;ure:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add t&amp;o the text</source>
        <translation>Add t&amp;o the text</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Last token (default)</source>
        <translation>Last token (default)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>First [MASK] (default)</source>
        <translation>First [MASK] (default)</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>Divides the logits before the softmax: below 1 the likeliest token gains, above 1 the odds even out; 0 always takes the likeliest</source>
        <translation>Divides the logits before the softmax: below 1 the likeliest token gains, above 1 the odds even out; 0 always takes the likeliest</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all</source>
        <translation>all</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw only among the k likeliest tokens (all: no limit)</source>
        <translation>Draw only among the k likeliest tokens (all: no limit)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-&amp;p:</source>
        <translation>Top-&amp;p:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw only among the likeliest tokens whose probabilities add up to p</source>
        <translation>Draw only among the likeliest tokens whose probabilities add up to p</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same seed draws the same token; each draw moves to the next seed</source>
        <translation>The same seed draws the same token; each draw moves to the next seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Draw</source>
        <translation>&amp;Draw</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw the next token from these probabilities with this seed</source>
        <translation>Draw the next token from these probabilities with this seed</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>0 (greedy)</source>
        <translation>0 (greedy)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Append the drawn token to the text and trace the new last token</source>
        <translation>Append the drawn token to the text and trace the new last token</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Draw a token first</source>
        <translation>Draw a token first</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A masked language model fills in its [MASK]; it does not write on</source>
        <translation>A masked language model fills in its [MASK]; it does not write on</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only the last token&apos;s prediction continues the text: choose the last token</source>
        <translation>Only the last token&apos;s prediction continues the text: choose the last token</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WhyPanel</name>
    <message>
        <location filename="../../ui/model/why_panel.cpp" line="+107"/>
        <source>Why this attention?</source>
        <translation>Why this attention?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow the mouse</source>
        <translation>Follow the mouse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Explain the cell under the mouse as it moves (sweep along a stripe), not only the one Alt-clicked</source>
        <translation>Explain the cell under the mouse as it moves (sweep along a stripe), not only the one Alt-clicked</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF)</source>
        <translation>The figure (PNG, SVG, PDF)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the pane</source>
        <translation>Close the pane</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click a head&apos;s bar to show that head&apos;s map</source>
        <translation>Click a head&apos;s bar to show that head&apos;s map</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Alt-click a cell of a head&apos;s map: its score is split into what the query and the key hold.</source>
        <translation>Alt-click a cell of a head&apos;s map: its score is split into what the query and the key hold.</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Why this attention? needs the weights of the model that made these maps: maps read from a file hold the weights of attention, not what they were computed from. Open the model itself (File ▸ Open Model…).</source>
        <translation>Why this attention? needs the weights of the model that made these maps: maps read from a file hold the weights of attention, not what they were computed from. Open the model itself (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Open one (File ▸ Open Model…).</source>
        <translation>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Open one (File ▸ Open Model…).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Choose one in the Source box (built in: %1).</source>
        <translation>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Choose one in the Source box (built in: %1).</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+27"/>
        <source>Alt-click a cell of one head&apos;s map, not of the mean.</source>
        <translation>Alt-click a cell of one head&apos;s map, not of the mean.</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>The causal mask hides token %1 from token %2: a query never sees a later key, so that cell has no score to explain. Alt-click a cell on or below the diagonal.</source>
        <translation>The causal mask hides token %1 from token %2: a query never sees a later key, so that cell has no score to explain. Alt-click a cell on or below the diagonal.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>This map is not drawn cell by cell here: open the head&apos;s full map (right-click it, Open Full Map…) and Alt-click a cell there.</source>
        <translation>This map is not drawn cell by cell here: open the head&apos;s full map (right-click it, Open Full Map…) and Alt-click a cell there.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Explaining L%1H%2 at token %3 → token %4…</source>
        <translation>Explaining L%1H%2 at token %3 → token %4…</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+27"/>
        <source>Cannot explain this cell: %1</source>
        <translation>Cannot explain this cell: %1</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>No cell is explained yet: there is nothing to export.</source>
        <translation>No cell is explained yet: there is nothing to export.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the explanation</source>
        <translation>Cannot export the explanation</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the explanation</source>
        <translation>Export the explanation</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WindowActions</name>
    <message>
        <location filename="../../ui/widgets/window_actions.cpp" line="+51"/>
        <source>&amp;New Session</source>
        <translation>&amp;New Session</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Open Session…</source>
        <translation>&amp;Open Session…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save Session</source>
        <translation>&amp;Save Session</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save Session &amp;As…</source>
        <translation>Save Session &amp;As…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export Figure…</source>
        <translation>&amp;Export Figure…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export &amp;Weights…</source>
        <translation>Export &amp;Weights…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy Figure</source>
        <translation>&amp;Copy Figure</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Undo</source>
        <translation>&amp;Undo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Redo</source>
        <translation>&amp;Redo</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;All Heads</source>
        <translation>&amp;All Heads</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Mean over Heads</source>
        <translation>&amp;Mean over Heads</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+M</source>
        <translation>Ctrl+M</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next Head</source>
        <translation>&amp;Next Head</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+]</source>
        <translation>Ctrl+]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Previous Head</source>
        <translation>&amp;Previous Head</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+[</source>
        <translation>Ctrl+[</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Back to All Heads</source>
        <translation>&amp;Back to All Heads</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Reset Zoom</source>
        <translation>&amp;Reset Zoom</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Causal Mask</source>
        <translation>&amp;Causal Mask</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Training Mode</source>
        <translation>&amp;Training Mode</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Resample Dropout</source>
        <translation>&amp;Resample Dropout</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>C&amp;lear Masked Keys</source>
        <translation>C&amp;lear Masked Keys</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show Attention &amp;Weights</source>
        <translation>Show Attention &amp;Weights</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+W</source>
        <translation>Ctrl+Shift+W</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show &amp;Norm-Based Attention</source>
        <translation>Show &amp;Norm-Based Attention</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Weights</source>
        <translation>Weights</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Norm-based</source>
        <translation>Norm-based</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Load Weights…</source>
        <translation>&amp;Load Weights…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About AttnViz</source>
        <translation>&amp;About AttnViz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>About AttnViz</source>
        <translation>About AttnViz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;AttnViz %1&lt;/h3&gt;&lt;p&gt;Look inside multi-head attention: one heatmap per head, live masks, dropout and head counts, and figures for slides and papers.&lt;/p&gt;&lt;p&gt;Hover a cell to read it; click a head to enlarge it; click a token label to mask that key; scroll to zoom and drag to pan.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AttnViz %1&lt;/h3&gt;&lt;p&gt;Look inside multi-head attention: one heatmap per head, live masks, dropout and head counts, and figures for slides and papers.&lt;/p&gt;&lt;p&gt;Hover a cell to read it; click a head to enlarge it; click a token label to mask that key; scroll to zoom and drag to pan.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open &amp;Recent</source>
        <translation>Open &amp;Recent</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Edit</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Attention</source>
        <translation>&amp;Attention</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Main</source>
        <translation>Main</translation>
    </message>
    <message>
        <location line="+15"/>
        <source> Show: </source>
        <translation> Show: </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Sentence 1</source>
        <translation>Sentence 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sentence 2</source>
        <translation>Sentence 2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>All heads</source>
        <translation>All heads</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean over heads</source>
        <translation>Mean over heads</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1: for the demo layer only (choose “Demo layer” in the Source box); a trained model has its own mask and no dropout</source>
        <translation>%1: for the demo layer only (choose “Demo layer” in the Source box); a trained model has its own mask and no dropout</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Show the attention weights α: how much each query reads each key (%1)</source>
        <translation>Show the attention weights α: how much each query reads each key (%1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Norm-based maps need the model&apos;s values: attention maps read from a file hold only the weights</source>
        <translation>Norm-based maps need the model&apos;s values: attention maps read from a file hold only the weights</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show ‖α·f(x)‖ instead of α: how much each key&apos;s value actually moves the output (Kobayashi et al. 2020) (%1)</source>
        <translation>Show ‖α·f(x)‖ instead of α: how much each key&apos;s value actually moves the output (Kobayashi et al. 2020) (%1)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&amp;Heatmaps</source>
        <translation>&amp;Heatmaps</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Steps</source>
        <translation>&amp;Steps</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Lines</source>
        <translation>&amp;Lines</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>S&amp;tatistics</source>
        <translation>S&amp;tatistics</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compare</source>
        <translation>&amp;Compare</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Model</source>
        <translation>&amp;Model</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head &amp;Atlas</source>
        <translation>Head &amp;Atlas</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>E&amp;xamples</source>
        <translation>E&amp;xamples</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ZoomHeatmap</name>
    <message>
        <location filename="../../ui/widgets/zoom_heatmap.cpp" line="+134"/>
        <source>“%1” → “%2”: %3 (query %4, key %5)</source>
        <translation>“%1” → “%2”: %3 (query %4, key %5)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · this pixel: the largest of %1 × %1 cells, %2</source>
        <translation> · this pixel: the largest of %1 × %1 cells, %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · this pixel: the mean of %1 × %1 cells, %2</source>
        <translation> · this pixel: the mean of %1 × %1 cells, %2</translation>
    </message>
</context>
</TS>
