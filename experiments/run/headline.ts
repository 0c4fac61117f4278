// The figures a run is judged by, in one flat object (the last line of `zetta run --json`): every
// macro is a mean over the perturbed conditions of the mean over tasks, at the same seeds.
import type { Attribution } from '../../measure/attribution.js';
import type { GovernanceArms } from '../../measure/governance-arms.js';
import { seedSpan, type GovernanceStageResult } from './governance-stage.js';
import type { RunReport } from './run-report.js';

export interface RunHeadline {
  /** The frozen policy alone on the perturbed suite. */
  baseline_macro: number;
  /** The default critic alone (the best trivial policy per task under it). */
  critic_alone_macro: number;
  /** The policy with the default critic. */
  critic_macro: number;
  /** The final system: the policy with the default critic and the active skills (from scratch: the skills alone). */
  final_macro: number;
  /** The final system's critic alone (its bundles with the trivial policies); 0 for the empty bundle. */
  final_critic_alone_macro: number;
  /** Of the final system: both − max(policy alone, critic alone), as a fraction like the macros (0.25 = 25 points). */
  synergy: number;
  /** Of the hand-written default critic at the same seeds: what a from-scratch run's synergy stands beside. */
  default_synergy: number;
  /** The campaigns started from the empty bundle and the final system holds nothing hand-written. */
  from_scratch: boolean;
  /** Tasks no campaign ran on that a skill loaded for: the both arm before and after the skills. */
  transfer: Record<string, { before: number; after: number }>;
  /** The policy's unmodified actions over the executed steps of the final system's successes. */
  policy_action_share: number;
  /** The seeds every figure above was measured at, per task and arm (`3000-3009`): the final stage's fresh seeds when it ran. */
  seeds: string;
  /** The run's report.html. */
  report: string;
}

export function headline(r: RunReport, reportPath: string): RunHeadline | undefined {
  const governed = r.stages.governance;
  if (!governed) return undefined;
  const fromScratch = r.settings?.fromScratch === true;
  // the final stage's reference ran the default at the final system's seeds, which chose nothing
  const reference = r.stages.final?.reference ?? governed;
  const finalArms = r.stages.final?.governance ?? (fromScratch ? null : reference);
  const before = Object.values(reference.conditions);
  // from scratch with nothing promoted, the final system is the empty bundle: the policy alone
  const after = finalArms ? Object.values(finalArms.conditions) : null;
  const transfer = Object.fromEntries(
    Object.entries(r.stages.final?.transfer ?? {}).map(([t, x]) => [t, { before: x.before, after: x.after }]),
  );
  return {
    baseline_macro: meanOf(before, (a) => a.macro.policy.value),
    critic_alone_macro: meanOf(before, (a) => a.macro.critic.value),
    critic_macro: meanOf(before, (a) => a.macro.both.value),
    final_macro: after ? meanOf(after, (a) => a.macro.both.value) : meanOf(before, (a) => a.macro.policy.value),
    final_critic_alone_macro: after ? meanOf(after, (a) => a.macro.critic.value) : 0,
    synergy: finalArms ? finalArms.mean_synergy : 0,
    default_synergy: reference.mean_synergy,
    from_scratch: fromScratch,
    transfer,
    // with no critic every executed action is the policy's own
    policy_action_share: after ? shareInSuccesses(after.map((a) => a.arms.both.attribution)) : 1,
    seeds: seedRange(reference),
    report: reportPath,
  };
}

function seedRange(g: GovernanceStageResult): string {
  const span = seedSpan(g);
  return span ? `${span.first}-${span.last}` : '';
}

function meanOf(arms: readonly GovernanceArms[], pick: (a: GovernanceArms) => number): number {
  return arms.length ? arms.reduce((s, a) => s + pick(a), 0) / arms.length : Number.NaN;
}

/** Pooled over the conditions: every successful episode's steps count once. */
function shareInSuccesses(attributions: readonly Attribution[]): number {
  const steps = attributions.reduce((s, a) => s + a.successSteps, 0);
  const policy = attributions.reduce((s, a) => s + a.successUnmodifiedPolicyActions, 0);
  return steps > 0 ? policy / steps : Number.NaN;
}
