#!/usr/bin/python3
"""Writes the model goldens: tiny random checkpoints in exact Hugging Face layout, one folder per
case, and the attention maps of hf_reference.py's float64 forward on them.

    /usr/bin/python3 tests/golden/models/make_models.py            # rewrite every case
    /usr/bin/python3 tests/golden/models/make_models.py --bench OUT # benchmark-sized, not committed

Each case folder opens as a whole model: config.json as save_pretrained writes it (sorted keys),
weights named as transformers saves the architecture in `architectures` (one file, or shards with
model.safetensors.index.json), small tokenizer files, and reference/ (see README.md).  The
reference is computed from the folder as written (read back, F16/BF16 already rounded), so the
files and the maps cannot disagree.  Everything derives from SEED: re-running rewrites the same
bytes.  Before writing anything the script checks the reference against itself and against
independent formulations (see `self_checks`), and that the maps are sensitive enough to catch a
wrong scaling, a transposed weight or a wrong rotary pairing.  Where the model has a language-model
head it also writes its logits, the logit lens, head ablation, activation patching and greedy
generation (`write_lm_reference`, with their own checks).
"""
import argparse
import json
import math
import os
import re
import shutil
import sys
import zlib

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
import hf_reference as ref  # noqa: E402
import safetensors_lite  # noqa: E402

SEED = 20240611
TRANSFORMERS_VERSION = "4.51.3"  # has all seven families (Qwen3 came in 4.51); configs as it saves them

# Init scales: q/k projections large enough that the maps are clearly non-uniform (a wrong
# scaling changes them by far more than the tests' 1e-5), everything else small.
QK_STD, W_STD, EMB_STD, BIAS_STD = 0.25, 0.08, 0.5, 0.05

# A little English for the tokenizers' merges ("common English pieces").
CORPUS = (
    "The cat sat on the mat. The dog sat on the log. Then the cat and the dog ran to the "
    "house, where the other cats were playing in the garden. There is a tree in the garden "
    "and the children are reading under it. What is the weather like? It is sunny, and the "
    "birds are singing in the trees. She said that they were going to the station in the "
    "morning, and he thought that the train would be late again.")


# ---------------------------------------------------------------------------------------------
# Small helpers


def dump_json(path, obj):
    """As save_pretrained writes JSON: indent 2, sorted keys, trailing newline."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def case_rng(name):
    return np.random.default_rng([SEED, zlib.crc32(name.encode())])


class Init:
    """Random float32 weights, drawn in a fixed order from one generator."""

    def __init__(self, rng):
        self.rng = rng

    def normal(self, std, *shape):
        return (self.rng.standard_normal(shape) * std).astype(np.float32)

    def norm_weight(self, n):  # LayerNorm/RMSNorm weight near 1
        return (1.0 + self.rng.standard_normal(n) * 0.1).astype(np.float32)

    def bias(self, n):
        return self.normal(BIAS_STD, n)

    def linear(self, state, name, n_out, n_in, std=W_STD, bias=True):
        state[name + ".weight"] = self.normal(std, n_out, n_in)
        if bias:
            state[name + ".bias"] = self.bias(n_out)

    def layer_norm(self, state, name, n):
        state[name + ".weight"] = self.norm_weight(n)
        state[name + ".bias"] = self.bias(n)


def round_to(state, dtype):
    """The weights as stored: float32 arrays, np.float16, or BF16 (`Encoded`)."""
    if dtype == "float32":
        return dict(state)
    if dtype == "float16":
        return {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in state.items()}
    if dtype == "bfloat16":
        return {k: safetensors_lite.bfloat16(v) if v.dtype == np.float32 else v for k, v in state.items()}
    raise ValueError(dtype)


def nbytes(t):
    return len(t.tobytes())


def write_weights(folder, state, shards):
    """model.safetensors, or `shards` files split in state-dict order as save_pretrained does
    (each shard filled up to about total/shards bytes) with model.safetensors.index.json."""
    meta = {"format": "pt"}
    if shards == 1:
        safetensors_lite.save_file(state, os.path.join(folder, "model.safetensors"), meta)
        return
    total = sum(nbytes(t) for t in state.values())
    parts, acc = [[]], 0
    for name, t in state.items():
        if acc >= total * len(parts) / shards and len(parts) < shards:
            parts.append([])
        parts[-1].append(name)
        acc += nbytes(t)
    weight_map = {}
    for i, names in enumerate(parts):
        file = f"model-{i + 1:05d}-of-{shards:05d}.safetensors"
        safetensors_lite.save_file({n: state[n] for n in names}, os.path.join(folder, file), meta)
        weight_map.update({n: file for n in names})
    dump_json(os.path.join(folder, "model.safetensors.index.json"),
              {"metadata": {"total_size": total}, "weight_map": weight_map})


# ---------------------------------------------------------------------------------------------
# Tokenizers


def bytes_to_unicode():
    """GPT-2's byte -> printable character table, in GPT-2's vocabulary order (the printable
    bytes first, then the others mapped to U+0100 onwards)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [(b, chr(c)) for b, c in zip(bs, cs)]


def train_bpe(words, n_merges):
    """Merges learnt greedily on {word (tuple of symbols): count}: the most frequent pair each
    time, ties to the smallest pair, so the result is deterministic."""
    words = dict(words)
    merges = []
    for _ in range(n_merges):
        pairs = {}
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + c
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append(best)
        out = {}
        for w, c in words.items():
            nw, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    nw.append(w[i] + w[i + 1])
                    i += 2
                else:
                    nw.append(w[i])
                    i += 1
            out[tuple(nw)] = out.get(tuple(nw), 0) + c
        words = out
    return merges


def byte_level_merges(n_merges=40):
    """(byte symbols in GPT-2 order, merges) learnt on CORPUS split as GPT-2's regex splits ASCII
    text (a space stays at the start of the word that follows it)."""
    table = dict(bytes_to_unicode())
    counts = {}
    for piece in re.findall(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+", CORPUS):
        w = tuple(table[b] for b in piece.encode())
        counts[w] = counts.get(w, 0) + 1
    return [c for _, c in bytes_to_unicode()], train_bpe(counts, n_merges)


def write_byte_level_vocab(folder, specials_before, specials_after):
    """vocab.json + merges.txt (GPT-2 / RoBERTa); returns {token: id}."""
    symbols, merges = byte_level_merges()
    vocab = {}
    for t in specials_before + symbols + [a + b for a, b in merges] + specials_after:
        vocab.setdefault(t, len(vocab))
    dump_json(os.path.join(folder, "vocab.json"), vocab)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    return vocab


def added_token(i, content):
    return {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": True}


QWEN_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
              r"|\s*[\r\n]+|\s+(?!\S)|\s+")
LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                r"|\s*[\r\n]+|\s+(?!\S)|\s+")


def write_byte_level_tokenizer_json(folder, specials, style):
    """tokenizer.json of a byte-level BPE: Qwen2's layout (NFC, Qwen's Split regex, ByteLevel
    without prefix space, list-form merges) or Llama 3's (no normaliser, its regex, ignore_merges,
    <|begin_of_text|> added by a TemplateProcessing).  Returns (vocab size incl. specials, ids)."""
    symbols, merges = byte_level_merges()
    vocab = {}
    for t in symbols + [a + b for a, b in merges]:
        vocab.setdefault(t, len(vocab))
    added = [added_token(len(vocab) + i, s) for i, s in enumerate(specials)]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    if style == "qwen2":
        normalizer = {"type": "NFC"}
        split = QWEN_SPLIT
        post = byte_level
        ignore_merges = False
    else:
        bos = specials[0]
        normalizer = None
        split = LLAMA3_SPLIT
        post = {"type": "Sequence", "processors": [
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
            {"type": "TemplateProcessing",
             "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
             "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                      {"SpecialToken": {"id": bos, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
             "special_tokens": {bos: {"id": bos, "ids": [added[0]["id"]], "tokens": [bos]}}}]}
        ignore_merges = True
    tok = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": normalizer,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": split}, "behavior": "Isolated", "invert": False},
            byte_level]},
        "post_processor": post,
        "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                  "ignore_merges": ignore_merges, "vocab": vocab, "merges": [list(m) for m in merges]},
    }
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(tok, indent=2, ensure_ascii=False) + "\n")
    ids = {s: a["id"] for s, a in zip(specials, added)}
    return len(vocab) + len(added), ids


