#!/usr/bin/env python3
"""Demonstrations of the scripted libero_spatial expert (libero_expert.py) on real LIBERO, in the
embedded tabletop's `zetta-demos/1` format (models/demos/README.md), so models/train/train_bc.py
trains a state-based base policy on them unchanged.

  python sim/remote/python/libero_demos.py --episodes 24 --initial-states 12 --out runs/libero-demos

Runs the real backend with the state-policy observation (libero_state_obs.py; no cameras) under the
server's protocol. Episode i of a task uses seed i mod S (S = --initial-states, at most LIBERO's 50
initial states); its first visit of a seed executes the expert's action, later visits the action plus
N(0, STD^2) on the six motion dimensions (DART-style, clipped to [-1, 1], the gripper never noised),
from a stream seeded by (task, seed, visit). The label is always the clean expert action for the state
reached. Only successful episodes are kept (unless --keep-failed).

Writes DIR/libero_spatial/<task>.npz per task (as each task finishes) and DIR/demos.json.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from libero_demos_format import FORMAT, OBS_KEYS, Recorded, manifest, write_task  # noqa: E402
from libero_expert import BowlExpert  # noqa: E402
from libero_expert_run import SUITE, drive, select_tasks  # noqa: E402
from libero_protocol import INIT_STATES  # noqa: E402
HELD_OUT_SEED_MIN = 1000  # zetta eval's default first seed: its seeds are never training seeds
MOTION_DIMS = 6


def noisy(action: np.ndarray, rng: np.random.Generator | None, std: float) -> np.ndarray:
    """The executed action: the expert's, plus motion noise on a later visit."""
    if rng is None or std <= 0:
        return action
    out = action.copy()
    out[:MOTION_DIMS] = np.clip(out[:MOTION_DIMS] + rng.normal(0.0, std, MOTION_DIMS), -1.0, 1.0)
    return out.astype(np.float32)


def run_episode(backend: Any, expert: BowlExpert, task: str, seed: int, rng: np.random.Generator | None, std: float) -> Recorded:
    rec = Recorded(seed=seed)

    def hook(obs: dict[str, Any], _state: np.ndarray, _features: dict[str, Any], action: np.ndarray) -> np.ndarray:
        label = action.astype(np.float32)
        executed = noisy(label, rng, std)
        rec.add({k: np.asarray(obs[k], dtype=np.float32) for k in OBS_KEYS}, label, executed)
        return executed

    rec.success, _ = drive(backend, expert, task, seed, hook)
    return rec


def record_task(backend: Any, task: str, task_index: int, args: argparse.Namespace) -> tuple[list[Recorded], int]:
    """The task's episodes (kept ones) and how many failed."""
    expert = BowlExpert()
    kept: list[Recorded] = []
    failed = 0
    for i in range(args.episodes):
        seed, visit = i % args.initial_states, i // args.initial_states
        rng = np.random.default_rng([task_index, seed, visit]) if visit > 0 else None
        rec = run_episode(backend, expert, task, seed, rng, args.noise)
        rec.visit, rec.noise_std = visit, (args.noise if rng is not None else 0.0)
        failed += not rec.success
        if rec.success or args.keep_failed:
            kept.append(rec)
        if args.verbose:
            print(f"{task} seed {seed} visit {visit}: {'success' if rec.success else 'failure'} in {len(rec.labels)} steps", file=sys.stderr)
    return kept, failed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for demos.json and the npz files")
    parser.add_argument("--episodes", type=int, default=24, help="episodes per task")
    parser.add_argument("--initial-states", type=int, default=12, help=f"seeds 0..S-1 (S at most {INIT_STATES})")
    parser.add_argument("--noise", type=float, default=0.1, help="execution-noise std on later visits (action units)")
    parser.add_argument("--tasks", default="", help="task indices (LIBERO's order), comma-separated (default: all)")
    parser.add_argument("--keep-failed", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="one line per episode on stderr")
    args = parser.parse_args(argv)
    if not 1 <= args.initial_states <= INIT_STATES:
        parser.error(f"--initial-states must be 1..{INIT_STATES}: LIBERO has {INIT_STATES} initial states per task")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from libero_backend import LiberoBackend  # imports LIBERO itself

    started = time.monotonic()
    backend = LiberoBackend([SUITE], state_policy=True)
    all_tasks = backend.spec()["suites"][SUITE]
    chosen = select_tasks(all_tasks, args.tasks)
    entries: dict[str, dict[str, Any]] = {}
    slots: dict[str, dict[str, Any]] = {}
    try:
        for task in chosen:
            index = all_tasks.index(task)
            kept, failed = record_task(backend, task, index, args)
            slots[task] = {**backend.slots(), "goal_objects": backend.slots()["names"][:2]}  # the bowl and the plate
            entries[task] = write_task(args.out, SUITE, task, backend.instruction, index, kept, failed, args.episodes)
            print(f"{task}: kept {len(kept)}/{args.episodes} ({failed} failed)", flush=True)
    finally:
        backend.close()
    seeds = {"first": 0, "last": min(args.episodes, args.initial_states) - 1, "held_out_from": HELD_OUT_SEED_MIN}
    doc = manifest(SUITE, all_tasks, args, entries, slots, seeds)
    (args.out / "demos.json").write_text(json.dumps(doc, indent=2) + "\n")
    steps = sum(e["steps"] for e in entries.values())
    print(f"{FORMAT}: {sum(e['kept'] for e in entries.values())} episodes, {steps} steps in {args.out} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
