// The Governor is the only decision authority. Each step it turns the critic's proposals, and
// whether a recovery is running, into one decision: execute a_t, clamp it, run a recovery, hold, or
// abort. It writes no action itself; the control loop acts on the decision.
//
// Precedence (no recovery running):
//   1. safety proposals outrank all non-safety ones, whatever their priority;
//   2. within a class, higher priority wins;
//   3. ties: abort > hold > recovery > clamp (the more conservative act), then the earlier rule.
// A winning clamp uses the smallest scale among all clamp proposals of this step, per motion
// component: a horizontal-only clamp ("axes": "xy") scales dx and dy, not the descent or the wrist.
//
// One recovery at a time. While one runs, proposals follow `duringRecovery`:
//   'ignore'          every proposal is ignored; the program's own budget and fallback bound it
//                     (the envelope still applies).
//   'preempt_safety'  (default) non-safety proposals are ignored; the best safety proposal
//                     pre-empts: abort → abort, hold → hold (recovery cancelled), recovery R → switch
//                     to R (R equal to the running one just continues). Clamp never pre-empts.
//   'queue'           as 'preempt_safety' for safety proposals; the best non-safety, non-clamp
//                     proposal is kept in a one-slot queue (a better one replaces it) and competes
//                     with fresh proposals on the first step after the recovery ends, if it is not
//                     older than `queueMaxAgeSteps`.
import type { CriticResult } from './temporal-critic.js';
import type { Proposal, ProposalAction } from './rules/proposal.js';

export type DuringRecoveryPolicy = 'ignore' | 'preempt_safety' | 'queue';
export const DEFAULT_DURING_RECOVERY: DuringRecoveryPolicy = 'preempt_safety';

export interface GovernorOptions {
  readonly duringRecovery?: DuringRecoveryPolicy;
  /** A queued proposal older than this many steps is dropped (default 20). */
  readonly queueMaxAgeSteps?: number;
}

export type DecisionKind = 'execute' | 'clamp' | 'recover' | 'hold' | 'abort';

/**
 * One decision, overwritten every step. While a recovery runs, any decision other than
 * `recover` with `start === false` ends it (`preempted` is then true): `recover` with `start`
 * replaces it with `recovery`; hold and abort cancel it.
 */
export interface Decision {
  kind: DecisionKind;
  /** For `recover`: the program to run (the running one when `start` is false). */
  recovery: string | null;
  /** For `recover`: true to start (or switch to) `recovery` now, false to keep running it. */
  start: boolean;
  /** For `clamp`: scale in [0, 1] of every motion component; 1 otherwise. */
  scale: number;
  /** For `clamp`: scale of the horizontal translation (dx, dy), at most `scale`; 1 otherwise. */
  xyScale: number;
  /** The proposal that decided, or null (plain execute, or continuing a recovery). */
  cause: Proposal | null;
  /** A running recovery is ended by this decision. */
  preempted: boolean;
  /** Proposals set aside this step because a recovery was running (ignored or queued). */
  ignored: number;
  /** The deciding proposal came from the queue. */
  fromQueue: boolean;
}

/** Proposal lists the governor reads: a CriticResult, or anything shaped like its first two fields. */
export type Proposals = Pick<CriticResult, 'proposals' | 'count'>;

const RANK: Record<ProposalAction, number> = { abort: 3, hold: 2, recovery: 1, clamp: 0 };

/** True if `a` beats `b` under the precedence above. */
export function outranks(a: Proposal, b: Proposal): boolean {
  if (a.safety !== b.safety) return a.safety;
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (RANK[a.action] !== RANK[b.action]) return RANK[a.action] > RANK[b.action];
  return a.ruleIndex < b.ruleIndex;
}

export class Governor {
  readonly policy: DuringRecoveryPolicy;
  private readonly maxAge: number;
  private readonly d: Decision = {
    kind: 'execute',
    recovery: null,
    start: false,
    scale: 1,
    xyScale: 1,
    cause: null,
    preempted: false,
    ignored: 0,
    fromQueue: false,
  };
  private queued: Proposal | null = null;
  private queuedAge = 0;

  constructor(options: GovernorOptions = {}) {
    this.policy = options.duringRecovery ?? DEFAULT_DURING_RECOVERY;
    this.maxAge = options.queueMaxAgeSteps ?? 20;
  }

  /** `running`: id of the recovery program running now, or null. Returns a reused object. */
  decide(p: Proposals, running: string | null): Decision {
    const d = this.d;
    d.kind = 'execute';
    d.recovery = null;
    d.start = false;
    d.scale = 1;
    d.xyScale = 1;
    d.cause = null;
    d.preempted = false;
    d.ignored = 0;
    d.fromQueue = false;
    if (running === null) this.decideFree(p, d);
    else this.decideDuring(p, running, d);
    return d;
  }

  /** Start of an episode. */
  reset(): void {
    this.queued = null;
    this.queuedAge = 0;
  }

  /** The queued proposal, if any (for recording). */
  get pending(): Proposal | null {
    return this.queued;
  }

  private decideFree(p: Proposals, d: Decision): void {
    let best: Proposal | null = null;
    let minScale = 1;
    let minXY = 1;
    for (let i = 0; i < p.count; i++) {
      const x = p.proposals[i]!;
      if (x.action === 'clamp') {
        if (x.axes === 'all' && x.scale < minScale) minScale = x.scale;
        if (x.scale < minXY) minXY = x.scale;
      }
      if (best === null || outranks(x, best)) best = x;
    }
    const q = this.takeQueued();
    if (q !== null && (best === null || outranks(q, best))) {
      best = q;
      d.fromQueue = true;
    }
    if (best === null) return;
    this.apply(best, d);
    if (best.action === 'clamp') {
      d.scale = minScale;
      d.xyScale = minXY; // every clamp bounds dx and dy, so minXY ≤ minScale
    }
  }

  private decideDuring(p: Proposals, running: string, d: Decision): void {
    d.kind = 'recover';
    d.recovery = running;
    if (this.queued !== null) this.queuedAge++;
    let bestSafety: Proposal | null = null;
    for (let i = 0; i < p.count; i++) {
      const x = p.proposals[i]!;
      const canPreempt = this.policy !== 'ignore' && x.safety && x.action !== 'clamp';
      if (canPreempt) {
        if (bestSafety === null || outranks(x, bestSafety)) bestSafety = x;
        continue;
      }
      d.ignored++;
      if (this.policy === 'queue' && x.action !== 'clamp' && !x.safety) this.enqueue(x);
    }
    if (bestSafety === null || (bestSafety.action === 'recovery' && bestSafety.recovery === running)) return;
    this.apply(bestSafety, d);
    d.preempted = true;
  }

  private apply(x: Proposal, d: Decision): void {
    d.cause = x;
    switch (x.action) {
      case 'abort':
        d.kind = 'abort';
        d.recovery = null;
        return;
      case 'hold':
        d.kind = 'hold';
        d.recovery = null;
        return;
      case 'recovery':
        d.kind = 'recover';
        d.recovery = x.recovery;
        d.start = true;
        return;
      case 'clamp':
        // Its scales come from every clamp of the step (decideFree): a clamp never pre-empts a
        // recovery and is never queued, so only decideFree applies one.
        d.kind = 'clamp';
        return;
    }
  }

  private enqueue(x: Proposal): void {
    if (this.queued === null || outranks(x, this.queued)) {
      this.queued = x;
      this.queuedAge = 0;
    }
  }

  private takeQueued(): Proposal | null {
    const q = this.queued;
    this.queued = null;
    return q !== null && this.queuedAge <= this.maxAge ? q : null;
  }
}
