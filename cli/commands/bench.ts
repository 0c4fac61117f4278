// `zetta bench <what>`: benchmarks of the hot paths. Each prints medians and p99 and a ratio against
// a baseline measured in the same run; with --json the last line is one JSON object.
import { commandGroup, type SubcommandEntry } from '../command-group.js';

const BENCHES: Record<string, SubcommandEntry> = {
  transport: {
    summary: 'policy round trip: ZeroMQ (Node, Python shim) vs an openpi-style WebSocket',
    load: async () => (await import('./bench-transport.js')).benchTransportCommand,
  },
  infra: {
    summary: 'decision latency: blocking request per action vs the asynchronous pipeline',
    load: async () => (await import('./bench-infra.js')).benchInfraCommand,
  },
  rollout: {
    summary: 'episodes/min: sequential vs the rollout runtime (worker pool + batched inference)',
    load: async () => (await import('./bench-rollout.js')).benchRolloutCommand,
  },
  sim: {
    summary: 'embedded simulator: control steps/s and physics steps/s on a pick-and-place scene',
    load: async () => (await import('./sim.js')).benchSimCommand,
  },
  cluster: {
    summary: 'the job queue: episodes/min with 1, 2, 4 workers vs local, and its cost per episode',
    load: async () => (await import('./bench-cluster.js')).benchClusterCommand,
  },
  critic: {
    summary: 'critic per action: compiled rules vs a naive interpreter, and heap growth',
    load: async () => (await import('./bench-critic.js')).benchCriticCommand,
  },
};

export const benchCommand = commandGroup({
  name: 'bench',
  summary: 'benchmarks of the hot paths (medians, p99, ratio to a baseline)',
  noun: 'benchmark',
  nameWidth: 10,
  entries: BENCHES,
  help: (list) => ['usage: zetta bench <what> [flags]', '', 'benchmarks:', list, '', 'zetta bench <what> --help for its flags.'].join('\n'),
});
