#!/usr/bin/python3
"""Float64 references of the composition and copying scores (engine/models/circuits.h), for
tests/test_circuits.cpp, on every golden case (index.json) and on the shipped attn-only-2l.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tests/golden/models/circuits_reference.py

Definitions ("A Mathematical Framework for Transformer Circuits", Elhage et al. 2021, §3 and the
section on composition; computed as TransformerLens computes them), written here with whole
hidden x hidden matrices and row vectors, x @ W, as TransformerLens writes them:

* Per head, W_Q, W_K, W_V [hidden, head_dim] and W_O [head_dim, hidden]; a query head's key
  and value head is h // (heads / kv_heads).  W_QK = W_Q W_K^T and W_OV = W_V W_O
  (TransformerLens's HookedTransformer.QK and .OV).
* Norms folded in as TransformerLens's fold_layer_norm does: the scale of the norm a head reads
  through multiplies the input side of its W_Q, W_K, W_V, then with LayerNorm (GPT-2) the mean
  over hidden is taken out of them (center_weights); the final norm's scale multiplies W_U, and
  with LayerNorm its mean over hidden is taken out too.  RMSNorm models are scaled only.
  Qwen3's q_norm / k_norm scales multiply the head_dim side of W_Q / W_K.  Post-norm encoders
  (BERT, RoBERTa, DistilBERT): nothing is folded, since their norms act on the stream between
  the blocks, not on one head's input.
* Rotary models: the QK matrix at a relative offset D (query position - key position; 1 by
  default, the key one position before the query): W_Q R(D) W_K^T, R(D) the rotation
  hf_reference.apply_rotary gives a row vector at position D.
* Composition of an earlier head 1 into a later head 2 (TransformerLens's
  all_composition_scores and utils.composition_scores: ||left @ right||_F / (||left||_F
  ||right||_F), left = W_OV^1):
      Q: right = W_QK^2,   K: right = (W_QK^2)^T,   V: right = W_OV^2.
* OV copying score of a head (causal LM head only): sum(lambda) / sum(|lambda|), real part,
  over the eigenvalues of W_E W_OV W_U [vocab, vocab] (W_E the token embedding, W_U the
  unembedding through the folded final norm), computed here on the whole vocab x vocab matrix.

Before writing a case the script checks: R(D) gives the score of rotated q and k at positions
i and i - D (1e-12); the folded W_Q gives the normalised stream's q (1e-12); the copying score
of the [vocab, vocab] matrix equals the one of its [head_dim, head_dim] factor W_O W_U W_E W_V
(1e-9); and mistakes move the scores by more than 1e-3 (printed): K for Q (W_QK not
transposed), no fold, the rotation at offset 0.

Writes <case>/reference/circuits.npy (float64 [3, N, N]: Q, K, V; N = layers x heads,
layer-major; NaN unless head i's layer is below head j's) and circuits.json
{"rope_offset": 1 or null, "copying": [N] or null}; rotary cases also circuits_offset7.npy (the
offset 7).  The shipped model's go to attn-only-2l/reference/.  Rerun after make_models.py
rewrites the cases, or after retraining the models.
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import hf_reference  # noqa: E402

OFFSETS = (1, 7)


def heads_of(cfg, P, layer):
    """The layer's per-head weights, TransformerLens's layout: wq [H, E, d], wk/wv [KV, E, d],
    wo [H, d, E]; the norm the heads read through (None for post-norm) and Qwen3's q/k norms."""
    family = cfg["model_type"]
    if family == "gpt2":
        E, H = cfg["n_embd"], cfg["n_head"]
        d = E // H
        p = f"h.{layer}."
        W = P[p + "attn.c_attn.weight"]  # Conv1D [in, out]: x @ W
        split = lambda m: m.reshape(E, H, d).permute(1, 0, 2)  # noqa: E731
        return {"wq": split(W[:, :E]), "wk": split(W[:, E:2 * E]), "wv": split(W[:, 2 * E:]),
                "wo": P[p + "attn.c_proj.weight"].reshape(H, d, E),
                "norm": P[p + "ln_1.weight"], "layer_norm": True, "q_norm": None, "k_norm": None}
    if family in hf_reference.ROTARY_FAMILIES:
        H = cfg["num_attention_heads"]
        KV = cfg.get("num_key_value_heads") or H
        d = hf_reference.head_dim_of(cfg)
        E = cfg["hidden_size"]
        p = f"layers.{layer}.self_attn."
        split = lambda m, n: m.reshape(n, d, E).transpose(1, 2)  # noqa: E731  nn.Linear [n d, E]
        qwen3 = family == "qwen3"
        return {"wq": split(P[p + "q_proj.weight"], H), "wk": split(P[p + "k_proj.weight"], KV),
                "wv": split(P[p + "v_proj.weight"], KV),
                "wo": P[p + "o_proj.weight"].reshape(E, H, d).permute(1, 2, 0),
                "norm": P[f"layers.{layer}.input_layernorm.weight"], "layer_norm": False,
                "q_norm": P[p + "q_norm.weight"] if qwen3 else None,
                "k_norm": P[p + "k_norm.weight"] if qwen3 else None}
    if family == "distilbert":
        E, H, p = cfg["dim"], cfg["n_heads"], f"transformer.layer.{layer}.attention."
        names = ("q_lin", "k_lin", "v_lin", "out_lin")
    else:
        E, H, p = cfg["hidden_size"], cfg["num_attention_heads"], f"encoder.layer.{layer}.attention."
        names = ("self.query", "self.key", "self.value", "output.dense")
    d = E // H
    split = lambda m: m.reshape(H, d, E).transpose(1, 2)  # noqa: E731
    return {"wq": split(P[p + names[0] + ".weight"]), "wk": split(P[p + names[1] + ".weight"]),
            "wv": split(P[p + names[2] + ".weight"]),
            "wo": P[p + names[3] + ".weight"].reshape(E, H, d).permute(1, 2, 0),
            "norm": None, "layer_norm": False, "q_norm": None, "k_norm": None}


