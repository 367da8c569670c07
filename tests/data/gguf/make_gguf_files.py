#!/usr/bin/python3
"""Writes the GGUF test files for engine/io/gguf.h and engine/io/gguf_quants.h
(tests/test_gguf.cpp), with llama.cpp's own Python writer and reader, gguf-py.

gguf-py is not installed system-wide: it comes with llama.cpp's sources, which
/work/shared/tools/build_llamacpp.sh (or its first lines: `npm pack node-llama-cpp`, clone the
bundle) puts in /tmp/llamacpp/llama.cpp.  Run with the system python (numpy):
    /usr/bin/python3 tests/data/gguf/make_gguf_files.py [--gguf-py DIR]
DIR defaults to $GGUF_PY, else /tmp/llamacpp/llama.cpp/gguf-py.  The output is deterministic;
commit what it writes (the tests do not need gguf-py).

metadata_v3.gguf     every metadata value type, arrays of each, a few small tensors
align64_v2.gguf      general.alignment = 64, written as version 2 (same layout as 3)
expected.json        what gguf-py's GGUFReader reads from both: version, alignment, data
                     offset, every key with its type and value, every tensor's type, ne,
                     offset and size
fuzz/corpus/gguf/    seeds for fuzz_gguf: the two small files above and hand-made bad ones
quants.gguf          one [2, 512] tensor per supported type (F32 F16 BF16 Q8_0 Q4_0 Q4_1
                     Q5_0 Q5_1 Q2_K Q3_K Q4_K Q5_K Q6_K): random normals quantized by gguf-py
                     where gguf-py can quantize the type, random blocks with finite scales
                     where it cannot (the K-quants); "<type>.expected" beside each is
                     gguf-py's dequantization (F32).  Also IQ2_XXS and TQ1_0 tensors, which
                     the engine must refuse.
"""

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

parser = argparse.ArgumentParser()
parser.add_argument("--gguf-py", default=os.environ.get("GGUF_PY", "/tmp/llamacpp/llama.cpp/gguf-py"))
args = parser.parse_args()
sys.path.insert(0, args.gguf_py)
import gguf  # noqa: E402
from gguf import GGMLQuantizationType as T  # noqa: E402
from gguf import GGUFValueType as V  # noqa: E402


def write(path, build, alignment=None, version=None):
    w = gguf.GGUFWriter(path, arch="test")
    if alignment is not None:
        w.add_uint32("general.alignment", alignment)
        w.data_alignment = alignment
    build(w)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    if version is not None:  # versions 2 and 3 share the little-endian layout
        with open(path, "r+b") as f:
            f.seek(4)
            f.write(np.uint32(version).tobytes())


SCALARS = [
    ("t.u8", V.UINT8, 200), ("t.i8", V.INT8, -100), ("t.u16", V.UINT16, 60000),
    ("t.i16", V.INT16, -30000), ("t.u32", V.UINT32, 4000000000), ("t.i32", V.INT32, -2000000000),
    ("t.f32", V.FLOAT32, 0.1), ("t.bool", V.BOOL, True), ("t.false", V.BOOL, False),
    ("t.str", V.STRING, "h\u00e9llo \u4e16\u754c"), ("t.u64", V.UINT64, 18446744073709551615),
    ("t.i64", V.INT64, -9223372036854775808), ("t.f64", V.FLOAT64, 1e300),
]
ARRAYS = [
    ("a.u8", V.UINT8, [0, 1, 255]), ("a.i8", V.INT8, [-128, 127]), ("a.u16", V.UINT16, [65535]),
    ("a.i16", V.INT16, [-1, 2, -3]), ("a.u32", V.UINT32, [7, 4294967295]),
    ("a.i32", V.INT32, [-7, 0, 2147483647]), ("a.f32", V.FLOAT32, [0.5, -1.25, 3e38]),
    ("a.bool", V.BOOL, [True, False, True]), ("a.u64", V.UINT64, [1, 2**63]),
    ("a.i64", V.INT64, [-(2**62), 5]), ("a.f64", V.FLOAT64, [1.5, -2.5e-300]),
    ("a.str", V.STRING, ["", "a", "\u0120the", "\u00e9\u00e8"]),
]


