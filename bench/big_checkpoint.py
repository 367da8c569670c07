#!/usr/bin/python3
"""Writes a random BF16 checkpoint with Llama-3-8B's exact shapes (32 layers, hidden 4096,
32 heads, 8 kv heads, intermediate 14336, vocabulary 128,256; 4 shards, about 16 GB) once
into a cache folder, for bench/big_model_bench.py.  Later runs find it and return at once.
With --shape qwen2.5-0.5b: Qwen2.5-0.5B's (24 layers, hidden 896, 14 heads, 2 kv heads,
intermediate 4864, vocabulary 151,936, q/k/v biases, tied embeddings; one file, about 1 GB),
for bench/stats_bench.py.

The values are a 64M-value pool of N(0, 0.02) numbers in bfloat16, each tensor read from
the pool at a random offset: random enough for a speed test, and written at disk speed.

    /usr/bin/python3 bench/big_checkpoint.py [--shape llama3-8b|qwen2.5-0.5b] [--out DIR]
        [--layers N] [--shards N]
"""
import argparse
import json
import os
import shutil
import struct
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZERS = os.path.join(HERE, "..", "tests", "data", "tokenizers")

LLAMA3_8B = {
    "architectures": ["LlamaForCausalLM"],
    "attention_bias": False,
    "bos_token_id": 128000,
    "eos_token_id": 128001,
    "head_dim": 128,
    "hidden_act": "silu",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "max_position_embeddings": 8192,
    "mlp_bias": False,
    "model_type": "llama",
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "rms_norm_eps": 1e-05,
    "rope_theta": 500000.0,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "vocab_size": 128256,
}

QWEN25_05B = {
    "architectures": ["Qwen2ForCausalLM"],
    "bos_token_id": 151643,
    "eos_token_id": 151643,
    "hidden_act": "silu",
    "hidden_size": 896,
    "intermediate_size": 4864,
    "max_position_embeddings": 32768,
    "model_type": "qwen2",
    "num_attention_heads": 14,
    "num_hidden_layers": 24,
    "num_key_value_heads": 2,
    "rms_norm_eps": 1e-06,
    "rope_theta": 1000000.0,
    "tie_word_embeddings": True,
    "torch_dtype": "bfloat16",
    "vocab_size": 151936,
}

# name: (config, tokenizer folder under tests/data/tokenizers, default folder, default shards)
SHAPES = {
    "llama3-8b": (LLAMA3_8B, "llama3_tiny", "/tmp/attnviz-bench/llama3-8b-shapes", 4),
    "qwen2.5-0.5b": (QWEN25_05B, "qwen2", "/tmp/attnviz-bench/qwen2.5-0.5b-bf16", 1),
}


def tensors(c, layers):
    E, I, V = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    d = c.get("head_dim") or E // c["num_attention_heads"]
    kv = c["num_key_value_heads"] * d
    bias = c["model_type"] == "qwen2"  # Qwen2's q, k and v projections have biases
    yield "model.embed_tokens.weight", (V, E)
    for i in range(layers):
        p = f"model.layers.{i}."
        yield p + "input_layernorm.weight", (E,)
        yield p + "self_attn.q_proj.weight", (E, E)
        yield p + "self_attn.k_proj.weight", (kv, E)
        yield p + "self_attn.v_proj.weight", (kv, E)
        if bias:
            yield p + "self_attn.q_proj.bias", (E,)
            yield p + "self_attn.k_proj.bias", (kv,)
            yield p + "self_attn.v_proj.bias", (kv,)
        yield p + "self_attn.o_proj.weight", (E, E)
        yield p + "post_attention_layernorm.weight", (E,)
        yield p + "mlp.gate_proj.weight", (I, E)
        yield p + "mlp.up_proj.weight", (I, E)
        yield p + "mlp.down_proj.weight", (E, I)
    yield "model.norm.weight", (E,)
    if not c.get("tie_word_embeddings"):
        yield "lm_head.weight", (V, E)


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def write_shard(path, items, pool, gen):
    header, at = {}, 0
    for name, shape in items:
        n = numel(shape) * 2
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [at, at + n]}
        at += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    raw = pool.view(torch.int16).numpy().tobytes()
    ones = torch.ones(1 << 16, dtype=torch.bfloat16).view(torch.int16).numpy().tobytes()
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name, shape in items:
            left = numel(shape) * 2
            if name.endswith("norm.weight"):  # ones, as a fresh model has
                f.write(ones[:left])
                continue
            while left:
                start = int(torch.randint(0, len(raw) // 2, (1,), generator=gen)) * 2
                chunk = min(left, len(raw) - start)
                f.write(memoryview(raw)[start:start + chunk])
                left -= chunk
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=sorted(SHAPES), default="llama3-8b")
    ap.add_argument("--out")
    ap.add_argument("--layers", type=int)
    ap.add_argument("--shards", type=int)
    a = ap.parse_args()
    base, tokenizer, default_out, default_shards = SHAPES[a.shape]
    a.out = a.out or default_out
    a.layers = a.layers or base["num_hidden_layers"]
    a.shards = a.shards or default_shards
    done = os.path.join(a.out, ".complete")
    if os.path.exists(done):
        print(a.out)
        return
    os.makedirs(a.out, exist_ok=True)
    config = dict(base, num_hidden_layers=a.layers)
    items = list(tensors(config, a.layers))
    total = sum(numel(s) * 2 for _, s in items)
    # Shards of about equal size, in order (as save_pretrained splits them).
    shards, current, size = [], [], 0
    for it in items:
        current.append(it)
        size += numel(it[1]) * 2
        if size >= total / a.shards and len(shards) < a.shards - 1:
            shards.append(current)
            current, size = [], 0
    if current:
        shards.append(current)
    gen = torch.Generator().manual_seed(0)
    pool = (torch.randn(1 << 26, generator=gen) * 0.02).to(torch.bfloat16)
    weight_map = {}
    for i, part in enumerate(shards):
        file = f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors"
        print(f"writing {file}", file=sys.stderr, flush=True)
        write_shard(os.path.join(a.out, file), part, pool, gen)
        for name, _ in part:
            weight_map[name] = file
    with open(os.path.join(a.out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=1)
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(os.path.join(TOKENIZERS, tokenizer, name), a.out)
    open(done, "w").close()
    print(a.out)


if __name__ == "__main__":
    main()
