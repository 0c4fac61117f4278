// `zetta worker` as a real process of the built bin, for the queue tests: the job ids it started and
// finished (from its log), and a SIGKILL at the moment it starts an episode.
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../../util/package-root.js';
import { KEY_ENV } from '../../../zinfra/queue/queue-key.js';

export const BIN = packagePath('bin', 'zetta.js');

/**
 * The key the queue tests' coordinators and workers share: set in this process's environment, which
 * every `zetta` the tests start (workers here, coordinators through runZetta) inherits.
 */
export const TEST_QUEUE_KEY = 'queue-tests-shared-key-0123456789';
process.env[KEY_ENV] = TEST_QUEUE_KEY;

export class WorkerProcess {
  readonly started: string[] = [];
  readonly finished: string[] = [];
  stderr = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private onStart: ((id: string) => void) | undefined;

  /** `prefix` runs the worker elsewhere (a test host: `ip netns exec NAME`). */
  constructor(url: string, extra: readonly string[] = [], prefix: readonly string[] = []) {
    const command = [...prefix, process.execPath, BIN, 'worker', '--queue', url, '--lock-ms', '3000', ...extra];
    this.child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    this.exited = new Promise((r) => this.child.once('exit', () => r()));
    let partial = '';
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr += d;
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) this.read(line);
    });
  }

  /** Resolves once the worker says it is taking jobs. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = setInterval(() => {
        if (this.stderr.includes('taking episode jobs')) {
          clearInterval(check);
          resolve();
        } else if (this.child.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`zetta worker exited ${this.child.exitCode}: ${this.stderr}`));
        }
      }, 20);
    });
  }

  /** SIGKILL as soon as this worker starts its next episode; resolves with that job's id. */
  killAtNextStart(): Promise<string> {
    return new Promise((resolve) => {
      this.onStart = (id) => {
        this.onStart = undefined;
        this.child.kill('SIGKILL');
        resolve(id);
      };
    });
  }

  /** Forgets a pending killAtNextStart. */
  spare(): void {
    this.onStart = undefined;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  private read(line: string): void {
    const start = /^worker: start (\S+)/.exec(line);
    if (start) {
      this.started.push(start[1]!);
      this.onStart?.(start[1]!);
    }
    const done = /^worker: done (\S+)/.exec(line);
    if (done) this.finished.push(done[1]!);
  }
}
