#!/usr/bin/python3
"""QK attribution references (engine/models/qk_attribution.h), in float64.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tests/golden/models/qk_reference.py

For one head, query and key of every causal golden case (index.json) and of the shipped
attn-only-2l on a repeated random string, the head's pre-softmax score split into pairs of
query-side and key-side terms ("A Mathematical Framework for Transformer Circuits", Elhage et
al. 2021, §4):

- the residual stream before the head's layer is a sum of components: the embeddings, every
  earlier head's output (its context slice through its columns of the output projection), every
  earlier layer's attention-output bias and MLP (the MLP as what the layer added beyond its
  attention), named "embed", "L1H2", "L1.attn_bias", "L1.mlp" (layers and heads from 1);
- each side's norm scale is frozen at the full stream's (1/σ with LayerNorm's centring kept,
  1/rms), as TransformerLens's apply_ln_to_stack does; the norm's bias and the projection's
  bias make a "const" term on their side (absent where the model has neither); Qwen3's q/k norms
  are frozen at the full q and k; RoPE rotates each term at its own position;
- pairs[a][b] = scaling · q_a · k_b, and they add up to the score.

Before it writes a case, the script checks: the components add up to the stream (1e-12); each
side's terms add up to the q or k the nonlinear path gives (1e-10); the pairs add up to the
score (1e-10), and so does every key of the query's row, whose softmax equals
hf_reference.forward's own attention row (1e-10); leaving out the centring (LayerNorm) or the
rotation (RoPE) moves the pairs by more than 1e-3.

Writes <case>/reference/qk.json (positions, layer and head from 0):

    {"ids": [...], "layer": l, "head": h, "query": i, "key": j, "scale": s, "score": x,
     "row_scores": [scores of keys 0..i], "row_max_abs": m,
     "query_terms": ["embed", ...], "key_terms": [...], "pairs": [[...] per query term]}

and for the shipped model attn-only-2l/reference/qk.json (with "text"): the induction head L2H8
at the last token of the string's second copy and the key after the first copy's same
character.  Rerun after make_models.py rewrites the cases, or after retraining the models.
"""
import json
import math
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "golden", "shipped"))
import hf_reference  # noqa: E402
from make_shipped_goldens import char_ids  # noqa: E402

INDUCTION_TEXT = "q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP"


def attention_params(cfg, P, layer):
    """The layer's attention weights as nn.Linear's [out, in], whatever the family stores."""
    family = cfg["model_type"]
    if family == "gpt2":
        E, H = cfg["n_embd"], cfg["n_head"]
        d = E // H
        p = f"h.{layer}."
        W, b = P[p + "attn.c_attn.weight"], P[p + "attn.c_attn.bias"]  # Conv1D [in, out]
        return {"rms": False, "eps": cfg["layer_norm_epsilon"], "H": H, "KV": H, "d": d,
                "norm_w": P[p + "ln_1.weight"], "norm_b": P[p + "ln_1.bias"],
                "wq": W[:, :E].T, "bq": b[:E], "wk": W[:, E:2 * E].T, "bk": b[E:2 * E],
                "wo": P[p + "attn.c_proj.weight"].T, "bo": P[p + "attn.c_proj.bias"],
                "q_norm": None, "k_norm": None, "rotary": False,
                "scaling": 1.0 / math.sqrt(d) if cfg.get("scale_attn_weights", True) else 1.0,
                "mlp": True}
    H = cfg["num_attention_heads"]
    KV = cfg.get("num_key_value_heads") or H
    d = hf_reference.head_dim_of(cfg)
    # As hf_reference._decoder: Qwen2 hard-codes q/k/v biases and none on o_proj.
    qkv_bias = True if family == "qwen2" else bool(cfg.get("attention_bias", False))
    o_bias = False if family == "qwen2" else bool(cfg.get("attention_bias", False))
    p = f"layers.{layer}.self_attn."
    qwen3 = family == "qwen3"
    return {"rms": True, "eps": cfg["rms_norm_eps"], "H": H, "KV": KV, "d": d,
            "norm_w": P[f"layers.{layer}.input_layernorm.weight"], "norm_b": None,
            "wq": P[p + "q_proj.weight"], "bq": P[p + "q_proj.bias"] if qkv_bias else None,
            "wk": P[p + "k_proj.weight"], "bk": P[p + "k_proj.bias"] if qkv_bias else None,
            "wo": P[p + "o_proj.weight"], "bo": P[p + "o_proj.bias"] if o_bias else None,
            "q_norm": P[p + "q_norm.weight"] if qwen3 else None,
            "k_norm": P[p + "k_norm.weight"] if qwen3 else None,
            "rotary": True, "scaling": d ** -0.5, "mlp": cfg["intermediate_size"] > 0}


