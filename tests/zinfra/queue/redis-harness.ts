// A real redis-server for the queue tests: its own loopback port and temp dir, the append-only file
// on (fsync on every write), so a restart keeps every job. Debian's redis-server (`.ci/run` installs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRedis } from '../../../zinfra/queue/redis-url.js';

export const REDIS_SERVER = process.env.ZETTA_REDIS_SERVER ?? '/usr/bin/redis-server';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class RedisHarness {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number, readonly dir: string) {}

  static async start(): Promise<RedisHarness> {
    const r = new RedisHarness(await freePort(), mkdtempSync(join(tmpdir(), 'zetta-redis-')));
    await r.launch();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Killed outright, then started again on the same port and directory (it replays its append-only file). */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no'];
    this.child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    const address = { host: '127.0.0.1', port: this.port, db: 0 };
    const until = Date.now() + 15_000;
    for (;;) {
      try {
        return await checkRedis(address, 500);
      } catch (err) {
        if (Date.now() > until) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  private async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}
