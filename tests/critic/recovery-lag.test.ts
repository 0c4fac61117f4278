// A recovery program on a robot whose commands take effect steps late: servoing on the observed hand
// overshoots and oscillates; told the lag (`lag_steps`), the executor shows its tools the hand where
// the commands in flight will take it, and the same program settles without overshoot.
import { describe, expect, it } from 'vitest';
import { loadRecoveries } from '../../critic/recovery/compile.js';
import { RECOVERY_ACTING, RecoveryExecutor } from '../../critic/recovery/executor.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { ToyWorld } from './toy-world.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

/** The toy world with every command applied `lag − 1` steps after it was given. */
class LaggingWorld extends ToyWorld {
  private readonly inFlight: Float32Array[] = [];

  constructor(private readonly lag: number) {
    super();
  }

  override step(action: Float32Array): void {
    this.inFlight.push(Float32Array.from(action));
    super.step(this.inFlight.length >= this.lag ? this.inFlight.shift()! : new Float32Array(7));
  }
}

const ACTUATION_LAG = FeatureFrame.index('derived.actuation_lag');
const MOTION_EXPLAINED = FeatureFrame.index('derived.motion_explained');

/** What the critic measured, written into each frame: its lag (steps beyond the next observation) and the share it explains. */
interface Measured {
  readonly lag: number;
  readonly explained: number;
}

/** x of the hand, step by step, while `move_above` seeks a point 10 cm away. */
function seek(worldLag: number, programLag: number | 'measured', measured?: Measured): number[] {
  const world = new LaggingWorld(worldLag);
  const program = {
    id: 'seek',
    budget: 60,
    lag_steps: programLag,
    steps: [{ tool: 'move_above', params: { point: 'object', height: 0.06, speed: 1 }, budget: 60 }],
  };
  const ex = new RecoveryExecutor(loadRecoveries({ programs: [program] }, { layout: TABLETOP_LAYOUT, privileged: true }));
  const out = new Float32Array(7);
  const xs: number[] = [];
  const frame = () => {
    const f = world.frame();
    if (measured) {
      f.values[ACTUATION_LAG] = measured.lag;
      f.values[MOTION_EXPLAINED] = measured.explained;
    }
    return f;
  };
  ex.start('seek');
  while (ex.tick(frame(), false, out) === RECOVERY_ACTING) {
    world.step(out);
    xs.push(world.eef[0]!);
  }
  return xs;
}

const overshoot = (xs: number[], goal: number) => Math.max(0, ...xs.map((x) => x - goal));

describe('recovery programs under actuation lag', () => {
  const goal = new ToyWorld().object[0]!;

  it('without lag, servoing on the observed hand is exact', () => {
    const xs = seek(1, 1);
    expect(overshoot(xs, goal)).toBeLessThan(1e-9);
    expect(Math.abs(xs.at(-1)! - goal)).toBeLessThan(1e-6);
  });

  it('with commands two steps late, a program that ignores the lag overshoots and never settles', () => {
    const xs = seek(3, 1);
    expect(overshoot(xs, goal)).toBeGreaterThan(0.02);
    expect(Math.max(...xs.slice(-10).map((x) => Math.abs(x - goal)))).toBeGreaterThan(0.01);
  });

  it('told the lag, the same program reaches the point without overshoot and stays there', () => {
    const xs = seek(3, 3);
    expect(overshoot(xs, goal)).toBeLessThan(1e-6);
    expect(Math.max(...xs.slice(-10).map((x) => Math.abs(x - goal)))).toBeLessThan(1e-6);
  });

  it('with lag_steps "measured", servoes at the lag the critic measures where the commands explain the motion', () => {
    // the critic measures 2 (commands land two steps after the next observation): lag_steps 3
    expect(seek(3, 'measured', { lag: 2, explained: 0.95 })).toEqual(seek(3, 3));
    // too little of the motion explained (sensor noise), or nothing measured yet: as if told no lag
    expect(seek(3, 'measured', { lag: 2, explained: 0.6 })).toEqual(seek(3, 1));
    expect(seek(3, 'measured', { lag: Number.NaN, explained: Number.NaN })).toEqual(seek(3, 1));
    expect(() =>
      loadRecoveries(
        { programs: [{ id: 'p', budget: 5, lag_steps: 'sometimes', steps: [{ tool: 'hold', budget: 3 }] }] },
        { layout: TABLETOP_LAYOUT, privileged: true },
      ),
    ).toThrow(/lag_steps/);
  });

  it('leaves the frame as observed: rules and `until` conditions still read the real hand', () => {
    const world = new LaggingWorld(3);
    const ex = new RecoveryExecutor(
      loadRecoveries(
        { programs: [{ id: 'seek', budget: 20, lag_steps: 3, steps: [{ tool: 'move_above', params: { point: 'object' }, budget: 20 }] }] },
        { layout: TABLETOP_LAYOUT, privileged: true },
      ),
    );
    const out = new Float32Array(7);
    ex.start('seek');
    for (let i = 0; i < 5; i++) {
      const frame = world.frame();
      const before = Float64Array.from(frame.values);
      ex.tick(frame, false, out);
      expect(Array.from(frame.values)).toEqual(Array.from(before));
      world.step(out);
    }
  });

  it('refuses a lag beyond what it can compensate', () => {
    expect(() =>
      loadRecoveries(
        { programs: [{ id: 'p', budget: 5, lag_steps: 99, steps: [{ tool: 'hold', budget: 3 }] }] },
        { layout: TABLETOP_LAYOUT, privileged: true },
      ),
    ).toThrow(/lag_steps/);
  });
});
