#!/usr/bin/env python3
"""LIBERO (and LIBERO-Pro) as a Zetta env server, on the env wire (sim/remote/README.md).

  --backend libero   LIBERO's OffScreenRenderEnv (imported only then): every suite the installed
                     `libero` package can build (LIBERO-Pro's perturbed suites too, when its fork is
                     the one installed; a suite its benchmark dict names but cannot build, such as
                     libero_100, is skipped and named on stderr and in the spec's protocol), 50 fixed
                     initial states per task (episode seed s uses state s mod 50), 10 wait steps of
                     [0,0,0,0,0,0,-1] after each reset, openpi's max steps per suite, both cameras
                     rotated 180 degrees and resized (with padding) to 224, the 8-D state, and
                     privileged features for the critic.
  --backend builtin  the same wire, suites, protocol and layouts over a kinematic stand-in scene
                     (no simulator): what the tests here run.
  --no-cameras       no camera observations (LIBERO's env is built without an offscreen renderer):
                     the spec declares only observation/state; for scripted experts and fast runs.
  --state-policy     (real backend, one suite named by --suites; implies --no-cameras) the observation
                     a state-based policy reads: observation/state [8], observation/objects [42]
                     (6 slots x position + quaternion wxyz of simulator ground truth, standing in for
                     perception: the object of interest, its target, the other objects, the fixtures),
                     observation/task (one-hot over the suite's tasks), observation/step [1]
                     (libero_state_obs.py).

Run with a Python that has numpy, pyzmq and msgpack (plus LIBERO for --backend libero):
  python3 sim/remote/python/libero_env_server.py --backend libero --bind tcp://0.0.0.0:5555
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from libero_protocol import BUILTIN_SUITES, DUMMY_ACTION, INIT_STATES, RENDER_SIZE, WAIT_STEPS, spec_for, to_policy_image  # noqa: E402
from standin_scene import StandinScene  # noqa: E402
from zetta_env_wire import common_arguments, run  # noqa: E402

class BuiltinLibero:
    """LIBERO's wire, suites and protocol over the stand-in scene: 50 layouts per task (seed mod 50)."""

    def __init__(self, cameras: bool = True) -> None:
        self.scene = StandinScene()
        self.cameras = cameras
        self.instruction = ""

    def spec(self) -> dict[str, Any]:
        instructions = {t: t.replace("_", " ") for tasks in BUILTIN_SUITES.values() for t in tasks}
        return spec_for(BUILTIN_SUITES, instructions, "builtin", cameras=self.cameras)

    def reset(self, suite: str, task: str, seed: int, perturbation: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        shift = ((perturbation or {}).get("position") or {}).get("shift_m")
        digest = self.scene.reset(f"{suite}/{task}", seed % INIT_STATES, float(np.mean(shift)) if shift else 0.0)
        for _ in range(WAIT_STEPS):
            self.scene.step(np.array(DUMMY_ACTION, dtype=np.float32))
        self.instruction = task.replace("_", " ")
        return self._obs(), {"reset_digest": digest, "instruction": self.instruction, "init_state": seed % INIT_STATES}

    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        self.scene.step(action)
        s = self.scene
        success = s.placed
        features = {
            "observed.gripper_width": float(s.gripper_qpos()[0] - s.gripper_qpos()[1]),
            "privileged.object_x": float(s.obj[0]), "privileged.object_y": float(s.obj[1]), "privileged.object_z": float(s.obj[2]),
            "privileged.object_lift": float(s.obj[2] - s.start_z),
            "privileged.eef_object_dist": s.eef_object_dist(),
            "privileged.target_x": float(s.target[0]), "privileged.target_y": float(s.target[1]), "privileged.target_z": float(s.target[2]),
            "privileged.object_target_dist": s.object_target_dist(),
            "privileged.gripper_object_contact": s.held,
            "privileged.goal_progress": 1.0 if success else 0.0,
            "privileged.goal_satisfied": success,
        }
        return self._obs(), float(success), success, {"success": success, "features": features}

    def _obs(self) -> dict[str, Any]:
        images = {
            "observation/image": to_policy_image(self.scene.render(RENDER_SIZE, 0)),
            "observation/wrist_image": to_policy_image(self.scene.render(RENDER_SIZE, 1)),
        } if self.cameras else {}
        return {**images, "observation/state": self.scene.state8(), "prompt": self.instruction}

    def close(self) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--backend", choices=["builtin", "libero"], default="builtin")
    parser.add_argument("--suites", default="", help="comma-separated suites to serve (default: every one the installed LIBERO can build)")
    parser.add_argument("--no-cameras", action="store_true", help="no camera observations: the spec declares only observation/state")
    parser.add_argument("--state-policy", action="store_true",
                        help="(libero backend, one suite) add ground-truth object poses, task one-hot and step for a state-based policy; no cameras")
    args = parser.parse_args(argv)
    if args.state_policy and args.backend != "libero":
        parser.error("--state-policy needs --backend libero (the stand-in scene has no objects to report)")
    if args.backend == "libero":
        logging.basicConfig(level=args.log_level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        from libero_backend import LiberoBackend  # imports LIBERO itself

        backend: Any = LiberoBackend([s for s in args.suites.split(",") if s], cameras=not args.no_cameras, state_policy=args.state_policy)
    else:
        backend = BuiltinLibero(cameras=not args.no_cameras)
    return run(backend, args)


if __name__ == "__main__":
    sys.exit(main())
