// Demonstrations for the embedded base policy: scripted-expert episodes on nominal scenes,
// recorded as the policy sees them. `recordDemos` is what `zetta demos` runs.
import { SimInputError } from '../../sim/errors.js';
import { POLICY_OBJECT_SLOTS, POLICY_TASKS } from '../../sim/tabletop/policy-io.js';
import { TabletopEnv } from '../../sim/tabletop/env.js';
import { getTask, listTasks } from '../../sim/tabletop/tasks/catalog.js';
import { subject } from '../../sim/tabletop/tasks/milestones.js';
import type { SuiteName } from '../../sim/tabletop/tasks/types.js';
import { DEMO_FORMAT } from './dataset.js';
import { recordTask, type EpisodeOutcome, type TaskRecordSummary } from './record.js';
import { checkInitialStates, HELD_OUT_SEED_MIN, INITIAL_STATES_PER_TASK } from './schedule.js';
import { writeManifest, writeTaskDemos } from './write.js';

export { DEMO_FORMAT, TaskDemos } from './dataset.js';
export { ExecutionNoise } from './noise.js';
export { recordEpisode, recordTask, type EpisodeOutcome, type TaskRecordSummary } from './record.js';
export { checkInitialStates, demoSchedule, HELD_OUT_SEED_MIN, INITIAL_STATES_PER_TASK, type DemoEpisodePlan } from './schedule.js';
export { MANIFEST_FILE, taskFile } from './write.js';

/** Default execution-noise std (action units: 0.1 is 5 mm or 0.05 rad per step). */
export const DEFAULT_NOISE_STD = 0.1;

export interface DemoOptions {
  /** A suite name or 'all'. */
  readonly suite: string;
  /** Restricts the suite to these task ids. */
  readonly tasks?: readonly string[];
  /** Episodes per task. */
  readonly episodes: number;
  readonly out: string;
  readonly noiseStd?: number;
  /** Distinct initial states per task (seeds 0..n-1, all below HELD_OUT_SEED_MIN); default 50. */
  readonly initialStates?: number;
  readonly keepFailed?: boolean;
  readonly onTaskStart?: (task: string, index: number, count: number) => void;
  readonly onEpisode?: (task: string, outcome: EpisodeOutcome) => void;
  readonly onTaskDone?: (summary: TaskRecordSummary) => void;
}

export interface DemoSummary {
  readonly format: string;
  readonly suite: string;
  readonly episodes_per_task: number;
  readonly noise_std: number;
  readonly seeds: { readonly first: number; readonly last: number; readonly held_out_from: number };
  readonly tasks: Readonly<Record<string, TaskRecordSummary & { readonly file: string }>>;
  readonly kept: number;
  readonly discarded: number;
  readonly steps: number;
}

/** The tasks a (suite, --tasks) pair names, in catalog order; unknown names are SimInputError. */
export function selectTasks(suite: string, only?: readonly string[]): string[] {
  const suites = new Set(listTasks().map((t) => t.suite));
  if (suite !== 'all' && !suites.has(suite as SuiteName)) {
    throw new SimInputError(`unknown suite "${suite}"; one of: all, ${[...suites].join(', ')}`);
  }
  const inSuite = listTasks(suite === 'all' ? undefined : (suite as SuiteName)).map((t) => t.id);
  if (only === undefined || only.length === 0) return inSuite;
  for (const id of only) {
    getTask(id); // throws with the list of known tasks
    if (!inSuite.includes(id)) throw new SimInputError(`task "${id}" is not in suite "${suite}"`);
  }
  return inSuite.filter((id) => only.includes(id));
}

export async function recordDemos(o: DemoOptions): Promise<DemoSummary> {
  const tasks = selectTasks(o.suite, o.tasks);
  const noiseStd = o.noiseStd ?? DEFAULT_NOISE_STD;
  let initialStates: number;
  try {
    initialStates = checkInitialStates(o.initialStates ?? INITIAL_STATES_PER_TASK);
  } catch (err) {
    throw new SimInputError((err as Error).message);
  }
  const env = await TabletopEnv.create();
  const perTask: Record<string, TaskRecordSummary & { file: string }> = {};
  try {
    tasks.forEach((task, i) => {
      o.onTaskStart?.(task, i, tasks.length);
      const onEpisode = (e: EpisodeOutcome) => o.onEpisode?.(task, e);
      const { demos, summary } = recordTask(env, task, {
        episodes: o.episodes,
        noiseStd,
        initialStates,
        keepFailed: o.keepFailed ?? false,
        onEpisode,
      });
      perTask[task] = { ...summary, file: writeTaskDemos(o.out, demos) };
      o.onTaskDone?.(summary);
    });
  } finally {
    env.closeSync();
  }
  const all = Object.values(perTask);
  const summary: DemoSummary = {
    format: DEMO_FORMAT,
    suite: o.suite,
    episodes_per_task: o.episodes,
    noise_std: noiseStd,
    seeds: { first: 0, last: Math.min(o.episodes, initialStates) - 1, held_out_from: HELD_OUT_SEED_MIN },
    tasks: perTask,
    kept: all.reduce((n, t) => n + t.kept, 0),
    discarded: all.reduce((n, t) => n + t.discarded, 0),
    steps: all.reduce((n, t) => n + t.steps, 0),
  };
  const slots = Object.fromEntries(tasks.map((t) => [t, taskSlots(t)]));
  writeManifest(o.out, { ...summary, policy_tasks: POLICY_TASKS, object_slots: POLICY_OBJECT_SLOTS, slots });
  return summary;
}

/**
 * What fills a task's object slots, for a training script's augmentations: the slot names in order
 * (movables, then fixtures), how many are movables, and which names the goal or a stage refers to.
 * A movable the goal never mentions is a distractor: the expert's actions do not depend on it.
 */
export function taskSlots(id: string): { names: string[]; movables: number; goal_objects: string[] } {
  const task = getTask(id);
  const referenced = new Set<string>();
  for (const g of task.goal) {
    if ('object' in g) referenced.add(g.object);
    if ('target' in g) referenced.add(g.target);
  }
  for (const s of task.stages) {
    referenced.add(subject(s));
    if (s.kind === 'place') referenced.add(s.target);
  }
  const names = [...task.movables.map((m) => m.name), ...task.fixtures.map((f) => f.name)];
  return { names, movables: task.movables.length, goal_objects: names.filter((n) => referenced.has(n)) };
}
