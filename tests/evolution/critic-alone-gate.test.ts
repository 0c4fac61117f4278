// The campaign's governance discipline: a candidate that lets the critic succeed without the policy
// is rejected at the critic-alone gate; held-out tests are judged at α over every test the campaign
// may spend (generations × tests a generation); a promotion is judged again on fresh confirmation
// seeds that chose nothing. Synthetic episodes (no simulator): the runner decides success from
// (bundle, policy, seed), as a real one would from the episode.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, SeedOverlapError, runCampaign, type CampaignOptions, type RolloutRunner } from '../../evolution/index.js';
import { criticAloneGate } from '../../evolution/gates/critic-alone.js';
import type { EpisodeResult } from '../../evolution/campaign/rollouts.js';
import { TASK, governedRunner, syntheticCampaignOptions, type SuccessRule } from './synthetic.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'zetta-alone-'));

/** Episodes succeed when `succeeds(governed, control, seed)`; `seen` collects the policy of each. */
function runner(succeeds: SuccessRule, seen: string[] = []): RolloutRunner {
  return governedRunner(succeeds, (_seed, control) => seen.push(control ?? 'policy'));
}

function options(root: string, over: Partial<CampaignOptions>): CampaignOptions {
  return syntheticCampaignOptions(root, {
    heldout: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007],
    confirmation: [2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007],
    devEpisodes: 8,
    runner: runner(() => false),
    ...over,
  });
}

const heldoutAlpha = (root: string): number =>
  (JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as { heldout_alpha: number }).heldout_alpha;

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

  it('spends a second held-out test when the first candidate fails it, at half the alpha of the first', async () => {
    // the first candidate to reach the held-out seeds helps only on the development seeds; every later one helps everywhere
    const tested: string[] = [];
    const secondHelps = runner((governed, control, seed, dir) => {
      if (!governed || control !== undefined) return false;
      if (seed < 1000 || seed >= 2000) return true;
      if (!tested.includes(dir!)) tested.push(dir!);
      return tested.indexOf(dir!) > 0;
    });
    const heldout = Array.from({ length: 8 }, (_, i) => 1000 + i); // 8 discordant pairs: p = 1/256
    const gates = { ...DEFAULT_GATES, max_candidates: 3, heldout_tests: 2 };
    const s = await runCampaign(options(tmp(), { heldout, runner: secondHelps, gates }));
    const held = s.decisions.filter((d) => d.stage === 'heldout');
    expect(held.map((d) => d.decision)).toEqual(['rejected', 'promoted']);
    expect(s.promoted).toBe(true);
    expect(heldoutAlpha(s.root)).toBeCloseTo((0.025 * 2) / 3, 12); // 0.025 over 1 generation, shared 2 : 1 by its 2 tests
    const report = JSON.parse(readFileSync(join(s.root, 'report.json'), 'utf8')) as {
      generations: { candidates: { stage: string; reason: string }[] }[];
    };
    const alphas = report.generations
      .flatMap((g) => g.candidates)
      .filter((c) => c.stage === 'heldout')
      .map((c) => Number(/α=([0-9.e-]+)/.exec(c.reason)![1]));
    expect(alphas[0]).toBeCloseTo(0.0167, 4);
    expect(alphas[1]).toBeCloseTo(0.00833, 5);
    expect(tested).toHaveLength(2);
  });

  it('sends the held-out test to the strongest development evidence, not to the first candidate in the diagnosis order', async () => {
    // the diagnosis' template (a stall rule) helps on 2 of the 8 development seeds and nowhere else;
    // a searched rule helps on every seed
    const template = (dir: string) => readFileSync(join(dir, 'rules.json'), 'utf8').includes('.stall');
    const searchedIsStronger = runner((governed, control, seed, dir) => {
      if (!governed || control !== undefined) return false;
      return !template(dir!) || (seed >= 100_000 && seed % 4 === 0);
    });
    const heldout = Array.from({ length: 8 }, (_, i) => 1000 + i);
    const gates = { ...DEFAULT_GATES, max_candidates: 3, heldout_tests: 1 };
    const s = await runCampaign(options(tmp(), { heldout, runner: searchedIsStronger, gates }));
    const report = JSON.parse(readFileSync(join(s.root, 'report.json'), 'utf8')) as {
      generations: { candidates: { id: string; template: string; stage: string; decision: string; reason: string }[] }[];
    };
    const [first, second] = report.generations[0]!.candidates;
    // the template came first and passed the development gates; the searched rule took the one test
    expect(first).toMatchObject({ template: 'stall', decision: 'rejected', stage: 'ranking' });
    expect(first!.reason).toMatch(/passed the development gates \(paired gain 2\).*promoted g1-k1/);
    expect(second).toMatchObject({ template: 'search', decision: 'promoted', stage: 'heldout' });
    expect(s.promoted).toBe(true);
  });

  it('divides alpha over no more held-out tests than candidates may reach them', async () => {
    // 7 discordant pairs give p = 1/128 ≈ 0.0078: enough at 0.025 / 3 (one test a generation), not at
    // two thirds of it (the first of two)
    const heldout = Array.from({ length: 7 }, (_, i) => 1000 + i);
    const helps = runner((governed, control) => governed && control === undefined);
    const capped = await runCampaign(
      options(tmp(), { heldout, runner: helps, generations: 3, gates: { ...DEFAULT_GATES, max_candidates: 1, heldout_tests: 2 } }),
    );
    const two = await runCampaign(
      options(tmp(), { heldout, runner: helps, generations: 3, gates: { ...DEFAULT_GATES, max_candidates: 2, heldout_tests: 2 } }),
    );
    expect(capped.promoted).toBe(true);
    expect(two.promoted).toBe(false);
    expect(heldoutAlpha(capped.root)).toBeCloseTo(0.025 / 3, 12);
    expect(heldoutAlpha(two.root)).toBeCloseTo((0.025 / 3) * (2 / 3), 12);
    expect(two.decisions.find((d) => d.stage === 'heldout')).toMatchObject({ decision: 'rejected' });
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
