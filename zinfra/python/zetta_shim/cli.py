"""Command line: load the policy, bind, print `ready <endpoint>`, serve until SIGTERM/SIGINT."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from typing import Callable

from .loaders import load_backend
from .server import PolicyServer

DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="zetta_policy_server.py",
        description="Serve a policy over the Zetta policy protocol (ZeroMQ ROUTER, msgpack). "
        "Prints `ready <endpoint>` on stdout once bound.",
    )
    p.add_argument(
        "--policy",
        required=True,
        help="openpi:<config>:<checkpoint_dir> | lerobot:<path> | module:<file.py>:<factory> | npz-mlp:<file.npz>",
    )
    p.add_argument("--bind", required=True, help="tcp://HOST:PORT (PORT may be *) or ipc://PATH")
    p.add_argument("--max-message-bytes", type=int, default=DEFAULT_MAX_MESSAGE_BYTES, help="frames larger than this get TOO_LARGE (default 16 MiB)")
    p.add_argument("--max-batch", type=int, default=8, help="most infer requests served by one backend call (default 8)")
    p.add_argument("--action-horizon", type=int, help="override the horizon H the policy reports")
    p.add_argument("--action-dim", type=int, help="override the action dimension D the policy reports")
    p.add_argument("--policy-id", help="override the policy id the policy reports")
    p.add_argument("--model-version", help="override the model version the policy reports")
    p.add_argument(
        "--exit-on-stdin-eof",
        action="store_true",
        help="shut down when stdin closes, so a supervising process that dies takes the server with it",
    )
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = p.parse_args(argv)
    if args.max_message_bytes <= 0 or args.max_batch <= 0:
        p.error("--max-message-bytes and --max-batch must be positive")
    return args


def _on_stdin_eof(then: Callable[[], None]) -> None:
    # os.read, not sys.stdin: a daemon thread parked in a buffered read aborts interpreter shutdown.
    while os.read(sys.stdin.fileno(), 65536):
        pass
    then()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("zetta_shim")
    overrides = {
        "action_horizon": args.action_horizon,
        "action_dim": args.action_dim,
        "policy_id": args.policy_id,
        "model_version": args.model_version,
    }
    try:
        backend = load_backend(args.policy, overrides)
    except Exception as err:  # any loader failure ends the process with one readable line
        log.debug("loading %s failed", args.policy, exc_info=True)
        print(f"zetta_policy_server: cannot load {args.policy}: {type(err).__name__}: {err}", file=sys.stderr)
        return 2

    stop = threading.Event()

    def request_stop(reason: str) -> None:
        log.info("%s: shutting down", reason)
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda n, _frame: request_stop(signal.Signals(n).name))
    if args.exit_on_stdin_eof:
        threading.Thread(target=_on_stdin_eof, args=(lambda: request_stop("stdin closed"),), daemon=True).start()

    server = PolicyServer(backend, args.max_message_bytes, args.max_batch)
    try:
        endpoint = server.bind(args.bind)
        log.info("serving %s (%s) on %s", backend.metadata["policy_id"], backend.metadata["model_version"], endpoint)
        print(f"ready {endpoint}", flush=True)
        server.serve(stop.is_set)
    finally:
        server.close()
    return 0
