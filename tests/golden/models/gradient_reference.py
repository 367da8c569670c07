#!/usr/bin/python3
"""Float64 torch-autograd references of the backward pass (Model::gradients), attribution
patching (EAP) and input saliency, for tests/test_gradients.cpp (engine/models/model.h,
engine/models/gradient_attribution.h), on every golden with a language-model head (causal and
masked) and on the shipped attn-only-2l.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tests/golden/models/gradient_reference.py   # after make_models.py

Definitions (the engine implements the same):

* The metric m, read from the head's logits at `position` (from 0): Logit = logit(target);
  LogitDifference = logit(target) - logit(distractor); LogProb = log_softmax(logits)[target];
  SpanLoss (causal heads) = the mean over t in [span_begin, span_end) of -log p(ids[t + 1]).
* A head's output z: its [L, head_dim] slice of the context softmax(q k^T) v before the output
  projection (the query head's own under GQA), the heads side by side as [L, H * head_dim]:
  what hf_reference's `heads=` hook sees.  dm/dz is z's adjoint: the hook returns z + delta with
  delta = 0 a leaf, and dm/d(delta) is taken.
* The input embeddings x0 [L, hidden]: the sum entering the first layer, before BERT's,
  RoBERTa's and DistilBERT's embedding LayerNorm (word + token type + position; DistilBERT word +
  position; GPT-2 word + position; Llama/Qwen the word rows).  To make x0 a leaf (and to run from
  scaled inputs) the forward runs on the word table replaced by x0 itself (row t for token t, ids
  0..L-1) and all-zero position and type tables: the same sum, checked bit for bit against
  hf_reference's forward.
* Attribution patching (EAP; Nanda 2023, "Attribution Patching"; Syed, Rager & Conmy 2023):
  m = logit(target) - logit(distractor) at the position; per head (l, h) and position t,
  sum_d (z_clean - z_corrupt) * dm/dz with the gradient at the corrupted run; the estimate sums
  over t; fraction = estimate / (m_clean - m_corrupt).  Beside it the exact sweep
  (hf_reference.patcher: the corrupted run with one head's output from the clean run), and the
  Spearman rank correlation of the two fractions over the heads.
* Saliency of each token's embedding w, its row of the word table (Model::embedding_rows); the
  rest of x0 (learned positions, token types) stays in the baseline x' = x0 - w, as Captum's
  LayerIntegratedGradients on the word embeddings (Llama/Qwen: x0 = w, x' = 0).  Gradient x input
  (Shrikumar et al. 2016): per token sum_e w_e dm/dx0_e.  Integrated gradients (Sundararajan,
  Taly & Yan 2017) by the midpoint rule: per token sum_e w_e * mean_k dm/dx0_e(x' + alpha_k w),
  alpha_k = (k + 0.5) / N, N = 64.  Completeness says the tokens sum to m(x) - m(x'); the gap
  `delta` = sum - (m(x) - m(x')) is written per metric and printed.  With learned positions
  (GPT-2, BERT, RoBERTa, DistilBERT) the script asserts |delta| <= 1% of |m(x) - m(x')|; the
  rotary models' all-zero baseline sits where every RMSNorm is scale-invariant down to tiny
  scales (engine/models/gradient_attribution.h), so theirs is reported, not asserted.

* Heads knocked out (GradientOptions::interventions): per case one head zeroed and one
  mean-knocked (layer, head from 0; KNOCKED), applied as hf_reference.ablation applies them, in
  layer order.  The knocked-out model is one function: a knocked head's output is a constant
  (0, or its mean over the positions at x with the earlier knock-outs in place, held as it is
  along the integrated-gradients path and at the baseline), so no gradient flows back through it;
  dm/dz of a knocked head is that of the constant it was given (delta is added after the
  knock-out).  Its metric, z, dm/dz, dm/dx0, gradient x input and integrated gradients (N = 64)
  are written for one metric per case (the first logit difference).  Checked: at x the forward
  equals hf_reference.ablation's (1e-12), finite differences of that function, completeness
  (learned positions), and that the gradient moves by more than 1e-3 if the mean is
  differentiated through or the knock-outs are left out.

The script checks its own output before writing: the forward from the replaced tables equals
hf_reference's stream and lm_logits (1e-12); autograd's gradients equal central finite
differences (step 1e-5) at the largest coordinate of every gradient and two more (1e-7 of the
largest); EAP's m_clean, m_corrupt and the exact sweep equal make_models.py's
interventions.json and patch_m.npy; and that the mistakes a backward pass could make move the
gradients by more than 1e-3: the RoPE backward not rotated back (the gradient with respect to
the rotated q and k taken for q and k's), LayerNorm's backward without its mean term, and the
final norm's scale treated as a constant.  Each mistake is written as a custom backward whose
correct variant equals autograd (1e-12), so only the one term differs.

Writes, per case, into its reference folder (gradient_index.json lists them):
  gradients.json                  ids, token types, the metrics (kind, position, target,
                                  distractor, span, value, saliency) and `eap`
  gradients_contexts.npy          float32 [layers, L, H * head_dim]: z (the same for every metric)
  gradients_embeddings.npy        float32 [L, hidden]: x0
  gradients_heads.npy             float32 [metrics, layers, L, H * head_dim]: dm/dz
  gradients_inputs.npy            float32 [metrics, L, hidden]: dm/dx0
  gradients_eap_by_position.npy   float32 [layers, H, L]: EAP fraction by position patched
  gradients_knocked.json          the knock-outs (layer, head, mode), the metric (its spec and
                                  value), its saliency and the mistakes' sizes
  gradients_knocked_contexts.npy  float32 [layers, L, H * head_dim]: z, knock-outs applied
  gradients_knocked_heads.npy     float32 [layers, L, H * head_dim]: dm/dz
  gradients_knocked_inputs.npy    float32 [L, hidden]: dm/dx0
"""
import contextlib
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "golden", "shipped"))
import hf_reference as ref  # noqa: E402
from attribution_reference import check  # noqa: E402
from make_shipped_goldens import char_ids  # noqa: E402

