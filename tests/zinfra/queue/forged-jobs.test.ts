// Jobs written straight into Redis, as anyone who reaches it could. Without the queue's key they are
// refused unread. Even signed with it, each that asks a worker for something it was not started with (a
// world module of the writer's choosing, a recording folder elsewhere on disk, a critic bundle at a
// path, a policy address, a field the schema does not know) is refused. Refused means at once, without
// retries, with no episode started, no module loaded, no connection made, no file of the machine quoted
// and nothing written where the job pointed. A job the coordinator builds still runs.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisProcess } from '../../../bench/redis-process.js';
import { packagePath } from '../../../util/package-root.js';
import { bullConnection } from '../../../zinfra/queue/connections.js';
import { bundleContentSha256, readBundleContent } from '../../../zinfra/queue/bundle-content.js';
import { PROTOCOL_VERSION, QUEUE_NAME, resultIsSigned } from '../../../zinfra/queue/job-schema.js';
import { queuedPlan } from '../../../zinfra/queue/queued-plan.js';
import { parseRedisUrl } from '../../../zinfra/queue/redis-url.js';
import { resolveCriticSpec } from '../../../zinfra/runtime/open-critic.js';
import { QueueKey } from '../../../zinfra/queue/queue-key.js';
import { TEST_QUEUE_KEY, WorkerProcess } from './worker-process.js';

let redis: RedisProcess;
let queue: Queue;
let worker: WorkerProcess;
let dir: string;
let recordings: string;

const TASK = 'spatial/left_cube_in_bowl';
/** A plan in the shape the coordinator sends, before any field is forged. */
const plainPlan = () => ({ tasks: [TASK], episodesPerTask: 1, firstSeed: 7, policy: 'embedded', executeSteps: 5 });
const job = { index: 0, task: TASK, seed: 7 };
const stream = { mode: 'stream', maxBytes: 1 << 20 };

beforeAll(async () => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js')))
    throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-forged-'));
  recordings = join(dir, 'worker-recordings');
  mkdirSync(recordings);
  redis = await RedisProcess.start({ fsyncEveryWrite: false });
  worker = new WorkerProcess(redis.url, ['--recordings-dir', recordings]);
  await worker.ready();
  queue = new Queue(QUEUE_NAME, { connection: bullConnection(parseRedisUrl(redis.url)) });
}, 60_000);

