// The rule table's plan (critic/rules/table/plan.ts): which rules the table takes, the deduplicated
// comparisons it evaluates once per step, and the grouping of temporal nodes into the loops that
// run them. Behaviour is checked against the closures in rules-table*.test.ts; this pins the plan.
import { describe, expect, it } from 'vitest';
import { RuleFileSchema, type RuleInput } from '../../critic/rules/schema.js';
import { planTable } from '../../critic/rules/table/plan.js';
import { OP_GE, OP_LT } from '../../critic/rules/truth.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const plan = (rules: RuleInput[]) => planTable(RuleFileSchema.parse({ rules }), TABLETOP_LAYOUT);
const rule = (id: string, when: RuleInput['when'], extra: Partial<RuleInput> = {}): RuleInput => ({
  id,
  when,
  propose: { action: 'hold' },
  ...extra,
});
const lt = (value: number) => ({ op: 'lt' as const, feature: 'robot.eef_z', value });

describe('rule table plan', () => {
  it('evaluates each distinct comparison once, −0 apart from 0, with not folded in', () => {
    const p = plan([
      rule('a', lt(0.1), { guards: [lt(0.1)] }),
      rule('b', { op: 'and', args: [lt(0.1), lt(-0), lt(0)] }),
      rule('c', { op: 'not', arg: lt(0.2) }), // ge 0.2
    ]);
    expect(p.comparisons.map((c) => [c.op, c.t])).toEqual([
      [OP_LT, 0.1],
      [OP_LT, -0],
      [OP_LT, 0],
      [OP_GE, 0.2],
    ]);
    expect(Object.is(p.comparisons[1]!.t, -0)).toBe(true);
    expect(p.rows.map((r) => r.root)).toEqual([0, 4, 3]); // b's and is the first operand past the comparisons
    expect(p.guards).toEqual([{ rule: 0, args: [0] }]);
    expect(p.logic).toEqual([{ op: 'and', rule: 1, out: 4, args: [0, 1, 2] }]);
  });

  it('hands rules with a temporal guard or a window over a temporal condition to their closures', () => {
    const stagnant = { op: 'stagnant' as const, feature: 'robot.eef_z', window: 4, eps: 0.01 };
    const p = plan([
      rule('guard', lt(0.1), { guards: [stagnant] }),
      rule('nested', { op: 'always', window: 3, cond: stagnant }),
      rule('ok', { op: 'always', window: 3, cond: lt(0.1) }),
    ]);
    expect(p.rows.map((r) => r.root >= 0)).toEqual([false, false, true]);
    expect(p.stagnant).toEqual([]);
    expect(p.windows).toHaveLength(1);
  });

  it('groups windows (small always, small eventually, long) and stagnant nodes (small, long), and renumbers each rule’s nodes', () => {
    const w = (op: 'always' | 'eventually', window: number) => ({ op, window, cond: lt(0.1) });
    const st = (window: number) => ({ op: 'stagnant' as const, feature: 'robot.eef_z', window, eps: 0.01 });
    const p = plan([
      rule('a', { op: 'or', args: [w('eventually', 40), w('eventually', 5), st(40)] }),
      rule('b', { op: 'and', args: [w('always', 40), w('always', 5), st(5), { op: 'rising', feature: 'robot.eef_z', window: 3 }] }),
    ]);
    expect(p.windows.map((x) => `${x.always ? 'always' : 'eventually'} ${x.win}`)).toEqual([
      'always 5',
      'eventually 5',
      'eventually 40',
      'always 40',
    ]);
    expect(p.stagnant.map((x) => x.win)).toEqual([5, 40]);
    expect(p.nodesOf).toEqual([
      [
        { kind: 'window', id: 2 },
        { kind: 'window', id: 1 },
        { kind: 'stagnant', id: 1 },
      ],
      [
        { kind: 'window', id: 3 },
        { kind: 'window', id: 0 },
        { kind: 'stagnant', id: 0 },
        { kind: 'trend', id: 0 },
      ],
    ]);
    expect(p.nPureLogic).toBe(0); // both read temporal nodes: they run after them
  });
});
