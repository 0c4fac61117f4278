// `zetta bench cluster`: see bench/cluster.ts.
import { benchCluster, type ClusterBenchResult } from '../../bench/cluster.js';
import { listTasks } from '../../sim/tabletop/index.js';
import { printJsonLine, type Command } from '../command.js';
import { int } from '../flags/flag.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { queue, withQueueErrors } from '../flags/queue.js';
import { readFlags } from '../flags/read.js';
import { perturb } from '../flags/scene.js';
import { episodes, executeSteps, json } from '../flags/table.js';
import { progress } from '../progress.js';

const WORKER_COUNTS = [1, 2, 4];

const FLAGS = {
  queue: queue.with({ help: 'the Redis to measure (default: a redis-server of its own on loopback)' }),
  episodes: episodes.with({ help: 'episodes per measured run (the goal suite, nominal)' }).default(50),
  rounds: int('rounds', { metavar: 'N', min: 1, help: 'rounds; each runs local, then the queue with 1, 2 and 4 workers' }).default(3),
  executeSteps: executeSteps.default(5),
  perturb: perturb.with({
    help: 'a perturbation for the episodes (default nominal: the base policy solves\nmost tasks in about 30 steps, the worst case for a cost per episode)',
  }),
  json: json.with({
    help: 'last line: {"local_episodes_per_min", "queue_episodes_per_min": {"1", "2", "4"},\n"overhead_at_1_worker", "coordinator_enqueue_ms", "coordinator_result_ms",\n"coordinator_recording_ms", "coordinator_cpu_ms", "recording_bytes", "redis_command_us",\n"redis_calls", "redis_memory_bytes", ...} (per episode)',
  }),
};

const HELP = `usage: zetta bench cluster [--queue redis://HOST:PORT] [--episodes N] [--rounds N] [--execute-steps k]
                           [--perturb FILE|NAME] [--json]

Episodes per minute of the same evaluation (embedded policy, default critic, goal suite, recorded),
round after round in the same run: in this process (local), and through a Redis queue with 1, 2 and
4 \`zetta worker\` processes on this machine; the queue's overhead at one worker against local; and
per episode what the coordinator spends (enqueue, result, recording; wall and CPU) and what Redis
spends (command time, calls, memory of a kept result). Medians over the rounds. Needs the built
package and Debian's redis-server (unless --queue names one).

${flagHelp(FLAGS)}`;

export const benchClusterCommand: Command = withQueueErrors({
  name: 'bench cluster',
  summary: 'the job queue: episodes/min with 1, 2, 4 workers vs local, and its cost per episode',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const bar = progress('bench cluster');
    const r = await benchCluster({
      queue: f.queue,
      tasks: listTasks('goal').map((t) => t.id),
      episodes: f.episodes,
      rounds: f.rounds,
      workerCounts: WORKER_COUNTS,
      executeSteps: f.executeSteps,
      perturbation: f.perturb?.spec,
      onProgress: (phase, d, t) => bar.update(d, t, phase),
    });
    bar.done();
    process.stdout.write(`${format(r)}\n`);
    if (f.json) printJsonLine(r);
    return 0;
  },
});

function format(r: ClusterBenchResult): string {
  const rate = (x: number | undefined) => (x ?? Number.NaN).toFixed(1).padStart(8);
  const workers = Object.entries(r.queue_episodes_per_min).map(
    ([k, v]) =>
      `  queue, ${k} worker${k === '1' ? ' ' : 's'}     ${rate(v)} episodes/min  (${(v / r.local_episodes_per_min).toFixed(2)}× local)`,
  );
  return [
    `goal suite, embedded policy, default critic, recorded; ${r.episodes} episodes per run (${r.steps_per_episode.toFixed(0)} steps each on average), median of ${r.rounds} rounds`,
    `  local (this process)  ${rate(r.local_episodes_per_min)} episodes/min`,
    ...workers,
    `queue overhead at 1 worker: ${(100 * r.overhead_at_1_worker).toFixed(1)}% of local episodes/min`,
    'per episode:',
    `  coordinator: enqueue ${r.coordinator_enqueue_ms.toFixed(3)} ms, result ${r.coordinator_result_ms.toFixed(2)} ms, recording ${r.coordinator_recording_ms.toFixed(2)} ms (${(r.recording_bytes / 1024).toFixed(0)} KiB); CPU ${r.coordinator_cpu_ms.toFixed(2)} ms`,
    `  redis: ${r.redis_command_us.toFixed(0)} µs in commands over ${r.redis_calls.toFixed(0)} calls; ${(r.redis_memory_bytes / 1024).toFixed(1)} KiB kept per result`,
    `  queue retries: ${r.queue_retries}`,
  ].join('\n');
}
