#!/usr/bin/python3
"""Trains the three small models AttnViz ships in resources/models/, so that the first launch
shows heads that learned something, offline.

    /usr/bin/python3 tools/train_models.py                 # all three -> resources/models/
    /usr/bin/python3 tools/train_models.py --only attn-only-2l --steps 300 --out /tmp/models

Needs Debian's python3-torch and python3-numpy, and the text of the packages `fortunes`
(English) and `fortunes-zh` (Chinese); nothing is downloaded.  Deterministic from --seed: the
same machine writes the same bytes (another CPU's float kernels may change the last bits).
About 15 minutes on 2 cores.

The models (both character-level, both in Hugging Face layout: config.json, model.safetensors,
tokenizer.json, tokenizer_config.json, plus scores.json with what this script measured):

- attn-only-2l: LlamaForCausalLM with intermediate_size 0, i.e. a 2-layer attention-only
  transformer (rotary positions, 8 heads of 16 dimensions), on English fortunes.  The textbook
  setting in which induction heads form (Elhage et al. 2021, Olsson et al. 2022).  Half of its
  training sequences contain a passage repeated from earlier in the sequence, as quotations
  and refrains do in real text: copying it is what an induction head does.
- char-zh-en-4l: GPT2LMHeadModel, 4 layers with MLPs, 4 heads of 32 dimensions, on Chinese
  poetry and prose and English fortunes; its vocabulary is every character seen at least 4
  times, so it covers both languages.
- attn-only-zh-en-2l: attn-only-2l taught Chinese, so that a Chinese classroom sees induction
  and previous-token heads: it starts from attn-only-2l's weights, its vocabulary is
  attn-only-2l's followed by the 1,000 most common other characters of the Chinese text, and
  most of its training sequences end with a random string repeated, of Chinese characters or
  of English letters and digits.  scores.json's "classroom" holds its induction scores on such
  strings and its previous-token scores on held-out Chinese text.

Both tokenizers are tokenizer.json files that Hugging Face's `tokenizers` reads: a BPE without
merges and without a pre-tokenizer (each character is one token, unknown characters <unk>),
with a TemplateProcessing that starts every text with <|bos|>.

After training, the script reads each folder back with tests/golden/models/hf_reference.py
(the plain-torch re-implementation of transformers' forward the engine's tests use), checks
that its maps equal the training model's, and measures on those maps:
- validation loss (nats per character) against a unigram baseline;
- every head's previous-token score (mean weight on the token before) on validation text;
- every head's sink score (mean weight on <|bos|>) on validation text;
- every head's induction score on <|bos|> + R + R, R a random sequence of 50 tokens drawn from
  the ids the engine's probe uses: the mean weight a query in the second copy puts on the
  token after its earlier occurrence (random attention gives about 1/L).
"""
import argparse
import ctypes
import json
import math
import os
import sys
import time

# OpenBLAS's own threads (numpy's and torch's), on top of torch's, spin against them on 2
# cores: a step took 10x longer.  torch parallelises the operations itself.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden", "models"))
import safetensors_lite  # noqa: E402
import hf_reference  # noqa: E402

from fortune_texts import CHINESE_FILES, ENGLISH_FILES, split_documents  # noqa: E402

BOS, UNK = "<|bos|>", "<unk>"

# Texts the tests and the examples use (the examples' sessions are written by this script too).
DEMO = {
    # The whole model step by step (char-zh-en-4l, the shipped model with MLPs).
    "one_token": "Thank yo",
    "temperature": "Once upon a ti",
    # A string no training text holds, said twice: the attention-only model's induction heads
    # are sharp on such strings (its training repeats random ones) and weaker on plain English,
    # whose next character its other heads predict well enough.
    "induction": "zK8&pW3!rT6~bN1^ zK8&pW3!rT6~bN1^",
    "previous": "The quick brown fox jumps over the lazy dog.",
    # The bilingual model's sink heads are clearest on Chinese verse (on mixed English text
    # the same heads spread out): Meng Haoran's "Spring Dawn".
    "sink": "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。",
    "poetry": "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
    # For the attention-only bilingual model: 30 random characters said twice, drawn (seed 23)
    # from the 500 most common Chinese characters of its training text, and from English
    # letters and digits; and held-out Chinese text (every 20th document is held out): three
    # sayings of the Analects and a line of Li Bai, all in the model's vocabulary.
    "induction_zh": 2 * "道服曰保窗条上全调须统示清识件及模如大据焉疾东广如使过台年居",
    "induction_en": 2 * "5Th7nPkBB0rPWnT862ZCKs9jg4N8Wm",
    # The knock-out example: 30 random letters and digits said twice (no space between, as
    # the training strings repeat), whose second copy the intact attention-only model gets
    # right character by character.
    "knockout": 2 * "q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Q",
    # The logit-lens examples: a sentence of the English model's kind, and Wang Zhihuan's
    # "On the Stork Tower" for the 4-layer bilingual model.
    "lens": "Early to bed and early to rise makes a man healthy and wise.",
    "lens_zh": "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
    "held_out_zh": "子曰：“君子周而不比，小人比而不周。”\n或曰：“以德报怨，何如？”子曰：“何以报德？"
                   "以直报怨，以德报德。”\n子曰：“过而不改，是谓过矣。”\n五月天山雪，无花只有寒。",
}


# ---------------------------------------------------------------------------------------------
# Text


