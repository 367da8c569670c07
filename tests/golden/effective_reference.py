#!/usr/bin/python3
"""Float64 references of effective attention on the demo layer (torch.nn.MultiheadAttention),
for `attnviz attend --effective norm` (tests/test_effective_attention.cpp).

    /usr/bin/python3 tests/golden/effective_reference.py   # after make_golden.py

Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing Transformers with Vector Norms"
(EMNLP, §3): what head h brings from key j is alpha^h_ij f_h(x_j), with f_h(x_j) the value
(v_proj with its bias; bias_v or a zero row for the keys add_bias_kv and add_zero_attn append)
through head h's columns of out_proj.  The per-head map is ||alpha^h_ij f_h(x_j)||, the layer's
the norm of the heads' sum ||sum_h alpha^h_ij f_h(x_j)||: the shapes of the weights and of their
mean.  The weights are nn.MultiheadAttention's own (float64, need_weights=True,
average_attn_weights=False) on the golden case's inputs and masks.

Reads the cases make_golden.py wrote (tests/golden/<case>/) and writes tests/golden/effective/:
  index.json                  the cases
  <case>/expected_heads.npy   float32 [N, H, L, S']
  <case>/expected_layer.npy   float32 [N, L, S']
Cases with a fully masked row (NaN weights in PyTorch) and additive scoring (not in PyTorch) are
left out.  The script checks that the layer map differs from the mean weights and that the
per-head map differs from the weights (by more than 1e-3), so a test comparing against them can
fail, and that the heads' vectors sum to the module's output.
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import safetensors_lite  # noqa: E402
from make_golden import torch_masks_for_module  # noqa: E402

CASES = ["self_basic", "self_batch3", "heads_1", "heads_16", "odd_length_37", "cross_kdim_vdim",
         "split_layout_same_dims", "bias_off", "bias_kv", "zero_attn", "bias_kv_zero_attn_masks",
         "kpm_lengths", "attn_mask_float2d", "causal"]
OUT = os.path.join(HERE, "effective")


def load(case):
    folder = os.path.join(HERE, case)
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    state = {k: torch.from_numpy(np.asarray(v, dtype=np.float64))
             for k, v in safetensors_lite.load_file(os.path.join(folder, "weights.safetensors")).items()}

    def npy(name):
        p = os.path.join(folder, name)
        return torch.from_numpy(np.load(p)) if os.path.exists(p) else None
    return cfg, state, npy


def run_case(case):
    cfg, state, npy = load(case)
    E, H = cfg["embed_dim"], cfg["num_heads"]
    d = E // H
    mha = torch.nn.MultiheadAttention(E, H, bias=cfg["bias"], add_bias_kv=cfg["add_bias_kv"],
                                      add_zero_attn=cfg["add_zero_attn"], kdim=cfg["kdim"],
                                      vdim=cfg["vdim"], batch_first=True).double()
    if mha._qkv_same_embed_dim and "q_proj_weight" in state:  # the split layout, same weights
        state["in_proj_weight"] = torch.cat([state.pop(k) for k in
                                             ("q_proj_weight", "k_proj_weight", "v_proj_weight")])
    mha.load_state_dict(state)
    mha.train()  # the reference path, with dropout 0 (make_golden.py)
    query = npy("query.npy").double()
    key = npy("key.npy").double() if npy("key.npy") is not None else query
    value = npy("value.npy").double() if npy("value.npy") is not None else key
    kpm, am = npy("key_padding_mask.npy"), npy("attn_mask.npy")
    if am is not None and am.dtype != torch.bool:
        am = am.double()
    if kpm is not None and kpm.dtype != torch.bool:
        kpm = kpm.double()
    L, S = query.shape[1], key.shape[1]
    with torch.no_grad():
        out, w = mha(query, key, value, key_padding_mask=kpm,
                     attn_mask=torch_masks_for_module(am, cfg["causal"], L, S),
                     need_weights=True, average_attn_weights=False)
    if torch.isnan(w).any():
        raise SystemExit(f"{case}: a fully masked row; leave it out")
    N = query.shape[0]
    if mha._qkv_same_embed_dim:
        w_v = mha.in_proj_weight[2 * E:]
    else:
        w_v = mha.v_proj_weight
    b_v = mha.in_proj_bias[2 * E:] if mha.in_proj_bias is not None else None
    with torch.no_grad():
        v = F.linear(value, w_v, b_v)                                    # [N, S, E]
        if mha.bias_v is not None:
            v = torch.cat([v, mha.bias_v.reshape(1, 1, E).expand(N, 1, E)], 1)
        if mha.add_zero_attn:
            v = torch.cat([v, torch.zeros(N, 1, E, dtype=v.dtype)], 1)
        wo = mha.out_proj.weight                                          # [E, E]
        U = torch.stack([v[:, :, h * d:(h + 1) * d] @ wo[:, h * d:(h + 1) * d].T
                         for h in range(H)], dim=1)                       # [N, H, S', E]
        heads = w * torch.linalg.vector_norm(U, dim=-1)[:, :, None, :]
        Z = (w[..., None] * U[:, :, None, :, :]).sum(1)                   # [N, L, S', E]
        layer = torch.linalg.vector_norm(Z, dim=-1)
        # The heads' vectors are what the layer outputs, less out_proj's bias.
        again = Z.sum(2) + (mha.out_proj.bias if mha.out_proj.bias is not None else 0.0)
    if float((again - out).abs().max()) > 1e-10:
        raise SystemExit(f"{case}: the heads' vectors do not add up to the output")
    moved = min(float((heads - w).abs().max()), float((layer - w.mean(1)).abs().max()))
    if moved <= 1e-3:
        raise SystemExit(f"{case}: the norm maps are within {moved:.2g} of the weights")
    folder = os.path.join(OUT, case)
    os.makedirs(folder, exist_ok=True)
    np.save(os.path.join(folder, "expected_heads.npy"), heads.numpy().astype(np.float32))
    np.save(os.path.join(folder, "expected_layer.npy"), layer.numpy().astype(np.float32))
    print(f"{case:26s} N={N} H={H} L={L} S'={w.shape[-1]}  max {float(layer.max()):.3g}")


def main():
    torch.set_num_threads(1)
    for case in CASES:
        run_case(case)
    with open(os.path.join(OUT, "index.json"), "w") as f:
        json.dump({"cases": CASES}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
