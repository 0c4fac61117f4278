// The critic benchmark's workload, synthesized from a seed so every run measures the same thing:
// a recorded trajectory (frames built by the real FrameBuilder from a random walk of states,
// actions and privileged features, with some NaN) and a set of rules that use every operator,
// with thresholds drawn from the trajectory so that rules actually fire.
import { FrameBuilder } from '../critic/index.js';
import { layoutFor } from '../critic/index.js';
import type { FeatureSchema } from '../protocol/feature-schema.js';
import { mulberry32 } from '../util/seeded-random.js';
import type { Condition, RuleFile, RuleInput } from '../critic/index.js';
import { RuleFileSchema } from '../critic/index.js';

export const BENCH_RECOVERIES = ['regrasp', 'lift_clear'];

export interface StepInput {
  readonly state: Float64Array;
  readonly action: Float64Array;
  readonly env: Record<string, number | boolean>;
  readonly inRecovery: boolean;
}

export interface BenchWorkload {
  readonly rules: RuleFile;
  /** Recorded frames, as the compiled critic reads them. */
  readonly frames: readonly Float64Array[];
  /** The same frames as name → value objects, as the naive interpreter reads them. */
  readonly records: readonly Record<string, number>[];
  /** The raw per-step inputs the frames were built from (for the allocation check of the whole step). */
  readonly inputs: readonly StepInput[];
}

/** The same seeded stream the rest of the project uses. */
export const rng = mulberry32;

/** The workload's world: the privileged features its trajectory carries, under their own names. */
const BENCH_PRIVILEGED = [
  'grasped',
  'object_height',
  'object_eef_dist',
  'object_target_dist_xy',
  'finger_gap',
  'milestones_reached',
  'object_lifted',
  'object_x',
  'object_y',
  'object_z',
  'contact_force',
];
export const BENCH_FEATURES: FeatureSchema = {
  world: 'bench',
  features: BENCH_PRIVILEGED.map((key) => ({
    name: `privileged.${key}`,
    key,
    unit: '',
    kind: 'number',
    meaning: 'synthetic',
    provenance: 'privileged',
  })),
};
export const BENCH_LAYOUT = layoutFor(BENCH_FEATURES);

export function makeWorkload(seed: number, nRules: number, nFrames: number): BenchWorkload {
  const r = rng(seed);
  const inputs = trajectory(r, nFrames);
  const builder = new FrameBuilder({ layout: BENCH_LAYOUT, privileged: true });
  const frames: Float64Array[] = [];
  const records: Record<string, number>[] = [];
  for (const s of inputs) {
    const f = builder.fill(s.state, s.action, s.env, s.inRecovery);
    builder.commit(s.action);
    frames.push(Float64Array.from(f.values));
    records.push(f.toRecord());
  }
  const rules = RuleFileSchema.parse({ rules: Array.from({ length: nRules }, (_, i) => makeRule(i, r, frames)) });
  return { rules, frames, records, inputs };
}

/**
 * Episodes of 400 steps: a smooth random walk of the end effector (actions low-pass filtered, as a
 * policy's are), stretches of stalled motion, gripper toggles, an object that is grasped when the
 * closed gripper is near it and then follows the hand, a recovery window, and stretches where a
 * sensor drops out (NaN). Temporally correlated like real recordings, with small sensor noise.
 */
function trajectory(r: () => number, n: number): StepInput[] {
  const pos = [0.1, 0, 0.25];
  const obj = [0, 0, 0.02];
  const target = [0, 0, 0];
  const a = new Float64Array(7).fill(0);
  let q = 0.04,
    g = -1,
    grasped = false,
    realized = 1,
    force = 0;
  const out: StepInput[] = [];
  for (let t = 0; t < n; t++) {
    if (t % 400 === 0) {
      obj.splice(0, 3, 0.3 * r() - 0.1, 0.3 * r() - 0.15, 0.02);
      target.splice(0, 3, 0.3 * r() - 0.1, 0.3 * r() - 0.15, 0);
      grasped = false;
    }
    for (let i = 0; i < 6; i++) a[i] = Math.max(-1, Math.min(1, 0.9 * a[i]! + 0.25 * (r() * 2 - 1)));
    if (r() < 0.02) g = -g;
    a[6] = g;
    realized = t % 137 < 12 ? 0 : Math.min(1, Math.max(0.3, realized + 0.1 * (r() - 0.5))); // stalls in stretches
    for (let i = 0; i < 3; i++) pos[i] = Math.max(-0.4, Math.min(0.6, pos[i]! + a[i]! * 0.05 * realized));
    q = Math.max(0, Math.min(0.04, q + (g > 0 ? -0.008 : 0.008)));
    const dist = Math.hypot(pos[0]! - obj[0]!, pos[1]! - obj[1]!, pos[2]! - obj[2]!);
    if (g < 0) grasped = false;
    else if (dist < 0.12) grasped = true;
    if (grasped) obj.splice(0, 3, pos[0]!, pos[1]!, pos[2]! - 0.01);
    force = 0.8 * force + 0.2 * ((grasped ? 6 : 0.5) + 0.3 * (r() - 0.5));
    const env: Record<string, number | boolean> = {
      grasped,
      object_height: Math.max(0, obj[2]! - 0.02),
      object_eef_dist: Math.hypot(pos[0]! - obj[0]!, pos[1]! - obj[1]!, pos[2]! - obj[2]!),
      object_target_dist_xy: Math.hypot(obj[0]! - target[0]!, obj[1]! - target[1]!),
      finger_gap: 2 * q,
      milestones_reached: Math.floor((t % 400) / 100),
      object_lifted: obj[2]! > 0.05,
      object_x: obj[0]!,
      object_y: obj[1]!,
      object_z: obj[2]!,
    };
    if (t % 500 >= 20) env.contact_force = force; // the force sensor drops out for 20 steps in 500
    out.push({
      state: Float64Array.of(pos[0]!, pos[1]!, pos[2]!, 0, 0, 0.1 * Math.sin(t / 50), q, -q),
      action: Float64Array.from(a),
      env,
      inRecovery: t % 400 >= 300 && t % 400 < 330,
    });
  }
  return out;
}

