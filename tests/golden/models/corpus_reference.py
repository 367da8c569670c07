#!/usr/bin/python3
"""Float64 references of heads across a corpus (engine/models/corpus.h, qk_embedding.h), for
tests/test_corpus.cpp: the shipped attn-only-2l over the first TEXTS texts of the bundled
English corpus (resources/corpora/fortunes_en.txt, one text per paragraph).

    /usr/bin/python3 tests/golden/models/corpus_reference.py

Definitions (the engine implements the same; docs/guide.md, "Heads across a corpus"):

* Each text's measures are the head atlas's (engine/models/head_atlas.h), means over the rows
  of the text's map; the corpus's are their means over the texts where they exist, each text
  weighing the same.
* A text's induction: over the queries i whose token occurred before at some j < i - 1, the
  mean of sum_j p(i, j + 1), the weight on the tokens after its earlier occurrences.  Texts
  without such a query do not count.
* The interval: x_bar +- t(0.975, n - 1) s / sqrt(n), s the sample standard deviation.  The
  script also computes a percentile bootstrap of the mean (BOOTSTRAP resamples of the texts,
  numpy's default_rng(SEED)), the reference the interval is checked against, and asserts here
  that they agree within BOOTSTRAP_TOL of the bootstrap's width before writing.
* Labels: the atlas's thresholds on the means; a label's agreement is the share of the texts
  (where its measure exists) whose own measure reaches its threshold.
* Received by relative position: key j of an L-token text falls in bin floor(B j / L); a
  text's bin is the mean of sum_{i >= j} p(i, j) / (L - j) over its keys there; the corpus's the
  mean over the texts with keys in the bin.
* Top examples: the TOP cells (text, query, key) of largest weight with key neither 0 nor the
  query, over every row of every text.
* The joint query-key view of QK_HEADS over the corpus's first QK_TOKENS tokens: q and k as
  the attention reads them (input norm, projection with bias, rotation; not the score scale);
  queries scaled by c, keys by 1/c and moved by c q_bar - k_bar / c, c = sqrt(s_k / s_q) with s
  the mean distance to the own mean (AttentionViz); then PCA of the 2n points (centred, two
  leading eigenvectors of the covariance, each signed so that its largest component is
  positive), and the same of the unit vectors q / |q|, k / |k|.

Writes tests/golden/shipped/corpus/attn_en/:
  corpus.json        texts (ids), per head: measures {mean, low, high (t), boot_low, boot_high,
                     texts}, labels, agreement {label: share}, examples [[text, query, key,
                     weight]] (from 0) and the CANDIDATES best cells (every cell within float32
                     rounding of the examples); the qk heads' normalisation and explained shares
  received.npy       float32 [layers, heads, BINS]
  qk_L_H.npy         float32 [2n, 2]: PCA of the normalised queries then keys
  qk_L_H_cosine.npy  float32 [2n, 2]: PCA of their directions
"""
import json
import os
import sys

import mpmath
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import hf_reference as ref  # noqa: E402

MODEL = os.path.join(ROOT, "resources", "models", "attn-only-2l")
CORPUS = os.path.join(ROOT, "resources", "corpora", "fortunes_en.txt")
OUT = os.path.join(ROOT, "tests", "golden", "shipped", "corpus", "attn_en")
TEXTS = 40
BINS = 20
TOP = 5
CANDIDATES = 40
QK_HEADS = [(0, 3), (1, 7)]  # L1H4 and L2H8, from 0
QK_TOKENS = 1500
BOOTSTRAP = 20000
SEED = 39
BOOTSTRAP_TOL = 0.25
THRESHOLDS = {"previous token": ("previous", 0.4), "sink": ("first", 0.5),
              "self": ("self", 0.5), "induction": ("induction", 0.3),
              "broad": ("broadness", 0.8)}
MEASURES = ["entropy", "broadness", "mean_distance", "first", "self", "previous", "induction"]