afterAll(async () => {
  await queue?.close();
  await worker?.stop();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const testKey = new QueueKey(TEST_QUEUE_KEY);

/** Adds the job as a Redis writer would (signed with `key`, unless null) and waits for its end; returns its state and failure reason. */
async function submit(
  id: string,
  unsigned: object,
  key: QueueKey | null = testKey,
): Promise<{ state: string; reason: string; attempts: number }> {
  const data = key ? { ...unsigned, signature: key.sign('job', id, unsigned) } : unsigned;
  const added = await queue.add('episode', data, { jobId: id, attempts: 3, backoff: { type: 'fixed', delay: 200 } });
  await expect.poll(async () => added.getState(), { timeout: 60_000, interval: 100 }).toMatch(/^(completed|failed)$/);
  const done = (await queue.getJob(id))!;
  return { state: await done.getState(), reason: done.failedReason ?? '', attempts: done.attemptsMade };
}

/** Refused at once: failed on its first attempt, its episode never started. */
function expectRefused(r: { state: string; reason: string; attempts: number }, id: string): void {
  expect(r.state).toBe('failed');
  expect(r.attempts).toBe(1);
  expect(worker.started).not.toContain(id);
}

describe('a job written straight into Redis', () => {
  it('cannot have the worker load a world module of its choosing', async () => {
    const marker = join(dir, 'evil-ran');
    const evil = join(dir, 'evil.mjs');
    writeFileSync(evil, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const asRef = await submit('world-ref', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), world: { name: 'evil', module: pathToFileURL(evil).href } },
      job,
      recording: stream,
    });
    expectRefused(asRef, 'world-ref');
    const asPath = await submit('world-path', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), world: evil },
      job,
      recording: stream,
    });
    expectRefused(asPath, 'world-path');
    expect(asPath.reason).toContain('which this worker was not started with');
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot choose a recording folder outside the worker’s --recordings-dir, directly or through a link', async () => {
    const elsewhere = join(dir, 'elsewhere');
    const outside = await submit('record-outside', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), recordDir: elsewhere },
      job,
      recording: { mode: 'shared', maxBytes: 1 << 20 },
    });
    expectRefused(outside, 'record-outside');
    expect(outside.reason).toContain('outside this worker');
    expect(existsSync(elsewhere)).toBe(false);

    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(recordings, 'link'));
    const linked = await submit('record-linked', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), recordDir: join(recordings, 'link', 'run') },
      job,
      recording: { mode: 'shared', maxBytes: 1 << 20 },
    });
    expectRefused(linked, 'record-linked');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('cannot name a critic bundle by path, and no file’s bytes come back in the reason', async () => {
    const asPath = await submit('bundle-path', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), critic: { bundle: '/etc/passwd', privileged: true } },
      job,
      recording: stream,
    });
    expectRefused(asPath, 'bundle-path');
    expect(asPath.reason).not.toMatch(/root:|\/etc\/passwd/);

    // content whose manifest points out of the bundle, with a sha256 that matches it
    const manifest = JSON.stringify({ version: 1, name: 'x', privileged: false, rules: '../../../../etc/passwd', recoveries: 'r.json' });
    const files = { 'r.json': '[]' };
    const escaping = await submit('bundle-escape', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), critic: { bundle: { sha256: bundleContentSha256(manifest, files), manifest, files }, privileged: false } },
      job,
      recording: stream,
    });
    expectRefused(escaping, 'bundle-escape');
    expect(escaping.reason).not.toMatch(/root:/);
  });

  it('cannot carry a critic bundle whose content does not match its sha256', async () => {
    const content = readBundleContent('default');
    const tampered = { ...content, files: { ...content.files, [Object.keys(content.files)[0]!]: '[]' } };
    const r = await submit('bundle-tampered', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), critic: { bundle: tampered, privileged: true } },
      job,
      recording: stream,
    });
    expectRefused(r, 'bundle-tampered');
    expect(r.reason).toContain('does not match its sha256');
  });

  it('cannot have the worker connect to a policy address it was not started with', async () => {
    let connections = 0;
    const server: Server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const r = await submit('policy-address', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), policy: `zmq://127.0.0.1:${port}` },
      job,
      recording: stream,
    });
    await new Promise<void>((done) => server.close(() => done()));
    expectRefused(r, 'policy-address');
    expect(r.reason).toContain('which this worker was not started with');
    expect(connections).toBe(0);
  });

  it('with a field the job schema does not know is refused, without the value echoed', async () => {
    const r = await submit('unknown-field', {
      protocol: PROTOCOL_VERSION,
      plan: { ...plainPlan(), smuggled: 'secret-value' },
      job,
      recording: stream,
    });
    expectRefused(r, 'unknown-field');
    expect(r.reason).toContain('malformed episode job');
    expect(r.reason).not.toContain('secret-value');
  });

  it('without the queue key, or altered after signing, is refused unread: nothing is loaded, nothing quoted', async () => {
    const marker = join(dir, 'unsigned-ran');
    const evil = join(dir, 'unsigned.mjs');
    writeFileSync(evil, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const attack = {
      protocol: PROTOCOL_VERSION,
      plan: {
        ...plainPlan(),
        world: { name: 'evil', module: pathToFileURL(evil).href },
        critic: { bundle: '/etc/passwd', privileged: true },
      },
      job,
      recording: stream,
    };
    const unsigned = await submit('unsigned', attack, null);
    expectRefused(unsigned, 'unsigned');
    expect(unsigned.reason).toContain('not signed with this worker');
    expect(unsigned.reason).not.toMatch(/root:|passwd/);

    const otherKey = await submit(
      'other-key',
      { protocol: PROTOCOL_VERSION, plan: plainPlan(), job, recording: stream },
      new QueueKey('someone-elses-key-0000'),
    );
    expectRefused(otherKey, 'other-key');
    expect(otherKey.reason).toContain('not signed with this worker');

    // a job the coordinator signed, its plan changed afterwards in Redis
    const honest = { protocol: PROTOCOL_VERSION, plan: plainPlan(), job, recording: stream };
    const altered = { ...honest, plan: { ...plainPlan(), tasks: ['goal/open_drawer'] }, signature: testKey.sign('job', 'altered', honest) };
    const r = await submit('altered', altered, null);
    expectRefused(r, 'altered');
    expect(existsSync(marker)).toBe(false);
  });

  it('built by the coordinator (bundle sent as content) still runs to an outcome', async () => {
    const plan = queuedPlan({ ...plainPlan(), critic: resolveCriticSpec('default') });
    const r = await submit('coordinator-built', { protocol: PROTOCOL_VERSION, plan, job, recording: stream });
    expect(r.reason).toBe('');
    expect(r.state).toBe('completed');
    const result = (await queue.getJob('coordinator-built'))!.returnvalue as { outcome: { task: string; seed: number } };
    expect(result.outcome.task).toBe(TASK);
    expect(result.outcome.seed).toBe(7);
    // the worker signed its result with the shared key, for this job only
    expect(resultIsSigned(testKey, 'coordinator-built', result)).toBe(true);
    expect(resultIsSigned(testKey, 'another-job', result)).toBe(false);
  }, 60_000);
});
