// The governance arms of one rule's test: the embedded policy's three arms under a bundle, and how
// often that rule fired in the both arm (a test that says a rule helps first checks it fired).
import { expect } from 'vitest';
import { runGovernanceArms, type ArmRun, type GovernanceArms } from '../../measure/governance-arms.js';
import type { EvaluationResult } from '../../measure/evaluation.js';
import { embeddedArmsPlan } from './arms-plan.js';

export interface RuleArms {
  readonly result: GovernanceArms;
  /** The rule's firings over the both arm's episodes. */
  readonly firedInBoth: number;
}

/** 10 episodes per task from seed 1000; `controls` narrows the critic-alone arm's trivial policies. */
export async function armsFiring(
  rule: string,
  critic: string,
  perturbation: string,
  tasks: readonly string[],
  controls?: readonly string[],
): Promise<RuleArms> {
  let firedInBoth = 0;
  const onArmDone = (run: ArmRun, result: EvaluationResult) => {
    if (run.arm === 'both') firedInBoth += result.outcomes.reduce((sum, o) => sum + (o.firings[rule] ?? 0), 0);
  };
  const plan = embeddedArmsPlan({ critic, perturbation, tasks, episodesPerTask: 10 });
  const result = await runGovernanceArms(plan, { workers: 1, resamples: 200, onArmDone, ...(controls ? { controls } : {}) });
  return { result, firedInBoth };
}

/**
 * What every rule test claims: the rule fired, the critic alone stays under its 10% cap, and the
 * both arm beats the bundle without the rule and the policy alone.
 */
export function expectRuleHelps(withRule: RuleArms, without: RuleArms): void {
  expect(withRule.firedInBoth).toBeGreaterThan(0);
  expect(withRule.result.macro.critic.value).toBeLessThanOrEqual(0.1);
  const both = withRule.result.arms.both.macroSuccess;
  expect(both).toBeGreaterThan(without.result.arms.both.macroSuccess);
  expect(both).toBeGreaterThan(withRule.result.arms.policy.macroSuccess);
}
