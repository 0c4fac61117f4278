"""The `zetta-demos/1` files (models/demos/README.md) for demonstrations recorded on real LIBERO: one
npz per task (a plain zip of .npy arrays, as numpy.savez writes it) and the demos.json manifest that
models/train/data.py reads. No time stamps: the same episodes give the same bytes."""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "zetta-demos/1"
OBS_KEYS = ("observation/state", "observation/objects", "observation/task", "observation/step")


@dataclass
class Recorded:
    """One episode's steps: the policy's observation before each action, the label, what ran."""

    seed: int
    visit: int = 0
    noise_std: float = 0.0
    success: bool = False
    observations: list[dict[str, np.ndarray]] = field(default_factory=list)
    labels: list[np.ndarray] = field(default_factory=list)
    executed: list[np.ndarray] = field(default_factory=list)

    def add(self, obs: dict[str, np.ndarray], label: np.ndarray, executed: np.ndarray) -> None:
        self.observations.append(obs)
        self.labels.append(label)
        self.executed.append(executed)


def task_arrays(task: str, prompt: str, task_index: int, episodes: list[Recorded]) -> dict[str, np.ndarray]:
    """The npz's arrays; rows of an episode are contiguous and in step order."""
    eps = [e for e in episodes if e.labels]
    lengths = np.array([len(e.labels) for e in eps], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64) if eps else np.zeros(0, dtype=np.int64)
    rows = [o for e in eps for o in e.observations]
    arrays: dict[str, np.ndarray] = {"format": np.array(FORMAT), "task": np.array(task), "prompt": np.array(prompt)}
    for key in OBS_KEYS:
        arrays[key] = np.stack([r[key] for r in rows]).astype(np.float32) if rows else np.zeros((0, 0), dtype=np.float32)
    arrays["actions"] = np.stack([a for e in eps for a in e.labels]).astype(np.float32) if eps else np.zeros((0, 7), np.float32)
    arrays["executed_actions"] = np.stack([a for e in eps for a in e.executed]).astype(np.float32) if eps else np.zeros((0, 7), np.float32)
    arrays["episode"] = np.concatenate([np.full(n, i, dtype=np.int64) for i, n in enumerate(lengths)]) if eps else np.zeros(0, np.int64)
    arrays["step"] = np.concatenate([np.arange(n, dtype=np.int64) for n in lengths]) if eps else np.zeros(0, np.int64)
    arrays["task_index"] = np.full(int(lengths.sum()), task_index, dtype=np.int64)
    arrays["episode_seed"] = np.array([e.seed for e in eps], dtype=np.int64)
    arrays["episode_pass"] = np.array([e.visit for e in eps], dtype=np.int64)
    arrays["episode_noise_std"] = np.array([e.noise_std for e in eps], dtype=np.float32)
    arrays["episode_start"], arrays["episode_length"] = starts, lengths
    arrays["episode_success"] = np.array([int(e.success) for e in eps], dtype=np.int64)
    return arrays


def write_task(out: Path, suite: str, task: str, prompt: str, task_index: int, episodes: list[Recorded], failed: int,
               recorded: int) -> dict[str, Any]:
    """Writes DIR/<suite>/<task>.npz; returns its demos.json entry."""
    rel = f"{suite}/{task}.npz"
    (out / suite).mkdir(parents=True, exist_ok=True)
    arrays = task_arrays(task, prompt, task_index, episodes)
    np.savez(out / rel, **arrays)
    kept = sum(e.success for e in episodes)
    return {"episodes": recorded, "kept": len(episodes), "discarded": recorded - len(episodes), "failed": failed,
            "successes_kept": kept, "steps": int(arrays["episode_length"].sum()), "file": rel}


def manifest(suite: str, tasks: list[str], args: argparse.Namespace, entries: dict[str, dict[str, Any]],
             slots: dict[str, dict[str, Any]], seeds: dict[str, int]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "suite": suite,
        "source": "scripted expert (libero_expert.py) on real LIBERO, state-policy observation (ground-truth object poses)",
        "episodes_per_task": args.episodes,
        "initial_states": args.initial_states,
        "noise_std": args.noise,
        "seeds": seeds,
        "tasks": entries,
        "totals": {k: sum(e[k] for e in entries.values()) for k in ("episodes", "kept", "discarded", "failed", "steps")},
        "policy_tasks": tasks,
        "object_slots": 6,
        "slots": slots,
    }