def decompose(model, ids, layer):
    """(stream [L, E] before `layer`, names, components [C, L, E]) of one run."""
    cfg, P = model.config, model.params
    contexts = []
    run = model.run(ids, heads=hf_reference.recorder(contexts))
    emb, outs = run["hidden_states"][0], run["layer_outputs"]
    names, parts = ["embed"], [emb]
    for m in range(layer):
        a = attention_params(cfg, P, m)
        d = a["d"]
        before = emb if m == 0 else outs[m - 1]
        attention = torch.zeros_like(emb)
        for h in range(a["H"]):
            head = contexts[m][h] @ a["wo"][:, h * d:(h + 1) * d].T
            names.append(f"L{m + 1}H{h + 1}")
            parts.append(head)
            attention = attention + head
        if a["bo"] is not None:
            names.append(f"L{m + 1}.attn_bias")
            parts.append(a["bo"].expand_as(emb))
            attention = attention + a["bo"]
        if a["mlp"]:
            names.append(f"L{m + 1}.mlp")
            parts.append(outs[m] - before - attention)
    stream = emb if layer == 0 else outs[layer - 1]
    parts = torch.stack(parts)
    assert torch.allclose(parts.sum(0), stream, rtol=0, atol=1e-12), "components != stream"
    return stream, names, parts, run["attentions"]


def norm(a, x):
    """The attention's norm of the full stream x [..., E], nonlinear."""
    if a["rms"]:
        return hf_reference.rms_norm(x, a["norm_w"], a["eps"])
    return torch.nn.functional.layer_norm(x, x.shape[-1:], a["norm_w"], a["norm_b"], a["eps"])


def side(a, w, b, head_norm, x, parts, position, cos, sin, centre=True, rotate=True):
    """(terms [C (+1), d], has_const, full [d]): one side's vectors of one head at `position`:
    each component's through the frozen norm, the projection, the frozen head norm and the
    rotation, then the const term; `full` the nonlinear path from the stream x [E]."""
    if a["rms"]:
        scale = torch.rsqrt(x.pow(2).mean() + a["eps"])
        normed = parts * a["norm_w"] * scale
    else:
        scale = torch.rsqrt(x.var(unbiased=False) + a["eps"])
        centred = parts - parts.mean(-1, keepdim=True) if centre else parts
        normed = centred * a["norm_w"] * scale
    terms = normed @ w.T
    const = torch.zeros(w.shape[0], dtype=w.dtype)
    has_const = a["norm_b"] is not None or b is not None
    if a["norm_b"] is not None:
        const = const + w @ a["norm_b"]
    if b is not None:
        const = const + b
    if has_const:
        terms = torch.cat([terms, const[None]])
    full = torch.nn.functional.linear(norm(a, x), w, b)
    if centre:  # (without, the mistake the checks make on purpose)
        assert torch.allclose(terms.sum(0), full, rtol=0, atol=1e-10), "terms != projection"
    if head_norm is not None:
        terms = terms * head_norm * torch.rsqrt(full.pow(2).mean() + a["eps"])
        full = hf_reference.rms_norm(full, head_norm, a["eps"])
    if a["rotary"] and rotate:
        terms = hf_reference.apply_rotary(terms, cos[position], sin[position])
        full = hf_reference.apply_rotary(full, cos[position], sin[position])
    return terms, has_const, full


def head_rows(a, head):
    d, group = a["d"], a["H"] // a["KV"]
    q_rows = slice(head * d, (head + 1) * d)
    kv = head // group
    k_rows = slice(kv * d, (kv + 1) * d)
    return ((a["wq"][q_rows], None if a["bq"] is None else a["bq"][q_rows], a["q_norm"]),
            (a["wk"][k_rows], None if a["bk"] is None else a["bk"][k_rows], a["k_norm"]))


