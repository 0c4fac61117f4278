// Typed errors of the wire. Every failure that crosses a boundary has a code, a message and whether
// retrying the same request can help.

export const ERROR_CODES = [
  'MALFORMED', // not msgpack, or not a message of this protocol
  'UNSUPPORTED', // a message type or protocol version this peer does not speak
  'TOO_LARGE', // the frame exceeds the peer's size cap
  'INVALID_OBSERVATION', // the observation does not fit what the policy reads
  'NON_FINITE_ACTIONS', // the backend produced NaN or ±Inf; never forwarded
  'DEADLINE_EXCEEDED', // the request's budget ran out before (or while) it was served
  'OVERLOADED', // the server's queue is full (backpressure)
  'BACKEND_FAILED', // the policy backend threw
  'SHUTTING_DOWN', // the server is closing
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['DEADLINE_EXCEEDED', 'OVERLOADED', 'SHUTTING_DOWN']);

export function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code);
}

/** A message or frame that violates the protocol. Thrown by the codec and the schemas, never untyped. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
