#!/usr/bin/env python3
"""RoboCasa as a Zetta env server, on the env wire (sim/remote/README.md).

  --backend robocasa  RoboCasa's gym environments (`gym.make("robocasa/<Task>")`, imported only then),
                      the 18 atomic-seen target tasks by name, the runtime's 7-D action mapped to
                      PandaOmron's 12-D one, the three cameras, the 8-D state, info["success"].
  --backend builtin   the same wire, tasks and layouts over a kinematic stand-in scene (no simulator).

The published protocol: 5 scenes x 10 trials per task (run --episodes 50; episode seed s picks
scene s // 10 mod 5, and seeds the trial).
"""
from __future__ import annotations

import argparse
import hashlib
import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from standin_scene import StandinScene  # noqa: E402
from zetta_env_wire import common_arguments, run  # noqa: E402

log = logging.getLogger("zetta_env.robocasa")

ATOMIC_SEEN_TASKS = [
    "CloseBlenderLid", "CloseFridge", "CloseToasterOvenDoor", "CoffeeSetupMug", "NavigateKitchen", "OpenCabinet",
    "OpenDrawer", "OpenStandMixerHead", "PickPlaceCounterToCabinet", "PickPlaceCounterToStove", "PickPlaceDrawerToCounter",
    "PickPlaceSinkToCounter", "PickPlaceToasterToCounter", "SlideDishwasherRack", "TurnOffStove", "TurnOnElectricKettle",
    "TurnOnMicrowave", "TurnOnSinkFaucet",
]
SUITE = "atomic_seen"
SCENES = 5
TRIALS_PER_SCENE = 10
MAX_STEPS = 500  # per episode; --max-steps sets the horizon of the protocol being reproduced
CONTROL_HZ = 20
IMAGE_SIZE = 128
ROBOCASA_ACTION_DIM = 12
# PandaOmron's action: eef position (3), eef rotation (3), gripper (1), base motion (4), control mode (1).
ARM_MODE = -1.0

CAMERAS = {
    "observation/image": "robot0_agentview_left_image",
    "observation/image_right": "robot0_agentview_right_image",
    "observation/wrist_image": "robot0_eye_in_hand_image",
}
OBSERVATION = {key: {"dtype": "|u1", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3]} for key in CAMERAS}
OBSERVATION["observation/state"] = {"dtype": "<f4", "shape": [8]}

FEATURES = [
    {"name": "observed.gripper_width", "unit": "m", "kind": "number", "provenance": "observed", "meaning": "finger opening"},
    {"name": "privileged.eef_object_dist", "unit": "m", "kind": "number", "provenance": "privileged", "meaning": "end effector to the task's object (stand-in only)"},
    {"name": "privileged.task_success", "unit": "bool", "kind": "boolean", "provenance": "privileged", "meaning": "RoboCasa's _check_success()"},
]


def map_action(action7: np.ndarray) -> np.ndarray:
    """The runtime's [dx, dy, dz, dax, day, daz, gripper] as PandaOmron's 12-D action: the arm moves,
    the base stays, arm control mode. (NavigateKitchen needs the base: a 7-D policy cannot do it.)"""
    out = np.zeros(ROBOCASA_ACTION_DIM, dtype=np.float64)
    out[:7] = action7[:7]
    out[11] = ARM_MODE
    return out


