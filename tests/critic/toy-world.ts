// A kinematic toy world for recovery tests: the end effector moves exactly as commanded, the
// fingers move toward the commanded opening, and an object counts as grasped when the closed pads
// are around it. Enough to drive tools through FrameBuilder features, with no simulator.
import { FrameBuilder } from '../../critic/features/builder.js';
import type { FeatureFrame } from '../../critic/features/frame.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

export class ToyWorld {
  readonly eef = [0, 0, 0.3];
  q = 0.04; // per finger
  object = [0.1, 0.05, 0.02];
  target = [-0.1, 0.1, 0.0];
  objectWidth = 0.03;
  readonly builder = new FrameBuilder({ layout: TABLETOP_LAYOUT, privileged: true });
  private readonly state = new Float64Array(8);
  private readonly proposed = new Float64Array(7);

  get grasped(): boolean {
    const d = Math.hypot(this.eef[0]! - this.object[0]!, this.eef[1]! - this.object[1]!, this.eef[2]! - this.object[2]!);
    return this.objectWidth > 0 && d < 0.01 && 2 * this.q <= this.objectWidth + 1e-6;
  }

  /** The frame for this step; `inRecovery` as the control loop would pass it. */
  frame(inRecovery = true): FeatureFrame {
    const s = this.state;
    s.set([...this.eef, 0, 0, 0, this.q, -this.q]);
    return this.builder.fill(s, this.proposed, this.features(), inRecovery);
  }

  /** Applies an action as the env would, and commits it. */
  step(action: Float32Array): void {
    const held = this.grasped && action[6]! > 0;
    for (let i = 0; i < 3; i++) this.eef[i]! += action[i]! * 0.05;
    if (held) this.object = [...this.eef];
    const goal = action[6]! > 0 ? (this.inReach() ? this.objectWidth / 2 : 0) : 0.04;
    this.q += Math.sign(goal - this.q) * Math.min(Math.abs(goal - this.q), 0.01);
    this.builder.commit(action);
  }

  private inReach(): boolean {
    return Math.hypot(this.eef[0]! - this.object[0]!, this.eef[1]! - this.object[1]!, this.eef[2]! - this.object[2]!) < 0.01;
  }

  /** Keyed as the tabletop's frames carry them, so rules read them under the tabletop's names. */
  private features(): Record<string, number | boolean> {
    const [ox, oy, oz] = this.object as [number, number, number];
    const [tx, ty, tz] = this.target as [number, number, number];
    return {
      grasped: this.grasped,
      subject_x: ox,
      subject_y: oy,
      subject_z: oz,
      target_x: tx,
      target_y: ty,
      target_z: tz,
      eef_subject_dist: Math.hypot(this.eef[0]! - ox, this.eef[1]! - oy, this.eef[2]! - oz),
      finger_opening: 2 * this.q,
    };
  }
}