GOLDEN_CASES = ["bert_mlm_prefix", "roberta", "distilbert", "gpt2_lmhead", "gpt2_bf16",
                "llama_gqa", "llama3_rope_sharded", "qwen2_bias_bf16", "qwen3_qknorm"]
SHIPPED_MODEL = "resources/models/attn-only-2l"
SHIPPED_IDS = "tests/golden/shipped/reference/attn_induction/input_ids.npy"
SHIPPED_OUT = "tests/golden/shipped/gradients/attn_induction"
# docs/guide.md's patching example, the one the app ships.
PATCH_CLEAN = "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1"
PATCH_CORRUPT = "zK8&pW3!rT6~bN1x zK8&pW3!rT6~bN1"
PATCH_TARGET, PATCH_DISTRACTOR = "^", "x"

# The heads knocked out of each case's model (layer, head from 0, mode): a zero knock-out below
# a mean one, whose mean then sees it; the shipped model's are the guide's: the induction head
# L2H8 zeroed, the previous-token head L1H4 mean-knocked (so the induction head's keys change).
def KNOCKED(layers, heads):
    return [(0, 1, "zero"), (layers - 1, heads - 2, "mean")]


SHIPPED_KNOCKED = [(1, 7, "zero"), (0, 3, "mean")]

IG_STEPS = 64
COMPLETENESS = 0.01  # the promise at N = 64, held with learned positions
FD_STEP = 1e-5
FD_TOL = 1e-7        # central differences in float64, relative to the largest gradient
SELF_TOL = 1e-12
MISTAKE = 1e-3

# Each family's embedding tables: (the word table, the tables added to it).
TABLES = {"bert": ("embeddings.word_embeddings.weight",
                   ("embeddings.token_type_embeddings.weight", "embeddings.position_embeddings.weight")),
          "distilbert": ("embeddings.word_embeddings.weight", ("embeddings.position_embeddings.weight",)),
          "gpt2": ("wte.weight", ("wpe.weight",)),
          "llama": ("embed_tokens.weight", ())}
TABLES.update(roberta=TABLES["bert"], qwen2=TABLES["llama"], qwen3=TABLES["llama"])


def norm(x, weight, bias, eps, rms, frozen_scale=False):
    """LayerNorm (rms False) or RMSNorm over the last dimension; frozen_scale: 1/sqrt(var + eps)
    taken as a constant (a mistake)."""
    c = x if rms else x - x.mean(-1, keepdim=True)
    s = torch.rsqrt(c.pow(2).mean(-1, keepdim=True) + eps)
    y = c * (s.detach() if frozen_scale else s) * weight
    return y if bias is None else y + bias


