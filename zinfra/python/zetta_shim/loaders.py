"""Turns a `--policy` spec into a Backend. Policy frameworks are imported only by their own loader.

  openpi:<config>:<checkpoint_dir>   openpi's create_trained_policy (checkpoint_dir may be gs://...)
  lerobot:<path>                     a LeRobot pretrained policy's predict_action_chunk
  module:<file.py>:<factory>         factory() -> object with metadata + infer(batch), or obs -> actions
  npz-mlp:<file.npz>                 a numpy MLP (tests, smoke runs)
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .backend import Backend, CallableBackend, ObjectBackend, Observation, make_metadata
from .npz_mlp import NpzMlpBackend

log = logging.getLogger("zetta_shim")

KINDS = ("openpi", "lerobot", "module", "npz-mlp")


def load_backend(spec: str, overrides: dict[str, Any] | None = None) -> Backend:
    """Loads the backend `spec` names; `overrides` (from the command line) win over what it reports."""
    kind, _, rest = spec.partition(":")
    if kind not in KINDS or not rest:
        raise ValueError(f"--policy {spec!r}: expected one of {', '.join(k + ':...' for k in KINDS)}")
    if kind == "openpi":
        config_name, _, checkpoint = rest.partition(":")
        if not config_name or not checkpoint:
            raise ValueError("--policy openpi:<config>:<checkpoint_dir>")
        backend = OpenpiBackend.load(config_name, checkpoint)
    elif kind == "lerobot":
        backend = LerobotBackend.load(rest)
    elif kind == "module":
        path, _, factory = rest.rpartition(":")
        if not path or not factory:
            raise ValueError("--policy module:<file.py>:<factory>")
        return load_module(path, factory, overrides)
    else:
        backend = NpzMlpBackend(rest)
    backend.metadata = make_metadata(backend.metadata, overrides)
    return backend


def load_module(path: str, factory_name: str, overrides: dict[str, Any] | None) -> Backend:
    file = Path(path).resolve()
    sys.path.insert(0, str(file.parent))  # as `python file.py` would, so the module can import its siblings
    spec = importlib.util.spec_from_file_location(f"zetta_policy_{file.stem}", file)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"{path} has no callable {factory_name!r}")
    obj = factory()
    defaults = {
        "policy_id": f"{file.stem}.{factory_name}",
        "model_version": hashlib.sha256(file.read_bytes()).hexdigest()[:12],
    }
    if hasattr(obj, "infer") and hasattr(obj, "metadata"):
        own = obj.metadata() if callable(obj.metadata) else obj.metadata
        return ObjectBackend(obj, make_metadata(defaults, own, overrides))
    if callable(obj):
        return CallableBackend(obj, make_metadata(defaults, overrides))
    raise ValueError(f"{factory_name}() returned {type(obj).__name__}: neither an object with metadata and infer nor a callable")


class OpenpiBackend(Backend):
    """An openpi policy (π0, π0-FAST, π0.5): observations in openpi's own keys, `actions` out."""

    @classmethod
    def load(cls, config_name: str, checkpoint: str) -> OpenpiBackend:
        from openpi.policies import policy_config
        from openpi.training import config as openpi_config

        train_config = openpi_config.get_config(config_name)
        policy = policy_config.create_trained_policy(train_config, checkpoint)
        model = train_config.model
        # The model's action_dim is its padded width (32 for π0); robot output transforms often cut it
        # (LIBERO keeps 7), which only a run reveals: the server reports a mismatch naming --action-dim.
        log.info("openpi %s: model action_dim %s; pass --action-dim if the outputs are narrower", config_name, model.action_dim)
        metadata = {
            "policy_id": config_name,
            "model_version": checkpoint.rstrip("/"),
            "action_horizon": model.action_horizon,
            "action_dim": model.action_dim,
            "observation_keys": [],  # openpi's input transforms decide; they raise on a missing key
        }
        if isinstance(getattr(policy, "metadata", None), dict) and policy.metadata:
            metadata["extra"] = _plain(policy.metadata)
        return cls(policy, metadata)

    def __init__(self, policy: Any, metadata: dict[str, Any]) -> None:
        super().__init__(metadata)
        self._policy = policy

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        # Newer openpi has infer_batch (one model call for the batch); older versions only infer.
        if len(batch) > 1 and hasattr(self._policy, "infer_batch"):
            return list(np.asarray(self._policy.infer_batch([_writable(obs) for obs in batch])["actions"]))
        return [np.asarray(self._policy.infer(_writable(obs))["actions"]) for obs in batch]


class LerobotBackend(Backend):
    """A LeRobot pretrained policy. Observations use LeRobot's keys (`observation.state`,
    `observation.images.<cam>`); uint8 HWC images become float CHW in [0, 1]; a string is the `task`."""

    @classmethod
    def load(cls, path: str) -> LerobotBackend:
        import torch
        from lerobot.configs.policies import PreTrainedConfig
        from lerobot.policies.factory import get_policy_class, make_pre_post_processors

        config = PreTrainedConfig.from_pretrained(path)
        policy = get_policy_class(config.type).from_pretrained(path, config=config)
        policy.eval()
        pre, post = make_pre_post_processors(config, pretrained_path=path)
        action = config.output_features["action"]
        metadata = {
            "policy_id": f"lerobot:{config.type}",
            "model_version": path.rstrip("/"),
            "action_horizon": getattr(config, "chunk_size", None) or getattr(config, "n_action_steps", None),
            "action_dim": int(action.shape[0]),
            "observation_keys": list(config.input_features),
        }
        return cls(policy, pre, post, torch, metadata)

    def __init__(self, policy: Any, pre: Any, post: Any, torch: Any, metadata: dict[str, Any]) -> None:
        super().__init__(metadata)
        self._policy, self._pre, self._post, self._torch = policy, pre, post, torch

    def _to_lerobot(self, obs: Observation) -> dict[str, Any]:
        torch, out = self._torch, {}
        for key, v in obs.items():
            if isinstance(v, str):
                out["task"] = v
            elif v.dtype == np.uint8 and v.ndim == 3:
                out[key] = torch.from_numpy(np.array(v)).permute(2, 0, 1).float() / 255.0
            else:
                out[key] = torch.from_numpy(np.array(v, dtype=np.float32))
        return out

    def infer(self, batch: Sequence[Observation]) -> list[np.ndarray]:
        # One observation per model call: tokenized prompts of different lengths do not stack.
        chunks = []
        with self._torch.inference_mode():
            for obs in batch:
                actions = self._policy.predict_action_chunk(self._pre(self._to_lerobot(obs)))
                actions = self._post(actions)
                chunks.append(actions.squeeze(0).float().cpu().numpy())
        return chunks

    def episode_start(self, session_id: str, episode_id: str, info: dict[str, Any] | None) -> None:
        self._policy.reset()  # drops queued actions and any recurrent state


def _writable(obs: Observation) -> Observation:
    """Copies of the received arrays: some openpi transforms write into their inputs."""
    return {k: np.array(v) if isinstance(v, np.ndarray) else v for k, v in obs.items()}


def _plain(value: Any) -> Any:
    """openpi metadata made msgpack-able (numpy values become plain numbers and lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
