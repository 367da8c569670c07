<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AttentionConfig</name>
    <message>
        <location filename="../../ui/document/attention_config.cpp" line="+147"/>
        <source>words: a word&apos;s attention summed over its key pieces, averaged over its query pieces</source>
        <translation>按词显示：一个词的注意力对其作为键的各片段求和，对其作为查询的各片段取平均</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>special tokens hidden, each row rescaled to sum to 1</source>
        <translation>已隐藏特殊词元，每行重新归一化，和为 1</translation>
    </message>
    <message>
        <location filename="../../ui/compute/resolved_config.cpp" line="+38"/>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Padded batch</source>
        <translation>填充批次</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n 个头</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>embed_dim %1</source>
        <translation>嵌入维度 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>additive scoring</source>
        <translation>加性评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scaled dot-product</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no bias</source>
        <translation>无偏置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>causal</source>
        <translation>因果掩码</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n key(s) masked</source>
        <translation>
            <numerusform>%n 个键被掩码</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dropout %1 (train, seed %2)</source>
        <translation>Dropout %1（训练模式，种子 %2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dropout %1 (eval: off)</source>
        <translation>Dropout %1（评估模式：不生效）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>weights %1</source>
        <translation>权重 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>weight seed %1</source>
        <translation>权重种子 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no positional encoding</source>
        <translation>无位置编码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mean only</source>
        <translation>只显示平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first %1 of %2 heads kept</source>
        <translation>保留 %2 个头中的前 %1 个</translation>
    </message>
</context>
<context>
    <name>CircuitsFigure</name>
    <message>
        <location filename="../../ui/model/circuits_figure.cpp" line="+119"/>
        <source>%1-composition between heads, from the weights alone</source>
        <translation>头之间的 %1 组合：仅由权重算出</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 layers × %2 heads</source>
        <translation>%1 层 × %2 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the norms&apos; scales folded in</source>
        <translation>已并入归一化层的缩放</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotary: W_QK at query − key = %1</source>
        <translation>旋转位置编码：W_QK 取 查询 − 键 = %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Later head, reading with its queries</source>
        <translation>较晚的头，用查询读取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Later head, reading with its keys</source>
        <translation>较晚的头，用键读取</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later head, reading with its values</source>
        <translation>较晚的头，用值读取</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 has one layer: no head reads another head&apos;s output.</source>
        <translation>%1 只有一层：没有头会读取另一个头的输出。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Q-composition: how strongly the later head&apos;s queries read what the earlier head writes, ‖W_OV¹ W_QK²‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021).</source>
        <translation>Q 组合：较晚的头的查询在多大程度上读取较早的头写入的内容，‖W_OV¹ W_QK²‖ / (‖W_OV¹‖ ‖W_QK²‖)，仅由权重算出（Elhage 等，2021）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>K-composition: how strongly the later head&apos;s keys read what the earlier head writes, ‖W_OV¹ (W_QK²)ᵀ‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et al. 2021). An induction head&apos;s keys read what a previous-token head wrote.</source>
        <translation>K 组合：较晚的头的键在多大程度上读取较早的头写入的内容，‖W_OV¹ (W_QK²)ᵀ‖ / (‖W_OV¹‖ ‖W_QK²‖)，仅由权重算出（Elhage 等，2021）。归纳头的键读取的正是前一词元头写入的内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>V-composition: how strongly the later head&apos;s values read what the earlier head writes, ‖W_OV¹ W_OV²‖ / (‖W_OV¹‖ ‖W_OV²‖), from the weights alone (Elhage et al. 2021).</source>
        <translation>V 组合：较晚的头的值在多大程度上读取较早的头写入的内容，‖W_OV¹ W_OV²‖ / (‖W_OV¹‖ ‖W_OV²‖)，仅由权重算出（Elhage 等，2021）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Grey: pairs that cannot compose (the same layer, or a later layer into an earlier one). The colours run from the smallest to the largest score.</source>
        <translation>灰色：不能组合的头对（同一层，或由较晚的层到较早的层）。颜色从最小的分数排到最大的分数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The colours run from the smallest to the largest score.</source>
        <translation>颜色从最小的分数排到最大的分数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No copying scores: %1</source>
        <translation>没有复制分数：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copying score (the strips, −1 to +1): Σλ / Σ|λ| over the eigenvalues of W_E W_OV W_U; near +1 the head copies the token it attends to into the prediction.</source>
        <translation>复制分数（两条色带，−1 到 +1）：对 W_E W_OV W_U 的特征值求 Σλ / Σ|λ|；接近 +1 表示这个头把它关注的词元复制到预测中。</translation>
    </message>
    <message>
        <location line="+57"/>
        <location line="+330"/>
        <source>Earlier head, writing</source>
        <translation>较早的头，写入</translation>
    </message>
    <message>
        <location line="-328"/>
        <location line="+407"/>
        <source>Copying</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="-406"/>
        <source>%1-composition</source>
        <translation>%1 组合</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copying score</source>
        <translation>复制分数</translation>
    </message>
    <message>
        <location line="+220"/>
        <source>%1 → %2: no composition (a head reads only what the layers below it wrote)</source>
        <translation>%1 → %2：不组合（头只读取它下面各层写入的内容）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 → %2: %3-composition %4</source>
        <translation>%1 → %2：%3 组合 %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: no copying score (its W_OV is zero)</source>
        <translation>%1：没有复制分数（它的 W_OV 为零）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: copying score %2</source>
        <translation>%1：复制分数 %2</translation>
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
        <translation>灰度（打印）</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <location filename="../../ui/document/compare_config.cpp" line="+89"/>
        <source>Another layer or another sentence needs a trained model: open one with File ▸ Open Model.</source>
        <translation>比较另一层或另一个句子需要训练好的模型：用“文件 ▸ 打开模型”打开一个。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B&apos;s attention maps are compared with attention maps: open A&apos;s with File ▸ Open Attention Maps…</source>
        <translation>B 的注意力图只能与注意力图对比：请先用“文件 ▸ 打开注意力图…”打开 A 的注意力图。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Maps read from a file have no sentence to change: compare them with another file&apos;s maps instead.</source>
        <translation>从文件读取的注意力图没有可更改的句子：请改为与另一个文件的注意力图对比。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B&apos;s sentence is empty: type one, or compare the same sentence.</source>
        <translation>B 的句子为空：请输入一个，或比较同一个句子。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>B&apos;s %1 heads do not divide embed_dim %2: choose a head count that does, or change embed_dim.</source>
        <translation>B 的 %1 个头不能整除嵌入维度 %2：请选择能整除的头数，或修改嵌入维度。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no causal mask</source>
        <translation>无因果掩码</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>dropout %1 (training, seed %2)</source>
        <translation>Dropout %1（训练模式，种子 %2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>training, no dropout</source>
        <translation>训练模式，无 Dropout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no dropout (evaluation)</source>
        <translation>无 Dropout（评估模式）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>fully masked rows: %1</source>
        <translation>全被掩码的行：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>with bias</source>
        <translation>有偏置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>positional encoding</source>
        <translation>有位置编码</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/compare_model.cpp" line="+28"/>
        <source>%1 × %2 tokens are too many to compare (at most %3 cells): shorten the text.</source>
        <translation>%1 × %2 个词元太多，无法对比（最多 %3 个单元格）：请缩短文本。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A and B were computed for different inputs.</source>
        <translation>A 和 B 是针对不同的输入计算的。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>B has no head %1: it has %2 heads.</source>
        <translation>B 没有第 %1 个头：它有 %2 个头。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Nothing computed yet.</source>
        <translation>尚未计算。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>head 1</source>
        <translation>头 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>heads 1 to %1</source>
        <translation>头 1 至 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1 exists only in B: A has %2 heads. Compare the mean, or %3.</source>
        <translation>头 %1 只在 B 中存在：A 只有 %2 个头。请比较各头平均，或%3。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Head %1 exists only in A: B has %2 heads. Compare the mean, or %3.</source>
        <translation>头 %1 只在 A 中存在：B 只有 %2 个头。请比较各头平均，或%3。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Neither A nor B has a head %1. Compare the mean, or %2.</source>
        <translation>A 和 B 都没有头 %1。请比较各头平均，或%2。</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/compare_figure.cpp" line="+102"/>
        <source>Computing configuration B…</source>
        <translation>正在计算配置 B…</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Difference B − A</source>
        <translation>差值 B − A</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Comparing two configurations</source>
        <translation>对比两种配置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A and B are the same configuration</source>
        <translation>A 和 B 是同一种配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1  vs  %2</source>
        <translation>%1  对比  %2</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+27"/>
        <source>mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <location line="-27"/>
        <location line="+28"/>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>sentence %1</source>
        <translation>句子 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>norm-based ‖α·f(x)‖</source>
        <translation>基于范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A = %1</source>
        <translation>A = %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>B = A: choose what B changes</source>
        <translation>B = A：请选择 B 要改动的设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B = A with %1; everything else the same</source>
        <translation>B = A，但改为%1；其余完全相同</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A&apos;s sentence has %1 tokens and B&apos;s %2: compared position by position, the positions only one has are blank.</source>
        <translation>A 的句子有 %1 个词元，B 的有 %2 个：按位置逐个比较，只有一方有词元的位置留空。</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>B&apos;s tokens differ from A&apos;s at %n position(s): compared position by position.</source>
        <translation>
            <numerusform>B 的词元有 %n 处与 A 不同：按位置逐一对比。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No cell has a weight in both A and B.</source>
        <translation>没有任何单元格在 A 和 B 中都有权重。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A and B give exactly the same weights here.</source>
        <translation>在这里 A 和 B 的权重完全相同。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Largest change %1 at “%2” → “%3”   ·   mean |B − A| %4</source>
        <translation>最大变化 %1，在“%2”→“%3”   ·   平均 |B − A| %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Largest change: %1 (from %2 to %3) at query “%4”, key “%5”</source>
        <translation>最大变化：%1（从 %2 变为 %3），在查询“%4”、键“%5”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>mean |B − A| = %1 over %2 cells</source>
        <translation>%2 个单元格的平均 |B − A| = %1</translation>
    </message>
    <message>
        <location line="+52"/>
        <location line="+320"/>
        <source>%1 (B lower)</source>
        <translation>%1（B 更低）</translation>
    </message>
    <message>
        <location line="-319"/>
        <location line="+320"/>
        <source>%1 (B higher)</source>
        <translation>%1（B 更高）</translation>
    </message>
    <message>
        <location line="-318"/>
        <location line="+312"/>
        <source>A and B:</source>
        <translation>A 和 B：</translation>
    </message>
    <message>
        <location line="-309"/>
        <location line="+304"/>
        <source>masked</source>
        <translation>已掩码</translation>
    </message>
    <message>
        <location line="-303"/>
        <location line="+312"/>
        <source>B − A:</source>
        <translation>B − A：</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>%1 (masked)</source>
        <translation>%1（已掩码）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>“%1” → “%2” %3</source>
        <translation>“%1” → “%2” %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no token here</source>
        <translation>此处没有词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A: %1   ·   B: %2</source>
        <translation>A：%1   ·   B：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A: “%1” → “%2” %3   ·   B: “%4” → “%5” %6   ·   B − A %7</source>
        <translation>A：“%1” → “%2” %3   ·   B：“%4” → “%5” %6   ·   B − A %7</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>query “%1” → key “%2”:   A %3   ·   B %4   ·   B − A %5</source>
        <translation>查询“%1”→ 键“%2”：   A %3   ·   B %4   ·   B − A %5</translation>
    </message>
</context>
<context>
    <name>Compute</name>
    <message>
        <location filename="../../ui/compute/compute_controller.cpp" line="+95"/>
        <source>Running the attention layer…</source>
        <translation>正在运行注意力层…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Layer %1 of %2</source>
        <translation>第 %1 层，共 %2 层</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Preparing heatmaps…</source>
        <translation>正在准备热力图…</translation>
    </message>
    <message>
        <location line="+24"/>
        <location filename="../../ui/compute/background_job.cpp" line="+49"/>
        <source>An unexpected error stopped the computation.</source>
        <translation>一个意外的错误中止了计算。</translation>
    </message>
    <message>
        <location line="+152"/>
        <source>This needs %1, more than the memory budget of %2, so nothing was computed. Keep fewer heads&apos; weights or a window of the tokens (above the heatmaps), or raise the budget.</source>
        <translation>这需要 %1，超过了 %2 的内存预算，因此没有进行计算。请（在热力图上方）只保留部分头的权重或一个词元窗口，或者提高预算。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The computation was cancelled.</source>
        <translation>计算已取消。</translation>
    </message>
    <message>
        <location filename="../../ui/compute/attention_snapshot.cpp" line="+542"/>
        <location filename="../../ui/compute/model_snapshot.cpp" line="+44"/>
        <source>There are no tokens: type a sentence.</source>
        <translation>没有词元：请输入一个句子。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The second sentence has no tokens.</source>
        <translation>第二个句子没有词元。</translation>
    </message>
    <message>
        <location line="-173"/>
        <source>%1 does not fit this layer (embed_dim %2, %3 heads): %4</source>
        <translation>%1 与当前注意力层不匹配（嵌入维度 %2，%3 个头）：%4</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>The attention scores overflow the range of float (are the layer&apos;s weights far too large?): the weights would be NaN, so none are drawn.</source>
        <translation>注意力分数超出了 float 的范围（该层的权重是否过大？）：权重会是 NaN，因此不予绘制。</translation>
    </message>
    <message>
        <location filename="../../ui/compute/model_snapshot.cpp" line="+37"/>
        <source>The window holds special tokens only: with special tokens hidden there is nothing to show. Move the window, or show special tokens.</source>
        <translation>窗口内只有特殊词元：隐藏特殊词元后没有可显示的内容。请移动窗口，或显示特殊词元。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every token is a special token: with special tokens hidden there is nothing to show.</source>
        <translation>所有词元都是特殊词元：隐藏特殊词元后没有可显示的内容。</translation>
    </message>
    <message>
        <location line="+221"/>
        <source>Layer %1, head %2 is knocked out, but %3 has %4 layers of %5 heads: restore it.</source>
        <translation>第 %1 层第 %2 个头已被敲除，但 %3 只有 %4 层、每层 %5 个头：请恢复它。</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Predictions are shown for texts of up to %1 tokens; this one has %2.</source>
        <translation>预测只针对最多 %1 个词元的文本显示；这段文本有 %2 个。</translation>
    </message>
    <message>
        <location line="+331"/>
        <source>%1: no tokens file was given and there is no tokens.json beside it</source>
        <translation>%1：未给出词元文件，旁边也没有 tokens.json</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>Predictions and knocked-out heads need the model itself: maps read from a file hold only its attention.</source>
        <translation>预测和敲除注意力头需要模型本身：从文件读取的注意力图只含其注意力。</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>%1: token %2&apos;s offsets [%3, %4] are past the end of &quot;input&quot; (%5 characters)</source>
        <translation>%1：第 %2 个词元的偏移 [%3, %4] 超出了 &quot;input&quot; 的末尾（%5 个字符）</translation>
    </message>
</context>
<context>
    <name>Corpus</name>
    <message>
        <location filename="../../ui/document/corpus_data.cpp" line="+111"/>
        <source>the corpus is damaged (%1)</source>
        <translation>语料已损坏（%1）</translation>
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
        <translation>第 %1 层 · 头 %2（%3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>%1 has no language-model head: there is no logit whose parts could be shown.</source>
        <translation>%1 没有语言模型头：没有可以拆分成各部分的 logit。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 is a post-norm model: a norm sits between its blocks, so its residual stream is no sum of what the heads and MLPs write, and no part&apos;s share of a logit can be read off. Direct logit attribution needs a pre-norm model (GPT-2, Llama, Qwen).</source>
        <translation>%1 是后归一化（post-norm）模型：它的各个块之间隔着一层归一化，所以残差流并不是各个头和 MLP 所写内容的总和，也就读不出每个部分在 logit 中所占的份额。直接 logit 归因需要前归一化（pre-norm）模型（GPT-2、Llama、Qwen）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is a masked language model: direct logit attribution reads the next-token logit of a causal model.</source>
        <translation>%1 是掩码语言模型：直接 logit 归因读取的是因果模型对下一个词元的 logit。</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>Who writes the answer: direct logit attribution</source>
        <translation>谁写出答案：直接 logit 归因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: logit %1 − logit %2</source>
        <translation>谁写出答案：logit %1 − logit %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: the logit of %1</source>
        <translation>谁写出答案：%1 的 logit</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1, the intact model&apos;s top prediction there</source>
        <translation>%1（完整模型在此处的首选预测）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, the model&apos;s top prediction there</source>
        <translation>%1（模型在此处的首选预测）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · “%2” · at token %3 %4 · target %5</source>
        <translation>%1 · “%2” · 第 %3 个词元 %4 处 · 目标 %5</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · knocked out: %1</source>
        <translation> · 已敲除：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads (Σ)</source>
        <translation>所有头（Σ）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention biases (Σ)</source>
        <translation>注意力偏置（Σ）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MLPs (Σ)</source>
        <translation>MLP（Σ）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constant</source>
        <translation>常数项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The crossed-out heads are knocked out: the parts are those of the model without them, and add up to its logit.</source>
        <translation>每个格子是一个头在这个词元处写入 logit 的量，经最终归一化读出，其缩放固定为整个残差流的值（× %1）：红色抬高 logit，蓝色压低 logit。打叉的头已被敲除：各部分都是去掉这些头之后的模型的，加起来正是它的 logit。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each cell is what one head writes into the logit at this token, read through the final norm at its scale for the whole stream (× %1): red raises the logit, blue lowers it. The parts add up to the model&apos;s own logit.</source>
        <translation>每个格子是一个头在这个词元处写入 logit 的量，经最终归一化读出，其缩放固定为整个残差流的值（× %1）：红色抬高 logit，蓝色压低 logit。各部分加起来正是模型自己的 logit。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Layer %1 · head %2 is knocked out by zeros: it writes nothing.</source>
        <translation>第 %1 层 · 头 %2 已被置零敲除：它什么也不写入。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Layer %1 · head %2 by source token: %3</source>
        <translation>第 %1 层 · 头 %2 按来源词元：%3</translation>
    </message>
    <message>
        <location line="+76"/>
        <location line="+24"/>
        <location line="+212"/>
        <location line="+4"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="-239"/>
        <location line="+24"/>
        <location line="+4"/>
        <location line="+199"/>
        <source>Bias</source>
        <translation>偏置</translation>
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
        <translation>各部分之和 = 总计 %1</translation>
    </message>
    <message>
        <location line="-199"/>
        <source>Layer %1 · attention-output bias: %2 of the total %3</source>
        <translation>第 %1 层 · 注意力输出偏置：贡献 %2（总计 %3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · MLP: %2 of the total %3</source>
        <translation>第 %1 层 · MLP：贡献 %2（总计 %3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · head %2, knocked out (%3): %4 of the total %5</source>
        <translation>第 %1 层 · 头 %2，已敲除（%3）：贡献 %4（总计 %5）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Layer %1 · head %2: %3 of the total %4</source>
        <translation>第 %1 层 · 头 %2：贡献 %3（总计 %4）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its largest source tokens:</source>
        <translation>贡献最大的来源词元：</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+8"/>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <location line="+134"/>
        <source>Σ parts %1 ≠ total %2</source>
        <translation>各部分之和 %1 ≠ 总计 %2</translation>
    </message>
</context>
<context>
    <name>EngineError</name>
    <message>
        <location filename="../../ui/compute/error_text.cpp" line="+29"/>
        <source>no such file or folder</source>
        <translation>没有这个文件或文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it is a folder</source>
        <translation>这是一个文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a part of the path is not a folder</source>
        <translation>路径中有一部分不是文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the name is too long</source>
        <translation>名称太长</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot open “%1”: %2.</source>
        <translation>无法打开“%1”：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: %2.</source>
        <translation>无法读取“%1”：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write “%1”: %2.</source>
        <translation>无法写入“%1”：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read the folder “%1”: %2.</source>
        <translation>无法读取文件夹“%1”：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: it is not a regular file.</source>
        <translation>无法读取“%1”：它不是普通文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>“%1” is empty (0 bytes), not a %2 file.</source>
        <translation>“%1”是空的（0 字节），不是 %2 文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot read “%1”: it is larger than the %2 limit.</source>
        <translation>无法读取“%1”：它超过了 %2 的上限。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot read “%1”: it is %2, more than the %3 limit.</source>
        <translation>无法读取“%1”：它有 %2，超过了 %3 的上限。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The text is %1 tokens, more than the %2 positions of %3.</source>
        <translation>文本有 %1 个词元，超过了 %3 的 %2 个位置。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The text and its continuation are %1 tokens, more than the %2 positions of %3.</source>
        <translation>文本及其续写共有 %1 个词元，超过了 %3 的 %2 个位置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The text is empty.</source>
        <translation>文本为空。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The text gives no tokens.</source>
        <translation>文本没有产生任何词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Token id %1 is outside the %2-token vocabulary of %3.</source>
        <translation>词元编号 %1 超出了 %3 的词表（共 %2 个词元）。</translation>
    </message>
