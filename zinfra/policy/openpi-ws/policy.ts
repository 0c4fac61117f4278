// A Policy served by an unmodified openpi `serve_policy.py` (WebSocket + msgpack), so Zetta can drive
// the π0 / π0.5 server a user already runs: `--policy openpi-ws://host:8000`.
//
// The wire, as openpi's websocket_policy_server.py speaks it: GET /healthz answers "OK"; on connect
// the server sends one binary msgpack frame of metadata; then each binary msgpack observation gets
// one binary msgpack reply `{actions, policy_timing?, server_timing?, ...}`; a failure is a text
// frame (the traceback) followed by close 1011. Arrays use msgpack_numpy, which looks up its keys
// as bytes (b"__ndarray__"), so observations are encoded with bin keys or openpi sees plain dicts.
//
// Action shape, which openpi's metadata (usually `{}`) does not publish, is taken from, in order:
// the metadata's `action_horizon`/`action_dim` (a Zetta-served policy sends them), the `actionShape`
// option, or the first reply. Once known it is fixed: a reply of another shape is rejected.
// `metadata()` reports [0, 0] for a shape that is not known yet.
import { decode, encode } from '../../../protocol/codec.js';
import { ProtocolError } from '../../../protocol/errors.js';
import type { Observation } from '../../../protocol/ndarray.js';
import { ClientClosed, DeadlineExceeded } from '../errors.js';
import { openConnection, type OpenpiConnection } from './connection.js';
import { metadataActionShape, metadataFromOpenpi, readOpenpiReply, unwrapNumpyScalars, type OpenpiReply } from './wire.js';
import type { Policy, PolicyMetadata, PolicyResult, Timing } from '../policy.js';

export interface OpenpiWebsocketPolicyOptions {
  /** GET /healthz (expects "OK") before each connection attempt. Default true, as serve_policy.py has it. */
  readonly healthCheck?: boolean;
  /** How long to keep retrying a connection, with backoff, before PolicyUnavailable. Default 30 000 ms. */
  readonly connectTimeoutMs?: number;
  /** Per request, from sending the observation to its reply. Default 30 000 ms (openpi compiles on its first call). */
  readonly requestTimeoutMs?: number;
  /** Largest frame accepted from the server. Default 64 MiB. */
  readonly maxMessageBytes?: number;
  /** (H, D) to expect when the server does not publish it. */
  readonly actionShape?: readonly [number, number];
  /** Overrides the policy id (else metadata's `policy_id`, else "openpi"). */
  readonly policyId?: string;
}

/** A result with what openpi adds: the server's timings and any other keys the policy returned. */
export interface OpenpiResult extends PolicyResult {
  readonly serverTiming: Timing;
  readonly extra: Readonly<Record<string, unknown>>;
}

/**
 * `openpi-ws://host[:port]` → `ws://host:port` (`openpi-wss://` → `wss://`); ws:// and wss:// pass
 * through. openpi serves on 8000 by default, so a missing port means 8000.
 */