def char_ids(text):
    with open(os.path.join(MODEL, "tokenizer.json"), encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    return [vocab["<|bos|>"]] + [vocab.get(c, vocab["<unk>"]) for c in text]


def texts():
    with open(CORPUS, encoding="utf-8") as f:
        return [t for t in f.read().split("\n\n") if t.strip()][:TEXTS]


def text_measures(p, ids):
    """{measure: value or None} of one head's causal map p [L, L] (float64)."""
    L = p.shape[0]
    rows = np.arange(L)
    logp = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
    entropy = -(p * logp).sum(1)
    seen = rows + 1
    out = {"entropy": entropy.mean(),
           "broadness": (entropy[1:] / np.log(seen[1:])).mean() if L > 1 else None,
           "mean_distance": (p * np.abs(rows[:, None] - rows[None, :])).sum(1).mean(),
           "first": p[1:, 0].mean() if L > 1 else None,
           "self": p[rows, rows].mean(),
           "previous": p[rows[1:], rows[1:] - 1].mean() if L > 1 else None}
    shares = []
    for i in range(L):
        keys = [j + 1 for j in range(i - 1) if ids[j] == ids[i]]
        if keys:
            shares.append(p[i, keys].sum())
    out["induction"] = float(np.mean(shares)) if shares else None
    return out


def t_interval(values):
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return mean, None, None
    half = float(mpmath.mpf(mpmath.findroot(
        lambda t: mpmath.betainc((n - 1) / 2, 0.5, 0, (n - 1) / ((n - 1) + t * t),
                                 regularized=True) / 2 - 0.025, 2.0))) * np.std(values, ddof=1) / np.sqrt(n)
    return mean, mean - half, mean + half


def bootstrap(values, rng):
    v = np.asarray(values)
    means = v[rng.integers(0, len(v), size=(BOOTSTRAP, len(v)))].mean(1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def queries_keys(cfg, P, ids, hidden, layer, head):
    """[L, d] each: the head's q and k as its attention reads them (after the rotation)."""
    H, d = cfg["num_attention_heads"], ref.head_dim_of(cfg)
    p = f"layers.{layer}."
    h = ref.rms_norm(hidden[layer], P[p + "input_layernorm.weight"], cfg["rms_norm_eps"])
    q = ref.split_heads(ref.linear(h, P, p + "self_attn.q_proj", True), H, d)[head]
    k = ref.split_heads(ref.linear(h, P, p + "self_attn.k_proj", True), H, d)[head]
    cos, sin = ref.rotary_cos_sin(cfg, len(ids), torch.float64)
    return ref.apply_rotary(q, cos, sin).numpy(), ref.apply_rotary(k, cos, sin).numpy()


def pca(x):
    mean = x.mean(0)
    c = (x - mean).T @ (x - mean) / len(x)
    w, v = np.linalg.eigh(c)
    axes = v[:, ::-1][:, :2].copy()
    for a in range(2):
        if axes[np.argmax(np.abs(axes[:, a])), a] < 0:
            axes[:, a] = -axes[:, a]
    return (x - mean) @ axes, (w[::-1][:2] / w.sum()).tolist()


def joint(q, k):
    sq = np.linalg.norm(q - q.mean(0), axis=1).mean()
    sk = np.linalg.norm(k - k.mean(0), axis=1).mean()
    c = np.sqrt(sk / sq)
    shift = c * q.mean(0) - k.mean(0) / c
    points = np.concatenate([c * q, k / c + shift])
    # The normalisation keeps every score q.k up to a constant per query (which softmax
    # ignores), and gives queries and keys one centre and one spread.
    s0, s1 = q @ k.T, points[:len(q)] @ points[len(q):].T
    assert np.abs((s1 - s1[:, :1]) - (s0 - s0[:, :1])).max() < 1e-9
    assert np.allclose(points[:len(q)].mean(0), points[len(q):].mean(0))
    units = np.concatenate([q / np.linalg.norm(q, axis=1, keepdims=True),
                            k / np.linalg.norm(k, axis=1, keepdims=True)])
    (p_pca, e_pca), (p_cos, e_cos) = pca(points), pca(units)
    return {"query_scale": float(c), "spread": float(np.sqrt(sq * sk)),
            "pca_explained": e_pca, "cosine_explained": e_cos}, p_pca, p_cos


def main():
    cfg, state = ref.load_folder(MODEL)
    model = ref.Model(cfg, state)
    layers, heads = model.num_layers, model.num_heads
    per_text = [[[] for _ in range(heads)] for _ in range(layers)]
    received = np.zeros((layers, heads, BINS))
    bin_texts = np.zeros((layers, heads, BINS))
    cells = [[[] for _ in range(heads)] for _ in range(layers)]
    qk = {h: ([], []) for h in QK_HEADS}
    all_ids = []
    for t, text in enumerate(texts()):
        ids = char_ids(text)
        all_ids.append(ids)
        r = model.run(ids)
        L = len(ids)
        for l in range(layers):
            for h in range(heads):
                p = r["attentions"][l][h].numpy()
                per_text[l][h].append(text_measures(p, ids))
                rec = p.sum(0) / (L - np.arange(L))
                b = (BINS * np.arange(L)) // L
                for k in range(BINS):
                    if (b == k).any():
                        received[l, h, k] += rec[b == k].mean()
                        bin_texts[l, h, k] += 1
                for i in range(L):
                    for j in range(1, i):
                        cells[l][h].append((-p[i, j], t, i, j))
        for (l, h), (qs, ks) in qk.items():
            q, k = queries_keys(cfg, model.params, ids, r["hidden_states"], l, h)
            qs.append(q)
            ks.append(k)
    rng = np.random.default_rng(SEED)
    out = {"texts": all_ids, "bins": BINS, "top": TOP, "qk_tokens": QK_TOKENS, "heads": []}
    for l in range(layers):
        for h in range(heads):
            head = {"layer": l + 1, "head": h + 1, "measures": {}, "agreement": {}, "labels": []}
            for m in MEASURES:
                values = [x[m] for x in per_text[l][h] if x[m] is not None]
                mean, low, high = t_interval(values)
                blow, bhigh = bootstrap(values, rng)
                width = bhigh - blow
                assert abs(low - blow) <= BOOTSTRAP_TOL * width and abs(high - bhigh) <= BOOTSTRAP_TOL * width, (l, h, m, low, high, blow, bhigh)
                head["measures"][m] = {"mean": mean, "low": low, "high": high, "boot_low": blow,
                                       "boot_high": bhigh, "texts": len(values)}
            for label, (m, threshold) in THRESHOLDS.items():
                values = [x[m] for x in per_text[l][h] if x[m] is not None]
                head["agreement"][label] = float(np.mean([v >= threshold for v in values]))
                if head["measures"][m]["mean"] >= threshold:
                    head["labels"].append(label)
            # Near-ties (saturated weights a few 1e-6 apart) may come in another order in
            # float32: the candidates are every cell the engine's top TOP could hold.
            best = sorted(cells[l][h])[:CANDIDATES]
            assert best[-1][0] - best[TOP - 1][0] > 1e-5, (l, h)
            head["examples"] = [[t, i, j, -w] for w, t, i, j in best[:TOP]]
            head["candidates"] = [[t, i, j, -w] for w, t, i, j in best]
            out["heads"].append(head)
    os.makedirs(OUT, exist_ok=True)
    np.save(os.path.join(OUT, "received.npy"), (received / bin_texts).astype(np.float32))
    out["qk"] = []
    for (l, h), (qs, ks) in qk.items():
        q, k = np.concatenate(qs)[:QK_TOKENS], np.concatenate(ks)[:QK_TOKENS]
        info, p_pca, p_cos = joint(q, k)
        info.update(layer=l + 1, head=h + 1, tokens=len(q))
        out["qk"].append(info)
        np.save(os.path.join(OUT, f"qk_{l + 1}_{h + 1}.npy"), p_pca.astype(np.float32))
        np.save(os.path.join(OUT, f"qk_{l + 1}_{h + 1}_cosine.npy"), p_cos.astype(np.float32))
    with open(os.path.join(OUT, "corpus.json"), "w", encoding="utf-8") as f:
        json.dump(out, f)
        f.write("\n")
    print(f"{OUT}: {len(all_ids)} texts, {sum(map(len, all_ids))} tokens")


if __name__ == "__main__":
    main()
