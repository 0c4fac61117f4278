import { describe, expect, it } from 'vitest';
import { RULE_CLEAR, RULE_COOLDOWN, RULE_FIRED, RULE_HOLDING, RULE_INACTIVE, RULE_UNKNOWN } from '../../critic/rules/compiled-rule.js';
import type { Condition } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';
import { frameOf, oneRule, run, ruleSet } from './helpers.js';

const F = 'robot.eef_z';
const statuses = (rows: [number, number][]) => rows.map(([s]) => s);
const margins = (rows: [number, number][]) => rows.map(([, m]) => m);
const { FIRED: Y, CLEAR: N, UNKNOWN: U } = { FIRED: RULE_FIRED, CLEAR: RULE_CLEAR, UNKNOWN: RULE_UNKNOWN };

describe('comparisons', () => {
  const cases: [Condition['op'], number, number, boolean, number][] = [
    // op, threshold, x, fires, margin (positive = distance from firing)
    ['lt', 0.5, 0.2, true, -0.3],
    ['lt', 0.5, 0.5, false, 0],
    ['lt', 0.5, 0.9, false, 0.4],
    ['le', 0.5, 0.5, true, 0],
    ['le', 0.5, 0.7, false, 0.2],
    ['gt', 0.5, 0.9, true, -0.4],
    ['gt', 0.5, 0.5, false, 0],
    ['ge', 0.5, 0.5, true, 0],
    ['ge', 0.5, 0.1, false, 0.4],
    ['eq', 1, 1, true, 0],
    ['eq', 1, 0, false, 1],
    ['ne', 1, 0, true, -1],
    ['ne', 1, 1, false, -0],
  ];
  it.each(cases)('%s %d on %d: fires=%s, margin %d', (op, value, x, fires, margin) => {
    const [[status, m]] = run(oneRule({ op, feature: F, value } as Condition), F, [x]) as [[number, number]];
    expect(status).toBe(fires ? RULE_FIRED : RULE_CLEAR);
    expect(m).toBeCloseTo(margin, 12);
  });
});

describe('temporal operators', () => {
  it('stagnant: fires once the window is full and the range is below eps; margin = range − eps', () => {
    const rows = run(oneRule({ op: 'stagnant', feature: F, window: 3, eps: 0.01 }), F, [0.1, 0.102, 0.104, 0.104, 0.2]);
    expect(statuses(rows)).toEqual([N, N, Y, Y, N]);
    expect(margins(rows)[0]).toBe(Infinity); // too little history to hold yet
    expect(margins(rows)[2]).toBeCloseTo(0.004 - 0.01, 12);
    expect(margins(rows)[4]).toBeCloseTo(0.096 - 0.01, 12);
  });

  it('rising / falling compare the ends of the window against `by`', () => {
    const up = run(oneRule({ op: 'rising', feature: F, window: 2, by: 0.05 }), F, [0, 0.03, 0.06, 0.06, 0.07]);
    expect(statuses(up)).toEqual([N, N, Y, N, N]);
    expect(margins(up)[2]).toBeCloseTo(0.05 - 0.06, 12);
    expect(margins(up)[3]).toBeCloseTo(0.05 - 0.03, 12);
    const down = run(oneRule({ op: 'falling', feature: F, window: 1 }), F, [1, 0.9, 0.9, 1]);
    expect(statuses(down)).toEqual([N, Y, N, N]);
    expect(margins(down)[1]).toBeCloseTo(-0.1, 12);
  });

  it('always: the sub-condition held at every step of a full window; margin = max sub-margin', () => {
    const rows = run(oneRule({ op: 'always', window: 3, cond: { op: 'lt', feature: F, value: 1 } }), F, [0, 0.5, 0.2, 2, 0, 0, 0]);
    expect(statuses(rows)).toEqual([N, N, Y, N, N, N, Y]);
    expect(margins(rows)[1]).toBe(Infinity);
    expect(margins(rows)[2]).toBeCloseTo(-0.5, 12);
    expect(margins(rows)[3]).toBeCloseTo(1, 12);
  });

  it('eventually: held at least once in the window; margin = min sub-margin', () => {
    const rows = run(oneRule({ op: 'eventually', window: 2, cond: { op: 'gt', feature: F, value: 1 } }), F, [0, 2, 0, 0, 0.5]);
    expect(statuses(rows)).toEqual([N, Y, Y, N, N]);
    expect(margins(rows)[2]).toBeCloseTo(-1, 12);
    expect(margins(rows)[4]).toBeCloseTo(0.5, 12);
  });
});