def write_sentencepiece_tokenizer_json(folder):
    """Llama 2 style tokenizer.json: Prepend "▁" + Replace " " -> "▁" normaliser, no
    pre-tokenizer, BPE with byte_fallback over <0x00>..<0xFF>, string-form merges, and a
    TemplateProcessing that adds <s>.  Returns (vocab size, {special: id})."""
    specials = ["<unk>", "<s>", "</s>"]
    text = "▁" + CORPUS.replace(" ", "▁")
    counts = {}
    for w in re.findall(r"▁[^▁]*", text):
        counts[tuple(w)] = counts.get(tuple(w), 0) + 1
    merges = train_bpe(counts, 40)
    chars = sorted({c for w in counts for c in w})
    vocab = {}
    for t in specials + [f"<0x{b:02X}>" for b in range(256)] + chars + [a + b for a, b in merges]:
        vocab.setdefault(t, len(vocab))
    added = [added_token(vocab[s], s) for s in specials]
    tok = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "pre_tokenizer": None,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "<s>", "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [vocab["<s>"]], "tokens": ["<s>"]}}},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True, "ignore_merges": False,
                  "vocab": vocab, "merges": [f"{a} {b}" for a, b in merges]},
    }
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(tok, indent=2, ensure_ascii=False) + "\n")
    return len(vocab), {s: vocab[s] for s in specials}


BERT_WORDS = ("the a an cat dog sat on mat is it was and of to in he she they what where when ran "
              "big small red blue house tree play read bird sing train late garden sunny").split()
BERT_SUFFIXES = ["##s", "##ing", "##ed", "##er", "##ly", "##en", "##est", "##y"]


def write_wordpiece_vocab(folder, tokenizer_class):
    """vocab.txt (BERT's layout: specials, punctuation, digits, letters, words, ## pieces; the
    special ids deliberately not bert-base's 0/100/101/102/103) + tokenizer_config.json."""
    tokens = (["[PAD]", "[unused0]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + list(".,!?'-") +
              [str(i) for i in range(10)] + [chr(c) for c in range(ord("a"), ord("z") + 1)] +
              BERT_WORDS + BERT_SUFFIXES)
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in tokens))
    dump_json(os.path.join(folder, "tokenizer_config.json"), {
        "do_lower_case": True, "tokenizer_class": tokenizer_class, "model_max_length": 64,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
        "mask_token": "[MASK]", "strip_accents": None, "tokenize_chinese_chars": True})
    return {t: i for i, t in enumerate(tokens)}


# ---------------------------------------------------------------------------------------------
# Weights per family, in transformers' module order, named as the base model names them


def bert_weights(init, c, pooler):
    E, I, s = c["hidden_size"], c["intermediate_size"], {}
    s["embeddings.word_embeddings.weight"] = init.normal(EMB_STD, c["vocab_size"], E)
    s["embeddings.position_embeddings.weight"] = init.normal(0.3, c["max_position_embeddings"], E)
    s["embeddings.token_type_embeddings.weight"] = init.normal(0.3, c["type_vocab_size"], E)
    init.layer_norm(s, "embeddings.LayerNorm", E)
    for i in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        init.linear(s, p + "attention.self.query", E, E, QK_STD)
        init.linear(s, p + "attention.self.key", E, E, QK_STD)
        init.linear(s, p + "attention.self.value", E, E)
        init.linear(s, p + "attention.output.dense", E, E)
        init.layer_norm(s, p + "attention.output.LayerNorm", E)
        init.linear(s, p + "intermediate.dense", I, E)
        init.linear(s, p + "output.dense", E, I)
        init.layer_norm(s, p + "output.LayerNorm", E)
    if pooler:
        init.linear(s, "pooler.dense", E, E)
    return s


def bert_mlm_head(init, c):
    E, s = c["hidden_size"], {}
    s["cls.predictions.bias"] = init.bias(c["vocab_size"])
    init.linear(s, "cls.predictions.transform.dense", E, E)
    init.layer_norm(s, "cls.predictions.transform.LayerNorm", E)
    # cls.predictions.decoder.weight/bias are tied to the word embeddings and cls.predictions.bias:
    # save_pretrained leaves them out.
    return s


def roberta_mlm_head(init, c):
    """RobertaLMHead in state-dict order (its own `bias` first, then dense, layer_norm);
    lm_head.decoder.weight/bias are tied to the word embeddings and lm_head.bias: left out."""
    E, s = c["hidden_size"], {}
    s["lm_head.bias"] = init.bias(c["vocab_size"])
    init.linear(s, "lm_head.dense", E, E)
    init.layer_norm(s, "lm_head.layer_norm", E)
    return s


def distilbert_mlm_head(init, c):
    """DistilBertForMaskedLM's head; vocab_projector.weight is tied to the word embeddings (left
    out), its bias is not."""
    E, s = c["dim"], {}
    init.linear(s, "vocab_transform", E, E)
    init.layer_norm(s, "vocab_layer_norm", E)
    s["vocab_projector.bias"] = init.bias(c["vocab_size"])
    return s


def distilbert_weights(init, c):
    E, I, s = c["dim"], c["hidden_dim"], {}
    s["embeddings.word_embeddings.weight"] = init.normal(EMB_STD, c["vocab_size"], E)
    s["embeddings.position_embeddings.weight"] = init.normal(0.3, c["max_position_embeddings"], E)
    init.layer_norm(s, "embeddings.LayerNorm", E)
    for i in range(c["n_layers"]):
        p = f"transformer.layer.{i}."
        init.linear(s, p + "attention.q_lin", E, E, QK_STD)
        init.linear(s, p + "attention.k_lin", E, E, QK_STD)
        init.linear(s, p + "attention.v_lin", E, E)
        init.linear(s, p + "attention.out_lin", E, E)
        init.layer_norm(s, p + "sa_layer_norm", E)
        init.linear(s, p + "ffn.lin1", I, E)
        init.linear(s, p + "ffn.lin2", E, I)
        init.layer_norm(s, p + "output_layer_norm", E)
    return s


def gpt2_weights(init, c, buffers):
    E, s = c["n_embd"], {}
    I = c["n_inner"] or 4 * E
    n = c["n_positions"]
    s["wte.weight"] = init.normal(EMB_STD, c["vocab_size"], E)
    s["wpe.weight"] = init.normal(0.3, n, E)
    for i in range(c["n_layer"]):
        p = f"h.{i}."
        init.layer_norm(s, p + "ln_1", E)
        if buffers:  # what older transformers saved: the causal mask and the masked-score value
            s[p + "attn.bias"] = np.tril(np.ones((n, n), dtype=bool)).reshape(1, 1, n, n)
            s[p + "attn.masked_bias"] = np.array(-1e4, dtype=np.float32)
        # Conv1D stores [in, out]: columns 0..E-1 are q, E..2E-1 k, 2E..3E-1 v.
        w = np.concatenate([init.normal(QK_STD, E, E), init.normal(QK_STD, E, E), init.normal(W_STD, E, E)], 1)
        s[p + "attn.c_attn.weight"] = w
        s[p + "attn.c_attn.bias"] = init.bias(3 * E)
        s[p + "attn.c_proj.weight"] = init.normal(W_STD, E, E)
        s[p + "attn.c_proj.bias"] = init.bias(E)
        init.layer_norm(s, p + "ln_2", E)
        s[p + "mlp.c_fc.weight"] = init.normal(W_STD, E, I)
        s[p + "mlp.c_fc.bias"] = init.bias(I)
        s[p + "mlp.c_proj.weight"] = init.normal(W_STD, I, E)
        s[p + "mlp.c_proj.bias"] = init.bias(E)
    init.layer_norm(s, "ln_f", E)
    return s


