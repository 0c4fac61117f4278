// The flag table: every flag of `zetta` whose value needs nothing but its own text. Flags checked
// against a module (a task id, a perturbation, a bundle, a seed list) sit beside this file by
// domain — scene.ts, governance.ts, evolution.ts, demos.ts, serve.ts — so a command loads only the
// modules of the flags it takes. A command names its flags in a set and may change a flag's help
// line, placeholder or default there (`episodes.default(50)`); parsing and validation stay here.
import { bool, int, text } from './flag.js';

// Bounds of the integer flags beyond the general MAX_COUNT (flag.ts), each with its reason.
/** Episodes per task: a run of more is not a typo only on a cluster, and a cluster runs jobs. */
export const MAX_EPISODES = 100_000;
/** Seeds: an episode's seed S + i stays below 2^32, where the seeded PRNG (util/) would wrap. */
export const MAX_SEED = 2_147_483_647;
/** Threads and simulators per process. */
export const MAX_WORKERS = 256;
/** A delay a benchmark or server waits on purpose. */
export const MAX_DELAY_MS = 60_000;

// --- output --------------------------------------------------------------------------------------
export const json = bool('json', 'last line of stdout: one JSON object');
export const out = text('out', { metavar: 'DIR', help: 'where the output goes' });

// --- what runs, and how many times ---------------------------------------------------------------
export const suite = text('suite', { metavar: 'S', help: "a suite of the world, or all (the tabletop's: spatial | object | goal | long)" });
export const tasks = text('tasks', { metavar: 'a,b', help: 'only these tasks (ids as `zetta sim tasks` lists them)' });
export const episodes = int('episodes', { metavar: 'N', min: 1, max: MAX_EPISODES, help: 'episodes per task' });
export const seed = int('seed', { metavar: 'S', min: 0, max: MAX_SEED, help: 'episode seed' });
export const firstSeed = int('first-seed', { metavar: 'S', min: 0, max: MAX_SEED, help: 'first seed; episode i uses S + i' });

// --- the rollout pool ----------------------------------------------------------------------------
export const workers = int('workers', { metavar: 'K', min: 1, max: MAX_WORKERS, help: 'rollout worker threads' });
export const envsPerWorker = int('envs-per-worker', {
  metavar: 'E',
  min: 1,
  max: MAX_WORKERS,
  help: 'simulators stepping concurrently in each worker',
});
export const executeSteps = int('execute-steps', { metavar: 'k', min: 1, max: 1000, help: 'actions executed per chunk before replanning' });

// --- evaluation ----------------------------------------------------------------------------------
export const noRecord = bool('no-record', 'do not record episodes');
export const arms = bool(
  'arms',
  [
    'governance arms at the same seeds (needs --critic): the policy alone, the',
    'critic alone (each trivial policy null:open, null:closed, null:random:0 under',
    'the critic; per task the best counts) and both; prints per task and macro',
    'synergy = both − max(policy alone, critic alone) with paired bootstrap 95%',
    "intervals, and per arm the policy's unmodified share of executed steps (all,",
    'and in successes), successes without recovery, milestones reached during',
    'recovery, physics divergences. Writes DIR/arms.json (episodes under',
    'DIR/episodes/<arm>/); progress per arm on stderr',
  ].join('\n'),
);

// --- zetta run -----------------------------------------------------------------------------------
export const wireRequests = int('wire-requests', { metavar: 'N', min: 1, help: 'observations sent through each policy server' });
export const expertEpisodes = int('expert-episodes', { metavar: 'N', min: 1, max: MAX_EPISODES, help: 'expert episodes per task' });
export const campaigns = int('campaigns', { metavar: 'N', min: 1, max: 1000, help: 'evolution campaigns at most, one per task' });
export const tasksPerCampaign = int('tasks-per-campaign', {
  metavar: 'K',
  min: 1,
  max: 100,
  help: 'tasks each campaign covers at most: its weakest task and the next weakest under\nthe same perturbation (every seed on each; the gates pool them and refuse a loss on any one)',
});
export const devEpisodes = int('dev-episodes', { metavar: 'N', min: 1, max: MAX_EPISODES, help: 'development episodes per generation' });
export const generations = int('generations', { metavar: 'G', min: 1, max: 1000, help: 'generations at most' });
export const fromScratch = bool(
  'from-scratch',
  'evolve from the empty bundle: no hand-written rule in the campaigns or the final\nsystem, which stands beside the default at the same seeds; skills go to DIR/skills.db',
);
export const quick = bool('quick', 'a smoke run: 2 episodes everywhere, 20 wire requests, a 1-generation campaign');

// --- benchmarks ----------------------------------------------------------------------------------
export const iterations = int('iterations', { metavar: 'N', min: 1, help: 'measured samples' });
export const warmup = int('warmup', { metavar: 'N', min: 0, help: 'unmeasured rounds first' });
export const latencyMs = int('latency-ms', { metavar: 'MS', min: 0, max: MAX_DELAY_MS, help: 'time each policy call takes' });
export const steps = int('steps', { metavar: 'N', min: 1, help: 'steps per episode' });
export const actions = int('actions', { metavar: 'N', min: 1, help: 'measured control steps' });
export const sequentialEpisodes = int('sequential-episodes', {
  metavar: 'N',
  min: 1,
  max: MAX_EPISODES,
  help: 'episodes of the sequential arm',
});
export const runtimeEpisodes = int('runtime-episodes', { metavar: 'N', min: 1, max: MAX_EPISODES, help: 'episodes of the runtime arm' });
export const noPython = bool('no-python', 'skip the Python shim');
export const rules = int('rules', { metavar: 'N', min: 1, help: 'rules in the set' });
export const frames = int('frames', { metavar: 'N', min: 16, help: 'recorded frames' });
export const heapSteps = int('heap-steps', { metavar: 'N', min: 0, max: 100_000_000, help: 'steps of the allocation check' });
export const batch = int('batch', { metavar: 'N', min: 0, help: 'evaluations per timed sample' });
