import { describe, expect, it } from 'vitest';
import {
  LIMIT_COMPONENT,
  LIMIT_GRIPPER_RATE,
  LIMIT_NON_FINITE,
  LIMIT_ROTATION,
  LIMIT_TRANSLATION,
  LIMIT_WORKSPACE,
  SafetyEnvelope,
  limitNames,
} from '../../critic/envelope.js';

const limits = {
  workspaceMin: [-0.5, -0.5, 0.0] as const,
  workspaceMax: [0.5, 0.5, 0.6] as const,
  maxTransM: 0.03,
  maxRotRad: 0.25,
  gripperMinSwitchSteps: 3,
};
const centre = [0, 0, 0.3];

function enforce(env: SafetyEnvelope, action: number[], eef = centre): [number[], number] {
  const out = new Float32Array(7);
  const hits = env.enforce(action, eef, out);
  return [Array.from(out), hits];
}

describe('SafetyEnvelope', () => {
  it('passes an action inside every limit unchanged', () => {
    const [out, hits] = enforce(new SafetyEnvelope(limits), [0.2, -0.1, 0.3, 0.1, 0, -0.2, -1]);
    expect(hits).toBe(0);
    expect(out.map((x) => Number(x.toFixed(6)))).toEqual([0.2, -0.1, 0.3, 0.1, 0, -0.2, -1]);
  });

  it('non-finite action or position → hold: zero motion, gripper kept', () => {
    const env = new SafetyEnvelope(limits);
    enforce(env, [0, 0, 0, 0, 0, 0, 1]);
    const [out, hits] = enforce(env, [0.1, NaN, 0, 0, 0, 0, -1]);
    expect(hits).toBe(LIMIT_NON_FINITE);
    expect(out).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(enforce(env, [0.1, 0, 0, 0, 0, Infinity, 1])[1]).toBe(LIMIT_NON_FINITE);
    expect(enforce(env, [0.1, 0, 0, 0, 0, 0, 1], [0, NaN, 0.3])[0]).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it('clips components, then scales translation and rotation to the per-step limits keeping direction', () => {
    const [out, hits] = enforce(new SafetyEnvelope(limits), [3, 0, 4, 0, 1, 0, 0.5]);
    expect(hits & LIMIT_COMPONENT).toBeTruthy();
    expect(hits & LIMIT_TRANSLATION).toBeTruthy();
    expect(hits & LIMIT_ROTATION).toBeTruthy();
    expect(Math.hypot(out[0]!, out[1]!, out[2]!) * 0.05).toBeCloseTo(0.03, 6);
    expect(out[0]).toBeCloseTo(out[2]!, 6); // [1, 0, 1] after the clip, direction kept
    expect(Math.abs(out[4]!) * 0.5).toBeCloseTo(0.25, 6);
  });

  it('keeps the predicted next position in the workspace box', () => {
    const env = new SafetyEnvelope({ ...limits, maxTransM: 0.05 });
    const [out, hits] = enforce(env, [0, 0, -1, 0, 0, 0, -1], [0, 0, 0.02]);
    expect(hits).toBe(LIMIT_WORKSPACE);
    expect(out[2]! * 0.05).toBeCloseTo(-0.02, 6);
    // Already outside (below the floor): moving further out is stopped, moving back in is kept.
    expect(enforce(env, [0, 0, -0.5, 0, 0, 0, -1], [0, 0, -0.1])[0][2]).toBe(0);
    const [back, backHits] = enforce(env, [0, 0, 0.4, 0, 0, 0, -1], [0, 0, -0.1]);
    expect(back[2]).toBeCloseTo(0.4, 6);
    expect(backHits).toBe(LIMIT_WORKSPACE);
  });

  it('rate-limits gripper sign changes', () => {
    const env = new SafetyEnvelope(limits);
    const g = (cmd: number) => enforce(env, [0, 0, 0, 0, 0, 0, cmd]);
    expect(g(1)).toEqual([[0, 0, 0, 0, 0, 0, 1], 0]); // first switch from the initial open is allowed
    expect(g(-1)).toEqual([[0, 0, 0, 0, 0, 0, 1], LIMIT_GRIPPER_RATE]);
    expect(g(-1)[1]).toBe(LIMIT_GRIPPER_RATE);
    expect(g(-1)).toEqual([[0, 0, 0, 0, 0, 0, -1], 0]); // 3 steps after the last switch
    expect(g(-0.5)[1]).toBe(0); // same sign, any magnitude
    expect(limitNames(LIMIT_GRIPPER_RATE | LIMIT_WORKSPACE)).toEqual(['workspace', 'gripper_rate']);
  });

  it('rejects an empty workspace', () => {
    expect(() => new SafetyEnvelope({ ...limits, workspaceMin: [0, 0, 1], workspaceMax: [1, 1, 1] })).toThrow(/workspaceMin\[2\]/);
  });
});
