"""A kinematic stand-in for a manipulation scene, for the servers' built-in backends: no simulator,
no GPU, deterministic per seed. The end effector moves by the action (0.05 m per step at 1), an
object sits at a seeded position, closing the gripper within 3 cm grasps it, and opening it within
4 cm of the target places it there: the goal. Enough to drive the wire, the control loop and the
critic end to end; it says nothing about how a real policy does in the real simulator.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np

STEP_M = 0.05
GRASP_M = 0.03
PLACE_M = 0.04
OPEN_QPOS = 0.04


class StandinScene:
    def __init__(self) -> None:
        self.eef = np.zeros(3)
        self.obj = np.zeros(3)
        self.target = np.zeros(3)
        self.start_z = 0.0
        self.closed = False
        self.held = False
        self.placed = False

    def reset(self, key: str, seed: int, shift_m: float = 0.0) -> str:
        """Seeds the scene from (key, seed); returns the reset digest (sha256 of everything sampled)."""
        digest_seed = int.from_bytes(hashlib.sha256(f"{key}#{seed}".encode()).digest()[:8], "little")
        rng = np.random.default_rng(digest_seed)
        self.eef = np.array([0.0, 0.0, 0.25])
        angle = rng.uniform(0, 2 * np.pi)
        self.obj = np.array([rng.uniform(-0.1, 0.1), rng.uniform(0.1, 0.2), 0.02]) + shift_m * np.array([np.cos(angle), np.sin(angle), 0])
        self.target = np.array([rng.uniform(-0.1, 0.1), rng.uniform(-0.2, -0.1), 0.02])
        self.start_z = float(self.obj[2])
        self.closed = self.held = self.placed = False
        sampled = {"key": key, "seed": seed, "obj": self.obj.round(6).tolist(), "target": self.target.round(6).tolist()}
        return hashlib.sha256(json.dumps(sampled, sort_keys=True).encode()).hexdigest()

    def step(self, action: np.ndarray) -> None:
        self.eef = self.eef + STEP_M * np.asarray(action[:3], dtype=np.float64)
        self.eef[2] = max(self.eef[2], 0.0)
        close = float(action[6]) > 0
        if close and not self.closed and self.eef_object_dist() < GRASP_M:
            self.held = True
        if not close and self.held:
            self.held = False
            self.placed = self.object_target_dist() < PLACE_M
            self.obj[2] = self.start_z
        self.closed = close
        if self.held:
            self.obj = self.eef.copy()

    def eef_object_dist(self) -> float:
        return float(np.linalg.norm(self.eef - self.obj))

    def object_target_dist(self) -> float:
        return float(np.linalg.norm(self.obj[:2] - self.target[:2]))

    def gripper_qpos(self) -> np.ndarray:
        q = 0.0 if self.closed else OPEN_QPOS
        return np.array([q, -q])

    def state8(self) -> np.ndarray:
        """LIBERO's 8-D state: eef position, eef axis-angle (the identity here), gripper qpos (2)."""
        return np.concatenate([self.eef, np.zeros(3), self.gripper_qpos()]).astype(np.float32)

    def render(self, size: int, camera: int) -> np.ndarray:
        """A synthetic image: object and target as squares on a plain background, upside down like
        robosuite's renders (so the servers' flip is exercised)."""
        img = np.full((size, size, 3), 40 + 30 * camera, dtype=np.uint8)
        for pos, colour in ((self.target, (0, 200, 0)), (self.obj, (200, 0, 0))):
            u = int(np.clip((pos[0] + 0.3) / 0.6 * size, 0, size - 4))
            v = int(np.clip((pos[1] + 0.3) / 0.6 * size, 0, size - 4))
            img[v : v + 4, u : u + 4] = colour
        return img[::-1, ::-1].copy()