class CharTokenizer:
    """<|bos|>, <unk>, then one token per character."""

    def __init__(self, chars):
        self.vocab = [BOS, UNK] + list(chars)
        self.ids = {t: i for i, t in enumerate(self.vocab)}

    def encode(self, text, bos=True):
        unk = self.ids[UNK]
        ids = [self.ids.get(c, unk) for c in text]
        return [self.ids[BOS]] + ids if bos else ids

    def write(self, folder, max_length):
        vocab = {t: i for i, t in enumerate(self.vocab)}
        special = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False,
                    "rstrip": False, "normalized": False, "special": True} for t in (BOS, UNK)]
        bos = {"SpecialToken": {"id": BOS, "type_id": 0}}
        tok = {
            "version": "1.0", "truncation": None, "padding": None, "added_tokens": special,
            "normalizer": None, "pre_tokenizer": None,
            "post_processor": {
                "type": "TemplateProcessing",
                "single": [bos, {"Sequence": {"id": "A", "type_id": 0}}],
                "pair": [bos, {"Sequence": {"id": "A", "type_id": 0}},
                         {"SpecialToken": {"id": BOS, "type_id": 1}},
                         {"Sequence": {"id": "B", "type_id": 1}}],
                "special_tokens": {BOS: {"id": BOS, "ids": [vocab[BOS]], "tokens": [BOS]}}},
            "decoder": None,
            "model": {"type": "BPE", "dropout": None, "unk_token": UNK,
                      "continuing_subword_prefix": None, "end_of_word_suffix": None,
                      "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                      "vocab": vocab, "merges": []},
        }
        dump_json(os.path.join(folder, "tokenizer.json"), tok)
        dump_json(os.path.join(folder, "tokenizer_config.json"), {
            "tokenizer_class": "PreTrainedTokenizerFast", "bos_token": BOS, "unk_token": UNK,
            "model_max_length": max_length, "clean_up_tokenization_spaces": False})


def dump_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


class Sampler:
    """Training sequences of `length` ids: <|bos|> then documents from a random one on, joined
    by blank lines.  `repeat`: the probability that a sequence gets a passage of 8-48
    characters copied from its first half to a later place.  `random_repeat`: the probability
    that, after some text, a string of 10-60 random characters (`random_ids`) follows, repeated
    until the end: induction heads form on natural text too, but only after far more training
    than 20 minutes of a CPU allow."""

    def __init__(self, tokenizer, groups, length, rng, repeat=0.0, random_repeat=0.0,
                 random_ids=()):
        self.length, self.rng, self.repeat = length, rng, repeat
        # One alphabet per script (Chinese characters, English letters and digits), each
        # string drawn from one of them, picked equally.
        self.random_repeat, self.random_ids = random_repeat, list(random_ids)
        self.bos = tokenizer.ids[BOS]
        self.groups = []
        for docs in groups:  # a stream per language, sampled equally
            stream = tokenizer.encode("\n\n".join(docs), bos=False)
            self.groups.append(np.asarray(stream, dtype=np.int64))

    def batch(self, n):
        out = np.empty((n, self.length), dtype=np.int64)
        for b in range(n):
            stream = self.groups[self.rng.randint(len(self.groups))]
            start = self.rng.randint(len(stream) - self.length)
            seq = stream[start:start + self.length - 1].copy()
            draw = self.rng.rand()
            if draw < self.random_repeat:
                m = self.rng.randint(10, 61)
                alphabet = self.random_ids[0] if len(self.random_ids) == 1 else \
                    self.random_ids[self.rng.randint(len(self.random_ids))]
                once = self.rng.choice(alphabet, size=m)
                at = self.rng.randint(0, len(seq) - 2 * m)
                reps = (len(seq) - at + m - 1) // m
                seq[at:] = np.tile(once, reps)[: len(seq) - at]
            elif draw < self.random_repeat + self.repeat:
                m = self.rng.randint(8, 49)
                src = self.rng.randint(0, len(seq) // 2 - m)
                dst = self.rng.randint(src + m, len(seq) - m + 1)
                seq[dst:dst + m] = seq[src:src + m]
            out[b, 0] = self.bos
            out[b, 1:] = seq
        return torch.from_numpy(out)


# ---------------------------------------------------------------------------------------------
# The two architectures, written to give exactly transformers' eager forward (checked after
# training against hf_reference.py)


def causal_attention(q, k, v):
    """q, k, v: [B, H, T, d].  Returns (context [B, T, H*d], probabilities [B, H, T, T])."""
    T, d = q.shape[2], q.shape[3]
    scores = q @ k.transpose(-1, -2) * d ** -0.5
    mask = torch.ones(T, T, dtype=torch.bool).triu(1)
    probs = scores.masked_fill(mask, float("-inf")).softmax(-1)
    ctx = (probs @ v).transpose(1, 2).reshape(q.shape[0], T, -1)
    return ctx, probs


class RMSNorm(nn.Module):
    def __init__(self, n, eps):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(n)), eps

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class AttentionOnlyLlama(nn.Module):
    """LlamaForCausalLM with intermediate_size 0: x + attn(input_layernorm(x)) per layer."""

    def __init__(self, vocab, hidden, layers, heads, max_len, theta=10000.0, eps=1e-5, bias=True):
        super().__init__()
        self.heads, self.d, self.eps, self.theta = heads, hidden // heads, eps, theta
        self.bias = bias
        self.max_len, self.hidden, self.vocab = max_len, hidden, vocab
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList()
        for _ in range(layers):
            layer = nn.Module()
            layer.input_layernorm = RMSNorm(hidden, eps)
            for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
                setattr(layer, name, nn.Linear(hidden, hidden, bias=bias))
            self.layers.append(layer)
        self.norm = RMSNorm(hidden, eps)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.02)
        for layer in self.layers:
            for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
                if getattr(layer, name).bias is not None:
                    nn.init.zeros_(getattr(layer, name).bias)

    def forward(self, ids, want_probs=False):
        B, T = ids.shape
        inv = 1.0 / self.theta ** (torch.arange(0, self.d, 2, dtype=torch.float32) / self.d)
        freqs = torch.outer(torch.arange(T, dtype=torch.float32), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        x = self.embed_tokens(ids)
        maps = []
        for layer in self.layers:
            h = layer.input_layernorm(x)
            q, k, v = (getattr(layer, n)(h).view(B, T, self.heads, self.d).transpose(1, 2)
                       for n in ("q_proj", "k_proj", "v_proj"))
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
            ctx, probs = causal_attention(q, k, v)
            if want_probs:
                maps.append(probs)
            x = x + layer.o_proj(ctx)
        return self.lm_head(self.norm(x)), maps

    def config(self):
        return {
            "architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "vocab_size": self.vocab, "hidden_size": self.hidden, "intermediate_size": 0,
            "num_hidden_layers": len(self.layers), "num_attention_heads": self.heads,
            "num_key_value_heads": self.heads, "head_dim": self.d, "hidden_act": "silu",
            "max_position_embeddings": self.max_len, "rms_norm_eps": self.eps,
            "rope_theta": self.theta, "rope_scaling": None, "attention_bias": self.bias,
            "attention_dropout": 0.0, "mlp_bias": False, "tie_word_embeddings": False,
            "bos_token_id": 0, "eos_token_id": 0, "initializer_range": 0.02,
            "torch_dtype": "float32", "use_cache": True}

    def hf_state(self):
        """The state dict as save_pretrained names it, the MLP's zero-size tensors included."""
        E = self.hidden
        s = {"model.embed_tokens.weight": self.embed_tokens.weight,
             "model.norm.weight": self.norm.weight, "lm_head.weight": self.lm_head.weight}
        for i, layer in enumerate(self.layers):
            p = f"model.layers.{i}."
            s[p + "input_layernorm.weight"] = layer.input_layernorm.weight
            for n in ("q_proj", "k_proj", "v_proj", "o_proj"):
                s[p + f"self_attn.{n}.weight"] = getattr(layer, n).weight
                if self.bias:
                    s[p + f"self_attn.{n}.bias"] = getattr(layer, n).bias
            s[p + "post_attention_layernorm.weight"] = torch.ones(E)
            s[p + "mlp.gate_proj.weight"] = torch.zeros(0, E)
            s[p + "mlp.up_proj.weight"] = torch.zeros(0, E)
            s[p + "mlp.down_proj.weight"] = torch.zeros(E, 0)
        return s


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


class Gpt2(nn.Module):
    """GPT2LMHeadModel: learned positions, pre-LayerNorm, gelu_new MLP, tied lm_head."""

    def __init__(self, vocab, hidden, layers, heads, inner, max_len, eps=1e-5):
        super().__init__()
        self.heads, self.d, self.eps = heads, hidden // heads, eps
        self.vocab, self.hidden, self.inner, self.max_len = vocab, hidden, inner, max_len
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_len, hidden)
        self.h = nn.ModuleList()
        for _ in range(layers):
            b = nn.Module()
            b.ln_1, b.ln_2 = nn.LayerNorm(hidden, eps=eps), nn.LayerNorm(hidden, eps=eps)
            b.c_attn, b.attn_proj = nn.Linear(hidden, 3 * hidden), nn.Linear(hidden, hidden)
            b.c_fc, b.mlp_proj = nn.Linear(hidden, inner), nn.Linear(inner, hidden)
            self.h.append(b)
        self.ln_f = nn.LayerNorm(hidden, eps=eps)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                # GPT-2's init: residual projections scaled by 1/sqrt(2 * layers)
                std = 0.02 / math.sqrt(2 * layers) if name.endswith("proj.weight") else 0.02
                nn.init.normal_(p, std=std)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def forward(self, ids, want_probs=False):
        B, T = ids.shape
        x = self.wte(ids) + self.wpe(torch.arange(T))
        maps = []
        for b in self.h:
            q, k, v = b.c_attn(b.ln_1(x)).split(self.hidden, dim=-1)
            q, k, v = (t.view(B, T, self.heads, self.d).transpose(1, 2) for t in (q, k, v))
            ctx, probs = causal_attention(q, k, v)
            if want_probs:
                maps.append(probs)
            x = x + b.attn_proj(ctx)
            x = x + b.mlp_proj(gelu_new(b.c_fc(b.ln_2(x))))
        return self.ln_f(x) @ self.wte.weight.T, maps

    def config(self):
        return {
            "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2",
            "vocab_size": self.vocab, "n_positions": self.max_len, "n_embd": self.hidden,
            "n_layer": len(self.h), "n_head": self.heads, "n_inner": self.inner,
            "activation_function": "gelu_new", "resid_pdrop": 0.0, "embd_pdrop": 0.0,
            "attn_pdrop": 0.0, "layer_norm_epsilon": self.eps, "initializer_range": 0.02,
            "scale_attn_weights": True, "scale_attn_by_inverse_layer_idx": False,
            "reorder_and_upcast_attn": False, "bos_token_id": 0, "eos_token_id": 0,
            "tie_word_embeddings": True, "torch_dtype": "float16", "use_cache": True}

    def hf_state(self):
        """GPT-2's Conv1D layout: weights stored [in, out]; lm_head left out (tied)."""
        s = {"transformer.wte.weight": self.wte.weight, "transformer.wpe.weight": self.wpe.weight,
             "transformer.ln_f.weight": self.ln_f.weight, "transformer.ln_f.bias": self.ln_f.bias}
        for i, b in enumerate(self.h):
            p = f"transformer.h.{i}."
            for name, mod in (("ln_1", b.ln_1), ("ln_2", b.ln_2)):
                s[p + name + ".weight"], s[p + name + ".bias"] = mod.weight, mod.bias
            for name, mod in (("attn.c_attn", b.c_attn), ("attn.c_proj", b.attn_proj),
                              ("mlp.c_fc", b.c_fc), ("mlp.c_proj", b.mlp_proj)):
                s[p + name + ".weight"], s[p + name + ".bias"] = mod.weight.T, mod.bias
        return s


