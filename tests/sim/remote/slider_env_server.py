#!/usr/bin/env python3
"""An env server written from the env wire's table alone (sim/remote/README.md), sharing no code with
Zetta or its servers: a slider on a rail that must reach a target, with a bump on the rail that stops
it unless it is raised first. Not a tabletop: no gripper, no objects, one axis that matters.

  dx (action[0]) slides it, 5 cm per step at 1; dz (action[2]) raises or lowers it (z >= 0).
  Task `open`: nothing in the way. Task `bump`: the bump at x = 0 stops a slider lower than 3 cm.
  Success: within 2 cm of the target.

  python3 slider_env_server.py --bind tcp://127.0.0.1:* [--log-steps] [--step-delay-ms N] [--duplicate-step-replies]
                                [--stall-at-step T --stall-ms N]
Prints `ready <endpoint>` once bound; with --log-steps, `step <seed> <t>` after each step.
With --stall-at-step it stalls once, N ms before answering the first episode's step T (a simulator
that hangs mid-episode), printing `stall begins` and `stall ends` around the wait.
With --duplicate-step-replies it is a faulty server: a ROUTER that answers each step twice (the
envelope echoed, as REP would), so a client that reads the copy as its next reply runs ahead.
"""
import argparse
import hashlib
import signal
import sys
import time

import msgpack
import numpy as np
import zmq

STEP = 0.05
BUMP_X = 0.0
BUMP_CLEARANCE = 0.03
REACHED = 0.02


def array(a):
    a = np.ascontiguousarray(a)
    return {"__ndarray__": True, "data": a.tobytes(), "dtype": a.dtype.str, "shape": list(a.shape)}


def feature(name, unit, kind, provenance, meaning):
    return {"name": name, "unit": unit, "kind": kind, "provenance": provenance, "meaning": meaning}


SPEC = {
    "name": "slider",
    "suites": {"slide": ["open", "bump"]},
    "action_dim": 7,
    "control_hz": 20,
    "max_steps": {"slide": 60},
    "observation": {"observation/state": {"dtype": "<f4", "shape": [8]}, "observation/offset": {"dtype": "<f4", "shape": [1]}},
    "features": [
        feature("observed.target_offset", "m", "number", "observed", "target minus slider position, along the rail"),
        feature("observed.target_dist", "m", "number", "observed", "distance from the slider to the target"),
        feature("privileged.blocked", "bool", "boolean", "privileged", "the last step ran into the bump"),
        feature("privileged.height", "m", "number", "privileged", "how high the slider is raised"),
    ],
}


class Slider:
    def __init__(self):
        self.task = None

    def reset(self, task, seed):
        rng = np.random.default_rng(seed)
        self.task, self.seed, self.t = task, seed, 0
        self.x = -0.2 + rng.uniform(-0.02, 0.02)
        self.z = 0.0
        self.target = 0.2 + rng.uniform(-0.02, 0.02)
        self.blocked = False
        digest = hashlib.sha256(f"{task} {self.x:.6f} {self.target:.6f}".encode()).hexdigest()
        return self.obs(), {"reset_digest": digest, "instruction": f"slide to the target ({task})"}

    def step(self, action):
        nx = self.x + STEP * float(np.clip(action[0], -1, 1))
        self.z = max(0.0, self.z + STEP * float(np.clip(action[2], -1, 1)))
        crosses = (self.x - BUMP_X) * (nx - BUMP_X) <= 0 and nx != self.x
        self.blocked = self.task == "bump" and crosses and self.z < BUMP_CLEARANCE
        self.x = float(BUMP_X - 0.005 * np.sign(nx - self.x)) if self.blocked else nx
        self.t += 1
        success = abs(self.target - self.x) < REACHED
        features = {
            "observed.target_offset": self.target - self.x,
            "observed.target_dist": abs(self.target - self.x),
            "privileged.blocked": bool(self.blocked),
            "privileged.height": self.z,
        }
        return self.obs(), (1.0 if success else 0.0), success, {"success": success, "features": features}

    def obs(self):
        state = np.array([self.x, 0.0, self.z, 0, 0, 0, 0.04, -0.04], dtype=np.float32)
        return {"observation/state": array(state), "observation/offset": array(np.array([self.target - self.x], dtype=np.float32))}


def failure(code, message):
    return {"ok": False, "error": {"code": code, "message": message}}


def handle(slider, req, args):
    op = req.get("op")
    if op == "spec":
        return {"ok": True, "spec": SPEC}
    if op == "reset":
        if req.get("suite") != "slide" or req.get("task") not in SPEC["suites"]["slide"]:
            return failure("UNKNOWN_TASK", f"no task {req.get('suite')}/{req.get('task')}")
        obs, info = slider.reset(req["task"], int(req["seed"]))
        return {"ok": True, "obs": obs, "info": info}
    if op == "step":
        if slider.task is None:
            return failure("NOT_RESET", "step before reset")
        a = req.get("action")
        if not isinstance(a, dict) or a.get("dtype") != "<f4" or a.get("shape") != [7]:
            return failure("BAD_ACTION", "action must be float32 (7,)")
        if args.step_delay_ms:
            time.sleep(args.step_delay_ms / 1000)
        if args.stall_at_step and slider.t + 1 == args.stall_at_step and not args.stalled:
            args.stalled = True
            print("stall begins", flush=True)
            time.sleep(args.stall_ms / 1000)
            print("stall ends", flush=True)
        obs, reward, done, info = slider.step(np.frombuffer(a["data"], dtype="<f4"))
        if args.log_steps:
            print(f"step {slider.seed} {slider.t}", flush=True)
        return {"ok": True, "obs": obs, "reward": reward, "done": done, "info": info}
    if op == "close":
        return {"ok": True}
    return failure("BAD_REQUEST", f"unknown op {op!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", default="tcp://127.0.0.1:*")
    parser.add_argument("--log-steps", action="store_true")
    parser.add_argument("--step-delay-ms", type=float, default=0)
    parser.add_argument("--duplicate-step-replies", action="store_true")
    parser.add_argument("--stall-at-step", type=int, default=0)
    parser.add_argument("--stall-ms", type=float, default=0)
    args = parser.parse_args()
    args.stalled = False
    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER if args.duplicate_step_replies else zmq.REP)
    sock.bind(args.bind)
    print(f"ready {sock.getsockopt_string(zmq.LAST_ENDPOINT)}", flush=True)
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    slider = Slider()
    while running[0]:
        if not sock.poll(100):
            continue
        if args.duplicate_step_replies:
            *envelope, payload = sock.recv_multipart()
            req = msgpack.unpackb(payload, raw=False)
            reply = msgpack.packb(handle(slider, req, args), use_bin_type=True)
            for _ in range(2 if req.get("op") == "step" else 1):
                sock.send_multipart([*envelope, reply])
            continue
        req = msgpack.unpackb(sock.recv(), raw=False)
        sock.send(msgpack.packb(handle(slider, req, args), use_bin_type=True))
    sock.close(linger=0)
    ctx.term()
    return 0


if __name__ == "__main__":
    sys.exit(main())
