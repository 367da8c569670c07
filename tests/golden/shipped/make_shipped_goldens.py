#!/usr/bin/python3
"""Goldens for the models AttnViz ships (resources/models/, trained by tools/train_models.py):
for each case, the ids a Hugging Face tokenizer gives the text (the tokenizers are
character-level BPEs without merges: <|bos|>, then one id per character, <unk> for the
others) and the attention of every layer x head, computed in float64 by
tests/golden/models/hf_reference.py (transformers' eager forward, re-written in torch) from
the folder as committed.

    /usr/bin/python3 tests/golden/shipped/make_shipped_goldens.py

Rerun it after retraining the models.  tests/test_shipped_models.cpp reads index.json.
"""
import json
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden", "models"))
import hf_reference  # noqa: E402
from train_models import DEMO  # noqa: E402

# The examples' texts (tools/train_models.py DEMO), in the three models, plus an unknown
# character.
CASES = [
    ("attn_induction", "attn-only-2l", "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1^"),
    ("attn_repeat", "attn-only-2l", "A quick brown fox. A quick brown fox."),
    ("attn_previous", "attn-only-2l", "The quick brown fox jumps over the lazy dog."),
    ("attn_unknown", "attn-only-2l", "Caf\u00e9 au lait, s'il vous pla\u00eet."),
    ("chars_poetry", "char-zh-en-4l", "床前明月光，疑是地上霜。举头望明月，低头思故乡。"),
    ("chars_sink", "char-zh-en-4l", "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"),
    ("chars_mixed", "char-zh-en-4l", "Attention is all you need. 注意力就是一切。"),
    # The attention-only bilingual model's three promises: an induction head on common Chinese
    # characters said twice and on English letters and digits said twice, and a previous-token
    # head on held-out Chinese text.
    ("zh_en_induction_zh", "attn-only-zh-en-2l", DEMO["induction_zh"]),
    ("zh_en_induction_en", "attn-only-zh-en-2l", DEMO["induction_en"]),
    ("zh_en_held_out_zh", "attn-only-zh-en-2l", DEMO["held_out_zh"]),
    ("zh_en_mixed", "attn-only-zh-en-2l", "Attention is all you need. 注意力就是一切。"),
]


def char_ids(folder, text):
    with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    return [vocab["<|bos|>"]] + [vocab.get(c, vocab["<unk>"]) for c in text]


def main():
    out = os.path.join(HERE, "reference")
    if os.path.isdir(out):
        shutil.rmtree(out)
    index = []
    for name, model, text in CASES:
        folder = os.path.join(ROOT, "resources", "models", model)
        config, state = hf_reference.load_folder(folder)
        ids = char_ids(folder, text)
        attentions, _ = hf_reference.forward(config, state, ids)
        maps = torch.stack(attentions)
        assert torch.allclose(maps.sum(-1), torch.ones_like(maps.sum(-1)), atol=1e-12)
        d = os.path.join(out, name)
        os.makedirs(d)
        np.save(os.path.join(d, "input_ids.npy"), np.asarray(ids, dtype=np.int64))
        np.save(os.path.join(d, "attentions.npy"), maps.numpy().astype(np.float32))
        index.append({"name": name, "model": model, "text": text, "tokens": len(ids),
                      "layers": maps.shape[0], "heads": maps.shape[1]})
        print(f"{name:18s} {model:18s} L={len(ids)}")
    with open(os.path.join(HERE, "index.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"cases": index}, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
