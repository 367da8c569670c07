#!/usr/bin/python3
"""Converts tiny Hugging Face model goldens (tests/golden/models/) to GGUF as llama.cpp's
convert_hf_to_gguf.py does, for tests/test_gguf.cpp, with llama.cpp's gguf-py writer.

    /usr/bin/python3 tests/data/gguf/make_gguf_models.py [--gguf-py DIR]

(gguf-py: see make_gguf_files.py.)  Deterministic; commit what it writes to models/:

<case>.gguf              the checkpoint in its own dtype (F32, F16 or BF16; 1-D tensors F32 as
                         llama.cpp keeps them): its attention maps must equal the HF golden's
                         reference/attentions.npy
<case>.<TYPE>.gguf       2-D weights quantized by gguf-py (TYPE: Q8_0, Q4_0, Q4_1, Q5_0, Q5_1;
                         the K-quants need rows of 256 values, wider than these models)
<case>.<TYPE>.attentions.npy
                         hf_reference.py's float64 forward on the golden's input ids with the
                         weights gguf-py dequantizes from that file
llama_bias.gguf          llama_gqa with q/k/v/o biases (attention_bias), F32, and
llama_bias.attentions.npy
                         the float64 reference's maps of that checkpoint on llama_gqa's ids

llama.cpp's conventions, as convert_hf_to_gguf.py applies them: tensor names token_embd,
blk.N.attn_q/attn_k/attn_v/attn_output, attn_q_norm/attn_k_norm, attn_norm, ffn_gate/up/down,
ffn_norm, output_norm, output (GPT-2: position_embd, attn_qkv); the Q and K rows of `llama`
permuted for its rotary pairing, and their biases with them (LlamaModel.permute; qwen2/qwen3
are not permuted); GPT-2's
Conv1D weights transposed to [out, in]; a tied output left out.
"""

import argparse
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
GOLDEN = os.path.join(ROOT, "tests", "golden", "models")
OUT = os.path.join(HERE, "models")
sys.path.insert(0, GOLDEN)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import hf_reference as ref  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--gguf-py", default=os.environ.get("GGUF_PY", "/tmp/llamacpp/llama.cpp/gguf-py"))
args = parser.parse_args()
sys.path.insert(0, args.gguf_py)
import gguf  # noqa: E402
from gguf import GGMLQuantizationType as T  # noqa: E402

CASES = [("llama_gqa", ["Q8_0", "Q4_0"]), ("qwen2_bias_bf16", ["Q5_1"]),
         ("qwen3_qknorm", ["Q4_1"]), ("gpt2_lmhead", ["Q5_0"])]

LLAMA_NAMES = {  # HF (without model.) -> GGUF, per layer
    "input_layernorm.weight": "attn_norm.weight", "post_attention_layernorm.weight": "ffn_norm.weight",
    "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output", "self_attn.q_norm.weight": "attn_q_norm.weight",
    "self_attn.k_norm.weight": "attn_k_norm.weight", "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up", "mlp.down_proj": "ffn_down",
}
GPT2_NAMES = {
    "ln_1": "attn_norm", "ln_2": "ffn_norm", "attn.c_attn": "attn_qkv", "attn.c_proj": "attn_output",
    "mlp.c_fc": "ffn_up", "mlp.c_proj": "ffn_down",
}
GPT2_TRANSPOSED = ("attn_qkv.weight", "attn_output.weight", "ffn_up.weight", "ffn_down.weight")


