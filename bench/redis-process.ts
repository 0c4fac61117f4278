// A redis-server of the benchmark's own, on a free loopback port with a temp dir and the
// append-only file on (as a deployment would run it), and what Redis itself says it spent.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisCommands } from '../zinfra/queue/connections.js';
import { checkRedis } from '../zinfra/queue/redis-url.js';

export interface OwnRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startOwnRedis(server = process.env.ZETTA_REDIS_SERVER ?? 'redis-server'): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'zetta-bench-redis-'));
  const child: ChildProcess = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => child.once('error', (err) => reject(new Error(`cannot start ${server}: ${err.message} (install Debian's redis-server, or pass --queue)`))));
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      await Promise.race([checkRedis({ host: '127.0.0.1', port, db: 0 }, 500), failed]);
      break;
    } catch (err) {
      if (Date.now() > until || child.exitCode !== null || /cannot start/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
