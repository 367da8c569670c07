#!/usr/bin/python3
"""Hugging Face's forward passes, re-written with plain torch tensor ops, for the model goldens
(float64) and the benchmark baseline (float32).

Written from transformers' modeling_{bert,roberta,distilbert,gpt2,llama,qwen2,qwen3}.py and
modeling_rope_utils.py (eager attention, eval mode: no dropout, no attention mask, batch of
one).  `forward` returns what `model(ids, output_attentions=True, output_hidden_states=True)`
returns: `attentions`, one [heads, L, L] post-softmax tensor per layer, and `hidden_states`,
[L, hidden] for the embeddings' output and then each layer's output, the last one after the
final norm where the model has one (GPT-2 `ln_f`, Llama/Qwen `norm`).  It can also change the
heads' outputs on the way (`heads=`: ablation, activation patching) and hand out each layer's
output before the final norm (`layer_outputs=`: the logit lens).

The language-model heads (BertLMPredictionHead, RobertaLMHead, DistilBertForMaskedLM's
vocab_* layers, GPT2LMHeadModel's and *ForCausalLM's lm_head, tied or not) are `lm_head_params` and
`lm_logits`; `Model` runs a checkpoint with its head, and `ablation`, `recorder`, `patcher`,
`logit_difference` and `greedy_generate` are the interventions the goldens record.

Deliberate differences from transformers, all below float32 resolution of the goldens: the
rotary inverse frequencies and cos/sin are computed in the forward's dtype (transformers forces
float32), and RMSNorm's variance too (transformers upcasts half types to float32, which float64
already exceeds).  Nothing here uses torch's fused attention (torch 1.13's fast path crashes on
some modules in eval mode).
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tools"))
import safetensors_lite  # noqa: E402

# PreTrainedModel.base_model_prefix of each family: a head model's file (BertForMaskedLM,
# GPT2LMHeadModel, LlamaForCausalLM...) names the base model's weights under it.
BASE_PREFIX = {"bert": "bert.", "roberta": "roberta.", "distilbert": "distilbert.",
               "gpt2": "transformer.", "llama": "model.", "qwen2": "model.", "qwen3": "model."}

ROTARY_FAMILIES = ("llama", "qwen2", "qwen3")


# ---------------------------------------------------------------------------------------------
# Loading: the names as transformers' from_pretrained resolves them


def base_model_state(state, model_type):
    """The base model's weights of a checkpoint's state dict, named as the base model names them:
    the base-model prefix stripped when the file has it (head weights such as cls.* or lm_head.*
    left out), and the old TF-era `LayerNorm.gamma`/`LayerNorm.beta` read as weight/bias, as
    from_pretrained does."""
    prefix = BASE_PREFIX[model_type]
    prefixed = any(k.startswith(prefix) for k in state)
    out = {}
    for k, v in state.items():
        if prefixed:
            if not k.startswith(prefix):
                continue
            k = k[len(prefix):]
        if k.endswith("LayerNorm.gamma"):
            k = k[: -len("gamma")] + "weight"
        elif k.endswith("LayerNorm.beta"):
            k = k[: -len("beta")] + "bias"
        out[k] = v
    return out


def load_folder(folder):
    """(config dict, {name: numpy array}) of a Hugging Face model folder: model.safetensors or
    the shards listed in model.safetensors.index.json.  BF16 comes back as float32 (exact)."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    index = os.path.join(folder, "model.safetensors.index.json")
    state = {}
    if os.path.exists(index):
        with open(index) as f:
            weight_map = json.load(f)["weight_map"]
        for shard in sorted(set(weight_map.values())):
            part = safetensors_lite.load_file(os.path.join(folder, shard))
            for name in part:
                if weight_map.get(name) != shard:
                    raise ValueError(f"{shard}: {name} is not mapped to this shard in the index")
            state.update(part)
        missing = set(weight_map) - set(state)
        if missing:
            raise ValueError(f"{index}: {sorted(missing)[:3]} are in no shard")
    else:
        state = safetensors_lite.load_file(os.path.join(folder, "model.safetensors"))
    return config, state


