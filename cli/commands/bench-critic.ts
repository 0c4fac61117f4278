// `zetta bench critic`: see bench/critic.ts.
import { intFlag, parseFlags, printJsonLine, type Command } from '../command.js';
import { progress } from '../progress.js';
import { benchCritic, type CriticBenchResult } from '../../bench/critic.js';

const HELP = `usage: zetta bench critic [--rules N] [--frames N] [--iterations N] [--heap-steps N] [--batch N] [--seed N] [--json]

Per-action latency of the compiled critic (rules compiled once into closures over feature slots)
against a straightforward interpreter of the same rules (walks the JSON rule tree each step and
looks every feature up by name in a plain object), in the same run, over the same recorded frames
(synthesized from --seed by the real FrameBuilder). The two must fire the same rules on every frame.
Then an allocation check: the whole per-step critic path (fill → evaluate → decide → enforce →
commit) for --heap-steps steps, with heap growth after a forced gc and the count of gcs during it.

  --rules N        rules in the set (default 64; every operator appears)
  --frames N       recorded frames (default 4096)
  --iterations N   timed samples per implementation (default 20000)
  --heap-steps N   steps of the allocation check (default 1000000)
  --batch N        evaluations per timed sample (default: 1 unless one is near the timer's resolution)
  --seed N         workload seed (default 1)
  --json           last line: {"rules", "p50_us", "p99_us", "baseline_p50_us", "ratio_p50",
                   "heap_growth_bytes", "gc_events_during_check", "agree", "targets", ...}

Targets: ratio_p50 ≥ 10, p99_us ≤ 50, no heap growth.`;

export const benchCriticCommand: Command = {
  name: 'bench critic',
  summary: 'critic per-action latency: compiled rules vs a naive interpreter; heap growth',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      rules: { type: 'string' },
      frames: { type: 'string' },
      iterations: { type: 'string' },
      'heap-steps': { type: 'string' },
      batch: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const bar = progress('bench critic');
    const result = await benchCritic({
      rules: intFlag(values.rules, 'rules', 64, 1),
      frames: intFlag(values.frames, 'frames', 4096, 16),
      iterations: intFlag(values.iterations, 'iterations', 20_000, 1),
      heapSteps: intFlag(values['heap-steps'], 'heap-steps', 1_000_000, 0),
      batch: intFlag(values.batch, 'batch', 0, 0),
      seed: intFlag(values.seed, 'seed', 1, 0),
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.done();
    process.stdout.write(`${formatTable(result)}\n`);
    if (values.json) printJsonLine(result);
    return 0;
  },
};

function formatTable(r: CriticBenchResult): string {
  const row = (name: string, p50: number, p90: number, p99: number) =>
    `  ${name.padEnd(10)} ${p50.toFixed(2).padStart(9)} ${p90.toFixed(2).padStart(9)} ${p99.toFixed(2).padStart(9)}`;
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return [
    `${r.rules} rules over ${r.frames} recorded frames, ${r.iterations} samples each; ${r.timing}`,
    `  ${'critic'.padEnd(10)} ${'p50 µs'.padStart(9)} ${'p90 µs'.padStart(9)} ${'p99 µs'.padStart(9)}`,
    row('compiled', r.p50_us, r.p90_us, r.p99_us),
    row('naive', r.baseline_p50_us, r.baseline_p90_us, r.baseline_p99_us),
    `naive / compiled at p50: ${r.ratio_p50}× (target ≥ 10: ${mark(r.targets.ratio_p50_ge_10)}); p99 ${r.p99_us} µs (target ≤ 50: ${mark(r.targets.p99_us_le_50)})`,
    `same rules fired on every frame: ${r.agree ? 'yes' : `NO (${r.disagreements} frames differ)`}; ${r.fired_per_step} proposals per step`,
    `heap: ${r.heap_check}: growth ${r.heap_growth_bytes} bytes (gc ${r.heap_gc}), ${r.gc_events_during_check} gcs during the loop (target no growth: ${mark(r.targets.no_heap_growth)})`,
  ].join('\n');
}
