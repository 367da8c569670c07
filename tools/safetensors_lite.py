"""Writes safetensors files the way safetensors.torch.save_file does, for the scripts that make
test data (Debian has no python3-safetensors).  Layout: 8-byte little-endian header length,
a compact JSON header (tensors sorted by dtype alignment then name, "__metadata__" first),
padded with spaces to a multiple of 8, then the tensors' little-endian bytes back to back.

Also: BF16 (numpy has no bfloat16, so BF16 tensors travel as their uint16 bit patterns in a
`Encoded`), tensors produced lazily chunk by chunk (`Lazy`, so a benchmark-sized checkpoint is
never whole in memory), and `load_file` to read such files back."""
import json
import struct

import numpy as np

_DTYPES = {np.dtype("float32"): "F32", np.dtype("float64"): "F64", np.dtype("float16"): "F16",
           np.dtype("int64"): "I64", np.dtype("int32"): "I32", np.dtype("bool"): "BOOL",
           np.dtype("uint8"): "U8"}
_NUMPY = {v: k for k, v in _DTYPES.items()}
_ITEMSIZE = {"F64": 8, "I64": 8, "F32": 4, "I32": 4, "F16": 2, "BF16": 2, "BOOL": 1, "U8": 1}


def bf16_bits(a):
    """float32 values as bfloat16 bit patterns (uint16), rounded to nearest even as torch's
    `.to(torch.bfloat16)` does; NaN stays a (quiet) NaN."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    rounded = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) >> np.uint32(16)
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    out = rounded.astype(np.uint16)
    out[nan] = ((u[nan] >> np.uint32(16)) | np.uint32(0x0040)).astype(np.uint16)
    return out


def bf16_to_float32(bits):
    """uint16 bfloat16 bit patterns as float32 (exact)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


class Encoded:
    """A tensor already encoded in a safetensors dtype numpy lacks: `dtype` ("BF16"), its shape,
    and `bits`, a numpy array of the same number of bytes (uint16 for BF16)."""

    def __init__(self, dtype, shape, bits):
        self.dtype, self.shape, self.bits = dtype, tuple(shape), np.ascontiguousarray(bits)

    def tobytes(self):
        return self.bits.astype(self.bits.dtype.newbyteorder("<")).tobytes()


def bfloat16(a):
    """A float array rounded to BF16, ready for save_file."""
    a = np.asarray(a, dtype=np.float32)
    return Encoded("BF16", a.shape, bf16_bits(a))


class Lazy:
    """A tensor whose bytes are produced only when the file is written: `chunks()` yields
    bytes-like pieces (numpy arrays are fine) that add up to the tensor in C order."""

    def __init__(self, dtype, shape, chunks):
        self.dtype, self.shape, self.chunks = dtype, tuple(shape), chunks


def to_numpy(t):
    """A torch tensor or array-like as a C-ordered little-endian numpy array (a torch bfloat16
    tensor as an `Encoded`)."""
    if isinstance(t, (Encoded, Lazy)):
        return t
    if hasattr(t, "detach"):
        t = t.detach().cpu()
        if str(t.dtype) == "torch.bfloat16":
            return bfloat16(t.float().numpy())
        t = t.numpy()
    a = np.array(t, copy=False, order="C")  # keeps a 0-d scalar 0-d, as safetensors does
    return a.astype(a.dtype.newbyteorder("<"))


def _dtype_of(a):
    return a.dtype if isinstance(a, (Encoded, Lazy)) else _DTYPES[a.dtype.newbyteorder("=")]


def _nbytes(a):
    return int(np.prod(a.shape, dtype=np.int64)) * _ITEMSIZE[_dtype_of(a)]


def _layout(tensors, metadata):
    """(header bytes, [(name, tensor)] in file order)."""
    arrays = {name: to_numpy(t) for name, t in tensors.items()}
    order = sorted(arrays, key=lambda n: (-_ITEMSIZE[_dtype_of(arrays[n])], n))
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in order:
        a = arrays[name]
        n = _nbytes(a)
        header[name] = {"dtype": _dtype_of(a), "shape": list(a.shape),
                        "data_offsets": [offset, offset + n]}
        offset += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text, [(n, arrays[n]) for n in order]


def _pieces(name, a):
    if isinstance(a, Lazy):
        written = 0
        for c in a.chunks():
            b = c.tobytes() if hasattr(c, "tobytes") else bytes(c)
            written += len(b)
            yield b
        if written != _nbytes(a):
            raise ValueError(f"{name}: chunks gave {written} bytes, shape {list(a.shape)} "
                             f"{a.dtype} needs {_nbytes(a)}")
    else:
        yield a.tobytes()


def serialize(tensors, metadata=None):
    head, ordered = _layout(tensors, metadata)
    return head + b"".join(b for name, a in ordered for b in _pieces(name, a))


def save_file(tensors, path, metadata=None):
    """Streams the tensors to `path`: a Lazy tensor is never whole in memory."""
    head, ordered = _layout(tensors, metadata)
    with open(path, "wb") as f:
        f.write(head)
        for name, a in ordered:
            for b in _pieces(name, a):
                f.write(b)


def read_header(path):
    """The parsed JSON header and the offset where the data begin."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(n)), 8 + n


def load_file(path, bf16="float32"):
    """{name: numpy array} of a safetensors file, "__metadata__" left out.  BF16 tensors come back
    as float32 (exact) or, with bf16="bits", as an `Encoded` of their uint16 patterns."""
    header, base = read_header(path)
    data = np.memmap(path, dtype=np.uint8, mode="r")
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        dt = info["dtype"]
        raw = data[base + begin:base + end]
        if dt == "BF16":
            bits = raw.view("<u2").reshape(info["shape"])
            out[name] = Encoded("BF16", info["shape"], np.array(bits)) if bf16 == "bits" \
                else bf16_to_float32(bits).reshape(info["shape"])
        else:
            out[name] = np.array(raw.view(_NUMPY[dt].newbyteorder("<")).reshape(info["shape"]))
    del data
    return out