</context>
<context>
    <name>Examples</name>
    <message>
        <location filename="../../ui/classroom/examples.cpp" line="+59"/>
        <source>What the head count does</source>
        <translation>头数的作用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same sentence and embed_dim 64, split into %1. Each head gets 64 / heads dimensions for its queries and keys, and its own W_Q, W_K, W_V. With more heads, each head is smaller, but the layer can attend to several things at once: compare the heads&apos; patterns, and open Statistics to see how differently they spread their attention.</source>
        <translation>同一个句子、同样的嵌入维度 64，分成 %1。每个头的查询和键各有 64 / 头数 维，并有自己的 W_Q、W_K、W_V。头越多，每个头越小，但该层可以同时关注好几样东西：比较各个头的模式，并打开“统计”看看它们分配注意力的方式有多不同。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Self-attention: “The cat sat on the mat”</source>
        <translation>自注意力：“The cat sat on the mat”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every token is a query, a key and a value. Step through the computation: each token&apos;s query is compared with every token&apos;s key (QKᵀ), the scores are scaled by √d_k and turned into weights by a softmax along each row, and each token&apos;s output is the weighted average of the values. Use the arrow keys to step; hover a cell to see where it came from.</source>
        <translation>每个词元既是查询，也是键和值。逐步查看计算过程：每个词元的查询与所有词元的键比较（QKᵀ），分数除以 √d_k 进行缩放，再对每行做 softmax 得到权重，每个词元的输出就是各个值的加权平均。用方向键逐步前进；鼠标悬停在单元格上可以看到它从何而来。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Padding mask: a batch of two sentences</source>
        <translation>填充掩码：由两个句子组成的批次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sentences in a batch must have the same length, so the shorter one is padded with [PAD] tokens. The key padding mask adds −∞ to the scores of the padding keys, so after the softmax they get exactly zero weight (hatched cells). Switch between the two sentences in the toolbar: the longer one needs no mask at all.</source>
        <translation>同一批次中的句子长度必须相同，因此较短的句子用 [PAD] 词元填充。键填充掩码给填充键的分数加上 −∞，softmax 之后它们的权重恰好为 0（带斜线的单元格）。在工具栏中切换两个句子：较长的句子根本不需要掩码。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Causal mask: a language model reads left to right</source>
        <translation>因果掩码：语言模型从左往右读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A language model predicting the next word may not look ahead. The causal mask hides every key after the query (the upper triangle), so the first token can only attend to itself and each row spreads its weight over the tokens so far. Press Ctrl+K to switch the mask off and on.</source>
        <translation>预测下一个词的语言模型不能偷看后面的内容。因果掩码遮住查询之后的所有键（上三角），所以第一个词元只能关注它自己，每一行只把权重分配给到目前为止的词元。按 Ctrl+K 可以关闭或打开掩码。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cross-attention: English → Chinese</source>
        <translation>交叉注意力：英文 → 中文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In a translation model the decoder&apos;s tokens (queries) attend to the encoder&apos;s tokens (keys and values) of the other sentence. The matrix is no longer square: one row per English token, one column per Chinese token. The lines show where each query looks; hover a token to see only its lines. (The weights are random, not trained: the alignment is not meaningful, the mechanics are.)</source>
        <translation>在翻译模型中，解码器的词元（查询）关注编码器中另一个句子的词元（键和值）。矩阵不再是方阵：每个英文词元一行，每个中文词元一列。连线显示每个查询关注哪里；鼠标悬停在某个词元上只显示它的连线。（权重是随机的，未经训练：对齐关系没有意义，有意义的是计算机制。）</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>1 head</source>
        <translation>1 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>2 heads</source>
        <translation>2 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>4 heads</source>
        <translation>4 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>8 heads</source>
        <translation>8 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout in training mode</source>
        <translation>训练模式下的 Dropout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>During training, dropout sets each attention weight to zero with probability p (here 0.3) and scales the others by 1/(1 − p), so rows no longer sum to exactly 1. The seed fixes which weights are dropped: press Ctrl+R to draw a new sample, and switch training mode off (Ctrl+T) to see the weights the model uses at inference.</source>
        <translation>训练时，Dropout 以概率 p（这里是 0.3）把每个注意力权重置为 0，并把其余权重乘以 1/(1 − p)，因此每行之和不再恰好为 1。随机种子决定哪些权重被丢弃：按 Ctrl+R 重新采样，关闭训练模式（Ctrl+T）即可看到模型推理时使用的权重。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Comparing: without and with the causal mask</source>
        <translation>对比：无因果掩码与有因果掩码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same sentence and the same weights twice: A attends to every token, B only to the tokens so far. The third map is B − A: red where B gives more weight, blue where it gives less. The weight B may not put on later tokens (hatched) goes to the earlier ones, so the first rows change most and the last row not at all. Try the other comparisons above the figure.</source>
        <translation>同一个句子、同一组权重算两次：A 关注所有词元，B 只关注到目前为止的词元。第三张图是 B − A：红色表示 B 给的权重更多，蓝色表示更少。B 不能放在后面词元（斜线）上的权重转移到了前面的词元上，所以前几行变化最大，最后一行完全不变。也可以试试图上方的其他对比。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Learned heads: every head of a trained model</source>
        <translation>学到的注意力头：一个训练好的模型的所有头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A 2-layer, attention-only model that AttnViz trained on English fortunes (built in: nothing to download), on a string it has never seen, said twice. Each thumbnail is one head. In layer 1, some heads look at the previous character: the stripe just left of the diagonal. In layer 2, induction heads look from each character of the second copy to the one that followed it in the first: the stripe in the lower left. Click a thumbnail to open that head; choose Demo layer in the Source box to compute one random layer step by step.</source>
        <translation>一个只有两层注意力的模型，由 AttnViz 在英文 fortune 语录上训练（已内置，无需下载），输入一串它从未见过的字符，重复两遍。每个缩略图是一个头。第 1 层中，有些头看向前一个字符：紧贴对角线左侧的那条亮带。第 2 层中，归纳头从第二遍的每个字符看向第一遍里紧跟在同一字符后面的那个字符：左下方的那条亮带。点击缩略图即可打开该头；在“来源”框中选择“演示层”，可逐步计算一个随机权重的注意力层。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A string of random characters, said twice. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. It finds the same character earlier and copies what came next, which is how a model continues a pattern it has just seen, even one it never saw in training. It only works with a previous-token head in layer 1 before it. Uniform attention would give that cell about 1/L. On repeated ordinary English this small model relies on other heads, so its induction heads are fainter there; try your own string.</source>
        <translation>一串随机字符，重复两遍。在第二遍中，这个第 2 层的头从每个字符看向第一遍里紧跟在同一字符后面的那个字符：与对角线平行的那条亮带。它在前文找到同一个字符，并照搬后面出现的内容——模型就是这样延续刚刚见过的模式的，即使这个模式在训练中从未出现过。它要靠第 1 层中的“前一个词元”头才能起作用。均匀注意力在那个格子上只有约 1/L。对于重复的普通英文句子，这个小模型更多依靠其他头，所以归纳头在那里较弱；也可以输入你自己的字符串试试。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Activation patching: find the induction head</source>
        <translation>激活修补：找出归纳头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activation patching asks which head carries a piece of information. The clean text is a random string said twice, cut before its last character: after “1” the first copy had “^”, so the model predicts “^”. The corrupted text differs in one character, the first copy&apos;s “^” became “x”, so the model predicts “x”. Each head in turn runs on the corrupted text with its output taken from the clean run, and the map shows how much of logit(“^”) − logit(“x”) comes back: 1 is all of it, 0 nothing. Layer 2 head 8, the induction head, restores about three quarters on its own; every other head less than a tenth. Click a head to see its attention on both texts: head 8 looks from the last “1” to the character after the first “1”.</source>
        <translation>激活修补回答的问题是：哪个头携带了某条信息。干净文本是一串随机字符重复两遍，在最后一个字符前截断：第一遍中“1”后面是“^”，所以模型预测“^”。损坏文本只差一个字符：第一遍的“^”变成了“x”，于是模型预测“x”。每个头依次在损坏文本上运行，但其输出取自干净文本的运行，图中显示 logit(“^”) − logit(“x”) 恢复了多少：1 表示全部恢复，0 表示毫无恢复。第 2 层第 8 个头（归纳头）单独就恢复了约四分之三，其余每个头都不到十分之一。点击一个头，可并排查看它在两段文本上的注意力：第 8 个头从最后一个“1”看向第一个“1”之后的那个字符。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Watch it write</source>
        <translation>看它续写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A random string, said once and begun again. The model continued it one character at a time (Write with the model, on the left), and Play replays that: each new character is the model&apos;s top guess, drawn in orange, and its row of this layer-2 head is where it looked while choosing it, the character after the same one in the first copy. The map grows a row a step; drag the slider to see any step. Knock out this head (right-click it), drag the slider back to 0 and press Continue: the copying stops.</source>
        <translation>一串随机字符，说了一遍又从头开始。模型一次一个字符地续写了它（左侧“让模型续写”），“播放”会重演这个过程：每个新字符都是模型的首选猜测，以橙色显示；这个第 2 层的头在它那一行的注意力，就是模型选这个字符时看的地方——第一遍中同一字符之后的那个字符。热力图每步长出一行；拖动滑块可查看任意一步。敲除这个头（右键单击它），把滑块拖回 0 再按“续写”：照抄就停止了。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Watch it write, in Chinese</source>
        <translation>看它用中文续写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said once and begun again, in the bilingual 2-layer model. Play replays how it wrote the rest of the second copy, one character at a time, in orange: each new row of this layer-2 head looks at the character that followed the same one the first time. Drag the slider to see any step; Continue writes more, and Keep makes the text yours.</source>
        <translation>三十个常用汉字随机排列，说了一遍又从头开始，用双语两层模型。“播放”会重演它如何一次一个字地写完第二遍（橙色）：这个第 2 层的头每新增的一行，都看向第一遍中同一个字之后的那个字。拖动滑块可查看任意一步；“续写”会写得更多，“保留”把文本变成你的。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Knock out the induction heads</source>
        <translation>敲除归纳头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty random letters and digits, said twice. The strip under the maps shows the model&apos;s top guess after each character, green where it is the character that follows, and the loss under it. The intact model guesses the second copy right character by character (29 of 29, a loss of 0.25 nats/token). Here layer 2&apos;s three induction heads, 4, 5 and 8, are knocked out (their output set to zero): without the heads that look back at what followed the same character the first time, the model cannot continue the string and gets none of the second copy right (a loss of 4.5). The Predictions box shows each guess before → after. Right-click head 8 and restore it: alone, it brings back all 29.</source>
        <translation>三十个随机字母和数字，重复两遍。热力图下方的条带显示模型在每个字符之后的首选猜测：猜中下一个字符时为绿色，下方是该处的损失。完整的模型逐字猜对第二遍（29 个中猜对 29 个，损失 0.25 奈特/词元）。这里敲除了第 2 层的三个归纳头 4、5 和 8（输出置零）：没有了回看同一字符上次之后出现什么的头，模型无法延续这串字符，第二遍一个也猜不对（损失 4.5）。“预测”框显示每个猜测的前 → 后。右键点击头 8 并恢复它：单靠它就能找回全部 29 个。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Knock out the induction heads in Chinese</source>
        <translation>敲除中文里的归纳头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said twice, in the bilingual attention-only model. The intact model guesses all 29 of the second copy&apos;s characters that it can (a loss of 0.39 nats/token). With layer 2&apos;s induction heads 4, 5 and 8 knocked out it gets none (a loss of 6.7): the strip under the maps turns grey and red, and the Predictions box shows each guess before → after. Head 8 carries most of it: right-click it and restore it, and 28 come back; knocked out on its own, it leaves only 10.</source>
        <translation>三十个常用汉字随机排列，重复两遍，用双语纯注意力模型。完整的模型猜对第二遍中所有能猜的 29 个字（损失 0.39 奈特/词元）。敲除第 2 层的归纳头 4、5 和 8 后，一个也猜不对（损失 6.7）：热力图下方的条带变为灰色和红色，“预测”框显示每个猜测的前 → 后。头 8 承担了大部分：右键点击并恢复它，就能找回 28 个；单独敲除它，只剩 10 个猜对。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>What the model predicts: the logit lens</source>
        <translation>模型预测什么：Logit 透镜</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the 2-layer model would predict after each character if it stopped after layer 1, and after layer 2, its output: each row reads the residual stream through the model&apos;s own output head. Each cell is the most likely next character, coloured by its probability, framed where it is the character that actually follows. Layer 1 alone is right 19 times of 60, mostly on pairs such as “a” → “n” and “d” → space; with layer 2 the model is right 30 times, and in the second “early” it copies what followed the first. Hover a cell for its top 5.</source>
        <translation>两层模型如果在第 1 层之后停下、以及在第 2 层之后（即它的输出），会在每个字符之后预测什么：每一行都通过模型自己的输出头读取残差流。每个单元格是最可能的下一个字符，颜色表示其概率，真正紧随其后的字符加框。仅第 1 层在 60 次中猜对 19 次，多为“a”→“n”、“d”→空格这样的组合；加上第 2 层，模型猜对 30 次，在第二个“early”中它照搬了第一个之后的字符。悬停在单元格上可查看前 5 名。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>What the model predicts in Chinese: the logit lens</source>
        <translation>模型用中文预测什么：Logit 透镜</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wang Zhihuan&apos;s “On the Stork Tower” in the 4-layer model trained on Chinese poems and English text. Each row reads the residual stream after one layer through the model&apos;s output head: the most likely next character, coloured by its probability, framed where it is the one that follows; the last row is the model&apos;s output. The model knows the verse&apos;s form better than its words: at the end of three of the four lines it expects the comma or the full stop from layer 1 on, while of the words only 千 → 里 is right, from layer 2 on. Hover a cell for its top 5.</source>
        <translation>王之涣的《登鹳雀楼》，用在中文诗歌和英文文本上训练的四层模型。每一行通过模型的输出头读取某一层之后的残差流：最可能的下一个字，颜色表示其概率，真正紧随其后的字加框；最后一行是模型的输出。模型对诗的格式比对字词更熟悉：四句中有三句的句末，从第 1 层起就预料到逗号或句号；而字词中只有“千”→“里”猜对，从第 2 层起。悬停在单元格上可查看前 5 名。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>How a model writes one token</source>
        <translation>模型如何写出一个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The 4-layer model AttnViz trained on Chinese and English text, at the last character of “Thank yo”, from top to bottom: the character&apos;s embedding plus its position; in each layer the norm, the queries, keys and values, the attention over the characters so far, the output projection added to the residual stream, and the MLP (up, GELU, down) added again; then the final norm, the logits and the softmax, which gives “u” 94%. Click a layer&apos;s header to open or fold it, hover a cell for its value. Press Draw, then Add to the text: the model writes on, one character at a time.</source>
        <translation>AttnViz 用中英文文本训练的 4 层模型，停在“Thank yo”的最后一个字符上，从上到下依次是：该字符的嵌入加上它的位置；每一层中的归一化，查询、键和值，对此前各字符的注意力，加回残差流的输出投影，以及再加回一次的 MLP（升维、GELU、降维）；最后是最终归一化、logits 和 softmax，给出“u”94%。点击某层的标题可以展开或折叠它，把鼠标停在格子上可以看到数值。按“抽取”，再按“添加到文本”：模型就会一个字符一个字符地续写下去。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The same model after “Once upon a ti”: the next letter is open, “m” 20%, “n” 18%, “t” 13%, “s” 13%. The temperature divides the logits before the softmax. At 0 the model always takes “m”; at 0.5 “m” and “n” have 58% between them; at 2 the four share only 31% and rare letters get their chance. Top-k draws only among the k likeliest letters, top-p among the likeliest until their probabilities reach p. Press Draw a few times at each setting: each seed draws one letter.</source>
        <translation>同一个模型，停在“Once upon a ti”之后：下一个字母并不确定，“m”20%，“n”18%，“t”13%，“s”13%。softmax 之前先把 logits 除以温度。温度为 0 时模型总是选“m”；温度为 0.5 时“m”和“n”合计占 58%；温度为 2 时这四个字母合计只占 31%，少见的字母也有了机会。Top-k 只在最可能的 k 个字母中抽取，top-p 只在概率累计达到 p 的那些最可能的字母中抽取。在每种设置下多按几次“抽取”：每个种子抽出一个字母。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why the induction head looks there</source>
        <translation>归纳头为什么看那里</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A random string said once and begun again. Layer 2 head 8 looks from the last “P” (query 47) to key 18, the “8” that followed the first “P” (weight 0.92). Alt-click that cell, the bright one in the last row: the pane that opens splits its score, 30.7, into pairs of what the query and the key read. The largest, a third, is the query&apos;s own character with what the previous-token head L1H4 wrote at the key. That is K-composition: L1H4 tells each key which character came before it, so L2H8 finds the one after the same character; the Circuits tab shows it in the weights.</source>
        <translation>一串随机字符，说完一遍又从头开始。第 2 层第 8 个头从最后一个“P”（查询 47）看向第 18 个键，即第一次出现的“P”后面的“8”，权重为 0.92。Alt+单击这个格子，也就是最后一行里亮的那一格：打开的窗格把它的分数 30.7 拆成查询与键各自读到的内容两两组合。最大的一项约占三分之一，是查询自身的字符与前一词元头 L1H4 在该键处写入的内容。这就是 K 组合：L1H4 告诉每个键它前面是哪个字符，L2H8 因此能找到同一个字符后面的那个字符；“回路”标签页在权重中显示了这一点。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Which heads write the answer</source>
        <translation>哪些头写出了答案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same string, at its last “P”: the model&apos;s top guess is “8”, which followed “P” the first time. Who Writes splits the logit of “8”, 9.03, into what each head adds to the residual stream, read through the model&apos;s output head. The induction head L2H8 writes 5.71 of it, more than all the other heads together; almost all of that comes from its weight on the “8” after the first “P”. Right-click its cell and choose Knock Out (Zero): its share vanishes, and the logit of “8” falls to 3.04. Restore it from the same menu.</source>
        <translation>同一串字符，在最后一个“P”处：模型的首选猜测是“8”，也就是第一次时“P”后面的字符。“谁写出答案”标签页把“8”的 logit 9.03 拆成每个头写入残差流、再经模型输出头读出的部分。归纳头 L2H8 写入了其中的 5.71，比其他所有头加起来还多；这几乎全部来自它放在第一个“P”后面那个“8”上的权重。右键单击它的格子，选择“敲除（置零）”：它的份额随之消失，“8”的 logit 降到 3.04。在同一个菜单里可以恢复它。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>How information flows</source>
        <translation>信息如何流动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same string as a graph: layers are rows, tokens are columns, and a line joins two streams where one carries much of what the other becomes in the next layer. From the last “P”, the strong path runs in layer 2 to the “8” after the first “P”, and in layer 1 from that “8” to the “P” before it: the previous-token head, then the induction head. Move the threshold to see fewer or more edges.</source>
        <translation>把同一串字符画成图：每一行是一层，每一列是一个词元；如果一个流携带了另一个流在下一层所得内容的很大一部分，就用一条线把两者连起来。从最后一个“P”出发，强路径在第 2 层通向第一个“P”后面的“8”，在第 1 层又从这个“8”通向它前面的“P”：先是前一词元头，再是归纳头。移动阈值滑块，可以看到更少或更多的边。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Heads across a corpus</source>
        <translation>跨语料看注意力头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The 2-layer model over 390 fortunes it never saw in training, one pass per text: each cell is now a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 is a previous-token head on nearly every text: 0.498 of a query&apos;s weight goes to the character before it (0.495 to 0.501), and 98% of the texts agree. English prose repeats little, so induction scores are low, yet layer 2 head 8 stands out: 0.189 (0.183 to 0.195), nearly twice any other head. Click a head for its top examples; double-click one to open its text.</source>
        <translation>这个 2 层模型在 390 条训练时从未见过的 fortune 语录上各跑一遍：现在每个格子是一项指标在所有文本上的平均值，须线是它的 95% 置信区间。第 1 层的头 4 几乎在每条文本上都是“前一个词元”头：一个查询 0.498 的权重落在它前面的那个字符上（0.495 到 0.501），98% 的文本都符合。英文散文很少重复，所以归纳分数都不高，但第 2 层的头 8 仍然突出：0.189（0.183 到 0.195），几乎是其他任何头的两倍。单击一个头可查看它的典型例子；双击某个例子即可打开那条文本。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Heads across a corpus, in Chinese</source>
        <translation>跨语料看注意力头（中文）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bilingual 2-layer model over 254 Tang poems, Song lyrics and other Chinese texts it never saw in training. Each cell is a measure&apos;s mean over the texts, its whiskers the 95% interval. Layer 1 head 4 looks at the character before the query: 0.659 of the weight (0.654 to 0.664), and every text agrees. Poems repeat characters, and layer 2&apos;s induction heads show it: head 4 scores 0.394 (0.380 to 0.408), head 5 0.363, head 7 0.319. Queries &amp; Keys shows where head 4&apos;s queries and keys lie.</source>
        <translation>这个中英双语的 2 层模型，跑在 254 篇训练时从未见过的唐诗、宋词和其他中文文本上。每个格子是一项指标在所有文本上的平均值，须线是它的 95% 置信区间。第 1 层的头 4 看查询前面的那个字：0.659 的权重（0.654 到 0.664），每篇文本都符合。诗词常有重复的字，第 2 层的归纳头正好体现了这一点：头 4 得 0.394（0.380 到 0.408），头 5 得 0.363，头 7 得 0.319。“查询与键”页显示头 4 的查询和键分布在哪里。</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>Temperature: how a model chooses</source>
        <translation>温度：模型如何做出选择</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>Induction head</source>
        <translation>归纳头</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Induction head in Chinese</source>
        <translation>中文里的归纳头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thirty common Chinese characters in random order, said twice, in a 2-layer, attention-only model that AttnViz trained on Chinese and English text. In the second copy, this layer-2 head looks from each character to the one that followed it the first time: the bright stripe parallel to the diagonal. In the first copy, with nothing to copy yet, it rests on &lt;|bos|&gt;. A layer-1 head before it looks at the character just before each one (Model tab). The same heads work on English letters and digits said twice; type your own string twice and watch the stripe.</source>
        <translation>三十个随机排列的常用汉字，说两遍，输入 AttnViz 用中英文文本训练的两层纯注意力模型。在第二遍中，这个第 2 层的头从每个字符看向第一遍里紧跟在它后面的那个字符：即与对角线平行的亮条纹。在第一遍中，还没有可复制的内容，它停在 &lt;|bos|&gt; 上。在它之前，第 1 层有一个头看向每个字符的前一个字符（见“模型”页）。同样的头对说两遍的英文字母和数字也有效；把你自己的字符串输入两遍，看看这条条纹。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Previous-token head</source>
        <translation>前一个词元头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A layer-1 head of the same trained model. About half of each row&apos;s weight, in most rows the largest part, is on the character just before the query: the stripe below the diagonal, whatever the text. Nobody programmed it: the model learned that the previous character predicts the next one, and the induction heads of layer 2 build on what this head passes on.</source>
        <translation>同一个训练好的模型中第 1 层的一个头。每一行大约一半的权重（在大多数行中是最大的一份）落在查询前面的那个字符上：对角线下方的那条亮带，无论输入什么文本都是如此。没有人给它编程：是模型自己学到了前一个字符能预测下一个字符，而第 2 层的归纳头正是建立在这个头传递的信息之上。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Attention sink</source>
        <translation>注意力汇聚（attention sink）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A 4-layer model trained on Chinese and English text, on Meng Haoran&apos;s “Spring Dawn”. This layer-4 head puts nearly all of every row&apos;s weight on the first token, &lt;|bos|&gt;: the first column is bright. The softmax must give its weights to something, so a head with nothing useful to read parks them on a token that is always there. Large language models do the same; the Model tab shows how many heads here do. On English text this small model&apos;s sinks are weaker.</source>
        <translation>一个在中文和英文文本上训练的 4 层模型，输入孟浩然的《春晓》。这个第 4 层的头把每一行几乎全部的权重都放在第一个词元 &lt;|bos|&gt; 上：第一列是亮的。softmax 必须把权重分给某个词元，所以一个没有有用信息可读的头，就把权重停放在一个总会出现的词元上。大型语言模型也是这样；“模型”选项卡显示这里有多少个头这样做。在英文文本上，这个小模型的汇聚头要弱一些。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Chinese poetry: “Quiet Night Thoughts”</source>
        <translation>中文诗词：《静夜思》</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Li Bai&apos;s poem, one character per token, in the 4-layer model trained on Tang and Song poems and English text. All 16 heads are shown: on Chinese verse most heads of layers 2 to 4 rest on &lt;|bos|&gt; (the bright first column), while those of layer 1 spread over the characters before the query. Click a thumbnail to open that head.</source>
        <translation>李白的诗，每个字是一个词元，输入在唐诗宋词和英文文本上训练的 4 层模型。图中显示全部 16 个头：在中文诗句上，第 2 到第 4 层的多数头停在 &lt;|bos|&gt; 上（明亮的第一列），而第 1 层的头则分散在查询之前的几个字符上。点击缩略图即可打开该头。</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <location filename="../../ui/render/figure_export.cpp" line="+57"/>
        <source>The comparison has no configuration B to draw.</source>
        <translation>对比图缺少要绘制的配置 B。</translation>
    </message>
    <message>
        <location line="+44"/>
        <location line="+4"/>
        <location line="+7"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The figure size must be between %1 and %2 pixels a side (got %3 x %4).</source>
        <translation>图的每条边必须在 %1 到 %2 像素之间（实际为 %3 x %4）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The scale must be between 0.25 and %1 (got %2).</source>
        <translation>缩放倍数必须在 0.25 到 %1 之间（实际为 %2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 x %2 at scale %3 is too large an image.</source>
        <translation>%1 x %2、缩放 %3 倍的图像太大。</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>Cannot start the SVG writer.</source>
        <translation>无法启动 SVG 写入器。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot start the PDF writer.</source>
        <translation>无法启动 PDF 写入器。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Unknown figure format for &apos;%1&apos;: use .png, .svg or .pdf.</source>
        <translation>无法识别“%1”的图像格式：请使用 .png、.svg 或 .pdf。</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>Cannot encode the PNG: %1</source>
        <translation>无法编码 PNG：%1</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>Unknown weights format for &apos;%1&apos;: use .csv, .npy or .json.</source>
        <translation>无法识别“%1”的权重格式：请使用 .csv、.npy 或 .json。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Only the mean over heads was kept, so there are no per-head weights for a .npy array [N, H, L, S]: keep the heads&apos; weights, or export CSV or JSON, which hold the mean.</source>
        <translation>只保留了各头的平均，因此没有逐头的权重可写入 .npy 数组 [N, H, L, S]：请保留各头的权重，或导出包含平均值的 CSV 或 JSON。</translation>
    </message>
