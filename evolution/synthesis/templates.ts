// Rule templates: one per mechanism a diagnosis can name. A template is a rule with one comparison
// left to fit — the feature, the direction and an initial threshold — guarded to the stage the
// cluster stalled in (its first missing milestone) and to policy control. Its `when` is that single
// comparison, so the rule's robustness margin is exactly the comparison's, which is what lets
// fit.ts try every threshold from one replay.
import type { RuleInput } from '../../critic/index.js';
import type { TemplateId } from '../diagnosis/schema.js';

export interface FittableRule {
  /** The rule with its initial threshold. */
  readonly rule: RuleInput;
  readonly feature: string;
  readonly op: 'lt' | 'gt';
  readonly theta0: number;
  /** Dwell values to try with every threshold. */
  readonly dwells: readonly number[];
  /** Thresholds that make no physical sense are never proposed (e.g. negative distances). */
  readonly min: number;
  readonly max: number;
}

interface TemplateArgs {
  readonly ruleId: string;
  readonly recoveryId: string;
  /** Index of the first missing milestone: the stage the rule watches. */
  readonly stage: number;
  /** Steps successes needed to reach the milestone (the deadline's starting point). */
  readonly successSteps: number;
}

interface TemplateSpec {
  readonly feature: string;
  readonly op: 'lt' | 'gt';
  readonly theta0: (a: TemplateArgs) => number;
  readonly dwells: number[];
  readonly min: number;
  readonly max: number;
  readonly what: string;
  /**
   * What confines the rule to the failures' stage: the stage itself (the simulator's milestone
   * count, privileged), or, where the condition already names the situation, only that an object
   * is still to be moved, which a robot perceives.
   */
  readonly scope?: 'stage' | 'objects_left';
}

const SPECS: Partial<Record<TemplateId, TemplateSpec>> = {
  stall: {
    feature: 'derived.net_motion',
    op: 'lt',
    theta0: () => 0.02,
    dwells: [5, 10, 20],
    min: 0,
    max: 0.2,
    what: 'the hand barely moves over the last second',
  },
  oscillation: {
    feature: 'derived.motion_reversals',
    op: 'gt',
    theta0: () => 6,
    dwells: [1, 3, 6],
    min: 1,
    max: 19,
    what: 'the hand keeps reversing direction',
  },
  deadline: {
    feature: 'episode.step',
    op: 'gt',
    theta0: (a) => (Number.isFinite(a.successSteps) ? a.successSteps : 100),
    dwells: [1],
    min: 10,
    max: 600,
    what: 'the stage is taking longer than successes ever need',
  },
  // not raw object speed: that is highest while the policy lifts the object, so a rule on it fired
  // on every grasp and its program dropped what the policy had just picked up
  disturbance: {
    feature: 'observed.object_moved_alone',
    op: 'gt',
    theta0: () => 0.02,
    dwells: [1, 2, 4],
    min: 0.005,
    max: 0.3,
    what: 'the task object moves on its own, neither resting nor riding in the hand',
    scope: 'objects_left',
  },
  grasp_empty: {
    feature: 'derived.gripper_closed_empty',
    op: 'gt',
    theta0: () => 0.5,
    dwells: [2, 3, 5, 8, 12],
    min: 0.5,
    max: 0.5,
    what: 'the fingers closed on nothing',
  },
};

export function isFittable(template: TemplateId): boolean {
  return SPECS[template] !== undefined;
}

/** The template's rule for one stage, or null for templates that do not add a rule. */
export function fittableRule(template: TemplateId, args: TemplateArgs): FittableRule | null {
  const spec = SPECS[template];
  if (!spec) return null;
  const theta0 = spec.theta0(args);
  const observable = spec.scope === 'objects_left';
  const rule: RuleInput = {
    id: args.ruleId,
    description: `evolved (${template}): ${observable ? 'while an object is still to be moved' : `in stage ${args.stage}`}, ${spec.what}: start ${args.recoveryId}`,
    guards: [
      { op: 'eq', feature: 'episode.in_recovery', value: 0 },
      observable
        ? { op: 'ge', feature: 'observed.objects_left', value: 1 }
        : { op: 'eq', feature: 'privileged.milestones_reached', value: args.stage },
      // judge the policy, not the aftermath of a recovery (the parent's or this rule's own); with
      // the cooldown this also bounds how often a program that does not help can take over
      { op: 'ge', feature: 'episode.steps_since_recovery', value: 20 },
    ],
    when: { op: spec.op, feature: spec.feature, value: theta0 },
    dwell: spec.dwells[0]!,
    cooldown: 60,
    propose: { action: 'recovery', recovery: args.recoveryId, priority: 3 },
    safety: false,
    evidence: [],
  };
  return { rule, feature: spec.feature, op: spec.op, theta0, dwells: spec.dwells, min: spec.min, max: spec.max };
}

/** The rule with a fitted threshold and dwell. */
export function withFit(f: FittableRule, theta: number, dwell: number, evidence: readonly string[]): RuleInput {
  return { ...f.rule, when: { op: f.op, feature: f.feature, value: theta }, dwell, evidence: [...evidence] };
}

/** suppress_rule: the blamed parent rule waits three times as long before it fires. */
export function suppressed(rule: RuleInput, evidence: readonly string[]): RuleInput {
  const dwell = rule.dwell ?? 1;
  return { ...rule, dwell: Math.max(dwell * 3, dwell + 5), evidence: [...(rule.evidence ?? []), ...evidence] };
}
