// The one wording of conditions (critic/rules/describe.ts): every op in words, nesting that reads as
// it evaluates, and data of an unknown shape as JSON instead of a guess.
import { describe, expect, it } from 'vitest';
import { describeCondition } from '../../critic/rules/describe.js';
import type { Op } from '../../critic/rules/ops/index.js';
import type { Condition } from '../../critic/rules/schema.js';

const LOW: Condition = { op: 'lt', feature: 'a', value: 1 };

/** Per op, a condition and its words (a new op must add its row to type-check). */
const WORDS: { readonly [K in Op]: readonly [Condition & { readonly op: K }, string] } = {
  lt: [{ op: 'lt', feature: 'a', value: 1 }, 'a < 1'],
  le: [{ op: 'le', feature: 'a', value: 1 }, 'a ≤ 1'],
  gt: [{ op: 'gt', feature: 'a', value: -2 }, 'a > -2'],
  ge: [{ op: 'ge', feature: 'a', value: 0.5 }, 'a ≥ 0.5'],
  eq: [{ op: 'eq', feature: 'b', value: 0 }, 'b = 0'],
  ne: [{ op: 'ne', feature: 'b', value: 1 }, 'b ≠ 1'],
  stagnant: [{ op: 'stagnant', feature: 'z', window: 5, eps: 0.01 }, 'z stays within 0.01 over 5 steps'],
  rising: [{ op: 'rising', feature: 'z', window: 4, by: 0.02 }, 'z rises by more than 0.02 over 4 steps'],
  falling: [{ op: 'falling', feature: 'z', window: 4 }, 'z falls over 4 steps'],
  always: [{ op: 'always', window: 3, cond: LOW }, 'at every one of the last 3 steps: a < 1'],
  eventually: [{ op: 'eventually', window: 3, cond: LOW }, 'at least once of the last 3 steps: a < 1'],
  and: [{ op: 'and', args: [LOW, { op: 'gt', feature: 'c', value: 2 }] }, 'a < 1 and c > 2'],
  or: [{ op: 'or', args: [LOW, { op: 'and', args: [LOW, LOW] }] }, 'a < 1 or (a < 1 and a < 1)'],
  not: [{ op: 'not', arg: LOW }, 'not (a < 1)'],
};

describe('a condition in words', () => {
  it.each(Object.entries(WORDS))('words %s', (_op, [condition, words]) => {
    expect(describeCondition(condition)).toBe(words);
  });

  it('words sub-conditions through their own ops, parenthesizing a nested and/or', () => {
    const c: Condition = {
      op: 'not',
      arg: { op: 'eventually', window: 2, cond: { op: 'or', args: [LOW, { op: 'rising', feature: 'z', window: 3 }] } },
    };
    expect(describeCondition(c)).toBe('not (at least once of the last 2 steps: a < 1 or z rises over 3 steps)');
    expect(describeCondition({ op: 'and', args: [{ op: 'or', args: [LOW, LOW] }, LOW] })).toBe('(a < 1 or a < 1) and a < 1');
  });

  it('writes what is not a condition as JSON, or as the caller asks, at the node where it appears', () => {
    expect(describeCondition({ op: 'warp', feature: 'a' })).toBe('{"op":"warp","feature":"a"}');
    expect(describeCondition(null)).toBe('null');
    expect(describeCondition({ op: 'and', args: 'a < 1' })).toBe('{"op":"and","args":"a < 1"}');
    expect(describeCondition({ op: 'not', arg: 7 })).toBe('not (7)');
    expect(describeCondition({ op: 'not', arg: { op: 'warp' } }, () => '?')).toBe('not (?)');
  });
});
