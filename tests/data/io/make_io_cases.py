#!/usr/bin/python3
"""Writes the test files for engine/io (tests/test_npy.cpp, tests/test_safetensors.cpp).

Run with the system python, which has numpy and torch:
    /usr/bin/python3 tests/data/io/make_io_cases.py
The output is deterministic; commit what it writes.

npy/            .npy files numpy wrote (every supported dtype, both byte orders, Fortran
                order, format versions 1-3, 0-d and empty arrays), hand-made header variants
                numpy accepts, reference arrays, and bad_*.npy files that must be refused.
safetensors/    safetensors files laid out exactly as safetensors.torch.save_file writes them
                (the safetensors package is not installed here, so its writer is emulated
                below), holding torch nn.MultiheadAttention state_dicts in both layouts and in
                F32/F64/F16/BF16; ref/<file>/<tensor>.npy holds torch's float32 values of each
                tensor.  bad_*.safetensors must be refused.
"""

import json
import os
import shutil
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
NPY = os.path.join(HERE, "npy")
ST = os.path.join(HERE, "safetensors")


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def np_bytes(array, version=None):
    import io

    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, version=version, allow_pickle=False)
    return buf.getvalue()


def save_npy(folder, name, array, version=None):
    write(folder, name, np_bytes(array, version))


def npy_by_hand(header, data, version=(1, 0), align=64):
    """A .npy file with the given header dict text, padded as numpy pads (or to `align`)."""
    text = header.encode("latin1")
    preamble = 10 if version[0] == 1 else 12
    pad = (-(preamble + len(text) + 1)) % align
    text += b" " * pad + b"\n"
    length = struct.pack("<H" if version[0] == 1 else "<I", len(text))
    return b"\x93NUMPY" + bytes(version) + length + text + data


# --------------------------------------------------------------------------------------------
# .npy


