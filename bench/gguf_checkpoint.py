#!/usr/bin/python3
"""Writes random checkpoints with Qwen2.5-0.5B's exact shapes (24 layers, hidden 896, 14 heads,
2 kv heads, intermediate 4864, vocabulary 151,936, tied embeddings, q/k/v biases) for
bench/gguf_bench.cpp, once, into a cache folder (later runs find them and return at once):

  bf16/            config.json + model.safetensors in BF16 (988 MB)
  q4_k_m.gguf      the tensor types llama-quantize's Q4_K_M gives this model (~400 MB): rows
                   of 896 are no whole number of 256-value K-quant blocks, so those matrices
                   fall back to Q5_0 (Q8_0 where Q4_K_M asks for Q6_K: attn_v in every other
                   layer), ffn_down (rows of 4864) is Q4_K, Q6_K in every other layer;
                   token_embd Q8_0; norms and biases F32
  q8_0.gguf        every matrix Q8_0 (~530 MB)

Both GGUF files carry Qwen2's real tokenizer metadata (151,936 tokens, 151,387 merges, pre
"qwen2"), copied from tests/data/gguf/vocab/ggml-vocab-qwen2.gguf, so opening them builds the
full vocabulary.  The weights are random: quantized blocks of random bits whose float16 scales
are drawn from a narrow positive range (every value finite, about N(0, 0.02)-sized), and BF16
values of N(0, 0.02).  Speed does not depend on the values.

gguf-py comes with llama.cpp's sources (/work/shared/tools/build_llamacpp.sh puts them in
/tmp/llamacpp/llama.cpp); run with the system python (numpy):
    /usr/bin/python3 bench/gguf_checkpoint.py [--out DIR] [--gguf-py DIR]
"""
import argparse
import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB = os.path.join(HERE, "..", "tests", "data", "gguf", "vocab", "ggml-vocab-qwen2.gguf")

E, LAYERS, H, KV, D, I, V = 896, 24, 14, 2, 64, 4864, 151936
CONFIG = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": E,
    "num_hidden_layers": LAYERS,
    "num_attention_heads": H,
    "num_key_value_heads": KV,
    "intermediate_size": I,
    "vocab_size": V,
    "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-06,
    "rope_theta": 1000000.0,
    "hidden_act": "silu",
    "tie_word_embeddings": True,
    "torch_dtype": "bfloat16",
    "bos_token_id": 151643,
    "eos_token_id": 151645,
}

# ggml block layouts: values per block, bytes per block, and where the float16 scales are.
BLOCKS = {
    "Q8_0": (32, 34, [0]),
    "Q5_0": (32, 22, [0]),
    "Q4_K": (256, 144, [0, 2]),
    "Q6_K": (256, 210, [208]),
}


def tensors():
    """(name, [rows, cols] or [n], kind): kind is a type name or "vec"."""
    out = [("token_embd.weight", [V, E], "Q8_0"), ("output_norm.weight", [E], "vec")]
    for n in range(LAYERS):
        more = n % 2 == 0  # Q4_K_M's use_more_bits, roughly: every other layer
        p = f"blk.{n}."
        out += [
            (p + "attn_norm.weight", [E], "vec"),
            (p + "attn_q.weight", [H * D, E], "Q5_0"),
            (p + "attn_q.bias", [H * D], "vec"),
            (p + "attn_k.weight", [KV * D, E], "Q5_0"),
            (p + "attn_k.bias", [KV * D], "vec"),
            (p + "attn_v.weight", [KV * D, E], "Q8_0" if more else "Q5_0"),
            (p + "attn_v.bias", [KV * D], "vec"),
            (p + "attn_output.weight", [E, H * D], "Q5_0"),
            (p + "ffn_norm.weight", [E], "vec"),
            (p + "ffn_gate.weight", [I, E], "Q5_0"),
            (p + "ffn_up.weight", [I, E], "Q5_0"),
            (p + "ffn_down.weight", [E, I], "Q6_K" if more else "Q4_K"),
        ]
    return out


# llama.cpp's per-layer names -> Hugging Face's (bench/generation_bench.py reads it backwards).
HF_LAYER_NAMES = {"attn_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
                  "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj",
                  "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj",
                  "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
                  "ffn_down": "mlp.down_proj"}


def hf_name(name):
    if name == "token_embd.weight":
        return "model.embed_tokens.weight"
    if name == "output_norm.weight":
        return "model.norm.weight"
    _, n, base, kind = name.split(".")
    return f"model.layers.{n}.{HF_LAYER_NAMES[base]}.{kind}"


