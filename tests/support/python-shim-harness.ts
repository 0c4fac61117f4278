// The Python policy server shim (zinfra/python/zetta_policy_server.py) as tests drive it: a real
// process started with Debian's python3, and a DEALER client that matches replies to requests by id.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { awaitReadyLine } from '../../util/child-process.js';
import * as zmq from 'zeromq';
import { decodeReply, encodeMessage, salvageId, type InferRequest, type Reply, type Request } from '../../protocol/messages.js';
import { f32, u8, type NdArray, type Observation } from '../../protocol/ndarray.js';

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export const PYTHON = '/usr/bin/python3';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHIM = path.join(ROOT, 'zinfra/python/zetta_policy_server.py');
export const FIXTURES = path.join(ROOT, 'tests/fixtures/python');
export const SCRIPTED = `module:${path.join(FIXTURES, 'scripted_backends.py')}`;
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export function missingPythonDeps(): string | null {
  const r = spawnSync(PYTHON, ['-c', 'import zmq, msgpack, numpy'], { encoding: 'utf8' });
  if (r.error) return `${PYTHON} is not installed`;
  if (r.status !== 0) return `${PYTHON} lacks pyzmq, msgpack or numpy (apt-get install python3-zmq python3-msgpack python3-numpy)`;
  return null;
}
export const missing = missingPythonDeps();

/** A shim process; resolves once it prints `ready <endpoint>`. */
export class Shim {
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly proc: ChildProcess,
    readonly endpoint: string,
  ) {
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  static start(args: string[]): Promise<Shim> {
    // stdin stays open for the shim's life: if this test process dies, the shim sees EOF and exits.
    const proc = spawn(PYTHON, [SHIM, '--exit-on-stdin-eof', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    return awaitReadyLine(
      proc,
      (line) => /^ready (\S+)$/.exec(line)?.[1],
      60_000,
      (why) => new Error(`shim ${why} before ready:\n${stderr}`),
    ).then((endpoint) => new Shim(proc, endpoint));
  }

  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null> {
    if (this.proc.exitCode === null) this.proc.kill('SIGTERM');
    return this.exited;
  }

  /** Closes the shim's stdin (what happens when its parent dies) and resolves with the exit code. */
  closeStdin(): Promise<number | null> {
    this.proc.stdin!.end();
    return this.exited;
  }

  get log(): string {
    return this.stderr;
  }
}

/** Runs the shim to completion (for start-up failures). */
export function runShim(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(PYTHON, [SHIM, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stderr: r.stderr };
}

export interface Waiter {
  resolve(reply: Reply): void;
  reject(err: Error): void;
}

/** Long enough for a loaded machine; only there so a lost reply fails its test instead of hanging it. */
export const REPLY_GUARD_MS = 15_000;

/** A DEALER that matches replies to requests by id; errors without an id go to the oldest anonymous waiter. */
export class Client {
  private readonly dealer = new zmq.Dealer({ linger: 0 });
  private readonly byId = new Map<number, Waiter>();
  private readonly anonymous: Waiter[] = [];
  private nextId = 1;

  constructor(endpoint: string) {
    this.dealer.connect(endpoint);
    void this.pump();
  }

  private async pump(): Promise<void> {
    for await (const [frame] of this.dealer) {
      let reply: Reply;
      try {
        reply = decodeReply(frame!);
      } catch (err) {
        // A reply that breaks the protocol (e.g. NaN actions) fails the request it answers.
        const id = salvageId(frame!);
        const waiter = id === null ? this.anonymous.shift() : this.byId.get(id);
        if (id !== null) this.byId.delete(id);
        waiter?.reject(err as Error);
        continue;
      }
      const waiter = reply.id === null ? this.anonymous.shift() : this.byId.get(reply.id);
      if (reply.id !== null) this.byId.delete(reply.id);
      waiter?.resolve(reply);
    }
  }

  id(): number {
    return this.nextId++;
  }

  /** Sends a well-formed request (its id is assigned here) and resolves with the reply. */
  request(message: DistributiveOmit<Request, 'id'>): Promise<Reply> {
    const id = this.id();
    return this.raw(encodeMessage({ ...message, id } as Request), id);
  }

  /** Sends any frame; `id` is the id the server can read from it, or null when it cannot. */
  raw(frame: Uint8Array, id: number | null): Promise<Reply> {
    const reply = new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to request ${id}`)), REPLY_GUARD_MS);
      const waiter: Waiter = {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      if (id === null) this.anonymous.push(waiter);
      else this.byId.set(id, waiter);
    });
    void this.dealer.send(frame);
    return reply;
  }

  infer(obs: Observation, fields: Partial<InferRequest> = {}): Promise<Reply> {
    return this.request({
      type: 'infer',
      session_id: 's1',
      episode_id: 'e1',
      step: 0,
      deadline_ms: 10_000,
      obs,
      ...fields,
    });
  }

  close(): void {
    this.dealer.close();
  }
}

export function libero(state: number[], prompt = 'put the bowl on the plate', imageBytes = 224 * 224 * 3): Observation {
  const side = Math.round(Math.sqrt(imageBytes / 3));
  return {
    'observation/image': u8([side, side, 3], new Uint8Array(randomBytes(side * side * 3))),
    'observation/wrist_image': u8([224, 224, 3], new Uint8Array(randomBytes(224 * 224 * 3))),
    'observation/state': f32([8], Float32Array.from(state)),
    prompt,
  };
}

export function expectError(reply: Reply, code: string, id: number | null): asserts reply is Extract<Reply, { type: 'error' }> {
  expect(reply).toMatchObject({ type: 'error', code, id });
}

export function actionsOf(reply: Reply): { shape: readonly number[]; values: number[] } {
  if (reply.type !== 'result') throw new Error(`expected a result, got ${JSON.stringify(reply)}`);
  const a: NdArray = reply.actions;
  expect(a.dtype).toBe('<f4');
  return { shape: a.shape, values: Array.from(a.data as Float32Array) };
}

export async function expectAlive(client: Client): Promise<void> {
  const t = Math.random();
  expect(await client.request({ type: 'ping', t })).toMatchObject({ type: 'pong', t });
}