def permute(w, n_head, n_head_kv):
    """convert_hf_to_gguf.py LlamaModel.permute."""
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def unpermute(w, n_head, n_head_kv):
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return w.reshape(n_head, w.shape[0] // n_head // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def to_gguf(config, state):
    """{gguf name: float array in GGUF's row-major layout} of a checkpoint."""
    mt = config["model_type"]
    out = {}
    if mt == "gpt2":
        for k, v in state.items():
            k = k[len("transformer."):] if k.startswith("transformer.") else k
            if k.split(".")[-2:] in (["attn", "bias"], ["attn", "masked_bias"]) or v.dtype == np.bool_:
                continue
            if k == "wte.weight":
                name = "token_embd.weight"
            elif k == "wpe.weight":
                name = "position_embd.weight"
            elif k.startswith("ln_f."):
                name = "output_norm." + k.split(".")[-1]
            elif k == "lm_head.weight":
                continue  # tied
            else:
                _, n, rest = k.split(".", 2)
                base, kind = rest.rsplit(".", 1)
                name = f"blk.{n}.{GPT2_NAMES[base]}.{kind}"
            if name.endswith(GPT2_TRANSPOSED):
                v = v.T
            out[name] = np.ascontiguousarray(v)
        return out
    H = config["num_attention_heads"]
    KV = config.get("num_key_value_heads", H)
    for k, v in state.items():
        if k == "lm_head.weight":
            if not config.get("tie_word_embeddings", False):
                out["output.weight"] = v
            continue
        k = k[len("model."):]
        if k == "embed_tokens.weight":
            out["token_embd.weight"] = v
            continue
        if k == "norm.weight":
            out["output_norm.weight"] = v
            continue
        _, n, rest = k.split(".", 2)
        if rest in LLAMA_NAMES:
            name = LLAMA_NAMES[rest]
        else:
            base, kind = rest.rsplit(".", 1)
            name = LLAMA_NAMES[base] + "." + kind
        # convert_hf_to_gguf.py permutes q_proj's and k_proj's weights and biases alike.
        if mt == "llama" and name in ("attn_q.weight", "attn_q.bias"):
            v = permute(v, H, H)
        elif mt == "llama" and name in ("attn_k.weight", "attn_k.bias"):
            v = permute(v, H, KV)
        out[f"blk.{n}.{name}"] = np.ascontiguousarray(v)
    return out


def from_gguf(config, tensors):
    """The inverse of to_gguf: HF names (base model + lm_head), HF layouts."""
    mt = config["model_type"]
    state = {}
    if mt == "gpt2":
        inverse = {v: k for k, v in GPT2_NAMES.items()}
        for name, v in tensors.items():
            if name.endswith(GPT2_TRANSPOSED):
                v = v.T
            if name == "token_embd.weight":
                k = "wte.weight"
            elif name == "position_embd.weight":
                k = "wpe.weight"
            elif name.startswith("output_norm."):
                k = "ln_f." + name.split(".")[-1]
            else:
                _, n, base, kind = name.split(".")
                k = f"h.{n}.{inverse[base]}.{kind}"
            state[k] = np.ascontiguousarray(v)
        return state
    H = config["num_attention_heads"]
    KV = config.get("num_key_value_heads", H)
    inverse = {v: k for k, v in LLAMA_NAMES.items()}
    for name, v in tensors.items():
        if name == "output.weight":
            state["lm_head.weight"] = v
            continue
        if name == "token_embd.weight":
            state["model.embed_tokens.weight"] = v
            continue
        if name == "output_norm.weight":
            state["model.norm.weight"] = v
            continue
        _, n, rest = name.split(".", 2)
        if mt == "llama" and rest in ("attn_q.weight", "attn_q.bias"):
            v = unpermute(v, H, H)
        elif mt == "llama" and rest in ("attn_k.weight", "attn_k.bias"):
            v = unpermute(v, H, KV)
        if rest in inverse:
            k = inverse[rest]
        else:
            base, kind = rest.rsplit(".", 1)
            k = inverse[base] + "." + kind
        state[f"model.layers.{n}.{k}"] = np.ascontiguousarray(v)
    return state


def hyperparameters(w, config):
    mt = config["model_type"]
    if mt == "gpt2":
        w.add_context_length(config["n_positions"])
        w.add_embedding_length(config["n_embd"])
        w.add_feed_forward_length(config.get("n_inner") or 4 * config["n_embd"])
        w.add_block_count(config["n_layer"])
        w.add_head_count(config["n_head"])
        w.add_layer_norm_eps(config["layer_norm_epsilon"])
        return
    H = config["num_attention_heads"]
    head_dim = config.get("head_dim") or config["hidden_size"] // H
    w.add_context_length(config["max_position_embeddings"])
    w.add_embedding_length(config["hidden_size"])
    w.add_feed_forward_length(config["intermediate_size"])
    w.add_block_count(config["num_hidden_layers"])
    w.add_head_count(H)
    w.add_head_count_kv(config.get("num_key_value_heads", H))
    w.add_rope_freq_base(config["rope_theta"])
    w.add_layer_norm_rms_eps(config["rms_norm_eps"])
    w.add_key_length(head_dim)
    w.add_value_length(head_dim)
    w.add_rope_dimension_count(head_dim)
    w.add_vocab_size(config["vocab_size"])


def tokenizer_metadata(w, folder, config):
    """The golden's tokenizer as llama.cpp's converter writes it: tokens by id (padded to the
    model's vocab_size with [PAD<id>] user-defined tokens, as llama.cpp pads), their types
    (control for special added tokens), and merges (byte-level BPE) or scores (SentencePiece:
    a merged piece scores minus the rank of the merge that makes it, so the merges
    transformers derives from the scores come out in the file's order)."""
    tj = os.path.join(folder, "tokenizer.json")
    if os.path.exists(tj):
        with open(tj, encoding="utf-8") as f:
            t = json.load(f)
        vocab = dict(t["model"]["vocab"])
        merges = [m if isinstance(m, str) else " ".join(m) for m in t["model"]["merges"]]
        special = {a["content"]: a["id"] for a in t["added_tokens"] if a.get("special")}
        for a in t["added_tokens"]:
            vocab[a["content"]] = a["id"]
        spm = bool(t["model"].get("byte_fallback"))
    else:  # GPT2Tokenizer files
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            vocab = json.load(f)
        with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as f:
            merges = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#version")]
        special = {"<|endoftext|>": vocab["<|endoftext|>"]}
        spm = False
    n = max(config["vocab_size"], max(vocab.values()) + 1)
    tokens = [f"[PAD{i}]" for i in range(n)]
    types = [gguf.TokenType.USER_DEFINED] * n
    for tok, i in vocab.items():
        tokens[i] = tok
        types[i] = gguf.TokenType.CONTROL if tok in special else gguf.TokenType.NORMAL
    if spm:
        scores = [-1e9] * n
        for rank, m in enumerate(merges):
            merged = m.replace(" ", "")
            if merged in vocab and scores[vocab[merged]] == -1e9:
                scores[vocab[merged]] = -float(rank)
        for i, tok in enumerate(tokens):
            if tok.startswith("<0x") and len(tok) == 6:
                types[i] = gguf.TokenType.BYTE
            if tok == "<unk>":
                types[i] = gguf.TokenType.UNKNOWN
        w.add_tokenizer_model("llama")
        w.add_tokenizer_pre("default")
        w.add_token_list(tokens)
        w.add_token_scores(scores)
        w.add_token_types(types)
        w.add_unk_token_id(vocab["<unk>"])
        w.add_bos_token_id(vocab["<s>"])
        w.add_eos_token_id(vocab["</s>"])
        w.add_add_bos_token(True)
        w.add_add_eos_token(False)
        return
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt-2" if config["model_type"] == "gpt2" else "qwen2")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(config["bos_token_id"])
    w.add_eos_token_id(config["eos_token_id"])


def write_model(path, config, tensors, qtype, source_dtype, folder):
    """Writes the file; returns what gguf-py dequantizes from it, by name."""
    w = gguf.GGUFWriter(path, arch=config["model_type"])
    w.add_name(os.path.basename(path))
    hyperparameters(w, config)
    tokenizer_metadata(w, folder, config)
    w.add_file_type(0)
    for name, v in tensors.items():
        v = np.asarray(v, dtype=np.float32)
        if v.ndim == 1:
            w.add_tensor(name, v)
        elif qtype is not None:
            w.add_tensor(name, gguf.quants.quantize(v, qtype), raw_dtype=qtype)
        elif source_dtype == "float16":
            w.add_tensor(name, v.astype(np.float16))
        elif source_dtype == "bfloat16":
            w.add_tensor(name, gguf.quants.quantize(v, T.BF16), raw_dtype=T.BF16)
        else:
            w.add_tensor(name, v)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    r = gguf.GGUFReader(path)
    return {t.name: gguf.quants.dequantize(t.data, t.tensor_type).reshape(
        [int(n) for n in reversed(t.shape)]).astype(np.float32) for t in r.tensors}


def main():
    os.makedirs(OUT, exist_ok=True)
    for case, qtypes in CASES:
        folder = os.path.join(GOLDEN, case)
        config, state = ref.load_folder(folder)
        ids = np.load(os.path.join(folder, "reference", "input_ids.npy"))
        golden = np.load(os.path.join(folder, "reference", "attentions.npy"))
        tensors = to_gguf(config, state)
        source = config.get("torch_dtype", "float32")
        back = write_model(os.path.join(OUT, case + ".gguf"), config, tensors, None, source, folder)
        # The unquantized file holds the checkpoint exactly: its forward is the golden's.
        attn, _ = ref.forward(config, from_gguf(config, back), ids)
        diff = np.abs(torch.stack(attn).numpy() - golden).max()
        assert diff < 1e-6, (case, diff)
        for q in qtypes:
            qt = T[q]
            path = os.path.join(OUT, f"{case}.{q}.gguf")
            back = write_model(path, config, tensors, qt, source, folder)
            attn, _ = ref.forward(config, from_gguf(config, back), ids)
            maps = torch.stack(attn).numpy()
            moved = np.abs(maps - golden).max()
            assert moved > 1e-4, (case, q, moved)  # quantization must show in the maps
            np.save(os.path.join(OUT, f"{case}.{q}.attentions.npy"), maps.astype(np.float32))
            print(f"{case} {q}: maps moved {moved:.2e} from the unquantized golden")
    write_llama_with_biases()


def write_llama_with_biases():
    """llama_gqa with q/k/v/o biases (attention_bias): the file whose q and k biases
    llama.cpp's converter permutes as it does their weights.  No Hugging Face folder exists for
    it, so the float64 reference's maps are written beside it."""
    folder = os.path.join(GOLDEN, "llama_gqa")
    config, state = ref.load_folder(folder)
    config = dict(config, attention_bias=True)
    rng = np.random.default_rng(25)
    for name in list(state):
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            if name.endswith(f"self_attn.{proj}.weight"):
                rows = state[name].shape[0]
                state[name[: -len("weight")] + "bias"] = (
                    rng.standard_normal(rows) * 0.5).astype(state[name].dtype)
    ids = np.load(os.path.join(folder, "reference", "input_ids.npy"))
    tensors = to_gguf(config, state)
    back = write_model(os.path.join(OUT, "llama_bias.gguf"), config, tensors, None, "float32",
                       folder)
    attn, _ = ref.forward(config, state, ids)
    maps = torch.stack(attn).numpy()
    again, _ = ref.forward(config, from_gguf(config, back), ids)
    assert np.abs(torch.stack(again).numpy() - maps).max() < 1e-6
    np.save(os.path.join(OUT, "llama_bias.attentions.npy"), maps.astype(np.float32))
    print("llama_bias: written with its reference maps")


if __name__ == "__main__":
    main()
