// The rule table (critic/rules/table.ts) against the per-rule closures (CompiledRule.step): same
// status, same margin (bit for bit, NaN and −0 included), same proposals and NaN list, on every
// step, for every shape the table evaluates and for the shapes it hands back to the closures.
import { describe, expect, it } from 'vitest';
import { BENCH_LAYOUT, BENCH_RECOVERIES, makeWorkload, rng } from '../../bench/critic-workload.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { compileRules, type RuleSet } from '../../critic/rules/compile.js';
import { RULE_FIRED, RULE_UNKNOWN } from '../../critic/rules/compiled-rule.js';
import { RuleFileSchema, type Condition, type RuleFile, type RuleInput } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';

const compile = (file: RuleFile): RuleSet =>
  compileRules(file, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES });

/** Runs the table (through TemporalCritic) and the closures of a second compile side by side. */
function compare(file: RuleFile, frames: readonly Float64Array[], resetEvery = 0): { fired: number; unknown: number; tableRules: number } {
  const set = compile(file);
  const critic = new TemporalCritic(set);
  const ref = compile(file).rules;
  let fired = 0,
    unknown = 0;
  frames.forEach((v, step) => {
    if (resetEvery > 0 && step % resetEvery === resetEvery - 1) {
      critic.reset();
      for (const rule of ref) rule.reset();
    }
    const r = critic.evaluate(v);
    const proposals: number[] = [],
      nans: number[] = [];
    ref.forEach((rule, i) => {
      const s = rule.step(v);
      if (r.status[i] !== s || !Object.is(r.margins[i], rule.margin)) {
        throw new Error(`step ${step}, rule ${rule.id}: table ${r.status[i]} / ${r.margins[i]}, closures ${s} / ${rule.margin}`);
      }
      if (s === RULE_FIRED) proposals.push(i);
      if (s === RULE_UNKNOWN) nans.push(i);
    });
    expect(r.proposals.slice(0, r.count).map((p) => p.ruleIndex)).toEqual(proposals);
    expect(Array.from(r.nanRules.subarray(0, r.nanCount))).toEqual(nans);
    fired += r.count;
    unknown += r.nanCount;
  });
  return { fired, unknown, tableRules: set.table.tableRules };
}

// Features the random conditions read, with thresholds drawn from the recorded frames.
const NUMERIC = [
  'robot.eef_z',
  'derived.gripper_width',
  'privileged.object_height',
  'privileged.contact_force',
  'command.direction_cosine',
  'derived.eef_speed',
];
const BOOLEAN = ['privileged.grasped', 'command.stalled', 'episode.in_recovery', 'derived.gripper_closed'];

function randomCondition(r: () => number, frames: readonly Float64Array[], depth: number, temporalOk: boolean): Condition {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const value = (f: string) => {
    const x = frames[Math.floor(r() * frames.length)]![BENCH_LAYOUT.index(f)]!;
    return Number.isFinite(x) ? x : 0; // exact values, so eq/ne and boundaries happen
  };
  const k = depth <= 0 ? 0 : Math.floor(r() * 8);
  if (k <= 1) {
    if (r() < 0.3) return { op: pick(['eq', 'ne'] as const), feature: pick(BOOLEAN), value: r() < 0.5 ? 0 : 1 };
    const feature = pick(NUMERIC);
    return { op: pick(['lt', 'le', 'gt', 'ge'] as const), feature, value: value(feature) };
  }
  if (k === 2) return { op: 'not', arg: randomCondition(r, frames, depth - 1, temporalOk) };
  if (k <= 4)
    return {
      op: pick(['and', 'or'] as const),
      args: Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomCondition(r, frames, depth - 1, temporalOk)),
    };
  if (!temporalOk) return randomCondition(r, frames, 0, false);
  const window = 2 + Math.floor(r() * 6);
  if (k === 5) return { op: 'stagnant', feature: pick(NUMERIC), window, eps: r() * 0.02 };
  if (k === 6) return { op: pick(['rising', 'falling'] as const), feature: pick(NUMERIC), window, by: r() * 0.01 };
  // Windows over anything, temporal included (those rules go back to the closures).
  return { op: pick(['always', 'eventually'] as const), window, cond: randomCondition(r, frames, depth - 1, r() < 0.3) };
}

