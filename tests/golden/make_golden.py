#!/usr/bin/python3
"""Generates the golden attention cases the engine tests compare against.

Run with Debian's python3-torch:  /usr/bin/python3 tests/golden/make_golden.py
Each case is a folder with config.json, weights.safetensors (the module's state_dict, as
safetensors.torch.save_file writes it), the inputs as .npy, and for each masked-row policy the
expected per-head weights [N,H,L,S'], their mean [N,L,S'] and the output [N,L,E].

The expected values come from torch.nn.MultiheadAttention itself (policy "nan" is exactly its
behaviour).  The "zero" and "uniform" policies and additive scoring do not exist in PyTorch;
for those the script uses `reference()`, a step-by-step torch implementation that is first
checked against nn.MultiheadAttention on every case where both apply.

The module runs in train mode with dropout 0: it is the reference path (Debian's torch 1.13 fast
path crashes on bias=False in eval mode, and treats fully masked rows differently).
"""
import json
import math
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import safetensors_lite  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = ("nan", "zero", "uniform")


def additive_mask(mask, shape_NHLS, N, H):
    """attn_mask [L,S] or [N*H,L,S], bool or float, as an additive float [N,H,L,S]."""
    L, S = mask.shape[-2], mask.shape[-1]
    if mask.dtype == torch.bool:
        m = torch.zeros(mask.shape).masked_fill(mask, float("-inf"))
    else:
        m = mask.clone()
    if m.dim() == 3:
        m = m.view(N, H, L, S)
    return m.expand(*shape_NHLS[:2], L, S) if m.dim() == 2 else m


def reference(mha, q_in, k_in, v_in, kpm, attn_mask, causal, policy, additive_v=None):
    E, H = mha.embed_dim, mha.num_heads
    d = E // H
    if mha._qkv_same_embed_dim:
        wq, wk, wv = mha.in_proj_weight.chunk(3)
    else:
        wq, wk, wv = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    bq, bk, bv = mha.in_proj_bias.chunk(3) if mha.in_proj_bias is not None else (None,) * 3
    q, k, v = F.linear(q_in, wq, bq), F.linear(k_in, wk, bk), F.linear(v_in, wv, bv)
    N, L, _ = q.shape
    S = k.shape[1]
    if mha.bias_k is not None:
        k = torch.cat([k, mha.bias_k.reshape(1, 1, E).expand(N, 1, E)], 1)
        v = torch.cat([v, mha.bias_v.reshape(1, 1, E).expand(N, 1, E)], 1)
    if mha.add_zero_attn:
        k = torch.cat([k, torch.zeros(N, 1, E)], 1)
        v = torch.cat([v, torch.zeros(N, 1, E)], 1)
    Sp = k.shape[1]
    qh = q.view(N, L, H, d).transpose(1, 2)
    kh = k.view(N, Sp, H, d).transpose(1, 2)
    vh = v.view(N, Sp, H, d).transpose(1, 2)
    if additive_v is None:
        scores = (qh / math.sqrt(d)) @ kh.transpose(-1, -2)
    else:
        scores = (torch.tanh(qh[:, :, :, None, :] + kh[:, :, None, :, :]) *
                  additive_v[None, :, None, None, :]).sum(-1)
    mask = torch.zeros(N, H, L, Sp)
    if attn_mask is not None:
        mask[..., :S] += additive_mask(attn_mask, (N, H), N, H)
    if kpm is not None:
        kp = torch.zeros(N, S).masked_fill(kpm, float("-inf")) if kpm.dtype == torch.bool else kpm
        mask[..., :S] += kp.view(N, 1, 1, S)
    if causal:
        mask[..., :S] += torch.triu(torch.full((L, S), float("-inf")), diagonal=1)
    s = scores + mask
    w = torch.softmax(s, -1)
    fully = torch.isneginf(s).all(-1)
    if policy == "zero":
        w[fully] = 0.0
    elif policy == "uniform":
        w[fully] = 1.0 / Sp
    ctx = (w @ vh).transpose(1, 2).reshape(N, L, E)
    out = F.linear(ctx, mha.out_proj.weight, mha.out_proj.bias)
    return w, w.mean(1), out


def torch_masks_for_module(attn_mask, causal, L, S):
    """The attn_mask to hand nn.MultiheadAttention for our (attn_mask, causal) pair."""
    if not causal:
        return attn_mask
    tri = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=1)
    if attn_mask is None:
        return torch.zeros(L, S).masked_fill(tri, float("-inf"))
    if attn_mask.dtype == torch.bool:
        return attn_mask | tri
    return attn_mask.masked_fill(tri, float("-inf"))


