"""Typed errors of the wire, mirroring protocol/errors.ts."""
from __future__ import annotations

ERROR_CODES = frozenset(
    {
        "MALFORMED",  # not msgpack, or not a message of this protocol
        "UNSUPPORTED",  # a message type or protocol version this server does not speak
        "TOO_LARGE",  # the frame exceeds the size cap
        "INVALID_OBSERVATION",  # the observation does not fit what the policy reads
        "NON_FINITE_ACTIONS",  # the backend produced NaN or ±Inf; never forwarded
        "DEADLINE_EXCEEDED",  # the request's budget ran out before (or while) it was served
        "OVERLOADED",  # the queue is full (backpressure)
        "BACKEND_FAILED",  # the policy backend raised
        "SHUTTING_DOWN",  # the server is closing
    }
)

# Retrying the same request can only help when the failure was about time or load.
RETRYABLE = frozenset({"DEADLINE_EXCEEDED", "OVERLOADED", "SHUTTING_DOWN"})


class WireError(Exception):
    """A failure that becomes an `error` reply; `request_id` is None when the id could not be read."""

    def __init__(self, code: str, message: str, request_id: int | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE


class InvalidObservation(Exception):
    """Raised by a backend's `validate` (or `infer`) when an observation does not fit the policy."""
