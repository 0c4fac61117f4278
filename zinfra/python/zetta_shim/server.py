"""The ROUTER loop: decode, validate, micro-batch, infer, check, reply.

One thread owns the socket. After the first message arrives, the infer requests already queued on
the socket (up to max_batch) are drained and served as one backend call, so concurrent clients share
a GPU pass without anyone waiting for a batch to fill.
"""
from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import zmq

from . import messages
from .backend import Backend
from .errors import InvalidObservation, WireError
from .wire import pack, unpack

log = logging.getLogger("zetta_shim")

POLL_MS = 100  # how often the loop looks at the stop flag while idle

# What a backend's `validate` raises to say "this observation does not fit" (INVALID_OBSERVATION);
# anything else it raises is reported as BACKEND_FAILED.
VALIDATION_ERRORS = (InvalidObservation, ValueError, KeyError, TypeError)


@dataclass
class Pending:
    """An infer request waiting for its batch."""

    envelope: list[bytes]
    request: messages.Request
    received: float  # perf_counter() when the frame was read
    decoded: float

    def expired(self, now: float) -> bool:
        # The budget counts from the client's send; time spent on the wire is unknown, so the
        # server can only charge what it saw itself.
        return (now - self.received) * 1000.0 >= self.request.fields["deadline_ms"]


