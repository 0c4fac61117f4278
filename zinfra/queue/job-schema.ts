// What travels through the queue: one episode job (the plan it belongs to, the episode, where its
// recording goes) and its result, both tagged with the protocol version so a coordinator and a
// worker of different versions refuse each other in one line. A job's id is a hash of everything
// its outcome depends on, within a scope (the campaign root or the run's folder): enqueuing it
// twice is a no-op and its result is stored once.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { bundleHash } from '../../critic/index.js';
import type { EpisodeJob, EvaluationPlan } from '../runtime/evaluation-plan.js';
import { JobRefused } from './job-refused.js';
import type { QueueKey } from './queue-key.js';
import { QueuedPlanSchema, type QueuedPlan } from './queued-plan.js';
import { criticPlanFor } from '../runtime/open-critic.js';
import type { RetriedOutcome } from '../runtime/infra-retry.js';

/** Bumped whenever a job's or a result's shape, or what a worker does with them, changes. */
export const PROTOCOL_VERSION = 3;

export const QUEUE_NAME = 'zetta-episodes';
/** Keys Zetta keeps beside BullMQ's (BullMQ's own are under `bull:`). */
export const KEYS = {
  protocol: 'zetta:protocol',
  worker: (id: string) => `zetta:workers:${id}`,
  workers: 'zetta:workers:*',
  recording: (jobId: string) => `zetta:recording:${jobId}`,
} as const;

/** Recordings: written by the worker into a directory both sides see, or sent back through Redis. */
export type RecordingMode = 'shared' | 'stream';
/** The largest recording sent back through Redis (a LIBERO-length episode is well under 1 MB). */
export const DEFAULT_STREAM_LIMIT_BYTES = 32 * 1024 * 1024;

export interface EpisodeJobData {
  readonly protocol: number;
  readonly plan: QueuedPlan;
  readonly job: EpisodeJob;
  readonly recording: { readonly mode: RecordingMode; readonly maxBytes: number };
  /** The coordinator's HMAC over the rest, bound to the job's id (queue-key.ts). */
  readonly signature: string;
}

export interface EpisodeJobResult {
  readonly protocol: number;
  readonly outcome: RetriedOutcome;
  /** Where the streamed recording waits in Redis (stream mode, when the episode was recorded). */
  readonly recordingKey: string | null;
  readonly recordingBytes: number;
  /** The sha256 of the streamed recording's bytes (null when none was streamed): the bytes are checked against it. */
  readonly recordingSha256: string | null;
  /** Which worker ran it (host:pid), for the report. */
  readonly worker: string;
  /** The worker's HMAC over the rest, bound to the job's id (queue-key.ts). */
  readonly signature: string;
}

const JobDataSchema = z.strictObject({
  protocol: z.number().int(),
  plan: QueuedPlanSchema,
  job: z.strictObject({ index: z.number().int().nonnegative(), task: z.string(), seed: z.number().int() }),
  recording: z.strictObject({ mode: z.enum(['shared', 'stream']), maxBytes: z.number().int().positive() }),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A job's data with the coordinator's signature over it. */
export function signJobData(key: QueueKey, jobId: string, unsigned: Omit<EpisodeJobData, 'signature'>): EpisodeJobData {
  return { ...unsigned, signature: key.sign('job', jobId, unsigned) };
}

/** A result with the worker's signature over it. */
export function signJobResult(key: QueueKey, jobId: string, unsigned: Omit<EpisodeJobResult, 'signature'>): EpisodeJobResult {
  return { ...unsigned, signature: key.sign('result', jobId, unsigned) };
}

/** Whether a result (as read back from Redis) carries a worker's signature under this key for this job. */
export function resultIsSigned(key: QueueKey, jobId: string, result: unknown): boolean {
  if (result === null || typeof result !== 'object') return false;
  const { signature, ...unsigned } = result as { signature?: unknown };
  return key.verify('result', jobId, unsigned, signature);
}

/**
 * The job's data as a worker reads it: a job of another protocol version is reported, not guessed at;
 * one not signed with the queue's key is refused unread; one with a field this version does not know, or a value of the wrong kind, is refused.
 */
export function readJobData(key: QueueKey, jobId: string, data: unknown): EpisodeJobData {
  const protocol = (data as { protocol?: unknown } | null)?.protocol;
  if (protocol !== PROTOCOL_VERSION)
    throw new ProtocolMismatch(
      `the job speaks queue protocol ${String(protocol)}, this worker ${PROTOCOL_VERSION}: run the same zetta version on the coordinator and the workers`,
    );
  // the signature before anything else is looked at: an unsigned job is not read any further
  const { signature, ...unsigned } = data as { signature?: unknown };
  if (!key.verify('job', jobId, unsigned, signature))
    throw new JobRefused("the job is not signed with this worker's queue key (forged, or the coordinator uses another key)");
  const parsed = JobDataSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // where and what kind of problem, never the value: the job's text is not echoed back into Redis
    const where = issue?.path.map(String).join('.') || 'the job';
    throw new JobRefused(`malformed episode job: ${where}: ${issue?.code ?? 'invalid'}`);
  }
  return parsed.data;
}

export class ProtocolMismatch extends Error {
  override readonly name = 'ProtocolMismatch';
}

/**
 * The job id of one episode: (scope, arm = policy + critic bundle hash, task, seed) and the rest of
 * what decides its outcome (world, perturbation, k, where it is recorded).
 */
export function jobIdsFor(scope: string, plan: EvaluationPlan, jobs: readonly EpisodeJob[]): string[] {
  const hashes = new Map<string, string>();
  const hashOf = (bundle: string) => hashes.get(bundle) ?? hashes.set(bundle, bundleHash(bundle)).get(bundle)!;
  return jobs.map((job) => jobIdFor(scope, plan, job, hashOf));
}

function jobIdFor(scope: string, plan: EvaluationPlan, job: EpisodeJob, hashOf: (bundle: string) => string): string {
  const critic = criticPlanFor(plan.critic, job.task);
  const key = {
    world: plan.world?.name ?? 'tabletop',
    policy: plan.policy,
    bundle: critic ? hashOf(critic.bundle) : null,
    privileged: critic?.privileged ?? false,
    task: job.task,
    seed: job.seed,
    perturbation: plan.perturbation ?? null,
    executeSteps: plan.executeSteps,
    infraRetries: plan.infraRetries ?? null,
    recordDir: plan.recordDir ?? null,
  };
  const digest = createHash('sha256').update(scope).update('\0').update(JSON.stringify(key)).digest('hex').slice(0, 32);
  // readable in Redis and in the report: which episode, then the hash that makes it unique
  return `${job.task.replace(/[^a-z0-9_]+/gi, '_')}.${job.seed}.${digest}`;
}
