// Who may stop the robot, and what lets it go again. An e-stop (~/estop) and a critic's abort latch:
// the robot holds until ~/resume, whatever the policy, the critic or the inputs do meanwhile. A
// pause (~/pause) holds too, and ~/resume ends it.

export type LatchReason = 'estop' | 'paused' | 'critic-abort';

export class ControlLatch {
  private estop = false;
  private paused = false;
  private aborted = false;
  /** Resumes since start, for the status. */
  resumes = 0;

  /** Why the robot must hold now, or null when it may move. E-stop outranks an abort, which outranks a pause. */
  get reason(): LatchReason | null {
    if (this.estop) return 'estop';
    if (this.aborted) return 'critic-abort';
    return this.paused ? 'paused' : null;
  }

  estopNow(): void {
    this.estop = true;
  }

  pause(): void {
    this.paused = true;
  }

  abort(): void {
    this.aborted = true;
  }

  /** Clears every latch; returns what was cleared (null when nothing was). */
  resume(): LatchReason | null {
    const was = this.reason;
    this.estop = this.paused = this.aborted = false;
    if (was) this.resumes++;
    return was;
  }
}
