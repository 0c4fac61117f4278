// The `zetta` command: a thin dispatcher. Subcommands load lazily so `zetta --help` stays instant.
import type { Command } from './command.js';
import { reportFailure } from './failure.js';
import { progressPeriodMs } from './progress-period.js';

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  run: {
    summary: 'run the main job on the embedded default, end to end, with a report',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  eval: {
    summary: 'success rate of a policy on the embedded suite, per task with Wilson intervals',
    load: async () => (await import('./commands/eval.js')).evalCommand,
  },
  evolve: {
    summary: 'an evolution campaign: cluster failures, diagnose, synthesize and gate a critic bundle',
    load: async () => (await import('./commands/evolve.js')).evolveCommand,
  },
  skills: {
    summary: 'the skill library: add a campaign’s promotion, list, show, approve, reject, retire, transfer',
    load: async () => (await import('./commands/skills.js')).skillsCommand,
  },
  console: {
    summary: 'the operator console in a browser: runs, campaigns, episodes, and skill approval',
    load: async () => (await import('./commands/console.js')).consoleCommand,
  },
  'serve-policy': {
    summary: 'serve a policy (ONNX) over ZeroMQ',
    load: async () => (await import('./commands/serve-policy.js')).servePolicyCommand,
  },
  worker: {
    summary: 'take episode jobs from a Redis queue (BullMQ) and run them',
    load: async () => (await import('./commands/worker.js')).workerCommand,
  },
  ros2: {
    summary: 'run Zetta as a ROS 2 node between a policy server and a robot',
    load: async () => (await import('./commands/ros2.js')).ros2Command,
  },
  'sim-robot': {
    summary: 'run the embedded tabletop as a ROS 2 robot (a simulated arm for zetta ros2)',
    load: async () => (await import('./commands/sim-robot.js')).simRobotCommand,
  },
  bench: {
    summary: 'benchmarks of the hot paths (medians, p99, ratio to a baseline)',
    load: async () => (await import('./commands/bench.js')).benchCommand,
  },
  sim: {
    summary: 'the embedded MuJoCo tabletop suite: tasks, reset digests, the scripted expert',
    load: async () => (await import('./commands/sim.js')).simCommand,
  },
  demos: {
    summary: 'record scripted-expert demonstrations (nominal scenes) for the embedded base policy',
    load: async () => (await import('./commands/demos.js')).demosCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: zetta <command> [flags]',
    '',
    'Governs a frozen VLA policy with a code-level runtime critic.',
    '',
    'commands:',
    ...lines,
    '',
    'Every command takes --help; with --json its last line of stdout is one JSON object;',
    'with --verbose a failure shows its stack trace.',
  ].join('\n');
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`zetta: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest[0] === '--help' || rest[0] === '-h') {
    process.stdout.write(`${command.help}\n`);
    return 0;
  }
  // --verbose is global: stack traces for any failure, whatever the subcommand.
  const verbose = rest.includes('--verbose');
  try {
    progressPeriodMs(); // a bad ZETTA_PROGRESS_MS is refused before any work, not when the first progress starts
    return await command.run(rest.filter((a) => a !== '--verbose'));
  } catch (err) {
    return reportFailure(name, err, verbose, (s) => process.stderr.write(s));
  }
}
