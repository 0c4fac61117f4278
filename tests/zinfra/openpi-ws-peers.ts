// Shared by the openpi WebSocket tests: the openpi-style Python peers, a LIBERO-like observation
// and the fixtures' action arithmetic.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { f32, u8, type NdArray, type Observation } from '../../protocol/ndarray.js';
import { OpenpiWebsocketPolicy } from '../../zinfra/policy/openpi-ws/policy.js';

export const PY = '/usr/bin/python3';
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/python');

/** Why the Python peers cannot run here, or null when they can. */
export const pythonMissing: string | null = (() => {
  const r = spawnSync(PY, ['-c', 'import websockets, msgpack, numpy'], { encoding: 'utf8' });
  if (r.status === 0) return null;
  return r.error ? `${PY}: ${r.error.message}` : `${PY} lacks python3-websockets/msgpack/numpy: ${r.stderr.trim().split('\n').pop()}`;
})();
if (pythonMissing) console.warn(`skipping the openpi-style Python peer tests: ${pythonMissing}`);

// ---------------------------------------------------------------- helpers

/** Things to stop after each test; a test file runs `afterEach(runCleanups)`. */
export const cleanups: (() => Promise<void> | void)[] = [];
export async function runCleanups(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

/** Starts tests/fixtures/python/openpi_style_server.py and waits for `ready <port>`. */
export async function startPythonProcess(args: string[] = []): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(PY, [path.join(FIXTURES, 'openpi_style_server.py'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  cleanups.push(() => stop(proc));
  const lines = createInterface({ input: proc.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`openpi-style server exited (${code}): ${stderr}`)));
  });
  return { port, proc };
}

export async function startPythonServer(args: string[] = []): Promise<number> {
  return (await startPythonProcess(args)).port;
}

function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

export function client(port: number, options: ConstructorParameters<typeof OpenpiWebsocketPolicy>[1] = {}): OpenpiWebsocketPolicy {
  const c = new OpenpiWebsocketPolicy(`openpi-ws://127.0.0.1:${port}`, { connectTimeoutMs: 20_000, ...options });
  cleanups.push(() => c.close());
  return c;
}

/** A LIBERO-sized observation whose state (and images) differ with `i`. */
export function liberoObs(i: number, prompt = 'put the bowl on the plate'): Observation {
  const image = new Uint8Array(224 * 224 * 3).map((_, k) => (k * 7 + i) & 255);
  const wrist = new Uint8Array(224 * 224 * 3).map((_, k) => (k * 13 + 3 * i) & 255);
  const state = Float32Array.from({ length: 8 }, (_, k) => (k + 1) * 0.1 + i);
  return {
    'observation/image': u8([224, 224, 3], image),
    'observation/wrist_image': u8([224, 224, 3], wrist),
    'observation/state': f32([8], state),
    prompt,
  };
}

/** The fixtures' policy: action[h, d] = state[d % 8] * (h + 1), rounded to float32. */
export function expectedActions(obs: Observation, h: number, d: number): number[] {
  const s = (obs['observation/state'] as NdArray<'<f4'>).data;
  const out: number[] = [];
  for (let i = 0; i < h; i++) for (let j = 0; j < d; j++) out.push(Math.fround(s[j % s.length]! * (i + 1)));
  return out;
}

export const sum = (a: Uint8Array): number => a.reduce((x, y) => x + y, 0);

export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

export { freePort } from '../../bench/free-port.js';

/** Runs tests/fixtures/python/openpi_style_client.py and parses its one JSON line. */
export function runPythonClient(port: number, indices: number[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(PY, [path.join(FIXTURES, 'openpi_style_client.py'), String(port), ...indices.map(String)]);
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}: ${err}`))));
  });
}