function randomRules(seed: number, n: number, frames: readonly Float64Array[]): RuleFile {
  const r = rng(seed);
  const rules: RuleInput[] = Array.from({ length: n }, (_, i) => ({
    id: `r${i}`,
    guards: r() < 0.4 ? Array.from({ length: 1 + Math.floor(r() * 2) }, () => randomCondition(r, frames, r() < 0.2 ? 2 : 0, true)) : [],
    when: randomCondition(r, frames, 3, true),
    dwell: 1 + Math.floor(r() * 3),
    cooldown: Math.floor(r() * 4),
    propose: { action: 'hold' },
  }));
  return RuleFileSchema.parse({ rules });
}

describe('rule table', () => {
  it.each([1, 7, 42])('matches the closures on the benchmark workload, with resets (seed %i)', (seed) => {
    const w = makeWorkload(seed, 64, 1200);
    const out = compare(w.rules, w.frames, 500);
    expect(out.tableRules).toBe(64); // every benchmark shape runs in the table
    expect(out.fired).toBeGreaterThan(0);
    expect(out.unknown).toBeGreaterThan(0);
  });

  it.each([3, 11, 29, 101])('matches the closures on random nested rules, guards and windows (seed %i)', (seed) => {
    const w = makeWorkload(seed, 8, 1500);
    const out = compare(randomRules(seed, 48, w.frames), w.frames, 700);
    expect(out.tableRules).toBeGreaterThan(0);
    expect(out.tableRules).toBeLessThan(48); // some shapes went back to the closures
    expect(out.fired).toBeGreaterThan(0);
  });

  it('keeps NaN, infinities and −0 thresholds exact', () => {
    const rules = RuleFileSchema.parse({
      rules: [
        { id: 'a', when: { op: 'lt', feature: 'robot.eef_x', value: -0 }, propose: { action: 'hold' } },
        { id: 'b', when: { op: 'lt', feature: 'robot.eef_x', value: 0 }, propose: { action: 'hold' } },
        { id: 'c', when: { op: 'ne', feature: 'robot.eef_x', value: 0 }, propose: { action: 'hold' } },
        { id: 'd', when: { op: 'rising', feature: 'robot.eef_x', window: 2 }, propose: { action: 'hold' } },
        {
          id: 'e',
          when: {
            op: 'always',
            window: 2,
            cond: {
              op: 'or',
              args: [
                { op: 'ge', feature: 'robot.eef_x', value: 0 },
                { op: 'eq', feature: 'robot.eef_y', value: 1 },
              ],
            },
          },
          propose: { action: 'hold' },
        },
      ],
    });
    const xs = [0, -0, NaN, Infinity, -Infinity, Infinity, 1, NaN, -0, 0, 2, Infinity];
    const frames = xs.map((x, i) => {
      const v = new Float64Array(new FeatureFrame(BENCH_LAYOUT).values.length).fill(NaN);
      v[BENCH_LAYOUT.index('robot.eef_x')] = x;
      v[BENCH_LAYOUT.index('robot.eef_y')] = i % 3 === 0 ? NaN : i % 2;
      return v;
    });
    compare(rules, frames);
  });

  it('falls back to the closures when a rule set does not fit the arenas', () => {
    const w = makeWorkload(5, 8, 300);
    const huge = RuleFileSchema.parse({
      rules: Array.from({ length: 40 }, (_, i) => ({
        id: `s${i}`,
        when: { op: 'stagnant', feature: 'robot.eef_z', window: 10_000, eps: 0.01 },
        propose: { action: 'hold' },
      })),
    });
    expect(compare(huge, w.frames).tableRules).toBe(0);
  });
});
