#!/usr/bin/python3
"""Float64 references of the residual decomposition and of direct logit attribution (DLA), for
tests/test_attribution.cpp (engine/models/attribution.h), on every causal golden and on the
shipped attn-only-2l.

    /usr/bin/python3 tests/golden/models/attribution_reference.py   # after make_models.py

Definitions (the engine implements the same):

* Residual decomposition (Elhage et al. 2021, "A Mathematical Framework for Transformer
  Circuits", §2).  In a pre-norm transformer the stream before layer l is the embeddings (GPT-2:
  token + learned position) plus, for every layer before l, each head's output (its context
  slice [head_dim] through its slice of the output projection), the attention-output bias
  where the model has one (GPT-2 c_proj, Llama with attention_bias) and the MLP's output.
  Written before the middle layer (n // 2, from 0) and after the last (n: before the final
  norm), at two positions.  The MLP's output is computed here from its own weights, not as a
  remainder, and checked against the forward's stream.
* DLA (TransformerLens's `apply_ln_to_stack`).  At the last position, for the argmax token
  (target) and the second best (distractor): logit(target) and logit(target) -
  logit(distractor).  The final norm's scale s (1/sqrt(var + eps) for LayerNorm, 1/sqrt(mean
  x^2 + eps) for RMSNorm) is frozen at the full stream's value; u is the unembedding row (or the
  difference of two rows) and g = u * w the direction through the norm's weight, centred for
  LayerNorm (it subtracts the mean).  A component c contributes s * g . c, and the constant is
  u . b (the norm's bias; 0 for RMSNorm), so the parts plus the constant are the logit.
* By source token.  Head h's output at position p is sum_j a_pj v_j W_O^h, so source j's share
  is a_pj * s * g . (W_O^h v_j), with v_j the values of the key/value head h // (H / KV).
* With heads knocked out (hf_reference.ablation): the same DLA of the same target on the
  knocked-out model's pass, its streams and its logit.  Knocked out here: the last layer's head
  of the largest |share| by zeros (its share and sources exactly 0), the first layer's by its
  mean over the positions (its output at every position is (1/L) sum_i sum_j a_ij v_j W_O^h, so
  source j's share is mean_i a_ij * s * g . (W_O^h v_j)).

The script checks its own output before writing: the components add up to the forward's stream,
the parts plus the constant equal hf_reference.lm_logits' logit, the split by source sums to
each head's share and sum_j a_pj v_j is the forward's context; and that the mistakes the tests
must catch move the numbers by more than 1e-3 (an uncentred LayerNorm direction, a query head
reading key/value head h instead of h // group, a left-out attention bias); with the heads
knocked out, that the parts add up to the knocked-out model's own logit, which differs from the
intact one's by more than 1e-3, and that the mean-knocked head's sources add up to its share.

Writes, per case, into its reference folder (attribution_index.json lists them):
  attribution.json             positions, layers, component names, the DLA scalars
  attribution_stream.npy       float32 [2, P, hidden]: the stream at the two layers
  attribution_parts_mid.npy    float32 [P, C_mid, hidden]
  attribution_parts_last.npy   float32 [P, C_last, hidden]
  attribution_by_source.npy    float32 [2, layers, heads, L]: for the target, and the difference
  attribution_knockout.json    the heads knocked out (layer, head from 0; mode), the DLA scalars
                               of the target on the knocked-out model
  attribution_knockout_by_source.npy  float32 [layers, heads, L]: its split by source
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import hf_reference as ref  # noqa: E402

GOLDEN_CASES = ["gpt2_lmhead", "gpt2_bf16", "llama_gqa", "llama3_rope_sharded",
                "qwen2_bias_bf16", "qwen3_qknorm"]
# (name, model folder, input ids, output folder), relative to the repository.
SHIPPED_CASES = [("attn_induction", "resources/models/attn-only-2l",
                  "tests/golden/shipped/reference/attn_induction/input_ids.npy",
                  "tests/golden/shipped/attribution/attn_induction")]

SELF_TOL = 1e-10  # float64 identities
MISTAKE = 1e-3    # what a mistake must move


def check(cond, what):
    if not cond:
        raise SystemExit(f"self-check failed: {what}")


class Family:
    """What the decomposition needs of one family: the norms and projections by name."""

    def __init__(self, config, P):
        self.c, self.P = config, P
        t = config["model_type"]
        self.gpt2 = t == "gpt2"
        if self.gpt2:
            self.E, self.H = config["n_embd"], config["n_head"]
            self.KV, self.d = self.H, self.E // self.H
            self.n = config["n_layer"]
            self.eps = config["layer_norm_epsilon"]
            self.act = ref.activation(config["activation_function"])
            self.mlp_width = config.get("n_inner") or 4 * self.E
        else:
            self.E, self.H = config["hidden_size"], config["num_attention_heads"]
            self.KV = config.get("num_key_value_heads") or self.H
            self.d = ref.head_dim_of(config)
            self.n = config["num_hidden_layers"]
            self.eps = config["rms_norm_eps"]
            self.act = ref.activation(config["hidden_act"])
            self.mlp_width = config["intermediate_size"]
            self.qkv_bias = True if t == "qwen2" else bool(config.get("attention_bias", False))
            self.o_bias = False if t == "qwen2" else bool(config.get("attention_bias", False))
            self.mlp_bias = bool(config.get("mlp_bias", False))

    def values(self, x, l):
        """The values [KV, L, d] layer l computes from the stream x before it."""
        P = self.P
        if self.gpt2:
            h = ref.layer_norm(x, P, f"h.{l}.ln_1", self.eps)
            v = ref.conv1d(h, P, f"h.{l}.attn.c_attn")[:, 2 * self.E:]
        else:
            h = ref.rms_norm(x, P[f"layers.{l}.input_layernorm.weight"], self.eps)
            v = ref.linear(h, P, f"layers.{l}.self_attn.v_proj", self.qkv_bias)
        return ref.split_heads(v, self.KV, self.d)

    def w_o(self, l):
        """The output projection as [hidden, H * d] (nn.Linear's layout)."""
        if self.gpt2:
            return self.P[f"h.{l}.attn.c_proj.weight"].T  # Conv1D keeps [in, out]
        return self.P[f"layers.{l}.self_attn.o_proj.weight"]

    def o_bias_of(self, l):
        name = f"h.{l}.attn.c_proj.bias" if self.gpt2 else f"layers.{l}.self_attn.o_proj.bias"
        if not self.gpt2 and not self.o_bias:
            check(name not in self.P, f"{name} present but the config says no bias")
            return None
        return self.P[name]

    def mlp(self, x, l):
        """The MLP's output [L, hidden] from the stream x after layer l's attention, or None
        (an attention-only model)."""
        if self.mlp_width == 0:
            return None
        P = self.P
        if self.gpt2:
            h = ref.layer_norm(x, P, f"h.{l}.ln_2", self.eps)
            return ref.conv1d(self.act(ref.conv1d(h, P, f"h.{l}.mlp.c_fc")), P, f"h.{l}.mlp.c_proj")
        p = f"layers.{l}."
        h = ref.rms_norm(x, P[p + "post_attention_layernorm.weight"], self.eps)
        m = (self.act(ref.linear(h, P, p + "mlp.gate_proj", self.mlp_bias))
             * ref.linear(h, P, p + "mlp.up_proj", self.mlp_bias))
        return ref.linear(m, P, p + "mlp.down_proj", self.mlp_bias)

    def final_norm(self):
        """(weight, bias or None, rms)."""
        if self.gpt2:
            return self.P["ln_f.weight"], self.P["ln_f.bias"], False
        return self.P["norm.weight"], None, True


def layer_terms(f, streams, contexts):
    """Per layer l: ([H] head outputs [L, hidden], bias [hidden] or None, mlp [L, hidden] or
    None), checked against the forward's streams."""
    terms = []
    for l in range(f.n):
        wo = f.w_o(l)
        heads = [contexts[l][h] @ wo[:, h * f.d:(h + 1) * f.d].T for h in range(f.H)]
        bias = f.o_bias_of(l)
        attn = sum(heads) + (bias if bias is not None else 0.0)
        mid = streams[l] + attn
        mlp = f.mlp(mid, l)
        after = mid + (mlp if mlp is not None else 0.0)
        scale = float(streams[l + 1].abs().max())
        check(float((after - streams[l + 1]).abs().max()) <= SELF_TOL * scale,
              f"layer {l}: embeddings + heads + bias + MLP != the forward's stream")
        terms.append((heads, bias, mlp))
    return terms


def decomposition(f, streams, terms, layer, positions):
    """(names, [P, C, hidden]) of the stream before `layer`."""
    names, parts = ["embed"], [streams[0][positions]]
    for l in range(layer):
        heads, bias, mlp = terms[l]
        for h in range(f.H):
            names.append(f"L{l + 1}H{h + 1}")
            parts.append(heads[h][positions])
        if bias is not None:
            names.append(f"L{l + 1}.attn_bias")
            parts.append(bias.expand(len(positions), f.E))
        if mlp is not None:
            names.append(f"L{l + 1}.mlp")
            parts.append(mlp[positions])
    stacked = torch.stack(parts, dim=1)
    want = streams[layer][positions]
    check(float((stacked.sum(1) - want).abs().max()) <= SELF_TOL * float(want.norm()),
          f"the components before layer {layer} do not add up to the stream")
    return names, stacked


def direction(f, u, centred=True):
    w, _, rms = f.final_norm()
    g = u * w
    return g - g.mean() if (not rms and centred) else g


def dla(f, model, streams, terms, attentions, values, p, target, distractor, knocked=None):
    """The DLA scalars and by_source [layers, H, L] of logit(target) [- logit(distractor)];
    `knocked` {(layer, head): "zero" | "mean"}: the heads the pass knocked out."""
    knocked = knocked or {}
    U = model.head["decoder.weight"]
    u = U[target] - (U[distractor] if distractor is not None else 0.0)
    w, b, rms = f.final_norm()
    x = streams[f.n][p]
    var = (x * x).mean() if rms else ((x - x.mean()) ** 2).mean()
    s = float(1.0 / torch.sqrt(var + f.eps))
    g = direction(f, u)
    share = lambda c: float(s * (g @ c))  # noqa: E731
    constant = float(u @ b) if b is not None else 0.0
    out = {"position": p, "target": target, "distractor": distractor, "constant": constant,
           "norm_scale": s, "embeddings": share(streams[0][p]),
           "heads": [[share(terms[l][0][h][p]) for h in range(f.H)] for l in range(f.n)],
           "attention_bias": [None if terms[l][1] is None else share(terms[l][1])
                              for l in range(f.n)],
           "mlps": [None if terms[l][2] is None else share(terms[l][2][p]) for l in range(f.n)]}
    group = f.H // f.KV
    by_source = torch.zeros(f.n, f.H, values[0].shape[1], dtype=torch.float64)
    for l in range(f.n):
        wo = f.w_o(l)
        for h in range(f.H):
            through = values[l][h // group] @ wo[:, h * f.d:(h + 1) * f.d].T  # [L, hidden]
            how = knocked.get((l, h))
            if how == "zero":
                continue  # it writes nothing: every source 0
            weights = attentions[l][h].mean(0) if how == "mean" else attentions[l][h, p]
            by_source[l, h] = weights * s * (through @ g)
            share = out["heads"][l][h]
            check(abs(float(by_source[l, h].sum()) - share) <= SELF_TOL * max(1.0, abs(share)),
                  f"by_source of L{l + 1}H{h + 1} does not sum to its share")
    parts = (out["embeddings"] + sum(map(sum, out["heads"]))
             + sum(v for v in out["attention_bias"] if v is not None)
             + sum(v for v in out["mlps"] if v is not None))
    out["total"] = parts + constant
    return out, by_source


def run_case(name, folder, ids, out_dir):
    config, state = ref.load_folder(folder)
    model = ref.Model(config, state)
    check(model.kind == "causal", f"{name} has no causal head")
    f = Family(config, model.params)
    contexts = []
    r = model.run(ids, heads=ref.recorder(contexts))
    attentions = r["attentions"]
    streams = [r["hidden_states"][0]] + r["layer_outputs"]
    L = len(ids)
    values = []
    group = f.H // f.KV
    for l in range(f.n):
        v = f.values(streams[l], l)
        values.append(v)
        # The values computed here are the forward's: sum_j a_pj v_j is its context.
        again = torch.stack([attentions[l][h] @ v[h // group] for h in range(f.H)])
        check(float((again - contexts[l]).abs().max()) <= SELF_TOL, f"layer {l}: values")
    terms = layer_terms(f, streams, contexts)

    positions = [L // 2, L - 1]
    mid = f.n // 2
    names_mid, parts_mid = decomposition(f, streams, terms, mid, positions)
    names_last, parts_last = decomposition(f, streams, terms, f.n, positions)

    p = L - 1
    logits = r["logits"][p]
    top = torch.argsort(logits, descending=True)
    target, distractor = int(top[0]), int(top[1])
    check(float(logits[target] - logits[distractor]) > MISTAKE, f"{name}: top two logits tie")
    dla_target, src_target = dla(f, model, streams, terms, attentions, values, p,
                                 target, None)
    dla_diff, src_diff = dla(f, model, streams, terms, attentions, values, p, target,
                             distractor)
    # The parts plus the constant are hf_reference's own logits.
    want_t = float(logits[target])
    want_d = float(logits[target] - logits[distractor])
    check(abs(dla_target["total"] - want_t) <= SELF_TOL * max(1.0, abs(want_t)),
          f"{name}: parts + constant {dla_target['total']} != logit {want_t}")
    check(abs(dla_diff["total"] - want_d) <= SELF_TOL * max(1.0, abs(want_d)),
          f"{name}: parts + constant {dla_diff['total']} != logit difference {want_d}")

    sens = mistakes(f, model, streams, terms, attentions, values, p, target, dla_target,
                    src_target)
    knocked, dla_knocked, src_knocked = knocked_out(f, model, ids, p, target, dla_target)

    os.makedirs(out_dir, exist_ok=True)
    doc = {"positions": positions, "layers": [mid, f.n],
           "components": {"mid": names_mid, "last": names_last},
           "dla": [dla_target, dla_diff]}
    with open(os.path.join(out_dir, "attribution.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1) + "\n")
    np.save(os.path.join(out_dir, "attribution_stream.npy"),
            torch.stack([streams[mid][positions], streams[f.n][positions]]).numpy().astype(np.float32))
    np.save(os.path.join(out_dir, "attribution_parts_mid.npy"), parts_mid.numpy().astype(np.float32))
    np.save(os.path.join(out_dir, "attribution_parts_last.npy"), parts_last.numpy().astype(np.float32))
    np.save(os.path.join(out_dir, "attribution_by_source.npy"),
            torch.stack([src_target, src_diff]).numpy().astype(np.float32))
    doc = {"knocked_out": [{"layer": l, "head": h, "mode": m} for (l, h), m in knocked.items()],
           "dla": dla_knocked}
    with open(os.path.join(out_dir, "attribution_knockout.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1) + "\n")
    np.save(os.path.join(out_dir, "attribution_knockout_by_source.npy"),
            src_knocked.numpy().astype(np.float32))
    print(f"{name:20s} L={L:2d} components {len(names_mid)}/{len(names_last)}  "
          f"logit {want_t:.4f}  diff {want_d:.4f}  " +
          "  ".join(f"{k} {v:.2g}" for k, v in sens.items()) +
          "  knocked " + ",".join(f"L{l + 1}H{h + 1}:{m}" for (l, h), m in knocked.items()) +
          f" logit {dla_knocked['total']:.4f}")


def knocked_out(f, model, ids, p, target, intact):
    """The DLA of `target` at p with the last layer's largest head (by |share| in `intact`)
    knocked out by zeros and the first layer's by its mean: (knocked, scalars, by_source),
    checked against the knocked-out model's own logit."""
    last, first = f.n - 1, 0
    check(last != first, "knocking out needs two layers")
    largest = lambda l: max(range(f.H), key=lambda h: abs(intact["heads"][l][h]))  # noqa: E731
    knocked = {(last, largest(last)): "zero", (first, largest(first)): "mean"}
    contexts = []
    ablate = ref.ablation([k for k, m in knocked.items() if m == "zero"], "zero")
    mean = ref.ablation([k for k, m in knocked.items() if m == "mean"], "mean")
    keep = ref.recorder(contexts)
    r = model.run(ids, heads=lambda l, ctx: keep(l, mean(l, ablate(l, ctx))))
    attentions = r["attentions"]
    streams = [r["hidden_states"][0]] + r["layer_outputs"]
    group = f.H // f.KV
    values = []
    for l in range(f.n):
        v = f.values(streams[l], l)
        values.append(v)
        for h in range(f.H):
            if (l, h) in knocked:
                continue
            again = attentions[l][h] @ v[h // group]
            check(float((again - contexts[l][h]).abs().max()) <= SELF_TOL,
                  f"knocked out, layer {l}: values")
    terms = layer_terms(f, streams, contexts)
    out, by_source = dla(f, model, streams, terms, attentions, values, p, target, None, knocked)
    want = float(r["logits"][p][target])
    check(abs(out["total"] - want) <= SELF_TOL * max(1.0, abs(want)),
          f"knocked out: parts + constant {out['total']} != the knocked-out logit {want}")
    check(abs(want - intact["total"]) > MISTAKE, "knocking out does not move the logit")
    for (l, h), m in knocked.items():
        if m == "zero":
            check(out["heads"][l][h] == 0.0, f"zero-knocked L{l + 1}H{h + 1} writes something")
        else:  # its sources sum to the mean's share, not the intact head's
            check(abs(out["heads"][l][h] - intact["heads"][l][h]) > MISTAKE,
                  f"mean-knocked L{l + 1}H{h + 1} writes what it wrote intact")
    return knocked, out, by_source


def mistakes(f, model, streams, terms, attentions, values, p, target, good, good_src):
    """How far the mistakes the tests must catch move the numbers (each must be > MISTAKE)."""
    out = {}
    U = model.head["decoder.weight"]
    _, _, rms = f.final_norm()
    s = good["norm_scale"]
    if not rms:  # an uncentred LayerNorm direction
        g = direction(f, U[target], centred=False)
        out["uncentred"] = max(abs(float(s * (g @ terms[l][0][h][p])) - good["heads"][l][h])
                               for l in range(f.n) for h in range(f.H))
    if f.KV != f.H:  # query head h reading key/value head h
        g = direction(f, U[target])
        wrong = []
        for l in range(f.n):
            wo = f.w_o(l)
            for h in range(f.H):
                through = values[l][h % f.KV] @ wo[:, h * f.d:(h + 1) * f.d].T
                moved = attentions[l][h, p] * s * (through @ g) - good_src[l, h]
                wrong.append(float(moved.abs().max()))
        out["kv_head"] = max(wrong)
    if any(terms[l][1] is not None for l in range(f.n)):  # the attention bias left out
        out["no_attn_bias"] = abs(sum(v for v in good["attention_bias"] if v is not None))
    for k, v in out.items():
        check(v > MISTAKE, f"the mistake {k} moves the result by only {v:.2g}")
    return out


def write_cases(run_case, shipped_cases, index_name):
    """run_case(name, folder, ids, out) on every golden case and `shipped_cases`, then the
    index the C++ tests read: {"cases": [{name, model, input_ids, reference}]}."""
    cases = []
    for name in GOLDEN_CASES:
        folder = os.path.join(HERE, name)
        ids = np.load(os.path.join(folder, "reference", "input_ids.npy")).tolist()
        run_case(name, folder, ids, os.path.join(folder, "reference"))
        rel = os.path.relpath(folder, ROOT)
        cases.append({"name": name, "model": rel, "input_ids": rel + "/reference/input_ids.npy",
                      "reference": rel + "/reference"})
    for name, model, ids_path, out in shipped_cases:
        ids = np.load(os.path.join(ROOT, ids_path)).tolist()
        run_case(name, os.path.join(ROOT, model), ids, os.path.join(ROOT, out))
        cases.append({"name": name, "model": model, "input_ids": ids_path, "reference": out})
    with open(os.path.join(HERE, index_name), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"cases": cases}, indent=2) + "\n")


def main():
    write_cases(run_case, SHIPPED_CASES, "attribution_index.json")


if __name__ == "__main__":
    main()
