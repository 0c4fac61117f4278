// Property: every recovery program ends within its budget, whatever the features say — random
// programs (tools, stop conditions, nested fallbacks) over random frames (NaN and ±Infinity
// included). Also: every action a tool writes is finite and inside the normalized range.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeatureFrame } from '../../critic/features/frame.js';
import { loadRecoveries } from '../../critic/recovery/compile.js';
import { RECOVERY_ACTING, RecoveryExecutor } from '../../critic/recovery/executor.js';
import type { Condition } from '../../critic/rules/schema.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const names = TABLETOP_LAYOUT.features.map((f) => f.name);
const feature = fc.constantFrom(...names);
const num = fc.double({ min: -2, max: 2, noNaN: true });

const condition: fc.Arbitrary<Condition> = fc.letrec<{ c: Condition }>((tie) => ({
  c: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ op: fc.constantFrom('lt', 'le', 'gt', 'ge', 'eq', 'ne'), feature, value: num }),
    fc.record({
      op: fc.constant('stagnant'),
      feature,
      window: fc.integer({ min: 2, max: 5 }),
      eps: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc.record({ op: fc.constantFrom('rising', 'falling'), feature, window: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ op: fc.constantFrom('always', 'eventually'), window: fc.integer({ min: 1, max: 4 }), cond: tie('c') }),
    fc.record({ op: fc.constantFrom('and', 'or'), args: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ op: fc.constant('not'), arg: tie('c') }),
  ) as fc.Arbitrary<Condition>,
})).c;

const point = fc.constantFrom('object', 'target', 'handle');
const speed = fc.double({ min: 0.05, max: 1, noNaN: true });
const toolCall = fc.oneof(
  fc.record({ tool: fc.constantFrom('hold', 'open_gripper', 'close_gripper', 'release'), params: fc.constant({}) }),
  fc.record({ tool: fc.constantFrom('lift', 'retreat'), params: fc.record({ to_z: num, speed }, { requiredKeys: [] }) }),
  fc.record({ tool: fc.constant('move_above'), params: fc.record({ point, height: num, speed }, { requiredKeys: ['point'] }) }),
  fc.record({
    tool: fc.constantFrom('descend', 'lower', 'press'),
    params: fc.record({ point, to_z: num, offset: num }, { requiredKeys: [] }),
  }),
  fc.record({ tool: fc.constantFrom('pull', 'push'), params: fc.record({ direction: fc.tuple(fc.constant(1), num, num), speed }) }),
);

interface StepJson {
  tool: string;
  params: object;
  budget: number;
  until?: Condition;
  fallback: unknown;
}
const steps = fc.letrec<{ steps: StepJson[]; fallback: unknown }>((tie) => ({
  steps: fc.array(
    fc
      .record(
        { call: toolCall, budget: fc.integer({ min: 1, max: 12 }), until: condition, fallback: tie('fallback') },
        { requiredKeys: ['call', 'budget', 'fallback'] },
      )
      .map(({ call, ...rest }) => ({ ...call, ...rest }) as StepJson),
    { minLength: 1, maxLength: 4, depthIdentifier: 'steps' },
  ),
  fallback: fc.oneof({ depthSize: 'small' }, fc.constantFrom('hold', 'abort', 'skip'), fc.record({ steps: tie('steps') })),
})).steps;

const program = fc.record({
  id: fc.constant('p'),
  budget: fc.integer({ min: 1, max: 80 }),
  steps,
  on_exhausted: fc.constantFrom('resume', 'abort'),
  reentry: fc.record({ stable_steps: fc.integer({ min: 0, max: 6 }), max_speed: fc.double({ min: 0, max: 1, noNaN: true }) }),
});

const value = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e308) },
);
const frames = fc.array(fc.array(value, { minLength: TABLETOP_LAYOUT.features.length, maxLength: TABLETOP_LAYOUT.features.length }), {
  minLength: 1,
  maxLength: 6,
});

describe('recovery programs always end within their budget', () => {
  it('over random programs and random feature frames', () => {
    fc.assert(
      fc.property(program, frames, fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }), (prog, rows, clears) => {
        const ex = new RecoveryExecutor(loadRecoveries({ programs: [prog] }, { layout: TABLETOP_LAYOUT, privileged: true }));
        const pool = rows.map((r) => {
          const f = new FeatureFrame(TABLETOP_LAYOUT);
          f.values.set(r);
          return f;
        });
        const out = new Float32Array(7);
        ex.start('p');
        let acting = 0;
        let calls = 0;
        for (; calls <= prog.budget; calls++) {
          out.fill(Number.NaN);
          const code = ex.tick(pool[calls % pool.length]!, clears[calls % clears.length]!, out);
          if (code !== RECOVERY_ACTING) break;
          acting++;
          for (const x of out) expect(Number.isFinite(x) && Math.abs(x) <= 1).toBe(true);
        }
        expect(acting).toBeLessThanOrEqual(prog.budget);
        expect(calls).toBeLessThanOrEqual(prog.budget); // the terminal call came by budget + 1
        expect(ex.running).toBe(false);
        expect(ex.tick(pool[0]!, true, out)).not.toBe(RECOVERY_ACTING); // and it stays ended
      }),
      { numRuns: 400 },
    );
  });
});
