// How `zetta run` tells a run on stderr: the lines its terminal observer says for the experiment's
// events, and the closing lines.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../experiments/run/index.js';
import { closingLines, terminalObserver } from '../../cli/run/terminal.js';

const report = {
  started: '2026-12-03T00:00:00Z',
  out: '/tmp/run',
  stages: {
    wire: { ok: true },
    expert: { macro_success: 0.975, ok: true },
    baseline: { conditions: { nominal: { macro_success: 0.5 } }, problems: ['nominal: 1 episode lost'], ok: false },
  },
  ok: false,
} as unknown as RunReport;

describe('the terminal of zetta run', () => {
  it('says where the run goes, each stage with its figures, skips and campaign lines', () => {
    const lines: string[] = [];
    const o = terminalObserver((line) => lines.push(line));
    o.runStarted!('/tmp/run');
    for (const stage of ['wire', 'expert', 'baseline'] as const) {
      o.stageStarted!(stage);
      o.stageFinished!(stage, report);
    }
    o.stageStarted!('evolution');
    o.log!('evolution', 'generation 1: 2 candidates');
    o.stageSkipped!('baseline', 'models/embedded.onnx missing');
    expect(lines).toEqual([
      'zetta run → /tmp/run',
      '  wire      ok',
      '  expert    macro success 97.5%',
      '  baseline  nominal         macro success 50.0%',
      '  evolution (one campaign on the weakest task and perturbation under the critic)',
      '    generation 1: 2 candidates',
      '  baseline  skipped (models/embedded.onnx missing)',
    ]);
  });

  it('ends with each problem and the verdict', () => {
    expect(closingLines(report, '/tmp/run/report.md')).toEqual(['  problem: nominal: 1 episode lost', 'FAILED: /tmp/run/report.md']);
  });
});
