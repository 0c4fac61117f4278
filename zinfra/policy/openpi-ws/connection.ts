// One WebSocket connection to an openpi-style policy server, and how to open one.
//
// openpi's protocol has no request ids: the server reads a frame, answers it, then reads the next.
// So a connection hands its binary frames, in order, to one waiter at a time. Once anything goes
// wrong (a text frame, a close, a timed-out reply that may still arrive later) the connection is
// poisoned and never reused: a late reply must not be taken for the answer to the next request.
import http from 'node:http';
import https from 'node:https';
import WebSocket from 'ws';
import { PolicyUnavailable, RemoteError } from '../errors.js';
import { timerDelay } from '../../../util/timer-delay.js';

interface Waiter {
  resolve(frame: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** The error for a close frame: 1011 is openpi's "policy raised"; anything else means the server went away. */
function closeError(url: string, code: number, reason: string): Error {
  if (code === 1011) {
    return new RemoteError(
      'BACKEND_FAILED',
      `openpi server at ${url} closed the connection with 1011: ${reason || 'no reason given'}`,
      false,
    );
  }
  return new PolicyUnavailable(`connection to ${url} closed (code ${code}${reason ? `: ${reason}` : ''})`);
}

export class OpenpiConnection {
  private readonly inbox: Buffer[] = [];
  private waiter: Waiter | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly ws: WebSocket,
    readonly url: string,
  ) {
    ws.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    ws.on('close', (code, reason) => this.fail(closeError(url, code, reason.toString('utf8'))));
    ws.on('error', (err) => this.fail(new PolicyUnavailable(`connection to ${url} failed: ${err.message}`, { cause: err })));
  }

  /** False once the connection must not carry another request. */
  get usable(): boolean {
    return this.failure === null && this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: Buffer): void {
    if (this.failure) throw this.failure;
    this.ws.send(frame, { binary: true }, (err) => {
      if (err) this.fail(new PolicyUnavailable(`sending to ${this.url} failed: ${err.message}`, { cause: err }));
    });
  }

  /** The next binary frame. On timeout the connection is poisoned and `onTimeout()` is thrown. */
  next(timeoutMs: number, onTimeout: () => Error): Promise<Buffer> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiter) return Promise.reject(new Error('OpenpiConnection: one waiter at a time'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.abandon(onTimeout()), timerDelay(timeoutMs));
      this.waiter = { resolve, reject, timer };
    });
  }

  /** Poisons the connection with `err` (rejecting a pending waiter) and closes the socket. */
  abandon(err: Error): void {
    this.fail(err);
    this.ws.terminate();
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (this.failure) return;
    // A text frame is openpi's traceback; the server closes with 1011 right after it.
    if (!isBinary) return this.fail(new RemoteError('BACKEND_FAILED', `openpi server error:\n${data.toString('utf8')}`, false));
    const w = this.waiter;
    if (!w) return void this.inbox.push(data);
    this.waiter = null;
    clearTimeout(w.timer);
    w.resolve(data);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    const w = this.waiter;
    this.waiter = null;
    if (w) {
      clearTimeout(w.timer);
      w.reject(err);
    }
  }
}

export interface OpenOptions {
  /** ws:// or wss:// address of the server. */
  readonly url: string;
  /** http(s)://.../healthz to check first, or undefined to skip the check. */
  readonly healthUrl: string | undefined;
  /** Keep retrying (with backoff) until this much time has passed, then PolicyUnavailable. */
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
}

/** Failures worth another try: nothing listens yet, or the server is starting. */
class NotYet extends Error {}

const RETRY_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE']);

function classify(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as NodeJS.ErrnoException).code;
  return code && RETRY_CODES.has(code) ? new NotYet(`${code}: ${e.message}`, { cause: e }) : e;
}

/** Errors leave this module typed: anything untyped from the socket means the server is unusable. */
function typed(err: unknown, url: string): Error {
  if (err instanceof PolicyUnavailable || err instanceof RemoteError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return new PolicyUnavailable(`cannot connect to openpi server at ${url}: ${msg}`, { cause: err });
}

const MIN_ATTEMPT_MS = 250;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Opens a connection and reads the server's metadata frame, retrying with backoff until `timeoutMs`. */
export async function openConnection(opts: OpenOptions): Promise<{ connection: OpenpiConnection; metadata: Buffer }> {
  const deadline = Date.now() + opts.timeoutMs;
  let delay = 50;
  for (;;) {
    let last: Error;
    try {
      // Each attempt gets at least MIN_ATTEMPT_MS, so a late last try still learns why it failed.
      const left = () => Math.max(MIN_ATTEMPT_MS, deadline - Date.now());
      if (opts.healthUrl) await checkHealth(opts.healthUrl, Math.min(2000, left()));
      return await openOnce(opts, left());
    } catch (err) {
      if (!(err instanceof NotYet)) throw typed(err, opts.url);
      last = err;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new PolicyUnavailable(`openpi server at ${opts.url} is not reachable (gave up after ${opts.timeoutMs} ms): ${last.message}`, {
        cause: last,
      });
    }
    await sleep(Math.min(delay, left));
    delay = Math.min(delay * 2, 1000);
  }
}

/** GET /healthz must answer 200 "OK" (openpi's serve_policy does). A 5xx or no answer is retried. */
function checkHealth(url: string, timeoutMs: number): Promise<void> {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body = (body + chunk).slice(0, 512)));
      res.on('error', (err) => reject(classify(err)));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status === 200 && body.trim() === 'OK') return resolve();
        const what = `health check GET ${url} answered ${status} ${JSON.stringify(body.trim().slice(0, 200))}`;
        if (status >= 500) return reject(new NotYet(what));
        reject(new PolicyUnavailable(`${what}; is this an openpi policy server? (the check can be turned off)`));
      });
    });
    req.on('timeout', () => req.destroy(new NotYet(`health check GET ${url} timed out`)));
    req.on('error', (err) => reject(err instanceof NotYet ? err : classify(err)));
  });
}

/** One attempt: the WebSocket handshake, then the first frame, which must be binary metadata. */
async function openOnce(opts: OpenOptions, timeoutMs: number): Promise<{ connection: OpenpiConnection; metadata: Buffer }> {
  const ws = new WebSocket(opts.url, { perMessageDeflate: false, maxPayload: opts.maxMessageBytes, handshakeTimeout: timeoutMs });
  const started = Date.now();
  // Listeners go on before 'open' so that a metadata frame sent right after the handshake is kept.
  const connection = new OpenpiConnection(ws, opts.url);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      ws.off('open', onOpen);
      ws.terminate();
      reject(/timed out/.test(err.message) ? new NotYet(err.message) : classify(err));
    };
    const onOpen = () => {
      ws.off('error', onError);
      resolve();
    };
    ws.once('error', onError);
    ws.once('open', onOpen);
  });
  const left = Math.max(1, timeoutMs - (Date.now() - started));
  const metadata = await connection.next(left, () => new PolicyUnavailable(`openpi server at ${opts.url} sent no metadata frame`));
  return { connection, metadata };
}