def metric_of(logits, spec, ids):
    kind, p = spec["kind"], spec["position"]
    if kind == "Logit":
        return logits[p, spec["target"]]
    if kind == "LogitDifference":
        return logits[p, spec["target"]] - logits[p, spec["distractor"]]
    if kind == "LogProb":
        return torch.log_softmax(logits[p], -1)[spec["target"]]
    b, e = spec["span_begin"], spec["span_end"]
    lp = torch.log_softmax(logits[b:e], -1)
    return -lp.gather(1, torch.as_tensor(ids[b + 1:e + 1]).view(-1, 1)).mean()


class Runner:
    """A checkpoint in float64 with autograd: hf_reference's forward from given input
    embeddings, the language-model head and the metrics."""

    def __init__(self, folder):
        config, state = ref.load_folder(folder)
        self.model = ref.Model(config, state)
        check(self.model.head is not None, f"{folder} has no language-model head")
        self.config, self.P, self.family = config, self.model.params, config["model_type"]
        self.causal = self.model.kind == "causal"

    def embeddings(self, ids, tt):
        """x0 [L, hidden], summed in the order hf_reference's forward sums it."""
        P, L = self.P, len(ids)
        ids = torch.as_tensor(ids)
        word, _ = TABLES[self.family]
        if self.family in ("bert", "roberta"):
            pos = (ref.roberta_position_ids(ids, self.config["pad_token_id"])
                   if self.family == "roberta" else torch.arange(L))
            tt = torch.zeros(L, dtype=torch.long) if tt is None else torch.as_tensor(tt)
            return (P[word][ids] + P["embeddings.token_type_embeddings.weight"][tt]
                    + P["embeddings.position_embeddings.weight"][pos])
        if self.family == "distilbert":
            return P[word][ids] + P["embeddings.position_embeddings.weight"][:L]
        if self.family == "gpt2":
            return P[word][ids] + P["wpe.weight"][:L]
        return P[word][ids]

    def token_embeddings(self, ids):
        """Each token's row of the word table [L, hidden]: what saliency attributes."""
        return self.P[TABLES[self.family][0]][torch.as_tensor(ids)]

    def stream(self, x0, heads=None):
        """Each layer's output [L, hidden] (before any final norm), run from x0."""
        word, added = TABLES[self.family]
        P = dict(self.P)
        P[word] = x0
        for name in added:
            P[name] = torch.zeros_like(self.P[name])
        outs = []
        ref._FORWARD[self.family](self.config, P, torch.arange(x0.shape[0]), None, None, heads,
                                  outs)
        return outs

    def logits(self, x, frozen_scale=False):
        """The head on the last layer's output x, as hf_reference.lm_logits (checked), with
        gradients."""
        cfg, P, head = self.config, self.P, self.model.head
        if self.family == "gpt2":
            h = norm(x, P["ln_f.weight"], P["ln_f.bias"], cfg["layer_norm_epsilon"], False,
                     frozen_scale)
        elif self.causal:
            h = norm(x, P["norm.weight"], None, cfg["rms_norm_eps"], True, frozen_scale)
        else:
            if self.family == "bert":
                act, eps = ref.activation(cfg["hidden_act"]), cfg["layer_norm_eps"]
            elif self.family == "roberta":
                act, eps = F.gelu, cfg["layer_norm_eps"]
            else:
                act, eps = ref.activation(cfg["activation"]), 1e-12
            h = act(F.linear(x, head["dense.weight"], head["dense.bias"]))
            h = norm(h, head["norm.weight"], head["norm.bias"], eps, False)
        return F.linear(h, head["decoder.weight"], head.get("decoder.bias"))

    def value(self, x0, spec, ids, heads=None):
        with torch.no_grad():
            return float(metric_of(self.logits(self.stream(x0, heads)[-1]), spec, ids))

    def gradients(self, ids, spec, x0, frozen_scale=False, heads=None):
        """{metric, contexts and head_gradients [layers, L, H * d], embeddings and
        embedding_gradients [L, hidden]} of one pass from x0; `heads` (a hf_reference heads
        function) changes the contexts first, and z is what it returns."""
        x0 = x0.detach().clone().requires_grad_(True)
        contexts, deltas = [], []

        def hook(layer, ctx):
            if heads is not None:
                ctx = heads(layer, ctx)
            delta = torch.zeros_like(ctx, requires_grad=True)
            contexts.append(ctx.detach())
            deltas.append(delta)
            return ctx + delta

        with torch.enable_grad():
            m = metric_of(self.logits(self.stream(x0, hook)[-1], frozen_scale), spec, ids)
            grads = torch.autograd.grad(m, [x0] + deltas)
        return {"metric": float(m),
                "contexts": torch.stack([ref.merge_heads(c) for c in contexts]),
                "head_gradients": torch.stack([ref.merge_heads(g) for g in grads[1:]]),
                "embeddings": x0.detach(), "embedding_gradients": grads[0]}


