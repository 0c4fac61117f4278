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
      '  evolution (a campaign on each of the weakest tasks, under its weakest perturbation with the critic)',
      '    generation 1: 2 candidates',
      '  baseline  skipped (models/embedded.onnx missing)',
    ]);
  });

  it('gives one line per campaign, and names every skill waiting for an approver', () => {
    const lines: string[] = [];
    const o = terminalObserver((line) => lines.push(line));
    const heldout = { parent_success: 10, candidate_success: 18, episodes: 20 };
    const campaign = (task: string, promoted: boolean) => ({
      task,
      perturbation: 'disturbance',
      parent_rate: 0.5,
      learning_curve: [],
      ok: true,
      campaign: {
        promoted,
        heldout,
        confirmation: promoted ? { parent_success: 12, candidate_success: 14, episodes: 20, p_value: 0.25 } : null,
      },
    });
    const withCampaigns = {
      ...report,
      stages: {
        ...report.stages,
        evolution: { campaigns: [campaign('spatial/a', true), campaign('object/b', false)], in_parallel: 1, ok: true },
      },
    } as unknown as RunReport;
    o.stageFinished!('evolution', withCampaigns);
    o.awaitingApproval!({ skills: ['s1', 's2'], console: 'zetta console --db x.db', resume: 'zetta run --resume /tmp/run' });
    expect(lines).toEqual([
      '  evolution spatial/a / disturbance: promoted, held-out 10 → 18 of 20; confirmation 12 → 14 of 20 (p = 0.250)',
      '  evolution object/b / disturbance: nothing promoted',
      '  promotion skills s1, s2 are pending: an approver decides in the console,',
      '    zetta console --db x.db',
      '  then the run goes on with',
      '    zetta run --resume /tmp/run',
    ]);
  });

  it('ends with each problem and the verdict', () => {
    expect(closingLines(report, '/tmp/run/report.md')).toEqual(['  problem: nominal: 1 episode lost', 'FAILED: /tmp/run/report.md']);
  });
});
