// A candidate's way through the gates, in two parts. `devGates`: cheap checks first (a candidate that
// could not be built, that duplicates one already judged, or whose diagnosis' falsifier holds on the
// shadow replay is rejected without a single rollout), then the development seeds (paired same-seed
// gate, regression gate, and the critic-alone gate: the candidate with trivial policies must stay
// under its cap). `heldoutGates`: the held-out seeds (exact McNemar, at α divided over every held-out
// test the campaign may spend: a Bonferroni correction, stated in every verdict), for the candidate
// the generation chose by its development evidence (generation.ts).
import { TRIVIAL_POLICY_SPECS } from '../../zinfra/policy/open-policy.js';
import type { Falsifier } from '../diagnosis/schema.js';
import { criticAloneGate, type CriticAloneResult } from '../gates/critic-alone.js';
import type { GateSettings } from './manifest.js';
import { heldoutGate, pairedGate, regressionGate, type GateResult } from '../gates/gates.js';
import { pairEpisodes } from '../gates/paired.js';
import type { ShadowReport } from '../shadow-replay.js';
import type { StoredBundle } from '../synthesis/bundle-files.js';
import type { CandidateSpec } from '../synthesis/synthesize.js';
import { rollout, type CampaignContext, type RolloutSet } from './context.js';

/** `ranking`: it passed the development gates, and the generation's held-out tests went to stronger ones. */
export type GateStage = 'synthesis' | 'shadow' | 'paired' | 'regression' | 'critic_alone' | 'ranking' | 'heldout';

export interface CandidateVerdict {
  readonly candidate: string;
  readonly decision: 'promoted' | 'rejected';
  /** Where it stopped (or `heldout` when it passed everything). */
  readonly stage: GateStage;
  readonly reason: string;
  readonly gates: readonly GateResult[];
  /** The candidate with the trivial controls on the dev seeds (absent when it stopped earlier). */
  readonly critic_alone?: CriticAloneResult;
  readonly ran_dev: boolean;
  readonly ran_heldout: boolean;
  /** Hashes of the rollout artifacts the gates read. */
  readonly rollouts: Readonly<Record<string, string>>;
}

export interface GateInput {
  readonly generation: number;
  readonly parent: StoredBundle;
  readonly dev: RolloutSet;
  readonly spec: CandidateSpec;
  readonly shadow: ShadowReport | null;
  readonly falsifier: Falsifier;
  readonly duplicate: boolean;
  /** The same change to the same parent already took the held-out test in an earlier generation. */
  readonly judgedOnHeldout?: boolean;
}

/** Where a candidate stands after the development gates: rejected there, or waiting for the held-out seeds. */
export type DevVerdict = Omit<CandidateVerdict, 'decision'> & { readonly decision: 'rejected' | 'passed_dev' };

/** The cheap checks and the development gates; a candidate that passes them all is `passed_dev`. */
export async function devGates(ctx: CampaignContext, x: GateInput): Promise<DevVerdict> {
  const base = { candidate: x.spec.id, gates: [] as GateResult[], ran_dev: false, ran_heldout: false, rollouts: {} };
  if (x.spec.unbuildable) return { ...base, decision: 'rejected', stage: 'synthesis', reason: x.spec.unbuildable };
  if (x.duplicate)
    return { ...base, decision: 'rejected', stage: 'synthesis', reason: 'the same change as an earlier candidate of this generation' };
  if (x.judgedOnHeldout)
    return {
      ...base,
      decision: 'rejected',
      stage: 'synthesis',
      reason: 'the same change to the same parent was already judged on the held-out seeds in an earlier generation',
    };
  // a rule-free change (a control option) gives shadow replay nothing to fire: the rollouts judge it
  const watched = x.spec.changed_rules.length > 0 && x.spec.hypothesis.template !== 'suppress_rule';
  const falsified = x.shadow && watched ? falsifierHolds(x.falsifier, x.shadow) : null;
  if (falsified) return { ...base, decision: 'rejected', stage: 'shadow', reason: `falsified by shadow replay: ${falsified}` };

  const g = ctx.manifest.gates;
  const cand = { sha256: x.spec.bundle_sha256, dir: x.spec.bundle_dir };
  const policy = { parent: x.dev.policy, candidate: ctx.runner.policyLabel };
  const candDev = await rollout(ctx, cand, x.dev.split, x.dev.seeds);
  const rollouts: Record<string, string> = {
    parent_dev: ledgerHash(ctx, x.parent.sha256, x.dev.split),
    candidate_dev: ledgerHash(ctx, cand.sha256, x.dev.split),
  };
  const devPairs = pairEpisodes(x.dev.results, candDev.results, { ...policy, candidate: candDev.policy });
  const paired = pairedGate(devPairs, g);
  const regression = regressionGate(devPairs, g);
  const checked = [paired, regression];
  const after = { ...base, ran_dev: true, rollouts };
  if (!paired.pass) return { ...after, gates: checked, decision: 'rejected', stage: 'paired', reason: paired.reason };
  if (!regression.pass) return { ...after, gates: checked, decision: 'rejected', stage: 'regression', reason: regression.reason };
  const alone = await criticAlone(ctx, cand, x.dev);
  if (!alone.pass)
    return { ...after, gates: checked, critic_alone: alone, decision: 'rejected', stage: 'critic_alone', reason: alone.reason };
  return { ...after, gates: checked, critic_alone: alone, decision: 'passed_dev', stage: 'critic_alone', reason: paired.reason };
}

