"""The one interface every loader produces: metadata plus batched inference.

A backend maps a batch of observations (dicts of numpy arrays and strings; arrays are read-only
views of the received bytes) to one action chunk per observation. The server validates what comes
back, so a backend only has to compute.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from .errors import InvalidObservation
from .wire import pack

Observation = dict[str, Any]


class Backend:
    """Base class of all loaders' backends. Subclasses implement `infer`."""

    def __init__(self, metadata: dict[str, Any]) -> None:
        self.metadata = metadata

    def validate(self, obs: Observation) -> None:
        """Raises InvalidObservation when `obs` cannot be served; checked per request before batching."""
        missing = [k for k in self.metadata["observation_keys"] if k not in obs]
        if missing:
            raise InvalidObservation(f"observation lacks {', '.join(missing[:8])}")

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        raise NotImplementedError

    def episode_start(self, session_id: str, episode_id: str, info: dict[str, Any] | None) -> None:
        """Called on `episode_start`, e.g. to reset a stateful policy."""

    def episode_end(self, session_id: str, episode_id: str, info: dict[str, Any] | None) -> None:
        """Called on `episode_end`."""

    def close(self) -> None:
        """Releases whatever the policy holds (GPU memory, files)."""


class ObjectBackend(Backend):
    """Wraps a user object with `metadata` and `infer(batch)`; its optional hooks are forwarded."""

    def __init__(self, obj: Any, metadata: dict[str, Any]) -> None:
        super().__init__(metadata)
        self._obj = obj

    def validate(self, obs: Observation) -> None:
        super().validate(obs)
        if hasattr(self._obj, "validate"):
            self._obj.validate(obs)

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        return list(self._obj.infer(list(batch)))

    def episode_start(self, session_id: str, episode_id: str, info: dict[str, Any] | None) -> None:
        if hasattr(self._obj, "episode_start"):
            self._obj.episode_start(session_id, episode_id, info)

    def episode_end(self, session_id: str, episode_id: str, info: dict[str, Any] | None) -> None:
        if hasattr(self._obj, "episode_end"):
            self._obj.episode_end(session_id, episode_id, info)

    def close(self) -> None:
        if hasattr(self._obj, "close"):
            self._obj.close()


class CallableBackend(Backend):
    """Wraps a plain `obs -> actions` callable; a batch is served one observation at a time."""

    def __init__(self, fn: Callable[[Observation], Any], metadata: dict[str, Any]) -> None:
        super().__init__(metadata)
        self._fn = fn

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        return [self._fn(obs) for obs in batch]


def make_metadata(*layers: dict[str, Any] | None) -> dict[str, Any]:
    """Merges metadata layers (later wins, None values skipped) and checks the result against the wire schema.

    Raises ValueError with every problem, so a misconfigured server fails at start, not per request.
    """
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update({k: v for k, v in (layer or {}).items() if v is not None})
    meta = {
        "policy_id": merged.get("policy_id"),
        "model_version": merged.get("model_version"),
        "action_horizon": merged.get("action_horizon"),
        "action_dim": merged.get("action_dim"),
        "observation_keys": list(merged.get("observation_keys") or []),
    }
    problems = []
    for key in ("policy_id", "model_version"):
        if not isinstance(meta[key], str) or not meta[key]:
            problems.append(f"{key} must be a non-empty string")
    for key, flag in (("action_horizon", "--action-horizon"), ("action_dim", "--action-dim")):
        v = meta[key]
        if isinstance(v, np.integer):
            meta[key] = v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            problems.append(f"{key} must be a positive integer (got {v!r}; set it with {flag})")
    if not all(isinstance(k, str) for k in meta["observation_keys"]):
        problems.append("observation_keys must be strings")
    extra = merged.get("extra")
    if extra is not None:
        try:
            pack(extra)
            meta["extra"] = dict(extra)
        except (TypeError, ValueError) as err:
            problems.append(f"extra is not msgpack-able: {err}")
    if problems:
        raise ValueError("invalid policy metadata: " + "; ".join(problems))
    return meta
