#!/usr/bin/python3
"""Attention maps as other tools leave them on disk, for `attnviz view --attentions` and the
window's File > Open Attention Maps (engine/io/attention_arrays.h), and the bad files every
check must refuse.

The maps are the tiny GPT-2 golden's real attentions (tests/golden/models/gpt2_lmhead/reference/
attentions.npy: hf_reference.py's float64 forward, [layers 2, heads 4, L 10, L 10] as float32)
and its input ids, spelled with the golden's vocab.json.  Deterministic: no random numbers.
Run from anywhere: python3 tests/data/attention_maps/make_attention_maps.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "..", "golden", "models", "gpt2_lmhead")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
import safetensors_lite  # noqa: E402


def out(name):
    return os.path.join(HERE, name)


def dump(name, obj):
    with open(out(name), "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False)
        f.write("\n")


maps = np.load(os.path.join(GOLDEN, "reference", "attentions.npy")).astype(np.float32)
ids = [int(i) for i in np.load(os.path.join(GOLDEN, "reference", "input_ids.npy")).reshape(-1)]
with open(os.path.join(GOLDEN, "vocab.json"), encoding="utf-8") as f:
    by_id = {v: k for k, v in json.load(f).items()}
tokens = [by_id[i] for i in ids]
layers, heads, L, _ = maps.shape

# What the tools write.  Hugging Face: torch.stack(out.attentions) is [layers, 1, heads, L, L].
np.save(out("maps_f32.npy"), maps)
np.save(out("maps_f16.npy"), maps.astype(np.float16))
np.save(out("maps_one_layer.npy"), maps[0])
np.save(out("maps_hf_stack.npy"), maps[:, None])
safetensors_lite.save_file({f"layer.{l}": maps[l][None] for l in range(layers)},
                           out("maps_hf.safetensors"))
safetensors_lite.save_file({f"layer.{l}": maps[l].astype(np.float16) for l in range(layers)},
                           out("maps_f16.safetensors"))
dump("tokens.json", {"tokens": tokens, "ids": ids})
dump("tokens_list.json", tokens)

# Bad data: each file wrong in one way.
dump("bad_tokens_9.json", {"tokens": tokens[:9], "ids": ids[:9]})
dump("bad_tokens_ids.json", {"tokens": tokens, "ids": ids[:9]})
nan = maps.copy()
nan[1, 2, 4, 0] = np.nan  # layer 2, head 3, row 5, column 1 counted from 1
np.save(out("bad_nan.npy"), nan)
np.save(out("bad_not_square.npy"), maps[:, :, :, :9].copy())
np.save(out("bad_2d.npy"), maps[0, 0])
np.save(out("bad_int.npy"), np.zeros((1, 1, 2, 2), np.int32))
np.save(out("bad_fortran.npy"), np.asfortranarray(maps))
safetensors_lite.save_file({"layer.0": maps[0], "attn.1": maps[1]}, out("bad_names.safetensors"))
safetensors_lite.save_file({"layer.0": maps[0], "layer.1": maps[1][:3]},
                           out("bad_layer_shapes.safetensors"))
# Rows that lose mass (a pipeline that dropped heads): a warning naming the worst row, layer 2,
# head 3, row 7 counted from 1, which sums to 0.9; another row is off by less.
rows = maps.copy()
rows[1, 2, 6] *= 0.9
rows[0, 1, 3] *= 0.995
np.save(out("rows_not_one.npy"), rows)
# Maps that do not fit maps_f32.npy for a comparison (--b-attentions): 3 heads of its 4, and
# its first 9 tokens (rows renormalised; tokens: bad_tokens_9.json).  The layers: maps_one_layer.
np.save(out("maps_3_heads.npy"), maps[:, :3].copy())
first9 = maps[:, :, :9, :9].copy()
np.save(out("maps_9_tokens.npy"), (first9 / first9.sum(axis=-1, keepdims=True)).astype(np.float32))
# The same maps with their tokens spelled otherwise at one position (another tokenizer's
# pieces): compared position by position, with a warning.
os.makedirs(out("other_tokens"), exist_ok=True)
np.save(out("other_tokens/maps_f32.npy"), maps)
dump("other_tokens/tokens.json", [tokens[0], "I"] + tokens[2:])
print(f"maps [{layers}, {heads}, {L}, {L}] and {len(tokens)} tokens written to {HERE}")
