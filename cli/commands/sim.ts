// `zetta sim …`: the embedded simulator from the command line (tasks, reset digests, the scripted
// expert) and `zetta bench sim`. Thin: flags in, sim/ does the work.
import { intFlag, parseFlags, printJsonLine, UsageError, type Command } from '../command.js';
import { progress } from '../progress.js';
import {
  builtinPerturbationNames,
  describePredicate,
  evaluateExpert,
  listTasks,
  milestoneNames,
  PerturbationError,
  resolvePerturbation,
  SimInputError,
  SUITE_MAX_STEPS,
  TabletopEnv,
  type Perturbation,
} from '../../sim/index.js';
import { benchSim } from '../../bench/sim.js';

const TASKS_HELP = `usage: zetta sim tasks [--json]

Lists the suites (spatial, object, goal, long), their tasks, instructions, goal predicates and
milestones.
  --json   last line: {"tasks": [{"id", "suite", "instruction", "max_steps", "goal", "milestones"}]}`;

const DIGEST_HELP = `usage: zetta sim digest --task T --seed S [--perturb FILE|NAME] [--json]

Resets the embedded simulator and prints the episode's reset digest: sha256 of the scene, the
initial state and every sampled perturbation value. The same (task, seed, perturbation) always
gives the same digest.
  --task T         a task id (see zetta sim tasks)
  --seed S         episode seed, an integer ≥ 0
  --perturb FILE   a perturbation JSON file, or a built-in name (${builtinPerturbationNames().join(', ')})
  --json           last line: {"resetDigest": "…", "task", "seed"}`;

const EXPERT_HELP = `usage: zetta sim expert --task T [--episodes N] [--first-seed S] [--perturb FILE|NAME] [--json]

Runs the scripted expert (a phase controller that reads privileged state) for N episodes with
seeds S, S+1, … and reports its success rate. Progress goes to stderr on a terminal.
  --task T         a task id, or "all" for every task
  --episodes N     episodes per task (default 50)
  --first-seed S   first seed (default 0)
  --perturb FILE   a perturbation JSON file, or a built-in name
  --json           last line: {"tasks": [{"task", "episodes", "successes", "success_rate", "mean_steps", "failed_seeds"}]}`;

const BENCH_HELP = `usage: zetta bench sim [--actions N] [--warmup N] [--task T] [--json]

Steps the embedded simulator on a pick-and-place scene (the scripted expert drives it, so grasps
and contacts are real) and times env.step alone, on one core.
  --actions N   measured control steps (default 4000)
  --warmup N    unmeasured steps first (default 300)
  --task T      the scene (default spatial/left_cube_in_bowl)
  --json        last line: {"actions_per_s", "physics_steps_per_s", "median_us", "p99_us", …}`;

const HELP = `usage: zetta sim <tasks|digest|expert> [flags]

The embedded MuJoCo tabletop suite.
  tasks    list suites, tasks, instructions
  digest   the reset digest of (task, seed, perturbation)
  expert   run the scripted expert and report its success rate
Benchmark: zetta bench sim. zetta sim <subcommand> --help for flags.`;

/** Input mistakes from sim/ are usage errors: a sentence and exit code 2, no stack trace. */
async function asUsage<T>(f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof SimInputError || err instanceof PerturbationError) throw new UsageError(err.message);
    throw err;
  }
}

function requireFlag(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function perturbationFlag(value: string | undefined): Perturbation | undefined {
  return value === undefined ? undefined : resolvePerturbation(value);
}

const tasksCommand: Command = {
  name: 'sim tasks',
  summary: 'list suites and tasks',
  help: TASKS_HELP,
  async run(argv) {
    const { values } = parseFlags(argv, { json: { type: 'boolean', default: false } });
    if (values.help) return printHelp(TASKS_HELP);
    const tasks = listTasks().map((t) => ({
      id: t.id,
      suite: t.suite,
      instruction: t.instruction,
      max_steps: SUITE_MAX_STEPS[t.suite],
      goal: t.goal.map(describePredicate),
      milestones: milestoneNames(t.stages),
    }));
    for (const suite of ['spatial', 'object', 'goal', 'long'] as const) {
      process.stdout.write(`${suite} (max ${SUITE_MAX_STEPS[suite]} steps)\n`);
      for (const t of tasks.filter((x) => x.suite === suite)) {
        process.stdout.write(`  ${t.id.padEnd(42)} ${t.instruction}\n${' '.repeat(45)}goal: ${t.goal.join(' ∧ ')}\n`);
      }
    }
    if (values.json) printJsonLine({ tasks });
    return 0;
  },
};

const digestCommand: Command = {
  name: 'sim digest',
  summary: 'reset digest of (task, seed, perturbation)',
  help: DIGEST_HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      task: { type: 'string' },
      seed: { type: 'string' },
      perturb: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) return printHelp(DIGEST_HELP);
    const task = requireFlag(values.task, 'task');
    const seed = intFlag(requireFlag(values.seed, 'seed'), 'seed', 0, 0);
    const result = await asUsage(async () => {
      const perturbation = perturbationFlag(values.perturb);
      const env = await TabletopEnv.create();
      try {
        return env.resetSync({ task, seed, ...(perturbation ? { perturbation } : {}) });
      } finally {
        env.closeSync();
      }
    });
    if (values.json) printJsonLine({ resetDigest: result.info.resetDigest, task, seed });
    else process.stdout.write(`${result.info.resetDigest}\n`);
    return 0;
  },
};

