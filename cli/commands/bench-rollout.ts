// `zetta bench rollout`: see bench/rollout.ts.
import { listTasks } from '../../sim/tabletop/index.js';
import { benchRollout, defaultEnvsPerWorker, type RolloutBenchResult } from '../../bench/rollout.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { envsPerWorker, executeSteps, json, latencyMs, runtimeEpisodes, sequentialEpisodes, workers } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  latencyMs: latencyMs.with({ help: 'time per policy call' }).default(60),
  sequentialEpisodes: sequentialEpisodes.default(5),
  runtimeEpisodes: runtimeEpisodes
    .with({
      help: [
        'episodes of the runtime arm: enough that the run is mostly the runtime at',
        'work, not its start and its end (an episode that runs to its 300-step',
        'limit takes 18 s of calls one after another: 60% of a 200-episode run)',
      ].join('\n'),
    })
    .default(1000),
  workers: workers.default(2),
  envsPerWorker: envsPerWorker.with({
    help: 'simulators stepping concurrently in each worker (default: two full\nbatches across the workers, 64 / K, so one batch steps while the other\nis in the policy)',
  }),
  executeSteps: executeSteps
    .with({
      help: [
        'actions executed per chunk before asking again: at 1 every action',
        'is a policy call, so the policy, not the simulator, is the bottleneck,',
        "as with a VLA on a GPU; 5 is LIBERO's client, where on two cores the",
        "simulator's physics, not the policy, caps the runtime's gain",
      ].join('\n'),
    })
    .default(1),
  json: json.with({
    help: 'last line: {"sequential_episodes_per_min", "runtime_episodes_per_min", "ratio",\n"mean_batch_size", "runtime_actions_per_s", "actions_ratio", "policy_limit_actions_per_s",\n"physics_limit_actions_per_s", "fraction_of_limit", "workload_bound_s",\n"fraction_of_workload_bound", "onnx_runtime_episodes_per_min", ...}',
  }),
};

const HELP = `usage: zetta bench rollout [--latency-ms MS] [--sequential-episodes N] [--runtime-episodes N]
                           [--workers K] [--envs-per-worker E] [--execute-steps k] [--json]

Episodes per minute on the embedded goal suite with a policy server that takes a fixed time per
call for any batch up to 32 (a stand-in for a VLA on a GPU), in the same run:
  sequential   one simulator, one request at a time
  runtime      K worker threads × E simulators each, one batching policy server
and the runtime once more with the real ONNX policy and no added latency. Beside episodes/min it
reports actions/s (which does not move with episode length), the two limits measured in the same
run — the policy's (max batch / latency) and the physics' (zetta bench sim actions/s on one core ×
the cores the workers use) — and the runtime's fraction of the lower one; and the workload's own
bound: no runtime finishes before its longest episode's policy calls have run one after another.
The runtime hands episodes out longest expected first (every task tried, then the task whose
finished episodes ran longest), so a long one does not start last.

${flagHelp(FLAGS)}`;

export const benchRolloutCommand: Command = {
  name: 'bench rollout',
  summary: 'episodes/min: sequential vs the rollout runtime (worker pool + batched inference)',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const bar = progress('bench rollout');
    const r = await benchRollout({
      latencyMs: f.latencyMs,
      tasks: listTasks('goal').map((t) => t.id),
      sequentialEpisodes: f.sequentialEpisodes,
      runtimeEpisodes: f.runtimeEpisodes,
      workers: f.workers,
      envsPerWorker: f.envsPerWorker ?? defaultEnvsPerWorker(f.workers),
      executeSteps: f.executeSteps,
      onProgress: (phase, d, t) => bar.update(d, t, phase),
    });
    bar.done();
    process.stdout.write(`${format(r)}\n`);
    if (f.json) printJsonLine(r);
    return 0;
  },
};

function format(r: RolloutBenchResult): string {
  return [
    `policy ${r.policy}, ${r.policy_latency_ms} ms per call (any batch up to 32); goal suite, k = ${r.execute_steps}`,
    `  sequential            ${r.sequential_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (${r.sequential_episodes} episodes)`,
    `  runtime ${r.workers}×${String(r.envs_per_worker).padEnd(12)} ${r.runtime_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (${r.runtime_episodes} episodes, mean batch ${r.mean_batch_size.toFixed(1)})`,
    `  runtime, real ONNX    ${r.onnx_runtime_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (mean batch ${r.onnx_mean_batch_size.toFixed(1)})`,
    `runtime / sequential: ${r.ratio.toFixed(1)}× in episodes/min, ${r.actions_ratio.toFixed(1)}× in actions/s (${r.sequential_actions_per_s.toFixed(1)} → ${r.runtime_actions_per_s.toFixed(1)})`,
    `limits: policy ${r.policy_limit_actions_per_s.toFixed(0)} actions/s (32 per call), physics ${r.physics_limit_actions_per_s.toFixed(0)} actions/s; the runtime is at ${(100 * r.fraction_of_limit).toFixed(0)}% of the lower`,
    r.saturated_actions_per_s === null
      ? ''
      : `  while every simulator had an episode to run: ${r.saturated_actions_per_s.toFixed(1)} actions/s, ${(100 * r.saturated_fraction_of_limit!).toFixed(0)}% of the lower limit (the tail after the last episode started is left out)`,
    `workload bound: ${r.workload_bound_s.toFixed(1)} s (the longest episode's ${r.longest_episode_calls} calls × ${r.policy_latency_ms} ms, or every action at the lower limit); the runtime took ${(r.workload_bound_s / r.fraction_of_workload_bound).toFixed(1)} s, ${(100 * r.fraction_of_workload_bound).toFixed(0)}% of the bound`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}
