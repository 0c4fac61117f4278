"""A numpy MLP stored in an .npz: a real, deterministic backend for tests and smoke runs.

Arrays `w0, b0, w1, b1, ...` (float32, w_i shaped (in, out)), ReLU between layers, a linear output
reshaped to (horizon, action_dim). Scalars `horizon`, `action_dim`; optional string `obs_key` (the
observation array fed in, flattened; default `observation/state`).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

import numpy as np

from .backend import Backend, Observation
from .errors import InvalidObservation

DEFAULT_OBS_KEY = "observation/state"


class NpzMlpBackend(Backend):
    def __init__(self, path: str) -> None:
        raw = Path(path).read_bytes()
        with np.load(path, allow_pickle=False) as z:
            layers = []
            while f"w{len(layers)}" in z:
                i = len(layers)
                layers.append((z[f"w{i}"].astype(np.float32), z[f"b{i}"].astype(np.float32)))
            horizon, action_dim = int(z["horizon"]), int(z["action_dim"])
            obs_key = str(z["obs_key"]) if "obs_key" in z else DEFAULT_OBS_KEY
        if not layers:
            raise ValueError(f"{path}: no layers (expected arrays w0, b0, ...)")
        for i, (w, b) in enumerate(layers):
            fan_in = layers[i - 1][0].shape[1] if i else w.shape[0]
            if w.ndim != 2 or w.shape[0] != fan_in or b.shape != (w.shape[1],):
                raise ValueError(f"{path}: layer {i} has w {w.shape} and b {b.shape}, which do not chain")
        if layers[-1][0].shape[1] != horizon * action_dim:
            raise ValueError(f"{path}: the output layer has {layers[-1][0].shape[1]} units, not horizon × action_dim")
        self._layers = layers
        self._obs_key = obs_key
        self._chunk_shape = (horizon, action_dim)
        super().__init__(
            {
                "policy_id": f"npz-mlp:{Path(path).stem}",
                # The weights' hash: the version changes exactly when the weights do.
                "model_version": hashlib.sha256(raw).hexdigest()[:12],
                "action_horizon": horizon,
                "action_dim": action_dim,
                "observation_keys": [obs_key],
            }
        )

    @property
    def input_size(self) -> int:
        return self._layers[0][0].shape[0]

    def validate(self, obs: Observation) -> None:
        super().validate(obs)
        x = obs[self._obs_key]
        if not isinstance(x, np.ndarray) or x.dtype.kind not in "biuf":
            raise InvalidObservation(f"{self._obs_key} must be a numeric array")
        if x.size != self.input_size:
            raise InvalidObservation(f"{self._obs_key} has {x.size} values; the policy reads {self.input_size}")

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        h = np.stack([np.asarray(obs[self._obs_key], dtype=np.float32).reshape(-1) for obs in batch])
        for i, (w, b) in enumerate(self._layers):
            h = h @ w + b
            if i < len(self._layers) - 1:
                h = np.maximum(h, 0.0)
        return list(h.reshape(len(batch), *self._chunk_shape))
