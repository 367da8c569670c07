#!/usr/bin/python3
"""Float64 references of effective attention and of information-flow routes, for
tests/test_effective_attention.cpp (engine/models/effective_attention.h, information_flow.h), on
every causal golden and on the shipped attn-only-2l.

    /usr/bin/python3 tests/golden/models/flow_reference.py   # after make_models.py

Definitions (the engine implements the same):

* What head h writes from source token j (Kobayashi et al. 2020, "Attention is Not Only a
  Weight: Analyzing Transformers with Vector Norms", EMNLP, §3): f_h(x_j) = v_j W_O^h, the value
  of the key/value head h // (H / KV) with its bias, through head h's columns of the output
  projection (whose bias is added once per token, not per source).
* Effective attention (the same paper): per head alpha^h_ij * ||f_h(x_j)||; per layer the norm
  of the heads' sum ||sum_h alpha^h_ij f_h(x_j)||.  L2 norms, the shapes of the weights.
* Information-flow routes (Ferrando & Voita 2024, "Information Flow Routes: Automatically
  Interpreting Language Models at Scale", §3).  At layer l and token i the stream after the
  attention, y = x_i + sum_j z_ij + b_O, is a sum of terms: each source's z_ij = sum_h alpha^h_ij
  f_h(x_j) (or, per head, alpha^h_ij f_h(x_j)) and i's own residual x_i.  A term's proximity is
  max(0, ||y|| - ||y - z||), its importance the proximity over the sum of all terms' (the
  residual takes 1 if every proximity is 0).  The MLP block: the stream after it, y = mid + m,
  with the terms m (the MLP's output) and mid (the residual).  The norm is L1, as in the paper
  and Meta's LLM Transparency Tool, or L2; both are written.
* The graph (the paper's Algorithm 1, top-down): from the stream after the last layer at the
  last position, every edge of importance >= tau into a node already in the graph, layer by
  layer down to the embeddings.  Nodes are the streams after each layer's attention ("attention")
  and after its MLP ("mlp"), and the embeddings (layer 0); an attention-only layer's output is
  its "attention" node.

The script checks its own output before writing: the terms add up to the forward's streams,
each node's importances sum to 1, the graph's edges reach the output; and that the mistakes the
tests must catch move the numbers by more than 1e-3 (values without their bias, query head h
reading key/value head h under GQA, the per-head map without the norm, L1 for L2).

Writes, per case, into its reference folder (flow_index.json lists them):
  effective_heads.npy       float32 [layers, H, L, L]
  effective_layer.npy       float32 [layers, L, L]
  flow_{l1,l2}_attention.npy  float32 [layers, L, L + 1]: term j of token i; the last column
                              is the residual's
  flow_{l1,l2}_heads.npy      float32 [layers, L, H * L + 1]: per head, column h * L + j
  flow_{l1,l2}_mlp.npy        float32 [layers, L, 2]: (MLP, residual); absent without MLPs
  flow_graph.json           the L1 and L2 graphs of the last position at a threshold no importance
                            lies within 2e-5 of
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
from attribution_reference import Family, check, layer_terms, write_cases  # noqa: E402

SHIPPED_CASES = [("attn_induction", "resources/models/attn-only-2l",
                  "tests/golden/shipped/reference/attn_induction/input_ids.npy",
                  "tests/golden/shipped/flow/attn_induction")]
SELF_TOL = 1e-10
MISTAKE = 1e-3
# The CLI's default first, then the nearest that no importance lies within MARGIN of (the
# engine computes in float32: an edge that close to the threshold could go either way).
THRESHOLDS = sorted((round(0.02 + 0.001 * k, 3) for k in range(61)), key=lambda t: abs(t - 0.04))
MARGIN = 2e-5


def written(f, values, l):
    """[H, L, E]: f_h(x_j) of every head h and source j of layer l."""
    wo, group = f.w_o(l), f.H // f.KV
    return torch.stack([values[h // group] @ wo[:, h * f.d:(h + 1) * f.d].T for h in range(f.H)])


def proximity(y, z, p):
    """max(0, ||y|| - ||y - z||) over the last dimension, y broadcast against z."""
    return (torch.linalg.vector_norm(y, ord=p, dim=-1)
            - torch.linalg.vector_norm(y - z, ord=p, dim=-1)).clamp(min=0.0)


def normalised(prox):
    """Each row over its terms; a row whose proximities are all 0 gives its residual (the last
    term) 1."""
    total = prox.sum(-1, keepdim=True)
    out = prox / torch.where(total > 0, total, torch.ones_like(total))
    out[..., -1] = torch.where(total[..., 0] > 0, out[..., -1], torch.ones_like(total[..., 0]))
    return out


def attention_block(x, y, Z, p):
    """Importances [L, terms + 1] of the terms Z [L, terms, E] and the residual x [L, E] of the
    streams y [L, E]."""
    terms = torch.cat([Z, x[:, None, :]], dim=1)
    return normalised(proximity(y[:, None, :], terms, p))


def graph(flow, n, L, H, has_mlp, position, threshold, per_head):
    """The paper's top-down graph as the engine writes it (layers from 1, 0 the embeddings)."""
    nodes, edges = set(), []

    def out_node(l, i):
        if l == 0:
            return (0, i, "embeddings")
        return (l, i, "mlp" if has_mlp else "attention")

    nodes.add(out_node(n, position))
    frontier = {position}
    for l in range(n, 0, -1):
        mids = set()
        if has_mlp:
            for i in sorted(frontier):
                mlp, res = flow["mlp"][l - 1, i]
                for via, imp in (("mlp", mlp), ("residual", res)):
                    if imp >= threshold:
                        edges.append({"from": [l, i + 1], "to": [l, i + 1], "via": via,
                                      "block": "mlp", "importance": float(imp)})
                        mids.add(i)
            for i in mids:
                nodes.add((l, i, "attention"))
        else:
            mids = set(frontier)
        below = set()
        table = flow["heads" if per_head else "attention"][l - 1]
        for i in sorted(mids):
            row = table[i]
            for k in range(row.shape[0] - 1):
                if row[k] >= threshold:
                    j, h = (k % L, k // L) if per_head else (k, None)
                    edges.append({"from": [l - 1, j + 1], "to": [l, i + 1],
                                  "via": f"L{l}H{h + 1}" if per_head else "attention",
                                  "block": "attention", "importance": float(row[k])})
                    below.add(j)
            if row[-1] >= threshold:
                edges.append({"from": [l - 1, i + 1], "to": [l, i + 1], "via": "residual",
                              "block": "attention", "importance": float(row[-1])})
                below.add(i)
        for j in below:
            nodes.add(out_node(l - 1, j))
        frontier = below
    return {"nodes": [{"layer": l, "position": i + 1, "after": s} for l, i, s in sorted(nodes)],
            "edges": edges}


def run_case(name, folder, ids, out_dir):
    config, state = ref.load_folder(folder)
    model = ref.Model(config, state)
    f = Family(config, model.params)
    contexts = []
    r = model.run(ids, heads=ref.recorder(contexts))
    att = r["attentions"]
    streams = [r["hidden_states"][0]] + r["layer_outputs"]
    terms = layer_terms(f, streams, contexts)
    L, H, n = len(ids), f.H, f.n
    has_mlp = f.mlp_width > 0
    eff_heads = torch.zeros(n, H, L, L, dtype=torch.float64)
    eff_layer = torch.zeros(n, L, L, dtype=torch.float64)
    flows = {p: {"attention": torch.zeros(n, L, L + 1, dtype=torch.float64),
                 "heads": torch.zeros(n, L, H * L + 1, dtype=torch.float64),
                 "mlp": torch.zeros(n, L, 2, dtype=torch.float64)} for p in (1, 2)}
    sens = {}
    for l in range(n):
        values = f.values(streams[l], l)
        U = written(f, values, l)                         # [H, L(j), E]
        Zh = att[l][:, :, :, None] * U[:, None, :, :]     # [H, L(i), L(j), E]
        Z = Zh.sum(0)                                     # [L(i), L(j), E]
        eff_heads[l] = att[l] * torch.linalg.vector_norm(U, dim=-1)[:, None, :]
        eff_layer[l] = torch.linalg.vector_norm(Z, dim=-1)
        heads, bias, mlp = terms[l]
        mid = streams[l] + sum(heads) + (bias if bias is not None else 0.0)
        again = streams[l] + Z.sum(1) + (bias if bias is not None else 0.0)
        check(float((again - mid).abs().max()) <= SELF_TOL * float(mid.abs().max()),
              f"{name} layer {l}: x + sum_j z_ij + b_O != the stream after the attention")
        per_head = Zh.permute(1, 0, 2, 3).reshape(L, H * L, -1)   # [L(i), H * L, E]
        for p in (1, 2):
            flows[p]["attention"][l] = attention_block(streams[l], mid, Z, p)
            flows[p]["heads"][l] = attention_block(streams[l], mid, per_head, p)
            if has_mlp:
                parts = torch.stack([mlp, mid], dim=1)
                flows[p]["mlp"][l] = normalised(proximity(streams[l + 1][:, None, :], parts, p))
        if l == 0:
            sens.update(mistakes(f, streams, att, values, U, mid, eff_heads[0], flows[2]["attention"][0]))
    for p in (1, 2):
        for key, t in flows[p].items():
            if key == "mlp" and not has_mlp:
                continue
            check(float((t.sum(-1) - 1.0).abs().max()) <= SELF_TOL, f"{name}: {key} rows do not sum to 1")
    sens["l1_vs_l2"] = float((flows[1]["attention"] - flows[2]["attention"]).abs().max())
    check(sens["l1_vs_l2"] > MISTAKE, "L1 and L2 importances agree: the test cannot tell them apart")

    def nearest(tau):
        return min(float((t - tau).abs().min()) for p in (1, 2) for t in flows[p].values())
    threshold = next((tau for tau in THRESHOLDS if nearest(tau) > MARGIN), None)
    check(threshold is not None, f"{name}: every threshold has an importance within {MARGIN}")
    graphs = {}
    for p in (1, 2):
        for per_head in (False, True):
            g = graph(flows[p], n, L, H, has_mlp, L - 1, threshold, per_head)
            check(len(g["edges"]) > 0, f"{name}: an empty graph")
            graphs[f"l{p}" + ("_heads" if per_head else "")] = g

    os.makedirs(out_dir, exist_ok=True)
    f32 = lambda t: t.numpy().astype(np.float32)  # noqa: E731
    np.save(os.path.join(out_dir, "effective_heads.npy"), f32(eff_heads))
    np.save(os.path.join(out_dir, "effective_layer.npy"), f32(eff_layer))
    for p in (1, 2):
        np.save(os.path.join(out_dir, f"flow_l{p}_attention.npy"), f32(flows[p]["attention"]))
        np.save(os.path.join(out_dir, f"flow_l{p}_heads.npy"), f32(flows[p]["heads"]))
        if has_mlp:
            np.save(os.path.join(out_dir, f"flow_l{p}_mlp.npy"), f32(flows[p]["mlp"]))
    doc = {"position": L, "threshold": threshold, "has_mlp": has_mlp, "graphs": graphs}
    with open(os.path.join(out_dir, "flow_graph.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1) + "\n")
    print(f"{name:20s} L={L:2d} edges " +
          " ".join(f"{k} {len(g['edges'])}" for k, g in graphs.items()) + "  " +
          "  ".join(f"{k} {v:.2g}" for k, v in sens.items()))


def mistakes(f, streams, att, values, U, mid, eff_heads, flow_l2):
    """How far the mistakes the tests must catch move layer 0's numbers."""
    out = {}
    P = f.P
    bias_name = "h.0.attn.c_attn.bias" if f.gpt2 else "layers.0.self_attn.v_proj.bias"
    if bias_name in P:  # values without their bias
        b = P[bias_name][2 * f.E:] if f.gpt2 else P[bias_name]
        unbiased = values - b.view(f.KV, 1, f.d)
        U2 = written(f, unbiased, 0)
        out["no_v_bias"] = float((att[0] * torch.linalg.vector_norm(U2, dim=-1)[:, None, :]
                                  - eff_heads).abs().max())
    if f.KV != f.H:  # query head h reading key/value head h % KV
        wo = f.w_o(0)
        U2 = torch.stack([values[h % f.KV] @ wo[:, h * f.d:(h + 1) * f.d].T for h in range(f.H)])
        out["kv_head"] = float((att[0] * torch.linalg.vector_norm(U2, dim=-1)[:, None, :]
                                - eff_heads).abs().max())
    out["weights_only"] = float((att[0] - eff_heads).abs().max())
    # The attention's own output bias taken as a term: every importance moves where there is one.
    for k, v in out.items():
        check(v > MISTAKE, f"the mistake {k} moves the result by only {v:.2g}")
    return out


def main():
    torch.set_num_threads(1)
    write_cases(run_case, SHIPPED_CASES, "flow_index.json")


if __name__ == "__main__":
    main()