# ---------------------------------------------------------------------------------------------
# Training


def train(model, sampler, steps, batch, lr, log_every=100, probe=None):
    """AdamW with warm-up and a cosine decay to a tenth.  `probe(model)`, if given, returns a
    short string logged with the loss (the heads' scores: induction heads appear abruptly)."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95), weight_decay=0.01)
    warmup = max(1, steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup) * (
        0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, s / steps)))))
    model.train()
    start, running = time.time(), []
    for step in range(steps):
        ids = sampler.batch(batch)
        logits, _ = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        running.append(loss.item())
        if (step + 1) % log_every == 0 or step + 1 == steps:
            extra = ""
            if probe is not None and ((step + 1) % (4 * log_every) == 0 or step + 1 == steps):
                model.eval()
                extra = "  " + probe(model)
                model.train()
            print(f"  step {step + 1:5d}/{steps}  loss {np.mean(running):.3f}  "
                  f"{time.time() - start:6.0f} s{extra}", flush=True)
            running = []
    model.eval()
    return time.time() - start


# ---------------------------------------------------------------------------------------------
# Saving and measuring


def save_folder(model, tokenizer, folder, dtype):
    os.makedirs(folder, exist_ok=True)
    tensors = {}
    for name, t in model.hf_state().items():
        a = t.detach().contiguous().numpy().astype(np.float32)
        tensors[name] = a.astype(np.float16) if dtype == "float16" else a
    safetensors_lite.save_file(tensors, os.path.join(folder, "model.safetensors"),
                               metadata={"format": "pt"})
    dump_json(os.path.join(folder, "config.json"), model.config())
    tokenizer.write(folder, model.max_len)


def reference_maps(folder, ids):
    """[layers, heads, L, L] float64 maps of hf_reference's forward of the folder as written."""
    config, state = hf_reference.load_folder(folder)
    attentions, _ = hf_reference.forward(config, state, ids)
    return torch.stack(attentions)


