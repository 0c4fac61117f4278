// The trust boundary of a worker: a job names what it wants, and the worker runs it only with what its
// own command line gave it. Worlds by name from the worker's registry (the built-in ones, and the one
// `--world` names), policies from its `--policy` allowlist (and the trivial controls), critic bundles from the content the job
// carries (written to the worker's own cache), shared recordings only under its `--recordings-dir`.
// Anything else is refused before the episode starts: nothing is loaded, connected to, read or written.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { BUILTIN_WORLDS, resolveWorld, type WorldRef } from '../../sim/worlds.js';
import type { EvaluationPlan } from '../runtime/evaluation-plan.js';
import type { CriticPlan } from '../runtime/open-critic.js';
import { materializeBundle } from './bundle-content.js';
import type { EpisodeJobData } from './job-schema.js';
import { JobRefused } from './job-refused.js';
import type { QueuedCritic } from './queued-plan.js';

/** The policy a worker allows when its command line names none. */
export const DEFAULT_WORKER_POLICIES: readonly string[] = ['embedded'];
/** The trivial controls (governance arms) open no file and no connection: every worker runs them. */
const TRIVIAL_POLICY = /^null:(open|closed|random:\d{1,9})$/;

export interface WorkerTrustOptions {
  /** The world `--world` names: jobs of a world of the same name run this module. */
  readonly world?: WorldRef | undefined;
  /** The policy specs jobs may ask for (`--policy`). */
  readonly policies: readonly string[];
  /** The folder shared recordings may go under (`--recordings-dir`); none: shared recordings are refused. */
  readonly recordingsDir?: string | undefined;
  /** The worker's own folder for the critic bundles jobs send. */
  readonly bundleCache: string;
}

export class WorkerTrust {
  private readonly policies: ReadonlySet<string>;

  constructor(private readonly o: WorkerTrustOptions) {
    this.policies = new Set(o.policies);
  }

  /** The plan this worker runs for the job, or JobRefused when the job asks for what it was not given. */
  planFor(data: EpisodeJobData): EvaluationPlan {
    const q = data.plan;
    const world = this.worldFor(q.world);
    this.checkPolicy(q.policy);
    const recordDir = data.recording.mode === 'shared' && q.recordDir ? this.sharedRecordDir(q.recordDir) : q.recordDir;
    const critic = q.critic ? this.criticFor(q.critic) : undefined;
    return {
      ...(world ? { world } : {}),
      tasks: q.tasks,
      episodesPerTask: q.episodesPerTask,
      firstSeed: q.firstSeed,
      ...(q.perturbation ? { perturbation: q.perturbation } : {}),
      policy: q.policy,
      executeSteps: q.executeSteps,
      ...(recordDir ? { recordDir } : {}),
      ...(critic ? { critic } : {}),
      ...(q.infraRetries !== undefined ? { infraRetries: q.infraRetries } : {}),
    };
  }

  /** A built-in world by name, or the worker's own `--world` for a world of its name; nothing else. */
  private worldFor(name: string | undefined): WorldRef | undefined {
    const own = this.o.world;
    if (name === undefined) return undefined;
    if (own && (name === own.name || (isAbsolute(name) && isAbsolute(own.name) && basename(name) === basename(own.name)))) return own;
    if (BUILTIN_WORLDS.includes(name)) return resolveWorld(name);
    throw new JobRefused(
      `the job asks for world "${name}", which this worker was not started with (built-in: ${BUILTIN_WORLDS.join(', ')}${own ? `; --world ${own.name}` : ''})`,
    );
  }

  private checkPolicy(spec: string): void {
    if (!this.policies.has(spec) && !TRIVIAL_POLICY.test(spec))
      throw new JobRefused(
        `the job asks for policy "${spec}", which this worker was not started with (--policy ${[...this.policies].join(',')})`,
      );
  }

  /** A shared recording folder the job names, accepted only inside the worker's `--recordings-dir`. */
  private sharedRecordDir(dir: string): string {
    const root = this.o.recordingsDir;
    if (root === undefined)
      throw new JobRefused('the job writes recordings to a shared folder, and this worker was started without --recordings-dir');
    if (!isAbsolute(dir) || !inside(resolve(root), resolve(dir)) || !inside(realpathSync(root), realOfNearest(resolve(dir))))
      throw new JobRefused(`the job writes recordings outside this worker's --recordings-dir ${root}`);
    return resolve(dir);
  }

  private criticFor(critic: QueuedCritic): CriticPlan {
    const bundle = materializeBundle(critic.bundle, this.o.bundleCache);
    const byTask = critic.byTask
      ? Object.fromEntries(Object.entries(critic.byTask).map(([task, c]) => [task, materializeBundle(c, this.o.bundleCache)]))
      : undefined;
    return { bundle, privileged: critic.privileged, ...(byTask ? { byTask } : {}) };
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of the nearest folder of `path` that exists, with the rest appended: a link out is followed. */
function realOfNearest(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return resolve(realpathSync(existing), relative(existing, path));
}