def decoder_weights(init, c):
    """Llama / Qwen2 / Qwen3 base model (`model.` inside a *ForCausalLM)."""
    fam, E, I = c["model_type"], c["hidden_size"], c["intermediate_size"]
    H, KV, d = c["num_attention_heads"], c["num_key_value_heads"], ref.head_dim_of(c)
    qkv_bias = fam == "qwen2" or c.get("attention_bias", False)
    o_bias = fam != "qwen2" and c.get("attention_bias", False)
    s = {"embed_tokens.weight": init.normal(EMB_STD, c["vocab_size"], E)}
    for i in range(c["num_hidden_layers"]):
        p = f"layers.{i}."
        init.linear(s, p + "self_attn.q_proj", H * d, E, QK_STD, qkv_bias)
        init.linear(s, p + "self_attn.k_proj", KV * d, E, QK_STD, qkv_bias)
        init.linear(s, p + "self_attn.v_proj", KV * d, E, W_STD, qkv_bias)
        init.linear(s, p + "self_attn.o_proj", E, H * d, W_STD, o_bias)
        if fam == "qwen3":
            s[p + "self_attn.q_norm.weight"] = init.norm_weight(d)
            s[p + "self_attn.k_norm.weight"] = init.norm_weight(d)
        init.linear(s, p + "mlp.gate_proj", I, E, W_STD, False)
        init.linear(s, p + "mlp.up_proj", I, E, W_STD, False)
        init.linear(s, p + "mlp.down_proj", E, I, W_STD, False)
        s[p + "input_layernorm.weight"] = init.norm_weight(E)
        s[p + "post_attention_layernorm.weight"] = init.norm_weight(E)
    s["norm.weight"] = init.norm_weight(E)
    return s


def prefixed(state, prefix):
    return {prefix + k: v for k, v in state.items()}


def gamma_beta(state):
    """Old TF-era LayerNorm names, as in the first BERT checkpoints."""
    out = {}
    for k, v in state.items():
        if k.endswith("LayerNorm.weight"):
            k = k[: -len("weight")] + "gamma"
        elif k.endswith("LayerNorm.bias"):
            k = k[: -len("bias")] + "beta"
        out[k] = v
    return out


# ---------------------------------------------------------------------------------------------
# Configs, as save_pretrained writes them


def bert_config(arch, vocab_size, layers, dtype, **kw):
    c = {"architectures": [arch], "attention_probs_dropout_prob": 0.1, "classifier_dropout": None,
         "gradient_checkpointing": False, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
         "hidden_size": 32, "initializer_range": 0.02, "intermediate_size": 64, "layer_norm_eps": 1e-12,
         "max_position_embeddings": 64, "model_type": "bert", "num_attention_heads": 4,
         "num_hidden_layers": layers, "pad_token_id": 0, "position_embedding_type": "absolute",
         "torch_dtype": dtype, "transformers_version": TRANSFORMERS_VERSION, "type_vocab_size": 2,
         "use_cache": True, "vocab_size": vocab_size}
    c.update(kw)
    return c


def gpt2_config(arch, vocab_size, layers, dtype, n_inner, bos):
    return {"activation_function": "gelu_new", "architectures": [arch], "attn_pdrop": 0.1,
            "bos_token_id": bos, "embd_pdrop": 0.1, "eos_token_id": bos, "initializer_range": 0.02,
            "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 64, "n_embd": 32, "n_head": 4,
            "n_inner": n_inner, "n_layer": layers, "n_positions": 64, "reorder_and_upcast_attn": False,
            "resid_pdrop": 0.1, "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True,
            "summary_activation": None, "summary_first_dropout": 0.1, "summary_proj_to_labels": True,
            "summary_type": "cls_index", "summary_use_proj": True, "torch_dtype": dtype,
            "transformers_version": TRANSFORMERS_VERSION, "use_cache": True, "vocab_size": vocab_size}


def llama_config(vocab_size, layers, dtype, heads, kv_heads, head_dim, rope_theta, rope_scaling,
                 tied, bos, eos):
    return {"architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
            "bos_token_id": bos, "eos_token_id": eos, "head_dim": head_dim, "hidden_act": "silu",
            "hidden_size": 32, "initializer_range": 0.02, "intermediate_size": 64,
            "max_position_embeddings": 64, "mlp_bias": False, "model_type": "llama",
            "num_attention_heads": heads, "num_hidden_layers": layers, "num_key_value_heads": kv_heads,
            "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": rope_scaling,
            "rope_theta": rope_theta, "tie_word_embeddings": tied, "torch_dtype": dtype,
            "transformers_version": TRANSFORMERS_VERSION, "use_cache": True, "vocab_size": vocab_size}


def qwen_config(family, vocab_size, layers, dtype, head_dim, rope_theta, tied, eos, hidden=32,
                heads=4, kv_heads=2, intermediate=64, max_pos=64):
    c = {"architectures": ["Qwen2ForCausalLM" if family == "qwen2" else "Qwen3ForCausalLM"],
         "attention_dropout": 0.0, "bos_token_id": eos, "eos_token_id": eos, "hidden_act": "silu",
         "hidden_size": hidden, "initializer_range": 0.02, "intermediate_size": intermediate,
         "max_position_embeddings": max_pos, "max_window_layers": layers, "model_type": family,
         "num_attention_heads": heads, "num_hidden_layers": layers, "num_key_value_heads": kv_heads,
         "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": rope_theta, "sliding_window": None,
         "tie_word_embeddings": tied, "torch_dtype": dtype, "transformers_version": TRANSFORMERS_VERSION,
         "use_cache": True, "use_sliding_window": False, "vocab_size": vocab_size}
    if family == "qwen3":
        c.update(attention_bias=False, head_dim=head_dim)
    return c


# ---------------------------------------------------------------------------------------------
# Cases


def draw_ids(rng, n, low, high):
    return [int(i) for i in rng.integers(low, high, size=n)]


