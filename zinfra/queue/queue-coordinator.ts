// The coordinator's side of the queue: an EpisodeExecutor for evaluate() that enqueues a plan's
// episodes as BullMQ jobs and collects their results as workers finish them. Job ids are content
// keys (job-schema.ts), so a coordinator restarted with the same command finds its jobs in Redis:
// the finished ones are collected at once, the others are waited for, none is run again. BullMQ
// does the scheduling: attempts with backoff for a job that throws, stalled-job detection for one
// whose worker died, results kept in Redis.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Job, Queue, QueueEvents } from 'bullmq';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { EpisodeExecutor } from '../runtime/run-plan.js';
import { recordPathFor, type EpisodeJob, type EvaluationPlan } from '../runtime/evaluation-plan.js';
import type { RetriedOutcome } from '../runtime/infra-retry.js';
import { bullConnection, RedisCommands } from './connections.js';
import { QueueSetupError } from './errors.js';
import {
  DEFAULT_STREAM_LIMIT_BYTES,
  KEYS,
  PROTOCOL_VERSION,
  QUEUE_NAME,
  jobIdsFor,
  resultIsSigned,
  signJobData,
  type EpisodeJobData,
  type EpisodeJobResult,
  type RecordingMode,
} from './job-schema.js';
import { lostEpisode } from './lost-episode.js';
import { QueueCosts } from './queue-costs.js';
import { loadQueueKey, type QueueKey } from './queue-key.js';
import { queuedPlan } from './queued-plan.js';
import { checkRedis } from './redis-url.js';
import type { RedisAddress } from './connections.js';
import { refuseOtherWorkers, warnWithoutWorkers } from './worker-presence.js';

export interface QueueCoordinatorOptions {
  readonly address: RedisAddress;
  /** What makes this run's job ids its own: the campaign root, the run's output folder. */
  readonly scope: string;
  readonly recordings: RecordingMode;
  readonly maxRecordingBytes?: number;
  /** Tries of a job whose episode throws (a stalled worker counts as one too), then it is reported failed. */
  readonly attempts?: number;
  readonly log?: (line: string) => void;
  /** The key jobs are signed with and results checked against (default: from the environment, queue-key.ts). */
  readonly key?: QueueKey | undefined;
}

export interface QueueCoordinator {
  readonly executor: EpisodeExecutor;
  readonly costs: QueueCosts;
  close(): Promise<void>;
}

export const DEFAULT_ATTEMPTS = 3;
/** Results are also polled when no event came for this long, so one that lands while the events stream is away (Redis restarting) is not missed. */
const POLL_MS = 3000;
/** Results stay in Redis (a restarted coordinator collects them there); a failed attempt is tried again after a second. */
const JOB_OPTIONS = { backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: false, removeOnFail: false } as const;

export async function openQueueCoordinator(o: QueueCoordinatorOptions): Promise<QueueCoordinator> {
  const key = o.key ?? loadQueueKey(undefined);
  await checkRedis(o.address);
  const commands = new RedisCommands(o.address);
  try {
    await refuseOtherWorkers(commands, o.address);
    await commands.send('SET', [KEYS.protocol, String(PROTOCOL_VERSION)]);
  } catch (err) {
    commands.close();
    throw err;
  }
  const queue = new Queue<EpisodeJobData, EpisodeJobResult>(QUEUE_NAME, { connection: bullConnection(o.address) });
  const events = new QueueEvents(QUEUE_NAME, { connection: bullConnection(o.address) });
  const log = o.log ?? (() => undefined);
  queue.on('error', (err) => log(`redis: ${err.message}`));
  events.on('error', (err) => log(`redis: ${err.message}`));
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const costs = new QueueCosts();
  const run = new QueueRun(queue, events, commands, { ...o, key }, costs, log);
  return {
    executor: (plan, jobs, collect) => run.execute(plan, jobs, collect),
    costs,
    async close() {
      await events.close();
      await queue.close();
      commands.close();
    },
  };
}

class QueueRun {
  constructor(
    private readonly queue: Queue<EpisodeJobData, EpisodeJobResult>,
    private readonly events: QueueEvents,
    private readonly commands: RedisCommands,
    private readonly o: QueueCoordinatorOptions & { readonly key: QueueKey },
    private readonly costs: QueueCosts,
    private readonly log: (line: string) => void,
  ) {}

  async execute(
    plan: EvaluationPlan,
    jobs: readonly EpisodeJob[],
    collect: (outcome: RetriedOutcome, job: EpisodeJob) => void,
  ): Promise<void> {
    const ids = await this.enqueue(plan, jobs);
    const byId = new Map(ids.map((id, i) => [id, jobs[i]!]));
    const pending = new Set(ids);
    await new Promise<void>((resolve, reject) => {
      const settling = new Set<string>();
      const settle = (id: string) => {
        if (!pending.has(id) || settling.has(id)) return;
        settling.add(id);
        this.settle(id, plan, byId.get(id)!)
          .then((outcome) => {
            if (outcome) {
              pending.delete(id);
              collect(outcome, byId.get(id)!);
            }
            if (pending.size === 0) finish();
          })
          .catch((err: unknown) => finish(err))
          .finally(() => settling.delete(id));
      };
      let lastEvent = performance.now();
      const onEvent = ({ jobId }: { jobId: string }) => {
        if (pending.has(jobId)) lastEvent = performance.now();
        settle(jobId);
      };
      const poll = () => pending.forEach(settle);
      // while events flow, a sweep of every pending job would only cost Redis calls
      const timer = setInterval(() => performance.now() - lastEvent >= POLL_MS && poll(), POLL_MS);
      const idle = warnWithoutWorkers(this.commands, this.o.address, this.log);
      const finish = (err?: unknown) => {
        clearInterval(timer);
        clearInterval(idle);
        this.events.off('completed', onEvent);
        this.events.off('failed', onEvent);
        if (err) reject(err as Error);
        else resolve();
      };
      this.events.on('completed', onEvent);
      this.events.on('failed', onEvent);
      if (pending.size === 0) finish();
      else poll();
    });
  }