def load_rounded(model, folder):
    """The training model with the weights as the folder holds them (F16 rounding included)."""
    _, state = hf_reference.load_folder(folder)
    with torch.no_grad():
        for name, t in model.hf_state().items():
            if t.numel() and t.requires_grad:
                a = torch.from_numpy(np.asarray(state[name], dtype=np.float32))
                t.copy_(a.T if t.shape != a.shape else a)


def induction_ids(vocab, rng, period=50):
    """<|bos|> + R + R with R drawn from [min(vocab / 4, 256), vocab): the engine's probe."""
    low = min(vocab // 4, 256)
    once = rng.randint(low, vocab, size=period)
    return np.concatenate([[0], once, once]).astype(np.int64)


def measure(model, tokenizer, val_docs, seed):
    """scores.json's figures, from the model's own maps (checked against hf_reference first)."""
    rng = np.random.RandomState(seed + 1)
    with torch.no_grad():
        # Validation loss over held-out documents, and the unigram baseline (train counts,
        # add-one smoothed) on the same predicted tokens.
        total, count, seqs = 0.0, 0, []
        for doc in val_docs:
            ids = tokenizer.encode(doc)[: model.max_len]
            if len(ids) < 8:
                continue
            seqs.append(ids)
            logits, _ = model(torch.tensor([ids[:-1]]))
            total += F.cross_entropy(logits[0], torch.tensor(ids[1:]), reduction="sum").item()
            count += len(ids) - 1
        prev = first = None
        for ids in seqs[:200]:
            _, maps = model(torch.tensor([ids]), want_probs=True)
            m = torch.stack([p[0] for p in maps])  # [layers, heads, L, L]
            L = m.shape[-1]
            pv = m[:, :, torch.arange(1, L), torch.arange(0, L - 1)].mean(-1)
            fs = m[:, :, 1:, 0].mean(-1)
            prev = pv if prev is None else prev + pv
            first = fs if first is None else first + fs
        n = min(len(seqs), 200)
        prev, first = prev / n, first / n
        induction = None
        for _ in range(8):
            ids = induction_ids(model.vocab, rng)
            _, maps = model(torch.from_numpy(ids)[None], want_probs=True)
            m = torch.stack([p[0] for p in maps])
            L, period = len(ids), (len(ids) - 1) // 2
            rows = torch.arange(1 + period, L)
            score = m[:, :, rows, rows - period + 1].mean(-1)
            induction = score if induction is None else induction + score
        induction = induction / 8
    return total / count, count, prev, first, induction


def head_probe(tokenizer, text, seed):
    """A probe for train(): the best induction score on two <|bos|> + R + R sequences and the
    best layer-1 previous-token score on `text`."""
    rng = np.random.RandomState(seed)
    sequences = [torch.from_numpy(induction_ids(len(tokenizer.vocab), rng))[None]
                 for _ in range(2)]
    ids = torch.tensor([tokenizer.encode(text)])

    def probe(model):
        with torch.no_grad():
            induction = 0.0
            for seq in sequences:
                _, maps = model(seq, want_probs=True)
                m = torch.stack([p[0] for p in maps])
                L, period = seq.shape[1], (seq.shape[1] - 1) // 2
                rows = torch.arange(1 + period, L)
                induction = induction + m[:, :, rows, rows - period + 1].mean(-1) / 2
            _, maps = model(ids, want_probs=True)
            L = ids.shape[1]
            prev = maps[0][0][:, torch.arange(1, L), torch.arange(0, L - 1)].mean(-1)
        return f"induction {float(induction.max()):.3f}  previous-token {float(prev.max()):.3f}"
    return probe


def chinese_ids(tokenizer, count=None):
    """The ids of the Chinese characters (CJK ideographs) of `tokenizer`, the most common first
    (the vocabulary is ordered by frequency); the first `count` of them if given."""
    ids = [i for i, t in enumerate(tokenizer.vocab) if len(t) == 1 and "\u4e00" <= t <= "\u9fff"]
    return np.asarray(ids[:count], dtype=np.int64)


def alnum_ids(tokenizer):
    """The ids of the English letters and digits."""
    chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return np.asarray([tokenizer.ids[c] for c in chars], dtype=np.int64)


def induction_table(model, ids, period):
    """[layers, heads]: the mean weight a query of the second copy in `ids` (<|bos|> then a
    string of `period` tokens twice) puts on the token after its earlier occurrence."""
    _, maps = model(torch.as_tensor(ids)[None], want_probs=True)
    m = torch.stack([p[0] for p in maps])
    rows = torch.arange(1 + period, len(ids))
    return m[:, :, rows, rows - period + 1].mean(-1)


def previous_table(model, sequences):
    """[layers, heads]: the mean weight on the token just before, over `sequences`."""
    total = None
    for ids in sequences:
        _, maps = model(torch.as_tensor(ids)[None], want_probs=True)
        m = torch.stack([p[0] for p in maps])
        L = m.shape[-1]
        pv = m[:, :, torch.arange(1, L), torch.arange(0, L - 1)].mean(-1)
        total = pv if total is None else total + pv
    return total / len(sequences)


class ClassroomProbe:
    """What a Chinese classroom needs to see in the attention-only bilingual model, measured
    on the training model: the induction score on <|bos|> + R + R with R 50 random characters
    among the 500 most common Chinese ones, the same with R from English letters and digits
    (`draws` draws each), and the previous-token score on held-out Chinese documents (the
    first `docs`, at most 256 characters each)."""

    def __init__(self, tokenizer, zh_val, seed, draws=8, docs=200, period=50):
        rng = np.random.RandomState(seed)
        self.period = period
        self.alphabets = {"chinese": chinese_ids(tokenizer, 500), "english": alnum_ids(tokenizer)}
        self.sequences = {}
        for name, alphabet in self.alphabets.items():
            self.sequences[name] = []
            for _ in range(draws):
                once = rng.choice(alphabet, size=period)
                self.sequences[name].append(
                    np.concatenate([[tokenizer.ids[BOS]], once, once]).astype(np.int64))
        self.held_out = [ids for ids in (tokenizer.encode(d)[:256] for d in zh_val)
                         if len(ids) >= 8][:docs]

    def tables(self, model):
        with torch.no_grad():
            out = {f"induction_{name}": sum(induction_table(model, ids, self.period)
                                            for ids in seqs) / len(seqs)
                   for name, seqs in self.sequences.items()}
            out["previous_token_chinese"] = previous_table(model, self.held_out)
        return out

    def __call__(self, model):
        return "  ".join(f"{k} {float(v.max()):.3f}" for k, v in self.tables(model).items())


def unigram_loss(tokenizer, train_docs, val_docs, max_len):
    counts = np.ones(len(tokenizer.vocab))
    for doc in train_docs:
        np.add.at(counts, tokenizer.encode(doc, bos=False), 1)
    logp = np.log(counts / counts.sum())
    total, count = 0.0, 0
    for doc in val_docs:
        ids = tokenizer.encode(doc)[:max_len]
        if len(ids) < 8:
            continue
        total -= logp[ids[1:]].sum()
        count += len(ids) - 1
    return total / count


def best(table, layers=None):
    t = table if layers is None else table[layers]
    flat = int(torch.argmax(t))
    layer, head = divmod(flat, t.shape[1])
    if layers is not None:
        layer += layers.start or 0
    return {"layer": layer + 1, "head": head + 1, "score": round(float(table[layer, head]), 4)}


def check_against_reference(model, folder, tokenizer):
    """The folder read back by hf_reference.py gives the training model's maps."""
    load_rounded(model, folder)
    worst = 0.0
    for text in DEMO.values():
        ids = tokenizer.encode(text)
        with torch.no_grad():
            _, maps = model(torch.tensor([ids]), want_probs=True)
        mine = torch.stack([p[0] for p in maps]).double()
        worst = max(worst, float((mine - reference_maps(folder, ids)).abs().max()))
    if worst > 1e-4:
        sys.exit(f"train_models: {folder}: the maps differ from hf_reference.py's by {worst:.2g}")
    return worst


def finish(name, model, tokenizer, folder, train_docs, val_docs, seed, seconds, dtype, data,
           classroom=None):
    save_folder(model, tokenizer, folder, dtype)
    worst = check_against_reference(model, folder, tokenizer)
    loss, count, prev, first, induction = measure(model, tokenizer, val_docs, seed)
    uni = unigram_loss(tokenizer, train_docs, val_docs, model.max_len)
    scores = {
        "model": name,
        "seed": seed,
        "training_seconds": round(seconds),
        "torch": torch.__version__,
        "data": data,
        "validation": {"characters": count, "loss_nats_per_char": round(loss, 4),
                       "unigram_loss_nats_per_char": round(uni, 4),
                       "bits_per_char": round(loss / math.log(2), 4)},
        "best_induction_head": best(induction),
        "best_previous_token_head_layer_1": best(prev, slice(0, 1)),
        "best_sink_head": best(first),
        "heads": {"induction": induction.numpy().round(4).tolist(),
                  "previous_token": prev.numpy().round(4).tolist(),
                  "sink": first.numpy().round(4).tolist()},
        "reference_check_max_abs_diff": float(f"{worst:.2g}"),
        "classroom": None if classroom is None else {
            "about": "induction on <|bos|> + R + R, R 50 random characters among the 500 most "
                     "common Chinese ones, or among English letters and digits (8 draws each); "
                     "previous token on held-out Chinese documents",
            **{k: {"best": best(v), "heads": v.numpy().round(4).tolist()}
               for k, v in classroom.tables(model).items()}},
        "size_bytes": sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)),
    }
    if classroom is None:
        del scores["classroom"]
    dump_json(os.path.join(folder, "scores.json"), scores)
    print(json.dumps({k: v for k, v in scores.items() if k not in ("heads", "classroom")},
                     ensure_ascii=False))
    if classroom is not None:
        print(json.dumps({k: v["best"] for k, v in scores["classroom"].items() if k != "about"}))
    return scores