def make_case(name, folder):
    """Writes the HF folder of case `name` (config, weights, tokenizer); returns (index entry,
    input_ids, token_type_ids or None, info).  info: "id_range" (low, high) of the ordinary
    tokens the input ids were drawn from, "special" (the special ids in the input) and "head_rng",
    a generator of its own for the head weights added later (RoBERTa, DistilBERT) and for the
    patching input, so that everything drawn from `rng` stays as it was."""
    rng = case_rng(name)
    init = Init(rng)
    head_rng = case_rng(name + "/head")
    tt = None
    special = set()
    if name in ("bert_mlm_prefix", "bert_gamma_beta", "bert_f16_sharded", "distilbert"):
        tok_class = "DistilBertTokenizer" if name == "distilbert" else "BertTokenizer"
        vocab = write_wordpiece_vocab(folder, tok_class)
        V = len(vocab)
        first_word = vocab["."]
        cls, sep = vocab["[CLS]"], vocab["[SEP]"]
        if name == "distilbert":
            c = {"activation": "gelu", "architectures": ["DistilBertForMaskedLM"], "attention_dropout": 0.1,
                 "dim": 32, "dropout": 0.1, "hidden_dim": 64, "initializer_range": 0.02,
                 "max_position_embeddings": 64, "model_type": "distilbert", "n_heads": 4, "n_layers": 2,
                 "pad_token_id": 0, "qa_dropout": 0.1, "seq_classif_dropout": 0.2,
                 "sinusoidal_pos_embds": False, "tie_weights_": True, "torch_dtype": "float32",
                 "transformers_version": TRANSFORMERS_VERSION, "vocab_size": V}
            state = prefixed(distilbert_weights(init, c), "distilbert.")
            state.update(distilbert_mlm_head(Init(head_rng), c))
            features = ["distilbert names", "distilbert. prefix", "learned positions",
                        "vocab_transform/vocab_layer_norm/vocab_projector.bias head (tied projector left out)"]
            dtype, shards = "float32", 1
        elif name == "bert_mlm_prefix":
            c = bert_config("BertForMaskedLM", V, 2, "float32")
            state = prefixed(bert_weights(init, c, pooler=False), "bert.")
            state.update(bert_mlm_head(init, c))
            features = ["bert. prefix", "cls.predictions.* head weights", "pair input", "token_type_ids"]
            dtype, shards = "float32", 1
        elif name == "bert_gamma_beta":
            c = bert_config("BertModel", V, 2, "float32")
            state = gamma_beta(bert_weights(init, c, pooler=True))
            features = ["no prefix", "LayerNorm.gamma/beta", "pooler"]
            dtype, shards = "float32", 1
        else:
            c = bert_config("BertModel", V, 2, "float16")
            state = bert_weights(init, c, pooler=True)
            features = ["F16", "2 shards + index"]
            dtype, shards = "float16", 2
        id_range, special = (first_word, V), {cls, sep}
        if name == "bert_mlm_prefix":
            a, b = draw_ids(rng, 4, first_word, V), draw_ids(rng, 3, first_word, V)
            ids = [cls] + a + [sep] + b + [sep]
            tt = [0] * (len(a) + 2) + [1] * (len(b) + 1)
        else:
            ids = [cls] + draw_ids(rng, int(rng.integers(6, 11)), first_word, V) + [sep]
    elif name == "roberta":
        vocab = write_byte_level_vocab(folder, ["<s>", "<pad>", "</s>", "<unk>"], ["<mask>"])
        V = len(vocab)
        dump_json(os.path.join(folder, "tokenizer_config.json"), {
            "add_prefix_space": False, "bos_token": "<s>", "cls_token": "<s>", "eos_token": "</s>",
            "errors": "replace", "mask_token": "<mask>", "model_max_length": 62, "pad_token": "<pad>",
            "sep_token": "</s>", "tokenizer_class": "RobertaTokenizer", "trim_offsets": True,
            "unk_token": "<unk>"})
        c = bert_config("RobertaForMaskedLM", V, 2, "float32", model_type="roberta", pad_token_id=1,
                        bos_token_id=0, eos_token_id=2, type_vocab_size=1, layer_norm_eps=1e-05)
        # The pooler stays, as in roberta-base (RobertaForMaskedLM does not use it).
        state = prefixed(bert_weights(init, c, pooler=True), "roberta.")
        state.update(roberta_mlm_head(Init(head_rng), c))
        # A trailing <pad> (no attention mask, as when only ids are given): it is attended like
        # any token, but its position id is padding_idx, not the next position.
        ids = [vocab["<s>"]] + draw_ids(rng, 7, 4, V - 1) + [vocab["</s>"], vocab["<pad>"]]
        id_range, special = (4, V - 1), {vocab["<s>"], vocab["</s>"], vocab["<pad>"]}
        features = ["roberta. prefix", "positions from padding_idx + 1", "pad token gets padding_idx",
                    "type_vocab_size 1", "byte-level vocab.json + merges.txt",
                    "lm_head.* MLM head (tied decoder left out)"]
        dtype, shards = "float32", 1
    elif name in ("gpt2_lmhead", "gpt2_bf16"):
        vocab = write_byte_level_vocab(folder, [], ["<|endoftext|>"])
        V = len(vocab)
        dump_json(os.path.join(folder, "tokenizer_config.json"), {"model_max_length": 64})
        eot = vocab["<|endoftext|>"]
        if name == "gpt2_lmhead":
            c = gpt2_config("GPT2LMHeadModel", V, 2, "float32", None, eot)
            # lm_head.weight is tied to wte: save_pretrained leaves it out.
            state = prefixed(gpt2_weights(init, c, buffers=True), "transformer.")
            features = ["transformer. prefix", "attn.bias/attn.masked_bias buffers", "tied lm_head absent",
                        "n_inner null (4 * n_embd)"]
            dtype = "float32"
        else:
            c = gpt2_config("GPT2Model", V, 3, "bfloat16", 64, eot)
            state = gpt2_weights(init, c, buffers=False)
            features = ["no prefix", "BF16", "n_inner 64", "3 layers"]
            dtype = "bfloat16"
        shards = 1
        ids = draw_ids(rng, int(rng.integers(7, 13)), 0, V - 1)
        id_range = (0, V - 1)
    elif name == "llama_gqa":
        n_tok, sp = write_sentencepiece_tokenizer_json(folder)
        dump_json(os.path.join(folder, "tokenizer_config.json"), {
            "add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
            "legacy": False, "model_max_length": 64, "pad_token": None, "tokenizer_class": "LlamaTokenizer",
            "unk_token": "<unk>"})
        V = n_tok + 15  # the embedding has rows no token uses, as real checkpoints do
        c = llama_config(V, 2, "float32", 4, 2, 8, 10000.0, None, False, sp["<s>"], sp["</s>"])
        state = prefixed(decoder_weights(init, c), "model.")
        state["lm_head.weight"] = init.normal(W_STD, V, 32)
        ids = [sp["<s>"]] + draw_ids(rng, int(rng.integers(6, 11)), 3, n_tok)
        id_range, special = (3, n_tok), {sp["<s>"]}
        features = ["GQA 4/2", "untied lm_head.weight", f"vocab_size {V} > tokenizer's {n_tok}",
                    "SentencePiece-style tokenizer.json (byte_fallback)"]
        dtype, shards = "float32", 1
    elif name == "llama3_rope_sharded":
        n_tok, sp = write_byte_level_tokenizer_json(folder, ["<|begin_of_text|>", "<|end_of_text|>"], "llama3")
        dump_json(os.path.join(folder, "tokenizer_config.json"), {
            "bos_token": "<|begin_of_text|>", "eos_token": "<|end_of_text|>", "model_max_length": 64,
            "tokenizer_class": "PreTrainedTokenizerFast"})
        rope = {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                "original_max_position_embeddings": 16, "rope_type": "llama3"}
        c = llama_config(n_tok, 2, "float32", 4, 4, 16, 500000.0, rope, True,
                         sp["<|begin_of_text|>"], sp["<|end_of_text|>"])
        state = prefixed(decoder_weights(init, c), "model.")
        ids = [sp["<|begin_of_text|>"]] + draw_ids(rng, int(rng.integers(8, 12)), 0, n_tok - 2)
        id_range, special = (0, n_tok - 2), {sp["<|begin_of_text|>"]}
        features = ["rope_scaling llama3", "rope_theta 500000", "head_dim 16 != hidden/heads",
                    "tied embeddings", "2 shards + index", "Llama 3 style byte-level tokenizer.json"]
        dtype, shards = "float32", 2
    elif name in ("qwen2_bias_bf16", "qwen3_qknorm"):
        n_tok, sp = write_byte_level_tokenizer_json(
            folder, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"], "qwen2")
        dump_json(os.path.join(folder, "tokenizer_config.json"), {
            "bos_token": None, "eos_token": "<|endoftext|>", "errors": "replace", "model_max_length": 64,
            "pad_token": "<|endoftext|>", "split_special_tokens": False, "tokenizer_class": "Qwen2Tokenizer",
            "unk_token": None})
        eos = sp["<|endoftext|>"]
        if name == "qwen2_bias_bf16":
            V = (n_tok + 7) // 8 * 8  # padded like Qwen's 151936
            c = qwen_config("qwen2", V, 3, "bfloat16", None, 1000000.0, True, eos)
            features = ["q/k/v biases", "GQA 4/2", "BF16", "tied embeddings", "rope_theta 1e6", "3 layers",
                        f"vocab_size {V} > tokenizer's {n_tok}"]
            dtype = "bfloat16"
        else:
            V = n_tok
            c = qwen_config("qwen3", V, 2, "float16", 16, 1000000.0, True, eos)
            features = ["q_norm/k_norm before rotation", "head_dim 16", "GQA 4/2", "F16", "tied embeddings"]
            dtype = "float16"
        state = prefixed(decoder_weights(init, c), "model.")
        ids = draw_ids(rng, int(rng.integers(7, 13)), 0, n_tok - 3)
        id_range = (0, n_tok - 3)
        shards = 1
    else:
        raise ValueError(name)

    write_weights(folder, round_to(state, dtype), shards)
    dump_json(os.path.join(folder, "config.json"), c)
    entry = {"name": name, "model_type": c["model_type"], "architecture": c["architectures"][0],
             "features": features, "dtype": dtype, "sharded": shards > 1, "input_length": len(ids)}
    return entry, ids, tt, {"id_range": id_range, "special": special, "head_rng": head_rng}


CASES = ["bert_mlm_prefix", "bert_gamma_beta", "bert_f16_sharded", "roberta", "distilbert", "gpt2_lmhead",
         "gpt2_bf16", "llama_gqa", "llama3_rope_sharded", "qwen2_bias_bf16", "qwen3_qknorm"]


# ---------------------------------------------------------------------------------------------
# Checks of the reference


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def max_diff(a, b):
    return max(float((x - y).abs().max()) for x, y in zip(a, b))


def self_checks(name, config, state, ids, tt, attentions, hidden, trace):
    """Properties any correct forward has, and independent formulations of its key steps."""
    fam = config["model_type"]
    causal = fam not in ("bert", "roberta", "distilbert")
    for i, a in enumerate(attentions):
        check(float((a.sum(-1) - 1).abs().max()) < 1e-12, f"{name}: layer {i} rows do not sum to 1")
        check(float(a.min()) >= 0, f"{name}: layer {i} has negative probabilities")
        if causal:
            check(float(a.triu(1).abs().max()) == 0.0, f"{name}: layer {i} attends to the future")
        else:
            check(float(a.min()) > 0, f"{name}: layer {i} has zero probabilities without a mask")
        # Non-uniform enough: a wrong scaling or a transposed weight must show far above 1e-5.
        check(float(a.max()) > 0.5, f"{name}: layer {i} maps are too flat (max {float(a.max()):.3f})")

    P = ref.to_params(state, fam, torch.float64)
    if fam in ("bert", "roberta", "distilbert", "gpt2"):
        # Layer 0's maps against torch's own multi-head attention on the same input.
        if fam == "gpt2":
            E, H = config["n_embd"], config["n_head"]
            w, b = P["h.0.attn.c_attn.weight"].T, P["h.0.attn.c_attn.bias"]  # Conv1D is [in, out]
            x = ref.layer_norm(hidden[0], P, "h.0.ln_1", config["layer_norm_epsilon"])
            mask = torch.ones(len(ids), len(ids), dtype=torch.bool).triu(1)
        else:
            if fam == "distilbert":
                E, H, p = config["dim"], config["n_heads"], "transformer.layer.0.attention."
                names = ("q_lin", "k_lin", "v_lin")
            else:
                E, H, p = config["hidden_size"], config["num_attention_heads"], "encoder.layer.0.attention.self."
                names = ("query", "key", "value")
            w = torch.cat([P[p + n + ".weight"] for n in names])
            b = torch.cat([P[p + n + ".bias"] for n in names])
            x, mask = hidden[0], None
        x = x[:, None, :]
        _, weights = F.multi_head_attention_forward(
            x, x, x, E, H, w, b, None, None, False, 0.0, torch.eye(E, dtype=x.dtype), None,
            training=False, attn_mask=mask, need_weights=True, average_attn_weights=False)
        d = float((weights[0] - attentions[0]).abs().max())
        check(d < 1e-12, f"{name}: layer 0 differs from F.multi_head_attention_forward by {d}")
    if fam == "bert" and config["num_hidden_layers"] > 0:
        # And the rest of layer 0 (post-LayerNorm residuals, erf GELU) written out once more.
        eps, p = config["layer_norm_eps"], "encoder.layer.0."
        ctx = attentions[0] @ ref.split_heads(ref.linear(hidden[0], P, p + "attention.self.value"), H, E // H)
        res = F.layer_norm(ctx.transpose(0, 1).reshape(len(ids), E) @ P[p + "attention.output.dense.weight"].T
                           + P[p + "attention.output.dense.bias"] + hidden[0], (E,),
                           P[p + "attention.output.LayerNorm.weight"], P[p + "attention.output.LayerNorm.bias"], eps)
        u = res @ P[p + "intermediate.dense.weight"].T + P[p + "intermediate.dense.bias"]
        g = 0.5 * u * (1 + torch.erf(u / math.sqrt(2)))
        h1 = F.layer_norm(g @ P[p + "output.dense.weight"].T + P[p + "output.dense.bias"] + res, (E,),
                          P[p + "output.LayerNorm.weight"], P[p + "output.LayerNorm.bias"], eps)
        check(float((h1 - hidden[1]).abs().max()) < 1e-12, f"{name}: layer 0 output differs")
    if fam == "roberta":
        pos = ref.roberta_position_ids(torch.tensor(ids), config["pad_token_id"]).tolist()
        pad = config["pad_token_id"]
        expect = [pad if t == pad else pad + 1 + k for k, t in enumerate(ids)]
        check(pos == expect, f"{name}: position ids {pos}, expected {expect}")
    if fam in ref.ROTARY_FAMILIES:
        H, KV, d = config["num_attention_heads"], config["num_key_value_heads"], ref.head_dim_of(config)
        L = len(ids)
        # The rotation as complex numbers: dimension j and j + d/2 are the real and imaginary
        # parts, turned by position * inv_freq[j].
        theta = torch.outer(torch.arange(L, dtype=torch.float64), ref.rope_inv_freq(config))
        for which in ("q", "k"):
            pre, post = trace[which + "_pre_rope"], trace[which + "_post_rope"]
            z = torch.complex(pre[..., : d // 2], pre[..., d // 2:]) * torch.polar(torch.ones_like(theta), theta)
            dd = float((torch.cat([z.real, z.imag], -1) - post).abs().max())
            check(dd < 1e-12, f"{name}: {which} rotation differs from the complex form by {dd}")
            check(post.shape == (H if which == "q" else KV, L, d), f"{name}: {which} trace shape {post.shape}")
        # Layer 0's maps from the traced q/k, one query head at a time with its own k/v head.
        q, k = trace["q_post_rope"], trace["k_post_rope"]
        for h in range(H):
            s = q[h] @ k[h * KV // H].T / math.sqrt(d)
            s = s + torch.full((L, L), float("-inf"), dtype=s.dtype).triu(1)
            dd = float((torch.softmax(s, -1) - attentions[0][h]).abs().max())
            check(dd < 1e-12, f"{name}: head {h} differs from its per-head recomputation by {dd}")
        if config.get("rope_scaling"):
            # Both of llama3's changes must be exercised: frequencies slowed down by `factor`, and
            # at least one in the smoothly blended band.  (With original_max_position_embeddings
            # 16 no wavelength is below 16 / high_freq_factor = 4 < 2*pi, so none is kept as is.)
            scaled, plain = ref.rope_inv_freq(config), ref.rope_inv_freq(config, apply_scaling=False)
            factor = config["rope_scaling"]["factor"]
            divided = int(torch.isclose(scaled, plain / factor, rtol=1e-14, atol=0).sum())
            blended = int(((scaled < plain) & (scaled > plain / factor)).sum())
            check(divided > 0 and blended > 0 and divided + blended == len(plain),
                  f"{name}: llama3 scaling divides {divided} and blends {blended} of {len(plain)} frequencies")


def sensitivity(name, config, state, ids, tt, attentions):
    """How much the maps move under the mistakes the goldens must catch; each must be far above
    the tests' 1e-5."""
    fam = config["model_type"]
    P = ref.to_params(state, fam, torch.float64)
    out = {}

    def run(params):
        return ref.forward(config, None, ids, tt, params=params)[0]

    if fam in ref.ROTARY_FAMILIES:
        H, KV, d = config["num_attention_heads"], config["num_key_value_heads"], ref.head_dim_of(config)
        qn = "layers.0.self_attn.q_norm.weight" if fam == "qwen3" else "layers.0.self_attn.q_proj.weight"
        Q = dict(P)
        Q[qn] = P[qn] * math.sqrt(d) ** 0.5  # a scaling of 1/d^0.25 instead of 1/sqrt(d)
        if fam == "qwen2":
            Q["layers.0.self_attn.q_proj.bias"] = P["layers.0.self_attn.q_proj.bias"] * math.sqrt(d) ** 0.5
        out["scaling"] = max_diff(run(Q)[:1], attentions[:1])
        # Interleaved pairing (2j, 2j+1) instead of rotate_half's (j, j + d/2): the same as
        # permuting each head's q/k dimensions.
        perm = torch.cat([torch.arange(0, d, 2), torch.arange(1, d, 2)])
        Q = dict(P)
        for nm, n in (("q", H), ("k", KV)):
            for suffix in (".weight", ".bias"):
                key = f"layers.0.self_attn.{nm}_proj{suffix}"
                if key in P:
                    t = P[key].reshape(n, d, -1) if suffix == ".weight" else P[key].reshape(n, d, 1)
                    Q[key] = t[:, perm].reshape(P[key].shape)
            nk = f"layers.0.self_attn.{nm}_norm.weight"
            if nk in P:
                Q[nk] = P[nk][perm]
        out["rotary pairing"] = max_diff(run(Q)[:1], attentions[:1])
        if H * d == config["hidden_size"]:
            Q = dict(P)
            Q["layers.0.self_attn.q_proj.weight"] = P["layers.0.self_attn.q_proj.weight"].T.contiguous()
            out["transposed q"] = max_diff(run(Q)[:1], attentions[:1])
    elif fam == "gpt2":
        E = config["n_embd"]
        Q = dict(P)
        w = P["h.0.attn.c_attn.weight"].clone()
        w[:, :E] = w[:, :E].T.clone()
        Q["h.0.attn.c_attn.weight"] = w
        out["transposed q"] = max_diff(run(Q)[:1], attentions[:1])
        Q = dict(P)
        w = P["h.0.attn.c_attn.weight"].clone()
        w[:, :E] *= math.sqrt(E // config["n_head"]) ** 0.5
        Q["h.0.attn.c_attn.weight"] = w
        b = P["h.0.attn.c_attn.bias"].clone()
        b[:E] *= math.sqrt(E // config["n_head"]) ** 0.5
        Q["h.0.attn.c_attn.bias"] = b
        out["scaling"] = max_diff(run(Q)[:1], attentions[:1])
    else:
        qn = "transformer.layer.0.attention.q_lin" if fam == "distilbert" else "encoder.layer.0.attention.self.query"
        H = config.get("num_attention_heads") or config["n_heads"]
        E = config.get("hidden_size") or config["dim"]
        Q = dict(P)
        Q[qn + ".weight"] = P[qn + ".weight"].T.contiguous()
        out["transposed q"] = max_diff(run(Q)[:1], attentions[:1])
        Q = dict(P)
        f = math.sqrt(E // H) ** 0.5
        Q[qn + ".weight"], Q[qn + ".bias"] = P[qn + ".weight"] * f, P[qn + ".bias"] * f
        out["scaling"] = max_diff(run(Q)[:1], attentions[:1])
        if tt is not None:
            out["token types ignored"] = max_diff(ref.forward(config, None, ids, None, params=P)[0], attentions)
        if fam == "roberta":
            Q = dict(P)
            # positions 0..L-1 as BERT would use: shift the table so row p+padding_idx+1 reads row p
            pad = config["pad_token_id"]
            Q["embeddings.position_embeddings.weight"] = torch.roll(P["embeddings.position_embeddings.weight"], pad + 1, 0)
            out["BERT positions"] = max_diff(run(Q), attentions)
    for what, dd in out.items():
        check(dd > 1e-3, f"{name}: a {what} mistake moves the maps by only {dd:.2e}")
    return out


# ---------------------------------------------------------------------------------------------


def write_reference(folder, ids, tt):
    """reference/ of a written case folder, from the folder as it reads back."""
    config, state = ref.load_folder(folder)
    trace = {}
    attentions, hidden = ref.forward(config, state, ids, tt, trace=trace)
    r = os.path.join(folder, "reference")
    os.makedirs(r)
    np.save(os.path.join(r, "input_ids.npy"), np.asarray(ids, dtype=np.int64))
    if tt is not None:
        np.save(os.path.join(r, "token_type_ids.npy"), np.asarray(tt, dtype=np.int64))
    np.save(os.path.join(r, "attentions.npy"), torch.stack(attentions).numpy().astype(np.float32))
    np.save(os.path.join(r, "hidden_states.npy"), torch.stack(hidden).numpy().astype(np.float32))
    for k, v in trace.items():
        np.save(os.path.join(r, f"layer0_{k}.npy"), v.numpy().astype(np.float32))
    return config, state, attentions, hidden, trace


MAX_NEW_TOKENS = 6  # greedy generation: all tiny cases have 64 positions, inputs of <= 12 ids
MIN_PATCH_EFFECT = 0.05  # m_clean - m_corrupt at least this, or the corruption is drawn again


def corrupt(name, ids, tt, info, clean_logits, model):
    """The patching input: the case's ids with two positions replaced by other ordinary ids,
    drawn from the head generator.  Never position 0, a special token or the last position (so
    that patching every head of every layer restores the clean logits there exactly).  Returns
    (corrupt ids, its logits, target, distractor), drawn again until m_clean - m_corrupt >
    MIN_PATCH_EFFECT."""
    rng, (low, high) = info["head_rng"], info["id_range"]
    positions = [k for k in range(1, len(ids) - 1) if ids[k] not in info["special"]]
    last = clean_logits[-1]
    target = int(torch.argmax(last))
    for _ in range(100):
        bad = list(ids)
        for k in sorted(int(k) for k in rng.choice(positions, 2, replace=False)):
            while bad[k] == ids[k]:
                bad[k] = int(rng.integers(low, high))
        logits = model.run(bad, tt)["logits"]
        distractor = int(torch.argmax(logits[-1]))
        if distractor == target:
            distractor = int(torch.topk(last, 2).indices[1])
        m_clean = ref.logit_difference(clean_logits, target, distractor)
        m_corrupt = ref.logit_difference(logits, target, distractor)
        if m_clean - m_corrupt > MIN_PATCH_EFFECT:
            return bad, logits, target, distractor
    raise AssertionError(f"{name}: no corruption moves the logit difference by {MIN_PATCH_EFFECT}")


def zeroed_output_projection(config, P, pairs):
    """The params with the columns of each (layer, head)'s slice in the attention output
    projection zeroed: zero ablation written as a weight change."""
    fam, Q = config["model_type"], dict(P)
    H = config.get("num_attention_heads") or config.get("n_heads") or config["n_head"]
    d = ref.head_dim_of(config) if fam in ref.ROTARY_FAMILIES else \
        (config.get("hidden_size") or config.get("dim") or config["n_embd"]) // H
    for layer, h in pairs:
        if fam == "gpt2":  # Conv1D [in, out]: the head's rows
            key = f"h.{layer}.attn.c_proj.weight"
            w = Q[key].clone()
            w[h * d:(h + 1) * d, :] = 0
        else:
            key = {"bert": "encoder.layer.{}.attention.output.dense.weight",
                   "roberta": "encoder.layer.{}.attention.output.dense.weight",
                   "distilbert": "transformer.layer.{}.attention.out_lin.weight"}.get(
                       fam, "layers.{}.self_attn.o_proj.weight").format(layer)
            w = Q[key].clone()
            w[:, h * d:(h + 1) * d] = 0
        Q[key] = w
    return Q


def write_lm_reference(folder, name, config, state, ids, tt, info, hidden):
    """The head's outputs in reference/: logits, the logit lens, head ablation, activation
    patching and (causal models) greedy generation, with their self-checks.  Returns the index's
    lm_head ("causal", "masked" or None), the sensitivity figures of the head and a line to print."""
    model = ref.Model(config, state)
    if model.kind is None:
        return None, {}, ""
    r = os.path.join(folder, "reference")
    fam, n, H = config["model_type"], model.num_layers, model.num_heads
    P, head = model.params, model.head

    clean_ctx = []
    run = model.run(ids, tt, heads=ref.recorder(clean_ctx), lens=True)
    logits, lens = run["logits"], run["lens"]
    check(max_diff(run["hidden_states"], hidden) == 0.0, f"{name}: the hooked forward differs from the plain one")
    check(float((lens[-1] - logits).abs().max()) < 1e-12, f"{name}: the lens' last layer is not the logits")
    check(lens.shape == (n, len(ids), config["vocab_size"]), f"{name}: lens shape {tuple(lens.shape)}")
    # The logits once more, written out from the final hidden state (the masked cases' decoders
    # are all tied to the word embeddings).
    if fam in ref.CAUSAL_FAMILIES:  # hidden[-1] is after the final norm already
        again = hidden[-1] @ head["decoder.weight"].T
    else:
        u = hidden[-1] @ head["dense.weight"].T + head["dense.bias"]
        g = 0.5 * u * (1 + torch.erf(u / math.sqrt(2)))  # all three encoders use erf GELU here
        eps = 1e-12 if fam == "distilbert" else config["layer_norm_eps"]
        again = F.layer_norm(g, g.shape[-1:], head["norm.weight"], head["norm.bias"], eps) \
            @ P["embeddings.word_embeddings.weight"].T + head["decoder.bias"]
    dd = float((again - logits).abs().max())
    check(dd < 1e-12, f"{name}: logits differ from their written-out form by {dd}")
    for i in range(n - 1):
        dd = float((lens[i] - lens[-1]).abs().max())
        check(dd > 1e-3, f"{name}: the lens after layer {i + 1} equals the last one ({dd:.2e})")

    # Ablation: (0, 1) and the last layer's last head.
    pairs = [[0, 1], [n - 1, H - 1]]
    ablated = {}
    for mode in ("zero", "mean"):
        ablated[mode] = model.run(ids, tt, heads=ref.ablation(pairs, mode))["logits"]
        dd = float((ablated[mode] - logits).abs().max())
        check(dd > 1e-3, f"{name}: {mode}-ablating {pairs} moves the logits by only {dd:.2e}")
        for one in pairs:  # each head alone moves them too
            dd = float((model.run(ids, tt, heads=ref.ablation([one], mode))["logits"] - logits).abs().max())
            check(dd > 1e-3, f"{name}: {mode}-ablating {one} moves the logits by only {dd:.2e}")
    seen, mean = [], ref.ablation(pairs, "mean")
    model.run(ids, tt, heads=lambda layer, ctx: ref.recorder(seen)(layer, mean(layer, ctx)))
    dd = float((seen[0][1] - clean_ctx[0][1].mean(0)).abs().max())  # layer 0 reads the clean input
    check(dd < 1e-15, f"{name}: mean ablation of head 1 at layer 0 is not the clean mean ({dd})")
    check(torch.equal(seen[n - 1][H - 1], seen[n - 1][H - 1][:1].expand_as(seen[n - 1][H - 1])),
          f"{name}: mean ablation of the last head is not the same at every position")
    dd = float((ablated["zero"] - ablated["mean"]).abs().max())
    check(dd > 1e-3, f"{name}: zero and mean ablation agree ({dd:.2e})")
    keep = model.run(ids, tt, heads=lambda layer, ctx: ctx * torch.ones(H, 1, 1, dtype=ctx.dtype))["logits"]
    check(torch.equal(keep, logits), f"{name}: an all-ones keep mask changes the logits")
    outs = []
    ref.forward(config, None, ids, tt, params=zeroed_output_projection(config, P, pairs), layer_outputs=outs)
    dd = float((ref.lm_logits(config, P, head, outs[-1]) - ablated["zero"]).abs().max())
    check(dd < 1e-12, f"{name}: zero ablation differs from zeroing the output projection's columns by {dd}")

    # Activation patching: every single head of the corrupted run reads the clean run's output.
    bad, bad_logits, target, distractor = corrupt(name, ids, tt, info, logits, model)
    m_clean = ref.logit_difference(logits, target, distractor)
    m_corrupt = ref.logit_difference(bad_logits, target, distractor)
    patch_m = np.zeros((n, H), dtype=np.float64)
    for layer in range(n):
        for h in range(H):
            out = model.run(bad, tt, heads=ref.patcher(clean_ctx, [(layer, h)]))["logits"]
            patch_m[layer, h] = ref.logit_difference(out, target, distractor)
    every = [(layer, h) for layer in range(n) for h in range(H)]
    out = model.run(bad, tt, heads=ref.patcher(clean_ctx, every))["logits"]
    dd = float((out[-1] - logits[-1]).abs().max())
    check(dd < 1e-12, f"{name}: patching every head does not restore the clean last position ({dd:.2e})")
    out = model.run(bad, tt, heads=ref.patcher(clean_ctx, []))["logits"]
    check(ref.logit_difference(out, target, distractor) == m_corrupt, f"{name}: patching nothing changes m")
    check(float(np.abs(patch_m - m_corrupt).max()) > 1e-3, f"{name}: no single head moves m")

    os.makedirs(r, exist_ok=True)
    np.save(os.path.join(r, "logits.npy"), logits.numpy().astype(np.float32))
    np.save(os.path.join(r, "lens_logits.npy"), lens.numpy().astype(np.float32))
    np.save(os.path.join(r, "ablate_zero_logits.npy"), ablated["zero"].numpy().astype(np.float32))
    np.save(os.path.join(r, "ablate_mean_logits.npy"), ablated["mean"].numpy().astype(np.float32))
    np.save(os.path.join(r, "patch_m.npy"), patch_m)
    doc = {"ablate": pairs,
           "patch": {"clean_ids": list(ids), "corrupt_ids": bad, "target": target, "distractor": distractor,
                     "position": -1, "m_clean": m_clean, "m_corrupt": m_corrupt}}

    if model.kind == "causal":
        new, steps, finish = ref.greedy_generate(model, ids, MAX_NEW_TOKENS)
        full = model.run(ids + new)
        check(len(new) == steps.shape[0] and (finish == "eos") == (new[-1] in ref.eos_ids(config)),
              f"{name}: generation {new} {finish}")
        check(finish == "eos" or len(new) == MAX_NEW_TOKENS, f"{name}: generation stopped early: {new}")
        # Causal: each step's logits are the final sequence's logits at that step's position.
        dd = float((full["logits"][len(ids) - 1:len(ids) - 1 + len(new)] - steps).abs().max())
        check(dd < 1e-12, f"{name}: step logits differ from the whole sequence's by {dd}")
        top2 = torch.topk(steps, 2, dim=-1).values
        gap = float((top2[:, 0] - top2[:, 1]).min())
        check(gap > 1e-3, f"{name}: a greedy step's top two logits are only {gap:.2e} apart")
        np.save(os.path.join(r, "generate_logits.npy"), steps.numpy().astype(np.float32))
        np.save(os.path.join(r, "generate_attentions.npy"),
                torch.stack(full["attentions"]).numpy().astype(np.float32))
        doc["generate"] = {"prompt_ids": list(ids), "max_new_tokens": MAX_NEW_TOKENS, "ids": new,
                           "finish": finish}
        # The random models rarely choose the eos token; after a prompt that ends with it, the
        # tied ones repeat it: the stop on eos (the eos id kept) then has a golden too.
        prompt = list(ids) + [min(ref.eos_ids(config))]
        new, steps, finish = ref.greedy_generate(model, prompt, MAX_NEW_TOKENS)
        top2 = torch.topk(steps, 2, dim=-1).values
        gap = float((top2[:, 0] - top2[:, 1]).min())
        check(gap > 1e-3, f"{name}: a greedy step after eos has its top two logits only {gap:.2e} apart")
        doc["generate_after_eos"] = {"prompt_ids": prompt, "max_new_tokens": MAX_NEW_TOKENS, "ids": new,
                                     "finish": finish}
    dump_json(os.path.join(r, "interventions.json"), doc)

    # How much the logits move under the head mistakes the goldens must catch.
    last = run["layer_outputs"][-1]
    if model.kind == "causal":
        sens = {"final norm skipped": max_diff([last @ head["decoder.weight"].T], [logits])}
    else:
        sens = {"head bias left out": max_diff([logits - head["decoder.bias"]], [logits])}
        u = last @ head["dense.weight"].T + head["dense.bias"]
        eps = 1e-12 if fam == "distilbert" else config["layer_norm_eps"]
        tanh = F.layer_norm(ref.gelu_new(u), u.shape[-1:], head["norm.weight"], head["norm.bias"], eps) \
            @ head["decoder.weight"].T + head["decoder.bias"]
        sens["tanh GELU in the head"] = max_diff([tanh], [logits])
    for what, dd in sens.items():
        check(dd > 1e-3, f"{name}: a {what} mistake moves the logits by only {dd:.2e}")
    summary = f"m {m_clean:.2f}->{m_corrupt:.2f}"
    for key in ("generate", "generate_after_eos"):
        if key in doc:
            summary += f"  {key} {doc[key]['finish']} {doc[key]['ids']}"
    return model.kind, sens, summary


def folder_size(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)


def make_goldens(out_dir, only=None):
    index = []
    for name in CASES:
        folder = os.path.join(out_dir, name)
        if only and name not in only:
            continue
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        entry, ids, tt, info = make_case(name, folder)
        config, state, attentions, hidden, trace = write_reference(folder, ids, tt)
        self_checks(name, config, state, ids, tt, attentions, hidden, trace)
        sens = sensitivity(name, config, state, ids, tt, attentions)
        entry["lm_head"], head_sens, summary = write_lm_reference(folder, name, config, state, ids, tt, info,
                                                                  hidden)
        entry["layers"], entry["heads"] = len(attentions), attentions[0].shape[0]
        entry["hidden_size"] = hidden[0].shape[1]
        index.append(entry)
        print(f"{name:22s} {folder_size(folder) / 1024:6.1f} KB  L={len(ids):2d}  " +
              "  ".join(f"{k} {v:.2g}" for k, v in {**sens, **head_sens}.items()) +
              (f"\n{'':22s} {entry['lm_head']} head: {summary}" if entry["lm_head"] else ""))
    if not only:
        dump_json(os.path.join(out_dir, "index.json"), {"cases": index, "seed": SEED})
        print(f"total {sum(folder_size(os.path.join(out_dir, n)) for n in CASES) / 1024:.0f} KB")


# ---------------------------------------------------------------------------------------------
# Benchmark checkpoints (not committed)


def lazy_normal(rng, shape, std, dtype, chunk=1 << 22):
    """A Lazy tensor of N(0, std^2) values made chunk by chunk (float32 draws, then F32 or BF16),
    so a 150k x 896 embedding never exists in float32 whole."""
    n = int(np.prod(shape))

    def chunks():
        for start in range(0, n, chunk):
            a = rng.standard_normal(min(chunk, n - start), dtype=np.float32)
            a *= std
            yield a if dtype == "F32" else safetensors_lite.bf16_bits(a)
    return safetensors_lite.Lazy(dtype, shape, chunks)


def lazy_const(shape, value, dtype):
    a = np.full(shape, value, dtype=np.float32)
    return a if dtype == "F32" else safetensors_lite.bfloat16(a)


def bench_bert_base(folder, rng):
    c = bert_config("BertModel", 30522, 12, "float32", hidden_size=768, num_attention_heads=12,
                    intermediate_size=3072, max_position_embeddings=512)
    E, I, s = 768, 3072, {}
    s["embeddings.word_embeddings.weight"] = lazy_normal(rng, (30522, E), 0.02, "F32")
    s["embeddings.position_embeddings.weight"] = lazy_normal(rng, (512, E), 0.02, "F32")
    s["embeddings.token_type_embeddings.weight"] = lazy_normal(rng, (2, E), 0.02, "F32")
    s["embeddings.LayerNorm.weight"], s["embeddings.LayerNorm.bias"] = lazy_const(E, 1.0, "F32"), lazy_const(E, 0.0, "F32")
    for i in range(12):
        p = f"encoder.layer.{i}."
        for n, o, k in (("attention.self.query", E, E), ("attention.self.key", E, E),
                        ("attention.self.value", E, E), ("attention.output.dense", E, E),
                        ("intermediate.dense", I, E), ("output.dense", E, I)):
            s[p + n + ".weight"] = lazy_normal(rng, (o, k), 0.02, "F32")
            s[p + n + ".bias"] = lazy_normal(rng, (o,), 0.02, "F32")
        for n in ("attention.output.LayerNorm", "output.LayerNorm"):
            s[p + n + ".weight"], s[p + n + ".bias"] = lazy_const(E, 1.0, "F32"), lazy_const(E, 0.0, "F32")
    s["pooler.dense.weight"] = lazy_normal(rng, (E, E), 0.02, "F32")
    s["pooler.dense.bias"] = lazy_normal(rng, (E,), 0.02, "F32")
    safetensors_lite.save_file(s, os.path.join(folder, "model.safetensors"), {"format": "pt"})
    dump_json(os.path.join(folder, "config.json"), c)
    repo_vocab = os.path.join(HERE, "..", "..", "data", "tokenizers", "bert-uncased", "vocab.txt")
    src = repo_vocab if os.path.exists(repo_vocab) else "/work/shared/tokenizers/bert-uncased/vocab.txt"
    if os.path.exists(src):
        shutil.copyfile(src, os.path.join(folder, "vocab.txt"))
        dump_json(os.path.join(folder, "tokenizer_config.json"),
                  {"do_lower_case": True, "tokenizer_class": "BertTokenizer", "model_max_length": 512})


def bench_qwen2_0_5b(folder, rng):
    E, I, H, KV, d, V, layers = 896, 4864, 14, 2, 64, 151936, 24
    c = qwen_config("qwen2", V, layers, "bfloat16", None, 1000000.0, True, 151643, hidden=E, heads=H,
                    kv_heads=KV, intermediate=I, max_pos=32768)
    c.update(max_window_layers=21, sliding_window=32768, bos_token_id=151643)
    s = {"model.embed_tokens.weight": lazy_normal(rng, (V, E), 0.02, "BF16")}
    for i in range(layers):
        p = f"model.layers.{i}."
        for n, o, k, b in (("self_attn.q_proj", H * d, E, True), ("self_attn.k_proj", KV * d, E, True),
                           ("self_attn.v_proj", KV * d, E, True), ("self_attn.o_proj", E, H * d, False),
                           ("mlp.gate_proj", I, E, False), ("mlp.up_proj", I, E, False),
                           ("mlp.down_proj", E, I, False)):
            s[p + n + ".weight"] = lazy_normal(rng, (o, k), 0.02, "BF16")
            if b:
                s[p + n + ".bias"] = lazy_normal(rng, (o,), 0.02, "BF16")
        s[p + "input_layernorm.weight"] = lazy_const(E, 1.0, "BF16")
        s[p + "post_attention_layernorm.weight"] = lazy_const(E, 1.0, "BF16")
    s["model.norm.weight"] = lazy_const(E, 1.0, "BF16")
    safetensors_lite.save_file(s, os.path.join(folder, "model.safetensors"), {"format": "pt"})
    dump_json(os.path.join(folder, "config.json"), c)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        src = os.path.join("/work/shared/tokenizers/qwen2", f)
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(folder, f))


def bench_gpt2_small(folder, rng):
    """GPT-2 small's shapes (12 x 12, hidden 768, vocabulary 50,257, tied head), F32: the
    patching and generation benchmarks of bench/predictions_bench.py."""
    E, V, layers = 768, 50257, 12
    c = gpt2_config("GPT2LMHeadModel", V, layers, "float32", None, 50256)
    c.update({"n_embd": E, "n_head": 12, "n_ctx": 1024, "n_positions": 1024})
    s = {"transformer.wte.weight": lazy_normal(rng, (V, E), 0.02, "F32"),
         "transformer.wpe.weight": lazy_normal(rng, (1024, E), 0.01, "F32")}
    for i in range(layers):
        p = f"transformer.h.{i}."
        for n, shape in (("attn.c_attn", (E, 3 * E)), ("attn.c_proj", (E, E)),
                         ("mlp.c_fc", (E, 4 * E)), ("mlp.c_proj", (4 * E, E))):
            s[p + n + ".weight"] = lazy_normal(rng, shape, 0.02, "F32")
            s[p + n + ".bias"] = lazy_normal(rng, (shape[1],), 0.02, "F32")
        for n in ("ln_1", "ln_2"):
            s[p + n + ".weight"], s[p + n + ".bias"] = lazy_const(E, 1.0, "F32"), lazy_const(E, 0.0, "F32")
    s["transformer.ln_f.weight"], s["transformer.ln_f.bias"] = lazy_const(E, 1.0, "F32"), lazy_const(E, 0.0, "F32")
    safetensors_lite.save_file(s, os.path.join(folder, "model.safetensors"), {"format": "pt"})
    dump_json(os.path.join(folder, "config.json"), c)
    repo = os.path.join(HERE, "..", "..", "data", "tokenizers", "gpt2")
    for f in ("vocab.json", "merges.txt"):
        shutil.copyfile(os.path.join(repo, f), os.path.join(folder, f))


def make_bench(out_dir):
    for name, fn in (("bert_base", bench_bert_base), ("qwen2_0_5b", bench_qwen2_0_5b),
                     ("gpt2_small", bench_gpt2_small)):
        folder = os.path.join(out_dir, name)
        os.makedirs(folder, exist_ok=True)
        fn(folder, case_rng("bench/" + name))
        print(f"{folder}: {folder_size(folder) / 1e6:.0f} MB")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", metavar="OUTDIR", help="write the benchmark checkpoints there instead")
    ap.add_argument("--out", default=HERE, help="where the golden case folders go (default: here)")
    ap.add_argument("--only", nargs="*", help="regenerate only these cases (index.json untouched)")
    args = ap.parse_args()
    torch.set_num_threads(1)  # the same bytes on any machine: no thread-count-dependent reductions
    if args.bench:
        make_bench(args.bench)
    else:
        make_goldens(args.out, args.only)


if __name__ == "__main__":
    main()
