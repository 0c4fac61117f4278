// The rule table's two kinds of window (critic/rules/table.ts): small ones (≤ 16 steps) keep a ring
// and its running maximum, longer ones a sliding-extremum deque. Both must match the closures
// (temporal.ts) bit for bit — margins included, NaN, ±Infinity and −0 too — across window sizes,
// guards, NaN gaps and resets.
import { describe, expect, it } from 'vitest';
import { BENCH_LAYOUT, BENCH_RECOVERIES, makeWorkload, rng } from '../../bench/critic-workload.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { compileRules } from '../../critic/rules/compile.js';
import { RuleFileSchema, type Condition, type RuleFile, type RuleInput } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';

const compile = (file: RuleFile) => compileRules(file, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES });

/** Table (through TemporalCritic) against the closures of a second compile, every step. */
function agree(file: RuleFile, frames: readonly Float64Array[], resetEvery = 0): { fired: number; tableRules: number } {
  const set = compile(file);
  const critic = new TemporalCritic(set);
  const ref = compile(file).rules;
  let fired = 0;
  frames.forEach((v, step) => {
    if (resetEvery > 0 && step % resetEvery === resetEvery - 1) {
      critic.reset();
      for (const rule of ref) rule.reset();
    }
    const r = critic.evaluate(v);
    ref.forEach((rule, i) => {
      const s = rule.step(v);
      if (r.status[i] !== s || !Object.is(r.margins[i], rule.margin)) {
        throw new Error(`step ${step}, rule ${rule.id}: table ${r.status[i]} / ${r.margins[i]}, closures ${s} / ${rule.margin}`);
      }
    });
    fired += r.count;
  });
  return { fired, tableRules: set.table.tableRules };
}

const NUMERIC = [
  'robot.eef_z',
  'derived.gripper_width',
  'privileged.object_height',
  'privileged.contact_force',
  'derived.eef_speed',
  'command.direction_cosine',
];
const BOOLEAN = ['privileged.grasped', 'command.stalled', 'episode.in_recovery'];

function windowRules(seed: number, n: number, frames: readonly Float64Array[], windows: readonly number[]): RuleFile {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const leaf = (): Condition => {
    if (r() < 0.3) return { op: pick(['eq', 'ne'] as const), feature: pick(BOOLEAN), value: r() < 0.5 ? 0 : 1 };
    const feature = pick(NUMERIC);
    const x = frames[Math.floor(r() * frames.length)]![BENCH_LAYOUT.index(feature)]!;
    return { op: pick(['lt', 'le', 'gt', 'ge'] as const), feature, value: Number.isFinite(x) ? x : 0 };
  };
  const sub = (): Condition =>
    r() < 0.5 ? leaf() : { op: pick(['and', 'or'] as const), args: [leaf(), r() < 0.5 ? leaf() : { op: 'not', arg: leaf() }] };
  const rules: RuleInput[] = Array.from({ length: n }, (_, i) => {
    const window = pick(windows);
    const when: Condition =
      r() < 0.35
        ? { op: 'stagnant', feature: pick(NUMERIC), window: Math.max(2, window), eps: r() * 0.02 }
        : { op: pick(['always', 'eventually'] as const), window, cond: sub() };
    return {
      id: `w${i}`,
      guards: r() < 0.3 ? [leaf()] : [],
      when: r() < 0.3 ? { op: pick(['and', 'or'] as const), args: [when, leaf()] } : when,
      dwell: 1 + Math.floor(r() * 2),
      cooldown: Math.floor(r() * 3),
      propose: { action: 'hold' },
    };
  });
  return RuleFileSchema.parse({ rules });
}

describe('rule table windows', () => {
  it.each([2, 9, 31])('small, boundary and long windows match the closures (seed %i)', (seed) => {
    const w = makeWorkload(seed, 8, 1600);
    const out = agree(windowRules(seed, 60, w.frames, [1, 2, 3, 5, 8, 15, 16, 17, 24, 40]), w.frames, 650);
    expect(out.tableRules).toBe(60);
    expect(out.fired).toBeGreaterThan(0);
  });

  it('infinite values and thresholds (NaN margins on known steps) match the closures, small and long windows', () => {
    // eq(x, ∞) with x = ∞ holds with margin |∞ − ∞| = NaN: a known step with a NaN margin, which
    // evicts older values from a deque. A rule file cannot say ∞ (JSON, and the schema wants finite
    // numbers), so the thresholds are set after validation: compileRules takes any RuleFile.
    const X = 'robot.eef_x',
      Y = 'robot.eef_y';
    const subs: Condition[] = [
      { op: 'eq', feature: X, value: 1e308 },
      { op: 'ne', feature: X, value: -1e308 },
      { op: 'lt', feature: X, value: 0 },
      {
        op: 'or',
        args: [
          { op: 'ge', feature: X, value: -0 },
          { op: 'eq', feature: Y, value: 1 },
        ],
      },
    ];
    const rules: RuleInput[] = [];
    for (const window of [2, 3, 7, 16, 17, 23]) {
      subs.forEach((cond, k) => {
        for (const op of ['always', 'eventually'] as const)
          rules.push({ id: `${op}${window}_${k}`, when: { op, window, cond }, propose: { action: 'hold' } });
      });
      rules.push({
        id: `st${window}`,
        when: { op: 'stagnant', feature: X, window: Math.max(2, window), eps: 0 },
        propose: { action: 'hold' },
      });
    }
    const file = RuleFileSchema.parse({ rules });
    const infinite = (c: { value?: number; cond?: unknown; args?: unknown[] }): void => {
      if (c.value === 1e308 || c.value === -1e308) c.value = c.value * 10; // ±Infinity
      if (c.cond) infinite(c.cond as never);
      c.args?.forEach((a) => infinite(a as never));
    };
    file.rules.forEach((rule) => infinite(rule.when as never));
    expect(
      file.rules.filter((rule) => JSON.stringify(rule.when, (_, x) => (Math.abs(x) === Infinity ? 'INF' : x)).includes('INF')).length,
    ).toBe(24); // 6 windows × 2 conditions × always, eventually
    const r = rng(5);
    const xs = [0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5];
    const frames = Array.from({ length: 900 }, (_, t) => {
      const v = new Float64Array(new FeatureFrame(BENCH_LAYOUT).values.length).fill(NaN);
      // Runs of one value (ties, ±0) mixed with changes, so maxima expire and repeat.
      v[BENCH_LAYOUT.index(X)] = t % 40 < 12 ? xs[(t >> 2) % xs.length]! : xs[Math.floor(r() * xs.length)]!;
      v[BENCH_LAYOUT.index(Y)] = r() < 0.2 ? NaN : Math.floor(r() * 2);
      return v;
    });
    expect(agree(file, frames, 300).tableRules).toBe(rules.length);
  });
});