# ---------------------------------------------------------------------------------------------
# Mistakes a backward pass could make, each a custom backward whose correct variant is autograd's


class Rotary(torch.autograd.Function):
    """apply_rotary; backward rotates the gradient back (R^T g, the angle negated), or with
    `rotate_back` False passes it through unrotated."""

    @staticmethod
    def forward(ctx, x, cos, sin, rotate_back):
        ctx.save_for_backward(cos, sin)
        ctx.rotate_back = rotate_back
        return ROTARY(x, cos, sin)

    @staticmethod
    def backward(ctx, g):
        cos, sin = ctx.saved_tensors
        return (ROTARY(g, cos, -sin) if ctx.rotate_back else g), None, None, None


class LayerNorm(torch.autograd.Function):
    """LayerNorm whose backward is dx = s (a - mean(a) - xhat mean(a xhat)), a = g * weight, or
    without the mean(a) term."""

    @staticmethod
    def forward(ctx, x, weight, bias, eps, mean_term):
        c = x - x.mean(-1, keepdim=True)
        s = torch.rsqrt(c.pow(2).mean(-1, keepdim=True) + eps)
        xhat = c * s
        ctx.save_for_backward(xhat, s, weight)
        ctx.mean_term = mean_term
        return xhat * weight + bias

    @staticmethod
    def backward(ctx, g):
        xhat, s, weight = ctx.saved_tensors
        a = g * weight
        dx = a - xhat * (a * xhat).mean(-1, keepdim=True)
        if ctx.mean_term:
            dx = dx - a.mean(-1, keepdim=True)
        return dx * s, None, None, None, None


ROTARY = ref.apply_rotary


@contextlib.contextmanager
def replaced(name, fn):
    """hf_reference's `name` replaced by fn while the block runs (its forward looks it up at
    each call)."""
    old = getattr(ref, name)
    setattr(ref, name, fn)
    try:
        yield
    finally:
        setattr(ref, name, old)


def rotary_with(rotate_back):
    return replaced("apply_rotary", lambda x, cos, sin: Rotary.apply(x, cos, sin, rotate_back))


def layer_norm_with(mean_term):
    return replaced("layer_norm", lambda x, P, name, eps: LayerNorm.apply(
        x, P[name + ".weight"], P[name + ".bias"], eps, mean_term))


def moved(a, b):
    return max(float((a["head_gradients"] - b["head_gradients"]).abs().max()),
               float((a["embedding_gradients"] - b["embedding_gradients"]).abs().max()))


def mistakes(runner, ids, spec, x0, good):
    """{mistake: how far it moves the gradients}; each > MISTAKE, each correct variant == good."""
    variants = []
    if runner.family in ref.ROTARY_FAMILIES:
        variants.append(("rope_not_rotated_back", rotary_with(True), rotary_with(False)))
    if runner.family in ("gpt2", "bert", "roberta", "distilbert"):
        variants.append(("layer_norm_no_mean", layer_norm_with(True), layer_norm_with(False)))
    out = {}
    for name, right, wrong in variants:
        with right:
            same = moved(runner.gradients(ids, spec, x0), good)
        check(same <= SELF_TOL, f"{name}: the correct custom backward is {same:.2g} off autograd")
        with wrong:
            out[name] = moved(runner.gradients(ids, spec, x0), good)
    if runner.causal:
        out["final_norm_scale_constant"] = moved(runner.gradients(ids, spec, x0, True), good)
    for k, v in out.items():
        check(v > MISTAKE, f"the mistake {k} moves the gradients by only {v:.2g}")
    return out


# ---------------------------------------------------------------------------------------------
# Checks of the forward and of autograd


def check_forward(runner, ids, tt, x0):
    """The forward from the replaced tables is hf_reference's, and so are its logits."""
    r = runner.model.run(ids, tt)
    outs = runner.stream(x0)
    with torch.no_grad():
        for a, b in zip(outs, r["layer_outputs"]):
            check(float((a - b).abs().max()) <= SELF_TOL, "the stream from x0 is not the forward's")
        check(float((runner.logits(outs[-1]) - r["logits"]).abs().max()) <= SELF_TOL,
              "the head here is not hf_reference.lm_logits")