</context>
<context>
    <name>ExportCommand</name>
    <message>
        <location filename="../../ui/cli/export_command.cpp" line="+42"/>
        <source>%1 needs a whole number from %2 to %3, not &apos;%4&apos;</source>
        <translation>%1 需要 %2 到 %3 之间的整数，而不是“%4”</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="+36"/>
        <source>--compare and the demo layer&apos;s --b-... options do not apply to --model: compare with --b-layer, --b-head or --b-text</source>
        <translation>--compare 和演示层的 --b-... 选项不适用于 --model：请用 --b-layer、--b-head 或 --b-text 比较</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--b-layer and --b-text need --model</source>
        <translation>--b-layer 和 --b-text 需要 --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--b-layer %1: %2 has %3 layers</source>
        <translation>--b-layer %1：%2 有 %3 层</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--b-head %1: there are %2 heads</source>
        <translation>--b-head %1：共有 %2 个头</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>--b-num-heads %1 does not divide --embed-dim %2</source>
        <translation>--b-num-heads %1 不能整除 --embed-dim %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--view compare needs a configuration B: --compare causal|heads|dropout or --b-... options (see attnviz export --help)</source>
        <translation>--view compare 需要配置 B：--compare causal|heads|dropout 或 --b-... 选项（见 attnviz export --help）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>B is the same as A: the --b-... options change nothing A does not already have</source>
        <translation>B 与 A 相同：--b-... 选项没有改变 A 已有的任何设置</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+163"/>
        <source>--layer needs --model</source>
        <translation>--layer 需要 --model</translation>
    </message>
    <message>
        <location line="-83"/>
        <source>--tokens cannot be used with --model: the model&apos;s tokenizer splits --text</source>
        <translation>--tokens 不能与 --model 一起使用：由模型的分词器切分 --text</translation>
    </message>
    <message>
        <location line="-18"/>
        <location line="+28"/>
        <source>--layer %1: %2 has %3 layers</source>
        <translation>--layer %1：%2 只有 %3 层</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="-172"/>
        <source>--compare and the demo layer&apos;s --b-... options do not apply to --attentions: compare with --b-attentions, --b-layer or --b-head</source>
        <translation>--compare 与演示层的 --b-... 选项不适用于 --attentions：请用 --b-attentions、--b-layer 或 --b-head 对比</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--b-text needs --model: maps read from a file have no sentence to change (compare them with --b-attentions)</source>
        <translation>--b-text 需要 --model：从文件读取的注意力图没有可更改的句子（请用 --b-attentions 对比）</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_layer_options.cpp" line="+151"/>
        <source>--window needs START:LEN, a first token (from 1) and a length, e.g. 1:512, not &apos;%1&apos;</source>
        <translation>--window 需要 START:LEN，即起始词元（从 1 开始）和长度，例如 1:512，而不是“%1”</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+69"/>
        <source>use either --model or --attentions, not both</source>
        <translation>--model 与 --attentions 只能用其一</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--attention-tokens needs --attentions</source>
        <translation>--attention-tokens 需要 --attentions</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--b-attention-tokens needs --b-attentions</source>
        <translation>--b-attention-tokens 需要 --b-attentions</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--b-attentions compares two maps files: give A&apos;s with --attentions</source>
        <translation>--b-attentions 对比两个注意力图文件：请用 --attentions 给出 A 的文件</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>--attentions brings its own tokens: --text and --tokens do not go with it</source>
        <translation>--attentions 自带词元：不能与 --text 和 --tokens 同用</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>--words, --hide-special, --focus-token and --focus-to need --model</source>
        <translation>--words、--hide-special、--focus-token 和 --focus-to 需要 --model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--ablate needs --model</source>
        <translation>--ablate 需要 --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate needs --model</source>
        <translation>--generate 需要 --model</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--ablate-mode needs --ablate</source>
        <translation>--ablate-mode 需要 --ablate</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_layer_options.cpp" line="-100"/>
        <source>--text (or --tokens) is required</source>
        <translation>必须提供 --text（或 --tokens）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>use either --text or --tokens, not both</source>
        <translation>--text 和 --tokens 只能二选一</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>use either --text2 or --tokens2, not both</source>
        <translation>--text2 和 --tokens2 只能二选一</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>give both sentences as text or both as token lists</source>
        <translation>两个句子须同为文本或同为词元列表</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--mode %1 needs --text2</source>
        <translation>--mode %1 需要 --text2</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>--num-heads %1 does not divide --embed-dim %2</source>
        <translation>--num-heads %1 不能整除 --embed-dim %2</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>--heads-shown %1 is more than --num-heads %2</source>
        <translation>--heads-shown %1 大于 --num-heads %2</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+21"/>
        <source>--view predictions needs --model</source>
        <translation>--view predictions 需要 --model</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--view lens needs --model</source>
        <translation>--view lens 需要 --model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="+137"/>
        <source>--view %1 needs a model: maps read from a file hold only its result</source>
        <translation>--view %1 需要模型：从文件读取的注意力图只含其结果</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+9"/>
        <source>--open-layers and --draw need --whole-model</source>
        <translation>--open-layers 和 --draw 需要 --whole-model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--whole-model needs --view steps</source>
        <translation>--whole-model 需要 --view steps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--whole-model needs --model</source>
        <translation>--whole-model 需要 --model</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--step and --focus show one layer: not with --whole-model</source>
        <translation>--step 和 --focus 显示的是单独一层：不能与 --whole-model 同用</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>--thumbnails needs --view model</source>
        <translation>--thumbnails 需要 --view model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_compare_options.cpp" line="+184"/>
        <source>%1 needs --view compare</source>
        <translation>%1 需要 --view compare</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="+8"/>
        <source>--generate continues a single text: no --text2</source>
        <translation>--generate 续写的是单个文本：不能有 --text2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>--generate %1: with the %2 tokens of the text that is more than the %3 positions of %4 (at most %5)</source>
        <translation>--generate %1：加上文本的 %2 个词元，超过了 %4 的 %3 个位置（最多 %5）</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_command.cpp" line="+61"/>
        <source>a PNG of %1 x %2 pixels needs %3, more than the memory budget of %4; use a smaller --width, --height or --scale</source>
        <translation>%1 x %2 像素的 PNG 需要 %3，超过了 %4 的内存预算；请使用更小的 --width、--height 或 --scale</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>--focus-token %1: the text has %2 tokens</source>
        <translation>--focus-token %1：文本只有 %2 个词元</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_patch_options.cpp" line="+22"/>
        <source>--view patch needs --model</source>
        <translation>--view patch 需要 --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view patch reads --clean and --corrupt, not --text, --tokens or --layer</source>
        <translation>--view patch 读取 --clean 和 --corrupt，不读取 --text、--tokens 或 --layer</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view patch needs --clean, --corrupt, --target and --distractor</source>
        <translation>--view patch 需要 --clean、--corrupt、--target 和 --distractor</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>--ablate does not apply to --view patch</source>
        <translation>--ablate 不适用于 --view patch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--generate does not apply to --view patch</source>
        <translation>--generate 不适用于 --view patch</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--clean, --corrupt, --target, --distractor, --position and --method need --view patch</source>
        <translation>--clean、--corrupt、--target、--distractor、--position 和 --method 需要 --view patch</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="+23"/>
        <source>--step and --focus need --view steps</source>
        <translation>--step 和 --focus 需要 --view steps</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_model_options.cpp" line="-86"/>
        <source>--temperature, --top-k and --top-p need --generate or --whole-model</source>
        <translation>--temperature、--top-k 和 --top-p 需要 --generate 或 --whole-model</translation>
    </message>
    <message>
        <location line="+11"/>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="+41"/>
        <source>--view %1 needs --model</source>
        <translation>--view %1 需要 --model</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>--view atlas writes a CSV table: give --out FILE.csv (the window&apos;s Atlas tab draws it)</source>
        <translation>--view atlas 输出 CSV 表格：请给出 --out 文件.csv（窗口的“头图谱”标签页会绘制它）</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>--focus-token needs --view model or predictions, or --view steps with --whole-model</source>
        <translation>--focus-token 需要 --view model 或 predictions，或者带 --whole-model 的 --view steps</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--focus-to needs --view model</source>
        <translation>--focus-to 需要 --view model</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_figure_options.cpp" line="-48"/>
        <source>--effective needs a view of attention maps (grid, mean, head:K, lines, compare, model), not --view %1</source>
        <translation>--effective 需要一个画注意力图的视图（grid、mean、head:K、lines、compare、model），而不是 --view %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--effective norm needs the model&apos;s values: maps read from a file (--attentions) hold only the weights</source>
        <translation>--effective norm 需要模型的值向量：从文件读取的注意力图（--attentions）只有权重</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>--view must be grid, mean, head:K, steps, steps:K, lines, compare, compare:K, model, atlas, lens, predictions, patch, circuits, dla, why, flow or saliency, not &apos;%1&apos;</source>
        <translation>--view 必须是 grid、mean、head:K、steps、steps:K、lines、compare、compare:K、model、atlas、lens、predictions、patch、circuits、dla、why、flow 或 saliency，而不是“%1”</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>--focus needs --step N</source>
        <translation>--focus 需要 --step N</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--heads needs --view lines</source>
        <translation>--heads 需要 --view lines</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--item needs --mode batch</source>
        <translation>--item 需要 --mode batch</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--view head:%1 is not among the --heads-shown %2</source>
        <translation>--view head:%1 不在 --heads-shown %2 所保留的头中</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+9"/>
        <source>--out FILE is required</source>
        <translation>必须提供 --out FILE</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>cannot tell the format of &apos;%1&apos;: use .png, .svg or .pdf</source>
        <translation>无法判断“%1”的格式：请使用 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>cannot tell the format of &apos;%1&apos;: use %2</source>
        <translation>无法判断“%1”的格式：请使用 %2</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_dla_options.cpp" line="+27"/>
        <source>--generate does not apply to --view dla</source>
        <translation>--generate 不适用于 --view dla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view dla needs --model</source>
        <translation>--view dla 需要 --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view dla needs --text</source>
        <translation>--view dla 需要 --text</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view dla reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view dla 读取 --text，不读取 --tokens、--text2 或 --layer</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../ui/cli/export_saliency_options.cpp" line="+34"/>
        <source>--clean, --corrupt and --method need --view patch</source>
        <translation>--clean、--corrupt 和 --method 需要 --view patch</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--saliency with --view dla draws its strip, or writes it into the .json: its .csv is --view saliency&apos;s</source>
        <translation>--saliency 与 --view dla 一起使用时画出显著性条带，或写入 .json；它的 .csv 请用 --view saliency</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_circuits_options.cpp" line="+19"/>
        <source>--view circuits needs --model: attention maps read from a file have no weights</source>
        <translation>--view circuits 需要 --model：从文件读取的注意力图不含权重</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view circuits needs --model</source>
        <translation>--view circuits 需要 --model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view circuits reads the weights of --model alone, not --text, --tokens, --layer or --attentions</source>
        <translation>--view circuits 只读取 --model 的权重，不读取 --text、--tokens、--layer 或 --attentions</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--ablate does not apply to --view circuits</source>
        <translation>--ablate 不适用于 --view circuits</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--generate does not apply to --view circuits</source>
        <translation>--generate 不适用于 --view circuits</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--rope-offset: %1 has learned positions, so W_QK does not depend on the offset</source>
        <translation>--rope-offset：%1 使用学习得到的位置编码，W_QK 与偏移无关</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>--composition and --rope-offset need --view circuits</source>
        <translation>--composition 和 --rope-offset 需要 --view circuits</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_saliency_options.cpp" line="-7"/>
        <source>--generate does not apply to --view saliency</source>
        <translation>--generate 不适用于 --view saliency</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view saliency needs --model</source>
        <translation>--view saliency 需要 --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view saliency needs --text</source>
        <translation>--view saliency 需要 --text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view saliency reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view saliency 读取 --text，而不是 --tokens、--text2 或 --layer</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>--saliency needs --view saliency or dla</source>
        <translation>--saliency 需要 --view saliency 或 dla</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_flow_options.cpp" line="+24"/>
        <source>--ablate does not apply to --view flow</source>
        <translation>--ablate 不适用于 --view flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate does not apply to --view flow</source>
        <translation>--generate 不适用于 --view flow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view flow needs --model</source>
        <translation>--view flow 需要 --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view flow needs --text</source>
        <translation>--view flow 需要 --text</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view flow reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view flow 读取 --text，而不是 --tokens、--text2 或 --layer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--clean, --corrupt, --target, --distractor and --method do not apply to --view flow</source>
        <translation>--clean、--corrupt、--target、--distractor 和 --method 不适用于 --view flow</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>--threshold must be more than 0: every edge of importance 0 would reach the prediction</source>
        <translation>--threshold 必须大于 0：否则所有重要性为 0 的边都会到达预测</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--threshold and --per-head need --view flow</source>
        <translation>--threshold 和 --per-head 需要 --view flow</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_why_options.cpp" line="+20"/>
        <source>--ablate does not apply to --view why</source>
        <translation>--ablate 不适用于 --view why</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--generate does not apply to --view why</source>
        <translation>--generate 不适用于 --view why</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view why needs --model</source>
        <translation>--view why 需要 --model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--view why needs --text</source>
        <translation>--view why 需要 --text</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view why needs --head L.H, --query I and --key J</source>
        <translation>--view why 需要 --head L.H、--query I 和 --key J</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--view why reads --text, not --tokens, --text2 or --layer</source>
        <translation>--view why 读取 --text，而不是 --tokens、--text2 或 --layer</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="+20"/>
        <source>--head takes one head (L.H, from 1)</source>
        <translation>--head 只接受一个头（L.H，从 1 开始计数）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>--head, --query, --key and --top need --view why</source>
        <translation>--head、--query、--key 和 --top 需要 --view why</translation>
    </message>
    <message>
        <location filename="../../ui/cli/export_corpus_options.cpp" line="-17"/>
        <source>--view %1 reads --texts, not --text, --tokens, --layer, --attentions, --ablate or --generate</source>
        <translation>--view %1 读取 --texts，而不是 --text、--tokens、--layer、--attentions、--ablate 或 --generate</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--view qk needs --texts FILE and --head L.H</source>
        <translation>--view qk 需要 --texts FILE 和 --head L.H</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--query, --key and --top need --view why</source>
        <translation>--query、--key 和 --top 需要 --view why</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>--projection and --colour-by need --view qk</source>
        <translation>--projection 和 --colour-by 需要 --view qk</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--view atlas --texts writes a table: --out FILE.csv or FILE.json</source>
        <translation>--view atlas --texts 输出的是表格：--out FILE.csv 或 FILE.json</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>--texts, --format, --max-tokens, --limit, --projection and --colour-by need --view qk, or --view atlas with --texts</source>
        <translation>--texts、--format、--max-tokens、--limit、--projection 和 --colour-by 需要 --view qk，或带 --texts 的 --view atlas</translation>
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
        <translation>%1 是后归一化模型：它的各个模块之间夹着归一化层，模块的输出不再是它读入的各项之和，因此无法衡量每一项所占的份额。信息流需要前归一化模型（GPT-2、Llama、Qwen）。</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+93"/>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+91"/>
        <source>Layer %1 · attention</source>
        <translation>第 %1 层 · 注意力</translation>
    </message>
    <message>
        <location line="-90"/>
        <source>Layer %1 · MLP</source>
        <translation>第 %1 层 · MLP</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Information flow</source>
        <translation>信息流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Information flow to the prediction after token %1 %2</source>
        <translation>流向第 %1 个词元 %2 之后预测的信息流</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>per head</source>
        <translation>按注意力头</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>heads summed per token</source>
        <translation>各头按词元求和</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · “%2” · edges of importance ≥ %3 · %4</source>
        <translation>%1 · “%2” · 重要性 ≥ %3 的边 · %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each line is a term of a block&apos;s output: what a token brings through the attention, the MLP&apos;s output, or the stream carried on. Its width is its importance, its share of the sum (Ferrando &amp; Voita 2024); the graph keeps every line at or above the threshold that reaches the prediction. Click a token&apos;s dot to explain its prediction, a line to see its head&apos;s map.</source>
        <translation>每条线是某个模块输出中的一项：某个词元经注意力带来的信息、MLP 的输出，或沿残差流直接传下来的部分。线的粗细表示它的重要性，即它在总和中所占的份额（Ferrando &amp; Voita 2024）；图中保留所有不低于阈值、并能到达预测的线。点击词元的圆点可解释它的预测，点击一条线可查看对应注意力头的注意力图。</translation>
    </message>
    <message>
        <location line="+63"/>
        <location line="+25"/>
        <location line="+177"/>
        <source>Attention</source>
        <translation>注意力</translation>
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
        <translation>残差</translation>
    </message>
    <message>
        <location line="-202"/>
        <location line="+22"/>
        <location line="+194"/>
        <source>The prediction</source>
        <translation>预测</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>token %1 %2</source>
        <translation>第 %1 个词元 %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L%1H%2 · %3 → %4, layer %5: importance %6</source>
        <translation>L%1H%2 · %3 → %4，第 %5 层：重要性 %6</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Attention · %1 → %2, layer %3: importance %4</source>
        <translation>注意力 · %1 → %2，第 %3 层：重要性 %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>MLP · %1, layer %2: importance %3</source>
        <translation>MLP · %1，第 %2 层：重要性 %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Residual · %1, %2 → %3: importance %4</source>
        <translation>残差 · %1，%2 → %3：重要性 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Token %1 %2 · %3</source>
        <translation>第 %1 个词元 %2 · %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Click: the flow to the prediction after it</source>
        <translation>点击：查看流向它之后预测的信息流</translation>
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
        <translation>这里没有第 %2 层的第 %1 个头。</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>Layer %1, head %2: the memory budget did not keep its map, and it is recomputed without knocked-out heads: restore them first, or raise the memory budget.</source>
        <translation>第 %1 层第 %2 个头：内存预算没有保留它的注意力图，而重新计算时不会去掉已敲除的头：请先恢复这些头，或提高内存预算。</translation>
    </message>
</context>
<context>
    <name>Generation</name>
    <message>
        <location filename="../../ui/compute/generation_runner.cpp" line="+31"/>
        <source>%1 is a masked language model: only a causal model (GPT-2, Llama, Qwen) continues a text.</source>
        <translation>%1 是掩码语言模型：只有因果模型（GPT-2、Llama、Qwen）能续写文本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The text fills all %1 positions of %2: there is no room for another token.</source>
        <translation>文本已占满 %2 的全部 %1 个位置：没有空间再写一个词元。</translation>
    </message>
</context>
<context>
    <name>KnockOutMark</name>
    <message>
        <location filename="../../ui/render/knock_out_mark.cpp" line="+19"/>
        <source>mean</source>
        <comment>a head knocked out by its mean</comment>
        <translation>均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>zero</source>
        <comment>a head knocked out by zeros</comment>
        <translation>置零</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <location filename="../../ui/i18n/language.cpp" line="+107"/>
        <source>Lang&amp;uage</source>
        <translation>语言(&amp;U)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;System (%1)</source>
        <translation>跟随系统（%1）(&amp;S)</translation>
    </message>
</context>
<context>
    <name>LensFigure</name>
    <message>
        <location filename="../../ui/model/lens_figure.cpp" line="+48"/>
        <source>Open a trained model (File ▸ Open Model…) to see what it predicts after each layer.</source>
        <translation>打开一个训练好的模型（文件 ▸ 打开模型…），查看它在每一层之后的预测。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose a trained model in the Source box of the tool bar (built in: %1), or open one (File ▸ Open Model…), to see what it predicts after each layer.</source>
        <translation>在工具栏的“来源”框中选择一个训练好的模型（内置：%1），或打开一个（文件 ▸ 打开模型…），查看它在每一层之后的预测。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The logit lens follows when the model stops writing.</source>
        <translation>模型停止续写后将显示 Logit 透镜。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Computing the logit lens…</source>
        <translation>正在计算 Logit 透镜…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The text has no tokens.</source>
        <translation>文本没有词元。</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+75"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+78"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="-77"/>
        <location line="+80"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="-79"/>
        <location line="+79"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Rows: the residual stream after each layer, read through the model&apos;s own head; the last row is the model&apos;s output. Each cell: the most likely next token, coloured by its probability. Framed in bold: it is the actual next token.</source>
        <translation>行：每一层之后的残差流，经模型自己的输出头读出；最后一行即模型的输出。每个格子：最可能的下一个词元，颜色表示其概率。粗框：它正是实际的下一个词元。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Rows: the residual stream after each layer, read through the model&apos;s masked-LM head; the last row is the model&apos;s output. Each cell: the most likely token at that position, coloured by its probability. Framed in bold: it is the token there.</source>
        <translation>行：每一层之后的残差流，经模型的掩码语言模型头读出；最后一行即模型的输出。每个格子：该位置最可能的词元，颜色表示其概率。粗框：它正是该位置的词元。</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>probability of the top-1 token</source>
        <translation>第一名词元的概率</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Logit lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Logit lens of %1: what it predicts after each layer</source>
        <translation>%1 的 Logit 透镜：每一层之后的预测</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 layers × %2 positions</source>
        <translation>%1 层 × %2 个位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the last %1 of %2 tokens</source>
        <translation>%2 个词元中的最后 %1 个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1.%2 (mean)</source>
        <translation>%1.%2（均值）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>heads knocked out: %1</source>
        <translation>已敲除的头：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Layer %1 · token %2 “%3”</source>
        <translation>第 %1 层 · 词元 %2 “%3”</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>next: “%1”</source>
        <translation>下一个：“%1”</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>token: “%1”</source>
        <translation>词元：“%1”</translation>
    </message>
</context>
<context>
    <name>Lines</name>
    <message>
        <location filename="../../ui/classroom/lines_figure.cpp" line="+60"/>
        <source>How much each key moves each query&apos;s output: norm-based ‖α·f(x)‖</source>
        <translation>每个键让每个查询的输出改变了多少：基于范数的 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Where each query token looks in the other sentence</source>
        <translation>每个查询词元在另一个句子中关注哪里</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where each token looks: one line per query, key and head</source>
        <translation>每个词元关注哪里：每个（查询，键，头）一条连线</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>Queries (sentence 1)</source>
        <translation>查询（句子 1）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keys (sentence 2)</source>
        <translation>键（句子 2）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+79"/>
        <location line="+13"/>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Only the mean over heads was kept within the memory budget: there are no head lines to draw.</source>
        <translation>在内存预算内只保留了各头的平均：没有可画的各头连线。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>opacity = ‖α·f(x)‖ from 0 to its largest, %1 (%2 of %3 lines drawn)</source>
        <translation>不透明度 = ‖α·f(x)‖，从 0 到最大值 %1（画出 %3 条线中的 %2 条）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>opacity = attention weight (the %1 strongest of %2 lines drawn)</source>
        <translation>不透明度 = 注意力权重（只画出 %2 条线中最强的 %1 条）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>opacity = attention weight (lines under %1 omitted)</source>
        <translation>不透明度 = 注意力权重（低于 %1 的连线不画）</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>head %1 → “%2” %3</source>
        <translation>头 %1 → “%2” %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>“%1” looks most at: %2</source>
        <translation>“%1”最关注：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is looked at most by: %2</source>
        <translation>最关注“%1”的是：%2</translation>
    </message>
</context>
<context>
    <name>ModelFigure</name>
    <message>
        <location filename="../../ui/model/model_figure.cpp" line="+50"/>
        <location line="+91"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the largest weight in each</source>
        <translation>整段文本（%1 个词元），汇聚为 %2 × %2 个方格，每格 %3 个词元：取每格中最大的权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whole text (%1 tokens), pooled to %2 × %2 squares of %3 tokens: the mean weight over what each query sees</source>
        <translation>整段文本（%1 个词元），汇聚为 %2 × %2 个方格，每格 %3 个词元：取每格中各查询可见部分的平均权重</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+1"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+3"/>
        <source>Rollout</source>
        <translation>注意力展开</translation>
    </message>
    <message>
        <location line="-2"/>
        <location line="+1"/>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>M</source>
        <comment>mean</comment>
        <translation>平</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>R</source>
        <comment>rollout</comment>
        <translation>展</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Rows: layers. Columns: heads, then the layer&apos;s mean over heads and the attention rollout through it (residual included). Each map coloured from 0 (dark) to its own largest weight (yellow); grey: masked.</source>
        <translation>行：层。列：各个头，然后是该层所有头的平均，以及到该层为止的注意力展开（含残差）。每张图从 0（深色）到它自己的最大权重（黄色）着色；灰色：被遮蔽。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: every query token&apos;s attention to this one, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</source>
        <translation>行：层。列：各个头、平均、注意力展开。每格从左到右：每个查询词元对这个词元的注意力，从 0 到该格的最大值（黄色）着色；灰色：被遮蔽。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rows: layers. Columns: heads, mean, rollout. In each cell, left to right: this token&apos;s attention to every key token, coloured from 0 to the cell&apos;s largest (yellow); grey: masked.</source>
        <translation>行：层。列：各个头、平均、注意力展开。每格从左到右：这个词元对每个键词元的注意力，从 0 到该格的最大值（黄色）着色；灰色：被遮蔽。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Norm-based ‖α·f(x)‖ is shown in the kept maps; the whole text&apos;s squares are of the weights.</source>
        <translation>保留下来的图显示基于范数的 ‖α·f(x)‖；全文的方块显示的仍是权重。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based: each head&apos;s ‖α·f(x)‖, how much each key&apos;s value moves the output; Mean: the heads together; the rollout runs through the weights.</source>
        <translation>基于范数：每个头的 ‖α·f(x)‖，即每个键的值向量让输出改变了多少；“平均”一列是各头合起来的结果；注意力展开仍按权重计算。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Crossed out: a head knocked out of the model&apos;s pass (its output replaced by zeros or by its mean); the layers above it and the predictions change.</source>
        <translation>打叉：从模型前向计算中敲除的头（其输出被替换为零或其均值）；它上面的层和预测随之改变。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1. Mean: the heads&apos; squares averaged. Hatched: a rollout the pass did not have over the whole text.</source>
        <translation>%1。平均：各头方格的平均值。斜线：未在整段文本上计算的注意力展开。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hatched: a head whose maps the memory budget did not keep.</source>
        <translation>斜线格：内存预算未保留其注意力图的头。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Dashed: the kept window, tokens %1–%2.</source>
        <translation>虚线：保留的窗口，第 %1–%2 个词元。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Every layer and head</source>
        <translation>所有层和所有头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · norm-based</source>
        <translation> · 基于范数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attention to “%1” (token %2) in every layer and head of %3</source>
        <translation>%3 每一层每个头中指向“%1”（第 %2 个词元）的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention from “%1” (token %2) in every layer and head of %3</source>
        <translation>%3 每一层每个头中“%1”（第 %2 个词元）发出的注意力</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every layer and head of %1</source>
        <translation>%1 的所有层和所有头</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 layers × %2 heads</source>
        <translation>%1 层 × %2 个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 layers × %2 heads · %3 tokens: %4</source>
        <translation>%1 层 × %2 个头 · %3 个词元：%4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>layers 1–%1 of %2 kept (memory budget)</source>
        <translation>保留了 %2 层中的第 1–%1 层（内存预算）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>pieces %1–%2 of %3: the softmax, the atlas and the rollout are over every piece</source>
        <translation>%3 个片段中的第 %1–%2 个：softmax、头图谱和注意力展开仍覆盖全部片段</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the means only kept (memory budget)</source>
        <translation>只保留了平均值（内存预算）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads 1–%1 of %2 kept (memory budget)</source>
        <translation>保留了 %2 个头中的第 1–%1 个（内存预算）</translation>
    </message>
</context>
<context>
    <name>ModelLens</name>
    <message>
        <location filename="../../ui/compute/model_lens.cpp" line="+76"/>
        <source>These attention maps were read from a file, without the model that made them: the logit lens needs a model folder with its language-model head.</source>
        <translation>这些注意力图读自文件，没有生成它们的模型：Logit 透镜需要带语言模型头的模型文件夹。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 has no language-model head, so there is no logit lens to show.</source>
        <translation>%1 没有语言模型头，因此无法显示 Logit 透镜。</translation>
    </message>