def scene_of(seed: int) -> int:
    return (seed // TRIALS_PER_SCENE) % SCENES


def quat2axisangle(quat: np.ndarray) -> np.ndarray:
    w = float(np.clip(quat[3], -1.0, 1.0))
    den = np.sqrt(1.0 - w * w)
    return np.zeros(3) if np.isclose(den, 0.0) else (quat[:3] * 2.0 * np.arccos(w)) / den


def spec(backend: str, max_steps: int = MAX_STEPS) -> dict[str, Any]:
    return {
        "name": "robocasa" if backend == "robocasa" else "robocasa-builtin",
        "suites": {SUITE: ATOMIC_SEEN_TASKS},
        "action_dim": 7,
        "control_hz": CONTROL_HZ,
        "max_steps": {SUITE: max_steps},
        "observation": OBSERVATION,
        "features": FEATURES,
        "protocol": {"name": "RoboCasa atomic-seen", "scenes": SCENES, "trials_per_scene": TRIALS_PER_SCENE,
                     "scene_of_seed": "seed // 10 mod 5", "robot_action_dim": ROBOCASA_ACTION_DIM, "backend": backend},
    }


class BuiltinRobocasa:
    def __init__(self, max_steps: int = MAX_STEPS) -> None:
        self.max_steps = max_steps
        self.scene = StandinScene()
        self.last_robot_action = np.zeros(ROBOCASA_ACTION_DIM)

    def spec(self) -> dict[str, Any]:
        return spec("builtin", self.max_steps)

    def reset(self, suite: str, task: str, seed: int, perturbation: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        digest = self.scene.reset(f"{task}@scene{scene_of(seed)}", seed)
        return self._obs(), {"reset_digest": digest, "instruction": _instruction(task), "scene": scene_of(seed)}

    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        self.last_robot_action = map_action(action)
        self.scene.step(self.last_robot_action[:7])
        s = self.scene
        features = {"observed.gripper_width": float(s.gripper_qpos()[0] * 2), "privileged.eef_object_dist": s.eef_object_dist(), "privileged.task_success": s.placed}
        return self._obs(), float(s.placed), s.placed, {"success": s.placed, "features": features, "robot_action": self.last_robot_action.tolist()}

    def _obs(self) -> dict[str, Any]:
        obs: dict[str, Any] = {key: self.scene.render(IMAGE_SIZE, i)[::-1, ::-1].copy() for i, key in enumerate(CAMERAS)}
        obs["observation/state"] = self.scene.state8()
        return obs

    def close(self) -> None:
        pass


class RobocasaBackend:
    """RoboCasa's gym environments; one env per task, rebuilt when the task changes."""

    def __init__(self, max_steps: int = MAX_STEPS) -> None:
        import gymnasium as gym  # RoboCasa registers robocasa/<Task> on import
        import robocasa  # noqa: F401

        self._gym = gym
        self.max_steps = max_steps
        self._env: Any = None
        self._task: str | None = None

    def spec(self) -> dict[str, Any]:
        return spec("robocasa", self.max_steps)

    def reset(self, suite: str, task: str, seed: int, perturbation: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        if self._task != task:
            self.close()
            self._env = self._gym.make(f"robocasa/{task}", camera_heights=IMAGE_SIZE, camera_widths=IMAGE_SIZE)
            self._task = task
        obs, info = self._env.reset(seed=seed, options={"scene": scene_of(seed)})
        lang = info.get("lang") or _instruction(task)
        digest = hashlib.sha256(f"{task}#{seed}#{scene_of(seed)}".encode()).hexdigest()
        return self._obs(obs), {"reset_digest": digest, "instruction": lang, "scene": scene_of(seed)}

    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self._env.step(map_action(action))
        success = bool(info.get("success", False))
        qpos = obs["robot0_gripper_qpos"]
        features = {"observed.gripper_width": float(abs(qpos[0]) + abs(qpos[1])), "privileged.task_success": success}
        return self._obs(obs), float(reward), success or bool(terminated), {"success": success, "features": features}

    def _obs(self, obs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {key: np.ascontiguousarray(obs[cam][::-1], dtype=np.uint8) for key, cam in CAMERAS.items()}
        state = np.concatenate((obs["robot0_eef_pos"], quat2axisangle(obs["robot0_eef_quat"]), obs["robot0_gripper_qpos"][:2]))
        out["observation/state"] = state.astype(np.float32)
        return out

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None


def _instruction(task: str) -> str:
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in task).strip()
    return words.replace("pick place", "pick and place")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--backend", choices=["builtin", "robocasa"], default="builtin")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help=f"steps per episode (default {MAX_STEPS})")
    args = parser.parse_args(argv)
    backend: Any = RobocasaBackend(args.max_steps) if args.backend == "robocasa" else BuiltinRobocasa(args.max_steps)
    return run(backend, args)


if __name__ == "__main__":
    sys.exit(main())