def save_npy(folder, name, t):
    a = t.detach().numpy() if hasattr(t, "detach") else t
    np.save(os.path.join(folder, name), np.ascontiguousarray(a))


def make_case(name, seed, N, L, E, H, S=None, kdim=None, vdim=None, bias=True, add_bias_kv=False,
              add_zero_attn=False, kpm=None, attn_mask=None, causal=False, additive=False,
              split_layout=False):
    torch.manual_seed(seed)
    cross = S is not None or kdim is not None or vdim is not None
    S = S if S is not None else L
    mha = torch.nn.MultiheadAttention(E, H, bias=bias, add_bias_kv=add_bias_kv,
                                      add_zero_attn=add_zero_attn, kdim=kdim, vdim=vdim,
                                      batch_first=True, dropout=0.0)
    with torch.no_grad():  # non-zero biases, so a bias bug cannot hide behind zeros
        for p in (mha.in_proj_bias, mha.out_proj.bias):
            if p is not None:
                p.normal_(0.0, 0.2)
    mha.train()
    kd, vd = kdim or E, vdim or E
    query = torch.randn(N, L, E)
    if cross:
        key, value = torch.randn(N, S, kd), torch.randn(N, S, vd)
    else:
        key = value = query

    kpm_t = None
    if kpm == "lengths":  # batch item b has its last b keys padded
        kpm_t = torch.zeros(N, S, dtype=torch.bool)
        for b in range(N):
            if b:
                kpm_t[b, S - b:] = True
    elif kpm == "full":  # item 0 normal, item 1 fully padded, item 2 partly
        kpm_t = torch.zeros(N, S, dtype=torch.bool)
        kpm_t[1, :] = True
        if N > 2:
            kpm_t[2, 1::2] = True
    elif kpm == "float":
        kpm_t = torch.randn(N, S) * 2.0
        kpm_t[:, -1] = float("-inf")
    am_t = None
    if attn_mask == "bool2d":
        am_t = torch.rand(L, S) < 0.3
        am_t[0, :] = True  # one fully masked query row
    elif attn_mask == "float2d":
        am_t = torch.randn(L, S)
        am_t[1, 2 % S] = float("-inf")
    elif attn_mask == "bool3d":
        am_t = torch.rand(N * H, L, S) < 0.3
    elif attn_mask == "float3d":
        am_t = torch.randn(N * H, L, S)

    additive_v = torch.empty(H, E // H).uniform_(-0.5, 0.5) if additive else None

    results = {}
    for policy in POLICIES:
        results[policy] = reference(mha, query, key, value, kpm_t, am_t, causal, policy,
                                    additive_v)
    if not additive:  # check the step-by-step reference against the module itself
        out, w = mha(query, key, value, key_padding_mask=kpm_t,
                     attn_mask=torch_masks_for_module(am_t, causal, L, S),
                     need_weights=True, average_attn_weights=False)
        _, w_mean = mha(query, key, value, key_padding_mask=kpm_t,
                        attn_mask=torch_masks_for_module(am_t, causal, L, S),
                        need_weights=True, average_attn_weights=True)
        rw, rmean, rout = results["nan"]
        for a, b, what in ((w, rw, "weights"), (w_mean, rmean, "mean"), (out, rout, "output")):
            if not torch.allclose(a, b, atol=2e-6, rtol=1e-5, equal_nan=True):
                raise SystemExit(f"{name}: reference() disagrees with nn.MultiheadAttention "
                                 f"on {what}: max diff {(a - b).abs().nan_to_num().max()}")
        # The module's own results are what we store for the PyTorch policy.
        results["nan"] = (w, w_mean, out)

    folder = os.path.join(HERE, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    state = {k: v for k, v in mha.state_dict().items()}
    if split_layout and "in_proj_weight" in state:  # same weights in PyTorch's split layout
        wq, wk, wv = state.pop("in_proj_weight").chunk(3)
        state.update(q_proj_weight=wq.clone(), k_proj_weight=wk.clone(), v_proj_weight=wv.clone())
    if additive:
        state["additive_v"] = additive_v
    safetensors_lite.save_file(state, os.path.join(folder, "weights.safetensors"),
                               metadata={"format": "pt"})
    save_npy(folder, "query.npy", query)
    if cross:
        save_npy(folder, "key.npy", key)
        save_npy(folder, "value.npy", value)
    if kpm_t is not None:
        save_npy(folder, "key_padding_mask.npy", kpm_t)
    if am_t is not None:
        save_npy(folder, "attn_mask.npy", am_t)
    for policy, (w, mean, out) in results.items():
        save_npy(folder, f"expected_{policy}_weights.npy", w)
        save_npy(folder, f"expected_{policy}_mean.npy", mean)
        save_npy(folder, f"expected_{policy}_output.npy", out)
    config = dict(embed_dim=E, num_heads=H, kdim=kd, vdim=vd, bias=bias, add_bias_kv=add_bias_kv,
                  add_zero_attn=add_zero_attn, causal=causal, cross=cross,
                  scoring="additive" if additive else "scaled_dot_product",
                  batch=N, target_len=L, source_len=S,
                  source_len_total=S + int(add_bias_kv) + int(add_zero_attn),
                  torch_version=torch.__version__)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=1, sort_keys=True)
    return name


CASES = [
    dict(name="self_basic", seed=1, N=1, L=5, E=16, H=4),
    dict(name="self_batch3", seed=2, N=3, L=7, E=24, H=3),
    dict(name="heads_1", seed=3, N=2, L=6, E=32, H=1),
    dict(name="heads_2", seed=4, N=1, L=6, E=32, H=2),
    dict(name="heads_8", seed=5, N=1, L=6, E=32, H=8),
    dict(name="heads_16", seed=6, N=2, L=6, E=32, H=16),
    dict(name="odd_length_37", seed=7, N=1, L=37, E=48, H=6),
    dict(name="cross_same_dims", seed=8, N=2, L=4, S=9, E=16, H=2),
    dict(name="cross_kdim_vdim", seed=9, N=2, L=4, S=6, E=16, H=2, kdim=10, vdim=12),
    dict(name="split_layout_same_dims", seed=10, N=1, L=5, E=16, H=4, split_layout=True),
    dict(name="bias_off", seed=11, N=2, L=5, E=16, H=4, bias=False),
    dict(name="bias_kv", seed=12, N=2, L=5, E=16, H=4, add_bias_kv=True),
    dict(name="zero_attn", seed=13, N=2, L=5, E=16, H=4, add_zero_attn=True),
    dict(name="bias_kv_zero_attn_masks", seed=14, N=3, L=6, E=16, H=2, add_bias_kv=True,
         add_zero_attn=True, kpm="full", attn_mask="bool2d"),
    dict(name="kpm_lengths", seed=15, N=3, L=6, E=16, H=4, kpm="lengths"),
    dict(name="kpm_float", seed=16, N=2, L=5, E=16, H=4, kpm="float"),
    dict(name="attn_mask_bool2d", seed=17, N=2, L=6, E=16, H=4, attn_mask="bool2d"),
    dict(name="attn_mask_float2d", seed=18, N=2, L=6, E=16, H=4, attn_mask="float2d"),
    dict(name="attn_mask_bool3d", seed=19, N=2, L=5, E=16, H=4, attn_mask="bool3d"),
    dict(name="attn_mask_float3d", seed=20, N=2, L=5, E=16, H=2, attn_mask="float3d"),
    dict(name="causal", seed=21, N=2, L=7, E=16, H=4, causal=True),
    dict(name="causal_float_mask", seed=22, N=1, L=6, E=16, H=2, causal=True,
         attn_mask="float2d"),
    dict(name="causal_kpm_bool_mask", seed=23, N=3, L=6, E=16, H=2, causal=True,
         attn_mask="bool2d", kpm="lengths"),
    dict(name="fully_masked_rows", seed=24, N=3, L=5, E=16, H=4, kpm="full"),
    dict(name="fully_masked_cross_kdim", seed=25, N=3, L=4, S=6, E=16, H=2, kdim=8, vdim=8,
         kpm="full", bias=False),
    dict(name="additive", seed=26, N=2, L=5, E=16, H=4, additive=True),
    dict(name="additive_masked", seed=27, N=3, L=5, E=16, H=2, additive=True, kpm="full",
         causal=True),
]


def main():
    torch.set_num_threads(1)
    names = [make_case(**c) for c in CASES]
    with open(os.path.join(HERE, "index.json"), "w") as f:
        json.dump({"cases": names, "policies": list(POLICIES)}, f, indent=1)
    print(f"wrote {len(names)} golden cases to {HERE}")


if __name__ == "__main__":
    main()