export function parseOpenpiUrl(spec: string): { url: string; healthUrl: string } {
  const m = /^(openpi-ws|openpi-wss|ws|wss):\/\/([^/?#\s]+)\/?$/.exec(spec.trim());
  if (!m) throw new TypeError(`not an openpi policy address: "${spec}" (expected openpi-ws://host:port)`);
  const secure = m[1] === 'openpi-wss' || m[1] === 'wss';
  const parsed = new URL(`http://${m[2]}`);
  if (parsed.username || parsed.password) throw new TypeError(`openpi policy address "${spec}" must not carry credentials`);
  const hostPort = `${parsed.hostname}:${parsed.port || '8000'}`;
  return { url: `${secure ? 'wss' : 'ws'}://${hostPort}`, healthUrl: `${secure ? 'https' : 'http'}://${hostPort}/healthz` };
}

export class OpenpiWebsocketPolicy implements Policy {
  readonly url: string;
  private readonly healthUrl: string;
  private readonly opts: Required<Omit<OpenpiWebsocketPolicyOptions, 'actionShape' | 'policyId'>>;
  private connection: OpenpiConnection | null = null;
  private connecting: Promise<OpenpiConnection> | null = null;
  private serverMetadata: Record<string, unknown> | null = null;
  private shape: [number, number] | undefined;
  /** Serializes requests: openpi answers one frame at a time and has no request ids. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** `address`: openpi-ws://host:port, or a ws:// / wss:// URL. Connects lazily, on first use. */
  constructor(
    address: string,
    private readonly options: OpenpiWebsocketPolicyOptions = {},
  ) {
    ({ url: this.url, healthUrl: this.healthUrl } = parseOpenpiUrl(address));
    this.opts = {
      healthCheck: options.healthCheck ?? true,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      maxMessageBytes: options.maxMessageBytes ?? 64 * 1024 * 1024,
    };
    if (options.actionShape) this.shape = [options.actionShape[0], options.actionShape[1]];
  }

  /** Connects now (otherwise the first call does). Rejects with PolicyUnavailable after connectTimeoutMs. */
  async connect(): Promise<void> {
    await this.ensureConnection();
  }

  async metadata(): Promise<PolicyMetadata> {
    await this.ensureConnection();
    return metadataFromOpenpi(this.serverMetadata ?? {}, this.shape ?? [0, 0], this.options.policyId);
  }

  /** openpi has no batching: the observations are sent one by one, in order, on one connection. */
  infer(batch: readonly Observation[]): Promise<OpenpiResult[]> {
    return this.serialize(async () => {
      const results: OpenpiResult[] = [];
      for (const obs of batch) results.push(await this.request(obs));
      return results;
    });
  }

  /** Fails the request in flight and every queued one with ClientClosed; a connect in progress is dropped when it lands. */
  async close(): Promise<void> {
    this.closed = true;
    this.connection?.abandon(new ClientClosed());
    this.connection = null;
  }

  private serialize<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(job);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async request(obs: Observation): Promise<OpenpiResult> {
    const connection = await this.ensureConnection();
    connection.send(encode(obs, { ndarrayKeys: 'bin' }));
    const ms = this.opts.requestTimeoutMs;
    const frame = await connection.next(ms, () => new DeadlineExceeded(ms));
    return this.accept(readOpenpiReply(decode(frame)));
  }

  /** Fixes the action shape on first sight and holds every later reply to it. */
  private accept(reply: OpenpiReply): OpenpiResult {
    const [h, d] = reply.actions.shape as [number, number];
    if (!this.shape) this.shape = [h, d];
    else if (this.shape[0] !== h || this.shape[1] !== d) {
      throw new ProtocolError('MALFORMED', `openpi actions of shape [${h}, ${d}], expected [${this.shape.join(', ')}]`);
    }
    return { actions: reply.actions, policyTiming: reply.policyTiming, serverTiming: reply.serverTiming, extra: reply.extra };
  }

  /** The open connection, or a new one (also after a server error, a timeout or a restart). */
  private ensureConnection(): Promise<OpenpiConnection> {
    if (this.closed) return Promise.reject(new ClientClosed());
    if (this.connection?.usable) return Promise.resolve(this.connection);
    // A poisoned connection is closed from this side too, in case the server does not close it.
    this.connection?.abandon(new ClientClosed());
    this.connection = null;
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<OpenpiConnection> {
    const { connection, metadata } = await openConnection({
      url: this.url,
      healthUrl: this.opts.healthCheck ? this.healthUrl : undefined,
      timeoutMs: this.opts.connectTimeoutMs,
      maxMessageBytes: this.opts.maxMessageBytes,
    });
    try {
      this.adoptMetadata(decode(metadata));
    } catch (err) {
      connection.abandon(err as Error);
      throw err;
    }
    if (this.closed) {
      connection.abandon(new ClientClosed());
      throw new ClientClosed();
    }
    this.connection = connection;
    return connection;
  }

  private adoptMetadata(value: unknown): void {
    const meta = unwrapNumpyScalars(value);
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || ArrayBuffer.isView(meta)) {
      throw new ProtocolError('MALFORMED', 'the openpi metadata frame is not a map');
    }
    this.serverMetadata = meta as Record<string, unknown>;
    // The server's own statement wins over the option and over what earlier replies showed.
    const published = metadataActionShape(this.serverMetadata);
    if (published) this.shape = published;
  }
}
