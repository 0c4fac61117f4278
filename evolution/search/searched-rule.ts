// A searched condition and a library action as a rule (and the program it starts) added to the
// parent bundle. The rule judges the policy only: not during a recovery, and not until
// STEPS_SINCE_RECOVERY steps after one (with the cooldown this also bounds how often an action that
// does not help can take over).
import { describeCondition, type RuleInput } from '../../critic/index.js';
import type { RecoveryFileInput } from '../../critic/index.js';
import type { LibraryAction } from './action-library.js';
import type { SearchedCondition } from './condition-search.js';
import { STEPS_SINCE_RECOVERY } from './feature-series.js';

type ProgramInput = RecoveryFileInput['programs'][number];

export interface SearchedPair {
  /** Rank of the condition among the search's results (0 best). */
  readonly condition_rank: number;
  readonly condition: SearchedCondition;
  readonly action: string;
}

/** A pair as its screening rollouts judged it (campaign/search-step.ts); synthesis builds a candidate from it. */
export interface ScreenedPair extends SearchedPair {
  readonly bundle_sha256: string;
  readonly rescued: number;
  readonly broken: number;
  /** Successes of the trivial policies under the pair's bundle, summed over the controls. */
  readonly critic_alone: number;
  readonly score: number;
}

/** The id a pair's rule and program are added under: stable, so the same pair builds the same bundle. */
export function pairIds(generation: number, pair: SearchedPair): { ruleId: string; recoveryId: string } {
  const tag = `g${generation}_c${pair.condition_rank}_${pair.action}`;
  return { ruleId: `evo.${tag}`, recoveryId: `evo_${tag}` };
}

/** The parent's rules and programs with the pair's rule (and its program, if any) added. */
export function withSearchedPair(
  parent: { readonly rules: readonly unknown[]; readonly programs: readonly unknown[] },
  generation: number,
  pair: SearchedPair,
  action: LibraryAction,
  evidence: readonly string[],
): { rules: RuleInput[]; programs: unknown[]; rule: RuleInput } {
  const { rule, program } = searchedRule(pairIds(generation, pair), pair.condition, action, evidence);
  return {
    rules: [...(parent.rules as RuleInput[]), rule],
    programs: [...parent.programs, ...(program ? [program] : [])],
    rule,
  };
}

export function searchedRule(
  ids: { ruleId: string; recoveryId: string },
  condition: SearchedCondition,
  action: LibraryAction,
  evidence: readonly string[],
): { rule: RuleInput; program: ProgramInput | null } {
  const program = action.program(ids.recoveryId);
  const rule: RuleInput = {
    id: ids.ruleId,
    description: `evolved (search): when ${describeCondition(condition.when as never)}, ${action.summary}`,
    guards: [
      { op: 'eq', feature: 'episode.in_recovery', value: 0 },
      { op: 'ge', feature: 'episode.steps_since_recovery', value: STEPS_SINCE_RECOVERY },
    ],
    when: condition.when as RuleInput['when'],
    dwell: condition.dwell,
    cooldown: 20,
    propose: action.propose(ids.recoveryId),
    safety: false,
    evidence: [...evidence],
  };
  return { rule, program };
}