class PolicyServer:
    def __init__(self, backend: Backend, max_message_bytes: int, max_batch: int) -> None:
        self.backend = backend
        self.max_message_bytes = max_message_bytes
        self.max_batch = max_batch
        self._ctx = zmq.Context()
        self._sock = self._ctx.socket(zmq.ROUTER)
        # A hard cap far above the soft one: a frame over the soft cap still gets a TOO_LARGE reply,
        # while a frame over this one (memory exhaustion) drops the peer's connection instead.
        self._sock.setsockopt(zmq.MAXMSGSIZE, 4 * max_message_bytes)
        self._sock.setsockopt(zmq.LINGER, 1000)  # let the last replies leave on close
        self._ipc_path: str | None = None

    def bind(self, endpoint: str) -> str:
        """Binds and returns the resolved endpoint (a `*` port becomes the real one)."""
        self._sock.bind(endpoint)
        resolved = self._sock.getsockopt_string(zmq.LAST_ENDPOINT)
        if resolved.startswith("ipc://"):
            self._ipc_path = resolved[len("ipc://"):]
        return resolved

    def serve(self, stopping: Callable[[], bool]) -> None:
        while not stopping():
            if not self._sock.poll(POLL_MS, zmq.POLLIN):
                continue
            pending: list[Pending] = []
            # Drain what is queued; bounded so a flood of pings cannot starve the batch.
            for _ in range(4 * self.max_batch):
                frames = self._recv()
                if frames is None:
                    break
                self._dispatch(frames, pending)
                if len(pending) >= self.max_batch:
                    break
            if pending:
                self._serve_batch(pending)
        self._refuse_queued()

    def close(self) -> None:
        # libzmq does not always remove an ipc socket file on close; a stale one would outlive us.
        # Removed first, so a context that is slow to terminate cannot leave it behind.
        if self._ipc_path is not None:
            try:
                os.unlink(self._ipc_path)
            except FileNotFoundError:
                pass
        # Replies nobody will read must not hold the process open (the default linger waits forever).
        self._sock.close(linger=0)
        self._ctx.term()
        self.backend.close()

    # -- receiving ---------------------------------------------------------------------------

    def _recv(self) -> list[zmq.Frame] | None:
        try:
            return self._sock.recv_multipart(zmq.NOBLOCK, copy=False)
        except zmq.Again:
            return None

    def _dispatch(self, frames: list[zmq.Frame], pending: list[Pending]) -> None:
        received = time.perf_counter()
        envelope, body = _split_envelope(frames)
        try:
            if body is None:
                raise WireError("MALFORMED", "expected one message frame (DEALER) or a delimiter and one (REQ)")
            if len(body) > self.max_message_bytes:  # before decoding: the size alone decides
                raise WireError("TOO_LARGE", f"frame of {len(body)} bytes exceeds the cap of {self.max_message_bytes}")
            try:
                value = unpack(body.buffer)
            except WireError as err:
                err.request_id = messages.salvage_id(body.buffer)
                raise
            self._handle(envelope, messages.parse_request(value), received, pending)
        except WireError as err:
            log.warning("%s: %s", err.code, err.message)
            self._send(envelope, messages.error_reply(err))

    def _handle(self, envelope: list[bytes], req: messages.Request, received: float, pending: list[Pending]) -> None:
        f = req.fields
        if req.type == "infer":
            pending.append(Pending(envelope, req, received, time.perf_counter()))
        elif req.type == "hello":
            if f["protocol"] != messages.PROTOCOL_VERSION:
                raise WireError("UNSUPPORTED", f"protocol {f['protocol']} (this server speaks {messages.PROTOCOL_VERSION})", req.id)
            reply = messages.metadata_reply(req.id, self.backend.metadata, self.max_message_bytes, self.max_batch)
            self._send(envelope, reply)
        elif req.type == "ping":
            self._send(envelope, messages.pong_reply(req.id, f["t"]))
        else:
            hook = self.backend.episode_start if req.type == "episode_start" else self.backend.episode_end
            try:
                hook(f["session_id"], f["episode_id"], f.get("info"))
            except Exception as err:
                log.exception("%s hook failed", req.type)
                raise WireError("BACKEND_FAILED", f"{req.type}: {type(err).__name__}: {err}", req.id) from None
            self._send(envelope, messages.ack_reply(req.id))

    # -- inference ---------------------------------------------------------------------------

    def _serve_batch(self, pending: list[Pending]) -> None:
        live: list[Pending] = []
        start = time.perf_counter()
        for p in pending:
            if p.expired(start):
                self._fail(p, "DEADLINE_EXCEEDED", "the deadline passed before the request was served")
                continue
            try:
                self.backend.validate(p.request.fields["obs"])
            except VALIDATION_ERRORS as err:
                self._fail(p, "INVALID_OBSERVATION", f"{err}")
                continue
            except Exception as err:  # a bug in the validator is the backend's, not the client's
                log.exception("validate failed")
                self._fail(p, "BACKEND_FAILED", f"validate: {type(err).__name__}: {err}")
                continue
            live.append(p)
        if not live:
            return
        try:
            outputs = self.backend.infer([p.request.fields["obs"] for p in live])
            if len(outputs) != len(live):
                raise RuntimeError(f"backend returned {len(outputs)} results for {len(live)} observations")
        except InvalidObservation as err:
            for p in live:
                self._fail(p, "INVALID_OBSERVATION", str(err))
            return
        except Exception as err:
            log.exception("backend failed on a batch of %d", len(live))
            for p in live:
                self._fail(p, "BACKEND_FAILED", f"{type(err).__name__}: {err}")
            return
        done = time.perf_counter()
        policy_timing = {"infer_ms": (done - start) * 1000.0, "batch_size": float(len(live))}
        for p, out in zip(live, outputs):
            try:
                actions = self._action_chunk(out)
            except WireError as err:
                self._fail(p, err.code, err.message)
                continue
            if p.expired(time.perf_counter()):
                self._fail(p, "DEADLINE_EXCEEDED", f"the policy answered after the {p.request.fields['deadline_ms']} ms budget")
                continue
            server_timing = {
                "decode_ms": (p.decoded - p.received) * 1000.0,
                "queue_ms": (start - p.decoded) * 1000.0,
                "total_ms": (time.perf_counter() - p.received) * 1000.0,
            }
            self._send(p.envelope, messages.result_reply(p.request.id, actions, policy_timing, server_timing))

    def _action_chunk(self, out: Any) -> np.ndarray:
        """The backend's output as the float32 (H, D) chunk the metadata promised; never non-finite."""
        try:
            actions = np.asarray(out, dtype=np.float32)
        except (TypeError, ValueError) as err:
            raise WireError("BACKEND_FAILED", f"actions are not numeric: {err}") from None
        expected = (self.backend.metadata["action_horizon"], self.backend.metadata["action_dim"])
        if actions.shape != expected:
            raise WireError(
                "BACKEND_FAILED",
                f"actions have shape {actions.shape} but the metadata says {expected} "
                "(fix --action-horizon/--action-dim)",
            )
        if not np.isfinite(actions).all():  # checked after the cast: float64 overflow becomes inf here
            bad = int(np.flatnonzero(~np.isfinite(actions))[0])
            raise WireError("NON_FINITE_ACTIONS", f"actions contain a non-finite value at flat index {bad}")
        return actions

    # -- replying ----------------------------------------------------------------------------

    def _fail(self, p: Pending, code: str, message: str) -> None:
        log.warning("request %d: %s: %s", p.request.id, code, message)
        self._send(p.envelope, messages.error_reply(WireError(code, message, p.request.id)))

    def _send(self, envelope: list[bytes], reply: dict[str, Any]) -> None:
        try:
            self._sock.send_multipart([*envelope, pack(reply)], zmq.NOBLOCK)
        except zmq.Again:
            # ROUTER drops a reply to a peer whose queue is full or gone; nothing else to do.
            log.warning("dropped a %s reply: the peer is gone or not reading", reply.get("type"))

    def _refuse_queued(self) -> None:
        """On shutdown, tell whoever is already queued to go elsewhere rather than letting them time out."""
        while (frames := self._recv()) is not None:
            envelope, body = _split_envelope(frames)
            readable = body is not None and len(body) <= self.max_message_bytes
            rid = messages.salvage_id(body.buffer) if readable else None
            self._send(envelope, messages.error_reply(WireError("SHUTTING_DOWN", "the server is closing", rid)))


def _split_envelope(frames: list[zmq.Frame]) -> tuple[list[bytes], zmq.Frame | None]:
    """[identity, msg] (DEALER) or [identity, "", msg] (REQ) -> (envelope to echo, msg); msg None otherwise."""
    identity = frames[0].bytes
    if len(frames) == 2:
        return [identity], frames[1]
    if len(frames) == 3 and len(frames[1]) == 0:
        return [identity, b""], frames[2]
    return [identity], None
