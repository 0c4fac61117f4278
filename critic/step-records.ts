// The control loop's vocabulary as plain data: who drove a step, what the critic proposed and what
// the governor decided. The runtime produces these every step; recordings, reports and the
// evolution loop read them.

/** Who produced the executed action: the policy, a recovery program, or the governor's hold. */
export type ActionSource = 'policy' | 'recovery' | 'hold';

/** One rule's proposal on a step, as recorded. */
export interface CriticProposal {
  readonly ruleId: string;
  /** A recovery id, `hold` or `abort`. */
  readonly proposal: string;
  readonly priority: number;
  readonly safety: boolean;
}

/** The governor's decision on a step, as recorded. */
export interface GovernorDecision {
  /** execute | clamp | recover | hold | abort | reenter */
  readonly kind: string;
  readonly recovery?: string;
  readonly reason?: string;
}
