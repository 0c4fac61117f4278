// `zetta demos`: record scripted-expert demonstrations for the embedded base policy. Thin: flags
// in, models/demos does the work.
import { HELD_OUT_SEED_MIN, INITIAL_STATES_PER_TASK, recordDemos, type DemoSummary } from '../../models/demos/index.js';
import { SimInputError } from '../../sim/tabletop/index.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { initialStates, keepFailed, noise } from '../flags/demos.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { episodes, json, out, suite, tasks } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  suite: suite.with({ help: 'spatial, object, goal, long, or all' }).required('--suite is required (spatial, object, goal, long or all)'),
  tasks: tasks.with({ help: 'only these task ids of the suite' }),
  episodes: episodes.with({ help: 'episodes per task (e.g. 400 = 8 visits of each of 50 initial states)' }).required(),
  initialStates,
  out: out.with({ help: 'output folder (created; files in it are replaced)' }).required(),
  noise,
  keepFailed,
  json: json.with({
    help: 'last line: {"out", "suite", "episodes_per_task", "noise_std", "tasks": {ID: {"kept", "discarded", "steps", "file"}}, "kept", "discarded", "steps"}',
  }),
};

const HELP = `usage: zetta demos --suite S|all [--tasks a,b] --episodes N --out DIR [--noise STD] [--keep-failed] [--json]

Records scripted-expert demonstrations on the NOMINAL scene distribution of the embedded suite,
LIBERO-style: ${INITIAL_STATES_PER_TASK} fixed initial states per task by default (seeds 0..${INITIAL_STATES_PER_TASK - 1}; held-out evaluation
seeds start at ${HELD_OUT_SEED_MIN}). Episode i of a task uses seed i mod S (S = --initial-states); the first visit of each
seed executes the expert's action, later visits execute it plus Gaussian noise on the motion
dimensions (DART), while the recorded label is always the clean expert action. Failed episodes
are discarded and counted.

Writes DIR/<task id>.npz per task (format: models/demos/README.md) and DIR/demos.json.
${flagHelp(FLAGS)}`;

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
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const taskIds = f.tasks
      ?.split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    let bar = progress('demos');
    let summary: DemoSummary;
    try {
      summary = await recordDemos({
        suite: f.suite,
        ...(taskIds ? { tasks: taskIds } : {}),
        episodes: f.episodes,
        out: f.out,
        noiseStd: f.noise,
        initialStates: f.initialStates,
        keepFailed: f.keepFailed,
        onTaskStart: (task, i, n) => (bar = progress(`demos ${i + 1}/${n} ${task}`)),
        onEpisode: (_task, e) => bar.update(e.plan.index + 1, f.episodes),
        onTaskDone: () => bar.done(),
      });
    } catch (err) {
      if (err instanceof SimInputError) throw new UsageError(err.message);
      throw err;
    }
    printSummary(summary, f.out);
    if (f.json) {
      const tasksOut = Object.fromEntries(
        Object.entries(summary.tasks).map(([id, t]) => [id, { kept: t.kept, discarded: t.discarded, steps: t.steps, file: t.file }]),
      );
      printJsonLine({
        out: f.out,
        suite: summary.suite,
        episodes_per_task: summary.episodes_per_task,
        noise_std: summary.noise_std,
        tasks: tasksOut,
        kept: summary.kept,
        discarded: summary.discarded,
        steps: summary.steps,
      });
    }
    return 0;
  },
};