</context>
<context>
    <name>ModelWalk</name>
    <message>
        <location filename="../../ui/classroom/model_walk.cpp" line="+72"/>
        <source>%1 heads × %2 tokens</source>
        <translation>%1 个头 × %2 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 heads × %2</source>
        <translation>%1 个头 × %2</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>token embedding</source>
        <translation>词元嵌入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Row %1 of the embedding table: the vector the model starts from for “%2”.</source>
        <translation>嵌入表中编号为 %1 的行：模型处理“%2”时的起始向量。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>position embedding</source>
        <translation>位置嵌入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A learned vector for position %1, added so that the model knows where the token stands.</source>
        <translation>为第 %1 个位置学到的向量：加上它，模型才知道这个词元在什么位置。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>token type embedding</source>
        <translation>词元类型嵌入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BERT&apos;s segment vector: whether the token is in the first sentence or the second.</source>
        <translation>BERT 的分段向量：表示这个词元属于第一个句子还是第二个句子。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>sum of the embeddings</source>
        <translation>嵌入之和</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The three vectors added, number by number.</source>
        <translation>三个向量逐元素相加。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+4"/>
        <location line="+3"/>
        <source>the residual stream</source>
        <translation>残差流</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>The sum, normalised: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>归一化后的和：第 1 层读取的就是它。每一层都把自己的结果加到这条流上。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Token plus position: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>词元嵌入加位置嵌入：第 1 层读取的就是它。每一层都把自己的结果加到这条流上。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Row %1 of the embedding table, and no position vector: positions enter inside attention, where RoPE rotates q and k. Every layer adds its result to this stream.</source>
        <translation>嵌入表中编号为 %1 的行，不加位置向量：位置信息在注意力内部才进入，由 RoPE 旋转 q 和 k。每一层都把自己的结果加到这条流上。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Row %1 of the embedding table: what layer 1 reads. Every layer adds its result to this stream.</source>
        <translation>嵌入表中编号为 %1 的行：第 1 层读取的就是它。每一层都把自己的结果加到这条流上。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>norm before attention</source>
        <translation>注意力前的归一化</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Divided by its root mean square, then scaled: attention reads a vector of a steady size.</source>
        <translation>除以它的均方根，再缩放：注意力读到的向量大小保持稳定。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its mean subtracted, divided by its spread, then scaled and shifted: attention reads a vector of a steady size.</source>
        <translation>减去均值，除以标准差，再缩放和平移：注意力读到的向量大小保持稳定。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token looks for, one query per head (%1 heads).</source>
        <translation>这个词元要寻找什么，每个头一个查询（共 %1 个头）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Each head&apos;s query is normalised (Qwen3).</source>
        <translation>每个头的查询都先经过归一化（Qwen3）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token offers to be found by.</source>
        <translation>这个词元凭什么被其他词元找到。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Grouped-query attention: %1 key heads shared by %2 query heads.</source>
        <translation>分组查询注意力：%2 个查询头共享 %1 个键头。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>values</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What this token hands on to the tokens that attend to it.</source>
        <translation>这个词元传递给关注它的词元的内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>rotated queries</source>
        <translation>旋转后的查询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each pair of numbers turned by an angle that grows with the position: this is how the model knows where the token is.</source>
        <translation>每一对数都旋转一个随位置增大的角度：模型就是这样知道词元位置的。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotated keys</source>
        <translation>旋转后的键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The keys turned the same way, so q · k depends on how far apart two tokens are.</source>
        <translation>键也做同样的旋转，因此 q · k 取决于两个词元相隔多远。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head&apos;s weights over the tokens: how much of each token&apos;s value it takes. Each row sums to 1.</source>
        <translation>每个头在各个词元上的权重：它从每个词元的值中取多少。每行之和为 1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Tokens after this one are masked (0).</source>
        <translation>这个词元之后的词元都被掩码（为 0）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>head outputs</source>
        <translation>各头的输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head&apos;s weighted average of the values.</source>
        <translation>每个头对各个值的加权平均。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>attention output</source>
        <translation>注意力输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The heads&apos; outputs side by side, projected back to %1 numbers.</source>
        <translation>各头的输出并排拼接，再投影回 %1 个数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+33"/>
        <source>residual add</source>
        <translation>残差相加</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>The attention&apos;s output added to the residual stream: a layer only writes a change.</source>
        <translation>注意力的输出加到残差流上：每一层只写入一个变化量。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>norm after attention</source>
        <translation>注意力后的归一化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BERT normalises after the add (post-norm).</source>
        <translation>BERT 在相加之后才归一化（后归一化，post-norm）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>norm before the MLP</source>
        <translation>MLP 前的归一化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The stream normalised again, for the MLP.</source>
        <translation>残差流再次归一化，供 MLP 读取。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLP gate</source>
        <translation>MLP 门控</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A second projection up that decides how much of each of the %1 features passes.</source>
        <translation>第二个升维投影，决定 %1 个特征各自能通过多少。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MLP up</source>
        <translation>MLP 升维</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Up to a wider vector: where the MLP does its work, feature by feature.</source>
        <translation>升到更宽的向量：MLP 在这里逐个特征地完成它的计算。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>gated activation</source>
        <translation>门控激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of the gate times the up projection, number by number: the gate switches features on and off.</source>
        <translation>门控经过 %1 后与升维投影逐元素相乘：门控负责打开或关闭各个特征。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>activation</source>
        <translation>激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 lets positive numbers through and squashes negative ones towards 0.</source>
        <translation>%1 让正数通过，把负数压向 0。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MLP down</source>
        <translation>MLP 降维</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back down to %1 numbers.</source>
        <translation>降回 %1 个数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The MLP&apos;s output added to the stream: the layer&apos;s output.</source>
        <translation>MLP 的输出加到残差流上：这就是该层的输出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>norm after the MLP</source>
        <translation>MLP 后的归一化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Normalised after the add (post-norm): the layer&apos;s output.</source>
        <translation>相加之后再归一化（后归一化）：这就是该层的输出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The last layer&apos;s output normalised once more before the vocabulary is scored.</source>
        <translation>在给词表打分之前，最后一层的输出再归一化一次。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MLM head: dense layer</source>
        <translation>MLM 头：全连接层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The masked-LM head&apos;s own projection of the stream.</source>
        <translation>掩码语言模型头自己对残差流做的投影。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLM head: activation</source>
        <translation>MLM 头：激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, as in the MLPs.</source>
        <translation>%1，与 MLP 中的相同。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MLM head: norm</source>
        <translation>MLM 头：归一化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Normalised before the vocabulary is scored.</source>
        <translation>在给词表打分之前先归一化。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>logits</source>
        <translation>对数几率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One score per vocabulary entry (%1 of them): h against every row of the embedding table.</source>
        <translation>词表中每个条目一个分数（共 %1 个）：h 与嵌入表每一行的点积。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One score per vocabulary entry (%1 of them): the higher, the more likely.</source>
        <translation>词表中每个条目一个分数（共 %1 个）：分数越高，可能性越大。</translation>
    </message>
    <message>
        <location line="+68"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+200"/>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+1"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="+1"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>the model&apos;s guesses for this token</source>
        <translation>模型对这个词元的猜测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>next-token probabilities</source>
        <translation>下一个词元的概率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The logits divided by the temperature T and turned into probabilities: the model&apos;s guesses for the hidden token.</source>
        <translation>对数几率除以温度 T，再转换成概率：这就是模型对被掩码词元的猜测。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The logits divided by the temperature T and turned into probabilities. Low T sharpens them, high T flattens them; top-k and top-p keep only the likeliest.</source>
        <translation>对数几率除以温度 T，再转换成概率。T 越低，分布越尖锐；T 越高，分布越平坦；top-k 和 top-p 只保留最可能的词元。</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/model_walk_figure.cpp" line="-76"/>
        <source>The pass kept no vectors at this token.</source>
        <translation>这次前向计算没有保留这个词元处的任何向量。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Computing the whole model at this token…</source>
        <translation>正在计算整个模型在这个词元处的每一步…</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>The whole model, step by step</source>
        <translation>逐步查看整个模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How %1 fills in “%2” at position %3, step by step</source>
        <translation>%1 如何一步步填出位置 %3 上的“%2”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How %1 picks the token after “%2”, step by step</source>
        <translation>%1 如何一步步选出“%2”之后的词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 at “%2”, step by step</source>
        <translation>%1 在“%2”处的逐步计算</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>token %1 of %2</source>
        <translation>第 %1 个词元，共 %2 个</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 numbers per token</source>
        <translation>每个词元 %1 个数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 vocabulary entries</source>
        <translation>词表 %1 个条目</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>T = 0 (greedy: always the likeliest)</source>
        <translation>T = 0（贪心：总是选最可能的）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>top-k off</source>
        <translation>top-k 关闭</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>top-p off</source>
        <translation>top-p 关闭</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>How %1 fills in a token</source>
        <translation>%1 如何填出一个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How %1 picks the next token</source>
        <translation>%1 如何选出下一个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, step by step</source>
        <translation>%1 的逐步计算</translation>
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
            <numerusform>%n 步</numerusform>
        </translation>
    </message>
    <message>
        <location line="+60"/>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <location line="+154"/>
        <source>This model has no language-model head: it scores no tokens.</source>
        <translation>这个模型没有语言模型头：它不给任何词元打分。</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>◀ drawn</source>
        <translation>◀ 抽中</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>The other %1 candidates share %2.</source>
        <translation>其余 %1 个候选词元共占 %2。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No other token is left to draw from.</source>
        <translation>没有其他词元可供抽取了。</translation>
    </message>
    <message>
        <location line="+433"/>
        <source>%1: click to fold it</source>
        <translation>%1：点击折叠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: click to open it</source>
        <translation>%1：点击展开</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>head %1 → “%2” (token %3) = %4</source>
        <translation>头 %1 → “%2”（第 %3 个词元）= %4</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>head %1 [%2] = %3</source>
        <translation>头 %1 [%2] = %3</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>“%1” (id %2): %3 · logit %4 · rank %5</source>
        <translation>“%1”（id %2）：%3 · 对数几率 %4 · 第 %5 名</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> · cut off by top-k / top-p</source>
        <translation> · 被 top-k / top-p 截去</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · drawn</source>
        <translation> · 抽中</translation>
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
        <translation>激活修补：每个头恢复的指标比例</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>method: attribution (first-order estimate, every head at once)</source>
        <translation>方法：归因（一阶估计，所有头一次算出）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>method: exact (a patched run per head)</source>
        <translation>方法：精确（每个头单独修补运行一次）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · clean: “%2” · corrupted: “%3” · metric: logit %4 − logit %5 at token %6 %7</source>
        <translation>%1 · 干净：“%2” · 损坏：“%3” · 指标：第 %6 个词元 %7 处的 logit %4 − logit %5</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Estimated by attribution patching: two forward passes and a backward pass for every head, to first order. Exact measures each head in a run of its own.</source>
        <translation>由归因修补估计：两次前向传播加一次反向传播，得出所有头的一阶估计。“精确”则为每个头单独运行一次来测量。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Estimating every head: two forward passes and a backward pass; grey: not estimated yet.</source>
        <translation>正在估计所有头：两次前向传播和一次反向传播；灰色：尚未估计。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stopped after %1 of %2 heads; hatched: estimated, not measured.</source>
        <translation>在 %2 个头中测量了 %1 个后停止；斜线：估计值，未实测。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Estimated, refining: %1 of %2 heads measured; hatched: the attribution estimate, until the sweep reaches the head.</source>
        <translation>已估计，正在精化：已实测 %2 个头中的 %1 个；斜线：归因估计值，扫描到该头时换成实测值。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Under the corrupted text: the chosen head&apos;s estimate split by the position patched, on the map&apos;s scale.</source>
        <translation>损坏文本下方的色条：所选头的估计值按被修补的位置拆分，色标与左侧比例图相同。</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>measured (exact)</source>
        <translation>实测（精确）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>estimated (attribution), until measured</source>
        <translation>估计（归因），待实测</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+23"/>
        <location line="+234"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: not run yet; attribution estimates it restores %2</source>
        <translation>%1：尚未运行；归因估计它恢复 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: not run yet</source>
        <translation>%1：尚未运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: m = %2 (the metric is the same on both texts, so no fraction)</source>
        <translation>%1：m = %2（指标在两段文本上相同，无法计算比例）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: attribution estimates it restores %2 of the metric (m ≈ %3); click to see its attention</source>
        <translation>%1：归因估计它恢复了指标的 %2（m ≈ %3）；点击查看其注意力</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: restores %2 of the metric (m = %3); click to see its attention</source>
        <translation>%1：恢复了指标的 %2（m = %3）；点击查看其注意力</translation>
    </message>
    <message>
        <location line="-180"/>
        <location line="+207"/>
        <source>layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="-208"/>
        <location line="+210"/>
        <source>Clean text, %1</source>
        <translation>干净文本，%1</translation>
    </message>
    <message>
        <location line="-210"/>
        <location line="+212"/>
        <source>Corrupted text, %1</source>
        <translation>损坏文本，%1</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>(attribution estimated %1)</source>
        <translation>（归因估计为 %1）</translation>
    </message>
    <message>
        <location line="+70"/>
        <location line="+4"/>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <location line="-350"/>
        <source>Stopped after %1 of %2 heads; grey: not run.</source>
        <translation>在 %2 个头中运行了 %1 个后停止；灰色：未运行。</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Attribution patching: the estimated fraction each head restores</source>
        <translation>归因修补：每个头恢复的指标比例（估计）</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 of %2 heads run; grey: not run yet.</source>
        <translation>已运行 %2 个头中的 %1 个；灰色：尚未运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head run (%1).</source>
        <translation>所有头均已运行（%1 个）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>m = logit %1 − logit %2: clean %3, corrupted %4.</source>
        <translation>m = logit %1 − logit %2：干净 %3，损坏 %4。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fraction restored = (m patched − m corrupted) / (m clean − m corrupted).</source>
        <translation>恢复比例 = (m 修补 − m 损坏) / (m 干净 − m 损坏)。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Right: the chosen head&apos;s attention, rows the queries and columns the keys, from 0 (dark) to the larger maximum of the two (yellow); grey: the future, masked.</source>
        <translation>右侧：所选头的注意力，行为查询、列为键，颜色从 0（深色）到两图中较大的最大值（黄色）；灰色：未来位置，已掩码。</translation>
    </message>
    <message>
        <location filename="../../ui/model/patch_agreement_figure.cpp" line="+20"/>
        <source>exact fraction</source>
        <translation>精确比例</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>attribution estimate</source>
        <translation>归因估计</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exact against attribution</source>
        <translation>精确与归因对比</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n head(s) measured</source>
        <translation>
            <numerusform>已实测 %n 个头</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Spearman ρ = %1 (%n head(s))</source>
        <translation>
            <numerusform>斯皮尔曼 ρ = %1（%n 个头）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+71"/>
        <source>L%1H%2: exact %3, attribution %4</source>
        <translation>L%1H%2：精确 %3，归因 %4</translation>
    </message>
</context>
<context>
    <name>PredictionsFigure</name>
    <message>
        <location filename="../../ui/model/predictions_figure.cpp" line="+143"/>
        <source>Open a trained model to see what it predicts.</source>
        <translation>打开一个训练好的模型，查看它的预测。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>What the model predicts</source>
        <translation>模型的预测</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What %1 fills in at each mask</source>
        <translation>%1 在每个掩码处的填充</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What %1 predicts after each token</source>
        <translation>%1 在每个词元之后的预测</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads knocked out: %1</source>
        <translation>已敲除的头：%1</translation>
    </message>
</context>
<context>
    <name>QkFigure</name>
    <message>
        <location filename="../../ui/model/qk_figure.cpp" line="+50"/>
        <source>PCA axis %1 (%2% of the variance)</source>
        <translation>PCA 第 %1 轴（占方差的 %2%）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Directions, axis %1 (%2% of the variance)</source>
        <translation>方向，第 %1 轴（占方差的 %2%）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Queries and keys</source>
        <translation>查询与键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queries and keys of layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2 的查询与键</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the text box&apos;s history</source>
        <translation>文本框的历史</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>PCA of both together, the keys moved and scaled to share the queries&apos; centre and spread (AttentionViz), which leaves every attention weight as it was</source>
        <translation>对两者一起做 PCA；键经过平移和缩放，与查询共享中心和离散程度（AttentionViz），所有注意力权重保持不变</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PCA of their directions: near means a large cosine, whatever the lengths</source>
        <translation>对它们的方向做 PCA：靠得近表示余弦大，与长度无关</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%1: %n token(s) of %2 texts, each a query and a key · %3</source>
        <translation>
            <numerusform>%1：%2 篇文本中的 %n 个词元，每个词元一个查询、一个键 · %3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+138"/>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+137"/>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="-136"/>
        <location line="+149"/>
        <source>Token position</source>
        <translation>词元位置</translation>
    </message>
    <message>
        <location line="-38"/>
        <location line="+12"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+12"/>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>&lt;b&gt;%1&lt;/b&gt; “%2” · text %3, token %4&lt;br&gt;%5 &lt;b style=&quot;color:%6&quot;&gt;%2&lt;/b&gt; %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;“%2” · 文本 %3，词元 %4&lt;br&gt;%5 &lt;b style=&quot;color:%6&quot;&gt;%2&lt;/b&gt; %7</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 “%2” · text %3, token %4: %5 [%2] %6</source>
        <translation>%1“%2” · 文本 %3，词元 %4：%5 [%2] %6</translation>
    </message>
