// A run's report.json read back with the reader beside its writer: the governance arms (NaN written
// as null), the evolution stage's campaigns (and a report from before several campaigns per run,
// read as a list of one), the other stages passed over unread; and a file that is not a run report
// refused with an ArtifactFormatError naming the field.
import { describe, expect, it } from 'vitest';
import { ArtifactFormatError } from '../../evolution/campaign/artifact-format.js';
import { parseRunReport } from '../../experiments/run/run-report-reader.js';

const est = (value: number) => ({ value, low: value - 0.1, high: value + 0.1 });
const campaignRun = {
  task: 'spatial/a',
  perturbation: 'position-shift',
  parent_rate: 0.2,
  campaign: { campaign_id: 'abcdef012345', promoted: true },
  learning_curve: [],
  ok: true,
};

/** A report as saveReport writes it (JSON.stringify turns NaN into null), trimmed to what matters here. */
function reportText(evolution: unknown = { campaigns: [campaignRun], in_parallel: 1, ok: true }): string {
  const arms = {
    tasks: ['spatial/a'],
    perturbation: 'position-shift',
    policy: 'embedded',
    critic: 'default',
    criticHash: 'h',
    perTask: {
      'spatial/a': { policy: est(0.2), critic: { ...est(0), control: 'null:open' }, both: est(0.7), synergy: est(0.5), controls: {} },
    },
    macro: { policy: est(0.2), critic: est(0), both: est(0.7), synergy: { value: Number.NaN, low: Number.NaN, high: Number.NaN } },
  };
  return JSON.stringify({
    started: '2026-12-01T00:00:00.000Z',
    finished: '2026-12-01T01:00:00.000Z',
    out: '/somewhere/run1',
    ok: true,
    settings: { campaigns: 1 },
    stages: {
      baseline: { anything: ['the reader passes this stage over'] },
      governance: {
        policy: 'embedded',
        critic: 'default',
        episodes_per_task: 10,
        mean_synergy: Number.NaN,
        conditions: { 'position-shift': arms },
        problems: [],
        ok: true,
      },
      evolution,
    },
  });
}

describe('the run report reader', () => {
  it('reads the envelope, the governance arms with NaN as null, and the evolution campaigns', () => {
    const r = parseRunReport(reportText());
    expect(r).toMatchObject({
      started: '2026-12-01T00:00:00.000Z',
      finished: '2026-12-01T01:00:00.000Z',
      out: '/somewhere/run1',
      ok: true,
    });
    const g = r.stages.governance!;
    expect(g.mean_synergy).toBeNull();
    expect(g.conditions['position-shift']!.macro.synergy).toEqual({ value: null, low: null, high: null });
    expect(g.conditions['position-shift']!.perTask['spatial/a']!.critic).toMatchObject({ value: 0, control: 'null:open' });
    expect(r.stages.evolution!.campaigns.map((c) => c.campaign.campaign_id)).toEqual(['abcdef012345']);
  });

  it('reads a report with its one campaign at the top of the evolution stage as a list of one', () => {
    const r = parseRunReport(reportText(campaignRun));
    expect(r.stages.evolution).toMatchObject({
      campaigns: [{ task: 'spatial/a', campaign: { campaign_id: 'abcdef012345' } }],
      in_parallel: 1,
      ok: true,
    });
  });

  it('reads a run still in its first stages (no governance or evolution yet)', () => {
    const r = parseRunReport(JSON.stringify({ started: '2026-12-01T00:00:00.000Z', out: '/x', stages: {} }));
    expect(r.stages).toEqual({});
    expect(r.finished).toBeUndefined();
  });

  it('refuses a file that is not a run report, naming the file and the field', () => {
    const noControl = JSON.parse(reportText()) as {
      stages: { governance: { conditions: Record<string, { perTask: Record<string, { critic: Record<string, unknown> }> }> } };
    };
    delete noControl.stages.governance.conditions['position-shift']!.perTask['spatial/a']!.critic.control;
    expect(() => parseRunReport(JSON.stringify(noControl), 'run1/report.json')).toThrow(
      /^run1\/report\.json is not a run report: stages\.governance\.conditions\.position-shift\.perTask\.spatial\/a\.critic\.control: /,
    );
    expect(() => parseRunReport(reportText({ campaigns: [{ ...campaignRun, campaign: {} }], in_parallel: 1, ok: true }))).toThrow(
      /stages\.evolution\.campaigns\.0\.campaign\.campaign_id: /,
    );
    expect(() => parseRunReport('not json')).toThrow(ArtifactFormatError);
    expect(() => parseRunReport(JSON.stringify({ out: '/x', stages: {} }))).toThrow(/report\.json is not a run report: started: /);
  });
});
