import { describe, expect, it } from 'vitest';
import { Governor, type DuringRecoveryPolicy } from '../../critic/governor.js';
import { scaleMotion } from '../../critic/action.js';
import type { ClampAxes, Proposal, ProposalAction } from '../../critic/rules/proposal.js';

let next = 0;
function p(
  action: ProposalAction,
  opts: { priority?: number; safety?: boolean; recovery?: string; scale?: number; axes?: ClampAxes; index?: number } = {},
): Proposal {
  return {
    ruleId: `r${next}`,
    ruleIndex: opts.index ?? next++,
    action,
    recovery: action === 'recovery' ? (opts.recovery ?? 'regrasp') : null,
    priority: opts.priority ?? 0,
    safety: opts.safety ?? false,
    scale: opts.scale ?? 1,
    axes: opts.axes ?? 'all',
    evidence: [],
  };
}
const list = (...proposals: Proposal[]) => ({ proposals, count: proposals.length });

describe('Governor, no recovery running', () => {
  const g = new Governor();

  it('executes when nothing is proposed', () => {
    expect(g.decide(list(), null)).toMatchObject({ kind: 'execute', cause: null, scale: 1 });
  });

  it('safety outranks priority', () => {
    const safe = p('hold', { safety: true, priority: -5 });
    const d = g.decide(list(p('recovery', { priority: 100 }), safe), null);
    expect(d.kind).toBe('hold');
    expect(d.cause).toBe(safe);
  });

  it('within a class, higher priority wins; ties go to the more conservative act, then the earlier rule', () => {
    expect(g.decide(list(p('abort', { priority: 1 }), p('recovery', { priority: 2, recovery: 'lift_clear' })), null)).toMatchObject({
      kind: 'recover',
      recovery: 'lift_clear',
      start: true,
    });
    expect(g.decide(list(p('recovery'), p('abort'), p('hold')), null).kind).toBe('abort');
    const first = p('recovery', { recovery: 'a', index: 1 });
    expect(g.decide(list(p('recovery', { recovery: 'b', index: 7 }), first), null).recovery).toBe('a');
  });

  it('a winning clamp uses the smallest clamp scale of the step', () => {
    expect(g.decide(list(p('clamp', { scale: 0.5, priority: 3 }), p('clamp', { scale: 0.2 })), null)).toMatchObject({
      kind: 'clamp',
      scale: 0.2,
      xyScale: 0.2,
    });
  });

  it('a horizontal clamp scales dx and dy only; with a full clamp, each part takes its smallest scale', () => {
    expect(g.decide(list(p('clamp', { scale: 0.2, axes: 'xy' })), null)).toMatchObject({ kind: 'clamp', scale: 1, xyScale: 0.2 });
    expect(g.decide(list(p('clamp', { scale: 0.5 }), p('clamp', { scale: 0.2, axes: 'xy' })), null)).toMatchObject({
      scale: 0.5,
      xyScale: 0.2,
    });
    expect(g.decide(list(p('clamp', { scale: 0.1 }), p('clamp', { scale: 0.2, axes: 'xy' })), null)).toMatchObject({
      scale: 0.1,
      xyScale: 0.1,
    });
    const out = new Float32Array(7);
    scaleMotion([0.5, -0.5, -1, 0.1, 0.2, 0.3, 1], 1, out, 0.2);
    expect(Array.from(out)).toEqual(Array.from(new Float32Array([0.1, -0.1, -1, 0.1, 0.2, 0.3, 1])));
  });
});

describe('Governor during a recovery', () => {
  const during = (policy: DuringRecoveryPolicy) => new Governor({ duringRecovery: policy });

  it('continues the running recovery when nothing pre-empts it', () => {
    expect(during('preempt_safety').decide(list(p('recovery', { recovery: 'other' })), 'regrasp')).toMatchObject({
      kind: 'recover',
      recovery: 'regrasp',
      start: false,
      preempted: false,
      ignored: 1,
    });
  });

  it("'ignore' ignores even safety proposals", () => {
    const d = during('ignore').decide(list(p('abort', { safety: true })), 'regrasp');
    expect(d).toMatchObject({ kind: 'recover', start: false, ignored: 1, preempted: false });
  });

  it("'preempt_safety' (default) lets a safety proposal pre-empt; non-safety ones are ignored", () => {
    const g = new Governor();
    expect(g.policy).toBe('preempt_safety');
    expect(g.decide(list(p('abort'), p('hold', { safety: true })), 'regrasp')).toMatchObject({ kind: 'hold', preempted: true, ignored: 1 });
    expect(g.decide(list(p('recovery', { safety: true, recovery: 'lift_clear' })), 'regrasp')).toMatchObject({
      kind: 'recover',
      recovery: 'lift_clear',
      start: true,
      preempted: true,
    });
    // The same recovery, proposed again by a safety rule, just continues.
    expect(g.decide(list(p('recovery', { safety: true, recovery: 'regrasp' })), 'regrasp')).toMatchObject({
      start: false,
      preempted: false,
    });
    // A clamp never pre-empts a recovery.
    expect(g.decide(list(p('clamp', { safety: true, scale: 0.1 })), 'regrasp')).toMatchObject({
      kind: 'recover',
      start: false,
      ignored: 1,
    });
  });

  it("'queue' keeps the best non-safety proposal and applies it when the recovery ends", () => {
    const g = during('queue');
    const low = p('recovery', { recovery: 'lift_clear', priority: 1 });
    const high = p('recovery', { recovery: 'reopen', priority: 2 });
    g.decide(list(low), 'regrasp');
    g.decide(list(high), 'regrasp');
    g.decide(list(low), 'regrasp');
    expect(g.pending).toBe(high);
    expect(g.decide(list(), null)).toMatchObject({ kind: 'recover', recovery: 'reopen', start: true, fromQueue: true });
    expect(g.pending).toBeNull();
    expect(g.decide(list(), null).kind).toBe('execute');
  });

  it("'queue' drops a stale proposal, and a fresh better one beats the queued one", () => {
    const g = new Governor({ duringRecovery: 'queue', queueMaxAgeSteps: 2 });
    g.decide(list(p('hold')), 'regrasp');
    for (let i = 0; i < 3; i++) g.decide(list(), 'regrasp');
    expect(g.decide(list(), null).kind).toBe('execute');
    g.decide(list(p('recovery', { recovery: 'lift_clear' })), 'regrasp');
    const fresh = p('abort', { safety: true });
    expect(g.decide(list(fresh), null)).toMatchObject({ kind: 'abort', cause: fresh, fromQueue: false });
  });
});
