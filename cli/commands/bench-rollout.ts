// `zetta bench rollout`: see bench/rollout.ts.
import { listTasks } from '../../sim/index.js';
import { benchRollout, type RolloutBenchResult } from '../../bench/rollout.js';
import { intFlag, parseFlags, printJsonLine, type Command } from '../command.js';
import { progress } from '../progress.js';

const HELP = `usage: zetta bench rollout [--latency-ms MS] [--sequential-episodes N] [--runtime-episodes N]
                           [--workers K] [--envs-per-worker E] [--execute-steps k] [--json]

Episodes per minute on the embedded goal suite with a policy server that takes a fixed time per
call for any batch up to 32 (a stand-in for a VLA on a GPU), in the same run:
  sequential   one simulator, one request at a time
  runtime      K worker threads × E simulators each, one batching policy server
and the runtime once more with the real ONNX policy and no added latency.

  --latency-ms MS           time per policy call (default 60)
  --sequential-episodes N   (default 5)
  --runtime-episodes N      (default 200)
  --workers K               (default 2)
  --envs-per-worker E       (default 24)
  --execute-steps k         actions executed per chunk before asking again (default 1: every action
                            is a policy call, so the policy, not the simulator, is the bottleneck,
                            as with a VLA on a GPU; 5 is LIBERO's client, where on two cores the
                            simulator's physics, not the policy, caps the runtime's gain)
  --json                    last line: {"sequential_episodes_per_min", "runtime_episodes_per_min",
                            "ratio", "mean_batch_size", "onnx_runtime_episodes_per_min", ...}`;

export const benchRolloutCommand: Command = {
  name: 'bench rollout',
  summary: 'episodes/min: sequential vs the rollout runtime (worker pool + batched inference)',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      'latency-ms': { type: 'string' },
      'sequential-episodes': { type: 'string' },
      'runtime-episodes': { type: 'string' },
      workers: { type: 'string' },
      'envs-per-worker': { type: 'string' },
      'execute-steps': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const bar = progress('bench rollout');
    const r = await benchRollout({
      latencyMs: intFlag(values['latency-ms'], 'latency-ms', 60, 0),
      tasks: listTasks('goal').map((t) => t.id),
      sequentialEpisodes: intFlag(values['sequential-episodes'], 'sequential-episodes', 5, 1),
      runtimeEpisodes: intFlag(values['runtime-episodes'], 'runtime-episodes', 200, 1),
      workers: intFlag(values.workers, 'workers', 2, 1),
      envsPerWorker: intFlag(values['envs-per-worker'], 'envs-per-worker', 24, 1),
      executeSteps: intFlag(values['execute-steps'], 'execute-steps', 1, 1),
      onProgress: (phase, d, t) => bar.update(d, t, phase),
    });
    bar.done();
    process.stdout.write(`${format(r)}\n`);
    if (values.json) printJsonLine(r);
    return 0;
  },
};

function format(r: RolloutBenchResult): string {
  return [
    `policy ${r.policy}, ${r.policy_latency_ms} ms per call (any batch up to 32); goal suite, k = ${r.execute_steps}`,
    `  sequential            ${r.sequential_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (${r.sequential_episodes} episodes)`,
    `  runtime ${r.workers}×${String(r.envs_per_worker).padEnd(12)} ${r.runtime_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (${r.runtime_episodes} episodes, mean batch ${r.mean_batch_size.toFixed(1)})`,
    `  runtime, real ONNX    ${r.onnx_runtime_episodes_per_min.toFixed(1).padStart(8)} episodes/min  (mean batch ${r.onnx_mean_batch_size.toFixed(1)})`,
    `runtime / sequential: ${r.ratio.toFixed(1)}×`,
  ].join('\n');
}
