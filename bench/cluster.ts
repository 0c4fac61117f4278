// The cluster benchmark: the same episodes, in the same run and interleaved round by round,
//   local  — evaluate() in this process (one simulator, the embedded policy), as `zetta eval` runs;
//   queue  — through Redis (BullMQ) with 1, 2 and 4 `zetta worker` processes on this machine;
// and what the queue costs per episode: the coordinator's enqueue, result and recording work (wall
// and CPU), Redis's own command time and the memory a kept result takes. README (zinfra/queue) turns
// these into how far one Redis and one coordinator go.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Perturbation } from '../sim/perturbation/schema.js';
import { RedisCommands } from '../zinfra/queue/connections.js';
import { QUEUE_NAME, jobIdsFor } from '../zinfra/queue/job-schema.js';
import { openQueueCoordinator } from '../zinfra/queue/queue-coordinator.js';
import type { QueueCostSummary } from '../zinfra/queue/queue-costs.js';
import { KEY_ENV, KEY_FILE_ENV } from '../zinfra/queue/queue-key.js';
import { parseRedisUrl } from '../zinfra/queue/redis-url.js';
import { evaluate, planJobs, type EvaluationPlan } from '../measure/evaluation.js';
import { resolveCriticSpec } from '../zinfra/runtime/open-critic.js';
import { RedisProcess, redisSpent } from './redis-process.js';
import { summarize } from '../measure/percentiles.js';
import { startWorkers } from './worker-processes.js';