def attribute(model, ids, layer, head, query, key):
    cfg = model.config
    a = attention_params(cfg, model.params, layer)
    stream, names, parts, attentions = decompose(model, ids, layer)
    L = len(ids)
    cos, sin = hf_reference.rotary_cos_sin(cfg, L, torch.float64) if a["rotary"] else (None, None)
    qside, kside = head_rows(a, head)

    def pairs_at(j, **kw):
        q, q_const, q_full = side(a, *qside, stream[query], parts[:, query], query, cos, sin, **kw)
        k, k_const, k_full = side(a, *kside, stream[j], parts[:, j], j, cos, sin, **kw)
        return a["scaling"] * q @ k.T, q_const, k_const, a["scaling"] * float(q_full @ k_full)

    row = []
    for j in range(query + 1):
        P, _, _, score = pairs_at(j)
        assert abs(float(P.sum()) - score) <= 1e-10 * max(1.0, abs(score)), "pairs != score"
        row.append(score)
    probs = torch.softmax(torch.tensor(row, dtype=torch.float64), 0)
    assert torch.allclose(probs, attentions[layer][head, query, :query + 1], rtol=0, atol=1e-10), \
        "the row's softmax is not hf_reference's attention"
    P, q_const, k_const, score = pairs_at(key)
    moved = (pairs_at(key, rotate=False) if a["rotary"] else pairs_at(key, centre=False))[0]
    change = float((moved - P).abs().max())
    assert change > 1e-3, f"a mistake moves the pairs by only {change}"
    return {"ids": [int(i) for i in ids], "layer": layer, "head": head, "query": query, "key": key,
            "scale": a["scaling"], "score": score, "row_scores": row,
            "row_max_abs": max(abs(s) for s in row),
            "query_terms": names + (["const"] if q_const else []),
            "key_terms": names + (["const"] if k_const else []),
            "pairs": P.tolist()}, change


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc) + "\n")


def top_pair(doc):
    best = max(((abs(v), a, b, v) for a, row in enumerate(doc["pairs"]) for b, v in enumerate(row)))
    return f"{doc['query_terms'][best[1]]} x {doc['key_terms'][best[2]]} = {best[3]:+.4f}"


def main():
    torch.set_num_threads(1)
    with open(os.path.join(HERE, "index.json")) as f:
        cases = [c for c in json.load(f)["cases"] if c["lm_head"] == "causal"]
    assert cases, "no causal case in index.json"
    for c in cases:
        folder = os.path.join(HERE, c["name"])
        config, state = hf_reference.load_folder(folder)
        model = hf_reference.Model(config, state)
        ids = np.load(os.path.join(folder, "reference", "input_ids.npy")).tolist()
        L = len(ids)
        # The last layer (every earlier one below it), a head of the last key/value group.
        doc, change = attribute(model, ids, model.num_layers - 1, model.num_heads - 1, L - 1,
                                (L - 1) // 2)
        write(os.path.join(folder, "reference", "qk.json"), doc)
        print(f"{c['name']:20s} score {doc['score']:+.4f}  {len(doc['query_terms'])}x"
              f"{len(doc['key_terms'])} pairs, top {top_pair(doc)}  (mistake moves {change:.2g})")

    folder = os.path.join(ROOT, "resources", "models", "attn-only-2l")
    config, state = hf_reference.load_folder(folder)
    model = hf_reference.Model(config, state)
    ids = char_ids(folder, INDUCTION_TEXT)
    query = len(ids) - 1
    # The token after the first copy of the query's character (ids[0] is <|bos|>).
    key = INDUCTION_TEXT.index(INDUCTION_TEXT[-1]) + 2
    doc, change = attribute(model, ids, 1, 7, query, key)
    doc["text"] = INDUCTION_TEXT
    write(os.path.join(HERE, "attn-only-2l", "reference", "qk.json"), doc)
    print(f"{'attn-only-2l':20s} score {doc['score']:+.4f}  {len(doc['query_terms'])}x"
          f"{len(doc['key_terms'])} pairs, top {top_pair(doc)}  (mistake moves {change:.2g})")


if __name__ == "__main__":
    main()