describe('combinators', () => {
  const lt = (feature: string, value: number): Condition => ({ op: 'lt', feature, value });
  const and: Condition = { op: 'and', args: [lt('robot.eef_x', 0), lt('robot.eef_y', 0)] };
  const or: Condition = { op: 'or', args: [lt('robot.eef_x', 0), lt('robot.eef_y', 0)] };
  const evalOnce = (cond: Condition, x: number, y: number) => {
    const r = oneRule(cond).evaluate(frameOf({ 'robot.eef_x': x, 'robot.eef_y': y }));
    return [r.status[0], r.margins[0]];
  };

  it('and takes the max margin, or the min, not negates', () => {
    expect(evalOnce(and, -1, -2)).toEqual([Y, -1]);
    expect(evalOnce(and, -1, 3)).toEqual([N, 3]);
    expect(evalOnce(or, -1, 3)).toEqual([Y, -1]);
    expect(evalOnce(or, 2, 3)).toEqual([N, 2]);
    expect(evalOnce({ op: 'not', arg: lt('robot.eef_x', 0) }, 2, 0)).toEqual([Y, -2]);
  });

  it('NaN is unknown (Kleene): it never makes a rule fire, and the rule is reported', () => {
    expect(evalOnce(and, NaN, 3)).toEqual([N, 3]); // a known false part decides
    expect(evalOnce(or, NaN, -1)).toEqual([Y, -1]); // a known true part decides
    const [s1, m1] = evalOnce(and, NaN, -1);
    expect(s1).toBe(U);
    expect(m1).toBeNaN();
    expect(evalOnce({ op: 'not', arg: lt('robot.eef_x', 0) }, NaN, 0)[0]).toBe(U);
    expect(evalOnce(or, 3, NaN)[0]).toBe(U);
  });
});

describe('NaN reporting', () => {
  it('lists rules that read NaN, without proposing', () => {
    const critic = new TemporalCritic(
      ruleSet([
        { id: 'a', when: { op: 'gt', feature: 'privileged.contact_force', value: 5 }, propose: { action: 'hold' } },
        { id: 'b', when: { op: 'not', arg: { op: 'gt', feature: 'privileged.grasped', value: 0.5 } }, propose: { action: 'abort' } },
        { id: 'c', when: { op: 'lt', feature: 'robot.eef_z', value: 1 }, propose: { action: 'hold' } },
        {
          id: 'd',
          guards: [{ op: 'eq', feature: 'privileged.grasped', value: 1 }],
          when: { op: 'lt', feature: 'robot.eef_z', value: 1 },
          propose: { action: 'hold' },
        },
      ]),
    );
    const r = critic.evaluate(frameOf({ 'robot.eef_z': 0.5 }));
    expect(r.count).toBe(1);
    expect(r.proposals[0]!.ruleId).toBe('c');
    expect(r.nanCount).toBe(3);
    expect(Array.from(r.nanRules.subarray(0, r.nanCount))).toEqual([0, 1, 3]);
  });

  it('a NaN inside a window keeps the window unknown until it slides out', () => {
    const rows = run(oneRule({ op: 'stagnant', feature: F, window: 2, eps: 1 }), F, [0, NaN, 0, 0]);
    expect(statuses(rows)).toEqual([N, U, U, Y]);
  });
});