</context>
<context>
    <name>Recovery</name>
    <message>
        <location filename="../../ui/document/recovery.cpp" line="+47"/>
        <source>Cannot create the folder &apos;%1&apos;.</source>
        <translation>无法创建文件夹“%1”。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot lock &apos;%1&apos;.</source>
        <translation>无法锁定“%1”。</translation>
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
            <numerusform>积分梯度，%n 步</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>logit %1</source>
        <translation>%1 的 logit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>logit %1 − logit %2</source>
        <translation>%1 的 logit − %2 的 logit</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Σ = %1 (the total is %2: gradient × input need not add up to it)</source>
        <translation>Σ = %1（总值为 %2：梯度 × 输入的各份额之和不必等于它）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Σ = %1 of total − baseline = %2 (gap %3%)</source>
        <translation>Σ = %1，总值 − 基线 = %2（差距 %3%）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This model has rotary positions, so the baseline is the all-zero input, where every RMSNorm rescales its input: the metric changes over many orders of magnitude near it, and no step count resolves that. A large gap here is expected, not an error.</source>
        <translation>这个模型使用旋转位置编码，所以基线是全零输入；在它附近每个 RMSNorm 都会重新缩放输入，指标在许多个数量级上变化，增加步数也无法分辨。因此这里差距较大是正常的，并不是错误。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Integrated gradients add up to the total minus the baseline (the token embeddings zeroed, the positions kept) up to the error of the %n-step rule; more steps close the gap.</source>
        <translation>
            <numerusform>积分梯度之和等于总值减去基线（词元嵌入置零、位置保留），误差来自 %n 步的求积公式；步数越多，差距越小。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saliency of the input tokens</source>
        <translation>输入词元的显著性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency of %1 at %2 %3: %4</source>
        <translation>第 %2 个词元 %3 处 %1 的显著性：%4</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Of the model with heads knocked out: %1</source>
        <translation>敲除以下头后的模型：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 · “%2”</source>
        <translation>%1 · “%2”</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each box is one input token&apos;s share of the prediction, read from the gradient with respect to its token embedding: red raises it, blue lowers it.</source>
        <translation>每个方框是一个输入词元对该预测的贡献，由预测对其词元嵌入的梯度得出：红色表示提高，蓝色表示降低。</translation>
    </message>
    <message>
        <location line="+128"/>
        <source>Token %1 %2: %3 of the total %4</source>
        <translation>词元 %1 %2：总值 %4 中占 %3</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <location filename="../../ui/document/attention_document.cpp" line="+814"/>
        <location line="+272"/>
        <source>&apos;%1&apos; is not an object</source>
        <translation>“%1”不是对象</translation>
    </message>
    <message>
        <location line="-265"/>
        <source>&apos;%1&apos; is not a string</source>
        <translation>“%1”不是字符串</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not true or false</source>
        <translation>“%1”不是 true 或 false</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../../ui/document/compare_config.cpp" line="+42"/>
        <source>&apos;%1&apos; must be a whole number from %2 to %3</source>
        <translation>“%1”必须是 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <location line="+12"/>
        <location filename="../../ui/document/compare_config.cpp" line="+64"/>
        <source>&apos;%1&apos; must be a number from %2 to %3</source>
        <translation>“%1”必须是 %2 到 %3 之间的数</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&apos;%1&apos; has an unknown value &apos;%2&apos;</source>
        <translation>“%1”的值“%2”无法识别</translation>
    </message>
    <message>
        <location filename="../../ui/document/session.cpp" line="+114"/>
        <location line="+5"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot open &apos;%1&apos;: %2</source>
        <translation>无法打开“%1”：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is too large to be an AttnViz session.</source>
        <translation>“%1”太大，不可能是 AttnViz 会话文件。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; is not a valid session file: %2</source>
        <translation>“%1”不是有效的会话文件：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the top level is not an object</source>
        <translation>顶层不是对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is not an AttnViz session (no &quot;format&quot;: &quot;%2&quot;).</source>
        <translation>“%1”不是 AttnViz 会话文件（没有 &quot;format&quot;: &quot;%2&quot;）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; has no valid session version.</source>
        <translation>“%1”没有有效的会话版本号。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; was written by a newer AttnViz (session version %2; this version reads up to %3).</source>
        <translation>“%1”由更新版本的 AttnViz 写入（会话版本 %2；本版本最高只能读取 %3）。</translation>
    </message>
    <message>
        <location line="+50"/>
        <location line="+4"/>
        <source>&apos;%1&apos;: %2</source>
        <translation>“%1”：%2</translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <location filename="../../ui/classroom/steps_figure.cpp" line="+69"/>
        <source>Nothing computed yet.</source>
        <translation>尚未计算。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Computation steps</source>
        <translation>计算步骤</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Inside layer %1, head %2 of %3: softmax(QKᵀ / √d_k + M) V, step by step</source>
        <translation>%3 第 %1 层第 %2 个头的内部：softmax(QKᵀ / √d_k + M) V，逐步计算</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Inside head %1: softmax(QKᵀ / √d_k + M) V, step by step</source>
        <translation>头 %1 内部：逐步计算 softmax(QKᵀ / √d_k + M) V</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> (sentence %1)</source>
        <translation>（句子 %1）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The steps compute the weights α; the other views show norm-based ‖α·f(x)‖.</source>
        <translation>这里逐步计算的是权重 α；其他视图显示的是基于范数的 ‖α·f(x)‖。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n token(s) as the model&apos;s tokenizer split them</source>
        <translation>
            <numerusform>按模型分词器切分的 %n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 query heads share %2 key/value heads</source>
        <translation>%1 个查询头共享 %2 个键/值头</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>All %1 steps of head %2</source>
        <translation>头 %2 的全部 %1 个步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read from X to the output. Hover a cell to light up the cells it was computed from.</source>
        <translation>从 X 一直读到输出。鼠标悬停在某个单元格上，会高亮计算它所用到的单元格。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read from X to the output.</source>
        <translation>从 X 一直读到输出。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Step %1 of %2:  %3</source>
        <translation>第 %1 步（共 %2 步）：  %3</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>values: negative</source>
        <translation>数值：负</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>positive</source>
        <translation>正</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights: 0</source>
        <translation>权重：0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>masked (−∞ before softmax)</source>
        <translation>已掩码（softmax 之前为 −∞）</translation>
    </message>
    <message>
        <location line="+456"/>
        <source>d_k = %1 features</source>
        <translation>d_k = %1 个特征</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>embed_dim = %1 features</source>
        <translation>embed_dim = %1 个特征</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>query “%1”</source>
        <translation>查询“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>key “%1”</source>
        <translation>键“%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>feature %1</source>
        <translation>特征 %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>0 (masked)</source>
        <translation>0（已掩码）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 [%2, %3] = %4   ·   %5, %6</source>
        <translation>%1 [%2, %3] = %4   ·   %5，%6</translation>
    </message>
    <message>
        <location filename="../../ui/classroom/steps_model.cpp" line="+382"/>
        <source>The steps are kept only when every head&apos;s weights over every token are: this configuration keeps a part of them to fit the memory budget (Show All, over the heatmaps, brings them back).</source>
        <translation>只有保留全部头在全部词元上的权重时才保留计算步骤：此配置为了放进内存预算只保留了其中一部分（点击热力图上方的“全部显示”即可恢复）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The steps are kept for up to %1 attention cells (items × heads × queries × keys); this input has %2. Shorten the sentence or use fewer heads.</source>
        <translation>计算步骤最多保留 %1 个注意力单元格（样本数 × 头数 × 查询数 × 键数）；当前输入有 %2 个。请缩短句子或减少头数。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Each token as a vector of embed_dim = %1 numbers: its embedding plus a positional encoding, one row per token.</source>
        <translation>每个词元表示为一个由 embed_dim = %1 个数组成的向量：词嵌入加上位置编码，每个词元一行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token as a vector of embed_dim = %1 numbers (its embedding; positional encoding is off).</source>
        <translation>每个词元表示为一个由 embed_dim = %1 个数组成的向量（仅词嵌入；位置编码已关闭）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>X (queries&apos; sentence)</source>
        <translation>X（查询所在的句子）</translation>
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
        <translation>输入</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>X′ (keys&apos; sentence)</source>
        <translation>X′（键所在的句子）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cross-attention: the keys and values come from the second sentence, so it has its own input matrix X′.</source>
        <translation>交叉注意力：键和值来自第二个句子，因此它有自己的输入矩阵 X′。</translation>
    </message>
    <message>
        <location line="-183"/>
        <location line="+188"/>
        <source>queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token&apos;s query, what it is looking for: X times this head&apos;s %1 × %2 slice of W_Q, so d_k = %2 numbers per token.</source>
        <translation>每个词元的查询，即它要寻找什么：X 乘以 W_Q 中属于本头的 %1 × %2 部分，因此每个词元有 d_k = %2 个数。</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+188"/>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each token&apos;s key, what it offers to be found by: the same input times W_K.</source>
        <translation>每个词元的键，即它凭什么被找到：同一输入乘以 W_K。</translation>
    </message>
    <message>
        <location line="-169"/>
        <location line="+171"/>
        <source>values</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each token&apos;s value, what it passes on when attended to: the input times W_V.</source>
        <translation>每个词元的值，即它被关注时传递出去的内容：输入乘以 W_V。</translation>
    </message>
    <message>
        <location line="-152"/>
        <location line="+162"/>
        <source>scores</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Additive (Bahdanau) scoring: one learned vector w scores tanh(q + k) for every query and key.</source>
        <translation>加性（Bahdanau）评分：用一个可学习的向量 w 对每一对查询和键的 tanh(q + k) 打分。</translation>
    </message>
    <message>
        <location line="-162"/>
        <location line="+165"/>
        <source>Every query against every key: the dot product of query row i and key row j, so similar vectors score high.</source>
        <translation>每个查询与每个键比较：查询第 i 行与键第 j 行的点积，向量越相似，分数越高。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(additive: not scaled)</source>
        <translation>（加性评分：不缩放）</translation>
    </message>
    <message>
        <location line="-161"/>
        <location line="+162"/>
        <source>scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Additive scores are used as they are.</source>
        <translation>加性评分的分数直接使用，不做缩放。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Divided by √d_k = √%1 = %2, so that the scores do not grow with d_k and the softmax does not saturate.</source>
        <translation>除以 √d_k = √%1 = %2，使分数不随 d_k 增大，softmax 也不会饱和。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>+ mask M</source>
        <translation>+ 掩码 M</translation>
    </message>
    <message>
        <location line="-160"/>
        <location line="+161"/>
        <source>masked scores</source>
        <translation>掩码后的分数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The mask adds −∞ where a query may not look (future tokens with the causal mask, padding, masked keys), 0 elsewhere.</source>
        <translation>掩码在查询不允许关注的位置加上 −∞（因果掩码下的未来词元、填充、被掩码的键），其余位置加 0。</translation>
    </message>
    <message>
        <location line="-375"/>
        <source>attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Softmax along each row: e^s / Σ e^s. Every row now sums to 1, and −∞ becomes exactly 0. These are the weights the heatmaps show.</source>
        <translation>对每一行做 softmax：e^s / Σ e^s。现在每行之和为 1，−∞ 恰好变为 0。热力图显示的就是这些权重。</translation>
    </message>
    <message>
        <location line="+384"/>
        <source>dropout(A) = A</source>
        <translation>dropout(A) = A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights after dropout</source>
        <translation>Dropout 之后的权重</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Training mode: each weight is dropped with probability %1 and the rest are scaled by 1/(1 − p), so rows no longer sum to exactly 1.</source>
        <translation>训练模式：每个权重以概率 %1 被丢弃，其余权重乘以 1/(1 − p)，因此每行之和不再恰好为 1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Evaluation mode (or p = 0): dropout changes nothing.</source>
        <translation>评估模式（或 p = 0）：Dropout 不起作用。</translation>
    </message>
    <message>
        <location line="-385"/>
        <source>head output</source>
        <translation>头的输出</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>The steps show how a model computes a layer&apos;s attention: maps read from a file hold only the result. Open the model itself (File ▸ Open Model…) to see its steps.</source>
        <translation>计算步骤展示模型如何算出一层的注意力：从文件读取的注意力图只含结果。请打开模型本身（文件 ▸ 打开模型…）查看其步骤。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The steps show a layer&apos;s whole computation: they are not kept for a window of the text (Show All, over the heatmaps, brings every token back).</source>
        <translation>计算步骤展示一层的完整计算，文本窗口不保留它们（热图上方的“全部显示”可恢复所有词元）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The steps are computed for up to %1 attention cells (heads × tokens × tokens); this text has %2. Shorten it to see the steps.</source>
        <translation>计算步骤最多保留 %1 个注意力单元（头数 × 词元数 × 词元数）；这段文本有 %2 个。缩短文本即可查看步骤。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The steps of layer %1 follow when the model stops writing.</source>
        <translation>模型停止续写后将显示第 %1 层的步骤。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Computing the steps of layer %1…</source>
        <translation>正在计算第 %1 层的步骤…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source> Grouped-query attention: the %1 query heads share %2 key/value heads, so heads %3 to %4 all read key/value head %5.</source>
        <translation> 分组查询注意力：%1 个查询头共享 %2 个键/值头，因此第 %3 到第 %4 个头都读取第 %5 个键/值头。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> (key/value head %1 of %2)</source>
        <translation>（第 %1 个键/值头，共 %2 个）</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Layer %1&apos;s input: each token&apos;s vector in the residual stream, normalised by the layer&apos;s first norm, %2 numbers per token.</source>
        <translation>第 %1 层的输入：残差流中每个词元的向量，经过该层第一个归一化，每个词元 %2 个数。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Layer %1&apos;s input: each token&apos;s vector as the layer before left it (the embeddings for layer 1), %2 numbers per token.</source>
        <translation>第 %1 层的输入：上一层输出的每个词元向量（第 1 层为嵌入），每个词元 %2 个数。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Each token&apos;s query: X times this head&apos;s %1 × %2 slice of W_Q (plus a bias where the model has one), so head_dim = %2 numbers per token.</source>
        <translation>每个词元的查询：X 乘以该头在 W_Q 中的 %1 × %2 切片（模型有偏置时再加偏置），因此每个词元有 head_dim = %2 个数。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Each token&apos;s key, what it offers to be found by: X times W_K.</source>
        <translation>每个词元的键，即它供别人查找的特征：X 乘以 W_K。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>rotated queries</source>
        <translation>旋转后的查询</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rotary positions: dimensions c and c + %1 of token t&apos;s query are turned together by an angle t · θ_c. Compare the rows with Q: the first token is not turned at all.</source>
        <translation>旋转位置编码：词元 t 的查询中第 c 维和第 c + %1 维一起旋转角度 t · θ_c。与 Q 的各行对比：第一个词元完全没有旋转。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>rotated keys</source>
        <translation>旋转后的键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same rotation for the keys. Q′ · K′ then depends on how far apart two tokens are, not on where they stand.</source>
        <translation>键也做同样的旋转。于是 Q′ · K′ 取决于两个词元相隔多远，而不是它们各自的位置。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Each token&apos;s value, what it passes on when attended to: X times W_V (not rotated).</source>
        <translation>每个词元的值，即被关注时传递出去的内容：X 乘以 W_V（不旋转）。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Divided by √head_dim = √%1 = %2, so that the scores do not grow with head_dim and the softmax does not saturate.</source>
        <translation>除以 √head_dim = √%1 = %2，使得分不随 head_dim 增大，softmax 也不会饱和。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Multiplied by %1, as this model&apos;s configuration asks.</source>
        <translation>按该模型配置的要求乘以 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>+ causal mask</source>
        <translation>+ 因果掩码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A causal model: each token may look only at itself and the tokens before it, so the mask adds −∞ above the diagonal.</source>
        <translation>因果模型：每个词元只能看到自己和它之前的词元，因此掩码在对角线上方加上 −∞。</translation>
    </message>
    <message>
        <location line="-203"/>
        <source>Each query&apos;s output is the weighted average of the value rows: row i of A times V.</source>
        <translation>每个查询的输出是各值行的加权平均：A 的第 i 行乘以 V。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>concat(head 1 … head %1)</source>
        <translation>concat(头 1 … 头 %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The %1 heads&apos; outputs side by side: %1 × %2 = %3 columns. This head&apos;s columns are outlined.</source>
        <translation>%1 个头的输出并排拼接：%1 × %2 = %3 列。本头的列已用边框标出。</translation>
    </message>
    <message>
        <location line="+201"/>
        <location line="+216"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="-213"/>
        <source>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual) and then runs its MLP.</source>
        <translation>W_O 把各个头混合回每个词元 %1 个数。该层把结果加到输入上（残差），然后运行 MLP。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>W_O mixes the heads back into %1 numbers per token. The layer adds this to its input (the residual); this model has no MLP, so that sum goes straight to the next layer.</source>
        <translation>W_O 把各个头重新混合成每个词元 %1 个数。该层把它加到输入上（残差）；这个模型没有 MLP，所以这个和直接进入下一层。</translation>
    </message>
    <message>
        <location line="+213"/>
        <source>W_O mixes the heads back into one embed_dim vector per token: the layer&apos;s output.</source>
        <translation>W_O 把各个头重新混合成每个词元一个 embed_dim 维的向量：这就是该层的输出。</translation>
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
        <translation>偏置</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L%1 attention bias</source>
        <translation>L%1 注意力偏置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>L%1 MLP</source>
        <translation>L%1 MLP</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 at %2 (key side)</source>
        <translation>%2 处的 %1（键侧）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 at %2 (query side)</source>
        <translation>%2 处的 %1（查询侧）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the other %1 pairs</source>
        <translation>其余 %1 对</translation>
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
        <translation>为什么这样注意？QK 归因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why does %1 at %2 (token %3) look at %4 (token %5)?</source>
        <translation>为什么 %1 在 %2（第 %3 个词元）处关注 %4（第 %5 个词元）？</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 · “%2” · score %3</source>
        <translation>%1 · “%2” · 分数 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · weight %1</source>
        <translation> · 权重 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each bar is one pair&apos;s part of the score (q · k × %1): a part of the residual stream at the key times a part at the query, the norms frozen at the whole stream&apos;s scale. Red raises the score, blue lowers it; the bars add up to the score.</source>
        <translation>每根条形是一对成分在分数（q·k×%1）中所占的部分：键处残差流的一个成分乘以查询处的一个成分，归一化的缩放固定为整个残差流的值。红色提高分数，蓝色降低分数；所有条形加起来等于分数。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: %2 (token %3) → %4 (token %5)</source>
        <translation>%1：%2（第 %3 个词元）→ %4（第 %5 个词元）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: %2 (%3) → %4 (%5)</source>
        <translation>%1：%2（%3）→ %4（%5）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