def finite_differences(runner, ids, spec, g, heads=None):
    """Autograd against central differences at the largest coordinate of dm/dx0 and of dm/dz,
    and at two fixed ones of each; `heads` as Runner.gradients takes it."""
    x0 = g["embeddings"]
    L, E = x0.shape
    n, _, HD = g["head_gradients"].shape
    d = HD // runner.model.num_heads
    gx, gz = g["embedding_gradients"], g["head_gradients"]
    tol = FD_TOL * max(1.0, float(gx.abs().max()), float(gz.abs().max()))
    big = int(gx.abs().argmax())
    for t, e in {divmod(big, E), (0, 0), (L - 1, E // 3)}:
        step = torch.zeros_like(x0)
        step[t, e] = FD_STEP
        fd = (runner.value(x0 + step, spec, ids, heads) -
              runner.value(x0 - step, spec, ids, heads)) / (2 * FD_STEP)
        check(abs(fd - float(gx[t, e])) <= tol, f"dm/dx0[{t},{e}] {float(gx[t, e])} vs {fd}")
    big = int(gz.abs().argmax())
    for coord in {tuple(np.unravel_index(big, gz.shape)), (0, L - 1, 0), (n - 1, L // 2, HD - 1)}:
        l, t, c = (int(v) for v in coord)

        def nudge(sign):
            def hook(layer, ctx):
                if heads is not None:
                    ctx = heads(layer, ctx)
                if layer != l:
                    return ctx
                out = ctx.clone()
                out[c // d, t, c % d] += sign * FD_STEP
                return out
            return hook

        fd = (runner.value(x0, spec, ids, nudge(1)) - runner.value(x0, spec, ids, nudge(-1))) / (2 * FD_STEP)
        check(abs(fd - float(gz[l, t, c])) <= tol, f"dm/dz[{l},{t},{c}] {float(gz[l, t, c])} vs {fd}")


# ---------------------------------------------------------------------------------------------
# Saliency and attribution patching


def saliency(runner, ids, spec, g, heads=None):
    """Gradient x input and integrated gradients of the token embeddings w, from x' = x0 - w;
    `heads` as Runner.gradients takes it."""
    x0 = g["embeddings"]
    w = runner.token_embeddings(ids)
    base = x0 - w
    grad_input = (w * g["embedding_gradients"]).sum(-1)
    total = torch.zeros_like(x0)
    for k in range(IG_STEPS):
        point = base + w * ((k + 0.5) / IG_STEPS)
        total += runner.gradients(ids, spec, point, heads=heads)["embedding_gradients"]
    ig = (w * (total / IG_STEPS)).sum(-1)
    m, m0 = g["metric"], runner.value(base, spec, ids, heads)
    delta = float(ig.sum()) - (m - m0)
    return {"steps": IG_STEPS, "metric": m, "baseline": m0, "delta": delta,
            "completeness_error": abs(delta) / abs(m - m0),
            "gradient_x_input": grad_input.tolist(), "integrated_gradients": ig.tolist()}


def ranks(v):
    """Ranks from 0, ties given their mean rank."""
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def eap(runner, clean, corrupt, tt, target, distractor, position):
    """EAP of every head and the exact sweep, on the patching pair."""
    L = len(clean)
    p = position % L
    spec = {"kind": "LogitDifference", "position": p, "target": target, "distractor": distractor}
    gc = runner.gradients(clean, spec, runner.embeddings(clean, tt))
    gx = runner.gradients(corrupt, spec, runner.embeddings(corrupt, tt))
    n, H = runner.model.num_layers, runner.model.num_heads
    by_position = ((gc["contexts"] - gx["contexts"]) * gx["head_gradients"]).view(n, L, H, -1)
    by_position = by_position.sum(-1).permute(0, 2, 1)  # [n, H, L]
    estimate = by_position.sum(-1)
    m_clean, m_corrupt = gc["metric"], gx["metric"]
    dm = m_clean - m_corrupt
    clean_ctx = []
    runner.model.run(clean, tt, heads=ref.recorder(clean_ctx))
    exact = np.zeros((n, H))
    for l in range(n):
        for h in range(H):
            out = runner.model.run(corrupt, tt, heads=ref.patcher(clean_ctx, [(l, h)]))["logits"]
            exact[l, h] = ref.logit_difference(out, target, distractor, p)
    fraction = (estimate / dm).numpy()
    exact_fraction = (exact - m_corrupt) / dm
    rho = spearman(fraction.ravel(), exact_fraction.ravel())
    top = [divmod(int(np.argmax(f.ravel())), H) for f in (fraction, exact_fraction)]
    doc = {"clean_ids": list(clean), "corrupt_ids": list(corrupt), "target": target,
           "distractor": distractor, "position": p, "m_clean": m_clean, "m_corrupt": m_corrupt,
           "estimate": estimate.tolist(), "fraction": fraction.tolist(),
           "exact_m_patched": exact.tolist(), "exact_fraction": exact_fraction.tolist(),
           "spearman": rho, "top_head": list(top[0]), "exact_top_head": list(top[1])}
    return doc, (by_position / dm), exact


def eap_of_golden(runner, folder, ids, tt):
    with open(os.path.join(folder, "reference", "interventions.json")) as f:
        patch = json.load(f)["patch"]
    check(patch["clean_ids"] == list(ids), "interventions.json's clean ids are not the case's")
    doc, by_position, exact = eap(runner, patch["clean_ids"], patch["corrupt_ids"], tt,
                                  patch["target"], patch["distractor"], patch["position"])
    for k in ("m_clean", "m_corrupt"):
        check(abs(doc[k] - patch[k]) <= 1e-10, f"{k} {doc[k]} is not make_models.py's {patch[k]}")
    want = np.load(os.path.join(folder, "reference", "patch_m.npy"))
    check(float(np.abs(exact - want).max()) <= 1e-10, "the exact sweep is not patch_m.npy")
    return doc, by_position


def eap_of_shipped(runner, folder):
    vocab_ids = char_ids(folder, PATCH_TARGET + PATCH_DISTRACTOR)
    clean, corrupt = char_ids(folder, PATCH_CLEAN), char_ids(folder, PATCH_CORRUPT)
    doc, by_position, _ = eap(runner, clean, corrupt, None, vocab_ids[1], vocab_ids[2], -1)
    return doc, by_position


# ---------------------------------------------------------------------------------------------
# Heads knocked out


def held_knock_outs(runner, x0, pairs):
    """A heads function knocking `pairs` out as constants: 0, or the head's mean over the
    positions at x0 with the knock-outs below it in place (hf_reference.ablation's mean)."""
    means = {}

    def record(layer, ctx):
        out = ctx.clone()
        for l, h, mode in pairs:
            if l == layer:
                if mode == "mean":
                    means[(l, h)] = ctx[h].mean(0, keepdim=True).detach()
                out[h] = 0.0 if mode == "zero" else means[(l, h)].expand_as(ctx[h])
        return out

    with torch.no_grad():
        runner.stream(x0, record)

    def hook(layer, ctx):
        out = ctx.clone()
        for l, h, mode in pairs:
            if l == layer:
                out[h] = 0.0 if mode == "zero" else means[(l, h)].expand_as(ctx[h])
        return out
    return hook


def differentiated_means(pairs):
    """hf_reference.ablation's knock-outs with autograd through the means (a mistake here)."""
    def hook(layer, ctx):
        out = ctx.clone()
        for l, h, mode in pairs:
            if l == layer:
                out[h] = 0.0 if mode == "zero" else ctx[h].mean(0, keepdim=True).expand_as(ctx[h])
        return out
    return hook


def knocked_case(name, runner, ids, specs, x0, pairs, out_dir):
    """The gradients and saliency of the first logit difference with `pairs` knocked out."""
    spec = next(s for s in specs if s["kind"] == "LogitDifference")
    held = held_knock_outs(runner, x0, pairs)
    # At x the constants are the ablation's own means: the same forward as make_models.py's.
    ablated = [ref.ablation([(l, h)], mode) for l, h, mode in pairs]

    def both(layer, ctx):
        for a in ablated:
            ctx = a(layer, ctx)
        return ctx
    with torch.no_grad():
        for a, b in zip(runner.stream(x0, held), runner.stream(x0, both)):
            check(float((a - b).abs().max()) <= SELF_TOL,
                  f"{name}: the held knock-outs are not hf_reference.ablation's at x")
    g = runner.gradients(ids, spec, x0, heads=held)
    finite_differences(runner, ids, spec, g, held)
    # The knocked heads' z is the constant: 0, or the same row at every position.
    L = len(ids)
    d = g["contexts"].shape[-1] // runner.model.num_heads
    for l, h, mode in pairs:
        z = g["contexts"][l, :, h * d:(h + 1) * d]
        check(float((z - (0.0 if mode == "zero" else z[0:1])).abs().max()) <= SELF_TOL,
              f"{name}: L{l + 1}H{h + 1}'s output is not the {mode} knock-out's")
    s = saliency(runner, ids, spec, g, held)
    if runner.family not in ref.ROTARY_FAMILIES:
        check(s["completeness_error"] <= COMPLETENESS,
              f"{name} knocked out: integrated gradients miss completeness by "
              f"{s['completeness_error']:.2%}")
    sens = {"mean_differentiated": moved(runner.gradients(ids, spec, x0, heads=differentiated_means(pairs)), g),
            "knock_outs_ignored": moved(runner.gradients(ids, spec, x0), g)}
    for k, v in sens.items():
        check(v > MISTAKE, f"{name}: the mistake {k} moves the gradients by only {v:.2g}")
    doc = {"interventions": [{"layer": l, "head": h, "mode": mode} for l, h, mode in pairs],
           "metric": dict(spec, value=g["metric"], saliency=s), "mistakes": sens}
    with open(os.path.join(out_dir, "gradients_knocked.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1) + "\n")
    for file, t in (("gradients_knocked_contexts.npy", g["contexts"]),
                    ("gradients_knocked_heads.npy", g["head_gradients"]),
                    ("gradients_knocked_inputs.npy", g["embedding_gradients"])):
        np.save(os.path.join(out_dir, file), t.numpy().astype(np.float32))
    print(f"{name:20s} knocked out {' '.join(f'L{l + 1}H{h + 1}:{m}' for l, h, m in pairs)}: "
          f"{spec['kind']}={g['metric']:.4f} IG delta {s['delta']:.3e} "
          f"({s['completeness_error']:.4%})  mistakes " +
          "  ".join(f"{k} {v:.2g}" for k, v in sens.items()))
    return s


# ---------------------------------------------------------------------------------------------
# Cases


def metric_specs(runner, ids, tt, distractor=None):
    """The metrics of a case: every kind its head allows, at different positions; targets the
    head's own choices (argmax, second best) or the text's next token.  With `distractor`
    (attn-only-2l's repeated string): the induction's prediction of the last token against it,
    and the loss of the second copy."""
    L = len(ids)
    logits = runner.model.run(ids, tt)["logits"]

    def best(p, k=0):
        return int(torch.argsort(logits[p], descending=True)[k])

    def spec(kind, p=0, target=0, distractor=None, span=(0, 0)):
        return {"kind": kind, "position": p, "target": target, "distractor": distractor,
                "span_begin": span[0], "span_end": span[1]}

    if distractor is not None:
        return [spec("LogitDifference", L - 2, ids[L - 1], distractor),
                spec("SpanLoss", span=(L // 2, L - 1))]
    if runner.causal:
        return [spec("Logit", L // 2, best(L // 2)),
                spec("LogitDifference", L - 1, best(L - 1), best(L - 1, 1)),
                spec("LogProb", 1, ids[2]),
                spec("SpanLoss", span=(1, L - 1))]
    return [spec("Logit", L // 2, best(L // 2)),
            spec("LogitDifference", 1, best(1), best(1, 1)),
            spec("LogProb", L - 2, ids[L - 2])]


def run_case(name, folder, ids, tt, out_dir, eap_of, distractor=None, knocked=None):
    runner = Runner(folder)
    x0 = runner.embeddings(ids, tt)
    check_forward(runner, ids, tt, x0)
    specs = metric_specs(runner, ids, tt, distractor)
    grads, metrics, sens = [], [], {}
    for i, spec in enumerate(specs):
        g = runner.gradients(ids, spec, x0)
        finite_differences(runner, ids, spec, g)
        check(not grads or torch.equal(g["contexts"], grads[0]["contexts"]),
              "the contexts depend on the metric")
        if spec["kind"] == "LogitDifference":
            sens = mistakes(runner, ids, spec, x0, g)
        s = saliency(runner, ids, spec, g)
        # Learned positions keep the path smooth; the rotary models' all-zero baseline does not.
        if runner.family not in ref.ROTARY_FAMILIES:
            check(s["completeness_error"] <= COMPLETENESS,
                  f"{name} {spec['kind']}: integrated gradients miss completeness by "
                  f"{s['completeness_error']:.2%} at N = {IG_STEPS}")
        metrics.append(dict(spec, value=g["metric"], saliency=s))
        grads.append(g)
    eap_doc, by_position = eap_of(runner)
    pairs = knocked or KNOCKED(runner.model.num_layers, runner.model.num_heads)
    os.makedirs(out_dir, exist_ok=True)
    knocked_case(name, runner, ids, specs, x0, pairs, out_dir)
    doc = {"tokens": len(ids), "input_ids": list(ids), "token_type_ids": tt, "metrics": metrics,
           "eap": eap_doc, "mistakes": sens}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "gradients.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1) + "\n")

    def save(file, t):
        np.save(os.path.join(out_dir, file), t.numpy().astype(np.float32))

    save("gradients_contexts.npy", grads[0]["contexts"])
    save("gradients_embeddings.npy", x0)
    save("gradients_heads.npy", torch.stack([g["head_gradients"] for g in grads]))
    save("gradients_inputs.npy", torch.stack([g["embedding_gradients"] for g in grads]))
    save("gradients_eap_by_position.npy", by_position)
    print(f"{name:20s} L={len(ids):2d} " + " ".join(
        f"{m['kind']}={m['value']:.4f}" for m in metrics))
    print(f"{'':20s} EAP spearman {eap_doc['spearman']:.3f} top L{eap_doc['top_head'][0] + 1}H"
          f"{eap_doc['top_head'][1] + 1} (exact L{eap_doc['exact_top_head'][0] + 1}H"
          f"{eap_doc['exact_top_head'][1] + 1})  mistakes " +
          "  ".join(f"{k} {v:.2g}" for k, v in sens.items()))
    rows = [(name, m["kind"], m["saliency"]) for m in metrics]
    return rows, runner.family not in ref.ROTARY_FAMILIES, eap_doc


def main():
    torch.set_num_threads(1)
    cases, rows = [], []
    for name in GOLDEN_CASES:
        folder = os.path.join(HERE, name)
        r = os.path.join(folder, "reference")
        ids = np.load(os.path.join(r, "input_ids.npy")).tolist()
        tt_path = os.path.join(r, "token_type_ids.npy")
        tt = np.load(tt_path).tolist() if os.path.exists(tt_path) else None
        case_rows, learned, _ = run_case(name, folder, ids, tt, r,
                                         lambda runner: eap_of_golden(runner, folder, ids, tt))
        rows += [row + (learned,) for row in case_rows]
        rel = os.path.relpath(folder, ROOT)
        cases.append({"name": name, "model": rel, "reference": rel + "/reference"})
    folder = os.path.join(ROOT, SHIPPED_MODEL)
    ids = np.load(os.path.join(ROOT, SHIPPED_IDS)).tolist()
    case_rows, learned, doc = run_case("attn_induction", folder, ids, None,
                                       os.path.join(ROOT, SHIPPED_OUT),
                                       lambda runner: eap_of_shipped(runner, folder),
                                       char_ids(folder, PATCH_DISTRACTOR)[1], SHIPPED_KNOCKED)
    rows += [row + (learned,) for row in case_rows]
    cases.append({"name": "attn_induction", "model": SHIPPED_MODEL, "reference": SHIPPED_OUT})
    with open(os.path.join(HERE, "gradient_index.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"cases": cases}, indent=2) + "\n")
    # The claims, reported whether or not they hold.
    print(f"attn-only-2l EAP vs exact: spearman {doc['spearman']:.3f}, top head "
          f"{doc['top_head']} vs {doc['exact_top_head']} (from 0)")
    # Integrated gradients' completeness at N = 64, asserted above for learned positions only.
    print(f"\nintegrated gradients, N = {IG_STEPS}: delta = sum of tokens - (m(x) - m(x'))")
    header = ("case", "metric", "m(x)", "m(x')", "delta", "|delta| %")
    print("{:20s} {:16s} {:>11s} {:>11s} {:>11s} {:>10s}  positions".format(*header))
    for name, kind, s, learned in rows:
        print(f"{name:20s} {kind:16s} {s['metric']:11.5f} {s['baseline']:11.5f} "
              f"{s['delta']:11.3e} {s['completeness_error']:10.4%}  "
              f"{'learned' if learned else 'rotary'}")


if __name__ == "__main__":
    main()