  /** One bulk add; ids already in Redis (a restarted coordinator's) are left as they are. */
  private async enqueue(plan: EvaluationPlan, jobs: readonly EpisodeJob[]): Promise<string[]> {
    const started = performance.now();
    const ids = jobIdsFor(this.o.scope, plan, jobs);
    const recording = { mode: this.o.recordings, maxBytes: this.o.maxRecordingBytes ?? DEFAULT_STREAM_LIMIT_BYTES };
    const attempts = this.o.attempts ?? DEFAULT_ATTEMPTS;
    // names and content only: a worker runs what it was started with, never a path from the job
    const queued = queuedPlan(plan);
    await this.queue.addBulk(
      jobs.map((job, i) => ({
        name: 'episode',
        data: signJobData(this.o.key, ids[i]!, { protocol: PROTOCOL_VERSION, plan: queued, job, recording }),
        opts: { jobId: ids[i]!, attempts, ...JOB_OPTIONS },
      })),
    );
    this.costs.enqueued(jobs.length, performance.now() - started);
    return ids;
  }

  /** The outcome of a finished job (undefined while it is still waiting or running). */
  private async settle(id: string, plan: EvaluationPlan, job: EpisodeJob): Promise<RetriedOutcome | undefined> {
    const started = performance.now();
    // the state first: a job read before it finished would have no result yet, whatever its state says next
    const state = await this.queue.getJobState(id);
    if (state === 'unknown') throw new Error(`episode job ${id} is gone from Redis (was the queue emptied while this run waited?)`);
    if (state !== 'completed' && state !== 'failed') return undefined;
    const found = (await Job.fromId<EpisodeJobData, EpisodeJobResult>(this.queue, id))!;
    if (state === 'failed') return this.failed(found, job);
    const result = found.returnvalue;
    if (result?.protocol === PROTOCOL_VERSION && !resultIsSigned(this.o.key, id, result)) return this.forged(found, job);
    if (result?.protocol !== PROTOCOL_VERSION)
      throw new QueueSetupError(
        `job ${id} was answered in queue protocol ${String(result?.protocol)}, this coordinator speaks ${PROTOCOL_VERSION}: run the same zetta version everywhere`,
      );
    this.costs.resulted(performance.now() - started);
    const recordPath = await this.keepRecording(result, recordPathFor(plan, job));
    if (recordPath === undefined) {
      // the run's folder lost a recording its job had already handed over: run that episode again
      this.log(`the recording of ${job.task} seed ${job.seed} is gone; running it again`);
      await found.remove();
      await this.queue.add('episode', found.data, { jobId: id, attempts: this.o.attempts ?? DEFAULT_ATTEMPTS, ...JOB_OPTIONS });
      return undefined;
    }
    const queueRetries = Math.max(0, (found.attemptsStarted ?? 1) - 1);
    this.costs.retried(queueRetries);
    return { ...result.outcome, recordPath, infraRetries: result.outcome.infraRetries + queueRetries };
  }

  private failed(found: Job<EpisodeJobData, EpisodeJobResult>, job: EpisodeJob): RetriedOutcome {
    const reason = found.failedReason || 'unknown error';
    if (/speaks queue protocol/.test(reason)) throw new QueueSetupError(reason);
    this.costs.failed();
    this.log(`episode ${job.task} seed ${job.seed} failed ${found.attemptsMade} times: ${reason}`);
    return lostEpisode(job, `queue: failed ${found.attemptsMade} times: ${reason}`, Math.max(0, (found.attemptsStarted ?? 1) - 1));
  }

  /** A result without this queue's signature: an outcome nobody with the key produced is not counted. */
  private forged(found: Job<EpisodeJobData, EpisodeJobResult>, job: EpisodeJob): RetriedOutcome {
    const reason = "its result is not signed with this queue's key (forged, or a worker uses another key)";
    this.costs.failed();
    this.log(`episode ${job.task} seed ${job.seed}: ${reason}`);
    return lostEpisode(job, `queue: ${reason}`, Math.max(0, (found.attemptsStarted ?? 1) - 1));
  }

  /** The recording where this run keeps it: fetched from Redis when streamed, already there when shared; undefined when lost. */
  private async keepRecording(result: EpisodeJobResult, path: string | undefined): Promise<string | null | undefined> {
    if (result.outcome.recordPath === null || path === undefined) return null;
    if (result.recordingKey === null) return result.outcome.recordPath;
    const started = performance.now();
    const data = await this.commands.getBytes(result.recordingKey);
    if (data !== null && createHash('sha256').update(data).digest('hex') !== result.recordingSha256) {
      // bytes the worker did not send (its signed result names their hash): not kept
      this.log(`the recording at ${result.recordingKey} does not match the sha256 its result names; not kept`);
      await this.commands.send('DEL', [result.recordingKey]);
      return existsSync(path) ? path : undefined;
    }
    if (data !== null) {
      writeFileAtomic(path, data);
      await this.commands.send('DEL', [result.recordingKey]);
      this.costs.recorded(result.recordingBytes, performance.now() - started);
    } else if (!existsSync(path)) {
      return undefined;
    }
    return path;
  }
}