def fold_reading(w, a):
    """fold_layer_norm on a reading weight [n, E, d]: the norm's scale on the hidden side, then
    (LayerNorm) the mean over hidden taken out."""
    if a["norm"] is None:
        return w
    w = w * a["norm"][None, :, None]
    if a["layer_norm"]:
        w = w - w.mean(1, keepdim=True)
    return w


def rotation(cfg, offset):
    """R(D) [d, d]: q @ R(D) is q rotated at position D (hf_reference.apply_rotary)."""
    d = hf_reference.head_dim_of(cfg)
    cos, sin = hf_reference.rotary_cos_sin(cfg, offset + 1, torch.float64)
    return hf_reference.apply_rotary(torch.eye(d, dtype=torch.float64), cos[offset], sin[offset])


def check_rotation(cfg, R, offset):
    g = torch.Generator().manual_seed(7)
    d = R.shape[0]
    q, k = torch.randn(d, generator=g, dtype=torch.float64), torch.randn(d, generator=g, dtype=torch.float64)
    i = offset + 3
    cos, sin = hf_reference.rotary_cos_sin(cfg, i + 1, torch.float64)
    rotated = hf_reference.apply_rotary(q, cos[i], sin[i]) @ hf_reference.apply_rotary(k, cos[i - offset], sin[i - offset])
    assert abs(float(rotated - q @ R @ k)) < 1e-12, "R(D) is not the rotation's relative offset"


def check_fold(cfg, P, layer, a, wq):
    """The folded W_Q of head 0 on the normalised stream (before the norm's scale) is the q of
    the normed stream (no bias)."""
    if a["norm"] is None:
        return
    x = torch.randn(5, a["norm"].shape[0], generator=torch.Generator().manual_seed(3),
                    dtype=torch.float64)
    raw = heads_of(cfg, P, layer)["wq"][0]
    if a["layer_norm"]:
        eps = cfg["layer_norm_epsilon"]
        normed = torch.nn.functional.layer_norm(x, x.shape[-1:], a["norm"], None, eps)
        unit = (x - x.mean(-1, keepdim=True)) * torch.rsqrt(x.var(-1, unbiased=False, keepdim=True) + eps)
    else:
        eps = cfg["rms_norm_eps"]
        normed = hf_reference.rms_norm(x, a["norm"], eps)
        unit = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    assert torch.allclose(unit @ wq[0], normed @ raw, rtol=0, atol=1e-12), "the fold is wrong"


def circuits(cfg, P, offset, fold=True, transpose_k=True):
    """(composition [3, N, N] with NaN where not layer(i) < layer(j), W_OV per head [N, E, E])."""
    layers = cfg.get("num_hidden_layers") or cfg.get("n_layers") or cfg["n_layer"]
    rotary = cfg["model_type"] in hf_reference.ROTARY_FAMILIES
    R = rotation(cfg, offset) if rotary else None
    if R is not None:
        check_rotation(cfg, R, offset)
    OV, QK, layer_of = [], [], []
    for layer in range(layers):
        a = heads_of(cfg, P, layer)
        if not fold:
            a = dict(a, norm=None, q_norm=None, k_norm=None)
        wq, wk, wv = (fold_reading(a[k], a) for k in ("wq", "wk", "wv"))
        if fold:
            check_fold(cfg, P, layer, a, wq)
        if a["q_norm"] is not None:  # per head: its scale multiplies the head_dim side
            wq, wk = wq * a["q_norm"], wk * a["k_norm"]
        if R is not None:
            wq = wq @ R
        H, KV = wq.shape[0], wk.shape[0]
        for h in range(H):
            g = h // (H // KV)
            OV.append(wv[g] @ a["wo"][h])
            QK.append(wq[h] @ wk[g].T)
            layer_of.append(layer)
    N = len(OV)
    out = torch.full((3, N, N), float("nan"), dtype=torch.float64)
    fro = torch.linalg.matrix_norm
    for i in range(N):
        for j in range(N):
            if layer_of[i] >= layer_of[j]:
                continue
            for kind, right in enumerate((QK[j], QK[j].T if transpose_k else QK[j], OV[j])):
                out[kind, i, j] = fro(OV[i] @ right) / (fro(OV[i]) * fro(right))
    return out, OV