def to_params(state, model_type, dtype):
    """Floating-point base-model weights as torch tensors of `dtype` (bool/int buffers such as
    GPT-2's attn.bias causal mask are dropped: the forward builds its own mask)."""
    out = {}
    for k, v in base_model_state(state, model_type).items():
        a = np.asarray(v)
        if a.dtype.kind != "f":
            continue
        out[k] = torch.from_numpy(np.ascontiguousarray(a)).to(dtype)
    return out


# ---------------------------------------------------------------------------------------------
# Building blocks


def gelu_new(x):
    """GPT-2's tanh approximation of GELU (transformers' NewGELUActivation)."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


ACT = {"gelu": F.gelu, "gelu_new": gelu_new, "relu": F.relu, "silu": F.silu, "swish": F.silu}


def activation(name):
    if name not in ACT:
        raise NotImplementedError(f"activation {name!r}")
    return ACT[name]


def linear(x, P, name, bias=True):
    """nn.Linear: x @ W.T + b with W [out, in]."""
    b = P[name + ".bias"] if bias else None
    if not bias and name + ".bias" in P:
        raise ValueError(f"{name}.bias present but this family's config says no bias")
    return F.linear(x, P[name + ".weight"], b)


def conv1d(x, P, name):
    """GPT-2's Conv1D: W stored [in, out], x @ W + b."""
    return torch.addmm(P[name + ".bias"], x, P[name + ".weight"])


def layer_norm(x, P, name, eps):
    return F.layer_norm(x, x.shape[-1:], P[name + ".weight"], P[name + ".bias"], eps)


def rms_norm(x, weight, eps):
    """LlamaRMSNorm / Qwen2RMSNorm / Qwen3RMSNorm over the last dimension."""
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def split_heads(x, n, d):
    """[L, n*d] -> [n, L, d]: head h owns columns h*d .. h*d+d-1."""
    return x.view(x.shape[0], n, d).transpose(0, 1)


def merge_heads(x):
    """[n, L, d] -> [L, n*d]."""
    return x.transpose(0, 1).reshape(x.shape[1], -1)


