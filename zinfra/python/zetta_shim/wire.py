"""msgpack with arrays in the openpi `msgpack_numpy` convention: {__ndarray__, data, dtype, shape}.

Decoding is total: any frame either yields a plain value tree (dicts with str keys, lists, str,
numbers, bytes, numpy arrays) or raises WireError("MALFORMED"). Keys may arrive as str or bin
(openpi writes bin); arrays are written with str keys, as Zetta does.
"""
from __future__ import annotations

import math
from typing import Any

import msgpack
import numpy as np

from .errors import WireError

DTYPES = frozenset({"|u1", "|b1", "<i4", "<i8", "<f4", "<f8"})
MAX_DEPTH = 32
MAX_DIMS = 8


def pack(value: Any) -> bytes:
    """Encodes a reply; numpy arrays become ndarray maps with str keys."""
    return msgpack.packb(value, use_bin_type=True, default=_encode_extra)


def _encode_extra(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return encode_ndarray(value)
    if isinstance(value, np.generic):  # numpy scalars in metadata or timings
        return value.item()
    raise TypeError(f"cannot encode {type(value).__name__}")


def encode_ndarray(a: np.ndarray) -> dict[str, Any]:
    a = np.ascontiguousarray(a)
    if a.dtype.str not in DTYPES:
        raise TypeError(f"dtype {a.dtype.str} is not one of the wire's dtypes")
    return {"__ndarray__": True, "data": a.tobytes(), "dtype": a.dtype.str, "shape": list(a.shape)}


def unpack(frame: bytes | memoryview) -> Any:
    """Decodes one frame; raises WireError("MALFORMED") for anything that is not a protocol value tree."""
    try:
        # raw=False: str stays str and bin stays bytes, so bin keys can be told apart and converted.
        raw = msgpack.unpackb(frame, raw=False, strict_map_key=True)
    except Exception as err:  # msgpack raises several unrelated types for bad input
        raise WireError("MALFORMED", f"not valid msgpack: {type(err).__name__}: {err}") from None
    return _normalize(raw, 0)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    try:
        return bytes(key).decode("utf-8")
    except UnicodeDecodeError:
        raise WireError("MALFORMED", "a binary map key is not valid UTF-8") from None


def _normalize(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise WireError("MALFORMED", f"message nested deeper than {MAX_DEPTH} levels")
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, list):
        return [_normalize(v, depth + 1) for v in value]
    if isinstance(value, dict):
        obj = {_key(k): v for k, v in value.items()}
        if "__ndarray__" in obj:
            return _decode_ndarray(obj)
        return {k: _normalize(v, depth + 1) for k, v in obj.items()}
    raise WireError("MALFORMED", f"unsupported msgpack value ({type(value).__name__})")


def _decode_ndarray(m: dict[str, Any]) -> np.ndarray:
    data, dtype, shape = m.get("data"), m.get("dtype"), m.get("shape")
    if isinstance(dtype, bytes):  # openpi's msgpack_numpy may write the dtype itself as bin
        dtype = dtype.decode("ascii", "replace")
    if dtype not in DTYPES:
        raise WireError("MALFORMED", f"unsupported ndarray dtype {dtype!r}; expected one of {sorted(DTYPES)}")
    if not isinstance(data, bytes):
        raise WireError("MALFORMED", "ndarray data must be bytes")
    if not isinstance(shape, list) or len(shape) > MAX_DIMS:
        raise WireError("MALFORMED", f"ndarray shape must be a list of at most {MAX_DIMS} sizes")
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise WireError("MALFORMED", f"ndarray shape {shape!r} is not a list of non-negative integers")
    itemsize = np.dtype(dtype).itemsize
    expected = math.prod(shape) * itemsize
    if expected != len(data):
        raise WireError(
            "MALFORMED", f"ndarray of dtype {dtype} and shape {shape} needs {expected} bytes, got {len(data)}"
        )
    # A read-only view over the received bytes: no copy; numpy handles the missing alignment.
    return np.frombuffer(data, dtype=dtype).reshape(shape)