def make_npy():
    shutil.rmtree(NPY, ignore_errors=True)
    rng = np.random.default_rng(20240601)
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)

    # Every float dtype in both byte orders; the float64 ones hold values that need rounding.
    save_npy(NPY, "f4_le.npy", a.astype("<f4"))
    save_npy(NPY, "f4_be.npy", a.astype(">f4"))
    a64 = rng.standard_normal((2, 3, 4))
    save_npy(NPY, "f8_le.npy", a64.astype("<f8"))
    save_npy(NPY, "f8_be.npy", a64.astype(">f8"))
    save_npy(NPY, "f8_as_f4.npy", a64.astype(np.float32))  # numpy's rounding to float32
    special = np.array(
        [np.nan, np.inf, -np.inf, -0.0, 1e-45, 1.17549435e-38, 3.4028235e38, -1.5], np.float32
    )
    save_npy(NPY, "f4_special.npy", special)
    save_npy(NPY, "f8_special.npy", np.array([np.nan, np.inf, -np.inf, -0.0, 1e300, -1e-300]))

    # Masks: every integer dtype holding the same zero/non-zero pattern.
    pattern = rng.integers(0, 2, (3, 5)) * rng.integers(1, 4, (3, 5))  # 0 or 1..3
    save_npy(NPY, "mask_b1.npy", pattern.astype(bool))
    save_npy(NPY, "mask_u1.npy", (pattern * 85).astype(np.uint8))  # 0, 85, 170, 255
    save_npy(NPY, "mask_i1.npy", (-pattern).astype(np.int8))
    save_npy(NPY, "mask_i4.npy", (pattern * 1000).astype("<i4"))
    save_npy(NPY, "mask_i4_be.npy", (pattern * 1000).astype(">i4"))
    save_npy(NPY, "mask_i8.npy", (pattern << 40).astype("<i8"))
    save_npy(NPY, "mask_ref.npy", (pattern != 0).astype(np.float32))
    save_npy(NPY, "mask_fortran_b1.npy", np.asfortranarray(pattern.astype(bool)))
    # A bool array whose bytes are not all 0/1 (numpy never writes it, others might).
    write(NPY, "mask_b1_nonbinary.npy",
          npy_by_hand("{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }",
                      bytes([0, 1, 2, 255, 0])))
    save_npy(NPY, "mask_additive_f4.npy",
             np.array([[0, -np.inf, 0], [-1e9, 0, 0.5]], np.float32))

    # Fortran order: what np.save writes for a transposed or asfortranarray'd array.
    save_npy(NPY, "fortran_f4_2x3x4.npy", np.asfortranarray(a))
    m = rng.standard_normal((3, 4)).astype(np.float32)
    save_npy(NPY, "c_f4_3x4.npy", m)
    save_npy(NPY, "fortran_f4_3x4.npy", np.asfortranarray(m))
    save_npy(NPY, "fortran_f8_be_4x3.npy", m.T.astype(">f8"))  # .T of C is F-contiguous

    # Format versions 2.0 and 3.0 (numpy uses them for huge or non-latin1 headers).
    save_npy(NPY, "v2_f4.npy", m, version=(2, 0))
    save_npy(NPY, "v3_f4.npy", m, version=(3, 0))

    # Header variants numpy accepts: any key order, spacing, no trailing comma, double
    # quotes, 16-byte alignment (numpy < 1.9), Python 2 long suffixes.
    mb = m.astype("<f4").tobytes()
    write(NPY, "hdr_reordered.npy",
          npy_by_hand("{'shape': (3, 4), 'fortran_order': False, 'descr': '<f4'}", mb))
    write(NPY, "hdr_spaces.npy",
          npy_by_hand('{ "fortran_order" :False ,\t"shape":( 3 ,4 , ) ,\n "descr" : "<f4" , }', mb))
    write(NPY, "hdr_align16.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", mb, align=16))
    write(NPY, "hdr_py2_long.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3L, 4L), }", mb))

    # Shapes: 0-d, one element, empty.
    save_npy(NPY, "shape_0d.npy", np.array(2.5, np.float32))
    save_npy(NPY, "shape_1.npy", np.array([-7.25], np.float32))
    save_npy(NPY, "shape_0.npy", np.zeros((0,), np.float32))
    save_npy(NPY, "shape_2x0x3.npy", np.zeros((2, 0, 3), np.float32))

    # What np.save writes, byte for byte, for the writer to reproduce.
    save_npy(NPY, "numpy_f4_2x3x4.npy", a)
    save_npy(NPY, "numpy_f4_0d.npy", np.array(-0.5, np.float32))
    save_npy(NPY, "numpy_f4_0.npy", np.zeros((0,), np.float32))
    save_npy(NPY, "numpy_f4_1.npy", np.array([3.0], np.float32))
    save_npy(NPY, "numpy_f4_big_dim_empty.npy", np.zeros((10**12, 0), np.float32))
    save_npy(NPY, "numpy_f4_1x1x1x1x1x1x1x1.npy", np.ones((1,) * 8, np.float32))
    save_npy(NPY, "numpy_f4_special.npy", special)
    save_npy(NPY, "numpy_b1_3x5.npy", pattern.astype(bool))

    # ---- files that must be refused
    good = np_bytes(a)
    write(NPY, "bad_empty.npy", b"")
    write(NPY, "bad_magic.npy", b"P5\n2 3\n255\n" + bytes(6))
    write(NPY, "bad_magic_short.npy", b"\x93NUM")
    write(NPY, "bad_text.npy", b"0.1 0.2 0.3\n0.4 0.5 0.6\n")
    import io
    import zipfile

    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr(zipfile.ZipInfo("q.npy", date_time=(2024, 1, 1, 0, 0, 0)), np_bytes(m))
    write(NPY, "bad_npz.npy", zbuf.getvalue())
    write(NPY, "bad_version.npy", b"\x93NUMPY\x04\x00" + good[8:])
    write(NPY, "bad_truncated_preamble.npy", good[:9])
    write(NPY, "bad_truncated_header.npy", good[:40])
    write(NPY, "bad_truncated_data.npy", good[:-10])
    write(NPY, "bad_trailing_data.npy", good + b"garbage!")
    write(NPY, "bad_huge_shape.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }",
                      bytes(20)))
    write(NPY, "bad_overflow_shape.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (4294967296, 4294967296, 16), }", bytes(16)))
    write(NPY, "bad_bytes_overflow.npy",  # numel fits 64 bits, numel * 8 does not
          npy_by_hand("{'descr': '<f8', 'fortran_order': False, "
                      "'shape': (4611686018427387904,), }", bytes(16)))
    write(NPY, "bad_dim_too_large.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (99999999999999999999999,), }", bytes(16)))
    write(NPY, "bad_negative_shape.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }", bytes(12)))
    write(NPY, "bad_garbage_shape.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 'x'), }", bytes(8)))
    write(NPY, "bad_shape_not_tuple.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", bytes(12)))
    write(NPY, "bad_shape_list.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': [3], }", bytes(12)))
    write(NPY, "bad_unknown_dtype.npy",
          npy_by_hand("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", bytes(24)))
    write(NPY, "f2_zeros.npy", np_bytes(np.zeros(3, np.float16)))  # read: float16 is supported
    write(NPY, "bad_structured.npy",
          np_bytes(np.zeros(3, dtype=[("a", "<f4"), ("b", "<i4")])))
    write(NPY, "bad_missing_key.npy",
          npy_by_hand("{'descr': '<f4', 'shape': (3,), }", bytes(12)))
    write(NPY, "bad_extra_key.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}",
                      bytes(12)))
    write(NPY, "bad_duplicate_key.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), "
                      "'shape': (3,)}", bytes(12)))
    write(NPY, "bad_fortran_value.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }", bytes(12)))
    write(NPY, "bad_not_dict.npy", npy_by_hand("[('descr', '<f4')]", bytes(12)))
    write(NPY, "bad_unterminated.npy",
          npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3,", bytes(12)))
    hdr = npy_by_hand("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", b"", (2, 0))
    write(NPY, "bad_header_length_huge.npy",
          hdr[:8] + struct.pack("<I", 0xFFFFFFF0) + hdr[12:] + bytes(12))


# --------------------------------------------------------------------------------------------
# safetensors

# safetensors' Dtype enum, in its declared (increasing alignment) order.
DTYPE_ORDER = ["BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "I16", "U16", "F16", "BF16",
               "I32", "U32", "F32", "F64", "I64", "U64"]
TORCH_DTYPE = {torch.float32: "F32", torch.float64: "F64", torch.float16: "F16",
               torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32",
               torch.bool: "BOOL", torch.uint8: "U8"}


def torch_bytes(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16
        return t.view(torch.int16).numpy().astype("<i2").tobytes()
    return t.numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()


def save_file(tensors, metadata=None):
    """safetensors.torch.save_file(tensors, path, metadata) as bytes: data ordered by dtype
    (widest alignment first) then name; compact JSON header with __metadata__ first and the
    tensors in data order; padded with spaces to a multiple of 8 bytes."""
    items = sorted(tensors.items(),
                   key=lambda kv: (-DTYPE_ORDER.index(TORCH_DTYPE[kv[1].dtype]), kv[0]))
    header, chunks, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, t in items:
        raw = torch_bytes(t)
        header[name] = {"dtype": TORCH_DTYPE[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    return st_raw(json.dumps(header, separators=(",", ":"), ensure_ascii=False), b"".join(chunks))


def st_raw(header_text, data, length=None):
    h = header_text.encode("utf-8") if isinstance(header_text, str) else header_text
    h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h) if length is None else length) + h + data


def st_header(entries, metadata=None):
    """A compact header from (name, dtype, shape, [begin, end]) tuples, in the given order."""
    header = {} if metadata is None else {"__metadata__": metadata}
    for name, dtype, shape, offsets in entries:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": offsets}
    return json.dumps(header, separators=(",", ":"))


def save_with_refs(name, tensors, metadata=None):
    write(ST, name, save_file(tensors, metadata))
    for key, t in tensors.items():
        save_npy(os.path.join(ST, "ref", name), key + ".npy", t.float().numpy())


def make_safetensors():
    shutil.rmtree(ST, ignore_errors=True)
    torch.manual_seed(1234)

    def randomized(mha):
        # The biases start at zero; random ones make the comparison meaningful.
        with torch.no_grad():
            for key, p in mha.named_parameters():
                if "bias" in key:
                    p.copy_(torch.randn_like(p))
        return {k: v.detach().clone() for k, v in mha.state_dict().items()}

    # Packed layout: in_proj_weight [3E, E].
    packed = randomized(torch.nn.MultiheadAttention(embed_dim=16, num_heads=4))
    save_with_refs("mha_packed.safetensors", packed)
    # Separate layout (kdim/vdim differ from embed_dim): q/k/v_proj_weight, plus bias_k/v,
    # and the metadata transformers writes.
    separate = randomized(torch.nn.MultiheadAttention(
        embed_dim=16, num_heads=4, kdim=12, vdim=10, add_bias_kv=True))
    save_with_refs("mha_separate.safetensors", separate, metadata={"format": "pt"})
    # The packed weights in the other float dtypes.
    for dtype, tag in [(torch.float64, "f64"), (torch.float16, "f16"), (torch.bfloat16, "bf16")]:
        save_with_refs("mha_%s.safetensors" % tag, {k: v.to(dtype) for k, v in packed.items()})

    # Every dtype in one file, with the awkward values of the narrow ones.
    f16 = torch.tensor([0.0, -0.0, 2.0**-24, 2.0**-14 - 2.0**-24, 2.0**-14, 65504.0, -65504.0,
                        float("inf"), float("-inf"), float("nan"), 1 / 3, -2.5, 1e-6],
                       dtype=torch.float16)
    bf16 = torch.tensor([0.0, -0.0, 1e-40, 9.2e-41, 3.3895e38, float("inf"), float("-inf"),
                         float("nan"), 1 / 3, -2.5], dtype=torch.bfloat16)
    mixed = {
        "f16_special": f16,
        "bf16_special": bf16,
        "f32_matrix": torch.randn(3, 5),
        "f64_vector": torch.randn(7, dtype=torch.float64) * 1e10,
        "f32_scalar": torch.tensor(4.5),
        "f32_empty": torch.zeros(2, 0, 3),
    }
    save_with_refs("mixed_dtypes.safetensors", mixed, metadata={"note": "dtype layout test"})

    write(ST, "empty.safetensors", save_file({}))

    # Names written with \u escapes (incl. a surrogate pair) and escaped quotes; the test
    # expects them decoded to UTF-8.
    unicode_header = ('{"\\u043a\\u043b\\u044e\\u0447":{"dtype":"F32","shape":[1],'
                      '"data_offsets":[0,4]},"emoji_\\ud83d\\ude00":{"dtype":"F32","shape":[1],'
                      '"data_offsets":[4,8]},"q\\"uote\\\\slash\\/tab\\t":{"dtype":"F32",'
                      '"shape":[1],"data_offsets":[8,12]}}')
    write(ST, "unicode_names.safetensors",
          st_raw(unicode_header, struct.pack("<3f", 1.0, 2.0, 3.0)))
    # Unknown fields inside an entry are ignored (as the reference does); whitespace anywhere.
    write(ST, "extra_fields.safetensors", st_raw(
        '{ "w" : { "data_offsets" : [ 0 , 8 ] , "dtype" : "F32" , "shape" : [ 2 ] ,'
        ' "comment" : {"nested": [1, 2.5e3, true, null]} } }\n',
        struct.pack("<2f", -1.0, 0.25)))

    # ---- files that must be refused
    good = save_file(packed)
    f32x4 = struct.pack("<4f", 1, 2, 3, 4)
    write(ST, "bad_empty.safetensors", b"")
    write(ST, "bad_short.safetensors", b"\x10\x00\x00\x00\x00")
    write(ST, "bad_header_length_larger.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', f32x4, length=1000))
    write(ST, "bad_header_length_huge.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', f32x4, length=2**63))
    write(ST, "bad_not_json.safetensors", st_raw("{not json}", b""))
    write(ST, "bad_json_syntax.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16],}}', f32x4))
    write(ST, "bad_not_object.safetensors", st_raw("[1,2,3]", b""))
    write(ST, "bad_npy_file.safetensors", np_bytes(np.zeros(3, np.float32)))
    write(ST, "bad_missing_dtype.safetensors",
          st_raw('{"a":{"shape":[4],"data_offsets":[0,16]}}', f32x4))
    write(ST, "bad_missing_shape.safetensors",
          st_raw('{"a":{"dtype":"F32","data_offsets":[0,16]}}', f32x4))
    write(ST, "bad_missing_offsets.safetensors", st_raw('{"a":{"dtype":"F32","shape":[4]}}', f32x4))
    write(ST, "bad_entry_not_object.safetensors", st_raw('{"a":[0,16]}', f32x4))
    write(ST, "bad_offsets_out_of_range.safetensors",
          st_raw(st_header([("a", "F32", [1024], [0, 4096])]), f32x4))
    write(ST, "bad_offsets_reversed.safetensors",
          st_raw(st_header([("a", "F32", [4], [16, 0])]), f32x4))
    write(ST, "bad_offsets_not_pair.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0]}}', f32x4))
    write(ST, "bad_offsets_negative.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[-16,0]}}', f32x4))
    write(ST, "bad_offsets_overlap.safetensors",
          st_raw(st_header([("a", "F32", [4], [0, 16]), ("b", "F32", [4], [8, 24])]), bytes(24)))
    write(ST, "bad_offsets_duplicate_range.safetensors",
          st_raw(st_header([("a", "F32", [4], [0, 16]), ("b", "F32", [4], [0, 16])]), f32x4))
    write(ST, "bad_offsets_mismatch.safetensors",
          st_raw(st_header([("in_proj_weight", "F32", [96, 32], [0, 4096])]), bytes(4096)))
    write(ST, "bad_offsets_gap.safetensors",
          st_raw(st_header([("a", "F32", [4], [0, 16]), ("b", "F32", [4], [32, 48])]), bytes(48)))
    write(ST, "bad_trailing_data.safetensors", good + bytes(16))
    write(ST, "bad_truncated.safetensors", good[: len(good) // 2])
    write(ST, "bad_unsupported_dtype.safetensors",
          st_raw(st_header([("position_ids", "I64", [2], [0, 16])]), bytes(16)))
    write(ST, "bad_unknown_dtype.safetensors",
          st_raw(st_header([("a", "Q7", [4], [0, 16])]), f32x4))
    write(ST, "bad_duplicate_names.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                 '"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}', f32x4))
    write(ST, "bad_metadata_not_strings.safetensors",
          st_raw(st_header([("a", "F32", [4], [0, 16])], metadata={"epoch": 3}), f32x4))
    write(ST, "bad_metadata_not_object.safetensors",
          st_raw(st_header([("a", "F32", [4], [0, 16])], metadata="pt"), f32x4))
    write(ST, "bad_shape_negative.safetensors",
          st_raw(st_header([("a", "F32", [-1, 4], [0, 16])]), f32x4))
    write(ST, "bad_shape_float.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4.0],"data_offsets":[0,16]}}', f32x4))
    write(ST, "bad_shape_overflow.safetensors",
          st_raw(st_header([("a", "F32", [2**32, 2**32, 2**32], [0, 16])]), f32x4))
    write(ST, "bad_invalid_utf8.safetensors",
          st_raw(b'{"a\xff":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', f32x4))
    write(ST, "bad_lone_surrogate.safetensors",
          st_raw('{"a\\ud800":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', f32x4))
    write(ST, "bad_deep_nesting.safetensors",
          st_raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16],"x":' + "[" * 200 +
                 "]" * 200 + "}}", f32x4))


if __name__ == "__main__":
    make_npy()
    make_safetensors()
