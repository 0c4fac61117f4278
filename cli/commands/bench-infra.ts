// `zetta bench infra`: see bench/infra.ts.
import { benchInfra, type InfraBenchResult } from '../../bench/infra.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { task } from '../flags/scene.js';
import { episodes, json, latencyMs, steps } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  latencyMs: latencyMs.with({ min: 1 }).default(60),
  episodes: episodes.with({ help: 'episodes per arm' }).default(5),
  steps: steps.default(100, '100; the zetta arm runs in real time: 5 s per 100'),
  task: task.with({ help: 'the task' }).default('goal/lift_red_cube'),
  json: json.with({ help: 'last line: {"policy_latency_ms", "sync_ms_per_action", "zetta_ms_per_action",\n"ratio", "late_chunks", ...}' }),
};

const HELP = `usage: zetta bench infra [--latency-ms MS] [--episodes N] [--steps N] [--task T] [--json]

A policy server whose every call takes a fixed time (a stand-in for a VLA on a GPU) drives the
embedded suite over ZeroMQ, twice in the same run:
  sync    one blocking request per action (an LLM-per-decision agent harness)
  zetta   the asynchronous pipeline at 20 Hz: the next chunk is requested while the current one
          executes; a step with nothing ready holds, and is counted as a full period of waiting
Reports the wait per action of each (median, p99, mean) and their ratio.

${flagHelp(FLAGS)}`;

export const benchInfraCommand: Command = {
  name: 'bench infra',
  summary: 'decision latency: blocking request per action vs the asynchronous pipeline',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const bar = progress('bench infra');
    const r = await benchInfra({
      latencyMs: f.latencyMs,
      episodes: f.episodes,
      steps: f.steps,
      task: f.task,
      onProgress: (d, t) => bar.update(d, t),
    });
    bar.done();
    process.stdout.write(`${format(r)}\n`);
    if (f.json) printJsonLine(r);
    return 0;
  },
};

function format(r: InfraBenchResult): string {
  const row = (name: string, mean: number, s: InfraBenchResult['sync_wait_ms']) =>
    `  ${name.padEnd(6)} ${s.p50.toFixed(2).padStart(9)} ${s.p99.toFixed(2).padStart(9)} ${mean.toFixed(2).padStart(9)}`;
  return [
    `policy ${r.policy}, ${r.policy_latency_ms} ms per call; ${r.steps_per_arm} actions per arm`,
    `  ${'arm'.padEnd(6)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'mean ms'.padStart(9)}   (wait per action)`,
    row('sync', r.sync_ms_per_action, r.sync_wait_ms),
    row('zetta', r.zetta_ms_per_action, r.zetta_wait_ms),
    `sync / zetta: ${r.ratio.toFixed(1)}×; zetta held ${r.zetta_holds} steps, ${r.late_chunks} late chunks`,
  ].join('\n');
}
