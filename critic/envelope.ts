// The SafetyEnvelope: hard limits applied to every action last, after the governor, whether the
// action came from the policy, a clamp or a recovery. Rules cannot switch it off; it is constructed
// from the run's limits and has no setter. Every limit only ever removes motion, never adds it.
//
// Order: non-finite → hold; clip components to [−1, 1]; per-step translation and rotation norms
// (scaling the vector keeps its direction); workspace box on the predicted next eef position;
// gripper command rate.
import { GRIPPER_INDEX, GRIPPER_OPEN, ROT_SCALE_RAD, TRANS_SCALE_M, writeHold } from './action.js';

export interface EnvelopeLimits {
  /** Workspace box (robot base frame, m) the predicted next eef position must stay in. */
  readonly workspaceMin: readonly [number, number, number];
  readonly workspaceMax: readonly [number, number, number];
  /** Largest translation per step, m (default 0.05: the convention's full scale). */
  readonly maxTransM?: number;
  /** Largest rotation per step, rad (default 0.5). */
  readonly maxRotRad?: number;
  /** The gripper command may change sign at most once per this many steps (default 4). */
  readonly gripperMinSwitchSteps?: number;
}

export const LIMIT_NON_FINITE = 1;
export const LIMIT_COMPONENT = 2;
export const LIMIT_TRANSLATION = 4;
export const LIMIT_ROTATION = 8;
export const LIMIT_WORKSPACE = 16;
export const LIMIT_GRIPPER_RATE = 32;

const LIMIT_NAMES: readonly (readonly [number, string])[] = [
  [LIMIT_NON_FINITE, 'non_finite'],
  [LIMIT_COMPONENT, 'component'],
  [LIMIT_TRANSLATION, 'translation'],
  [LIMIT_ROTATION, 'rotation'],
  [LIMIT_WORKSPACE, 'workspace'],
  [LIMIT_GRIPPER_RATE, 'gripper_rate'],
];

/** Names of the limits in a hit mask, for recording. Allocates: not for the hot path. */
export function limitNames(mask: number): string[] {
  return LIMIT_NAMES.filter(([bit]) => (mask & bit) !== 0).map(([, name]) => name);
}

export class SafetyEnvelope {
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly maxTrans: number;
  private readonly maxRot: number;
  private readonly minSwitch: number;
  private readonly a = new Float64Array(7);
  /** The last enforced gripper command (what "keep the gripper" keeps). */
  gripper = GRIPPER_OPEN;
  /** Bit mask of the limits hit by the last `enforce`. */
  lastHits = 0;
  private stepsSinceSwitch = Infinity;

  constructor(limits: EnvelopeLimits) {
    this.lo = Float64Array.from(limits.workspaceMin);
    this.hi = Float64Array.from(limits.workspaceMax);
    this.maxTrans = limits.maxTransM ?? TRANS_SCALE_M;
    this.maxRot = limits.maxRotRad ?? ROT_SCALE_RAD;
    this.minSwitch = limits.gripperMinSwitchSteps ?? 4;
    for (let i = 0; i < 3; i++) {
      if (!(this.lo[i]! < this.hi[i]!)) throw new Error(`envelope: workspaceMin[${i}] must be below workspaceMax[${i}]`);
    }
    if (!(this.maxTrans >= 0 && this.maxRot >= 0)) throw new Error('envelope: per-step limits must be ≥ 0');
  }

  /** Start of an episode; `gripper` is what "keep the gripper" means until a command is enforced. */
  reset(gripper = GRIPPER_OPEN): void {
    this.gripper = gripper;
    this.lastHits = 0;
    this.stepsSinceSwitch = Infinity;
  }

  /**
   * Writes the enforced version of `action` (7-D, normalized) into `out` and returns the hit mask.
   * `eef` holds the current eef position in its first three entries (the 8-D state works).
   */
  enforce(action: ArrayLike<number>, eef: ArrayLike<number>, out: Float32Array): number {
    const a = this.a;
    let finite = Number.isFinite(eef[0]!) && Number.isFinite(eef[1]!) && Number.isFinite(eef[2]!);
    for (let i = 0; i < 7; i++) {
      a[i] = action[i]!;
      if (!Number.isFinite(a[i]!)) finite = false;
    }
    this.stepsSinceSwitch++;
    if (!finite) {
      // Unknown action or unknown position: stand still, keep the gripper as it is.
      writeHold(out, this.gripper);
      return (this.lastHits = LIMIT_NON_FINITE);
    }
    let hits = 0;
    for (let i = 0; i < 7; i++) {
      if (a[i]! > 1 || a[i]! < -1) {
        a[i] = a[i]! > 1 ? 1 : -1;
        hits |= LIMIT_COMPONENT;
      }
    }
    if (limitNorm(a, 0, TRANS_SCALE_M, this.maxTrans)) hits |= LIMIT_TRANSLATION;
    if (limitNorm(a, 3, ROT_SCALE_RAD, this.maxRot)) hits |= LIMIT_ROTATION;
    if (this.limitWorkspace(a, eef)) hits |= LIMIT_WORKSPACE;
    if (this.limitGripper(a)) hits |= LIMIT_GRIPPER_RATE;
    for (let i = 0; i < 7; i++) out[i] = a[i]!;
    return (this.lastHits = hits);
  }

  /**
   * Per axis: the predicted next position must not leave the box. Outside the box already, motion
   * further out is stopped and motion back in is kept as commanded (never amplified).
   */
  private limitWorkspace(a: Float64Array, eef: ArrayLike<number>): boolean {
    let hit = false;
    for (let i = 0; i < 3; i++) {
      const lo = (this.lo[i]! - eef[i]!) / TRANS_SCALE_M;
      const hi = (this.hi[i]! - eef[i]!) / TRANS_SCALE_M;
      const x = a[i]!;
      if (x < lo) {
        a[i] = lo <= 0 ? lo : Math.max(x, 0);
        hit = true;
      } else if (x > hi) {
        a[i] = hi >= 0 ? hi : Math.min(x, 0);
        hit = true;
      }
    }
    return hit;
  }

  /** A sign change of the gripper command sooner than `minSwitch` steps after the last is refused. */
  private limitGripper(a: Float64Array): boolean {
    const g = a[GRIPPER_INDEX]!;
    const switching = g > 0 !== this.gripper > 0;
    if (switching && this.stepsSinceSwitch < this.minSwitch) {
      a[GRIPPER_INDEX] = this.gripper;
      return true;
    }
    if (switching) this.stepsSinceSwitch = 0;
    this.gripper = g;
    return false;
  }
}

/** Scales a[k..k+3) so its norm times `scale` is at most `max`. Returns whether it had to. */
function limitNorm(a: Float64Array, k: number, scale: number, max: number): boolean {
  const n = Math.hypot(a[k]!, a[k + 1]!, a[k + 2]!) * scale;
  if (n <= max) return false;
  const f = max / n;
  a[k] = a[k]! * f;
  a[k + 1] = a[k + 1]! * f;
  a[k + 2] = a[k + 2]! * f;
  return true;
}
