// zetta run says why a stage failed: infrastructure failures with their reasons and counts, in
// report.md and in the stage's result.
import { describe, expect, it } from 'vitest';
import { infraProblems, type BaselineStageResult } from '../../experiments/run/baseline-stage.js';
import { renderMarkdown, type RunReport } from '../../experiments/run/report.js';

describe('a failed zetta run stage', () => {
  it('names the episodes lost to the infrastructure, each reason with its count', () => {
    expect(infraProblems('position-shift', 0, {})).toEqual([]);
    const [line] = infraProblems('position-shift', 3, {
      'PolicyUnavailable: no heartbeat for 3000 ms': 2,
      'DeadlineExceeded: request 7': 1,
    });
    expect(line).toBe(
      'position-shift: 3 episodes lost to the infrastructure after re-runs at the same seed (PolicyUnavailable: no heartbeat for 3000 ms ×2; DeadlineExceeded: request 7 ×1)',
    );
  });

  it('lists the problems in report.md', () => {
    const baseline: BaselineStageResult = {
      policy: 'embedded',
      critic: 'none',
      episodes_per_task: 1,
      ok: false,
      conditions: {
        nominal: {
          tasks: { 'goal/press_button': { success: 0, episodes: 0, infra_failures: 1 } },
          macro_success: Number.NaN,
          unmodified_policy_share: 1,
          unmodified_policy_share_in_successes: Number.NaN,
          successes_without_recovery: 0,
          physics_divergences: 0,
          infra_failures: 1,
          infra_reasons: { 'SimUnavailable: worker died': 1 },
          infra_retries: 2,
          episodes_per_min: 1,
          recoveries: 0,
        },
      },
      problems: infraProblems('nominal', 1, { 'SimUnavailable: worker died': 1 }),
    };
    const report: RunReport = { started: '2026-12-03T00:00:00Z', out: '/tmp/x', stages: { baseline }, ok: false };
    const md = renderMarkdown(report);
    expect(md).toContain('## Problems');
    expect(md).toContain(
      '- baseline: nominal: 1 episode lost to the infrastructure after re-runs at the same seed (SimUnavailable: worker died ×1)',
    );
  });
});
