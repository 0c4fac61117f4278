// The chunk-boundary check of a manifest's lag answer (critic/bundles/lag-condition.ts): a condition
// asked only at chunk boundaries may not look back over steps, whichever op does it and however deep
// it sits. Which ops look back is each op's own `lookBack` (critic/rules/ops/).
import { describe, expect, it } from 'vitest';
import { compileLagCondition } from '../../critic/bundles/lag-condition.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { opOf, type Op } from '../../critic/rules/ops/index.js';
import type { Condition } from '../../critic/rules/schema.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const FEATURES = { layout: TABLETOP_LAYOUT, privileged: false };
const Z = 'robot.eef_z';
const LOW: Condition = { op: 'lt', feature: Z, value: 0.1 };

const compile = (when: Condition) => compileLagCondition('wait_out_lag', { when }, FEATURES, 'manifest.json');

/** Every op that looks back, with a condition of it (a one-step window still keeps history). */
const LOOKING_BACK: readonly (readonly [Op, Condition])[] = [
  ['stagnant', { op: 'stagnant', feature: Z, window: 2, eps: 0.01 }],
  ['rising', { op: 'rising', feature: Z, window: 1 }],
  ['falling', { op: 'falling', feature: Z, window: 3, by: 0.1 }],
  ['always', { op: 'always', window: 1, cond: LOW }],
  ['eventually', { op: 'eventually', window: 4, cond: LOW }],
];

describe('a lag answer’s condition at chunk boundaries', () => {
  it('names exactly the look-back ops of before: stagnant, rising, falling, always, eventually', () => {
    const samples = new Map<Op, Condition>([
      ...LOOKING_BACK,
      ['not', { op: 'not', arg: LOW }],
      ['and', { op: 'and', args: [LOW] }],
      ['or', { op: 'or', args: [LOW] }],
    ]);
    for (const op of ['lt', 'le', 'gt', 'ge', 'eq', 'ne'] as const) samples.set(op, { op, feature: Z, value: 0 });
    const lookingBack = [...samples].filter(([, c]) => opOf(c).lookBack(c) !== null).map(([op]) => op);
    expect(lookingBack.sort()).toEqual(['always', 'eventually', 'falling', 'rising', 'stagnant']);
  });

  it.each(LOOKING_BACK)('refuses %s, alone or deep inside and / or / not, naming it', (op, c) => {
    const message = new RegExp(`wait_out_lag\\.when: "${op}" looks back over steps`);
    expect(() => compile(c)).toThrow(message);
    expect(() => compile({ op: 'not', arg: c })).toThrow(message);
    expect(() => compile({ op: 'and', args: [LOW, { op: 'or', args: [{ op: 'not', arg: LOW }, c] }] })).toThrow(message);
  });

  it('names the first look-back op it meets, an outer window before the one inside it', () => {
    const inner: Condition = { op: 'stagnant', feature: Z, window: 3, eps: 0 };
    expect(() =>
      compile({ op: 'or', args: [LOW, { op: 'eventually', window: 2, cond: inner }, { op: 'rising', feature: Z, window: 2 }] }),
    ).toThrow(/"eventually" looks back/);
  });

  it('takes comparisons, and, or, not, and answers on the frame', () => {
    const when = compile({
      op: 'and',
      args: [
        { op: 'not', arg: LOW },
        {
          op: 'or',
          args: [
            { op: 'le', feature: Z, value: 0.5 },
            { op: 'eq', feature: Z, value: 1 },
          ],
        },
      ],
    })!;
    const frame = new FeatureFrame(TABLETOP_LAYOUT);
    frame.set(Z, 0.3);
    expect(when(frame.values)).toBe(true);
    frame.set(Z, 0.05);
    expect(when(frame.values)).toBe(false);
  });
});