export interface ClusterBenchOptions {
  /** A Redis to use; without it the benchmark starts its own redis-server. */
  readonly queue?: string | undefined;
  readonly tasks: readonly string[];
  readonly episodes: number;
  readonly rounds: number;
  readonly workerCounts: readonly number[];
  readonly executeSteps: number;
  /** Longer episodes (a perturbation the policy fails under runs to the step limit) dilute the queue's fixed cost per episode. */
  readonly perturbation?: Perturbation | undefined;
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

export interface ClusterBenchResult {
  episodes: number;
  /** Mean steps per episode: the queue's cost per episode is fixed, so its share falls as episodes grow. */
  steps_per_episode: number;
  rounds: number;
  local_episodes_per_min: number;
  /** Median over the rounds, per number of worker processes. */
  queue_episodes_per_min: Record<string, number>;
  /** 1 − queue(1 worker) / local, from the medians: the queue's overhead at one worker. */
  overhead_at_1_worker: number;
  /** Per episode, medians over the queued runs. */
  coordinator_enqueue_ms: number;
  coordinator_result_ms: number;
  coordinator_recording_ms: number;
  coordinator_cpu_ms: number;
  recording_bytes: number;
  redis_command_us: number;
  redis_calls: number;
  redis_memory_bytes: number;
  queue_retries: number;
}

interface QueuedRun {
  readonly workers: number;
  readonly episodesPerMinute: number;
  readonly costs: QueueCostSummary;
  readonly cpuMs: number;
  readonly redisUs: number;
  readonly redisCalls: number;
  readonly redisMemory: number;
}

export async function benchCluster(o: ClusterBenchOptions): Promise<ClusterBenchResult> {
  const own = o.queue ? undefined : await RedisProcess.start();
  // its own Redis and workers share a key made for this run; a queue of the user's uses the user's key
  if (own && !process.env[KEY_ENV] && !process.env[KEY_FILE_ENV]) process.env[KEY_ENV] = randomBytes(32).toString('hex');
  const url = o.queue ?? own!.url;
  const dir = mkdtempSync(join(tmpdir(), 'zetta-cluster-bench-'));
  const commands = new RedisCommands(parseRedisUrl(url));
  const plan = (name: string): EvaluationPlan => ({
    tasks: o.tasks,
    episodesPerTask: Math.max(1, Math.round(o.episodes / o.tasks.length)),
    firstSeed: 1000,
    policy: 'embedded',
    executeSteps: o.executeSteps,
    perturbation: o.perturbation,
    recordDir: join(dir, name, 'episodes'),
    critic: resolveCriticSpec('default'),
  });
  const episodes = plan('count').episodesPerTask * o.tasks.length;
  const local: number[] = [];
  const queued: QueuedRun[] = [];
  let steps = 0;
  try {
    // unmeasured: the simulator's WebAssembly and the policy's session load once per process
    await evaluate({ ...plan('warm-up'), episodesPerTask: 1 }, { workers: 1 });
    for (let round = 0; round < o.rounds; round++) {
      const progress = (phase: string) => (_o: unknown, done: number, total: number) =>
        o.onProgress?.(`round ${round + 1}/${o.rounds}: ${phase}`, done, total);
      const r = await evaluate(plan(`local-${round}`), { workers: 1, onEpisode: progress('local') });
      local.push(r.episodesPerMinute);
      steps = r.attribution.executedSteps / r.outcomes.length;
      for (const k of o.workerCounts)
        queued.push(
          await queuedRun(
            url,
            commands,
            plan(`queue-${k}-${round}`),
            k,
            `${dir}#${round}#${k}`,
            progress(`queue, ${k} worker${k > 1 ? 's' : ''}`),
          ),
        );
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    commands.close();
    rmSync(dir, { recursive: true, force: true });
    await own?.stop();
  }
  return { ...report(o, episodes, local, queued), steps_per_episode: steps };
}

async function queuedRun(
  url: string,
  commands: RedisCommands,
  plan: EvaluationPlan,
  workers: number,
  scope: string,
  onEpisode: (o: unknown, d: number, t: number) => void,
): Promise<QueuedRun> {
  const pool = await startWorkers(url, workers);
  const coordinator = await openQueueCoordinator({ address: parseRedisUrl(url), scope, recordings: 'stream' });
  try {
    // unmeasured, as for the local arm: each worker loads the simulator and the policy once
    const warm = Math.ceil((100 * workers) / plan.tasks.length);
    await evaluate(
      { ...plan, episodesPerTask: warm, firstSeed: 500, recordDir: `${plan.recordDir}-warm-up` },
      { workers: 1, executor: coordinator.executor },
    );
    const before = await redisSpent(commands);
    const cpu = process.cpuUsage();
    const r = await evaluate(plan, { workers: 1, executor: coordinator.executor, onEpisode });
    const used = process.cpuUsage(cpu);
    const after = await redisSpent(commands);
    const n = r.outcomes.length;
    const kept = await keptBytes(commands, jobIdsFor(scope, plan, planJobs(plan)).slice(0, 10));
    return {
      workers,
      episodesPerMinute: r.episodesPerMinute,
      costs: coordinator.costs.summary(),
      cpuMs: (used.user + used.system) / 1000 / n,
      redisUs: (after.commandUs - before.commandUs) / n,
      redisCalls: (after.calls - before.calls) / n,
      redisMemory: kept,
    };
  } finally {
    await coordinator.close();
    await pool.stop();
  }
}

/** What Redis holds for a finished job (its hash: data, result, timestamps), median over a sample. */
async function keptBytes(commands: RedisCommands, ids: readonly string[]): Promise<number> {
  const sizes: number[] = [];
  for (const id of ids) sizes.push(Number(await commands.send('MEMORY', ['USAGE', `bull:${QUEUE_NAME}:${id}`])));
  return summarize(sizes).p50;
}

function report(
  o: ClusterBenchOptions,
  episodes: number,
  local: number[],
  queued: QueuedRun[],
): Omit<ClusterBenchResult, 'steps_per_episode'> {
  const median = (xs: readonly number[]) => summarize(xs).p50;
  const perWorkers: Record<string, number> = {};
  for (const k of o.workerCounts) perWorkers[String(k)] = median(queued.filter((q) => q.workers === k).map((q) => q.episodesPerMinute));
  const localRate = median(local);
  const m = (f: (q: QueuedRun) => number) => median(queued.map(f));
  return {
    episodes,
    rounds: o.rounds,
    local_episodes_per_min: localRate,
    queue_episodes_per_min: perWorkers,
    overhead_at_1_worker: perWorkers['1'] === undefined ? Number.NaN : 1 - perWorkers['1'] / localRate,
    coordinator_enqueue_ms: m((q) => q.costs.enqueueMsPerJob),
    coordinator_result_ms: m((q) => q.costs.resultMsPerJob),
    coordinator_recording_ms: m((q) => q.costs.recordingMsPerJob),
    coordinator_cpu_ms: m((q) => q.cpuMs),
    recording_bytes: m((q) => q.costs.recordingBytesPerJob),
    redis_command_us: m((q) => q.redisUs),
    redis_calls: m((q) => q.redisCalls),
    redis_memory_bytes: m((q) => q.redisMemory),
    queue_retries: queued.reduce((n, q) => n + q.costs.queueRetries, 0),
  };
}
