// What a fired rule proposes. One frozen object per rule, made at load time: firing a rule puts a
// reference to it in the critic's output, so proposing allocates nothing.

export type ProposalAction = 'recovery' | 'hold' | 'abort' | 'clamp';

/** What a clamp scales: every motion component, or the horizontal translation (dx, dy) alone. */
export const CLAMP_AXES = ['all', 'xy'] as const;
export type ClampAxes = (typeof CLAMP_AXES)[number];

export interface Proposal {
  readonly ruleId: string;
  /** Index of the rule in its rule set (and in the critic's status / margin arrays). */
  readonly ruleIndex: number;
  readonly action: ProposalAction;
  /** The recovery program to run, for action "recovery"; otherwise null. */
  readonly recovery: string | null;
  /** Higher wins within the same class (safety / non-safety). */
  readonly priority: number;
  /** Safety proposals outrank every non-safety one. */
  readonly safety: boolean;
  /** Motion scale for action "clamp" (1 otherwise). */
  readonly scale: number;
  /** For action "clamp": the motion it scales ('all' otherwise). */
  readonly axes: ClampAxes;
  readonly evidence: readonly string[];
}
