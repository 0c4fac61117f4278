// What travels through the queue: one episode job (the plan it belongs to, the episode, where its
// recording goes) and its result, both tagged with the protocol version so a coordinator and a
// worker of different versions refuse each other in one line. A job's id is a hash of everything
// its outcome depends on, within a scope (the campaign root or the run's folder): enqueuing it
// twice is a no-op and its result is stored once.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { bundleHash } from '../../critic/index.js';
import type { EpisodeJob, EvaluationPlan } from '../runtime/evaluation-plan.js';
import { criticPlanFor } from '../runtime/open-critic.js';
import type { RetriedOutcome } from '../runtime/infra-retry.js';

/** Bumped whenever a job's or a result's shape, or what a worker does with them, changes. */
export const PROTOCOL_VERSION = 2;

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
  readonly plan: EvaluationPlan;
  readonly job: EpisodeJob;
  readonly recording: { readonly mode: RecordingMode; readonly maxBytes: number };
}

export interface EpisodeJobResult {
  readonly protocol: number;
  readonly outcome: RetriedOutcome;
  /** Where the streamed recording waits in Redis (stream mode, when the episode was recorded). */
  readonly recordingKey: string | null;
  readonly recordingBytes: number;
  /** Which worker ran it (host:pid), for the report. */
  readonly worker: string;
}

const JobDataSchema = z.object({
  protocol: z.number().int(),
  plan: z
    .object({
      tasks: z.array(z.string()),
      policy: z.string(),
      executeSteps: z.number().int().positive(),
      episodesPerTask: z.number().int(),
    })
    .passthrough(),
  job: z.object({ index: z.number().int().nonnegative(), task: z.string(), seed: z.number().int() }),
  recording: z.object({ mode: z.enum(['shared', 'stream']), maxBytes: z.number().int().positive() }),
});

/** The job's data as a worker reads it; a job of another protocol version is reported, not guessed at. */
export function readJobData(data: unknown): EpisodeJobData {
  const protocol = (data as { protocol?: unknown } | null)?.protocol;
  if (protocol !== PROTOCOL_VERSION)
    throw new ProtocolMismatch(
      `the job speaks queue protocol ${String(protocol)}, this worker ${PROTOCOL_VERSION}: run the same zetta version on the coordinator and the workers`,
    );
  const parsed = JobDataSchema.safeParse(data);
  if (!parsed.success) throw new Error(`malformed episode job: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return data as EpisodeJobData;
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
