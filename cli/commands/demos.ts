// `zetta demos`: record scripted-expert demonstrations for the embedded base policy. Thin: flags
// in, models/demos does the work.
import { intFlag, parseFlags, printJsonLine, UsageError, type Command } from '../command.js';
import { progress } from '../progress.js';
import { SimInputError } from '../../sim/index.js';
import { DEFAULT_NOISE_STD, HELD_OUT_SEED_MIN, INITIAL_STATES_PER_TASK, recordDemos, type DemoSummary } from '../../models/demos/index.js';

const HELP = `usage: zetta demos --suite S|all [--tasks a,b] --episodes N --out DIR [--noise STD] [--keep-failed] [--json]

Records scripted-expert demonstrations on the NOMINAL scene distribution of the embedded suite,
LIBERO-style: ${INITIAL_STATES_PER_TASK} fixed initial states per task by default (seeds 0..${INITIAL_STATES_PER_TASK - 1}; held-out evaluation
seeds start at ${HELD_OUT_SEED_MIN}). Episode i of a task uses seed i mod S (S = --initial-states); the first visit of each
seed executes the expert's action, later visits execute it plus Gaussian noise on the motion
dimensions (DART), while the recorded label is always the clean expert action. Failed episodes
are discarded and counted.

Writes DIR/<task id>.npz per task (format: models/demos/README.md) and DIR/demos.json.
  --suite S        spatial, object, goal, long, or all
  --tasks a,b      only these task ids of the suite
  --episodes N     episodes per task (e.g. 400 = 8 visits of each of 50 initial states)
  --initial-states S
                   distinct initial states per task, seeds 0..S-1 (default ${INITIAL_STATES_PER_TASK}; at most
                   ${HELD_OUT_SEED_MIN}, so no training seed reaches the held-out range)
  --out DIR        output folder (created; files in it are replaced)
  --noise STD      execution-noise std in action units (default ${DEFAULT_NOISE_STD}; 0 = no noise)
  --keep-failed    keep failed episodes too (episode_success = 0)
  --json           last line: {"out", "suite", "episodes_per_task", "noise_std", "tasks": {ID: {"kept", "discarded", "steps", "file"}}, "kept", "discarded", "steps"}`;

function noiseFlag(value: string | undefined): number {
  if (value === undefined) return DEFAULT_NOISE_STD;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--noise must be a number in [0, 1], got "${value}"`);
  return n;
}

function initialStatesFlag(value: string | undefined): number {
  const n = intFlag(value, 'initial-states', INITIAL_STATES_PER_TASK, 1);
  if (n > HELD_OUT_SEED_MIN) {
    throw new UsageError(`--initial-states ${n} would use seeds 0..${n - 1}, but held-out evaluation seeds start at ${HELD_OUT_SEED_MIN}; at most ${HELD_OUT_SEED_MIN}`);
  }
  return n;
}

function printSummary(s: DemoSummary, out: string): void {
  for (const [task, t] of Object.entries(s.tasks)) {
    process.stdout.write(`${task.padEnd(42)} kept ${t.kept}/${t.episodes}  discarded ${t.discarded}  steps ${t.steps}  → ${t.file}\n`);
  }
  process.stdout.write(`${s.kept} episodes, ${s.steps} steps kept, ${s.discarded} discarded (failed); written to ${out}\n`);
}

export const demosCommand: Command = {
  name: 'demos',
  summary: 'record scripted-expert demonstrations (nominal scenes) for the embedded base policy',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      suite: { type: 'string' },
      tasks: { type: 'string' },
      episodes: { type: 'string' },
      out: { type: 'string' },
      noise: { type: 'string' },
      'initial-states': { type: 'string' },
      'keep-failed': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (!values.suite) throw new UsageError('--suite is required (spatial, object, goal, long or all)');
    if (values.episodes === undefined) throw new UsageError('--episodes is required');
    if (!values.out) throw new UsageError('--out is required');
    const episodes = intFlag(values.episodes, 'episodes', 0, 1);
    const initialStates = initialStatesFlag(values['initial-states']);
    const tasks = values.tasks?.split(',').map((t) => t.trim()).filter((t) => t !== '');
    let bar = progress('demos');
    let summary: DemoSummary;
    try {
      summary = await recordDemos({
        suite: values.suite,
        ...(tasks ? { tasks } : {}),
        episodes,
        out: values.out,
        noiseStd: noiseFlag(values.noise),
        initialStates,
        keepFailed: values['keep-failed'],
        onTaskStart: (task, i, n) => (bar = progress(`demos ${i + 1}/${n} ${task}`)),
        onEpisode: (_task, e) => bar.update(e.plan.index + 1, episodes),
        onTaskDone: () => bar.done(),
      });
    } catch (err) {
      if (err instanceof SimInputError) throw new UsageError(err.message);
      throw err;
    }
    printSummary(summary, values.out);
    if (values.json) {
      const tasksOut = Object.fromEntries(Object.entries(summary.tasks).map(([id, t]) => [id, { kept: t.kept, discarded: t.discarded, steps: t.steps, file: t.file }]));
      printJsonLine({ out: values.out, suite: summary.suite, episodes_per_task: summary.episodes_per_task, noise_std: summary.noise_std, tasks: tasksOut, kept: summary.kept, discarded: summary.discarded, steps: summary.steps });
    }
    return 0;
  },
};
