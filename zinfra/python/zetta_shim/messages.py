"""The messages of the protocol: validating what clients send and building what the server replies.

Mirrors the zod schemas in protocol/messages.ts; a message that fails them is never passed on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import msgpack
import numpy as np

from .errors import WireError
from .wire import encode_ndarray

PROTOCOL_VERSION = 1
REQUEST_TYPES = frozenset({"hello", "infer", "episode_start", "episode_end", "ping"})
MAX_ID = 0xFFFF_FFFF
MAX_NAME = 256


@dataclass
class Request:
    type: str
    id: int
    fields: dict[str, Any] = field(default_factory=dict)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _valid_id(v: Any) -> bool:
    return _is_int(v) and 0 <= v <= MAX_ID


def parse_request(value: Any) -> Request:
    """Validates a decoded message; raises WireError naming the id whenever it can be read."""
    if not isinstance(value, dict):
        raise WireError("MALFORMED", f"a message must be a map, got {type(value).__name__}")
    rid = value.get("id") if _valid_id(value.get("id")) else None
    kind = value.get("type")
    if not isinstance(kind, str):
        raise WireError("MALFORMED", "a message needs a string `type`", rid)
    if kind not in REQUEST_TYPES:
        raise WireError("UNSUPPORTED", f'unknown request type "{kind[:64]}"', rid)
    if rid is None:
        raise WireError("MALFORMED", "id: expected an integer in [0, 2^32)")
    check = _CHECKS[kind]
    problem = check(value)
    if problem:
        raise WireError("MALFORMED", f"invalid {kind}: {problem}", rid)
    return Request(kind, rid, value)


def salvage_id(frame: bytes | memoryview) -> int | None:
    """The top-level id of a frame that failed to decode (e.g. a bad array inside), so the error can name it."""
    try:
        value = msgpack.unpackb(frame, raw=False, strict_map_key=False)
        rid = value.get("id", value.get(b"id"))
    except Exception:  # anything unreadable simply has no id
        return None
    return rid if _valid_id(rid) else None


def _check_hello(m: dict[str, Any]) -> str | None:
    return None if _is_int(m.get("protocol")) else "protocol: expected an integer"


def _check_ping(m: dict[str, Any]) -> str | None:
    return None if _is_number(m.get("t")) else "t: expected a finite number"


def _check_names(m: dict[str, Any]) -> str | None:
    for key in ("session_id", "episode_id"):
        v = m.get(key)
        if not isinstance(v, str) or not 1 <= len(v) <= MAX_NAME:
            return f"{key}: expected a string of 1 to {MAX_NAME} characters"
    return None


def _check_episode(m: dict[str, Any]) -> str | None:
    if "info" in m and m["info"] is not None and not isinstance(m["info"], dict):
        return "info: expected a map"
    return _check_names(m)


def _check_infer(m: dict[str, Any]) -> str | None:
    problem = _check_names(m)
    if problem:
        return problem
    step = m.get("step")
    if not _is_int(step) or step < 0:
        return "step: expected an integer >= 0"
    deadline = m.get("deadline_ms")
    if not _is_number(deadline) or deadline <= 0:
        return "deadline_ms: expected a number > 0"
    obs = m.get("obs")
    if not isinstance(obs, dict):
        return "obs: expected a map of arrays and strings"
    for key, v in obs.items():
        if not isinstance(v, (np.ndarray, str)):
            return f"obs.{key[:64]}: expected an ndarray or a string, got {type(v).__name__}"
    return None


_CHECKS = {
    "hello": _check_hello,
    "ping": _check_ping,
    "infer": _check_infer,
    "episode_start": _check_episode,
    "episode_end": _check_episode,
}


def error_reply(err: WireError) -> dict[str, Any]:
    return {
        "type": "error",
        "id": err.request_id,
        "code": err.code,
        "message": err.message[:1024],
        "retryable": err.retryable,
    }


def metadata_reply(rid: int, metadata: dict[str, Any], max_message_bytes: int, max_batch: int) -> dict[str, Any]:
    return {
        "type": "metadata",
        "id": rid,
        "protocol": PROTOCOL_VERSION,
        "metadata": metadata,
        "limits": {"max_message_bytes": max_message_bytes, "max_batch": max_batch},
    }


def result_reply(
    rid: int, actions: np.ndarray, policy_timing: dict[str, float], server_timing: dict[str, float]
) -> dict[str, Any]:
    return {
        "type": "result",
        "id": rid,
        "actions": encode_ndarray(actions),
        "policy_timing": policy_timing,
        "server_timing": server_timing,
    }


def ack_reply(rid: int) -> dict[str, Any]:
    return {"type": "ack", "id": rid}


def pong_reply(rid: int, t: float) -> dict[str, Any]:
    return {"type": "pong", "id": rid, "t": t}
