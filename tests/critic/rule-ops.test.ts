// One definition per condition op (critic/rules/ops/): the table covers every op of the schema, a
// table or op that leaves a part out does not compile, and per op the reference interpreter agrees
// with the compiled critic. The `@ts-expect-error` lines are checked by `tsc -p tsconfig.json`
// (tests are in its include): should leaving an op or a part out ever type-check, the unused
// directive is itself the error.
import { describe, expect, it } from 'vitest';
import { BENCH_LAYOUT, makeWorkload } from '../../bench/critic-workload.js';
import { NaiveCritic } from '../../bench/naive-interpreter.js';
import { compileRules } from '../../critic/rules/compile.js';
import { RULE_FIRED, RULE_UNKNOWN } from '../../critic/rules/compiled-rule.js';
import { OPS, isOp, type Op, type OpTable } from '../../critic/rules/ops/index.js';
import { ConditionSchema, RuleFileSchema, type Condition } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';

const Z = 'robot.eef_z',
  FORCE = 'privileged.contact_force',
  WIDTH = 'derived.gripper_width';

/** A condition of every op, over features of the benchmark's world (the force sensor drops out: NaN). */
const SAMPLES: { readonly [K in Op]: Condition & { readonly op: K } } = {
  lt: { op: 'lt', feature: Z, value: 0.2 },
  le: { op: 'le', feature: FORCE, value: 0.5 },
  gt: { op: 'gt', feature: WIDTH, value: 0.04 },
  ge: { op: 'ge', feature: FORCE, value: 0.5 },
  eq: { op: 'eq', feature: WIDTH, value: 0 },
  ne: { op: 'ne', feature: 'command.stalled', value: 0 },
  stagnant: { op: 'stagnant', feature: Z, window: 6, eps: 0.02 },
  rising: { op: 'rising', feature: Z, window: 4, by: 0.01 },
  falling: { op: 'falling', feature: WIDTH, window: 3 },
  always: { op: 'always', window: 4, cond: { op: 'gt', feature: FORCE, value: 0.48 } },
  eventually: { op: 'eventually', window: 5, cond: { op: 'not', arg: { op: 'lt', feature: Z, value: 0.25 } } },
  and: {
    op: 'and',
    args: [
      { op: 'lt', feature: Z, value: 0.3 },
      { op: 'stagnant', feature: WIDTH, window: 3, eps: 0.001 },
    ],
  },
  or: {
    op: 'or',
    args: [
      { op: 'ge', feature: FORCE, value: 0.55 },
      { op: 'rising', feature: Z, window: 2 },
    ],
  },
  not: { op: 'not', arg: { op: 'always', window: 3, cond: { op: 'gt', feature: WIDTH, value: 0.05 } } },
};
const ALL_OPS = Object.keys(SAMPLES) as Op[];

describe('the table of condition ops', () => {
  it('has an entry for exactly the ops the schema accepts', () => {
    expect(Object.keys(OPS).sort()).toEqual([...ALL_OPS].sort());
    for (const op of ALL_OPS) expect(ConditionSchema.parse(SAMPLES[op]), op).toEqual(SAMPLES[op]);
    expect(ConditionSchema.safeParse({ op: 'warp', feature: Z, value: 1 }).success).toBe(false);
    expect(isOp('warp')).toBe(false);
    expect(ALL_OPS.every(isOp)).toBe(true);
  });

  it('keeps each op’s own limits in its schema piece', () => {
    expect(ConditionSchema.safeParse({ op: 'stagnant', feature: Z, window: 1, eps: 0 }).success).toBe(false); // window ≥ 2
    expect(ConditionSchema.safeParse({ op: 'rising', feature: Z, window: 3, by: -1 }).success).toBe(false);
    expect(ConditionSchema.safeParse({ op: 'and', args: [] }).success).toBe(false);
    expect(ConditionSchema.safeParse({ op: 'lt', feature: Z, value: 1, window: 3 }).success).toBe(false); // strict
  });

  it('does not type-check without one of the ops', () => {
    const { not: _not, ...withoutNot } = OPS;
    // @ts-expect-error: "not" is missing, and the table needs every op
    const table: OpTable = withoutNot;
    expect(Object.keys(table)).toHaveLength(ALL_OPS.length - 1);
  });

  it('does not type-check an op that does not say how far it looks back', () => {
    const { lookBack: _lookBack, ...stagnantWithoutLookBack } = OPS.stagnant;
    // @ts-expect-error: the chunk-boundary check (bundles/lag-condition.ts) reads every op's look-back
    const stagnant: OpTable['stagnant'] = stagnantWithoutLookBack;
    expect('lookBack' in stagnant).toBe(false);
  });

  it('does not type-check an op without its words', () => {
    const { describe: _describe, ...alwaysWithoutWords } = OPS.always;
    // @ts-expect-error: the describer (rules/describe.ts) words every op through its definition
    const always: OpTable['always'] = alwaysWithoutWords;
    expect('describe' in always).toBe(false);
  });
});

describe('per op, the reference interpreter and the compiled critic', () => {
  it.each(ALL_OPS)('fire and report NaN on the same steps for %s', (op) => {
    const w = makeWorkload(3, 1, 1200);
    const rules = RuleFileSchema.parse({ rules: [{ id: op, when: SAMPLES[op], propose: { action: 'hold' } }] });
    const compiled = new TemporalCritic(compileRules(rules, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: [] }));
    const naive = new NaiveCritic(rules);
    const seen = { fired: 0, clear: 0 };
    w.frames.forEach((frame, i) => {
      const status = compiled.evaluate(frame).status[0];
      const n = naive.evaluate(w.records[i]!);
      expect(n.fired.length === 1, `step ${i}`).toBe(status === RULE_FIRED);
      expect(n.unknown.length === 1, `step ${i}`).toBe(status === RULE_UNKNOWN);
      if (status === RULE_FIRED) seen.fired++;
      else if (status !== RULE_UNKNOWN) seen.clear++;
    });
    // Each sample both fires and does not on this trajectory: the comparison is not vacuous.
    expect(seen.fired).toBeGreaterThan(0);
    expect(seen.clear).toBeGreaterThan(0);
  });
});
