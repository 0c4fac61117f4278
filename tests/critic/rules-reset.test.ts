// Episode reset and guard deactivation: what temporal state survives and what starts over.
// A reset critic must behave exactly like a freshly built one — guards' windows included, in every
// evaluation path (the rule table, the per-rule closures, and the closures-only fallback).
import { describe, expect, it } from 'vitest';
import { BENCH_LAYOUT, BENCH_RECOVERIES, makeWorkload, rng } from '../../bench/critic-workload.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { NaiveCritic } from '../../bench/naive-interpreter.js';
import { compileRules } from '../../critic/rules/compile.js';
import { RULE_FIRED, RULE_HOLDING, RULE_INACTIVE, RULE_UNKNOWN, type CompiledRule } from '../../critic/rules/compiled-rule.js';
import { RuleFileSchema, type Condition, type RuleFile, type RuleInput } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';

const compile = (file: RuleFile) => compileRules(file, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES });
const parse = (rules: RuleInput[]) => RuleFileSchema.parse({ rules });

/** A guard that looks back: "grasped at some point in the last 15 steps". */
const GRASPED_RECENTLY: Condition = { op: 'eventually', window: 15, cond: { op: 'eq', feature: 'privileged.grasped', value: 1 } };
const LOW: Condition = { op: 'lt', feature: 'robot.eef_z', value: 1 };
const WINDOWED_GUARD: RuleInput = { id: 'held_then_low', guards: [GRASPED_RECENTLY], when: LOW, dwell: 2, propose: { action: 'hold' } };

/** Rules that overflow the table arenas, so the set runs through the closures-only fallback. */
const HUGE: RuleInput[] = Array.from({ length: 40 }, (_, i) => ({
  id: `huge${i}`,
  when: { op: 'stagnant', feature: 'robot.eef_x', window: 10_000, eps: 0.01 },
  propose: { action: 'hold' },
}));

function values(grasped: number, z: number, extra: Record<string, number> = {}): Float64Array {
  const f = new FeatureFrame(BENCH_LAYOUT);
  f.set('privileged.grasped', grasped);
  f.set('robot.eef_z', z);
  f.set('robot.eef_x', 0);
  for (const [k, x] of Object.entries(extra)) f.set(k, x);
  return Float64Array.from(f.values);
}

/** Episode 1: grasped for its last 10 of 20 steps (the guard's window is full of it). Episode 2: never grasped. */
const EPISODE_1 = Array.from({ length: 20 }, (_, t) => values(t >= 10 ? 1 : 0, 0.5));
const EPISODE_2 = Array.from({ length: 20 }, () => values(0, 0.5));

/** One evaluation path, driven step by step: status and margin of rule 0. */
interface Path {
  step(v: Float64Array): [number, number];
  reset(): void;
}

function tablePath(rules: RuleInput[]): Path {
  const critic = new TemporalCritic(compile(parse(rules)));
  return { step: (v) => (critic.evaluate(v), [critic.result.status[0]!, critic.result.margins[0]!]), reset: () => critic.reset() };
}

function closurePath(rules: RuleInput[]): Path {
  const rule: CompiledRule = compile(parse(rules)).rules[0]!;
  return { step: (v) => [rule.step(v), rule.margin], reset: () => rule.reset() };
}

const PATHS: [string, (rules: RuleInput[]) => Path][] = [
  ['rule table', tablePath],
  ['closures', closurePath],
  ['closures-only fallback', (rules) => tablePath([...rules, ...HUGE])],
];

