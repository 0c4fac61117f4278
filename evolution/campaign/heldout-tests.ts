// A generation's held-out tests. Every candidate has been through the development gates; those that
// passed take the held-out seeds in the order of their development evidence (the paired gain on the
// development seeds, then its candidate-only successes, then fewer safety events), at most
// `heldout_tests` of them, until one is promoted. The order is chosen on development seeds only, so
// it chooses nothing the held-out seeds judge; the first test gets the larger share of α (gating.ts,
// weighted Bonferroni). Before, the first candidate in the diagnosis' order to pass took the first
// test, so a weak template could spend it ahead of a mechanism with eight times its development gain;
// the second test keeps a template that a searched rule with a slightly larger gain got ahead of.
import { promote } from '../promotion.js';
import type { ShadowReport } from '../shadow-replay.js';
import type { StoredBundle } from '../synthesis/bundle-files.js';
import type { CandidateSpec } from '../synthesis/synthesize.js';
import type { CampaignContext } from './context.js';
import { heldoutGates, heldoutTestsPerGeneration, notTested, type CandidateVerdict, type DevVerdict } from './gating.js';

/** A candidate of a generation as the campaign records it: what it was, its shadow replay, its verdict. */
export interface CandidateSummary {
  readonly spec: CandidateSpec;
  readonly shadow: ShadowReport | null;
  readonly verdict: CandidateVerdict;
}

/** A candidate after the development gates, with its index in the generation. */
export interface TriedCandidate {
  readonly index: number;
  readonly spec: CandidateSpec;
  readonly shadow: ShadowReport | null;
  readonly dev: DevVerdict;
}

export interface HeldoutOutcome {
  /** Every candidate with its final verdict, in the generation's order. */
  readonly candidates: CandidateSummary[];
  readonly promoted: StoredBundle | null;
}

export async function spendHeldoutTests(
  ctx: CampaignContext,
  g: number,
  parent: StoredBundle,
  tried: readonly TriedCandidate[],
): Promise<HeldoutOutcome> {
  // every candidate's final verdict is its gates.json, whether it took a held-out test or not
  const record = async (t: TriedCandidate, verdict: () => CandidateVerdict | Promise<CandidateVerdict>) =>
    (await ctx.state.step<CandidateVerdict>(`gen-${g}/candidates/k${t.index}/gates.json`, verdict)).value;
  const verdicts = new Map<number, CandidateVerdict>();
  // one rejected at the development gates is final as it is
  for (const t of tried)
    if (t.dev.decision === 'rejected') verdicts.set(t.index, await record(t, () => ({ ...t.dev, decision: 'rejected' })));
  const order = byDevelopmentEvidence(tried.filter((t) => t.dev.decision === 'passed_dev'));
  const budget = heldoutTestsPerGeneration(ctx.manifest.gates);
  let promoted: StoredBundle | null = null;
  let winner: TriedCandidate | null = null;
  let spent = 0;
  for (const t of order) {
    if (promoted || spent >= budget) {
      verdicts.set(t.index, await record(t, () => notTested(t.dev, untestedReason(order[0]!, t, winner))));
      continue;
    }
    ctx.state.enter('heldout', g, t.index);
    const verdict = await record(t, () => heldoutGates(ctx, parent, t.spec, t.dev, spent));
    spent++;
    ctx.log(`generation ${g} candidate ${t.spec.id} (${t.spec.hypothesis.id}): ${verdict.decision} — ${verdict.reason}`);
    verdicts.set(t.index, verdict);
    if (verdict.decision === 'promoted') {
      ctx.state.enter('promotion', g, t.index);
      promoted = await promote(ctx, t.spec, t.shadow!, verdict);
      winner = t;
    }
  }
  const candidates = tried.map((t) => ({ spec: t.spec, shadow: t.shadow, verdict: verdicts.get(t.index)! }));
  return { candidates, promoted };
}

/** Strongest first: paired gain (b − c), then b, then fewer safety events, then the generation's order. */
export function byDevelopmentEvidence(passed: readonly TriedCandidate[]): TriedCandidate[] {
  return [...passed].sort((x, y) => {
    const a = devCounts(x);
    const b = devCounts(y);
    return b.gain - a.gain || b.b - a.b || a.safety - b.safety || x.index - y.index;
  });
}

function devCounts(t: TriedCandidate): { gain: number; b: number; safety: number } {
  const paired = t.dev.gates.find((gate) => gate.gate === 'paired');
  const c = paired?.counts;
  return c ? { gain: c.b - c.c, b: c.b, safety: c.candidate_safety_events } : { gain: -Infinity, b: 0, safety: Infinity };
}

function untestedReason(first: TriedCandidate, t: TriedCandidate, promoted: TriedCandidate | null): string {
  const gain = (x: TriedCandidate) => devCounts(x).gain;
  const passed = `passed the development gates (paired gain ${gain(t)})`;
  return promoted
    ? `${passed}; the generation's held-out test promoted ${promoted.spec.id} (paired gain ${gain(promoted)}), ahead of it by development evidence or, at equal evidence, the diagnosis' order`
    : `${passed}; the generation's held-out tests went to candidates ahead of it by development evidence (first ${first.spec.id}: paired gain ${gain(first)})`;
}
