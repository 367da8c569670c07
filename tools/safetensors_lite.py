"""Writes safetensors files the way safetensors.torch.save_file does, for the scripts that make
test data (Debian has no python3-safetensors).  Layout: 8-byte little-endian header length,
a compact JSON header (tensors sorted by dtype alignment then name, "__metadata__" first),
padded with spaces to a multiple of 8, then the tensors' little-endian bytes back to back."""
import json
import struct

import numpy as np

_DTYPES = {np.dtype("float32"): "F32", np.dtype("float64"): "F64", np.dtype("float16"): "F16",
           np.dtype("int64"): "I64", np.dtype("int32"): "I32", np.dtype("bool"): "BOOL",
           np.dtype("uint8"): "U8"}


def to_numpy(t):
    """A torch tensor or array-like as a C-ordered little-endian numpy array."""
    if hasattr(t, "detach"):
        t = t.detach().cpu().numpy()
    a = np.ascontiguousarray(t)
    return a.astype(a.dtype.newbyteorder("<"))


def serialize(tensors, metadata=None):
    arrays = {name: to_numpy(t) for name, t in tensors.items()}
    order = sorted(arrays, key=lambda n: (-arrays[n].dtype.itemsize, n))
    header, offset, blobs = {}, 0, []
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in order:
        a = arrays[name]
        data = a.tobytes()
        header[name] = {"dtype": _DTYPES[a.dtype.newbyteorder("=")], "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def save_file(tensors, path, metadata=None):
    with open(path, "wb") as f:
        f.write(serialize(tensors, metadata))