describe('episode reset', () => {
  it('the closures-only fallback really is taken for the padded set', () => {
    expect(compile(parse([WINDOWED_GUARD, ...HUGE])).table.tableRules).toBe(0);
  });

  it.each(PATHS)('clears the windows inside guards (%s)', (_, make) => {
    const path = make([WINDOWED_GUARD]);
    const ep1 = EPISODE_1.map((v) => path.step(v)[0]);
    expect(ep1.slice(10, 12)).toEqual([RULE_HOLDING, RULE_FIRED]); // the guard's window did fill
    path.reset();
    // Nothing was grasped in this episode: the guard is false from its first step. Before the fix
    // the guard still saw episode 1's grasp and the rule fired at step 2.
    const ep2 = EPISODE_2.map((v) => path.step(v)[0]);
    expect(ep2).toEqual(EPISODE_2.map(() => RULE_INACTIVE));
  });

  it.each(PATHS)('a reset critic matches a fresh one, step for step, on random rules with temporal guards (%s)', (_, make) => {
    const w = makeWorkload(17, 8, 900);
    const rules = randomRules(23, 24, w.frames);
    for (let i = 0; i < rules.length; i++) {
      const mine = [rules[i]!, ...rules.filter((_, k) => k !== i)];
      const reused = make(mine);
      for (const v of w.frames.slice(0, 400)) reused.step(v);
      reused.reset();
      const fresh = make(mine);
      w.frames.slice(400).forEach((v, t) => {
        const a = reused.step(v),
          b = fresh.step(v);
        if (a[0] !== b[0] || !Object.is(a[1], b[1])) throw new Error(`rule ${rules[i]!.id}, step ${t}: reset ${a}, fresh ${b}`);
      });
    }
  });

  it('the naive interpreter, started fresh, agrees with the reset compiled critic', () => {
    // The naive interpreter has no reset: a new instance is its episode start.
    const file = parse([WINDOWED_GUARD, { ...WINDOWED_GUARD, id: 'b', when: { op: 'eventually', window: 3, cond: LOW } }]);
    const critic = new TemporalCritic(compile(file));
    const records = (vs: Float64Array[]) =>
      vs.map((v) => {
        const f = new FeatureFrame(BENCH_LAYOUT);
        f.values.set(v);
        return f.toRecord();
      });
    const check = (naive: NaiveCritic, vs: Float64Array[]) =>
      records(vs).forEach((rec, t) => {
        const r = critic.evaluate(vs[t]!);
        const n = naive.evaluate(rec);
        expect(n.fired, `step ${t}`).toEqual(file.rules.filter((_, k) => r.status[k] === RULE_FIRED).map((x) => x.id));
        expect(n.unknown, `step ${t}`).toEqual(file.rules.filter((_, k) => r.status[k] === RULE_UNKNOWN).map((x) => x.id));
      });
    check(new NaiveCritic(file), EPISODE_1);
    critic.reset();
    check(new NaiveCritic(file), EPISODE_2);
  });
});

describe('a false guard', () => {
  // As critic/README.md's rule section says: "a false guard makes the rule inactive and resets its
  // condition's windows and its dwell count (not its cooldown)".
  const always3: Condition = { op: 'always', window: 3, cond: LOW };
  const guarded = (guards: Condition[]): RuleInput => ({ id: 'g', guards, when: always3, propose: { action: 'hold' } });
  const notInRecovery: Condition = { op: 'eq', feature: 'episode.in_recovery', value: 0 };

  it.each(PATHS)("resets the condition's windows, for a comparison guard and a temporal one (%s)", (_, make) => {
    for (const guards of [[notInRecovery], [GRASPED_RECENTLY, notInRecovery]]) {
      const path = make([guarded(guards)]);
      const step = (rec: number) => path.step(values(1, 0.5, { 'episode.in_recovery': rec }))[0];
      expect([step(0), step(0), step(0)]).toEqual([1, 1, RULE_FIRED]); // clear, clear (window short), fired
      expect(step(1)).toBe(RULE_INACTIVE);
      // The condition's window started over: `always` over 3 needs 3 new steps.
      expect([step(0), step(0), step(0)]).toEqual([1, 1, RULE_FIRED]);
    }
  });
});

/** Rules whose guards hold temporal operators (so they run through the closures) and some that do not. */
function randomRules(seed: number, n: number, frames: readonly Float64Array[]): RuleInput[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const NUMERIC = ['robot.eef_z', 'derived.gripper_width', 'privileged.object_height', 'privileged.contact_force', 'derived.eef_speed'];
  const BOOLEAN = ['privileged.grasped', 'command.stalled', 'episode.in_recovery', 'derived.gripper_closed'];
  const leaf = (): Condition => {
    if (r() < 0.3) return { op: pick(['eq', 'ne'] as const), feature: pick(BOOLEAN), value: r() < 0.5 ? 0 : 1 };
    const feature = pick(NUMERIC);
    const x = frames[Math.floor(r() * frames.length)]![BENCH_LAYOUT.index(feature)]!;
    return { op: pick(['lt', 'le', 'gt', 'ge'] as const), feature, value: Number.isFinite(x) ? x : 0 };
  };
  const temporal = (): Condition => {
    const window = 2 + Math.floor(r() * 12);
    const k = Math.floor(r() * 4);
    if (k === 0) return { op: 'stagnant', feature: pick(NUMERIC), window, eps: r() * 0.02 };
    if (k === 1) return { op: pick(['rising', 'falling'] as const), feature: pick(NUMERIC), window, by: r() * 0.01 };
    return {
      op: pick(['always', 'eventually'] as const),
      window,
      cond: r() < 0.5 ? leaf() : { op: pick(['and', 'or'] as const), args: [leaf(), leaf()] },
    };
  };
  const cond = (): Condition =>
    r() < 0.6 ? temporal() : { op: pick(['and', 'or'] as const), args: [leaf(), r() < 0.5 ? temporal() : leaf()] };
  return Array.from({ length: n }, (_, i) => ({
    id: `r${i}`,
    guards: r() < 0.75 ? Array.from({ length: 1 + Math.floor(r() * 2) }, () => (r() < 0.6 ? temporal() : leaf())) : [],
    when: cond(),
    dwell: 1 + Math.floor(r() * 3),
    cooldown: Math.floor(r() * 6),
    propose: { action: 'hold' },
  }));
}
