// Typed failures of talking to a policy. A caller tells them apart by class, never by message text.
import type { ErrorCode } from '../../protocol/errors.js';

/** The policy cannot be reached (server down, connection lost, not answering heartbeats). Retryable. */
export class PolicyUnavailable extends Error {
  override readonly name = 'PolicyUnavailable';
  readonly retryable = true;
}

/** The request's deadline passed before a reply arrived. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  readonly retryable = true;
  constructor(readonly deadlineMs: number) {
    super(`no reply within the ${deadlineMs} ms deadline`);
  }
}

/** The remote policy answered with a typed error. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable: boolean,
  ) {
    super(`${code}: ${message}`);
  }
}

/** The client was closed while the request was pending, or used after close. */
export class ClientClosed extends Error {
  override readonly name = 'ClientClosed';
  readonly retryable = false;
  constructor() {
    super('the policy client is closed');
  }
}

/** Backpressure: the queue is full or the session has too many requests in flight. Retry later. */
export class Overloaded extends Error {
  override readonly name = 'Overloaded';
  readonly retryable = true;
}

/** A `--policy` spec that names nothing usable: bad syntax, an unknown scheme, a missing or unreadable model file. */
export class PolicySpecError extends Error {
  override readonly name = 'PolicySpecError';
}
