#!/usr/bin/env python3
"""Runs the scripted libero_spatial expert (libero_expert.py) against the real LIBERO backend, without
cameras (LIBERO's ControlEnv), under the server's protocol: initial state seed mod 50, 10 wait steps,
then at most the suite's max steps (220 for libero_spatial), success from LIBERO's done.

  python sim/remote/python/libero_expert_run.py --seeds 0-4                 # every task, seeds 0..4
  python sim/remote/python/libero_expert_run.py --tasks 0,3 --seeds 0,7 --json

Prints one line per task (successes / episodes), the total and the wall time; with --json, a last
line with the same as JSON. Its demonstrations, for training, are libero_demos.py's to record.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from libero_expert import BowlExpert  # noqa: E402
from libero_protocol import max_steps_for  # noqa: E402

SUITE = "libero_spatial"


@dataclass
class Episode:
    task: str
    seed: int
    success: bool = False
    steps: int = 0
    phase: str = ""


def parse_seeds(text: str) -> list[int]:
    """'0-4' or '0,3,7' (or both: '0-4,10')."""
    seeds: list[int] = []
    for part in (p for p in text.split(",") if p):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi) + 1) if hi else [int(lo)])
    return seeds


# Per step: (policy observation, 8-D state, features, expert action) -> the action to execute.
StepHook = Callable[[dict[str, Any], np.ndarray, dict[str, Any], np.ndarray], np.ndarray]


def drive(backend: Any, expert: BowlExpert, task: str, seed: int, hook: StepHook) -> tuple[bool, int]:
    """One episode of the expert under the server's protocol: (success, steps). The hook sees each
    step before it runs and chooses what runs (the expert's action, or a noisy one)."""
    obs, _ = backend.reset(SUITE, task, seed, None)
    features = backend.features()
    expert.reset(str(obs.get("prompt", task)))  # the prompt, as a policy gets it
    for step in range(max_steps_for(SUITE)):
        state = np.asarray(obs["observation/state"], dtype=np.float32)
        obs, _, done, info = backend.step(hook(obs, state, features, expert.act(state, features)))
        features = info["features"]
        if done:  # the episode ends at LIBERO's done, as the server's protocol has it
            return True, step + 1
    return False, max_steps_for(SUITE)


def run_episode(backend: Any, expert: BowlExpert, task: str, seed: int) -> Episode:
    ep = Episode(task, seed)
    ep.success, ep.steps = drive(backend, expert, task, seed, lambda _obs, _state, _features, action: action)
    ep.phase = expert.phase
    return ep


def select_tasks(all_tasks: list[str], text: str) -> list[str]:
    """Indices in LIBERO's order or names, comma-separated; empty: every task."""
    if not text:
        return all_tasks
    return [all_tasks[int(t)] if t.isdigit() else t for t in text.split(",") if t]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default="", help="task indices (LIBERO's order) or names, comma-separated (default: all)")
    parser.add_argument("--seeds", default="0-4", help="episode seeds, e.g. 0-4 or 0,7,12 (initial state seed mod 50)")
    parser.add_argument("--json", action="store_true", help="a last line of JSON: per-task and total successes")
    parser.add_argument("--verbose", action="store_true", help="one line per episode on stderr")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from libero_backend import LiberoBackend  # imports LIBERO itself

    started = time.monotonic()
    backend = LiberoBackend([SUITE], cameras=False)
    tasks = select_tasks(backend.spec()["suites"][SUITE], args.tasks)
    seeds = parse_seeds(args.seeds)
    expert = BowlExpert()
    episodes: list[Episode] = []
    try:
        for task in tasks:
            for seed in seeds:
                ep = run_episode(backend, expert, task, seed)
                episodes.append(ep)
                if args.verbose:
                    print(f"{task} seed {seed}: {'success' if ep.success else 'failure'} in {ep.steps} steps (last phase {ep.phase})", file=sys.stderr)
            won = [e for e in episodes if e.task == task]
            print(f"{task}: {sum(e.success for e in won)}/{len(won)}", flush=True)
    finally:
        backend.close()
    wall = time.monotonic() - started
    total = sum(e.success for e in episodes)
    print(f"total: {total}/{len(episodes)} ({100.0 * total / max(1, len(episodes)):.1f}%), {sum(e.steps for e in episodes)} steps, {wall:.0f} s")
    if args.json:
        per_task = {t: {"successes": sum(e.success for e in episodes if e.task == t), "episodes": sum(e.task == t for e in episodes)} for t in tasks}
        print(json.dumps({"suite": SUITE, "seeds": seeds, "tasks": per_task, "successes": total, "episodes": len(episodes),
                          "failed": [{"task": e.task, "seed": e.seed, "phase": e.phase} for e in episodes if not e.success],
                          "wall_s": round(wall, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
