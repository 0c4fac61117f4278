// `zetta worker`: takes episode jobs from the queue and runs each with the same control loop and
// critic as a local evaluation (episode-job.ts), N at a time, each on its own simulator. BullMQ's
// lock on an active job is the heartbeat: it is renewed while the episode runs, and a worker that
// dies stops renewing it, so another worker's stalled-job check puts the job back in the queue.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import pLimit, { type LimitFunction } from 'p-limit';
import { loadWorld, type WorldRef } from '../../sim/worlds.js';
import { openPolicy } from '../policy/open-policy.js';
import type { Policy } from '../policy/policy.js';
import { openSlot, runJob, type EpisodeSlot } from '../runtime/episode-job.js';
import type { EvaluationPlan } from '../runtime/evaluation-plan.js';
import { bullConnection, RedisCommands } from './connections.js';
import { QueueSetupError } from './errors.js';
import {
  KEYS,
  PROTOCOL_VERSION,
  ProtocolMismatch,
  QUEUE_NAME,
  readJobData,
  signJobResult,
  type EpisodeJobData,
  type EpisodeJobResult,
} from './job-schema.js';
import { JobRefused } from './job-refused.js';
import type { QueueKey } from './queue-key.js';
import { checkRedis, formatRedisUrl } from './redis-url.js';
import { DEFAULT_WORKER_POLICIES, WorkerTrust } from './worker-trust.js';
import type { RedisAddress } from './connections.js';

export interface EpisodeWorkerOptions {
  readonly address: RedisAddress;
  /** Episodes at once, each on its own simulator (one policy shared by them). */
  readonly concurrency: number;
  /** How long a job's lock lives without renewal: a dead worker's job is retried after about this long. */
  readonly lockMs: number;
  /** The world this worker builds for jobs of a world of the same name (its path on this machine). */
  readonly world?: WorldRef | undefined;
  /** The policy specs jobs may ask for (default: the embedded policy only). */
  readonly policies?: readonly string[] | undefined;
  /** The folder jobs with shared recordings may write under; without it they are refused. */
  readonly recordingsDir?: string | undefined;
  /** The key jobs must be signed with; results are signed with it too. */
  readonly key: QueueKey;
  readonly log: (line: string) => void;
}

export interface RunningWorker {
  readonly id: string;
  /** Finishes the episodes in hand, then stops. */
  close(): Promise<void>;
}

/** Stalls (the lock lapsed: the worker died or hung) a job survives; the next one fails it. */
export const MAX_STALLS = 2;
const PRESENCE_TTL_S = 30;
/** Streamed recordings wait this long in Redis for their coordinator (one that was killed comes back). */
const RECORDING_TTL_S = 7 * 24 * 3600;