def metadata_file(w):
    for key, vt, val in SCALARS:
        w.add_key_value(key, val, vt)
    for key, vt, val in ARRAYS:
        w.add_key_value(key, val, V.ARRAY, sub_type=vt)
    rng = np.random.default_rng(1)
    w.add_tensor("m.f32", rng.standard_normal((2, 3)).astype(np.float32))
    w.add_tensor("m.f16", rng.standard_normal(5).astype(np.float16))
    w.add_tensor("m.3d", rng.standard_normal((2, 3, 4)).astype(np.float32))
    q = gguf.quants.quantize(rng.standard_normal((3, 64)).astype(np.float32), T.Q8_0)
    w.add_tensor("m.q8_0", q, raw_dtype=T.Q8_0)


def align_file(w):
    w.add_string("t.name", "aligned")
    rng = np.random.default_rng(2)
    w.add_tensor("x", rng.standard_normal(7).astype(np.float32))
    w.add_tensor("y", rng.standard_normal((2, 2)).astype(np.float32))


def describe(path):
    r = gguf.GGUFReader(path)
    keys = []
    for f in r.fields.values():
        if f.name.startswith("GGUF."):
            continue
        t = f.types[0]
        entry = {"key": f.name, "type": int(t)}
        if t == V.ARRAY:
            entry["element_type"] = int(f.types[1])
            if f.types[1] == V.STRING:
                entry["value"] = [bytes(f.parts[i]).decode("utf-8") for i in f.data]
            else:
                entry["value"] = [f.parts[i].tolist()[0] for i in f.data]
        elif t == V.STRING:
            entry["value"] = bytes(f.parts[f.data[0]]).decode("utf-8")
        else:
            entry["value"] = f.parts[f.data[0]].tolist()[0]
        if isinstance(entry["value"], float) or (isinstance(entry["value"], list) and entry["value"]
                                                 and isinstance(entry["value"][0], float)):
            entry["value"] = [repr(float(v)) for v in (entry["value"] if isinstance(entry["value"], list)
                                                        else [entry["value"]])]
            if t != V.ARRAY:
                entry["value"] = entry["value"][0]
        keys.append(entry)
    tensors = [{"name": t.name, "type": int(t.tensor_type), "ne": [int(n) for n in t.shape],
                "offset": int(t.data_offset - r.data_offset), "nbytes": int(t.n_bytes)}
               for t in r.tensors]
    version = int(r.fields["GGUF.version"].parts[-1][0])
    return {"version": version, "alignment": int(r.alignment), "data_offset": int(r.data_offset),
            "metadata": keys, "tensors": tensors}


# Block layouts of the K-quants (ggml-common.h), for random blocks with finite scales: the
# byte offsets of their float16 fields.
K_F16_FIELDS = {T.Q2_K: (84, [80, 82]), T.Q3_K: (110, [108]), T.Q4_K: (144, [0, 2]),
                T.Q5_K: (176, [0, 2]), T.Q6_K: (210, [208]), T.IQ2_XXS: (66, [0]),
                T.TQ1_0: (54, [52])}


def random_blocks(rng, qtype, n_blocks):
    size, f16_at = K_F16_FIELDS[qtype]
    blocks = rng.integers(0, 256, size=(n_blocks, size), dtype=np.uint8)
    for at in f16_at:
        d = (rng.standard_normal(n_blocks) * 0.01).astype(np.float16)
        blocks[:, at:at + 2] = d.view(np.uint8).reshape(n_blocks, 2)
    return blocks


QUANT_TYPES = [T.F32, T.F16, T.BF16, T.Q8_0, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1,
               T.Q2_K, T.Q3_K, T.Q4_K, T.Q5_K, T.Q6_K]