</context>
<context>
    <name>ZoomMapFigure</name>
    <message>
        <location filename="../../ui/render/zoom_map_figure.cpp" line="+258"/>
        <source>Query (row)</source>
        <translation>查询（行）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Key (column)</source>
        <translation>键（列）</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Queries %1–%2 × keys %3–%4 of %5 tokens</source>
        <translation>共 %5 个词元中的查询 %1–%2 × 键 %3–%4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · each pixel: the largest weight of %1 × %1 cells</source>
        <translation> · 每个像素：%1 × %1 个单元中的最大权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · each pixel: the mean weight of %1 × %1 cells</source>
        <translation> · 每个像素：%1 × %1 个单元的平均权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · colours from 0 to the map&apos;s largest weight, %1</source>
        <translation> · 颜色从 0 到该图的最大权重 %1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AtlasView</name>
    <message>
        <location filename="../../ui/model/atlas_view.cpp" line="+68"/>
        <source>previous token</source>
        <translation>前一个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sink</source>
        <translation>汇聚</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>self</source>
        <translation>自身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>broad</source>
        <translation>广泛</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Broad</source>
        <translation>广度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First</source>
        <translation>首词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous</source>
        <translation>前一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Entropy (nats)</source>
        <translation>熵（奈特）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Broadness (entropy / its maximum)</source>
        <translation>广度（熵 / 其最大值）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean distance (tokens)</source>
        <translation>平均距离（词元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to the first token</source>
        <translation>对第一个词元的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to itself</source>
        <translation>对自身的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to the previous token</source>
        <translation>对前一个词元的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Induction score</source>
        <translation>归纳分数</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>%1 (%2% of texts agree)</source>
        <translation>%1（%2% 的文本符合）</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Layer %1 · head %2: %3 %4 (95% interval %5 to %6, %n text(s))%7</source>
        <translation>
            <numerusform>第 %1 层 · 头 %2：%3 %4（95% 置信区间 %5 到 %6，%n 篇文本）%7</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Layer %1 · head %2: %3 %4%5</source>
        <translation>第 %1 层 · 头 %2：%3 %4%5</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>打开完整注意力图…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show in Heatmaps</source>
        <translation>在热力图中显示</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Colour the grid by:</source>
        <translation>网格着色依据：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This text</source>
        <translation>本文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every head measured on the text above</source>
        <translation>在上方文本上度量每个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head measured over the texts of a corpus, each measure with its 95% interval (File ▸ Open Corpus…)</source>
        <translation>在一份语料的所有文本上度量每个头，每项指标附 95% 置信区间（文件 ▸ 打开语料…）</translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source>Corpus (%n text(s))</source>
        <translation>
            <numerusform>语料（%n 篇文本）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the texts the text box held</source>
        <translation>文本框中输入过的文本</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Each measure is averaged over %1 (%n text(s), %2 tokens; the induction score over the %3 that repeat a token), with its 95% interval: the whiskers in the grid, ± in the table. A label is the one the means earn; its share is of the texts whose own measures earn it. Click a head for its top examples.</source>
        <translation>
            <numerusform>每项指标都对 %1 取平均（%n 篇文本，%2 个词元；归纳分数只对其中 %3 篇有重复词元的文本取平均），并给出 95% 置信区间：网格里的须线，表格里的 ±。标签由平均值决定；括号里的比例是自身指标也够得上该标签的文本所占的比例。单击一个头可查看它的典型例子。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stopped after %1 of %2 texts: the result is partial.</source>
        <translation>在 %2 篇文本中的第 %1 篇之后停止：结果不完整。</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n text(s) longer than the model were cut to its positions.</source>
        <translation>
            <numerusform>%n 篇文本超过了模型的长度，已截断到它的位置数。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each measure is averaged over the query tokens of the text above. The induction score is measured on a sequence the tool makes (the first token, then 50 random tokens twice): the attention from a token of the second copy to the token after its earlier occurrence. Labels: previous token ≥ 0.4, sink (first token) ≥ 0.5, self ≥ 0.5, induction ≥ 0.3, broad ≥ 0.8.</source>
        <translation>每项指标都对上方文本的所有查询词元取平均。归纳分数在本工具生成的序列上测量（第一个词元，然后把 50 个随机词元重复两遍）：第二遍中的词元对其前一次出现之后那个词元的注意力。标签：前一个词元 ≥ 0.4，汇聚（第一个词元）≥ 0.5，自身 ≥ 0.5，归纳 ≥ 0.3，广泛 ≥ 0.8。</translation>
    </message>
    <message>
        <location line="-91"/>
        <source>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to measure its heads.</source>
        <translation>在工具栏的“来源”框中选择一个训练好的模型（内置，无需下载：%1），或打开一个模型（文件 ▸ 打开模型…），即可度量它的每个头。</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>These maps were read from a file: the induction score needs the model itself to run that sequence, so it is left out (–).</source>
        <translation>这些注意力图读自文件：归纳分数需要模型本身运行该序列，因此略去（–）。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Labels (share of texts)</source>
        <translation>标签（符合的文本比例）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: the mean over the texts ± half its 95% interval</source>
        <translation>%1：在所有文本上的平均值 ± 95% 置信区间的一半</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>95% interval %1 to %2 over %n text(s)</source>
        <translation>
            <numerusform>95% 置信区间 %1 到 %2，共 %n 篇文本</numerusform>
        </translation>
    </message>
    <message>
        <location line="+96"/>
        <source>Export the Head Atlas</source>
        <translation>导出头图谱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot export the head atlas</source>
        <translation>无法导出头图谱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="-285"/>
        <source>Open a trained model to measure its heads.</source>
        <translation>打开一个训练好的模型来测量它的各个头。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AttentionDocument</name>
    <message>
        <location filename="../../ui/document/attention_document.cpp" line="-745"/>
        <source>embed_dim must be between %1 and %2.</source>
        <translation>嵌入维度 embed_dim 必须在 %1 到 %2 之间。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 heads do not divide embed_dim %2, so %3 heads are used.</source>
        <translation>%1 个头不能整除嵌入维度 %2，因此改用 %3 个头。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 heads do not divide embed_dim %2: each head gets embed_dim / heads dimensions. Choose one of %3.</source>
        <translation>%1 个头不能整除嵌入维度 %2：每个头分得 embed_dim / 头数 个维度。请从 %3 中选择。</translation>
    </message>
    <message>
        <location line="+401"/>
        <source>4 vs 8 heads needs an embed_dim that 8 divides (it is %1).</source>
        <translation>“4 个头 vs 8 个头”需要嵌入维度能被 8 整除（当前为 %1）。</translation>
    </message>
    <message>
        <location line="+375"/>
        <source>num_heads %1 does not divide embed_dim %2</source>
        <translation>头数 num_heads %1 不能整除嵌入维度 embed_dim %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&apos;knocked_out&apos; is not a list</source>
        <translation>“knocked_out”不是列表</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;knocked_out&apos; entries must be [layer, head, &quot;zero&quot; or &quot;mean&quot;], layer and head from 0</source>
        <translation>“knocked_out”的每一项必须是 [层, 头, &quot;zero&quot; 或 &quot;mean&quot;]，层和头从 0 开始计数</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;knocked_out&apos; names heads of a model, but the source is the demo layer</source>
        <translation>“knocked_out”指定的是模型的头，但来源是演示层</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;generated&apos; is not a list of token ids</source>
        <translation>“generated”不是词元 id 的列表</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;generated&apos; entries must be token ids, whole numbers from 0</source>
        <translation>“generated”的每一项必须是词元 id，即从 0 开始的整数</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;generated&apos; continues a model&apos;s text, but the source is the demo layer</source>
        <translation>“generated”是模型续写的文本，但来源是演示层</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&apos;masked_keys&apos; is not a list</source>
        <translation>“masked_keys”不是列表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;masked_keys&apos; entries must be [item, key] pairs of whole numbers</source>
        <translation>“masked_keys”的每一项必须是由整数组成的 [样本, 键] 对</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>&apos;%1&apos; is not an array</source>
        <translation>“%1”不是数组</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&apos;line_heads&apos; must list head numbers from 0 to 63</source>
        <translation>“line_heads”必须列出 0 到 63 之间的头编号</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;open_layers&apos; must list layer numbers from 0 to 63</source>
        <translation>“open_layers”必须列出 0 到 63 之间的层编号</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CircuitsView</name>
    <message>
        <location filename="../../ui/model/circuits_view.cpp" line="+192"/>
        <source>&amp;Composition:</source>
        <translation>组合(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Q-composition (queries)</source>
        <translation>Q 组合（查询）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>K-composition (keys)</source>
        <translation>K 组合（键）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>V-composition (values)</source>
        <translation>V 组合（值）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How a later head reads what an earlier head writes: through its queries (Q), its keys (K) or its values (V)</source>
        <translation>较晚的头怎样读取较早的头写入的内容：通过它的查询（Q）、键（K）或值（V）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;RoPE offset:</source>
        <translation>RoPE 偏移(&amp;R)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rotary positions make W_QK depend on the distance between query and key: the scores take it at this many positions (1: the key just before the query)</source>
        <translation>旋转位置编码使 W_QK 取决于查询与键之间的距离：分数按这个距离计算（1：键紧挨在查询之前）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compute the composition and copying scores from the weights</source>
        <translation>由权重计算组合分数和复制分数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the scores (CSV)</source>
        <translation>图（PNG、SVG、PDF）或分数（CSV）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+223"/>
        <source>%1 writes, %2 reads: their attention on the window&apos;s text</source>
        <translation>%1 写入，%2 读取：它们在窗口文本上的注意力</translation>
    </message>
    <message>
        <location line="-171"/>
        <source>Attention maps read from a file have no weights: the circuits are computed from a model&apos;s weights. Open one (File ▸ Open Model…).</source>
        <translation>从文件读取的注意力图不含权重：回路要由模型的权重算出。请打开一个模型（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Circuits are computed from a trained model&apos;s weights: open one (File ▸ Open Model…).</source>
        <translation>回路要由训练好的模型的权重算出：请打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Circuits are computed from a trained model&apos;s weights: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>回路要由训练好的模型的权重算出：请在“来源”框中选择一个（内置：%1），或打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The scores keep %1 of the weights&apos; factors, more than the memory budget of %2 (Attention ▸ Memory Budget…).</source>
        <translation>计算分数要保留 %1 的权重因子，超过内存预算 %2（注意力 ▸ 内存预算…）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Computing the scores from the weights…</source>
        <translation>正在由权重计算分数…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Cannot compute the circuits</source>
        <translation>无法计算回路</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped: Compute starts again.</source>
        <translation>已停止：点“计算”可重新开始。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Computing the scores from the weights: layer %1 of %2…</source>
        <translation>正在由权重计算分数：第 %1 层，共 %2 层…</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Type a text in the input box: the two heads&apos; attention on it shows here.</source>
        <translation>在输入框中输入一段文本：两个头在这段文本上的注意力会显示在这里。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The two maps of %1 × %1 tokens need %2, more than the memory budget of %3 (Attention ▸ Memory Budget…).</source>
        <translation>两张 %1 × %1 个词元的注意力图需要 %2，超过内存预算 %3（注意力 ▸ 内存预算…）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Reading the two heads&apos; maps…</source>
        <translation>正在读取两个头的注意力图…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Rows: the queries; columns: the keys. Wheel: zoom · drag: pan.</source>
        <translation>行：查询；列：键。滚轮：缩放 · 拖动：平移。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · norm-based ‖α·f(x)‖</source>
        <translation> · 基于范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1, the earlier head (writes)</source>
        <translation>%1，较早的头（写入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, the later head (reads)</source>
        <translation>%1，较晚的头（读取）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The scores are not computed yet: there is nothing to export.</source>
        <translation>分数还没有算出：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot export the circuits</source>
        <translation>无法导出回路</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>无法复制图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The scores are not computed yet: there is nothing to copy.</source>
        <translation>分数还没有算出：没有可复制的内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the circuits</source>
        <translation>导出回路</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CompareView</name>
    <message>
        <location filename="../../ui/classroom/compare_view.cpp" line="+303"/>
        <source>Compare:</source>
        <translation>对比：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Without vs with causal mask</source>
        <translation>无因果掩码 vs 有因果掩码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A without the causal mask, B with it: what a language model may not look at</source>
        <translation>A 不加因果掩码，B 加因果掩码：语言模型不能看的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4 vs 8 heads</source>
        <translation>4 个头 vs 8 个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A with 4 heads, B with 8, compared on the mean over heads</source>
        <translation>A 用 4 个头，B 用 8 个头，比较各头平均</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout off vs on, same seed</source>
        <translation>Dropout 关 vs 开，种子相同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A in evaluation mode, B training with dropout: the dropped weights become 0 and the others grow by 1/(1 − p)</source>
        <translation>A 为评估模式，B 为带 Dropout 的训练模式：被丢弃的权重变为 0，其余权重放大 1/(1 − p) 倍</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sh&amp;ow:</source>
        <translation>显示内容(&amp;O)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;dit B</source>
        <translation>编辑 B(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the settings B changes</source>
        <translation>显示或隐藏 B 改动的设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B = A with:</source>
        <translation>B = A，但：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B&apos;s dropout probability; B keeps A&apos;s dropout seed</source>
        <translation>B 的 Dropout 概率；B 沿用 A 的 Dropout 种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scoring</source>
        <translation>评分函数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fully masked rows</source>
        <translation>全被掩码的行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Positional encoding</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weight seed</source>
        <translation>权重种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B shows this layer of the model</source>
        <translation>B 显示模型的这一层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B shows this head, against the head A shows (Show, above): two heads of one layer, or of two layers</source>
        <translation>B 显示这个头，与 A 显示的头（上方“显示”）对比：同一层的两个头，或两层的头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same as A</source>
        <translation>与 A 相同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B runs the model on this sentence; with as many tokens as A&apos;s, the two are compared token by token (swap one word)</source>
        <translation>B 在这个句子上运行模型；词元数与 A 相同时逐个词元比较（换一个词）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Maps</source>
        <translation>注意力图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B&apos;s attention maps: another file with the same layers, heads and tokens count, e.g. another checkpoint on the same text</source>
        <translation>B 的注意力图：另一个层数、头数和词元数都相同的文件，例如同一文本上的另一个检查点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B = A</source>
        <translation>B = A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo every change of B</source>
        <translation>撤销 B 的所有改动</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>B cannot be compared: %1</source>
        <translation>无法对比 B：%1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>B cannot be computed: %1</source>
        <translation>无法计算 B：%1</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+7"/>
        <location line="+109"/>
        <location line="+2"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="-115"/>
        <source>Head %1 (only in A)</source>
        <translation>头 %1（仅 A 有）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head %1 (only in B)</source>
        <translation>头 %1（仅 B 有）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>B is the same as A: pick a comparison above, or choose what B changes with Edit B.</source>
        <translation>B 与 A 相同：请在上方选择一种对比，或通过“编辑 B”选择 B 要改动的设置。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Computing configuration B…</source>
        <translation>正在计算配置 B…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same as A (%1)</source>
        <translation>与 A 相同（%1）</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+31"/>
        <location line="+3"/>
        <source>On</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="-34"/>
        <location line="+31"/>
        <location line="+3"/>
        <source>Off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>on, p = %1</source>
        <translation>开，p = %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off (evaluation)</source>
        <translation>关（评估模式）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On (training, A&apos;s seed)</source>
        <translation>开（训练模式，A 的种子）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>dot product</source>
        <translation>点积</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scaled dot product</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Same as A&apos;s</source>
        <translation>与 A 的相同</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ControlsPanel</name>
    <message>
        <location filename="../../ui/widgets/controls_panel.cpp" line="+47"/>
        <source>Attention layer</source>
        <translation>注意力层</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Model width (num_hiddens): the size of every token vector.</source>
        <translation>模型宽度（num_hiddens）：每个词元向量的长度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;embed_dim:</source>
        <translation>嵌入维度 embed_dim(&amp;E)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only head counts that divide embed_dim are offered: each head works on embed_dim / heads dimensions.</source>
        <translation>只提供能整除 embed_dim 的头数：每个头处理 embed_dim / 头数 个维度。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Heads:</source>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Scaled dot-product</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Additive (Bahdanau)</source>
        <translation>加性（Bahdanau）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;coring:</source>
        <translation>评分函数(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Projection &amp;bias</source>
        <translation>投影偏置(&amp;B)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sinusoidal &amp;positional encoding</source>
        <translation>正弦位置编码(&amp;P)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Seed of the random initialisation of the projections.</source>
        <translation>投影矩阵随机初始化所用的种子。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Weight seed:</source>
        <translation>权重种子(&amp;W)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load weights…</source>
        <translation>加载权重…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Load a PyTorch nn.MultiheadAttention state_dict saved with safetensors.</source>
        <translation>加载用 safetensors 保存的 PyTorch nn.MultiheadAttention state_dict。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use seed</source>
        <translation>改用种子</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Dropout on the weights</source>
        <translation>注意力权重上的 Dropout</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Rate:</source>
        <translation>丢弃率(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Training mode (dropout active)</source>
        <translation>训练模式（Dropout 生效）(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In evaluation mode dropout does nothing, as in PyTorch&apos;s eval().</source>
        <translation>在评估模式下 Dropout 不起作用，与 PyTorch 的 eval() 相同。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Resample</source>
        <translation>重新采样</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Draw a new dropout mask (next seed)  Ctrl+R</source>
        <translation>重新抽取 Dropout 掩码（下一个种子）  Ctrl+R</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>S&amp;eed:</source>
        <translation>种子(&amp;E)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Masks</source>
        <translation>掩码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Causal (no looking ahead)</source>
        <translation>因果掩码（不能看后面）(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mask every key after the query&apos;s position  Ctrl+K</source>
        <translation>掩盖查询位置之后的所有键  Ctrl+K</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Masked keys:</source>
        <translation>被掩码的键：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Zero weights</source>
        <translation>权重全为 0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Uniform weights</source>
        <translation>权重均匀分布</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NaN (as PyTorch)</source>
        <translation>NaN（与 PyTorch 相同）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What a query row gets when every key is masked.</source>
        <translation>当所有键都被掩码时，该查询行得到的值。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fully masked rows:</source>
        <translation>全被掩码的行(&amp;F)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Display</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Colo&amp;urs:</source>
        <translation>配色(&amp;U)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Shared by all heads (data range)</source>
        <translation>所有头共用（数据范围）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each head to its own range</source>
        <translation>每个头使用各自的范围</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fixed 0 – 1</source>
        <translation>固定为 0 – 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sc&amp;ale:</source>
        <translation>色标范围(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Print &amp;values in enlarged heads</source>
        <translation>在放大的头中显示数值(&amp;V)</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>%1  (head_dim %2)</source>
        <translation>%1  （每头维度 %2）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>none — click a token label in the heatmaps</source>
        <translation>无 — 点击热力图中的词元标签</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (#%2, sentence %3)</source>
        <translation>%1（#%2，句子 %3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (#%2)</source>
        <translation>%1（#%2）</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>random, from the weight seed</source>
        <translation>随机生成，来自权重种子</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>These settings belong to the demo layer; a trained model has its own. Choose “Demo layer” in the tool bar to use them.</source>
        <translation>这些设置属于演示层；训练好的模型有它自己的设置。在工具栏中选择“演示层”即可使用它们。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusExamples</name>
    <message>
        <location filename="../../ui/model/corpus_examples.cpp" line="+137"/>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Query → key</source>
        <translation>查询 → 键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Context (query blue, key orange)</source>
        <translation>上下文（查询为蓝色，键为橙色）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click a head for its top examples over the corpus.</source>
        <translation>单击一个头，查看它在语料中的典型例子。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Layer %1 · head %2 has no example: every weight it gave went to the first token or to the query itself.</source>
        <translation>第 %1 层 · 头 %2 没有例子：它的权重全部给了第一个词元或查询自身。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The %n cell(s) where layer %1 · head %2 puts its largest weight on a key that is neither the first token nor the query itself. Double-click one to open its text with this head in focus.</source>
        <translation>
            <numerusform>第 %1 层 · 头 %2 把最大权重放在既不是第一个词元、也不是查询自身的键上的 %n 个格子。双击其中一个，即可在聚焦这个头的情况下打开它的文本。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 (line %2)</source>
        <translation>%1（第 %2 行）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Text %1: the query at %2 “%3” gives the key at %4 “%5” a weight of %6. Double-click to open the text.</source>
        <translation>文本 %1：位置 %2 的查询“%3”给位置 %4 的键“%5”的权重为 %6。双击即可打开这条文本。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusSource</name>
    <message>
        <location filename="../../ui/model/corpus_source.cpp" line="+60"/>
        <location line="+135"/>
        <location line="+47"/>
        <source>Cannot measure the corpus</source>
        <translation>无法度量语料</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>Open &amp;Corpus…</source>
        <translation>打开语料(&amp;C)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure every head of the open model over a file of texts (one per line, per paragraph or per JSON Lines record)</source>
        <translation>在一个文本文件（每行、每段或每条 JSON Lines 记录一篇文本）上度量已打开模型的每个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Corpus from &amp;History</source>
        <translation>用历史文本作语料(&amp;H)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure every head of the open model over the texts the text box held in this session</source>
        <translation>在本次会话中文本框输入过的文本上度量已打开模型的每个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop after the text under way: the texts measured are kept, marked partial</source>
        <translation>在当前这篇文本之后停止：已度量的文本会保留，并标记为不完整</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Queries and keys…</source>
        <translation>正在计算查询与键…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Measuring the corpus…</source>
        <translation>正在度量语料…</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+6"/>
        <source>Open a Corpus</source>
        <translation>打开语料</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Texts (*.txt *.jsonl);;All files (*)</source>
        <translation>文本 (*.txt *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>“%1” begins like JSON Lines. Read each line as a JSON record, or as plain text?</source>
        <translation>“%1”的开头像 JSON Lines。要把每一行当作一条 JSON 记录，还是当作纯文本读取？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>JSON Lines</source>
        <translation>JSON Lines</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One text per line</source>
        <translation>每行一篇文本</translation>
    </message>
    <message numerus="yes">
        <location line="+41"/>
        <source>The text box has held %n text(s) in this session: a corpus needs at least two. Type a few more, or open a file (File ▸ Open Corpus…).</source>
        <translation>
            <numerusform>本次会话中文本框只输入过 %n 篇文本：语料至少需要两篇。请再输入几篇，或打开一个文件（文件 ▸ 打开语料…）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Cannot compute the queries and keys</source>
        <translation>无法计算查询与键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The session kept only the texts of the examples, and the corpus file “%1” is gone: open it again (File ▸ Open Corpus…).</source>
        <translation>会话只保存了例子所在的文本，而语料文件“%1”已不存在：请重新打开它（文件 ▸ 打开语料…）。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>A corpus is measured on a trained model: choose one in the Source box, or open one (File ▸ Open Model…).</source>
        <translation>语料要在训练好的模型上度量：请在“来源”框中选择一个，或打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Cannot open the text</source>
        <translation>无法打开这条文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The corpus was measured on %1: choose that model in the Source box to open its texts.</source>
        <translation>这份语料是在 %1 上度量的：请在“来源”框中选择该模型，才能打开其中的文本。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2 texts</source>
        <translation>%1 / %2 篇文本</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Corpus measured in part: %1 of %2 texts (stopped)</source>
        <translation>语料只度量了一部分：%2 篇中的 %1 篇（已停止）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Corpus measured: %1 texts, %2 tokens</source>
        <translation>语料度量完成：%1 篇文本，%2 个词元</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::DlaView</name>
    <message>
        <location filename="../../ui/model/dla_view.cpp" line="+215"/>
        <source>Token in focus:</source>
        <translation>关注的词元：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token whose prediction of the next token is attributed (default: the last)</source>
        <translation>对哪个词元处的下一词元预测做归因（默认：最后一个）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the top prediction</source>
        <translation>首选预测</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The next token whose logit is split into parts: a text that is one token, or a vocabulary entry; empty: the model&apos;s top prediction</source>
        <translation>要把其 logit 拆分成各部分的下一个词元：一段恰为单个词元的文本，或词表中的一项；留空：模型的首选预测</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Distractor:</source>
        <translation>干扰项：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A token it competes with: the parts of logit(target) − logit(distractor) instead</source>
        <translation>与目标竞争的词元：改为拆分 logit(目标) − logit(干扰项)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency:</source>
        <translation>显著性：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Integrated gradients</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each input token&apos;s share of the same prediction, from the gradient with respect to its token embedding: one backward pass, or integrated gradients (steps + 2 passes)</source>
        <translation>每个输入词元对同一预测的贡献，由对其词元嵌入的梯度得出：只需一次反向传播；积分梯度则需要（步数 + 2）次传播</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Integrated gradients&apos; steps along the path from the baseline: more steps close the completeness gap, each costs a pass forwards and back</source>
        <translation>积分梯度沿从基线出发的路径所取的步数：步数越多，完备性差距越小，但每一步都要做一次前向和反向传播</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saliency %p%</source>
        <translation>显著性 %p%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the numbers (CSV)</source>
        <translation>图（PNG、SVG、PDF）或数值（CSV）</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Who writes the answer needs a trained causal language model: open one (File ▸ Open Model…).</source>
        <translation>“谁写出答案”需要一个训练好的因果语言模型：请打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>“谁写出答案”需要一个训练好的因果语言模型：请在“来源”框中选择一个（内置：%1），或打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>For a masked language model this tab shows the saliency alone: each input token&apos;s share of the prediction at the token in focus (at first, the [MASK]). Choose a method in the Saliency box.</source>
        <translation>对于掩码语言模型，本页只显示显著性：每个输入词元对关注词元处预测的贡献（起初是 [MASK] 处）。请在“显著性”框中选择一种方法。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>not one token</source>
        <translation>不是单个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is not one token of this vocabulary: pick one from the list.</source>
        <translation>“%1”不是此词表中的单个词元：请从列表中选择。</translation>
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
        <translation>无法计算显著性：%1</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Cannot attribute the logit: %1</source>
        <translation>无法对 logit 做归因：%1</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>There is no saliency yet: there is nothing to export.</source>
        <translation>还没有显著性结果：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>There is no attribution yet: there is nothing to export.</source>
        <translation>还没有归因结果：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot export the attribution</source>
        <translation>无法导出归因结果</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cannot copy the figure</source>
        <translation>无法复制图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no attribution yet: there is nothing to copy.</source>
        <translation>还没有归因结果：没有可复制的内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the attribution</source>
        <translation>导出归因结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::DocumentHistory</name>
    <message>
        <location filename="../../ui/widgets/document_history.cpp" line="+86"/>
        <source>Knock Out Heads</source>
        <translation>敲除头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Typing</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep Generated Text</source>
        <translation>保留生成的文本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change Source</source>
        <translation>更换来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mask Keys</source>
        <translation>掩码键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change Settings</source>
        <translation>更改设置</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportDialog</name>
    <message>
        <location filename="../../ui/widgets/export_dialog.cpp" line="+19"/>
        <source>Export Figure</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>PNG image</source>
        <translation>PNG 图像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG vector graphics</source>
        <translation>SVG 矢量图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>All heads and the mean</source>
        <translation>所有头及其平均</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <location line="-42"/>
        <location line="+7"/>
        <location line="+29"/>
        <location line="+8"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="-32"/>
        <location line="+13"/>
        <location line="+12"/>
        <location line="+10"/>
        <source>&amp;Show:</source>
        <translation>显示内容(&amp;S)：</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>&amp;Head:</source>
        <translation>头(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every stage</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stages 1 to %1, as in the view</source>
        <translation>第 1 至 %1 步（与视图相同）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stage %1 and its inputs, large</source>
        <translation>第 %1 步及其输入（放大）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Heads %1, as in the view</source>
        <translation>头 %1（与视图相同）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <location line="+30"/>
        <location line="+4"/>
        <location line="+41"/>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Presets…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slide 16:9 (1600 × 900)</source>
        <translation>幻灯片 16:9（1600 × 900）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slide 4:3 (1200 × 900)</source>
        <translation>幻灯片 4:3（1200 × 900）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Square (1000 × 1000)</source>
        <translation>正方形（1000 × 1000）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paper column (700 × 500)</source>
        <translation>论文单栏（700 × 500）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Si&amp;ze:</source>
        <translation>尺寸(&amp;Z)：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>1× (screen)</source>
        <translation>1×（屏幕）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2× (slides, retina)</source>
        <translation>2×（幻灯片、高分屏）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>3× (print)</source>
        <translation>3×（打印）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4×</source>
        <translation>4×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;cale (PNG):</source>
        <translation>缩放倍数（PNG）(&amp;C)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Text size:</source>
        <translation>文字大小(&amp;T)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Automatic: states the configuration</source>
        <translation>自动：说明当前配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>T&amp;itle:</source>
        <translation>标题(&amp;I)：</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>The image will be %1 × %2 pixels.</source>
        <translation>图像大小将为 %1 × %2 像素。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Vector output: real text, crisp cells at any zoom (%1 × %2 pt).</source>
        <translation>矢量输出：文字可选中，任意缩放都清晰（%1 × %2 pt）。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FigureExports</name>
    <message>
        <location filename="../../ui/widgets/figure_exports.cpp" line="+112"/>
        <location line="+56"/>
        <location line="+38"/>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <location line="-93"/>
        <source>There is no figure yet: the attention is still being computed or the input has an error.</source>
        <translation>还没有图：注意力仍在计算中，或者输入有误。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the figure</source>
        <translation>无法导出图像</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>There is no figure yet.</source>
        <translation>还没有图。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Export Figure</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 files (*.%2)</source>
        <translation>%1 文件 (*.%2)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>There are no weights yet.</source>
        <translation>还没有权重。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot export the weights</source>
        <translation>无法导出权重</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export Weights</source>
        <translation>导出权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV table (*.csv);;NumPy array [N, H, L, S] (*.npy);;JSON with tokens (*.json)</source>
        <translation>CSV 表格 (*.csv);;NumPy 数组 [N, H, L, S] (*.npy);;带词元的 JSON (*.json)</translation>
    </message>
    <message>
        <location line="+25"/>
        <location line="+13"/>
        <location line="+9"/>
        <source>Cannot copy the figure</source>
        <translation>无法复制图</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Figure copied to the clipboard</source>
        <translation>图像已复制到剪贴板</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Load Weights</source>
        <translation>加载权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>safetensors state_dict (*.safetensors);;All files (*)</source>
        <translation>safetensors state_dict (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+33"/>
        <source>Cannot load weights</source>
        <translation>无法加载权重</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>No file was given.</source>
        <translation>未指定文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading weights from %1…</source>
        <translation>正在读取 %1 中的权重…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&apos;%1&apos; is a layer with kdim %2 and vdim %3, but the demo layer&apos;s keys and values have embed_dim (%4).</source>
        <translation>“%1”中的层 kdim 为 %2、vdim 为 %3，但演示层的键和值的维度为 embed_dim（%4）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; has bias_k and bias_v, which the demo layer does not have.</source>
        <translation>“%1”含有 bias_k 和 bias_v，而演示层没有这两项。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Loaded weights from %1</source>
        <translation>已从 %1 加载权重</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FlowView</name>
    <message>
        <location filename="../../ui/model/flow_view.cpp" line="+150"/>
        <source>Token in focus:</source>
        <translation>关注的词元：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token whose prediction of the next token the graph explains (default: the last); clicking a token&apos;s dot in the figure chooses it too</source>
        <translation>图所解释的是这个词元对下一个词元的预测（默认：最后一个词元）；在图中点击词元的圆点也可以选择它</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Threshold:</source>
        <translation>阈值：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The least importance of a line in the graph: lower shows more of the routes</source>
        <translation>图中线条的最小重要性：调低可显示更多路径</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Per head</source>
        <translation>按注意力头</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF)</source>
        <translation>图（PNG、SVG、PDF）</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>The attention&apos;s lines per head rather than per token through every head (measures the importances again)</source>
        <translation>注意力的线按每个注意力头分开画，而不是把所有头按词元合在一起（会重新计算重要性）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Measuring…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Information flow needs a trained pre-norm model: open one (File ▸ Open Model…).</source>
        <translation>信息流需要一个训练好的前归一化模型：请打开一个模型（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Information flow needs a trained pre-norm model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>信息流需要一个训练好的前归一化模型：请在“来源”框中选择一个（内置：%1），或打开一个模型（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Cannot measure the information flow: %1</source>
        <translation>无法计算信息流：%1</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>There is no graph yet: there is nothing to export.</source>
        <translation>还没有图，没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the information flow</source>
        <translation>无法导出信息流</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>无法复制图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no graph yet: there is nothing to copy.</source>
        <translation>还没有图，没有可复制的内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the information flow</source>
        <translation>导出信息流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FullMapWindow</name>
    <message>
        <location filename="../../ui/widgets/full_map_window.cpp" line="+90"/>
        <source>There is no full map to show for this source.</source>
        <translation>此来源没有可显示的完整注意力图。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Layer %1, head %2: the full map of %3 × %3 tokens needs %4, more than the memory budget of %5 (Attention ▸ Memory Budget…).</source>
        <translation>第 %1 层第 %2 个头：%3 × %3 个词元的完整注意力图需要 %4，超过内存预算 %5（注意力 ▸ 内存预算…）。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 · layer %2 · head %3 · norm-based ‖α·f(x)‖</source>
        <translation>%1 · 第 %2 层 · 第 %3 个头 · 基于范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · layer %2 · head %3</source>
        <translation>%1 · 第 %2 层 · 第 %3 个头</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Full map: %1</source>
        <translation>完整注意力图：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Zoomed out, a pixel shows:</source>
        <translation>缩小时每个像素显示(&amp;Z)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the largest weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the mean weight</source>
        <translation>平均权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where a pixel covers several cells: the largest weight among them keeps a single strong weight visible; the mean keeps the total.</source>
        <translation>一个像素覆盖多个单元时：取最大权重可让单个强权重保持可见；取平均则保留总量。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Fit</source>
        <translation>适应(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the whole map (0)</source>
        <translation>显示全图 (0)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the region in view as PNG, SVG or PDF</source>
        <translation>将当前区域保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+102"/>
        <source>Reading layer %1, head %2…</source>
        <translation>正在读取第 %1 层第 %2 个头…</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>Wheel: zoom about the cursor · drag: pan · + and −: zoom · arrows: pan · 0: the whole map · Alt-click a cell: why this attention?</source>
        <translation>滚轮：以光标为中心缩放 · 拖动：平移 · + 和 −：缩放 · 方向键：平移 · 0：全图 · Alt+单击格子：为什么这样注意？</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Why this attention? explains the maps of the window&apos;s own text: open this head&apos;s full map from the Heatmaps or Model tab (right-click it).</source>
        <translation>“为什么这样注意？”只解释主窗口当前文本的注意力图：请在“热力图”或“模型”标签页中打开这个头的完整注意力图（右键单击它）。</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Cannot show the full map</source>
        <translation>无法显示完整注意力图</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The map is not read yet: there is nothing to export.</source>
        <translation>注意力图尚未读取：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot export the full map</source>
        <translation>无法导出完整注意力图</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Export the full map</source>
        <translation>导出完整注意力图</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::GenerationPanel</name>
    <message>
        <location filename="../../ui/model/generation_panel.cpp" line="+245"/>
        <source>Writing… %1 of %2</source>
        <translation>正在续写… 第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model ended its text (end-of-text token).</source>
        <translation>模型结束了它的文本（文本结束词元）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s positions are full.</source>
        <translation>模型的位置已用完。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Wrote %n token(s).</source>
        <translation>
            <numerusform>已写出 %n 个词元。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Stopped: the text or the model changed.</source>
        <translation>已停止：文本或模型已改变。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Writing…</source>
        <translation>正在续写…</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Stopped after %n token(s).</source>
        <translation>
            <numerusform>写出 %n 个词元后停止。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The text now ends with the model&apos;s tokens.</source>
        <translation>文本现在以模型写出的词元结尾。</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step %1 of %2: every view shows the text as the model had it then, the newest token&apos;s row being the attention it wrote with</source>
        <translation>第 %1 步，共 %2 步：每个视图都显示模型当时看到的文本，最新词元那一行就是它写出该词元时的注意力</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Write with the model</source>
        <translation>让模型续写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many tokens Continue writes</source>
        <translation>“续写”写出多少个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Greedy (most likely)</source>
        <translation>贪心（最可能的）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sampled</source>
        <translation>采样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue</source>
        <translation>续写</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Append the model&apos;s own next tokens to the text, one by one (with the heads knocked out, the ablated model writes)</source>
        <translation>把模型自己预测的下一个词元逐个接到文本后面（若有被敲除的头，就由敲除后的模型来写）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Make the text shown, with the model&apos;s tokens, the sentence</source>
        <translation>把当前显示的文本（含模型写出的词元）作为句子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drop the model&apos;s tokens: back to the sentence as typed</source>
        <translation>丢弃模型写出的词元：回到输入的句子</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadStatisticsModel</name>
    <message>
        <location filename="../../ui/classroom/statistics_view.cpp" line="+120"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Entropy (bits)</source>
        <translation>熵（比特）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mean distance</source>
        <translation>平均距离</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>First token</source>
        <translation>第一个词元</translation>
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
        <translation>自身</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous token</source>
        <translation>前一个词元</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>How spread out each query&apos;s attention is, averaged over queries: 0 bits = all on one key, log2(keys) = evenly on every key.</source>
        <translation>每个查询的注意力有多分散（对所有查询取平均）：0 比特 = 全部集中在一个键上，log2(键数) = 均匀分布在所有键上。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The largest weight of each query row, averaged: near 1 means the head picks one key.</source>
        <translation>每个查询行中最大的权重（取平均）：接近 1 说明该头只挑一个键。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How far each query looks, in tokens: Σ weight × |query − key|.</source>
        <translation>每个查询关注得有多远（以词元计）：Σ 权重 × |查询 − 键|。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on the first key token.</source>
        <translation>落在第一个键词元上的权重占比。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on [CLS] keys (— if there are none).</source>
        <translation>落在 [CLS] 键上的权重占比（没有时显示 —）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on [SEP] keys (— if there are none).</source>
        <translation>落在 [SEP] 键上的权重占比（没有时显示 —）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight a token puts on itself (self-attention only).</source>
        <translation>词元放在自己身上的权重占比（仅自注意力）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the weight on the token just before (a &apos;previous-token head&apos;).</source>
        <translation>落在前一个词元上的权重占比（即“前一词元头”）。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapFigure</name>
    <message numerus="yes">
        <location filename="../../ui/render/heatmap_figure.cpp" line="+588"/>
        <source>Mean of %n head(s)</source>
        <translation>
            <numerusform>%n 个头的平均</numerusform>
        </translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> (%1–%2)</source>
        <translation>（%1–%2）</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Attention weights per head</source>
        <translation>各头的注意力权重</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message numerus="yes">
        <location line="-8"/>
        <source>Mean attention weights over %n head(s)</source>
        <translation>
            <numerusform>%n 个头的平均注意力权重</numerusform>
        </translation>
    </message>
    <message>
        <location line="-24"/>
        <source> · knocked out</source>
        <translation> · 已敲除</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Attention weights of the first %1 of %2 heads</source>
        <translation>%2 个头中前 %1 个头的注意力权重</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Attention weights of head %1 of %2</source>
        <translation>第 %1 个头的注意力权重（共 %2 个头）</translation>
    </message>
    <message numerus="yes">
        <location line="-31"/>
        <source>%n head(s) together</source>
        <translation>
            <numerusform>%n 个头合起来</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>Norm-based attention of %n head(s) together</source>
        <translation>
            <numerusform>%n 个头合起来的基于范数的注意力</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based attention of head %1 of %2</source>
        <translation>第 %1 个头基于范数的注意力（共 %2 个头）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Norm-based attention of the first %1 of %2 heads</source>
        <translation>%2 个头中前 %1 个头基于范数的注意力</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based attention per head</source>
        <translation>各头基于范数的注意力</translation>
    </message>
    <message>
        <location line="+13"/>
        <source> — tokens %1–%2 of %3</source>
        <translation> —— 第 %1–%2 个词元，共 %3 个</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> — sentence %1 of %2</source>
        <translation> — 句子 %1（共 %2 句）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>queries %1–%2 of %3 × keys %4–%5 of %6 (the softmax is over every key)</source>
        <translation>查询 %1–%2（共 %3）× 键 %4–%5（共 %6）（softmax 对所有键计算）</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 queries × %2 keys</source>
        <translation>%1 个查询 × %2 个键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rows: queries, columns: keys</source>
        <translation>行：查询，列：键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>how much each key&apos;s value moves the output, not the weight α</source>
        <translation>即每个键的值向量让输出改变了多少，而不是权重 α</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>hatched grey: masked</source>
        <translation>灰色斜线：已掩码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dashed lines: where the second text begins</source>
        <translation>虚线：第二段文本开始的位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>orange: the tokens the model wrote</source>
        <translation>橙色：模型写出的词元</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>red outline: fully masked row (%1)</source>
        <translation>红框：整行被掩码（%1）</translation>
    </message>
    <message>
        <location line="+173"/>
        <source>each head: its min (0) to its max (1)</source>
        <translation>每个头：从其最小值 (0) 到最大值 (1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>norm-based ‖α·f(x)‖</source>
        <translation>基于范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <location line="+262"/>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapGridView</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/heatmap_grid_view.cpp" line="+188"/>
        <source>mean of %n head(s)</source>
        <translation>
            <numerusform>%n 个头的平均</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 · query %2 “%3” → key %4 “%5” · weight %6</source>
        <translation>%1 · 查询 %2“%3” → 键 %4“%5” · 权重 %6</translation>
    </message>
    <message>
        <location line="+8"/>
        <source> · raw score %1</source>
        <translation> · 原始分数 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · raw score not kept for this size</source>
        <translation> · 此规模下未保留原始分数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · masked</source>
        <translation> · 已掩码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · row fully masked (%1)</source>
        <translation> · 整行被掩码（%1）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · Alt-click: why this attention?</source>
        <translation> · Alt+单击：为什么这样注意？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>key %1 “%2” — click to %3 this key</source>
        <translation>键 %1“%2” — 点击可对此键%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+7"/>
        <source>unmask</source>
        <translation>取消掩码</translation>
    </message>
    <message>
        <location line="-7"/>
        <location line="+7"/>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>query %1 “%2”</source>
        <translation>查询 %1“%2”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>query %1 “%2” — click to %3 this token as a key</source>
        <translation>查询 %1“%2” — 点击可对作为键的该词元%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 — click to enlarge</source>
        <translation>%1 — 点击放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — double-click to go back</source>
        <translation>%1 — 双击返回</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::InputPanel</name>
    <message>
        <location filename="../../ui/widgets/input_panel.cpp" line="+40"/>
        <source> | … (%1 more)</source>
        <translation> | …（还有 %1 个）</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cross-attention (keys from the second sentence)</source>
        <translation>交叉注意力（键来自第二个句子）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Padded batch of both sentences</source>
        <translation>两个句子组成的填充批次</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Self-attention: queries, keys and values all come from the sentence.
Cross-attention: queries from the sentence, keys and values from the second sentence.
Padded batch: both sentences run as a batch of two; the shorter is padded and its [PAD] keys are masked.</source>
        <translation>自注意力：查询、键和值都来自这个句子。
交叉注意力：查询来自这个句子，键和值来自第二个句子。
填充批次：两个句子作为大小为 2 的批次一起计算；较短的句子被填充，其 [PAD] 键被掩码。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Type a sentence…</source>
        <translation>输入一个句子…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Second sentence (for cross-attention or a padded batch)</source>
        <translation>第二个句子（用于交叉注意力或填充批次）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Second sentence:</source>
        <translation>第二个句子：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit tokens</source>
        <translation>编辑词元</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Use the token lists below as given (pre-tokenized input) instead of tokenizing the sentences. Separate tokens with |.</source>
        <translation>直接使用下面的词元列表（已分词的输入），而不对句子分词。词元之间用 | 分隔。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Second tokens:</source>
        <translation>第二组词元：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lowercase</source>
        <translation>转为小写</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add [CLS] / [SEP]</source>
        <translation>添加 [CLS] / [SEP]</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Sentence:</source>
        <translation>句子(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Mode:</source>
        <translation>模式(&amp;M)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tokens:</source>
        <translation>词元：</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Use the Chinese and English model</source>
        <translation>使用中英文模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open char-zh-en-4l, the model AttnViz ships for Chinese and English text</source>
        <translation>打开 char-zh-en-4l：AttnViz 附带的中英文模型</translation>
    </message>
    <message numerus="yes">
        <location line="+125"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 + %2 tokens</source>
        <translation>%1 + %2 个词元</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 of %2 characters are unknown to this model: it reads each as its unknown token (&lt;unk&gt;), whatever the labels show.</source>
        <translation>%2 个字符中有 %1 个是这个模型不认识的：无论标签显示什么，它都把它们读作未知词元（&lt;unk&gt;）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The model&apos;s own tokenizer splits the text; these options belong to the demo layer.</source>
        <translation>文本由模型自己的分词器切分；这些选项属于演示层。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::KnockOutMenu</name>
    <message>
        <location filename="../../ui/widgets/knock_out_menu.cpp" line="+19"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>打开完整注意力图…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Knock Out (Zero)</source>
        <translation>敲除（置零）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Knock Out (Mean)</source>
        <translation>敲除（取均值）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Restore All Heads</source>
        <translation>恢复所有头</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LensView</name>
    <message>
        <location filename="../../ui/model/lens_view.cpp" line="+116"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The top %1 tokens of every cell, with their probabilities, as a CSV table</source>
        <translation>每个格子概率最高的 %1 个词元及其概率，导出为 CSV 表格</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cannot export the logit lens</source>
        <translation>无法导出 Logit 透镜</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the Logit Lens</source>
        <translation>导出 Logit 透镜</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LinesView</name>
    <message>
        <location filename="../../ui/classroom/lines_view.cpp" line="+80"/>
        <source>Heads:</source>
        <translation>头：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Draw the lines of head %1</source>
        <translation>画出头 %1 的连线</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1 was not kept: within the memory budget only the mean over heads is shown (see the bar above the views).</source>
        <translation>未保留第 %1 个头：在内存预算内只显示各头的平均（见视图上方的提示栏）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Head %1 was not kept: within the memory budget only heads 1–%2 are shown (see the bar above the views).</source>
        <translation>未保留第 %1 个头：在内存预算内只显示第 1–%2 个头（见视图上方的提示栏）。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MainWindow</name>
    <message>
        <location filename="../../ui/widgets/main_window.cpp" line="+277"/>
        <source>The tokens are those of the attention maps&apos; tokens file.</source>
        <translation>词元来自注意力图的词元文件。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>mean of %n head(s)</source>
        <translation>
            <numerusform>%n 个头的平均</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 heads</source>
        <translation>%2 个头中的前 %1 个</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n 个头</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 × %2 tokens · %3 · %4 ms</source>
        <translation>%1 × %2 个词元 · %3 · %4 毫秒</translation>
    </message>
    <message>
        <location line="+128"/>
        <location line="+4"/>
        <source>Cannot show the full map</source>
        <translation>无法显示完整注意力图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full maps are those of a trained model or of attention maps read from a file: open one (File ▸ Open Model…, File ▸ Open Attention Maps…).</source>
        <translation>完整注意力图来自训练好的模型或从文件读取的注意力图：请先打开一个（文件 ▸ 打开模型…，文件 ▸ 打开注意力图…）。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the computation (the heatmaps keep what they show)</source>
        <translation>停止计算（热力图保留当前显示的内容）</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1[*] — AttnViz</source>
        <translation>%1[*] — AttnViz</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>Cannot open the example</source>
        <translation>无法打开示例</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot open the example&apos;s corpus</source>
        <translation>无法打开例子的语料</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The corpus %1 that AttnViz ships is missing.</source>
        <translation>AttnViz 附带的语料 %1 不见了。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MemoryBudgetDialog</name>
    <message>
        <location filename="../../ui/widgets/memory_dialogs.cpp" line="+186"/>
        <source>Memory Budget</source>
        <translation>内存预算</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Before computing, AttnViz estimates the memory a configuration needs (per-head weights grow with heads × tokens²). Above this budget it computes nothing and offers what still fits: fewer heads, a window of tokens or the mean only.</source>
        <translation>计算之前，AttnViz 会估算一个配置所需的内存（逐头权重随 头数 × 词元数² 增长）。超过此预算时不做任何计算，而是提供仍然放得下的方案：更少的头、一个词元窗口，或只显示平均。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Default: %1% of this machine&apos;s memory (%2 of %3)</source>
        <translation>默认(&amp;D)：本机内存的 %1%（%3 中的 %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Custom:</source>
        <translation>自定义(&amp;C)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. 2G, 512M or 60%</source>
        <translation>例如 2G、512M 或 60%</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>ATTNVIZ_MEMORY_BUDGET=%1 is set: it overrides this setting as long as the app runs with it.</source>
        <translation>已设置 ATTNVIZ_MEMORY_BUDGET=%1：只要应用在该环境变量下运行，它就优先于此设置。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>= %1, more than this machine&apos;s %2: computations that large may fail</source>
        <translation>= %1，超过本机的 %2：这么大的计算可能失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>= %1</source>
        <translation>= %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not a size: write e.g. 2G, 512M or 60% (at least 1M).</source>
        <translation>不是有效的大小：请填写例如 2G、512M 或 60%（至少 1M）。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MemoryGuard</name>
    <message>
        <location filename="../../ui/widgets/memory_guard.cpp" line="+27"/>
        <source>&amp;Memory Budget…</source>
        <translation>内存预算(&amp;M)…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The text is %1 tokens, more than the %2 positions the model has.

Keep its first %2 tokens? The rest of the text is removed from the box.</source>
        <translation>这段文本有 %1 个词元，超过了模型的 %2 个位置。

是否只保留前 %2 个词元？其余的文本会从输入框中删除。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text Too Long for the Model</source>
        <translation>文本超出模型长度</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+13"/>
        <source>Keep the First %1 Tokens</source>
        <translation>保留前 %1 个词元</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1 — the app&apos;s own budget is used instead.</source>
        <translation>%1 —— 改用应用自己的预算。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory budget: %1 (%2)</source>
        <translation>内存预算：%1（%2）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelPanel</name>
    <message>
        <location filename="../../ui/model/model_panel.cpp" line="+86"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1 · mean over its %2 heads</source>
        <translation>第 %1 层 · %2 个头的均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer %1 · all %2 heads</source>
        <translation>第 %1 层 · 全部 %2 个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (knocked out)</source>
        <translation>（已敲除）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 layers × %2 heads · %3 tokens</source>
        <translation>%1 层 × %2 个头 · %3 个词元</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Layer %1 · head %2 — %3</source>
        <translation>第 %1 层 · 头 %2 — %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put layer %1, head %2 back</source>
        <translation>恢复第 %1 层的头 %2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>In focus</source>
        <translation>当前焦点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads knocked out</source>
        <translation>已敲除的头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>None. Right-click a head in the Model tab or the heatmaps (or Ctrl-click it) to knock it out and see what the model loses.</source>
        <translation>无。在“模型”页或热力图中右键单击一个头（或按住 Ctrl 单击）即可敲除它，看看模型失去了什么。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore All</source>
        <translation>全部恢复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelSource</name>
    <message>
        <location filename="../../ui/model/model_source.cpp" line="+101"/>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open &amp;Attention Maps…</source>
        <translation>打开注意力图(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open attention maps computed elsewhere (.npy or .safetensors, [layers, heads, L, L]) and their tokens (.json)</source>
        <translation>打开在别处计算的注意力图（.npy 或 .safetensors，[层, 头, L, L]）及其词元（.json）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Com&amp;pare With Attention Maps…</source>
        <translation>与注意力图对比(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare the attention maps open with another file of the same shape, e.g. another checkpoint on the same text: A, B and B − A in the Compare view</source>
        <translation>将已打开的注意力图与另一个形状相同的文件对比（例如同一文本上的另一个检查点）：在“对比”视图中显示 A、B 和 B − A</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recent Mo&amp;dels</source>
        <translation>最近的模型(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models on This &amp;Computer</source>
        <translation>本机上的模型(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo layer</source>
        <translation>演示层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The demo layer (every control) or a trained model</source>
        <translation>演示层（可调所有设置）或训练好的模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s layer the views show (Model tab: all of them)</source>
        <translation>视图显示模型的哪一层（“模型”标签页显示全部层）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Words</source>
        <translation>按词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Group the model&apos;s pieces into words and characters: a word&apos;s attention is summed over its key pieces and averaged over its query pieces</source>
        <translation>把模型的子词片段合并成词和字：一个词的注意力对其作为键的片段求和，对其作为查询的片段取平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hide special tokens</source>
        <translation>隐藏特殊词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Leave out [CLS], [SEP], BOS and the like, and rescale every row to sum to 1 over the tokens left</source>
        <translation>不显示 [CLS]、[SEP]、BOS 等特殊词元，并把每行在剩下的词元上重新归一化为 1</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Open Attention Maps</source>
        <translation>打开注意力图</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Attention maps (*.npy *.safetensors);;All files (*)</source>
        <translation>注意力图 (*.npy *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the Tokens of %1</source>
        <translation>打开 %1 的词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens (*.json);;All files (*)</source>
        <translation>词元 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>there is no tokens.json beside it: choose its tokens file</source>
        <translation>旁边没有 tokens.json：请选择它的词元文件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot Open the Attention Maps</source>
        <translation>无法打开注意力图</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>an unexpected error stopped the reading</source>
        <translation>一个意外的错误中止了读取</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cannot Open the Model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <location line="-56"/>
        <location line="+57"/>
        <source>%1 could not be opened: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>Open a GGUF file, or a Hugging Face model folder (config.json, model.safetensors, tokenizer.json)</source>
        <translation>打开一个 GGUF 文件，或一个 Hugging Face 模型文件夹（config.json、model.safetensors、tokenizer.json）</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Open a Model: a .gguf file, or a model folder&apos;s config.json</source>
        <translation>打开模型：一个 .gguf 文件，或模型文件夹中的 config.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.gguf config.json);;GGUF files (*.gguf);;Hugging Face folders (config.json);;All files (*)</source>
        <translation>模型 (*.gguf config.json);;GGUF 文件 (*.gguf);;Hugging Face 文件夹 (config.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Compare With Attention Maps</source>
        <translation>与注意力图对比</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no attention maps are open to compare them with: open A&apos;s first with File ▸ Open Attention Maps…</source>
        <translation>没有已打开的注意力图可供对比：请先用“文件 ▸ 打开注意力图…”打开 A 的注意力图</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot Compare the Attention Maps</source>
        <translation>无法对比注意力图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be compared with the maps open: %2</source>
        <translation>%1 无法与已打开的注意力图对比：%2</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No ollama or LM Studio models in their default folders</source>
        <translation>ollama 和 LM Studio 的默认文件夹中没有模型</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 (trained, built in)</source>
        <translation>%1（已训练，内置）</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;attention maps read from a file · %2 layers · %3 heads · %4 tokens · %5&lt;br&gt;Steps and predictions need the model itself.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;从文件读取的注意力图 · %2 层 · %3 个头 · %4 个词元 · %5&lt;br&gt;计算步骤与预测需要模型本身。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 heads (%2 kv heads)</source>
        <translation>%1 个头（%2 个 KV 头）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 layers · %4 · head_dim %5&lt;br&gt;hidden %6 · %7 parameters · %8&lt;br&gt;%9 positions · %10 · tokenizer: %11 (%12 tokens)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 层 · %4 · 头维度 %5&lt;br&gt;隐藏维度 %6 · %7 个参数 · %8&lt;br&gt;%9 个位置 · %10 · 分词器：%11（%12 个词元）</translation>
    </message>
    <message>
        <location line="-19"/>
        <location line="+29"/>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <location line="-29"/>
        <location line="+29"/>
        <source>bidirectional</source>
        <translation>双向</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelView</name>
    <message>
        <location filename="../../ui/model/model_view.cpp" line="+134"/>
        <source>Attention rollout through layer %1: how much each token draws on each input token, residual included</source>
        <translation>到第 %1 层为止的注意力展开：每个词元从每个输入词元获取了多少信息（含残差）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Layer %1 · mean over its %2 heads</source>
        <translation>第 %1 层 · %2 个头的平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (kv head %1)</source>
        <translation>（KV 头 %1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> — not over the whole text: the memory budget kept layers 1–%1</source>
        <translation>——不在整段文本上：内存预算只保留了第 1–%1 层</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> — whole text: strongest square, queries %1–%2 → keys %3–%4 (%5%)</source>
        <translation>——整段文本：最强的方格为查询 %1–%2 → 键 %3–%4（%5%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> — not kept: the memory budget keeps the means only (the Atlas still measures it)</source>
        <translation> — 未保留：内存预算只保留平均值（头图谱仍会度量它）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — not kept: the memory budget keeps heads 1–%1 (the Atlas still measures it)</source>
        <translation> — 未保留：内存预算只保留第 1–%1 个头（头图谱仍会度量它）</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+1"/>
        <source> — “%1” looks at “%2” most (%3%)</source>
        <translation> — “%1”最关注“%2”（%3%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> — most attended token: “%1” (%2% of the attention)</source>
        <translation> —— 最受关注的词元：“%1”（占注意力的 %2%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open a trained model (File ▸ Open Model…) to see every layer and head at once.</source>
        <translation>打开一个训练好的模型（文件 ▸ 打开模型…），即可一次看到所有层和所有头。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a trained model in the Source box of the tool bar (built in, nothing to download: %1), or open one (File ▸ Open Model…), to see every layer and head at once.</source>
        <translation>在工具栏的“来源”框中选择一个训练好的模型（内置，无需下载：%1），或打开一个模型（文件 ▸ 打开模型…），即可同时查看每一层的每个头。</translation>
    </message>
    <message>
        <location line="-102"/>
        <source>%1 · norm-based ‖α·f(x)‖</source>
        <translation>%1 · 基于范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · %2 tokens · each map coloured from 0 to its own largest weight; click a head to open its layer, right-click it for its full map or to knock it out, Alt-click it to ask why it looks where it does</source>
        <translation>%1 · %2 个词元 · 每张图从 0 到其自身最大权重着色；单击某个头打开其所在层，右键单击可查看完整注意力图或将其敲除，Alt+单击可查看它为什么看向那里</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 · %2 · right-click a head for its full map</source>
        <translation>%1 · %2 · 右键单击某个头可打开其完整注意力图</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::OverBudgetDialog</name>
    <message>
        <location filename="../../ui/widgets/memory_dialogs.cpp" line="-231"/>
        <source>Not Enough Memory for This</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Nothing smaller fits either: shorten the text, lower embed_dim or raise the budget.</source>
        <translation>更小的方案也放不下：请缩短文本、减小 embed_dim 或提高预算。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Change the &amp;Budget…</source>
        <translation>修改预算(&amp;B)…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>set by --memory-budget</source>
        <translation>由 --memory-budget 设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>set by ATTNVIZ_MEMORY_BUDGET=%1</source>
        <translation>由 ATTNVIZ_MEMORY_BUDGET=%1 设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>your setting</source>
        <translation>你的设置</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the default: %1% of this machine&apos;s %2</source>
        <translation>默认：本机 %2 的 %1%</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the mean over the heads</source>
        <translation>各头的平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the weights of every head (%1)</source>
        <translation>全部头（%1 个）的权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the weights of heads 1–%1 of %2</source>
        <translation>%2 个头中第 1–%1 个头的权重</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a window of %1 of %2 tokens</source>
        <translation>%2 个词元中的 %1 个词元的窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;p&gt;Showing %1 over %2 needs &lt;b&gt;%3&lt;/b&gt;, more than the memory budget of &lt;b&gt;%4&lt;/b&gt; (%5). Nothing was computed.&lt;/p&gt;&lt;p&gt;Per-head weights grow with heads × tokens². %6&lt;/p&gt;</source>
        <translation>&lt;p&gt;在 %2 上显示%1需要 &lt;b&gt;%3&lt;/b&gt;，超过了 &lt;b&gt;%4&lt;/b&gt; 的内存预算（%5）。没有进行任何计算。&lt;/p&gt;&lt;p&gt;逐头权重随 头数 × 词元数² 增长。%6&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model&apos;s weights take %1 of it: converted layer by layer, they need no more. </source>
        <translation>模型权重占其中 %1：逐层转换，所需不会更多。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What still fits:</source>
        <translation>仍然放得下的方案：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show head 1 only</source>
        <translation>只显示第 1 个头</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show heads 1–%1 only</source>
        <translation>只显示第 1–%1 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Needs %1. The mean still covers all %2 heads.</source>
        <translation>需要%1。平均值仍然覆盖全部 %2 个头。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Show a window of %1 tokens</source>
        <translation>显示 %1 个词元的窗口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. Tokens %2–%3 first; move the window along the text above the heatmaps.</source>
        <translation>需要%1。先显示第 %2–%3 个词元；可在热力图上方沿文本移动窗口。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show the mean over heads only</source>
        <translation>只显示各头的平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. No heatmap per head.</source>
        <translation>需要%1。不显示逐头热力图。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Keep layer 1 only</source>
        <translation>只保留第 1 层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep layers 1–%1 of %2</source>
        <translation>保留 %2 层中的第 1–%1 层</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Needs %1. Every head of those layers; the later layers are not computed.</source>
        <translation>需要 %1。这些层的每个头都保留；后面的层不计算。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PatchView</name>
    <message>
        <location filename="../../ui/model/patch_view.cpp" line="+227"/>
        <source>Patching failed</source>
        <translation>激活修补失败</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>Cannot show the head</source>
        <translation>无法显示该头</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Clean:</source>
        <translation>干净：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Corrupted:</source>
        <translation>损坏：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distractor:</source>
        <translation>干扰项：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the text where the model predicts the target</source>
        <translation>模型会预测出目标词元的文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the same text with a change, as many tokens</source>
        <translation>改动过的同一文本，词元数相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>a token of the vocabulary</source>
        <translation>词表中的一个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token the clean text predicts: a text that is one token, or a vocabulary entry</source>
        <translation>干净文本所预测的词元：恰好一个词元的文本，或词表中的条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The token it competes with</source>
        <translation>与之竞争的词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patch every head, one at a time, from the clean run into the corrupted run: the attribution estimate first, each head then replaced by what its run measures</source>
        <translation>逐个把每个头从干净运行修补到损坏运行中：先显示归因估计，再用每个头单独运行测得的值逐一替换</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attribution (fast)</source>
        <translation>归因（快速）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Estimate every head at once from two forward passes and a backward pass (attribution patching): a first-order estimate, for large models</source>
        <translation>用两次前向传播和一次反向传播一次性估计所有头（归因修补）：一阶估计，适合大模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patch the heads from the clean run into the corrupted run, by the method chosen</source>
        <translation>按所选方法，把各个头从干净运行修补到损坏运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the fractions (NPY, CSV)</source>
        <translation>图像（PNG、SVG、PDF）或比例数组（NPY、CSV）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Patching needs a trained causal language model: open one (File ▸ Open Model…).</source>
        <translation>激活修补需要一个训练好的因果语言模型：请打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Patching needs a trained causal language model: choose one in the Source box (built in: %1), or open one (File ▸ Open Model…).</source>
        <translation>激活修补需要一个训练好的因果语言模型：请在“来源”框中选择一个（内置：%1），或打开一个（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Patching reads the next-token logits of a causal language model; %1 has no such head.</source>
        <translation>激活修补读取因果语言模型的下一词元 logit；%1 没有这样的输出头。</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>The clean text is %1 tokens and the corrupted text %2: patching needs texts of as many tokens (the tokens that differ are marked).</source>
        <translation>干净文本有 %1 个词元，损坏文本有 %2 个：激活修补需要两段文本的词元数相同（不同的词元已标出）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>not one token</source>
        <translation>不是单个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” is not one token of this vocabulary: pick one from the list.</source>
        <translation>“%1”不是此词表中的单个词元：请从列表中选择。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>Run the sweep first: there is nothing to export.</source>
        <translation>请先运行扫描：还没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot export the patching map</source>
        <translation>无法导出激活修补图</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot copy the figure</source>
        <translation>无法复制图像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run the sweep first: there is nothing to copy.</source>
        <translation>请先运行扫描：还没有可复制的内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export the patching map</source>
        <translation>导出激活修补图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;NumPy array (*.npy);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;NumPy 数组 (*.npy);;CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PositionsView</name>
    <message>
        <location filename="../../ui/model/positions_view.cpp" line="+48"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 个头</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>mean of all %1 heads</source>
        <translation>全部 %1 个头的平均</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>key position (token)</source>
        <translation>键的位置（词元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>query position (token)</source>
        <translation>查询的位置（词元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>attention received (mean over the queries that see it)</source>
        <translation>受到的注意力（对能看到它的查询取平均）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>attention on the first token</source>
        <translation>对第一个词元的注意力</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Attention each position receives · %1 · %2 tokens</source>
        <translation>每个位置受到的注意力 · %1 · %2 个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attention on the first token · %1 · %2 tokens</source>
        <translation>对第一个词元的注意力 · %1 · %2 个词元</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Computed by AttnViz&apos;s statistics pass over the whole text, keeping no map.</source>
        <translation>由 AttnViz 的统计计算在整段文本上得出，不保留任何注意力图。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>layer %1 of %2</source>
        <translation>第 %1 层，共 %2 层</translation>
    </message>
    <message>
        <location line="+153"/>
        <source>Position %1 %2:</source>
        <translation>位置 %1 %2：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Open a model or attention maps: the statistics pass measures every head over the whole text, however long.</source>
        <translation>请打开一个模型或注意力图：统计计算会在整段文本上度量每个头，无论文本多长。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot compute the statistics: %1</source>
        <translation>无法计算统计量：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measuring every head over the whole text…</source>
        <translation>正在整段文本上度量每个头…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head of %1 over all %2 tokens, from one pass that keeps no map. Pick heads on the left; hover the plot for values.</source>
        <translation>%1 的每个头在全部 %2 个词元上的统计，来自一次不保留任何注意力图的计算。在左侧选择头；将鼠标悬停在图上可查看数值。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The text or the model changed: Compute measures it again.</source>
        <translation>文本或模型已改变：点击“计算”重新度量。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compute measures every head over the whole text.</source>
        <translation>“计算”会在整段文本上度量每个头。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Compute the statistics first: there is nothing to export.</source>
        <translation>请先计算统计量：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot export the positions</source>
        <translation>无法导出位置图</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the positions</source>
        <translation>导出位置图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Curve:</source>
        <translation>曲线：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention each position receives</source>
        <translation>每个位置受到的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention on the first token</source>
        <translation>对第一个词元的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heads</source>
        <translation>头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Full Map…</source>
        <translation>打开完整注意力图…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The whole map of the head selected in the list, recomputed for it alone (or double-click a head)</source>
        <translation>列表中所选头的完整注意力图，只为这一个头重新计算（也可双击一个头）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PredictionStrip</name>
    <message>
        <location filename="../../ui/model/predictions_view.cpp" line="+146"/>
        <source>Top guess for the next token after each token: %1 of %2 right (green)</source>
        <translation>每个词元之后对下一个词元的首选猜测：%2 个中猜对 %1 个（绿色）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, %1 of %2 in the second copy</source>
        <translation>，第二遍中 %2 个猜对 %1 个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · loss %1 nats/token (the colour under each guess: pale 0, dark red 6 or more)</source>
        <translation> · 损失 %1 奈特/词元（每个猜测下方的颜色：浅色为 0，深红为 6 及以上）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · knocked out: %1</source>
        <translation> · 已敲除：%1</translation>
    </message>
    <message>
        <location line="+75"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="-121"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location line="+13"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+1"/>
        <source>Guess</source>
        <translation>猜测</translation>
    </message>
    <message>
        <location line="+40"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+1"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>After “%1”: the model guesses “%2” (%3%)%4 · loss %5 nats</source>
        <translation>在“%1”之后：模型猜“%2”（%3%）%4 · 损失 %5 奈特</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, right</source>
        <translation>，猜对</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>After the text: the model guesses “%1” (%2%)</source>
        <translation>文本之后：模型猜“%1”（%2%）</translation>
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
        <translation>%1的损失：%2 → %3 奈特/词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loss on %1: %2 nats/token</source>
        <translation>%1的损失：%2 奈特/词元</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the text</source>
        <translation>全文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the second copy</source>
        <translation>第二遍</translation>
    </message>
    <message>
        <location line="+73"/>
        <location filename="../../ui/model/predictions_figure.cpp" line="+74"/>
        <source>No predictions for this model.</source>
        <translation>此模型没有预测。</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>After the last token, “%1”, the model guesses:</source>
        <translation>在最后一个词元“%1”之后，模型猜测：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After “%1” (position %2) the model guesses (actually “%3”):</source>
        <translation>在“%1”（位置 %2）之后，模型猜测（实际为“%3”）：</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>With %1 knocked out:</source>
        <translation>敲除 %1 后：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Intact model:</source>
        <translation>完整模型：</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>A masked language model: put [MASK] or &lt;mask&gt; in the text to see what it would fill in.</source>
        <translation>掩码语言模型：在文本中放入 [MASK] 或 &lt;mask&gt;，看看它会填入什么。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Fillers of %1 at piece %2:</source>
        <translation>第 %2 个片段 %1 处的填充：</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::PresentationMode</name>
    <message>
        <location filename="../../ui/widgets/presentation_mode.cpp" line="+31"/>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::QkView</name>
    <message>
        <location filename="../../ui/model/qk_view.cpp" line="+107"/>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Projection:</source>
        <translation>投影：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Directions (cosine)</source>
        <translation>方向（余弦）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PCA of the queries and keys together, or of their directions alone (their lengths set aside)</source>
        <translation>对查询和键一起做 PCA，或只对它们的方向做 PCA（不考虑长度）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Query or key</source>
        <translation>查询或键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token position</source>
        <translation>词元位置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF) or the points (CSV)</source>
        <translation>图（PNG、SVG、PDF）或各点的坐标（CSV）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The corpus was measured on %1: choose that model in the Source box to see its heads&apos; queries and keys.</source>
        <translation>这份语料是在 %1 上度量的：请在“来源”框中选择该模型，才能查看其各个头的查询与键。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a corpus (File ▸ Open Corpus…, or Corpus from History) to see where a head&apos;s queries and keys lie over many texts: every query and key it computes, as one dot each.</source>
        <translation>打开一份语料（文件 ▸ 打开语料…，或“用历史文本作语料”），查看一个头在许多文本上的查询和键分布在哪里：它算出的每个查询和每个键都画成一个点。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compute them</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The corpus has no queries and keys of layer %1 · head %2 yet.</source>
        <translation>语料中还没有第 %1 层 · 头 %2 的查询与键。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model shown has no head %1 in layer %2.</source>
        <translation>当前模型的第 %2 层没有头 %1。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>There are no queries and keys of this head to export: compute them first.</source>
        <translation>这个头还没有可导出的查询与键：请先计算。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot export the queries and keys</source>
        <translation>无法导出查询与键</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the queries and keys</source>
        <translation>导出查询与键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::RecoveryKeeper</name>
    <message>
        <location filename="../../ui/widgets/recovery_keeper.cpp" line="+85"/>
        <source>the tokens “%1”</source>
        <translation>词元“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the text “%1”</source>
        <translation>文本“%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the second text “%1”</source>
        <translation>第二个文本“%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model %1</source>
        <translation>模型 %1</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>the demo layer (%n head(s))</source>
        <translation>
            <numerusform>演示层（%n 个头）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n masked key(s)</source>
        <translation>
            <numerusform>%n 个被掩码的键</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a comparison</source>
        <translation>一组对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a comparison (%1)</source>
        <translation>一组对比（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Restore Unsaved Work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AttnViz did not close properly. Restore the work saved at %1?</source>
        <translation>AttnViz 上次没有正常关闭。要恢复 %1 保存的工作吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>It holds: %1.</source>
        <translation>其中包括：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ScopeBar</name>
    <message>
        <location filename="../../ui/widgets/scope_bar.cpp" line="+40"/>
        <source>Per-head wei&amp;ghts:</source>
        <translation>逐头权重(&amp;G)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Whose weights are kept: every head, only the first ones, or only their mean. The mean is always over every head.</source>
        <translation>保留哪些权重：全部头、只保留前几个头，或只保留它们的平均。平均值始终对全部头求得。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Wi&amp;ndow of</source>
        <translation>窗口(&amp;N)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the attention of a stretch of a long text: these rows and columns of the full attention (the softmax still runs over every key).</source>
        <translation>显示长文本中一段的注意力：即完整注意力矩阵中的这些行和列（softmax 仍然对所有键计算）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Budget…</source>
        <translation>预算…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change the memory budget</source>
        <translation>修改内存预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show A&amp;ll</source>
        <translation>全部显示(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every head&apos;s weights over every token again</source>
        <translation>重新显示全部头在全部词元上的权重</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The previous window</source>
        <translation>上一个窗口</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move the window along the text</source>
        <translation>沿文本移动窗口</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The next window</source>
        <translation>下一个窗口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>First to&amp;ken:</source>
        <translation>起始词元(&amp;K)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The window&apos;s first token (1 is the first of the text).</source>
        <translation>窗口的第一个词元（1 表示文本的第一个词元）。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Needs %1: over the %2 budget</source>
        <translation>需要 %1：超出 %2 的预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory: %1 of %2</source>
        <translation>内存：%1 / %2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>All heads (%1)</source>
        <translation>全部头（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head 1 only</source>
        <translation>只显示第 1 个头</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Heads 1–%1</source>
        <translation>第 1–%1 个头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean only</source>
        <translation>只显示平均</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Tokens %1–%2 of %3</source>
        <translation>第 %1–%2 个词元，共 %3 个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tokens %1–%2</source>
        <translation>第 %1–%2 个词元</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SessionFiles</name>
    <message>
        <location filename="../../ui/widgets/session_files.cpp" line="+54"/>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Save the changes to this session first?</source>
        <translation>是否先保存对此会话的更改？</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AttnViz sessions (*.%1);;All files (*)</source>
        <translation>AttnViz 会话 (*.%1);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot restore the work</source>
        <translation>无法恢复工作</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Cannot save session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save Session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>AttnViz sessions (*.%1)</source>
        <translation>AttnViz 会话 (*.%1)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::StatisticsView</name>
    <message>
        <location filename="../../ui/classroom/statistics_view.cpp" line="+28"/>
        <source>Export Head Statistics</source>
        <translation>导出头统计</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the statistics</source>
        <translation>无法导出统计</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;Copy Table</source>
        <translation>复制表格(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the table, tab-separated, to paste into a spreadsheet</source>
        <translation>复制表格（制表符分隔），可粘贴到电子表格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport CSV…</source>
        <translation>导出 CSV(&amp;X)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the table as a CSV file</source>
        <translation>将表格保存为 CSV 文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What each head does, averaged over the query tokens. Click a column to sort; click a head to see it in the grid. Hover a column title for its meaning.</source>
        <translation>每个头在做什么（对所有查询词元取平均）。点击列标题排序；点击某个头可在热力图网格中查看它。鼠标悬停在列标题上可查看其含义。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Norm-based: each row of ‖α·f(x)‖ is measured as shares of its total, in place of the weights.</source>
        <translation>基于范数：‖α·f(x)‖ 的每一行按其在该行总和中所占的比例来度量，代替权重。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::StepsView</name>
    <message>
        <location filename="../../ui/classroom/steps_view.cpp" line="+117"/>
        <source>One layer</source>
        <translation>单层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every step of one attention layer, for every token at once</source>
        <translation>一个注意力层的每一步，所有词元同时显示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole model</source>
        <translation>整个模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every step of the model at one token, from its embedding to the next token</source>
        <translation>模型在一个词元处的每一步，从它的嵌入一直到下一个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>◀ Back</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous step (Left arrow)</source>
        <translation>上一步（左方向键）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next step (Right arrow)</source>
        <translation>下一步（右方向键）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every step at once</source>
        <translation>一次显示所有步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only this step and its inputs</source>
        <translation>只显示当前步骤及其输入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the current step large, next to the matrices it is computed from (good for the back of the room)</source>
        <translation>把当前步骤放大显示在计算它所用的矩阵旁边（教室后排也看得清）</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>All %1 steps</source>
        <translation>全部 %1 个步骤</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Head %1 · key/value head %2</source>
        <translation>第 %1 个头 · 第 %2 个键/值头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewTabs</name>
    <message>
        <location filename="../../ui/widgets/view_tabs.cpp" line="+350"/>
        <source>Heatmaps</source>
        <translation>热力图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One heatmap per head, and their mean</source>
        <translation>每个头一张热力图，以及它们的平均</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Steps</source>
        <translation>计算步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The computation of one head, step by step</source>
        <translation>逐步展示一个头的计算过程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines</source>
        <translation>连线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines from each query token to each key token</source>
        <translation>从每个查询词元到每个键词元的连线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What each head does, in numbers</source>
        <translation>用数字看每个头在做什么</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Two configurations side by side</source>
        <translation>两种配置并排对比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every map</source>
        <translation>全部注意力图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention from a token</source>
        <translation>某个词元发出的注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attention to a token</source>
        <translation>指向某个词元的注意力</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One token&apos;s attention across every layer and head: where it looks (from), or which tokens look at it (to)</source>
        <translation>一个词元在每一层、每个头中的注意力：它关注哪里（发出），或哪些词元关注它（指向）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The token in focus</source>
        <translation>关注的词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole text, largest weight</source>
        <translation>整段文本，最大权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole text, mean weight</source>
        <translation>整段文本，平均权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept maps</source>
        <translation>保留的注意力图</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The memory budget kept only some maps: show every layer and head over the whole text, pooled into squares by their largest or their mean weight, or the kept maps</source>
        <translation>内存预算只保留了部分注意力图：显示整段文本上每一层每个头的图（按方格的最大或平均权重汇聚），或显示保留的注意力图</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Compute every layer again (the memory budget may refuse it for this text)</source>
        <translation>重新计算所有层（对这段文本，内存预算可能仍会拒绝）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every layer and head of a trained model at once</source>
        <translation>一次查看训练好的模型的所有层和所有头</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Head Atlas</source>
        <translation>头图谱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What every head of a trained model does, in numbers</source>
        <translation>用数字看训练好的模型的每个头在做什么</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Logit Lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What a trained model predicts after each of its layers</source>
        <translation>训练好的模型在每一层之后预测什么</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Patching</source>
        <translation>激活修补</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Activation patching: which heads carry what the corrupted text lost</source>
        <translation>激活修补：哪些头携带了损坏文本丢失的信息</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where attention goes over a whole text, however long: the attention each position receives, for every head</source>
        <translation>注意力在整段文本（无论多长）上的去向：每个头给每个位置的注意力</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Circuits</source>
        <translation>回路</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Which heads work together: composition and copying scores from the weights alone (Elhage et al. 2021)</source>
        <translation>哪些头协同工作：仅由权重算出的组合分数和复制分数（Elhage 等，2021）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Who Writes</source>
        <translation>谁写出答案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Who writes the answer: direct logit attribution splits the logit of the next token into what each head, MLP and the embeddings wrote into the residual stream</source>
        <translation>谁写出答案：直接 logit 归因把下一个词元的 logit 拆分成每个头、每个 MLP 和嵌入各自写入残差流的部分</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Queries &amp;&amp; Keys</source>
        <translation>查询与键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every query and key of a head over a corpus, as dots in one plane (AttentionViz): its pattern as geometry</source>
        <translation>一个头在整份语料上的每个查询和键，画成同一平面上的点（AttentionViz）：把它的注意力模式变成几何形状</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Flow</source>
        <translation>信息流</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How information flows to a prediction: the routes through the heads and MLPs that matter most (information-flow routes, Ferrando &amp; Voita 2024)</source>
        <translation>信息如何流向一个预测：经过注意力头和 MLP 的最重要的路径（信息流路径，Ferrando &amp; Voita 2024）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hide the explanation</source>
        <translation>隐藏说明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The explanation is about the example&apos;s text; the text is now your own.</source>
        <translation>这段说明针对示例的文本；现在的文本是你自己输入的。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore the example&apos;s text</source>
        <translation>恢复示例文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold the explanation to its title, or unfold it</source>
        <translation>将说明折叠为标题，或重新展开</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>layers 1–%1 of %2</source>
        <translation>%2 层中的第 1–%1 层</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the means only</source>
        <translation>只有平均值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>heads 1–%1 of %2</source>
        <translation>%2 个头中的第 1–%1 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept: %1. Show all</source>
        <translation>已保留：%1。显示全部</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WholeModelView</name>
    <message>
        <location filename="../../ui/classroom/whole_model_view.cpp" line="+145"/>
        <source>&amp;Token:</source>
        <translation>词元(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The token whose whole path through the model is shown</source>
        <translation>显示哪个词元在模型中走过的完整路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fold every layer to one line (click a layer&apos;s header to open it)</source>
        <translation>把每一层折叠成一行（点击某一层的标题可展开它）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open every layer&apos;s steps</source>
        <translation>展开每一层的步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperat&amp;ure:</source>
        <translation>温度(&amp;U)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add t&amp;o the text</source>
        <translation>添加到文本(&amp;O)</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Last token (default)</source>
        <translation>最后一个（默认）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>First [MASK] (default)</source>
        <translation>第一个 [MASK]（默认）</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>Divides the logits before the softmax: below 1 the likeliest token gains, above 1 the odds even out; 0 always takes the likeliest</source>
        <translation>在 softmax 之前，对数几率先除以温度：小于 1 时最可能的词元更占优势，大于 1 时各词元的机会趋于均等；为 0 时总是选最可能的词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Top-&amp;k:</source>
        <translation>Top-k(&amp;K)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw only among the k likeliest tokens (all: no limit)</source>
        <translation>只在最可能的 k 个词元中抽取（全部：不限制）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-&amp;p:</source>
        <translation>Top-p(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw only among the likeliest tokens whose probabilities add up to p</source>
        <translation>只在最可能的那些词元中抽取，它们的概率之和达到 p 为止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same seed draws the same token; each draw moves to the next seed</source>
        <translation>同一个种子抽出同一个词元；每抽一次就换到下一个种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Draw</source>
        <translation>抽取(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw the next token from these probabilities with this seed</source>
        <translation>用这个种子，按这些概率抽取下一个词元</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>0 (greedy)</source>
        <translation>0（贪心）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Append the drawn token to the text and trace the new last token</source>
        <translation>把抽中的词元接到文本末尾，并显示新的最后一个词元的计算过程</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Draw a token first</source>
        <translation>请先抽取一个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A masked language model fills in its [MASK]; it does not write on</source>
        <translation>掩码语言模型只填写它的 [MASK]，不会往下续写</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only the last token&apos;s prediction continues the text: choose the last token</source>
        <translation>只有最后一个词元的预测能续写文本：请选择最后一个词元</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WhyPanel</name>
    <message>
        <location filename="../../ui/model/why_panel.cpp" line="+107"/>
        <source>Why this attention?</source>
        <translation>为什么这样注意？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow the mouse</source>
        <translation>跟随鼠标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Explain the cell under the mouse as it moves (sweep along a stripe), not only the one Alt-clicked</source>
        <translation>随鼠标移动解释其下方的格子（可沿一条斜纹扫过），而不只是 Alt+单击的那一格</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The figure (PNG, SVG, PDF)</source>
        <translation>图（PNG、SVG、PDF）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the pane</source>
        <translation>关闭此窗格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click a head&apos;s bar to show that head&apos;s map</source>
        <translation>单击某个头的条形，显示该头的注意力图</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Alt-click a cell of a head&apos;s map: its score is split into what the query and the key hold.</source>
        <translation>在某个头的注意力图上 Alt+单击一个格子：它的分数会被拆分为查询和键各自包含的成分。</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Why this attention? needs the weights of the model that made these maps: maps read from a file hold the weights of attention, not what they were computed from. Open the model itself (File ▸ Open Model…).</source>
        <translation>“为什么这样注意？”需要算出这些注意力图的模型权重：从文件读入的注意力图只保存了注意力权重，没有保存算出它们的模型。请直接打开该模型（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Open one (File ▸ Open Model…).</source>
        <translation>“为什么这样注意？”需要一个训练好的模型：演示层的权重是随机的，其分数没有值得说明的成分。请打开一个模型（文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why this attention? needs a trained model: the demo layer&apos;s weights are random, so its scores have no parts worth naming. Choose one in the Source box (built in: %1).</source>
        <translation>“为什么这样注意？”需要一个训练好的模型：演示层的权重是随机的，其分数没有值得说明的成分。请在“来源”框中选择一个（内置：%1）。</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+27"/>
        <source>Alt-click a cell of one head&apos;s map, not of the mean.</source>
        <translation>请 Alt+单击某一个头的注意力图中的格子，而不是平均图。</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>The causal mask hides token %1 from token %2: a query never sees a later key, so that cell has no score to explain. Alt-click a cell on or below the diagonal.</source>
        <translation>因果掩码对第 %2 个词元隐藏了第 %1 个词元：查询看不到它之后的键，所以这个格子没有可解释的分数。请 Alt+单击对角线上或其下方的格子。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>This map is not drawn cell by cell here: open the head&apos;s full map (right-click it, Open Full Map…) and Alt-click a cell there.</source>
        <translation>这里的图不是逐格绘制的：请打开这个头的完整注意力图（右键单击它，选择“打开完整注意力图…”），再在那里 Alt+单击一个格子。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Explaining L%1H%2 at token %3 → token %4…</source>
        <translation>正在解释 L%1H%2：第 %3 个词元 → 第 %4 个词元…</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+27"/>
        <source>Cannot explain this cell: %1</source>
        <translation>无法解释这个格子：%1</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>No cell is explained yet: there is nothing to export.</source>
        <translation>还没有解释任何格子：没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot export the explanation</source>
        <translation>无法导出解释</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export the explanation</source>
        <translation>导出解释</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WindowActions</name>
    <message>
        <location filename="../../ui/widgets/window_actions.cpp" line="+51"/>
        <source>&amp;New Session</source>
        <translation>新建会话(&amp;N)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Open Session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save Session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save Session &amp;As…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export Figure…</source>
        <translation>导出图像(&amp;E)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export &amp;Weights…</source>
        <translation>导出权重(&amp;W)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy Figure</source>
        <translation>复制图像(&amp;C)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;All Heads</source>
        <translation>所有头(&amp;A)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Mean over Heads</source>
        <translation>各头平均(&amp;M)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+M</source>
        <translation>Ctrl+M</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next Head</source>
        <translation>下一个头(&amp;N)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+]</source>
        <translation>Ctrl+]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Previous Head</source>
        <translation>上一个头(&amp;P)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+[</source>
        <translation>Ctrl+[</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Back to All Heads</source>
        <translation>返回所有头(&amp;B)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Causal Mask</source>
        <translation>因果掩码(&amp;C)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Training Mode</source>
        <translation>训练模式(&amp;T)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Resample Dropout</source>
        <translation>重新采样 Dropout(&amp;R)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>C&amp;lear Masked Keys</source>
        <translation>清除被掩码的键(&amp;L)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show Attention &amp;Weights</source>
        <translation>显示注意力权重(&amp;W)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+W</source>
        <translation>Ctrl+Shift+W</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show &amp;Norm-Based Attention</source>
        <translation>显示基于范数的注意力(&amp;N)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Norm-based</source>
        <translation>基于范数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Load Weights…</source>
        <translation>加载权重(&amp;L)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About AttnViz</source>
        <translation>关于 AttnViz(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>About AttnViz</source>
        <translation>关于 AttnViz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;AttnViz %1&lt;/h3&gt;&lt;p&gt;Look inside multi-head attention: one heatmap per head, live masks, dropout and head counts, and figures for slides and papers.&lt;/p&gt;&lt;p&gt;Hover a cell to read it; click a head to enlarge it; click a token label to mask that key; scroll to zoom and drag to pan.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AttnViz %1&lt;/h3&gt;&lt;p&gt;看清多头注意力的内部：每个头一张热力图，掩码、Dropout 和头数实时可调，还能导出用于幻灯片和论文的图。&lt;/p&gt;&lt;p&gt;鼠标悬停在单元格上读取数值；点击某个头将其放大；点击词元标签可掩码该键；滚轮缩放，拖动平移。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Attention</source>
        <translation>注意力(&amp;A)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+15"/>
        <source> Show: </source>
        <translation> 显示： </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Sentence 1</source>
        <translation>句子 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sentence 2</source>
        <translation>句子 2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1: for the demo layer only (choose “Demo layer” in the Source box); a trained model has its own mask and no dropout</source>
        <translation>%1：仅用于演示层（在“来源”框中选择“演示层”）；训练好的模型有自己的掩码，也没有 Dropout</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Show the attention weights α: how much each query reads each key (%1)</source>
        <translation>显示注意力权重 α：每个查询从每个键读取多少（%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Norm-based maps need the model&apos;s values: attention maps read from a file hold only the weights</source>
        <translation>基于范数的图需要模型的值向量：从文件读取的注意力图只有权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show ‖α·f(x)‖ instead of α: how much each key&apos;s value actually moves the output (Kobayashi et al. 2020) (%1)</source>
        <translation>显示 ‖α·f(x)‖ 而不是 α：每个键的值向量实际让输出改变了多少（Kobayashi 等，2020）（%1）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&amp;Heatmaps</source>
        <translation>热力图(&amp;H)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Steps</source>
        <translation>计算步骤(&amp;S)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Lines</source>
        <translation>连线(&amp;L)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>S&amp;tatistics</source>
        <translation>统计(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compare</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Head &amp;Atlas</source>
        <translation>头图谱(&amp;A)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ZoomHeatmap</name>
    <message>
        <location filename="../../ui/widgets/zoom_heatmap.cpp" line="+134"/>
        <source>“%1” → “%2”: %3 (query %4, key %5)</source>
        <translation>“%1” → “%2”：%3（查询 %4，键 %5）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · this pixel: the largest of %1 × %1 cells, %2</source>
        <translation> · 此像素：%1 × %1 个单元中的最大值 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · this pixel: the mean of %1 × %1 cells, %2</source>
        <translation> · 此像素：%1 × %1 个单元的平均值 %2</translation>
    </message>
</context>
</TS>