export async function startEpisodeWorker(o: EpisodeWorkerOptions): Promise<RunningWorker> {
  await checkRedis(o.address);
  const commands = new RedisCommands(o.address);
  await refuseOtherProtocol(commands, o.address);
  const id = `${hostname()}:${process.pid}`;
  const presence = await announce(commands, id, o.concurrency);
  const resources = new WorkerResources();
  const trust = new WorkerTrust({
    world: o.world,
    policies: o.policies ?? DEFAULT_WORKER_POLICIES,
    recordingsDir: o.recordingsDir,
    bundleCache: join(resources.scratch, 'bundles'),
  });
  // BullMQ hands this worker one job more than it runs at once: the next episode is already here
  // when one ends, and its hand-over (recording, completion, fetch) overlaps the next one's run.
  const episodes = pLimit(o.concurrency);
  const worker = new Worker<EpisodeJobData, EpisodeJobResult>(
    QUEUE_NAME,
    (job) => runEpisodeJob(job, { resources, trust, key: o.key, episodes, commands, worker: id, log: o.log }),
    {
      connection: bullConnection(o.address),
      concurrency: o.concurrency + 1,
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on('error', (err) => o.log(`redis: ${err.message}`));
  await worker.waitUntilReady();
  o.log(`worker ${id} taking episode jobs from ${formatRedisUrl(o.address)} (concurrency ${o.concurrency}, protocol ${PROTOCOL_VERSION})`);
  return {
    id,
    async close() {
      await worker.close();
      clearInterval(presence);
      await commands.send('DEL', [KEYS.worker(id)]).catch(() => undefined);
      commands.close();
      await resources.close();
    },
  };
}

/** A coordinator of another version has claimed this Redis: say so now, not at the first job. */
async function refuseOtherProtocol(commands: RedisCommands, address: RedisAddress): Promise<void> {
  const theirs = await commands.send('GET', [KEYS.protocol]);
  if (theirs !== null && Number(theirs) !== PROTOCOL_VERSION) {
    commands.close();
    throw new QueueSetupError(
      `the queue at ${formatRedisUrl(address)} speaks protocol ${String(theirs)}, this worker ${PROTOCOL_VERSION}: run the same zetta version on the coordinator and the workers`,
    );
  }
}

/** A key that says this worker is alive and which protocol it speaks (coordinators check it at start). */
async function announce(commands: RedisCommands, id: string, concurrency: number): Promise<NodeJS.Timeout> {
  const put = () =>
    commands.send('SET', [
      KEYS.worker(id),
      JSON.stringify({ protocol: PROTOCOL_VERSION, concurrency, pid: process.pid }),
      'EX',
      String(PRESENCE_TTL_S),
    ]);
  await put();
  const timer = setInterval(() => void put().catch(() => undefined), (PRESENCE_TTL_S / 3) * 1000);
  timer.unref();
  return timer;
}

interface JobContext {
  readonly resources: WorkerResources;
  readonly trust: WorkerTrust;
  readonly key: QueueKey;
  readonly episodes: LimitFunction;
  readonly commands: RedisCommands;
  readonly worker: string;
  readonly log: (line: string) => void;
}

/** The job's data and the plan this worker runs for it; a job it will not run fails at once, not retried. */
function admit(job: Job<EpisodeJobData, EpisodeJobResult>, c: JobContext) {
  try {
    const data = readJobData(c.key, job.id ?? '', job.data);
    return { data, plan: c.trust.planFor(data) };
  } catch (err) {
    // every attempt would fail the same way
    if (err instanceof ProtocolMismatch || err instanceof JobRefused) {
      c.log(`refused ${job.id}: ${err.message}`);
      throw new UnrecoverableError(err.message);
    }
    throw err;
  }
}

async function runEpisodeJob(job: Job<EpisodeJobData, EpisodeJobResult>, c: JobContext): Promise<EpisodeJobResult> {
  const { resources, episodes, commands, worker, log } = c;
  const { data, plan: admitted } = admit(job, c);
  // a folder of this job's own inside the worker's scratch (prefixed, so no job id names `..` or the
  // bundle cache): the recording goes there, then to Redis
  const scratch =
    data.recording.mode === 'stream' && data.plan.recordDir
      ? join(resources.scratch, `job-${job.id!.replace(/[^\w.-]/g, '_')}`)
      : undefined;
  let recorded: string | null = null;
  try {
    const plan: EvaluationPlan = { ...admitted, ...(scratch ? { recordDir: scratch } : {}) };
    const outcome = await episodes(() => {
      log(`start ${job.id} (attempt ${job.attemptsStarted})`);
      return resources.run(plan, data);
    });
    recorded = outcome.recordPath;
    const recordingKey = scratch && outcome.recordPath ? KEYS.recording(job.id!) : null;
    let recordingBytes = 0;
    let recordingSha256: string | null = null;
    if (recordingKey && outcome.recordPath) {
      const bytes = readFileSync(outcome.recordPath);
      recordingBytes = bytes.length;
      if (bytes.length > data.recording.maxBytes) {
        throw new UnrecoverableError(
          `the recording of ${job.id} is ${bytes.length} bytes, over the ${data.recording.maxBytes}-byte limit for streaming it back; use --recordings shared with a directory every worker sees`,
        );
      }
      recordingSha256 = createHash('sha256').update(bytes).digest('hex');
      await commands.setBytes(recordingKey, bytes, RECORDING_TTL_S);
    }
    log(`done ${job.id} success=${outcome.success}`);
    return signJobResult(c.key, job.id!, { protocol: PROTOCOL_VERSION, outcome, recordingKey, recordingBytes, recordingSha256, worker });
  } finally {
    if (scratch) removeScratch(scratch, recorded);
  }
}

/** The job's scratch folder and the one recording in it; anything else (an episode that threw) by a full sweep. */
function removeScratch(dir: string, recording: string | null): void {
  try {
    if (recording === null) throw new Error('no recording to remove by name');
    unlinkSync(recording);
    rmdirSync(dirname(recording));
    rmdirSync(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The worker's policies (one per spec), simulators (one per episode at once) and worlds, opened once and reused. */
class WorkerResources {
  private readonly policies = new Map<string, Promise<Policy>>();
  private readonly idle = new Map<string, EpisodeSlot[]>();
  private readonly all: EpisodeSlot[] = [];

  /** Where streamed recordings are written before they go to Redis: one folder per worker, removed on close. */
  readonly scratch = mkdtempSync(join(tmpdir(), 'zetta-worker-'));

  async run(plan: EvaluationPlan, data: EpisodeJobData) {
    const policy = await this.policy(plan.policy);
    // a simulator carries its critics (per-episode state): reuse it only for the same world and critic plan
    const key = JSON.stringify([plan.world?.module ?? null, plan.critic ?? null]);
    const slot = this.idle.get(key)?.pop() ?? (await this.open(plan));
    try {
      return await runJob(slot, policy, plan, data.job);
    } finally {
      const free = this.idle.get(key) ?? [];
      free.push(slot);
      this.idle.set(key, free);
    }
  }

  async close(): Promise<void> {
    for (const p of this.policies.values()) await (await p).close().catch(() => undefined);
    for (const s of this.all) await s.env.close().catch(() => undefined);
    rmSync(this.scratch, { recursive: true, force: true });
  }

  private policy(spec: string): Promise<Policy> {
    let p = this.policies.get(spec);
    if (!p) {
      p = openPolicy(spec);
      this.policies.set(spec, p);
      p.catch(() => this.policies.delete(spec));
    }
    return p;
  }

  private async open(plan: EvaluationPlan): Promise<EpisodeSlot> {
    const slot = await openSlot(await loadWorld(plan.world), plan);
    this.all.push(slot);
    return slot;
  }
}