def blocks(rng, kind, shape):
    """Random blocks of `kind` for a [rows, cols] matrix, as [rows, row bytes] uint8."""
    per, size, scales = BLOCKS[kind]
    rows, cols = shape
    n = rows * cols // per
    b = rng.integers(0, 256, size=(n, size), dtype=np.uint8)
    # Scales such that values are about 0.02: q8 (|q| <= 127), q5 (<= 16), K-quant sub-scales
    # (6-bit, times 4-bit q: up to 945 for Q4_K; signed 8-bit times 6-bit for Q6_K).
    top = {"Q8_0": 0.02 / 64, "Q5_0": 0.02 / 8, "Q4_K": 0.02 / 240, "Q6_K": 0.02 / 1000}[kind]
    for at in scales:
        d = rng.uniform(top / 2, top, size=n).astype(np.float16)
        b[:, at:at + 2] = d.view(np.uint8).reshape(n, 2)
    return b.reshape(rows, cols // per * size)


def copy_tokenizer(w, gguf, vocab=VOCAB):
    r = gguf.GGUFReader(vocab)
    for key, field in r.fields.items():
        if not key.startswith("tokenizer.") or key == "tokenizer.chat_template":
            continue
        t = field.types[0]
        if t == gguf.GGUFValueType.ARRAY:
            sub = field.types[1]
            if sub == gguf.GGUFValueType.STRING:
                value = [bytes(field.parts[i]).decode("utf-8") for i in field.data]
            else:
                value = [int(field.parts[i][0]) for i in field.data]
            w.add_array(key, value)
        elif t == gguf.GGUFValueType.STRING:
            w.add_string(key, bytes(field.parts[field.data[0]]).decode("utf-8"))
        else:
            w.add_key_value(key, field.parts[field.data[0]][0].item(), t)


def write_gguf(path, gguf, types):
    rng = np.random.default_rng(1)
    w = gguf.GGUFWriter(path + ".part", arch="qwen2")
    w.add_name("qwen2.5-0.5b-shapes (random)")
    w.add_context_length(CONFIG["max_position_embeddings"])
    w.add_embedding_length(E)
    w.add_feed_forward_length(I)
    w.add_block_count(LAYERS)
    w.add_head_count(H)
    w.add_head_count_kv(KV)
    w.add_rope_freq_base(CONFIG["rope_theta"])
    w.add_layer_norm_rms_eps(CONFIG["rms_norm_eps"])
    copy_tokenizer(w, gguf)
    for name, shape, kind in tensors():
        kind = types(kind)
        if kind == "vec":
            v = (1.0 if name.endswith("norm.weight") else 0.0) + rng.normal(0, 0.02, shape)
            w.add_tensor(name, v.astype(np.float32))
        else:
            w.add_tensor(name, blocks(rng, kind, shape),
                         raw_dtype=gguf.GGMLQuantizationType[kind])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(path + ".part", path)


def write_bf16(folder):
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(2)
    pool = rng.normal(0, 0.02, 1 << 24).astype(np.float32).view(np.uint32) >> 16
    pool = pool.astype(np.uint16)
    header, offset, order = {}, 0, []
    for name, shape, kind in tensors():
        n = int(np.prod(shape))
        header[hf_name(name)] = {"dtype": "BF16", "shape": shape,
                                 "data_offsets": [offset, offset + 2 * n]}
        order.append((n, kind, name))
        offset += 2 * n
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path = os.path.join(folder, "model.safetensors")
    with open(path + ".part", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for n, kind, name in order:
            if kind == "vec" and name.endswith("norm.weight"):
                f.write(np.full(n, 0x3F80, np.uint16).tobytes())  # 1.0
                continue
            start = int(rng.integers(0, pool.size))
            done = 0
            while done < n:
                m = min(n - done, pool.size - start)
                f.write(pool[start:start + m].tobytes())
                done += m
                start = 0
    os.replace(path + ".part", path)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(CONFIG, f, indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="/tmp/attnviz-bench/qwen2.5-0.5b-shapes")
    parser.add_argument("--gguf-py", default=os.environ.get("GGUF_PY",
                                                            "/tmp/llamacpp/llama.cpp/gguf-py"))
    args = parser.parse_args()
    sys.path.insert(0, args.gguf_py)
    import gguf  # noqa: E402

    os.makedirs(args.out, exist_ok=True)
    q4 = os.path.join(args.out, "q4_k_m.gguf")
    if not os.path.exists(q4):
        write_gguf(q4, gguf, lambda kind: kind)
    q8 = os.path.join(args.out, "q8_0.gguf")
    if not os.path.exists(q8):
        write_gguf(q8, gguf, lambda kind: kind if kind == "vec" else "Q8_0")
    bf16 = os.path.join(args.out, "bf16")
    if not os.path.exists(os.path.join(bf16, "model.safetensors")):
        write_bf16(bf16)
    for p in (q4, q8, os.path.join(bf16, "model.safetensors")):
        print(f"{p}: {os.path.getsize(p) / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
