"""The state-policy observation of the real LIBERO backend (`--state-policy`): the arrays a state-based
base policy reads, laid out as the embedded tabletop's policy gets them (sim/tabletop/policy-io.ts), so
the same training (models/train) and the same in-process ONNX runner serve both.

  observation/state    f4 [8]   eef position, eef axis-angle, two finger joints (as without it)
  observation/objects  f4 [42]  6 slots x (position xyz, quaternion w x y z), zero-padded: slot 0 the
                                BDDL's first object of interest (libero_spatial: the black bowl), slot 1
                                its second (the plate), then the scene's other objects in the BDDL's
                                order, then its fixtures in the BDDL's order, as many as fit
  observation/task     f4 [T]   one-hot over the served suite's tasks, in LIBERO's task order
  observation/step     f4 [1]   steps since the wait steps (0 at reset)

The object poses are simulator ground truth: they stand in for a perception module this project does
not have, so a policy reading them sees more than a camera-based one would.
"""
from __future__ import annotations

from typing import Any

import numpy as np

OBJECT_SLOTS = 6
POSE_DIM = 7  # position xyz, quaternion w x y z (MuJoCo's body_xquat order)
STATE_DIM = 8


def state_policy_layout(tasks: int) -> dict[str, dict[str, Any]]:
    """The spec's observation layout for a suite of `tasks` tasks."""
    return {
        "observation/state": {"dtype": "<f4", "shape": [STATE_DIM]},
        "observation/objects": {"dtype": "<f4", "shape": [OBJECT_SLOTS * POSE_DIM]},
        "observation/task": {"dtype": "<f4", "shape": [tasks]},
        "observation/step": {"dtype": "<f4", "shape": [1]},
    }


def slot_names(inner: Any) -> list[str]:
    """Which bodies fill the slots, in slot order: the objects of interest that are bodies (a region,
    such as a drawer's, has no pose of its own here), the other objects, the fixtures; at most 6."""
    bodies = getattr(inner, "obj_body_id", {})
    interest = [n for n in (getattr(inner, "obj_of_interest", []) or []) if n in bodies]
    rest = [n for n in list(inner.objects_dict) + list(inner.fixtures_dict) if n in bodies and n not in interest]
    return (interest + rest)[:OBJECT_SLOTS]


def movable_count(inner: Any, names: list[str]) -> int:
    """How many of the first slots hold movable objects (not fixtures)."""
    count = 0
    for name in names:
        if name not in inner.objects_dict:
            break
        count += 1
    return count


def object_poses(inner: Any, names: list[str]) -> np.ndarray:
    """(42,) float32: each named body's world position and orientation, zeros after the last."""
    out = np.zeros(OBJECT_SLOTS * POSE_DIM, dtype=np.float32)
    data = inner.sim.data
    for i, name in enumerate(names):
        body = inner.obj_body_id[name]
        out[i * POSE_DIM : i * POSE_DIM + 3] = data.body_xpos[body]
        out[i * POSE_DIM + 3 : (i + 1) * POSE_DIM] = data.body_xquat[body]
    return out


class StatePolicyObservation:
    """Fills the four arrays for one suite; the one-hot's order is the suite's task order."""

    def __init__(self, suite: str, tasks: list[str]) -> None:
        self.suite = suite
        self.tasks = list(tasks)
        self.names: list[str] = []
        self._task = np.zeros(len(self.tasks), dtype=np.float32)

    def reset(self, inner: Any, suite: str, task: str) -> None:
        """Called after each reset: which task is on, which bodies fill the slots."""
        if suite != self.suite:
            raise ValueError(f"the state-policy observation serves {self.suite} only, not {suite}")
        self._task = np.zeros(len(self.tasks), dtype=np.float32)
        self._task[self.tasks.index(task)] = 1.0
        self.names = slot_names(inner)

    def arrays(self, inner: Any, step: int) -> dict[str, np.ndarray]:
        return {
            "observation/objects": object_poses(inner, self.names),
            "observation/task": self._task.copy(),
            "observation/step": np.array([step], dtype=np.float32),
        }


# What the state policy observes, as features the critic may read under `observed` provenance: slot
# 0's position (the object of interest, as observation/objects carries it) and the hand's distance
# to it. The same ground truth the policy reads, so a critic reading these sees no more than it.
OBSERVED_FEATURES = [
    {"name": "observed.object_x", "unit": "m", "kind": "number", "provenance": "observed",
     "meaning": "object of interest x, as the state policy's observation/objects slot 0 carries it"},
    {"name": "observed.object_y", "unit": "m", "kind": "number", "provenance": "observed", "meaning": "object of interest y, as slot 0 carries it"},
    {"name": "observed.object_z", "unit": "m", "kind": "number", "provenance": "observed", "meaning": "object of interest z, as slot 0 carries it"},
    {"name": "observed.object_eef_dist", "unit": "m", "kind": "number", "provenance": "observed",
     "meaning": "end effector to the object of interest as slot 0 carries it"},
    {"name": "observed.object_eef_dist_xy", "unit": "m", "kind": "number", "provenance": "observed",
     "meaning": "end effector to the object of interest in the table plane"},
]


def observed_features(objects: np.ndarray, eef: np.ndarray) -> dict[str, float]:
    """OBSERVED_FEATURES from one observation/objects array and the end effector's position."""
    if not objects[:3].any():  # an empty slot 0: no object of interest to read
        return {}
    pos = objects[:3].astype(np.float64)
    delta = np.asarray(eef, dtype=np.float64) - pos
    return {"observed.object_x": float(pos[0]), "observed.object_y": float(pos[1]), "observed.object_z": float(pos[2]),
            "observed.object_eef_dist": float(np.linalg.norm(delta)), "observed.object_eef_dist_xy": float(np.linalg.norm(delta[:2]))}
