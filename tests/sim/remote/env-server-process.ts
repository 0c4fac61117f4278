// A Python env server as the tests run it: a real process started with Debian's python3, ready once
// it prints `ready <endpoint>`; killed for real (SIGKILL) when a test needs the server to die.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { awaitReadyLine } from '../../../util/child-process.js';

export const PYTHON = '/usr/bin/python3';
export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../../..');
export const SLIDER_SERVER = path.join(HERE, 'slider_env_server.py');
export const LIBERO_SERVER = path.join(ROOT, 'sim/remote/python/libero_env_server.py');
export const ROBOCASA_SERVER = path.join(ROOT, 'sim/remote/python/robocasa_env_server.py');

export class EnvServerProcess {
  private stderr = '';
  private readonly lines: string[] = [];
  private readonly watchers: { test: (line: string) => boolean; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly proc: ChildProcess,
    /** `tcp://127.0.0.1:PORT` as the server printed it. */
    readonly endpoint: string,
  ) {
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    let partial = '';
    proc.stdout!.on('data', (d: Buffer) => {
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop()!;
      for (const line of parts) this.onLine(line);
    });
  }

  static async start(script: string, args: string[]): Promise<EnvServerProcess> {
    const proc = spawn(PYTHON, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const endpoint = await awaitReadyLine(
      proc,
      (line) => /^ready (\S+)$/.exec(line)?.[1],
      30_000,
      (why) => new Error(`${path.basename(script)} ${why} before ready:\n${stderr}`),
    );
    return new EnvServerProcess(proc, endpoint);
  }

  /** `zmq://127.0.0.1:PORT` for --env. */
  get zmq(): string {
    return this.endpoint.replace(/^tcp:/, 'zmq:');
  }

  get port(): number {
    return Number(/:(\d+)$/.exec(this.endpoint)![1]);
  }

  /** Resolves when the server prints a line that passes `test` (e.g. `step 1001 5`). */
  until(test: (line: string) => boolean): Promise<void> {
    if (this.lines.some(test)) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ test, resolve }));
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(signal);
    return this.exited;
  }

  get log(): string {
    return this.stderr;
  }

  private onLine(line: string): void {
    this.lines.push(line);
    for (let i = this.watchers.length - 1; i >= 0; i--) {
      if (this.watchers[i]!.test(line)) this.watchers.splice(i, 1)[0]!.resolve();
    }
  }
}
