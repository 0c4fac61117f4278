// `zetta run`: the main job on the embedded default. It runs the most complete pipeline that exists
// and writes a report; each stage's result lands in report.json as soon as the stage ends, so an
// interrupted run keeps what it finished.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeJsonAtomic } from '../../zinfra/atomic-write.js';
import { intFlag, parseFlags, printJsonLine, type Command } from '../command.js';
import { progress } from '../progress.js';
import { runWireStage, type WireStageResult } from '../run/wire-stage.js';

const HELP = `usage: zetta run [--out DIR] [--wire-requests N] [--json]

The main job on the embedded default, end to end, on a CPU:
  1. wire   one policy served by the Node ONNX server and by the Python shim over real ZeroMQ
            sockets; the same LIBERO-sized observations through both; their chunks must agree
Writes DIR/report.json (stage by stage) and prints a summary.

  --out DIR           where the run's artifacts go (default runs/<timestamp>)
  --wire-requests N   observations sent through each policy server (default 200)
  --json              last line of stdout: the report as one JSON object`;

interface Report {
  started: string;
  finished?: string;
  stages: { wire?: WireStageResult };
  ok?: boolean;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run the main job on the embedded default, end to end, with a report',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      out: { type: 'string' },
      'wire-requests': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const started = new Date();
    const out = resolve(values.out ?? join('runs', started.toISOString().replace(/[:.]/g, '-')));
    mkdirSync(out, { recursive: true });
    const reportPath = join(out, 'report.json');
    const report: Report = { started: started.toISOString(), stages: {} };
    const say = (line: string) => process.stderr.write(`${line}\n`);

    say(`zetta run → ${out}`);
    const bar = progress('  wire');
    report.stages.wire = await runWireStage(out, intFlag(values['wire-requests'], 'wire-requests', 200, 1), (d, t) => bar.update(d, t));
    bar.done();
    say(describeWire(report.stages.wire));
    writeJsonAtomic(reportPath, report);

    report.finished = new Date().toISOString();
    report.ok = Object.values(report.stages).every((s) => s.ok);
    writeJsonAtomic(reportPath, report);
    say(`${report.ok ? 'ok' : 'FAILED'}: report at ${reportPath}`);
    if (values.json) printJsonLine(report);
    return report.ok ? 0 : 1;
  },
};

function describeWire(w: WireStageResult): string {
  const py = 'skipped' in w.python
    ? `python shim skipped (${w.python.skipped})`
    : `python shim p50 ${w.python.p50_ms.toFixed(2)} ms, p99 ${w.python.p99_ms.toFixed(2)} ms, max |Δ| vs node ${w.python.max_abs_diff_vs_node.toExponential(1)}`;
  return `  wire: ${w.policy.policyId} chunk ${w.policy.actionHorizon}×${w.policy.actionDim}; node p50 ${w.node.p50_ms.toFixed(2)} ms, p99 ${w.node.p99_ms.toFixed(2)} ms; ${py} ${w.ok ? '✓' : '✗'}`;
}
