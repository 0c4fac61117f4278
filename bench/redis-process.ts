// A redis-server of our own (the cluster benchmark's and the queue tests'): a free loopback port, a
// temp dir and the append-only file on, so a restart on the same port and dir keeps every job; and
// what Redis itself says it spent.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisCommands } from '../zinfra/queue/connections.js';
import { checkRedis } from '../zinfra/queue/redis-url.js';
import { freePort } from './free-port.js';

export const REDIS_SERVER = process.env.ZETTA_REDIS_SERVER ?? 'redis-server';

export interface RedisProcessOptions {
  /** fsync the append-only file on every write (tests that kill Redis and need every job back), not every second. */
  readonly fsyncEveryWrite?: boolean;
  /** Addresses to listen on besides loopback (test hosts' links); Redis's protected mode is then off. */
  readonly alsoBind?: readonly string[];
}

export class RedisProcess {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisProcessOptions,
  ) {}

  static async start(options: RedisProcessOptions = {}): Promise<RedisProcess> {
    const r = new RedisProcess(await freePort(), mkdtempSync(join(tmpdir(), 'zetta-redis-')), options);
    await r.launch();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The URL at another address it listens on (`alsoBind`). */
  urlAt(address: string): string {
    return `redis://${address}:${this.port}`;
  }

  /** Killed outright, then started again on the same port and dir (it replays its append-only file). */
  async restart(): Promise<void> {
    await this.kill('SIGKILL');
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const fsync = this.options.fsyncEveryWrite ? ['--appendfsync', 'always'] : [];
    const extra = this.options.alsoBind ?? [];
    // protected mode refuses every client not on loopback when no password is set
    const open = extra.length ? ['--protected-mode', 'no'] : [];
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      ...extra,
      ...open,
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      ...fsync,
      '--save',
      '',
      '--daemonize',
      'no',
    ];
    const child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    this.child = child;
    const failed = new Promise<never>((_, reject) =>
      child.once('error', (err) => reject(new Error(`cannot start ${REDIS_SERVER}: ${err.message} (install Debian's redis-server)`))),
    );
    const until = Date.now() + 15_000;
    for (;;) {
      try {
        await Promise.race([checkRedis({ host: '127.0.0.1', port: this.port, db: 0 }, 500), failed]);
        return;
      } catch (err) {
        if (Date.now() > until || child.exitCode !== null || /cannot start/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  private async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

/** Redis's own CPU time in commands so far (INFO commandstats), and how many it ran. */
export async function redisSpent(commands: RedisCommands): Promise<{ commandUs: number; calls: number }> {
  const stats = String(await commands.send('INFO', ['commandstats']));
  let commandUs = 0;
  let calls = 0;
  for (const m of stats.matchAll(/calls=(\d+),usec=(\d+)/g)) {
    calls += Number(m[1]);
    commandUs += Number(m[2]);
  }
  return { commandUs, calls };
}
