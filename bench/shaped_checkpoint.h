// Random checkpoints with real models' shapes, written by the benchmark itself into a folder it
// owns (no download, no Python): safetensors weights drawn from N(0, 0.02) (norm weights 1),
// the config.json transformers writes for that architecture, and a real tokenizer copied from
// tests/data/tokenizers.  Random enough for a speed test; the values mean nothing.
#pragma once

#include <QString>

namespace attnviz::bench {

/// Qwen2.5-0.5B's shapes: 24 layers, hidden 896, 14 heads (2 key/value heads), intermediate
/// 4864, vocabulary 151,936, tied embeddings, BF16 (about 1 GB).  Qwen2's own tokenizer.
/// Returns an error message, empty on success.
QString write_qwen2_0_5b_shaped(const QString& folder, const QString& source_dir);

/// GPT-2 small's shapes: 12 layers, hidden 768, 12 heads, vocabulary 50,257, 1024 positions,
/// tied head, F32 (about 500 MB).  GPT-2's own tokenizer.  Error message, empty on success.
QString write_gpt2_small_shaped(const QString& folder, const QString& source_dir);

}  // namespace attnviz::bench
