// The figures `zetta run --json` ends with, and report.html: macros are means over the perturbed
// conditions; the final system is the run with the skills when one ran, else the default critic;
// the policy's share pools every successful step; the page carries its charts inline.
import { describe, expect, it } from 'vitest';
import { headline } from '../../experiments/run/headline.js';
import { renderRunHtml } from '../../experiments/run/report-html.js';
import type { GovernanceStageResult } from '../../experiments/run/governance-stage.js';
import type { RunReport } from '../../experiments/run/report.js';
import type { GovernanceArms } from '../../measure/governance-arms.js';

const est = (value: number) => ({ value, low: Math.max(0, value - 0.1), high: Math.min(1, value + 0.1) });

/** One condition's arms, with only what the headline and the page read. */
function arms(policy: number, critic: number, both: number, successSteps: number, policySteps: number, seeds = [1000]): GovernanceArms {
  const task = {
    policy: est(policy),
    critic: { ...est(critic), control: 'null:open' },
    both: est(both),
    synergy: est(both - Math.max(policy, critic)),
    controls: {},
  };
  return {
    tasks: ['spatial/a'],
    seeds,
    perturbation: 'p',
    policy: 'embedded',
    critic: 'default',
    criticHash: 'h',
    controls: {},
    bootstrap: { resamples: 1, seed: 1, confidence: 0.95 },
    perTask: { 'spatial/a': task },
    macro: { policy: est(policy), critic: est(critic), both: est(both), synergy: est(both - Math.max(policy, critic)) },
    arms: { both: { attribution: { successSteps, successUnmodifiedPolicyActions: policySteps } } },
  } as unknown as GovernanceArms;
}

function stage(conditions: Record<string, GovernanceArms>): GovernanceStageResult {
  const arms = Object.values(conditions);
  const meanSynergy = arms.reduce((sum, a) => sum + a.macro.synergy.value, 0) / arms.length; // as the stage computes it
  return {
    policy: 'embedded',
    critic: 'default',
    episodes_per_task: 1,
    conditions,
    mean_synergy: meanSynergy,
    infra_failures: 0,
    infra_retries: 0,
    interventions: { x: { hand_blocked: 3 } },
    both_by_seed: {},
    problems: [],
    ok: true,
  };
}

describe('the headline of a run', () => {
  const governance = stage({ shift: arms(0.2, 0.0, 0.5, 100, 80), noise: arms(0.4, 0.1, 0.6, 50, 20) });
  const base: RunReport = { started: 's', out: '/tmp/run', stages: { governance } };

  it('without skills, the final system is the default critic', () => {
    const h = headline(base, '/tmp/run/report.html')!;
    expect(h.baseline_macro).toBeCloseTo(0.3);
    expect(h.critic_alone_macro).toBeCloseTo(0.05);
    expect(h.critic_macro).toBeCloseTo(0.55);
    expect(h.final_macro).toBeCloseTo(0.55);
    expect(h.synergy).toBeCloseTo(0.25);
    expect(h.policy_action_share).toBeCloseTo(100 / 150);
    expect(h.transfer).toEqual({});
  });

  it('with skills, final and synergy come from the run with them, transfer from the final stage', () => {
    const after = stage({ shift: arms(0.2, 0.0, 0.9, 10, 10), noise: arms(0.4, 0.1, 0.7, 10, 0) });
    const transfer = { 'spatial/b': { before: 0.25, after: 0.5, skills: ['s1'], conditions: {} } };
    const r: RunReport = {
      ...base,
      stages: { governance, final: { active_skills: ['s1'], governance: after, transfer, problems: [], ok: true } },
    };
    const h = headline(r, 'x')!;
    expect(h.critic_macro).toBeCloseTo(0.55);
    expect(h.final_macro).toBeCloseTo(0.8);
    expect(h.synergy).toBeCloseTo((0.7 + 0.3) / 2);
    expect(h.policy_action_share).toBeCloseTo(0.5);
    expect(h.transfer).toEqual({ 'spatial/b': { before: 0.25, after: 0.5 } });
  });

  it('from scratch, the final system is what evolution promoted, beside the hand-written default', () => {
    const settings = { fromScratch: true } as RunReport['settings'];
    const evolved = stage({ shift: arms(0.2, 0.05, 0.6, 10, 9), noise: arms(0.4, 0.0, 0.5, 10, 8) });
    const promoted: RunReport = {
      ...base,
      settings,
      stages: { governance, final: { active_skills: ['s1'], governance: evolved, transfer: {}, problems: [], ok: true } },
    };
    const h = headline(promoted, 'x')!;
    expect(h.from_scratch).toBe(true);
    expect(h.final_macro).toBeCloseTo(0.55);
    expect(h.final_critic_alone_macro).toBeCloseTo(0.025);
    expect(h.synergy).toBeCloseTo((0.4 + 0.1) / 2);
    expect(h.default_synergy).toBeCloseTo(0.25);
    expect(renderRunHtml(promoted, h)).toContain('evolved from scratch: synergy (points)');
    // nothing promoted: the final system is the empty bundle, i.e. the policy alone, not the default
    const none = headline(
      { ...base, settings, stages: { governance, final: { active_skills: [], governance: null, transfer: {}, problems: [], ok: true } } },
      'x',
    )!;
    expect(none.final_macro).toBeCloseTo(0.3);
    expect(none.synergy).toBe(0);
    expect(none.final_critic_alone_macro).toBe(0);
  });

  it("sets the final system beside the default at the final stage's fresh seeds, not the governance seeds", () => {
    const at3000 = [3000, 3001];
    const reference = stage({ shift: arms(0.1, 0.0, 0.3, 10, 8, at3000), noise: arms(0.3, 0.0, 0.5, 10, 8, at3000) });
    const after = stage({ shift: arms(0.1, 0.0, 0.6, 10, 8, at3000), noise: arms(0.3, 0.0, 0.5, 10, 8, at3000) });
    const r: RunReport = {
      ...base,
      stages: {
        governance,
        final: { active_skills: ['s1'], first_seed: 3000, reference, governance: after, transfer: {}, problems: [], ok: true },
      },
    };
    const h = headline(r, 'x')!;
    expect(h.seeds).toBe('3000-3001');
    expect(h.baseline_macro).toBeCloseTo(0.2);
    expect(h.critic_macro).toBeCloseTo(0.4);
    expect(h.default_synergy).toBeCloseTo(0.2);
    expect(h.synergy).toBeCloseTo(0.35);
    const html = renderRunHtml(r, h);
    expect(html).toContain('Every arm at seeds 3000–3001 per task');
    expect(html).toContain('they chose nothing in the run');
    // a report from before the final stage had seeds of its own: the governance seeds, and it says so
    expect(headline(base, 'x')!.seeds).toBe('1000-1000');
    expect(renderRunHtml(base, headline(base, 'x'))).toContain("they chose the campaigns' tasks");
  });

  it('draws a self-contained page: charts inline, no script, nothing fetched', () => {
    const html = renderRunHtml(base, headline(base, 'x'));
    expect(html).toContain('<svg');
    expect(html).toContain('shift: success per task (95% intervals)');
    expect(html).toContain('hand_blocked');
    expect(html).not.toMatch(/<script|<link|src="http/);
  });
});