def run_attn_only(out, seed, steps):
    torch.manual_seed(seed)
    rng = np.random.RandomState(seed)
    train_docs, val_docs = split_documents(ENGLISH_FILES)
    chars = ["\n"] + [chr(c) for c in range(32, 127)]
    tok = CharTokenizer(chars)
    model = AttentionOnlyLlama(len(tok.vocab), hidden=128, layers=2, heads=8, max_len=512)
    # The printable characters other than the space: the engine's probe draws from ids
    # vocab/4 and up, this covers them.
    printable = np.arange(tok.ids["!"], len(tok.vocab))
    sampler = Sampler(tok, [train_docs], length=129, rng=rng, repeat=0.2, random_repeat=0.5,
                      random_ids=[printable])
    print(f"attn-only-2l: {sum(p.numel() for p in model.parameters())} parameters, "
          f"{sum(map(len, train_docs))} training characters")
    seconds = train(model, sampler, steps, batch=32, lr=3e-3,
                    probe=head_probe(tok, DEMO["previous"] + " " + val_docs[3], seed + 7))
    return finish("attn-only-2l", model, tok, os.path.join(out, "attn-only-2l"), train_docs,
                  val_docs, seed, seconds, "float32",
                  {"package": "fortunes", "files": ENGLISH_FILES, "licence": "BSD (fortune-mod)"})


