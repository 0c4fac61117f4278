// zeromq.js allows one send in progress per socket; callers fire and forget, so sends are chained.
import type { Socket } from 'zeromq';

type Sendable = Socket & { send(msg: Buffer[] | Buffer): Promise<void> };

export class SendQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Sendable,
    private readonly onError: (err: Error) => void,
  ) {}

  send(frames: Buffer[]): void {
    this.tail = this.tail
      .then(() => this.socket.send(frames))
      .catch((err: Error) => {
        if (!this.socket.closed) this.onError(err);
      });
  }

  /** Resolves once everything queued so far has been handed to ZeroMQ. */
  flushed(): Promise<void> {
    return this.tail;
  }
}
