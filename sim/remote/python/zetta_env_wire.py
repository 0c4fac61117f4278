"""The env wire's server side: one ZeroMQ REP socket, one msgpack map per frame, ops spec / reset /
step / close (sim/remote/README.md has the table). A backend implements the simulator; this module
validates requests, calls it, and answers `{"ok": true, ...}` or `{"ok": false, "error": {code,
message}}`. Needs numpy, pyzmq and msgpack only (Debian: python3-zmq python3-msgpack python3-numpy).
"""
from __future__ import annotations

import argparse
import logging
import math
import signal
import sys
import threading
from typing import Any, Protocol

import msgpack
import numpy as np
import zmq

log = logging.getLogger("zetta_env")

DTYPES = frozenset({"|u1", "|b1", "<i4", "<i8", "<f4", "<f8"})
ACTION_DIM = 7
POLL_MS = 100  # how often the loop looks at the stop flag while idle


class EnvError(Exception):
    """A failure the client is told about: BAD_REQUEST, UNKNOWN_SUITE, UNKNOWN_TASK, NOT_RESET, BAD_ACTION,
    or SIM_FAILED / SHUTTING_DOWN, which the client counts as the infrastructure's (not the task's)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Backend(Protocol):
    def spec(self) -> dict[str, Any]: ...
    def reset(self, suite: str, task: str, seed: int, perturbation: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]: ...
    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, dict[str, Any]]: ...
    def close(self) -> None: ...


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True, default=_encode_extra)


def _encode_extra(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        a = np.ascontiguousarray(value)
        if a.dtype.str not in DTYPES:
            raise TypeError(f"dtype {a.dtype.str} is not one of the wire's dtypes")
        return {"__ndarray__": True, "data": a.tobytes(), "dtype": a.dtype.str, "shape": list(a.shape)}
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot encode {type(value).__name__}")


def unpack(frame: bytes) -> Any:
    try:
        raw = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    except Exception as err:  # msgpack raises several unrelated types for bad input
        raise EnvError("BAD_REQUEST", f"not valid msgpack: {err}") from None
    return _normalize(raw)


def _normalize(value: Any) -> Any:
    if isinstance(value, dict):
        obj = {(k.decode() if isinstance(k, bytes) else k): v for k, v in value.items()}
        if "__ndarray__" in obj:
            dtype = obj.get("dtype")
            dtype = dtype.decode() if isinstance(dtype, bytes) else dtype
            if dtype not in DTYPES or not isinstance(obj.get("data"), bytes) or not isinstance(obj.get("shape"), list):
                raise EnvError("BAD_REQUEST", "malformed ndarray")
            shape = obj["shape"]
            if math.prod(shape) * np.dtype(dtype).itemsize != len(obj["data"]):
                raise EnvError("BAD_REQUEST", f"ndarray of {dtype} {shape} has {len(obj['data'])} bytes")
            return np.frombuffer(obj["data"], dtype=dtype).reshape(shape)
        return {k: _normalize(v) for k, v in obj.items()}
    if isinstance(value, list):
        return [_normalize(v) for v in value]
    return value


def _require(req: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in req:
        raise EnvError("BAD_REQUEST", f"missing {key!r}")
    value = req[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise EnvError("BAD_REQUEST", f"{key!r} has the wrong type ({type(value).__name__})")
    return value


class EnvServer:
    """Validates each request against the backend's spec and dispatches it."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._spec = backend.spec()
        self._reset = False

    def handle(self, frame: bytes) -> dict[str, Any]:
        try:
            req = unpack(frame)
            if not isinstance(req, dict):
                raise EnvError("BAD_REQUEST", "a request is one msgpack map")
            op = _require(req, "op", str)
            if op == "spec":
                return {"ok": True, "spec": self._spec}
            if op == "reset":
                return self._do_reset(req)
            if op == "step":
                return self._do_step(req)
            if op == "close":
                self._reset = False
                return {"ok": True}
            raise EnvError("BAD_REQUEST", f"unknown op {op!r}; ops are spec, reset, step, close")
        except EnvError as err:
            return {"ok": False, "error": {"code": err.code, "message": err.message}}
        except Exception as err:  # the simulator itself broke: the client counts it as infrastructure
            log.exception("backend failed")
            return {"ok": False, "error": {"code": "SIM_FAILED", "message": f"{type(err).__name__}: {err}"}}

    def _do_reset(self, req: dict[str, Any]) -> dict[str, Any]:
        suite, task = _require(req, "suite", str), _require(req, "task", str)
        seed = _require(req, "seed", int)
        perturbation = req.get("perturbation")
        if perturbation is not None and not isinstance(perturbation, dict):
            raise EnvError("BAD_REQUEST", "'perturbation' must be a map or null")
        suites = self._spec["suites"]
        if suite not in suites:
            raise EnvError("UNKNOWN_SUITE", f"unknown suite {suite!r}; suites are {', '.join(suites)}")
        if task not in suites[suite]:
            raise EnvError("UNKNOWN_TASK", f"unknown task {task!r} in suite {suite!r}")
        obs, info = self.backend.reset(suite, task, seed, perturbation)
        self._reset = True
        return {"ok": True, "obs": obs, "info": info}

    def _do_step(self, req: dict[str, Any]) -> dict[str, Any]:
        if not self._reset:
            raise EnvError("NOT_RESET", "step before reset")
        action = _require(req, "action", np.ndarray)
        if action.dtype != np.float32 or action.shape != (ACTION_DIM,):
            raise EnvError("BAD_ACTION", f"action must be float32 ({ACTION_DIM},), got {action.dtype} {action.shape}")
        if not np.all(np.isfinite(action)):
            raise EnvError("BAD_ACTION", "action has a non-finite value")
        obs, reward, done, info = self.backend.step(np.clip(action, -1.0, 1.0))
        return {"ok": True, "obs": obs, "reward": float(reward), "done": bool(done), "info": info}


def serve(backend: Backend, bind: str, stop: threading.Event) -> None:
    """Binds REP on `bind`, prints `ready <endpoint>` on stdout, serves until `stop` is set."""
    server = EnvServer(backend)
    ctx = zmq.Context()
    sock = ctx.socket(zmq.REP)
    sock.setsockopt(zmq.LINGER, 500)
    sock.bind(bind)
    endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
    print(f"ready {endpoint}", flush=True)
    try:
        while not stop.is_set():
            if not sock.poll(POLL_MS):
                continue
            frame = sock.recv()
            sock.send(pack(server.handle(frame)))
    finally:
        sock.close()
        ctx.term()
        backend.close()


def common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", default="tcp://127.0.0.1:5555", help="ZeroMQ endpoint to bind (tcp://HOST:*, a free port, is printed resolved)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="also stop when stdin closes (the parent died)")
    parser.add_argument("--log-level", default="INFO")


def run(backend: Backend, args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    if args.exit_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    serve(backend, args.bind, stop)
    return 0