def copying(cfg, model, OV, heads):
    """Each head's copying score, or None without a causal LM head."""
    if model.kind != "causal":
        return None
    family = cfg["model_type"]
    P = model.params
    W_E = P["wte.weight"] if family == "gpt2" else P["embed_tokens.weight"]
    W_U = model.head["decoder.weight"].T  # [E, V]
    if family == "gpt2":
        W_U = W_U * P["ln_f.weight"][:, None]
        W_U = W_U - W_U.mean(0, keepdim=True)
    else:
        W_U = W_U * P["norm.weight"][:, None]
    scores = []
    for n, ov in enumerate(OV):
        lam = torch.linalg.eigvals(W_E @ ov @ W_U)
        score = float(lam.sum().real / lam.abs().sum())
        # The same from the [d, d] factor: the nonzero eigenvalues of AB are those of BA.
        layer, h = divmod(n, heads)
        a = heads_of(cfg, P, layer)
        H, KV = a["wq"].shape[0], a["wk"].shape[0]
        wv = fold_reading(a["wv"], a)[h // (H // KV)]
        small = torch.linalg.eigvals(a["wo"][h] @ W_U @ W_E @ wv)
        assert abs(float(small.sum().real / small.abs().sum()) - score) < 1e-9, "AB vs BA"
        scores.append(score)
    return scores


def reference(folder, name):
    config, state = hf_reference.load_folder(folder)
    model = hf_reference.Model(config, state)
    rotary = config["model_type"] in hf_reference.ROTARY_FAMILIES
    comp, OV = circuits(config, model.params, OFFSETS[0])
    mistakes = {"K for Q": circuits(config, model.params, OFFSETS[0],
                                    transpose_k=False)[0][1]}
    if config["model_type"] not in ("bert", "roberta", "distilbert"):
        mistakes["no fold"] = circuits(config, model.params, OFFSETS[0], fold=False)[0]
    if rotary:
        mistakes["offset 0"] = circuits(config, model.params, 0)[0]
    moved = {}
    for what, m in mistakes.items():
        target = comp[1] if what == "K for Q" else comp
        change = float(np.nanmax(np.abs((m - target).numpy())))
        assert change > 1e-3, f"{name}: {what} moves the scores by only {change}"
        moved[what] = change
    out = os.path.join(folder if folder.startswith(HERE) else os.path.join(HERE, name), "reference")
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "circuits.npy"), comp.numpy())
    if rotary:
        np.save(os.path.join(out, f"circuits_offset{OFFSETS[1]}.npy"),
                circuits(config, model.params, OFFSETS[1])[0].numpy())
    copy = copying(config, model, OV, model.num_heads)
    with open(os.path.join(out, "circuits.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"rope_offset": OFFSETS[0] if rotary else None, "copying": copy}) + "\n")
    print(f"{name:20s} max Q {np.nanmax(comp[0].numpy()):.4f} K {np.nanmax(comp[1].numpy()):.4f} "
          f"V {np.nanmax(comp[2].numpy()):.4f}  copying "
          f"{'-' if copy is None else f'{min(copy):+.3f}..{max(copy):+.3f}'}  mistakes move "
          + ", ".join(f"{k} {v:.2g}" for k, v in moved.items()))
    return comp, copy, model.num_heads


def label(n, heads):
    return f"L{n // heads + 1}H{n % heads + 1}"


def main():
    torch.set_num_threads(1)
    with open(os.path.join(HERE, "index.json")) as f:
        cases = json.load(f)["cases"]
    assert cases, "no case in index.json"
    for c in cases:
        reference(os.path.join(HERE, c["name"]), c["name"])
    comp, copy, heads = reference(os.path.join(ROOT, "resources", "models", "attn-only-2l"),
                                  "attn-only-2l")
    # What the README quotes: each layer-2 head's strongest K-composition onto layer 1.
    K = comp[1].numpy()
    for j in range(heads, 2 * heads):
        col = K[:heads, j]
        order = np.argsort(-col)
        print(f"  K-composition into {label(j, heads)}: "
              + ", ".join(f"{label(i, heads)} {col[i]:.3f}" for i in order[:3])
              + f"  (mean {col.mean():.3f}); copying {copy[j]:+.3f}")
    print("  copying, layer 1: " + ", ".join(f"{v:+.2f}" for v in copy[:heads]))


if __name__ == "__main__":
    main()
