// The campaign's governance discipline: a candidate that lets the critic succeed without the policy
// is rejected at the critic-alone gate; held-out tests are judged at α over the generations; a
// promotion is judged again on fresh confirmation seeds that chose nothing. Synthetic episodes (no
// simulator): the runner decides success from (bundle, policy, seed), as a real one would from the episode.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GATES,
  SeedOverlapError,
  builtinDiagnoser,
  runCampaign,
  type CampaignOptions,
  type RolloutRunner,
} from '../../evolution/index.js';
import { criticAloneGate } from '../../evolution/gates/critic-alone.js';
import type { EpisodeResult } from '../../evolution/campaign/rollouts.js';
import { TASK, governedRunner, type SuccessRule } from './synthetic.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'zetta-alone-'));

/** Episodes succeed when `succeeds(governed, control, seed)`; `seen` collects the policy of each. */
function runner(succeeds: SuccessRule, seen: string[] = []): RolloutRunner {
  return governedRunner(succeeds, (_seed, control) => seen.push(control ?? 'policy'));
}

function options(root: string, over: Partial<CampaignOptions>): CampaignOptions {
  return {
    root,
    world: TABLETOP_WORLD,
    suite: 'spatial',
    task: TASK,
    perturbation: null,
    policy: { spec: 'synthetic', file: null },
    baseBundle: 'none',
    heldout: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007],
    confirmation: [2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007],
    devEpisodes: 8,
    generations: 1,
    gates: { ...DEFAULT_GATES, max_candidates: 1 },
    executeSteps: 5,
    runner: runner(() => false),
    diagnoser: builtinDiagnoser(),
    ...over,
  };
}

const result = (success: boolean, infra: string | null = null): EpisodeResult => ({
  task: TASK,
  seed: 0,
  success,
  infra_failure: infra,
  steps: 1,
  milestones: [],
  reset_digest: '',
  policy_actions: 1,
  recovery_actions: 0,
  recoveries: 0,
  safety_events: 0,
  record: null,
});

describe('the critic-alone gate', () => {
  it('holds the best control against the cap, leaving infrastructure failures out', () => {
    const under = criticAloneGate(
      {
        'null:open': [result(false), result(false)],
        'null:closed': [
          result(true),
          result(false),
          result(false),
          result(false),
          result(false),
          result(false),
          result(false),
          result(false),
          result(false),
          result(false),
        ],
      },
      0.1,
    );
    expect(under).toMatchObject({ pass: true, best_rate: 0.1, controls: { 'null:closed': { successes: 1, episodes: 10 } } });
    const over = criticAloneGate({ 'null:open': [result(true), result(false), result(false, 'PolicyUnavailable')] }, 0.1);
    expect(over).toMatchObject({ pass: false, best_rate: 0.5, controls: { 'null:open': { successes: 1, episodes: 2 } } });
    expect(over.reason).toMatch(/critic alone 50% \(null:open 1\/2\); cap 10%/);
  });

  it('rejects a candidate whose bundle succeeds with a policy that does nothing, before any held-out episode', async () => {
    const seen: string[] = [];
    // any governed episode succeeds, whichever policy runs: the candidate is a second expert
    const s = await runCampaign(options(tmp(), { runner: runner((governed) => governed, seen) }));
    expect(s.promoted).toBe(false);
    expect(s.decisions.map((d) => d.stage)).toContain('critic_alone');
    expect(seen).toEqual(expect.arrayContaining(['null:open', 'null:closed', 'null:random:0']));
    expect(s.confirmation).toBeNull();
  });

  it('promotes a candidate that helps only the policy, and judges it again on fresh confirmation seeds', async () => {
    const s = await runCampaign(options(tmp(), { runner: runner((governed, control) => governed && control === undefined) }));
    expect(s.promoted).toBe(true);
    expect(s.decisions.at(-1)).toMatchObject({ decision: 'promoted', stage: 'heldout' });
    expect(s.confirmation).toMatchObject({ parent_success: 0, candidate_success: 8, episodes: 8 });
    expect(s.confirmation!.p_value).toBeCloseTo(1 / 256, 10); // exact one-sided McNemar, 8 discordant pairs
  });

  it('judges each held-out test at alpha over the generations (Bonferroni)', async () => {
    // 6 held-out discordant pairs give p = 1/64 ≈ 0.0156: enough at α = 0.025, not at 0.025 / 2
    const heldout = [1000, 1001, 1002, 1003, 1004, 1005];
    const helps = runner((governed, control) => governed && control === undefined);
    const one = await runCampaign(options(tmp(), { heldout, runner: helps, generations: 1 }));
    const two = await runCampaign(options(tmp(), { heldout, runner: helps, generations: 2 }));
    expect(one.promoted).toBe(true);
    expect(two.promoted).toBe(false);
    expect(two.decisions.at(-1)).toMatchObject({ decision: 'rejected', stage: 'heldout' });
  });

  it('refuses confirmation seeds that overlap the held-out seeds, before any episode', async () => {
    const seen: string[] = [];
    await expect(runCampaign(options(tmp(), { confirmation: [1003, 2000], runner: runner(() => true, seen) }))).rejects.toThrow(
      SeedOverlapError,
    );
    expect(seen).toEqual([]);
  });
});

describe('the campaign report', () => {
  it('charts every held-out test as the gate table shows it, scaled to the page with every legend name', async () => {
    const root = tmp();
    // rejected at held-out under Bonferroni: its gate row and its chart bars must both say 6 of 6
    await runCampaign(
      options(root, {
        heldout: [1000, 1001, 1002, 1003, 1004, 1005],
        generations: 2,
        runner: runner((governed, control) => governed && control === undefined),
      }),
    );
    const html = readFileSync(join(root, 'report.html'), 'utf8');
    const chart = html.slice(
      html.indexOf('aria-label="Held-out tests'),
      html.indexOf('</svg>', html.indexOf('aria-label="Held-out tests')),
    );
    expect(chart).toMatch(/gen 1 g1-k\d+/);
    expect(chart).toContain('>100%<'); // the candidate's 6/6 on the held-out seeds
    expect(html).toMatch(/<td>heldout<\/td><td>0\/6<\/td><td>6\/6<\/td>/);
    expect(html).toContain('critic alone 0%');
    for (const name of ['parent / base', 'candidate / final', 'parent', 'best candidate']) expect(html).toContain(`>${name}</text>`);
    expect(html).not.toMatch(/<svg[^>]* width="\d+"/); // every chart scales to the page (width 100%)
  });
});
