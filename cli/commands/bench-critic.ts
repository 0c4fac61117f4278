// `zetta bench critic`: see bench/critic.ts.
import { benchCritic, type CriticBenchResult } from '../../bench/critic.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { batch, frames, heapSteps, iterations, json, rules, seed } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  rules: rules.with({ help: 'rules in the set; every operator appears' }).default(64),
  frames: frames.default(4096),
  iterations: iterations.with({ help: 'timed samples per implementation' }).default(20_000, '20000'),
  heapSteps: heapSteps.default(1_000_000, '1000000'),
  batch: batch.default(0, "1 unless one is near the timer's resolution"),
  seed: seed.with({ metavar: 'N', help: 'workload seed' }).default(1),
  json: json.with({
    help: 'last line: {"rules", "p50_us", "p99_us", "baseline_p50_us", "ratio_p50",\n"heap_growth_bytes", "gc_events_during_check", "agree", "targets", ...}',
  }),
};

const HELP = `usage: zetta bench critic [--rules N] [--frames N] [--iterations N] [--heap-steps N] [--batch N] [--seed N] [--json]

Per-action latency of the compiled critic (rules compiled once into closures over feature slots)
against a straightforward interpreter of the same rules (walks the JSON rule tree each step and
looks every feature up by name in a plain object), in the same run, over the same recorded frames
(synthesized from --seed by the real FrameBuilder). The two must fire the same rules on every frame.
Then an allocation check: the whole per-step critic path (fill → evaluate → decide → enforce →
commit) for --heap-steps steps, with heap growth after a forced gc and the count of gcs during it.

${flagHelp(FLAGS)}

Targets: ratio_p50 ≥ 10, p99_us ≤ 50, no heap growth.`;

export const benchCriticCommand: Command = {
  name: 'bench critic',
  summary: 'critic per-action latency: compiled rules vs a naive interpreter; heap growth',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const bar = progress('bench critic');
    const result = await benchCritic({
      rules: f.rules,
      frames: f.frames,
      iterations: f.iterations,
      heapSteps: f.heapSteps,
      batch: f.batch,
      seed: f.seed,
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.done();
    process.stdout.write(`${formatTable(result)}\n`);
    if (f.json) printJsonLine(result);
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