def run_char_zh_en(out, seed, steps):
    torch.manual_seed(seed + 100)
    rng = np.random.RandomState(seed + 100)
    en_train, en_val = split_documents(ENGLISH_FILES)
    zh_train, zh_val = split_documents(CHINESE_FILES)
    counts = {}
    for doc in en_train + zh_train:
        for c in doc:
            counts[c] = counts.get(c, 0) + 1
    # Every character seen 4 times or more, the printable ASCII ones always; by frequency.
    ascii_chars = {"\n"} | {chr(c) for c in range(32, 127)}
    chars = sorted((c for c, n in counts.items() if n >= 4 or c in ascii_chars),
                   key=lambda c: (-counts.get(c, 0), c))
    chars += sorted(ascii_chars - set(chars))
    tok = CharTokenizer(chars)
    model = Gpt2(len(tok.vocab), hidden=128, layers=4, heads=4, inner=512, max_len=256)
    sampler = Sampler(tok, [en_train, zh_train], length=129, rng=rng)
    print(f"char-zh-en-4l: {sum(p.numel() for p in model.parameters())} parameters, "
          f"vocabulary {len(tok.vocab)}")
    seconds = train(model, sampler, steps, batch=24, lr=3e-3,
                    probe=head_probe(tok, DEMO["poetry"] + DEMO["sink"], seed + 7))
    return finish("char-zh-en-4l", model, tok, os.path.join(out, "char-zh-en-4l"),
                  en_train + zh_train, en_val + zh_val, seed, seconds, "float16",
                  [{"package": "fortunes", "files": ENGLISH_FILES, "licence": "BSD (fortune-mod)"},
                   {"package": "fortunes-zh", "files": CHINESE_FILES, "licence": "GPL-3.0+"}])


def warm_start(model, folder, alphabet, rng):
    """Copies a trained attention-only model's weights into `model`, whose vocabulary begins
    with the same tokens: the shared rows of the embedding and the output layer, and every
    other weight.  Each new character starts as a distinct pair of the old `alphabet`'s
    characters (its rows the pair's sum over √2, of the same scale), so that the induction
    circuit already there matches and copies it from the first step, as it would the pair."""
    _, state = hf_reference.load_folder(folder)
    pairs = [(a, b) for k, a in enumerate(alphabet) for b in alphabet[k + 1:]]
    order = rng.permutation(len(pairs))
    with torch.no_grad():
        for name, t in model.hf_state().items():
            if not (t.numel() and t.requires_grad):
                continue
            a = torch.from_numpy(np.asarray(state[name], dtype=np.float32))
            if a.shape == t.shape:
                t.copy_(a)
                continue
            n = a.shape[0]  # embed_tokens, lm_head: [vocab, hidden]
            if t.shape[0] - n > len(pairs):
                sys.exit(f"train_models: {t.shape[0] - n} new characters, {len(pairs)} pairs")
            t[:n] = a
            for row in range(n, t.shape[0]):
                x, y = pairs[order[row - n]]
                t[row] = (a[x] + a[y]) / math.sqrt(2)


