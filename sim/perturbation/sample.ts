// Turns a perturbation (ranges) into the concrete values of one episode. Each concern draws from its
// own seeded stream, so e.g. adding sensor noise does not change where the objects are.
import { Rng } from '../math/rng.js';
import type { Vec3 } from '../math/quat.js';
import { DISTURBANCE_DEFAULTS, type Perturbation } from './schema.js';

export interface ObjectParams {
  readonly scale: number;
  /** Multiplier of the nominal mass. */
  readonly mass: number;
  /** Sliding friction coefficient; undefined keeps the nominal one. */
  readonly friction: number | undefined;
}

export interface DisturbancePlan {
  /** Step index (0-based) at whose start the object is displaced. */
  readonly step: number;
  readonly distance: number;
  /** Direction of the displacement in the table plane (radians). */
  readonly angle: number;
}

export interface SensorParams {
  readonly stateNoiseStd: number;
  readonly actionDelay: number;
}

export interface SampledPerturbation {
  readonly objects: Readonly<Record<string, ObjectParams>>;
  readonly robotOffset: Vec3;
  readonly disturbance: DisturbancePlan | null;
  readonly sensor: SensorParams;
}

const NOMINAL_OBJECT: ObjectParams = { scale: 1, mass: 1, friction: undefined };

export function sampleObjectParams(p: Perturbation, task: string, seed: number, names: readonly string[]): Record<string, ObjectParams> {
  const o = p.object;
  const out: Record<string, ObjectParams> = {};
  if (o === undefined) {
    for (const n of names) out[n] = NOMINAL_OBJECT;
    return out;
  }
  const rng = Rng.derive(task, seed, 'object');
  for (const n of names) {
    // Always draw three numbers so one object's params do not depend on which ranges are set.
    const [s, m, f] = [rng.next(), rng.next(), rng.next()];
    out[n] = {
      scale: o.scale ? lerp(o.scale, s) : 1,
      mass: o.mass ? lerp(o.mass, m) : 1,
      friction: o.friction ? lerp(o.friction, f) : undefined,
    };
  }
  return out;
}

export function sampleRuntime(p: Perturbation, task: string, seed: number): Omit<SampledPerturbation, 'objects'> {
  const noise = p.robot?.init_pose_noise_m ?? 0;
  const robot = Rng.derive(task, seed, 'robot');
  const robotOffset: Vec3 = [robot.uniform(-noise, noise), robot.uniform(-noise, noise), robot.uniform(-noise, noise)];
  return {
    robotOffset,
    disturbance: sampleDisturbance(p, task, seed),
    sensor: {
      stateNoiseStd: p.sensor?.state_noise_std ?? 0,
      actionDelay: p.sensor?.action_delay_steps ?? 0,
    },
  };
}

function sampleDisturbance(p: Perturbation, task: string, seed: number): DisturbancePlan | null {
  if (p.disturbance === undefined) return null;
  const d = { ...DISTURBANCE_DEFAULTS, ...p.disturbance };
  const rng = Rng.derive(task, seed, 'disturbance');
  const happens = rng.next() < d.probability;
  const step = rng.int(d.at_step[0], d.at_step[1]);
  const distance = rng.uniform(d.displace_m[0], d.displace_m[1]);
  const angle = rng.uniform(-Math.PI, Math.PI);
  return happens ? { step, distance, angle } : null;
}

function lerp([lo, hi]: readonly [number, number], t: number): number {
  return lo + (hi - lo) * t;
}