const NUMERIC = [
  'robot.eef_x',
  'robot.eef_y',
  'robot.eef_z',
  'command.trans_m',
  'command.dz',
  'command.direction_cosine',
  'command.realized_ratio',
  'derived.eef_speed',
  'derived.gripper_width',
  'derived.gripper_flips',
  'derived.motion_reversals',
  'derived.net_motion',
  'privileged.object_height',
  'privileged.object_eef_dist',
  'privileged.contact_force',
  'privileged.object_target_dist_xy',
];
const BOOLEAN = ['privileged.grasped', 'command.stalled', 'derived.gripper_closed', 'command.gripper_close', 'privileged.object_lifted'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** A value the feature really takes somewhere in the trajectory (so comparisons split it). */
function sample(r: () => number, frames: readonly Float64Array[], feature: string): number {
  const slot = BENCH_LAYOUT.index(feature);
  for (let k = 0; k < 100; k++) {
    const x = frames[Math.floor(r() * frames.length)]![slot]!;
    if (Number.isFinite(x)) return Number(x.toPrecision(4));
  }
  return 0;
}

function cmp(r: () => number, frames: readonly Float64Array[]): Condition {
  if (r() < 0.25) return { op: pick(r, ['eq', 'ne'] as const), feature: pick(r, BOOLEAN), value: r() < 0.5 ? 0 : 1 };
  const feature = pick(r, NUMERIC);
  return { op: pick(r, ['lt', 'le', 'gt', 'ge'] as const), feature, value: sample(r, frames, feature) };
}

function windowEps(r: () => number, frames: readonly Float64Array[], feature: string, w: number): number {
  const slot = BENCH_LAYOUT.index(feature);
  const t = Math.floor(r() * (frames.length - w));
  let lo = Infinity,
    hi = -Infinity;
  for (let i = t; i < t + w; i++) {
    lo = Math.min(lo, frames[i]![slot]!);
    hi = Math.max(hi, frames[i]![slot]!);
  }
  return Number.isFinite(hi - lo) ? Number((hi - lo).toPrecision(3)) : 0.01;
}

/** Rule i uses template i mod 8, so every operator appears in any set of ≥ 8 rules. */
function makeRule(i: number, r: () => number, frames: readonly Float64Array[]): RuleInput {
  const c = () => cmp(r, frames);
  const w = 3 + Math.floor(r() * 10);
  const trendFeature = pick(r, ['robot.eef_z', 'derived.gripper_width', 'privileged.object_height']);
  const templates: (() => Partial<RuleInput>)[] = [
    () => ({ when: c() }),
    () => ({ guards: [{ op: 'eq', feature: 'episode.in_recovery', value: 0 }], when: c(), dwell: 2 }),
    () => ({ when: { op: 'stagnant', feature: trendFeature, window: w, eps: windowEps(r, frames, trendFeature, w) } }),
    () => ({
      when: {
        op: pick(r, ['rising', 'falling'] as const),
        feature: trendFeature,
        window: w,
        by: windowEps(r, frames, trendFeature, w) / 2,
      },
    }),
    () => ({ when: { op: 'always', window: w, cond: c() } }),
    () => ({ when: { op: 'eventually', window: w, cond: c() }, cooldown: 5 }),
    () => ({ when: { op: 'and', args: [c(), c(), { op: 'not', arg: c() }] }, dwell: 3 }),
    () => ({
      guards: [{ op: 'gt', feature: 'command.prev_trans_m', value: 0.002 }],
      when: { op: 'or', args: [c(), { op: 'and', args: [c(), c()] }] },
      cooldown: 10,
    }),
  ];
  const proposals = [
    { action: 'hold' as const, priority: 1 },
    { action: 'abort' as const, priority: 0 },
    { action: 'clamp' as const, scale: 0.5, priority: 2 },
    { action: 'recovery' as const, recovery: pick(r, BENCH_RECOVERIES), priority: 3 },
  ];
  return {
    id: `bench_${i}`,
    ...templates[i % templates.length]!(),
    propose: pick(r, proposals),
    safety: r() < 0.1,
    evidence: [`synthetic-${i}`],
  } as RuleInput;
}