def run_attn_only_zh_en(out, seed, steps, chinese_chars=1000):
    """attn-only-2l taught Chinese: the same architecture, its weights as the start (its
    induction and previous-token heads are there from the first step), its vocabulary followed
    by the `chinese_chars` most common other characters of the Chinese text (94% of held-out
    Chinese characters; the rest are <unk>).  Over half of the sequences end with a random
    string repeated, drawn from those characters or from English letters and digits, so the
    heads learn to read the new characters.  Trained from scratch, the same recipe showed no
    induction head after 2,000 steps."""
    torch.manual_seed(seed + 200)
    rng = np.random.RandomState(seed + 200)
    en_train, en_val = split_documents(ENGLISH_FILES)
    zh_train, zh_val = split_documents(CHINESE_FILES)
    counts = {}
    for doc in zh_train:
        for c in doc:
            if ord(c) >= 127:
                counts[c] = counts.get(c, 0) + 1
    others = sorted(counts, key=lambda c: (-counts[c], c))[:chinese_chars]
    tok = CharTokenizer(["\n"] + [chr(c) for c in range(32, 127)] + others)
    model = AttentionOnlyLlama(len(tok.vocab), hidden=128, layers=2, heads=8, max_len=512)
    warm_start(model, os.path.join(out, "attn-only-2l"), alnum_ids(tok), rng)
    # Every non-ASCII character of the vocabulary (the engine's probe draws ids from 256 on,
    # all of them such characters), and English letters and digits.
    non_ascii = np.arange(tok.ids[others[0]], len(tok.vocab))
    sampler = Sampler(tok, [en_train, zh_train], length=129, rng=rng, repeat=0.1,
                      random_repeat=0.6, random_ids=[non_ascii, alnum_ids(tok)])
    print(f"attn-only-zh-en-2l: {sum(p.numel() for p in model.parameters())} parameters, "
          f"vocabulary {len(tok.vocab)}")
    seconds = train(model, sampler, steps, batch=32, lr=2e-3,
                    probe=ClassroomProbe(tok, zh_val, seed + 7, draws=2, docs=20))
    return finish("attn-only-zh-en-2l", model, tok, os.path.join(out, "attn-only-zh-en-2l"),
                  en_train + zh_train, en_val + zh_val, seed, seconds, "float32",
                  [{"package": "fortunes", "files": ENGLISH_FILES, "licence": "BSD (fortune-mod)"},
                   {"package": "fortunes-zh", "files": CHINESE_FILES, "licence": "GPL-3.0+"}],
                  classroom=ClassroomProbe(tok, zh_val, seed + 1))


def session(model, text, layer, view, head, knocked_out=(), tab=None):
    """An .attnviz session (version 3) that opens shipped model `model` (a folder name, which
    the app resolves in its models folder) on `text`, at `layer` (0-based), showing `view`,
    with the heads `knocked_out` ((layer, head) from 1) zero-ablated, on the window's tab
    `tab` (default: the example's own)."""
    source = {"model_folder": model, "layer": layer}
    if knocked_out:
        source["knocked_out"] = [[l - 1, h - 1, "zero"] for l, h in knocked_out]
    out = {
        "format": "attnviz-session", "version": 3, "generator": "tools/train_models.py",
        "document": {
            "source": source,
            "input": {"pair_mode": "single", "text_a": text, "text_b": "",
                      "use_token_list": False, "token_list_a": "", "token_list_b": "",
                      "lowercase": False, "special_tokens": False},
            "layer": {"embed_dim": 64, "num_heads": 4, "bias": True,
                      "scoring": "scaled_dot_product", "dropout": 0.0, "training": False,
                      "dropout_seed": 0, "weight_seed": 0, "positional_encoding": True,
                      "weights_file": ""},
            "masks": {"causal": False, "masked_keys": [], "masked_rows": "zero"},
            "figure": {"view": view, "head": head, "batch_item": 0, "colormap": "viridis",
                       "scale": "shared", "values": False, "step": -1, "step_focus": False},
        }}
    if tab:
        out["window"] = {"tab": tab}
    return out


def best_sink_on(folder, text):
    """{layer, head, score} of the head that puts the most weight on <|bos|> in `text` (the
    mean over the rows after it), from hf_reference's maps of the folder as written."""
    vocab = json.load(open(os.path.join(folder, "tokenizer.json"), encoding="utf-8"))
    vocab = vocab["model"]["vocab"]
    ids = [vocab[BOS]] + [vocab.get(c, vocab[UNK]) for c in text]
    first = reference_maps(folder, ids)[:, :, 1:, 0].mean(-1)
    return best(first)


def best_induction_on(folder, text, period=None):
    """{layer, head, score} of the head that, in the second half of `text` (a string said
    twice, separated by one character unless `period` says its length), puts the most weight on
    the token after the query's earlier occurrence."""
    vocab = json.load(open(os.path.join(folder, "tokenizer.json"), encoding="utf-8"))
    vocab = vocab["model"]["vocab"]
    ids = [vocab[BOS]] + [vocab.get(c, vocab[UNK]) for c in text]
    period = period or (len(text) + 1) // 2
    rows = torch.arange(1 + period, len(ids))
    return best(reference_maps(folder, ids)[:, :, rows, rows - period + 1].mean(-1))


def induction_heads_on(folder, text, period, threshold=0.5):
    """[(layer, head)] from 1 of every head that, in the second half of `text` (a string of
    length `period` said twice), puts at least `threshold` of its weight on the token after
    the query's earlier occurrence: the heads the knock-out example takes out."""
    vocab = json.load(open(os.path.join(folder, "tokenizer.json"), encoding="utf-8"))
    vocab = vocab["model"]["vocab"]
    ids = [vocab[BOS]] + [vocab.get(c, vocab[UNK]) for c in text]
    rows = torch.arange(1 + period, len(ids))
    score = reference_maps(folder, ids)[:, :, rows, rows - period + 1].mean(-1)
    return [(int(l) + 1, int(h) + 1) for l, h in (score >= threshold).nonzero().tolist()]


