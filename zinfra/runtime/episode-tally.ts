// Per-step bookkeeping of who drove the robot in one episode: the counts the episode summary and
// the governance attribution are built from. An action is the policy's only when it is exactly the
// a_t its chunk proposed; anything the critic changed (a clamp, the envelope, a hold, a recovery)
// counts against the policy. A step observer of the loop (step-observer.ts), kept by every episode.
import type { StepResult } from '../../sim/env.js';
import type { ActionSource } from '../../critic/index.js';
import type { LoopStep, StepObserver } from './step-observer.js';

export class EpisodeTally implements StepObserver {
  holds = 0;
  recoveryActions = 0;
  policyActions = 0;
  unmodifiedPolicyActions = 0;
  milestonesDuringRecovery = 0;
  private readonly reached = new Set<string>();

  onStep({ chosen }: LoopStep, result: StepResult): void {
    this.count(chosen.source, chosen.action, chosen.proposed, chosen.fromChunk, result.info.milestones);
  }

  /**
   * One executed step: its source, what env.step received, what the policy proposed (null when it
   * was not asked), whether that came from a chunk, and the milestones reached so far after it.
   */
  count(
    source: ActionSource,
    sent: ArrayLike<number>,
    proposed: ArrayLike<number> | null,
    fromChunk: boolean,
    milestones: readonly string[],
  ): void {
    if (source === 'hold') this.holds++;
    else if (source === 'recovery') this.recoveryActions++;
    else {
      this.policyActions++;
      if (fromChunk && proposed !== null && sameAction(sent, proposed)) this.unmodifiedPolicyActions++;
    }
    for (const m of milestones) {
      if (this.reached.has(m)) continue;
      this.reached.add(m);
      if (source === 'recovery') this.milestonesDuringRecovery++;
    }
  }
}

/** Component-wise equality of the executed and the proposed action (same length, same values). */
export function sameAction(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