def quants_file(w):
    rng = np.random.default_rng(3)
    rows, cols = 2, 512
    for qt in QUANT_TYPES + [T.IQ2_XXS, T.TQ1_0]:
        if qt in K_F16_FIELDS:
            stored = random_blocks(rng, qt, rows * cols // 256).reshape(rows, -1)
        else:
            x = rng.standard_normal((rows, cols)).astype(np.float32)
            x[0, :7] = [0.0, -0.0, 1e-8, -3.5, 65504.0, 1e-30, 2.5]  # zeros, subnormals, extremes
            stored = gguf.quants.quantize(x, qt)
        if qt == T.F32:
            w.add_tensor(qt.name, stored)
        elif qt == T.F16:
            w.add_tensor(qt.name, stored)
        else:
            w.add_tensor(qt.name, stored, raw_dtype=qt)
        if qt in QUANT_TYPES:
            expected = gguf.quants.dequantize(stored, qt).astype(np.float32)
            assert expected.shape == (rows, cols) and np.isfinite(expected).all(), qt.name
            w.add_tensor(qt.name + ".expected", expected)


def bad_seeds(corpus):
    """Small files that lie, one way each (tests/test_gguf.cpp makes the same kinds)."""
    import struct

    def header(n_tensors, n_kv, version=3):
        return b"GGUF" + struct.pack("<IQQ", version, n_tensors, n_kv)

    def s(text):
        return struct.pack("<Q", len(text)) + text.encode()

    def tensor(name, ne, qtype, offset):
        return s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne) + \
            struct.pack("<IQ", qtype, offset)

    def padded(b):
        return b + b"\0" * (-len(b) % 32)

    arch = s("general.architecture") + struct.pack("<I", 8) + s("test")
    seeds = {
        "bad_count_2_60": header(1 << 60, 0),
        "bad_string_past_end": header(0, 1) + s("k") + struct.pack("<IQ", 8, 1000) + b"short",
        "bad_array_of_arrays": header(0, 1) + s("k") + struct.pack("<IIQIQ", 9, 9, 1, 4, 0),
        "bad_overlap": padded(header(2, 1) + arch + tensor("a", [4], 0, 0) + tensor("b", [4], 0, 0))
        + b"\1" * 64,
        "bad_misaligned": padded(header(2, 1) + arch + tensor("a", [4], 0, 0) + tensor("b", [4], 0, 16))
        + b"\1" * 64,
        "bad_unknown_type": padded(header(1, 0) + tensor("w", [32], 99, 0)) + b"\1" * 64,
        "bad_duplicate_name": padded(header(2, 0) + tensor("a", [4], 0, 0) + tensor("a", [4], 0, 32))
        + b"\1" * 64,
        "q4_k_row": padded(header(1, 1) + arch + tensor("w", [256, 1], 12, 0)) + b"\1" * 144,
    }
    os.makedirs(corpus, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(corpus, name + ".gguf"), "wb") as f:
            f.write(data)


def main():
    meta = os.path.join(HERE, "metadata_v3.gguf")
    align = os.path.join(HERE, "align64_v2.gguf")
    write(meta, metadata_file)
    write(align, align_file, alignment=64, version=2)
    expected = {"metadata_v3.gguf": describe(meta), "align64_v2.gguf": describe(align)}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
        f.write("\n")
    write(os.path.join(HERE, "quants.gguf"), quants_file)
    corpus = os.path.join(HERE, "..", "..", "..", "fuzz", "corpus", "gguf")
    bad_seeds(corpus)
    for pre in ("gpt-2", "qwen2", "llama-bpe", "default"):
        w = gguf.GGUFWriter(os.path.join(corpus, f"vocab_bpe_{pre}.gguf"), arch="gpt2")
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre(pre)
        w.add_token_list(["a", "b", "c", "\u0120", "ab", "\u0120a", "<|end|>"])
        w.add_token_types([1, 1, 1, 1, 1, 1, 3])
        w.add_token_merges(["a b", "\u0120 a"])
        w.add_bos_token_id(6)
        w.add_eos_token_id(6)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
    w = gguf.GGUFWriter(os.path.join(corpus, "vocab_spm.gguf"), arch="llama")
    w.add_tokenizer_model("llama")
    w.add_token_list(["<unk>", "<s>", "</s>", "<0x41>", "\u2581", "a", "b", "ab", "\u2581ab"])
    w.add_token_scores([0.0, 0.0, 0.0, 0.0, -1.0, -2.0, -3.0, -4.0, -5.0])
    w.add_token_types([2, 3, 3, 6, 1, 1, 1, 1, 1])
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    w = gguf.GGUFWriter(os.path.join(corpus, "vocab_bert.gguf"), arch="bert")
    w.add_tokenizer_model("bert")
    w.add_token_list(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "\u2581the", "\u2581cat", "s"])
    w.add_token_types([3, 3, 3, 3, 1, 1, 1])
    w.add_unk_token_id(1)
    w.add_uint32("tokenizer.ggml.cls_token_id", 2)
    w.add_sep_token_id(3)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    for name in ("metadata_v3.gguf", "align64_v2.gguf"):
        with open(os.path.join(HERE, name), "rb") as src, open(os.path.join(corpus, name), "wb") as dst:
            dst.write(src.read())


if __name__ == "__main__":
    main()