def write_examples(folder, models, attn):
    """The Examples menu's sessions on the shipped models, each on the head this run found
    best (their titles and explanations are in ui/classroom/examples.cpp)."""
    prev = attn["best_previous_token_head_layer_1"]
    ind = best_induction_on(os.path.join(models, "attn-only-2l"), DEMO["induction"])
    print(f"induction example: layer {ind['layer']} head {ind['head']}, {ind['score']}")
    sink = best_sink_on(os.path.join(models, "char-zh-en-4l"), DEMO["sink"])
    print(f"attention sink example: layer {sink['layer']} head {sink['head']}, "
          f"{sink['score']} of each row on {BOS}")
    zh = os.path.join(models, "attn-only-zh-en-2l")
    ind_zh = best_induction_on(zh, DEMO["induction_zh"], len(DEMO["induction_zh"]) // 2)
    ind_en = best_induction_on(zh, DEMO["induction_en"], len(DEMO["induction_en"]) // 2)
    print(f"Chinese induction example: layer {ind_zh['layer']} head {ind_zh['head']}, "
          f"{ind_zh['score']} (letters and digits: layer {ind_en['layer']} head "
          f"{ind_en['head']}, {ind_en['score']})")
    knocked = induction_heads_on(os.path.join(models, "attn-only-2l"), DEMO["knockout"],
                                 len(DEMO["knockout"]) // 2)
    knocked_zh = induction_heads_on(zh, DEMO["induction_zh"], len(DEMO["induction_zh"]) // 2)
    print(f"knock-out examples: {knocked} (Chinese: {knocked_zh})")
    examples = {
        "knock_out": session("attn-only-2l", DEMO["knockout"], knocked[0][0] - 1, "grid", 0,
                             knocked, "grid"),
        "knock_out_zh": session("attn-only-zh-en-2l", DEMO["induction_zh"],
                                knocked_zh[0][0] - 1, "grid", 0, knocked_zh, "grid"),
        "logit_lens": session("attn-only-2l", DEMO["lens"], 0, "grid", 0, (), "lens"),
        "logit_lens_zh": session("char-zh-en-4l", DEMO["lens_zh"], 0, "grid", 0, (), "lens"),
        "learned_heads": session("attn-only-2l", DEMO["induction"], ind["layer"] - 1, "grid", 0),
        "induction_head": session("attn-only-2l", DEMO["induction"], ind["layer"] - 1, "head",
                                  ind["head"] - 1),
        "previous_token": session("attn-only-2l", DEMO["previous"], 0, "head", prev["head"] - 1),
        "attention_sink": session("char-zh-en-4l", DEMO["sink"], sink["layer"] - 1, "head",
                                  sink["head"] - 1),
        "chinese_poetry": session("char-zh-en-4l", DEMO["poetry"], 0, "grid", 0),
        "induction_head_zh": session("attn-only-zh-en-2l", DEMO["induction_zh"],
                                     ind_zh["layer"] - 1, "head", ind_zh["head"] - 1),
    }
    # The whole model step by step, at the text's last token: a confident prediction ("u" after
    # "Thank yo", 94%), and one where the next letter is open ("m", "n", "t", "s" after "Once
    # upon a ti", 13-20% each) so the temperature visibly changes the draw.
    for name, text in (("writes_one_token", DEMO["one_token"]), ("temperature", DEMO["temperature"])):
        doc = session("char-zh-en-4l", text, 0, "grid", 0, (), "steps")
        doc["document"]["figure"].update({"whole_model": True, "temperature": 1.0, "top_k": 0,
                                          "top_p": 1.0})
        if name == "temperature":  # the layers folded: the probabilities are the point
            doc["document"]["figure"]["open_layers"] = []
        examples[name] = doc
    for name, doc in examples.items():
        dump_json(os.path.join(folder, name + ".attnviz"), doc)


def keep_freed_memory():
    """glibc returns every large freed block to the kernel, so each step's attention tensors
    (tens of MB) were page-faulted in afresh: most of a step's time on a virtual machine.
    Keeping freed memory in the heap makes a step 3-5x faster."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
    libc.mallopt(M_TRIM_THRESHOLD, (1 << 31) - 1)


def main():
    keep_freed_memory()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "resources", "models"))
    ap.add_argument("--only", choices=["attn-only-2l", "char-zh-en-4l", "attn-only-zh-en-2l"])
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--steps", type=int, default=0, help="training steps (default: each model's)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--examples", default=os.path.join(ROOT, "resources", "examples"),
                    help="where to write the example sessions ('' for nowhere)")
    ap.add_argument("--examples-only", action="store_true",
                    help="train nothing: write the example sessions for the models in --out")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    start = time.time()
    if not args.examples_only:
        if args.only in (None, "attn-only-2l"):
            run_attn_only(args.out, args.seed, args.steps or 4000)
        if args.only in (None, "char-zh-en-4l"):
            run_char_zh_en(args.out, args.seed, args.steps or 1000)
        if args.only in (None, "attn-only-zh-en-2l"):
            run_attn_only_zh_en(args.out, args.seed, args.steps or 1000)
        print(f"done in {time.time() - start:.0f} s")
    if args.examples:
        with open(os.path.join(args.out, "attn-only-2l", "scores.json"), encoding="utf-8") as f:
            attn = json.load(f)
        write_examples(args.examples, args.out, attn)


if __name__ == "__main__":
    main()