def attend(q, k, v, scaling, causal):
    """Eager attention: softmax(q k^T * scaling [+ causal mask]) and its product with v.
    q [H, L, d], k/v [H, S, d] -> (context [H, L, d], probabilities [H, L, S])."""
    scores = torch.matmul(q, k.transpose(-1, -2)).mul_(scaling)
    if causal:
        L, S = scores.shape[-2:]
        # transformers fills with finfo.min; exp underflows to exactly 0 either way.
        scores.masked_fill_(torch.ones(L, S, dtype=torch.bool).triu_(S - L + 1), float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    return torch.matmul(probs, v), probs


# ---------------------------------------------------------------------------------------------
# Encoders: BERT, RoBERTa, DistilBERT (post-LayerNorm)


def trace_attention(trace, layer, h, ctx, out):
    """Layer 0's attention as the steps view shows it: what the projections read [L, E], the
    heads' outputs side by side [L, H * d] and the output projection's result [L, E] (before
    the residual)."""
    if trace is not None and layer == 0:
        trace.update(attn_input=h, attn_concat=merge_heads(ctx), attn_output=out)


def roberta_position_ids(ids, padding_idx):
    """transformers' create_position_ids_from_input_ids: positions count the non-pad tokens from
    padding_idx + 1; pad tokens get padding_idx itself."""
    mask = (ids != padding_idx).long()
    return torch.cumsum(mask, 0) * mask + padding_idx


def _bert(cfg, P, ids, token_type_ids, trace, heads=None, layer_outputs=None):
    if cfg.get("position_embedding_type", "absolute") != "absolute":
        raise NotImplementedError(f"position_embedding_type {cfg['position_embedding_type']!r}")
    L = ids.shape[0]
    E, H = cfg["hidden_size"], cfg["num_attention_heads"]
    d = E // H
    eps = cfg["layer_norm_eps"]
    act = activation(cfg["hidden_act"])
    if cfg["model_type"] == "roberta":
        pos = roberta_position_ids(ids, cfg["pad_token_id"])
    else:
        pos = torch.arange(L)
    tt = torch.zeros(L, dtype=torch.long) if token_type_ids is None else token_type_ids
    x = (P["embeddings.word_embeddings.weight"][ids] + P["embeddings.token_type_embeddings.weight"][tt]
         + P["embeddings.position_embeddings.weight"][pos])
    x = layer_norm(x, P, "embeddings.LayerNorm", eps)
    hidden, attentions = [x], []
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = split_heads(linear(x, P, p + "attention.self.query"), H, d)
        k = split_heads(linear(x, P, p + "attention.self.key"), H, d)
        v = split_heads(linear(x, P, p + "attention.self.value"), H, d)
        ctx, probs = attend(q, k, v, 1.0 / math.sqrt(d), causal=False)
        attentions.append(probs)
        if heads is not None:  # an intervention on the heads' outputs (see `forward`)
            ctx = heads(i, ctx)
        o = linear(merge_heads(ctx), P, p + "attention.output.dense")
        trace_attention(trace, i, x, ctx, o)
        a = layer_norm(o + x, P, p + "attention.output.LayerNorm", eps)
        m = linear(act(linear(a, P, p + "intermediate.dense")), P, p + "output.dense")
        x = layer_norm(m + a, P, p + "output.LayerNorm", eps)
        hidden.append(x)
        if layer_outputs is not None:
            layer_outputs.append(x)
    return attentions, hidden


def _distilbert(cfg, P, ids, token_type_ids, trace, heads=None, layer_outputs=None):
    if cfg.get("sinusoidal_pos_embds"):
        # The table is then computed, not loaded; the goldens only use learned positions.
        raise NotImplementedError("sinusoidal_pos_embds")
    L = ids.shape[0]
    E, H = cfg["dim"], cfg["n_heads"]
    d = E // H
    eps = 1e-12  # hard-coded in modeling_distilbert, not in the config
    act = activation(cfg["activation"])
    x = P["embeddings.word_embeddings.weight"][ids] + P["embeddings.position_embeddings.weight"][:L]
    x = layer_norm(x, P, "embeddings.LayerNorm", eps)
    hidden, attentions = [x], []
    for i in range(cfg["n_layers"]):
        p = f"transformer.layer.{i}."
        q = split_heads(linear(x, P, p + "attention.q_lin"), H, d)
        k = split_heads(linear(x, P, p + "attention.k_lin"), H, d)
        v = split_heads(linear(x, P, p + "attention.v_lin"), H, d)
        ctx, probs = attend(q, k, v, 1.0 / math.sqrt(d), causal=False)
        attentions.append(probs)
        if heads is not None:  # an intervention on the heads' outputs (see `forward`)
            ctx = heads(i, ctx)
        o = linear(merge_heads(ctx), P, p + "attention.out_lin")
        trace_attention(trace, i, x, ctx, o)
        a = layer_norm(o + x, P, p + "sa_layer_norm", eps)
        m = linear(act(linear(a, P, p + "ffn.lin1")), P, p + "ffn.lin2")
        x = layer_norm(m + a, P, p + "output_layer_norm", eps)
        hidden.append(x)
        if layer_outputs is not None:
            layer_outputs.append(x)
    return attentions, hidden


# ---------------------------------------------------------------------------------------------
# GPT-2 (pre-LayerNorm, Conv1D weights, causal)


def _gpt2(cfg, P, ids, token_type_ids, trace, heads=None, layer_outputs=None):
    if cfg.get("scale_attn_by_inverse_layer_idx") or cfg.get("add_cross_attention"):
        raise NotImplementedError("scale_attn_by_inverse_layer_idx / add_cross_attention")
    L = ids.shape[0]
    E, H = cfg["n_embd"], cfg["n_head"]
    d = E // H
    eps = cfg["layer_norm_epsilon"]
    act = activation(cfg["activation_function"])
    scaling = 1.0 / math.sqrt(d) if cfg.get("scale_attn_weights", True) else 1.0
    x = P["wte.weight"][ids] + P["wpe.weight"][:L]
    hidden, attentions = [x], []
    for i in range(cfg["n_layer"]):
        p = f"h.{i}."
        h = layer_norm(x, P, p + "ln_1", eps)
        q, k, v = (split_heads(t, H, d) for t in conv1d(h, P, p + "attn.c_attn").split(E, dim=-1))
        ctx, probs = attend(q, k, v, scaling, causal=True)
        attentions.append(probs)
        if heads is not None:  # an intervention on the heads' outputs (see `forward`)
            ctx = heads(i, ctx)
        o = conv1d(merge_heads(ctx), P, p + "attn.c_proj")
        trace_attention(trace, i, h, ctx, o)
        x = x + o
        m = conv1d(act(conv1d(layer_norm(x, P, p + "ln_2", eps), P, p + "mlp.c_fc")), P, p + "mlp.c_proj")
        x = x + m
        hidden.append(x)
        if layer_outputs is not None:
            layer_outputs.append(x)
    hidden[-1] = layer_norm(x, P, "ln_f", eps)
    return attentions, hidden


# ---------------------------------------------------------------------------------------------
# Llama, Qwen2, Qwen3 (RMSNorm, rotary, grouped-query attention, SwiGLU, causal)


def head_dim_of(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def rope_parameters(cfg):
    """The config's rope_scaling (or newer rope_parameters) as one dict with rope_type and
    rope_theta, the way RotaryEmbeddingConfigMixin.standardize_rope_params reads it."""
    rp = dict(cfg.get("rope_parameters") or cfg.get("rope_scaling") or {})
    rp.setdefault("rope_type", rp.get("type", "default"))
    rp.setdefault("rope_theta", cfg.get("rope_theta", 10000.0))
    if rp["rope_type"] == "llama3":
        rp.setdefault("original_max_position_embeddings", cfg["max_position_embeddings"])
    return rp


def rope_inv_freq(cfg, dtype=torch.float64, apply_scaling=True):
    """Inverse frequencies [head_dim / 2] of the rotary embedding: default RoPE, or Llama 3.1's
    (wavelengths longer than original_max_position_embeddings / low_freq_factor slowed down by
    `factor`, shorter than .../high_freq_factor kept, a smooth blend in between)."""
    rp = rope_parameters(cfg)
    if rp.get("partial_rotary_factor", 1.0) != 1.0:
        raise NotImplementedError("partial_rotary_factor")
    dim = head_dim_of(cfg)
    base = float(rp["rope_theta"])
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype) / dim))
    kind = rp["rope_type"]
    if kind == "default" or not apply_scaling:
        return inv_freq
    if kind != "llama3":
        raise NotImplementedError(f"rope_type {kind!r}")
    factor, low, high = rp["factor"], rp["low_freq_factor"], rp["high_freq_factor"]
    old_len = rp["original_max_position_embeddings"]
    low_freq_wavelen, high_freq_wavelen = old_len / low, old_len / high
    wavelen = 2 * math.pi / inv_freq
    scaled = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (old_len / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = (wavelen >= high_freq_wavelen) & (wavelen <= low_freq_wavelen)
    return torch.where(medium, smoothed, scaled)


def rotary_cos_sin(cfg, L, dtype):
    """cos, sin [L, head_dim]: each frequency twice, as emb = cat(freqs, freqs) in transformers,
    so dimension j pairs with j + head_dim/2 (rotate_half), not with j+1."""
    freqs = torch.outer(torch.arange(L, dtype=dtype), rope_inv_freq(cfg, dtype))
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rotary(x, cos, sin):
    return x * cos + rotate_half(x) * sin


def _decoder(cfg, P, ids, token_type_ids, trace, heads=None, layer_outputs=None):
    family = cfg["model_type"]
    if cfg.get("use_sliding_window"):
        raise NotImplementedError("use_sliding_window")
    L = ids.shape[0]
    H, KV = cfg["num_attention_heads"], cfg.get("num_key_value_heads") or cfg["num_attention_heads"]
    d = head_dim_of(cfg)
    eps = cfg["rms_norm_eps"]
    act = activation(cfg["hidden_act"])
    # Qwen2 hard-codes q/k/v biases (and none on o_proj); Llama and Qwen3 follow attention_bias.
    qkv_bias = True if family == "qwen2" else bool(cfg.get("attention_bias", False))
    o_bias = False if family == "qwen2" else bool(cfg.get("attention_bias", False))
    mlp_bias = bool(cfg.get("mlp_bias", False))
    cos, sin = rotary_cos_sin(cfg, L, P["embed_tokens.weight"].dtype)
    x = P["embed_tokens.weight"][ids]
    hidden, attentions = [x], []
    for i in range(cfg["num_hidden_layers"]):
        p = f"layers.{i}."
        h = rms_norm(x, P[p + "input_layernorm.weight"], eps)
        q = split_heads(linear(h, P, p + "self_attn.q_proj", qkv_bias), H, d)
        k = split_heads(linear(h, P, p + "self_attn.k_proj", qkv_bias), KV, d)
        v = split_heads(linear(h, P, p + "self_attn.v_proj", qkv_bias), KV, d)
        if family == "qwen3":  # per-head RMSNorm over head_dim, before the rotation
            q = rms_norm(q, P[p + "self_attn.q_norm.weight"], eps)
            k = rms_norm(k, P[p + "self_attn.k_norm.weight"], eps)
        q_pre, k_pre = q, k
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        if trace is not None and i == 0:
            trace.update(q_pre_rope=q_pre, q_post_rope=q, k_pre_rope=k_pre, k_post_rope=k)
        # repeat_kv: query head h reads key/value head h // (H / KV).
        k, v = k.repeat_interleave(H // KV, dim=0), v.repeat_interleave(H // KV, dim=0)
        ctx, probs = attend(q, k, v, d ** -0.5, causal=True)
        attentions.append(probs)
        if heads is not None:  # an intervention on the heads' outputs (see `forward`)
            ctx = heads(i, ctx)
        o = linear(merge_heads(ctx), P, p + "self_attn.o_proj", o_bias)
        trace_attention(trace, i, h, ctx, o)
        x = x + o
        h = rms_norm(x, P[p + "post_attention_layernorm.weight"], eps)
        m = act(linear(h, P, p + "mlp.gate_proj", mlp_bias)) * linear(h, P, p + "mlp.up_proj", mlp_bias)
        x = x + linear(m, P, p + "mlp.down_proj", mlp_bias)
        hidden.append(x)
        if layer_outputs is not None:
            layer_outputs.append(x)
    hidden[-1] = rms_norm(x, P["norm.weight"], eps)
    return attentions, hidden


_FORWARD = {"bert": _bert, "roberta": _bert, "distilbert": _distilbert, "gpt2": _gpt2,
            "llama": _decoder, "qwen2": _decoder, "qwen3": _decoder}


def forward(config, state, input_ids, token_type_ids=None, dtype=torch.float64, trace=None,
            params=None, heads=None, layer_outputs=None):
    """(attentions, hidden_states) of one sequence, as lists of tensors of `dtype`.

    config: the parsed config.json; state: the checkpoint's {name: array} (any prefix, as in
    the file), or `params` already made by to_params (the benchmark converts once).
    trace: a dict to receive layer 0's q/k before and after the rotation (rotary families),
    [heads or kv_heads, L, head_dim], after q_norm/k_norm where the model has them.
    heads: None, or a function (layer, context) -> context called in every layer on the heads'
    outputs, context = softmax(q k^T) v as [H, L, head_dim] (query heads; under grouped-query
    attention each query head's own slice), before they are concatenated and projected: what
    head ablation and activation patching change.
    layer_outputs: None, or a list that receives each layer's output [L, hidden] (the residual
    stream, before the final norm of GPT-2 / Llama / Qwen): what the logit lens reads."""
    family = config["model_type"]
    if family not in _FORWARD:
        raise NotImplementedError(f"model_type {family!r}")
    P = params if params is not None else to_params(state, family, dtype)
    ids = torch.as_tensor(np.asarray(input_ids), dtype=torch.long)
    tt = None if token_type_ids is None else torch.as_tensor(np.asarray(token_type_ids), dtype=torch.long)
    with torch.no_grad():
        return _FORWARD[family](config, P, ids, tt, trace, heads, layer_outputs)


# ---------------------------------------------------------------------------------------------
# Language-model heads, logit lens, head ablation, activation patching, greedy generation
#
# Written from transformers' BertLMPredictionHead / BertPredictionHeadTransform, RobertaLMHead,
# DistilBertForMaskedLM, GPT2LMHeadModel and {Llama,Qwen2,Qwen3}ForCausalLM.

CAUSAL_FAMILIES = ("gpt2",) + ROTARY_FAMILIES

# Masked-LM head weights of each encoder family, named as in a *ForMaskedLM file (outside the
# base-model prefix): (dense, its LayerNorm, decoder weight, decoder bias or bias parameters).
# The decoder weight is tied to the word embeddings; save_pretrained leaves it out (and the
# decoder's bias, the same parameter as the head's `bias`).
MLM_HEAD_NAMES = {
    "bert": ("cls.predictions.transform.dense", "cls.predictions.transform.LayerNorm",
             "cls.predictions.decoder.weight", ("cls.predictions.bias", "cls.predictions.decoder.bias")),
    "roberta": ("lm_head.dense", "lm_head.layer_norm", "lm_head.decoder.weight",
                ("lm_head.bias", "lm_head.decoder.bias")),
    "distilbert": ("vocab_transform", "vocab_layer_norm", "vocab_projector.weight", ("vocab_projector.bias",)),
}


def lm_head_kind(config, state):
    """"causal" (GPT-2, Llama, Qwen: they always have one, tied to the input embeddings when the
    file has no lm_head.weight), "masked" (an encoder whose file has the MLM head's weights) or
    None (a bare encoder)."""
    family = config["model_type"]
    if family in CAUSAL_FAMILIES:
        return "causal"
    if family in MLM_HEAD_NAMES and MLM_HEAD_NAMES[family][0] + ".weight" in state:
        return "masked"
    return None


def _tensor(a, dtype):
    return torch.from_numpy(np.ascontiguousarray(np.asarray(a))).to(dtype)


def lm_head_params(config, state, P, dtype=torch.float64):
    """The head's weights as torch tensors of `dtype`, as {"decoder.weight" [V, E], and for the
    masked heads "dense.weight", "dense.bias", "norm.weight", "norm.bias", "decoder.bias"}, or
    None without a head.  P: the base model's params (to_params), for the tied weights."""
    family, kind = config["model_type"], lm_head_kind(config, state)
    if kind is None:
        return None
    if kind == "causal":
        embed = "wte.weight" if family == "gpt2" else "embed_tokens.weight"
        # PretrainedConfig's default is tie_word_embeddings=True (GPT-2 keeps it); LlamaConfig,
        # Qwen2Config and Qwen3Config default to False.
        tied = config.get("tie_word_embeddings", family == "gpt2") or "lm_head.weight" not in state
        return {"decoder.weight": P[embed] if tied else _tensor(state["lm_head.weight"], dtype)}
    dense, norm, decoder, biases = MLM_HEAD_NAMES[family]

    def get(name):
        for n in (name, name.replace(".weight", ".gamma"), name.replace(".bias", ".beta")):
            if n in state:
                return _tensor(state[n], dtype)
        raise KeyError(f"{name} is not in the checkpoint")

    bias = next((n for n in biases if n in state), None)
    if bias is None:
        raise KeyError(f"{biases[0]} is not in the checkpoint")
    return {"dense.weight": get(dense + ".weight"), "dense.bias": get(dense + ".bias"),
            "norm.weight": get(norm + ".weight"), "norm.bias": get(norm + ".bias"),
            "decoder.weight": (_tensor(state[decoder], dtype) if decoder in state
                               else P["embeddings.word_embeddings.weight"]),
            "decoder.bias": _tensor(state[bias], dtype)}


def lm_logits(config, P, head, x):
    """Logits [L, vocab_size] of a residual stream x [L, hidden] taken after some layer.

    GPT-2 / Llama / Qwen: the final norm (ln_f / norm), then lm_head (no bias).  BERT / RoBERTa /
    DistilBERT (post-norm: a layer's output is already normalised): the MLM head, dense ->
    activation -> LayerNorm -> decoder + bias, with BERT's config.hidden_act, RoBERTa's fixed
    erf GELU, DistilBERT's config.activation, and LayerNorm eps layer_norm_eps (BERT, RoBERTa) or
    1e-12 (DistilBERT, hard-coded).  On the last layer's output this is the model's logits."""
    family = config["model_type"]
    with torch.no_grad():
        if family == "gpt2":
            return F.linear(layer_norm(x, P, "ln_f", config["layer_norm_epsilon"]), head["decoder.weight"])
        if family in ROTARY_FAMILIES:
            return F.linear(rms_norm(x, P["norm.weight"], config["rms_norm_eps"]), head["decoder.weight"])
        if family == "bert":
            act, eps = activation(config["hidden_act"]), config["layer_norm_eps"]
        elif family == "roberta":
            act, eps = F.gelu, config["layer_norm_eps"]
        else:
            act, eps = activation(config["activation"]), 1e-12
        h = act(F.linear(x, head["dense.weight"], head["dense.bias"]))
        h = F.layer_norm(h, h.shape[-1:], head["norm.weight"], head["norm.bias"], eps)
        return F.linear(h, head["decoder.weight"], head["decoder.bias"])


class Model:
    """A checkpoint made ready once: its base-model params and its head (None without one)."""

    def __init__(self, config, state, dtype=torch.float64):
        self.config = config
        self.params = to_params(state, config["model_type"], dtype)
        self.kind = lm_head_kind(config, state)
        self.head = lm_head_params(config, state, self.params, dtype)
        self.num_heads = (config.get("num_attention_heads") or config.get("n_heads")
                          or config["n_head"])
        self.num_layers = (config.get("num_hidden_layers") or config.get("n_layers")
                           or config["n_layer"])

    def run(self, ids, token_type_ids=None, heads=None, lens=False):
        """{"attentions", "hidden_states", "layer_outputs" (each layer's output before any final
        norm), "logits" [L, V] (with a head), and with lens=True "lens" [layers, L, V]: lm_logits
        after each layer}."""
        outs = []
        attentions, hidden = forward(self.config, None, ids, token_type_ids, params=self.params,
                                     heads=heads, layer_outputs=outs)
        r = {"attentions": attentions, "hidden_states": hidden, "layer_outputs": outs}
        if self.head is not None:
            r["logits"] = lm_logits(self.config, self.params, self.head, outs[-1])
            if lens:
                r["lens"] = torch.stack([lm_logits(self.config, self.params, self.head, x) for x in outs])
        return r


def ablation(pairs, mode):
    """A `heads` function that ablates the heads (layer, head) of `pairs`: "zero" sets the head's
    output [L, head_dim] to 0; "mean" replaces it at every position by its mean over the
    sequence's positions (all L, for causal models too)."""
    if mode not in ("zero", "mean"):
        raise ValueError(mode)

    def hook(layer, ctx):
        hs = [h for l, h in pairs if l == layer]
        if not hs:
            return ctx
        out = ctx.clone()
        for h in hs:
            out[h] = 0.0 if mode == "zero" else ctx[h].mean(0, keepdim=True).expand_as(ctx[h])
        return out
    return hook


def recorder(store):
    """A `heads` function that keeps every layer's head outputs in `store` (a list) and changes
    nothing."""
    def hook(layer, ctx):
        store.append(ctx.clone())
        return ctx
    return hook


def patcher(clean, pairs):
    """A `heads` function for activation patching: the heads (layer, head) of `pairs` read the
    clean run's outputs `clean` (recorder's list) at every position."""
    def hook(layer, ctx):
        hs = [h for l, h in pairs if l == layer]
        if not hs:
            return ctx
        out = ctx.clone()
        for h in hs:
            out[h] = clean[layer][h]
        return out
    return hook


def logit_difference(logits, target, distractor, position=-1):
    """The patching metric: logit[target] - logit[distractor] at `position` (-1: the last)."""
    return float(logits[position, target] - logits[position, distractor])


def eos_ids(config):
    e = config.get("eos_token_id")
    return set() if e is None else {e} if isinstance(e, int) else set(e)


def greedy_generate(model, prompt_ids, max_new_tokens):
    """Greedy decoding as transformers' generate(do_sample=False) without a cache: the whole
    sequence recomputed each step, the argmax of the last position's logits appended, stopping
    after max_new_tokens or after a token of config.eos_token_id (which is kept).  Returns (new
    ids, [steps, V] next-token logits of each step, "eos" or "length")."""
    ids, steps = list(prompt_ids), []
    stop = eos_ids(model.config)
    for _ in range(max_new_tokens):
        logits = model.run(ids)["logits"][-1]
        steps.append(logits)
        nxt = int(torch.argmax(logits))
        ids.append(nxt)
        if nxt in stop:
            return ids[len(prompt_ids):], torch.stack(steps), "eos"
    return ids[len(prompt_ids):], torch.stack(steps), "length"