const expertCommand: Command = {
  name: 'sim expert',
  summary: 'run the scripted expert',
  help: EXPERT_HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      task: { type: 'string' },
      episodes: { type: 'string' },
      'first-seed': { type: 'string' },
      perturb: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) return printHelp(EXPERT_HELP);
    const taskFlag = requireFlag(values.task, 'task');
    const episodes = intFlag(values.episodes, 'episodes', 50, 1);
    const firstSeed = intFlag(values['first-seed'], 'first-seed', 0, 0);
    const summaries = await asUsage(async () => {
      const perturbation = perturbationFlag(values.perturb);
      const ids = taskFlag === 'all' ? listTasks().map((t) => t.id) : [taskFlag];
      const env = await TabletopEnv.create();
      try {
        return ids.map((task) => {
          const bar = progress(`expert ${task}`);
          const s = evaluateExpert(env, { task, episodes, firstSeed, ...(perturbation ? { perturbation } : {}), onEpisode: (_e, i) => bar.update(i + 1, episodes) });
          bar.done();
          const pct = (100 * s.successRate).toFixed(1);
          process.stdout.write(`${task.padEnd(42)} ${s.successes}/${s.episodes} (${pct}%)  mean steps ${s.meanSteps.toFixed(1)}${s.failedSeeds.length ? `  failed seeds ${s.failedSeeds.join(',')}` : ''}\n`);
          return s;
        });
      } finally {
        env.closeSync();
      }
    });
    if (values.json) {
      printJsonLine({
        tasks: summaries.map((s) => ({ task: s.task, episodes: s.episodes, successes: s.successes, success_rate: s.successRate, mean_steps: s.meanSteps, failed_seeds: s.failedSeeds })),
      });
    }
    return 0;
  },
};

const SUBCOMMANDS: Record<string, Command> = { tasks: tasksCommand, digest: digestCommand, expert: expertCommand };

export const simCommand: Command = {
  name: 'sim',
  summary: 'the embedded MuJoCo tabletop suite: tasks, reset digests, the scripted expert',
  help: HELP,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      process.stdout.write(`${HELP}\n`);
      return sub === undefined ? 2 : 0;
    }
    const command = SUBCOMMANDS[sub];
    if (command === undefined) throw new UsageError(`unknown subcommand "${sub}"; one of: ${Object.keys(SUBCOMMANDS).join(', ')}`);
    return command.run(rest);
  },
};

export const benchSimCommand: Command = {
  name: 'bench sim',
  summary: 'embedded simulator: control steps/s and physics steps/s on a pick-and-place scene',
  help: BENCH_HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      actions: { type: 'string' },
      warmup: { type: 'string' },
      task: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) return printHelp(BENCH_HELP);
    const bar = progress('bench sim');
    const r = await asUsage(() =>
      benchSim({
        actions: intFlag(values.actions, 'actions', 4000, 1),
        warmup: intFlag(values.warmup, 'warmup', 300, 0),
        ...(values.task ? { task: values.task } : {}),
        onProgress: (done, total) => bar.update(done, total),
      }),
    );
    bar.done();
    process.stdout.write(
      [
        `${r.task}: ${r.actions} control steps (${r.substeps} physics substeps each) over ${r.episodes} expert episodes`,
        `  per action: median ${r.median_us.toFixed(0)} µs, p99 ${r.p99_us.toFixed(0)} µs`,
        `  ${r.actions_per_s.toFixed(0)} actions/s, ${r.physics_steps_per_s.toFixed(0)} physics steps/s (20 Hz real time is 20 actions/s)`,
      ].join('\n') + '\n',
    );
    if (values.json) printJsonLine(r);
    return 0;
  },
};

function printHelp(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}
