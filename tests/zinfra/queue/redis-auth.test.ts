// A Redis that asks for a password: `--queue redis://:PASS@HOST:PORT` (or the password in
// ZETTA_REDIS_PASSWORD) reaches it, a wrong password is one line and exit code 2, and the password
// shows up in no line the worker prints. `rediss://` reads as TLS with the same masking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisProcess } from '../../../bench/redis-process.js';
import { RedisCommands } from '../../../zinfra/queue/connections.js';
import { formatRedisUrl, maskPassword, parseRedisUrl, PASSWORD_ENV } from '../../../zinfra/queue/redis-url.js';
import { runZetta } from '../../support/zetta-process.js';
import { WorkerProcess } from './worker-process.js';

const PASSWORD = 'pw-that-must-never-print-7d1f';
let redis: RedisProcess;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  redis = await RedisProcess.start({ fsyncEveryWrite: false });
  const commands = new RedisCommands(parseRedisUrl(redis.url));
  await commands.send('CONFIG', ['SET', 'requirepass', PASSWORD]);
  commands.close();
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
});

const withPassword = (password: string) => redis.url.replace('redis://', `redis://:${encodeURIComponent(password)}@`);

describe('a Redis with a password', () => {
  it('is reached with the password in the URL, which the worker never prints', async () => {
    const worker = new WorkerProcess(withPassword(PASSWORD));
    workers.push(worker);
    await worker.ready();
    expect(worker.stderr).toContain(':***@127.0.0.1');
    expect(worker.stderr).not.toContain(PASSWORD);
  });

  it('is reached with the password from the environment', async () => {
    process.env[PASSWORD_ENV] = PASSWORD;
    const worker = new WorkerProcess(redis.url);
    delete process.env[PASSWORD_ENV];
    workers.push(worker);
    await worker.ready();
    expect(worker.stderr).not.toContain(PASSWORD);
  });

  it('refuses a wrong password in one line, exit code 2, printing neither password', async () => {
    const wrong = 'wrong-pw-also-secret-91c2';
    const r = await runZetta(['worker', '--queue', withPassword(wrong)], 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1/);
    expect(r.stderr).not.toContain(wrong);
    expect(r.stderr).not.toContain(PASSWORD);
  });
});

describe('queue URLs', () => {
  it('read a user, a password and TLS, and print them masked', () => {
    const a = parseRedisUrl('rediss://worker:p%40ss%3Aword@redis.example:6380/2', {});
    expect(a).toEqual({ host: 'redis.example', port: 6380, db: 2, username: 'worker', password: 'p@ss:word', tls: true });
    expect(formatRedisUrl(a)).toBe('rediss://worker:***@redis.example:6380/2');
    expect(parseRedisUrl('redis://h:1', { [PASSWORD_ENV]: 'from-env' }).password).toBe('from-env');
    expect(maskPassword('http://u:secret@h:1')).toBe('http://u:***@h:1');
    expect(() => parseRedisUrl('http://u:secret@h:1', {})).toThrow(/u:\*\*\*@h:1/);
  });
});