/** The held-out test of a candidate that passed the development gates (`rank`: the generation's how-manyth test, from 0). */
export async function heldoutGates(
  ctx: CampaignContext,
  parent: StoredBundle,
  spec: CandidateSpec,
  dev: DevVerdict,
  rank: number,
): Promise<CandidateVerdict> {
  const cand = { sha256: spec.bundle_sha256, dir: spec.bundle_dir };
  const heldout = ctx.preregistration.heldout;
  const parentHeld = await rollout(ctx, parent, 'heldout', heldout);
  const candHeld = await rollout(ctx, cand, 'heldout', heldout);
  const rollouts = {
    ...dev.rollouts,
    parent_heldout: ledgerHash(ctx, parent.sha256, 'heldout'),
    candidate_heldout: ledgerHash(ctx, cand.sha256, 'heldout'),
  };
  const held = heldoutGate(
    pairEpisodes(parentHeld.results, candHeld.results, { parent: parentHeld.policy, candidate: candHeld.policy }),
    heldoutSettings(ctx, rank),
  );
  const done = { ...dev, gates: [...dev.gates, held], ran_heldout: true, rollouts, stage: 'heldout' as const, reason: held.reason };
  return { ...done, decision: held.pass ? 'promoted' : 'rejected' };
}

/** A candidate that passed the development gates and was not tested on the held-out seeds: why not. */
export function notTested(dev: DevVerdict, why: string): CandidateVerdict {
  return { ...dev, decision: 'rejected', stage: 'ranking', reason: why };
}

/**
 * Each generation may spend up to `heldout_tests` held-out tests (no more than the candidates that may
 * reach them), each on a different change, all on the same seeds, strongest development evidence
 * first. The campaign's α is shared over its generations, and a generation's share over its tests by
 * weights fixed before any held-out seed is seen, each test half the one before (a weighted
 * Bonferroni correction over every test the campaign may spend, spent or not): `rank` 0 is the
 * generation's first test.
 */
export function heldoutSettings(ctx: CampaignContext, rank = 0): GateSettings {
  return { ...ctx.manifest.gates, alpha: heldoutAlpha(ctx.manifest.gates, ctx.manifest.seeds.generations, rank) };
}

/** α of a generation's held-out test of this rank. */
export function heldoutAlpha(g: GateSettings, generations: number, rank = 0): number {
  const weights = Array.from({ length: heldoutTestsPerGeneration(g) }, (_, i) => 2 ** -i);
  const share = weights[Math.min(rank, weights.length - 1)]! / weights.reduce((a, b) => a + b, 0);
  return (g.alpha / generations) * share;
}

/**
 * Why no candidate of this campaign can ever be promoted, or null: a one-sided exact McNemar test
 * over n paired held-out episodes can go no lower than 0.5^n (every pair discordant for the
 * candidate), so with too few held-out seeds even a perfect candidate stays above the first test's α.
 */
export function heldoutTooSmall(g: GateSettings, generations: number, pairs: number): string | null {
  const alpha = heldoutAlpha(g, generations, 0);
  const floor = 0.5 ** pairs;
  if (floor <= alpha) return null;
  const needed = Math.ceil(Math.log2(1 / alpha));
  return `with ${pairs} paired held-out episodes the smallest one-sided p is ${floor.toPrecision(2)}, above the first test's α = ${alpha.toPrecision(3)}: no candidate can be promoted (it takes at least ${needed} held-out episodes)`;
}

export function heldoutTestsPerGeneration(g: GateSettings): number {
  return Math.min(g.heldout_tests, g.max_candidates);
}

/** The candidate under the same dev seeds with every trivial policy instead of the campaign's. */
async function criticAlone(
  ctx: CampaignContext,
  cand: { sha256: string; dir: string | null },
  dev: RolloutSet,
): Promise<CriticAloneResult> {
  const byControl: Record<string, RolloutSet['results']> = {};
  for (const control of TRIVIAL_POLICY_SPECS) byControl[control] = (await rollout(ctx, cand, dev.split, dev.seeds, control)).results;
  return criticAloneGate(byControl, ctx.manifest.gates.critic_alone_cap);
}

/** The falsifier's statement, when the shadow replay makes it true. */
function falsifierHolds(f: Falsifier, s: ShadowReport): string | null {
  const value = f.metric === 'shadow_trigger_rate' ? s.trigger_rate : s.false_alarm_rate;
  const holds = f.op === 'lt' ? value < f.value : value > f.value;
  return holds ? `${f.metric} = ${value.toFixed(3)} ${f.op === 'lt' ? '<' : '>'} ${f.value} (${f.statement})` : null;
}

function ledgerHash(ctx: CampaignContext, bundleSha: string, split: string): string {
  return ctx.state.ledger[`rollouts/${bundleSha.slice(0, 12)}/${split}.json`] ?? '';
}