describe('dwell, cooldown, guards', () => {
  const lt0 = { op: 'lt', feature: F, value: 0 } as const;

  it('dwell: fires only after that many consecutive holds; a break (or an unknown) restarts the count', () => {
    const rows = run(oneRule(lt0, { dwell: 3 }), F, [-1, -1, 1, -1, -1, -1, -1, NaN, -1]);
    expect(statuses(rows)).toEqual([RULE_HOLDING, RULE_HOLDING, N, RULE_HOLDING, RULE_HOLDING, Y, RULE_HOLDING, U, RULE_HOLDING]);
  });

  it('cooldown: after firing, no proposal for that many steps even if the condition persists', () => {
    const rows = run(oneRule(lt0, { cooldown: 2 }), F, [-1, -1, -1, -1, 1, -1, -1]);
    expect(statuses(rows)).toEqual([Y, RULE_COOLDOWN, RULE_COOLDOWN, Y, N, RULE_COOLDOWN, Y]);
  });

  it('a false guard deactivates the rule and resets its windows and dwell; cooldown survives', () => {
    const critic = oneRule(
      { op: 'always', window: 2, cond: lt0 },
      { guards: [{ op: 'eq', feature: 'episode.in_recovery', value: 0 }], dwell: 2 },
    );
    const step = (z: number, rec: number) => critic.evaluate(frameOf({ [F]: z, 'episode.in_recovery': rec })).status[0];
    expect([step(-1, 0), step(-1, 0)]).toEqual([N, RULE_HOLDING]); // window full at step 2
    expect(step(-1, 1)).toBe(RULE_INACTIVE);
    // The window restarted: one step of history is not enough for `always` over 2.
    expect([step(-1, 0), step(-1, 0), step(-1, 0)]).toEqual([N, RULE_HOLDING, Y]);
  });

  it('reset() forgets windows, dwell and cooldown', () => {
    const critic = oneRule(lt0, { cooldown: 100 });
    expect(critic.evaluate(frameOf({ [F]: -1 })).status[0]).toBe(Y);
    expect(critic.evaluate(frameOf({ [F]: -1 })).status[0]).toBe(RULE_COOLDOWN);
    critic.reset();
    expect(critic.evaluate(frameOf({ [F]: -1 })).status[0]).toBe(Y);
  });

  it('isClear: inactive or definitely false; not while holding, cooling down or unknown', () => {
    const critic = oneRule(lt0, { cooldown: 5 });
    critic.evaluate(frameOf({ [F]: -1 }));
    expect(critic.isClear(0)).toBe(false);
    critic.evaluate(frameOf({ [F]: -1 }));
    expect(critic.isClear(0)).toBe(false); // cooling down, condition still true
    critic.evaluate(frameOf({ [F]: NaN }));
    expect(critic.isClear(0)).toBe(false);
    critic.evaluate(frameOf({ [F]: 1 }));
    expect(critic.isClear(0)).toBe(true);
  });
});

describe('proposals', () => {
  it('carry the rule id, action, recovery, priority, safety flag, scale and evidence', () => {
    const critic = new TemporalCritic(
      ruleSet([
        { id: 'slow', when: { op: 'gt', feature: F, value: 0 }, propose: { action: 'clamp', scale: 0.3 } },
        {
          id: 'fix',
          when: { op: 'gt', feature: F, value: 0 },
          propose: { action: 'recovery', recovery: 'regrasp', priority: 4 },
          safety: true,
          evidence: ['ep-12', 'cluster-3'],
        },
      ]),
    );
    const r = critic.evaluate(frameOf({ [F]: 1 }));
    expect(r.count).toBe(2);
    expect(r.proposals[0]).toMatchObject({ ruleId: 'slow', action: 'clamp', scale: 0.3, priority: 0, safety: false, recovery: null });
    expect(r.proposals[1]).toMatchObject({
      ruleId: 'fix',
      ruleIndex: 1,
      action: 'recovery',
      recovery: 'regrasp',
      priority: 4,
      safety: true,
      evidence: ['ep-12', 'cluster-3'],
    });
  });
});
