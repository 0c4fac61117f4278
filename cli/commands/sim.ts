// `zetta sim …`: the embedded simulator from the command line (tasks, reset digests, the scripted
// expert) and `zetta bench sim`. Thin: flags in, sim/ does the work.
import { benchSim, DEFAULT_BENCH_TASK } from '../../bench/sim.js';
import {
  describePredicate,
  evaluateExpert,
  listTasks,
  milestoneNames,
  PerturbationError,
  SimInputError,
  SUITE_MAX_STEPS,
  TabletopEnv,
} from '../../sim/tabletop/index.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { perturb, task, taskOrAll } from '../flags/scene.js';
import { actions, episodes, firstSeed, json, seed, warmup } from '../flags/table.js';
import { progress } from '../progress.js';

const TASKS_FLAGS = {
  json: json.with({ help: 'last line: {"tasks": [{"id", "suite", "instruction", "max_steps", "goal", "milestones"}]}' }),
};

const TASKS_HELP = `usage: zetta sim tasks [--json]

Lists the suites (spatial, object, goal, long), their tasks, instructions, goal predicates and
milestones.
${flagHelp(TASKS_FLAGS)}`;

const DIGEST_FLAGS = {
  task: task.required(),
  seed: seed.with({ help: 'episode seed, an integer ≥ 0' }).required(),
  perturb,
  json: json.with({ help: 'last line: {"resetDigest": "…", "task", "seed"}' }),
};

const DIGEST_HELP = `usage: zetta sim digest --task T --seed S [--perturb FILE|NAME] [--json]

Resets the embedded simulator and prints the episode's reset digest: sha256 of the scene, the
initial state and every sampled perturbation value. The same (task, seed, perturbation) always
gives the same digest.
${flagHelp(DIGEST_FLAGS)}`;

const EXPERT_FLAGS = {
  task: taskOrAll.required(),
  episodes: episodes.default(50),
  firstSeed: firstSeed.with({ help: 'first seed' }).default(0),
  perturb,
  json: json.with({ help: 'last line: {"tasks": [{"task", "episodes", "successes", "success_rate", "mean_steps", "failed_seeds"}]}' }),
};

const EXPERT_HELP = `usage: zetta sim expert --task T [--episodes N] [--first-seed S] [--perturb FILE|NAME] [--json]

Runs the scripted expert (a phase controller that reads privileged state) for N episodes with
seeds S, S+1, … and reports its success rate. Progress goes to stderr on a terminal.
${flagHelp(EXPERT_FLAGS)}`;

const BENCH_FLAGS = {
  actions: actions.default(4000),
  warmup: warmup.with({ help: 'unmeasured steps first' }).default(300),
  task: task.with({ help: 'the scene' }).default(DEFAULT_BENCH_TASK),
  json: json.with({ help: 'last line: {"actions_per_s", "physics_steps_per_s", "median_us", "p99_us", …}' }),
};

const BENCH_HELP = `usage: zetta bench sim [--actions N] [--warmup N] [--task T] [--json]

Steps the embedded simulator on a pick-and-place scene (the scripted expert drives it, so grasps
and contacts are real) and times env.step alone, on one core.
${flagHelp(BENCH_FLAGS)}`;

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

const tasksCommand: Command = {
  name: 'sim tasks',
  summary: 'list suites and tasks',
  help: TASKS_HELP,
  async run(argv) {
    const f = readFlags(argv, TASKS_FLAGS);
    if (f === 'help') return printHelp(TASKS_HELP);
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
    if (f.json) printJsonLine({ tasks });
    return 0;
  },
};

const digestCommand: Command = {
  name: 'sim digest',
  summary: 'reset digest of (task, seed, perturbation)',
  help: DIGEST_HELP,
  async run(argv) {
    const f = readFlags(argv, DIGEST_FLAGS);
    if (f === 'help') return printHelp(DIGEST_HELP);
    const perturbation = f.perturb?.spec;
    const result = await asUsage(async () => {
      const env = await TabletopEnv.create();
      try {
        return env.resetSync({ task: f.task, seed: f.seed, ...(perturbation ? { perturbation } : {}) });
      } finally {
        env.closeSync();
      }
    });
    if (f.json) printJsonLine({ resetDigest: result.info.resetDigest, task: f.task, seed: f.seed });
    else process.stdout.write(`${result.info.resetDigest}\n`);
    return 0;
  },
};

const expertCommand: Command = {
  name: 'sim expert',
  summary: 'run the scripted expert',
  help: EXPERT_HELP,
  async run(argv) {
    const f = readFlags(argv, EXPERT_FLAGS);
    if (f === 'help') return printHelp(EXPERT_HELP);
    const perturbation = f.perturb?.spec;
    const summaries = await asUsage(async () => {
      const ids = f.task === 'all' ? listTasks().map((t) => t.id) : [f.task];
      const env = await TabletopEnv.create();
      try {
        return ids.map((id) => {
          const bar = progress(`expert ${id}`);
          const s = evaluateExpert(env, {
            task: id,
            episodes: f.episodes,
            firstSeed: f.firstSeed,
            ...(perturbation ? { perturbation } : {}),
            onEpisode: (_e, i) => bar.update(i + 1, f.episodes),
          });
          bar.done();
          const pct = (100 * s.successRate).toFixed(1);
          process.stdout.write(
            `${id.padEnd(42)} ${s.successes}/${s.episodes} (${pct}%)  mean steps ${s.meanSteps.toFixed(1)}${s.failedSeeds.length ? `  failed seeds ${s.failedSeeds.join(',')}` : ''}\n`,
          );
          return s;
        });
      } finally {
        env.closeSync();
      }
    });
    if (f.json) {
      printJsonLine({
        tasks: summaries.map((s) => ({
          task: s.task,
          episodes: s.episodes,
          successes: s.successes,
          success_rate: s.successRate,
          mean_steps: s.meanSteps,
          failed_seeds: s.failedSeeds,
        })),
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
    const f = readFlags(argv, BENCH_FLAGS);
    if (f === 'help') return printHelp(BENCH_HELP);
    const bar = progress('bench sim');
    const r = await asUsage(() =>
      benchSim({ actions: f.actions, warmup: f.warmup, task: f.task, onProgress: (done, total) => bar.update(done, total) }),
    );
    bar.done();
    process.stdout.write(
      `${[
        `${r.task}: ${r.actions} control steps (${r.substeps} physics substeps each) over ${r.episodes} expert episodes`,
        `  per action: median ${r.median_us.toFixed(0)} µs, p99 ${r.p99_us.toFixed(0)} µs`,
        `  ${r.actions_per_s.toFixed(0)} actions/s, ${r.physics_steps_per_s.toFixed(0)} physics steps/s (20 Hz real time is 20 actions/s)`,
      ].join('\n')}\n`,
    );
    if (f.json) printJsonLine(r);
    return 0;
  },
};
