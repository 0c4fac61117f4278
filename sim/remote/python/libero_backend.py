"""The real LIBERO backend of libero_env_server.py: LIBERO's OffScreenRenderEnv, driven the way
openpi's LIBERO client (examples/libero/main.py) drives it. Imported only with --backend libero, so
the server itself needs nothing but numpy, pyzmq and msgpack.

One env per task, kept while consecutive episodes run the same task (building one takes seconds).
Without cameras (--no-cameras) the env is LIBERO's ControlEnv with no offscreen renderer and no camera
observations: the same physics, the same 8-D state, no images (and no OpenGL at all). With
--state-policy (no cameras either) the observation adds what a state-based policy reads: ground-truth
object poses, the task one-hot and the step (libero_state_obs.py).

LIBERO and robosuite print progress on stdout; the server's stdout carries only its `ready` line, so
everything they print goes to stderr.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import pathlib
import sys
from typing import Any

import numpy as np

from libero_protocol import (
    CAMERAS, DUMMY_ACTION, INIT_STATES, RENDER_SIZE, STANDARD_SUITES, WAIT_STEPS, quat2axisangle, spec_for, to_policy_image,
)
from libero_perturb import swap_positions, wants_swap
from libero_restores import RESTORES
from libero_state_obs import OBSERVED_FEATURES, StatePolicyObservation, movable_count, object_poses, observed_features, state_policy_layout

log = logging.getLogger("zetta_env.libero")


def _quiet() -> contextlib.AbstractContextManager[Any]:
    return contextlib.redirect_stdout(sys.stderr)


class LiberoBackend:
    def __init__(self, suites: list[str], cameras: bool = True, state_policy: bool = False) -> None:
        if state_policy and len(suites) != 1:
            # The one-hot's size is the suite's task count: one trained policy, one suite.
            raise SystemExit("--state-policy serves exactly one suite: name it with --suites")
        cameras = cameras and not state_policy
        with _quiet():
            from libero.libero import benchmark, get_libero_path  # LIBERO itself, only here
            from libero.libero.envs.env_wrapper import ControlEnv, OffScreenRenderEnv

            self._env_class = OffScreenRenderEnv if cameras else ControlEnv
            self._cameras = cameras
            self._bddl_root = pathlib.Path(get_libero_path("bddl_files"))
            self._init_root = pathlib.Path(get_libero_path("init_states"))
            available = benchmark.get_benchmark_dict()
            # Standard suites first, then whatever else the installed package adds (LIBERO-Pro's).
            names = suites or [s for s in STANDARD_SUITES if s in available] + sorted(s for s in available if s not in STANDARD_SUITES)
            unknown = [s for s in names if s not in available]
            if unknown:
                raise SystemExit(f"unknown LIBERO suites {unknown}; installed: {sorted(available)}")
            self._suites: dict[str, Any] = {}
            self.skipped: dict[str, str] = {}
            for name in names:
                try:
                    self._suites[name] = self._build_suite(available[name])
                except Exception as err:  # noqa: BLE001 - LIBERO's dict names suites it cannot build (libero_100)
                    if suites:  # named on the command line: that is a mistake, not something to skip
                        raise SystemExit(f"LIBERO cannot build suite {name}: {type(err).__name__}: {err}") from None
                    self.skipped[name] = f"{type(err).__name__}: {err}"
        if not self._suites:
            raise SystemExit(f"LIBERO built none of its suites: {self.skipped}")
        if self.skipped:
            log.warning("skipped LIBERO suites it cannot build: %s", "; ".join(f"{n} ({why})" for n, why in self.skipped.items()))
        self._env: Any = None
        self._env_key: tuple[str, str] | None = None
        self._start_z = 0.0
        self._last_obs: dict[str, Any] = {}
        self._t = 0
        self.instruction = ""
        self.state_obs: StatePolicyObservation | None = None
        if state_policy:
            bench = self._suites[suites[0]]
            self.state_obs = StatePolicyObservation(suites[0], [bench.get_task(i).name for i in range(bench.n_tasks)])

    def _build_suite(self, cls: Any) -> Any:
        """The suite, if LIBERO can build it and every task has its BDDL file and initial states."""
        bench = cls()
        tasks = [bench.get_task(i) for i in range(bench.n_tasks)]
        if not tasks:
            raise ValueError("no tasks")
        absent = [str(p) for t in tasks for p in (self._bddl_root / t.problem_folder / t.bddl_file, self._init_root / t.problem_folder / t.init_states_file)
                  if not p.exists()]
        if absent:
            raise FileNotFoundError(f"{len(absent)} task files missing, e.g. {absent[0]}")
        return bench

    def spec(self) -> dict[str, Any]:
        suites = {name: [t.name for t in (s.get_task(i) for i in range(s.n_tasks))] for name, s in self._suites.items()}
        instructions = {s.get_task(i).name: s.get_task(i).language for s in self._suites.values() for i in range(s.n_tasks)}
        if self.state_obs is None:
            return spec_for(suites, instructions, "libero", cameras=self._cameras, skipped=self.skipped)
        out = spec_for(suites, instructions, "libero", cameras=False, skipped=self.skipped,
                       observation=state_policy_layout(len(self.state_obs.tasks)))
        out["protocol"]["policy_observation"] = ("state policy: observation/objects holds simulator ground-truth poses "
                                                 "(standing in for perception), observation/task a one-hot over the suite's tasks, "
                                                 "observation/step the steps since the wait steps")
        out["features"] = out["features"] + OBSERVED_FEATURES
        out["restores"] = RESTORES
        return out

    def slots(self) -> dict[str, Any]:
        """The current task's object slots: names in slot order and how many of the first are movables."""
        names = self.state_obs.names if self.state_obs is not None else []
        return {"names": list(names), "movables": movable_count(self._env.env, names) if names else 0}

    def reset(self, suite: str, task: str, seed: int, perturbation: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        # Only the position swap is applied here; anything else is refused rather than run nominal under its name.
        swap = wants_swap(perturbation)
        bench = self._suites[suite]
        index = [bench.get_task(i).name for i in range(bench.n_tasks)].index(task)
        t = bench.get_task(index)
        with _quiet():
            if self._env_key != (suite, task):
                self._open(suite, task, t)
            init_states = bench.get_task_init_states(index)
            state_index = seed % min(INIT_STATES, len(init_states))
            # LIBERO's seed is numpy's global one (env.seed = np.random.seed). Seeded before every reset,
            # an episode depends on its seed alone, not on the episodes before it.
            self._env.seed(seed)
            self._env.reset()
            obs = self._env.set_init_state(init_states[state_index])
            swapped = swap_positions(self._env.env) if swap else None
            for _ in range(WAIT_STEPS):  # let the objects settle, as the reference client does
                obs, _, _, _ = self._env.step(DUMMY_ACTION)
        self._start_z = self._object_pos()[2] if self._objects() else 0.0
        self.instruction = t.language
        self._t = 0
        if self.state_obs is not None:
            self.state_obs.reset(self._env.env, suite, task)
        self._last_obs = obs
        digest = _digest(suite + ("+swap" if swapped else ""), task, state_index, init_states[state_index])
        info = {"reset_digest": digest, "instruction": t.language, "init_state": state_index}
        if swapped:
            info["swapped"] = list(swapped)
        return self._policy_obs(obs), info

    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        with _quiet():
            obs, reward, done, _ = self._env.step(action.astype(np.float64).tolist())
        success = bool(done)  # LIBERO's done is _check_success(): every goal predicate holds
        self._last_obs = obs
        self._t += 1
        return self._policy_obs(obs), float(reward), success, {"success": success, "features": self._features(obs, success)}

    def features(self) -> dict[str, Any]:
        """The features of the current state (after a reset, before any step: what a policy that reads
        privileged poses needs for its first action). goal_satisfied reads False until a step says."""
        return self._features(self._last_obs, False)

    def close(self) -> None:
        if self._env is not None:
            with _quiet():
                self._env.close()
            self._env = None
            self._env_key = None

    def _open(self, suite: str, task: str, t: Any) -> None:
        self.close()
        bddl = self._bddl_root / t.problem_folder / t.bddl_file
        log.info("building %s/%s from %s", suite, task, bddl)
        if self._cameras:
            self._env = self._env_class(bddl_file_name=str(bddl), camera_heights=RENDER_SIZE, camera_widths=RENDER_SIZE)
        else:
            self._env = self._env_class(bddl_file_name=str(bddl), use_camera_obs=False, has_renderer=False, has_offscreen_renderer=False)
        self._env_key = (suite, task)

    def _policy_obs(self, obs: dict[str, Any]) -> dict[str, Any]:
        state = np.concatenate((obs["robot0_eef_pos"], quat2axisangle(obs["robot0_eef_quat"]), obs["robot0_gripper_qpos"]))
        out: dict[str, Any] = {key: to_policy_image(obs[f"{camera}_image"]) for key, camera in CAMERAS.items()} if self._cameras else {}
        out["observation/state"] = state.astype(np.float32)
        out["prompt"] = self.instruction
        if self.state_obs is not None:
            out.update(self.state_obs.arrays(self._env.env, self._t))
        return out

    # Privileged features: simulator ground truth, for the critic only (never in the policy's obs).
    def _objects(self) -> list[str]:
        """The BDDL's objects of interest that LIBERO tracks: objects, fixtures, and regions (sites, such
        as a drawer's `wooden_cabinet_1_middle_region` in libero_goal)."""
        inner = self._env.env
        tracked = getattr(inner, "object_states_dict", {})
        return [name for name in (getattr(inner, "obj_of_interest", []) or []) if name in tracked]

    def _object_pos(self, which: int = 0) -> np.ndarray:
        inner = self._env.env
        return np.array(inner.object_states_dict[self._objects()[which]].get_geom_state()["pos"], dtype=np.float64)

    def _features(self, obs: dict[str, Any], success: bool) -> dict[str, Any]:
        inner = self._env.env
        qpos = obs["robot0_gripper_qpos"]
        out: dict[str, Any] = {"observed.gripper_width": float(abs(qpos[0]) + abs(qpos[1])), "privileged.goal_satisfied": success}
        try:
            goals = inner.parsed_problem["goal_state"]
            out["privileged.goal_progress"] = float(np.mean([bool(inner._eval_predicate(g)) for g in goals])) if goals else float(success)
        except Exception:  # a LIBERO version without these internals: the feature reads NaN
            pass
        if self.state_obs is not None and self.state_obs.names:
            out.update(observed_features(object_poses(inner, self.state_obs.names), obs["robot0_eef_pos"]))
        if not self._objects():
            return out
        try:
            pos = self._object_pos()
            out.update({"privileged.object_x": float(pos[0]), "privileged.object_y": float(pos[1]), "privileged.object_z": float(pos[2]),
                        "privileged.object_lift": float(pos[2] - self._start_z),
                        "privileged.eef_object_dist": float(np.linalg.norm(np.asarray(obs["robot0_eef_pos"]) - pos))})
            if len(self._objects()) > 1:
                target = self._object_pos(1)
                out.update({"privileged.target_x": float(target[0]), "privileged.target_y": float(target[1]),
                            "privileged.target_z": float(target[2]),
                            "privileged.object_target_dist": float(np.linalg.norm(pos[:2] - target[:2]))})
            obj = inner.get_object(self._objects()[0])  # None for a region: it has no geoms to touch
            if obj is not None:
                out["privileged.gripper_object_contact"] = bool(inner.check_contact(inner.robots[0].gripper, obj))
        except Exception as err:
            log.debug("privileged features unavailable: %s", err)
        return out


def _digest(suite: str, task: str, index: int, state: np.ndarray) -> str:
    h = hashlib.sha256(f"{suite}/{task}#{index}".encode())
    h.update(np.ascontiguousarray(state, dtype=np.float64).tobytes())
    return h.hexdigest()
