// The world-neutral restore action `step_aside` and the heading it steers by: the xy direction the
// policy last commanded, frozen while a recovery drives (the proposal is then only a hold).
import { describe, expect, it } from 'vitest';
import { FrameBuilder, loadRecoveries, CRITIC_ONLY_LAYOUT } from '../../critic/index.js';
import { defaultTools } from '../../critic/recovery/tools.js';

const HOLD = [0, 0, 0, 0, 0, 0, -1];
const state = (x: number, y: number) => [x, y, 0.1, 0, 0, 0, 0.04, -0.04];

function stepAside(params: Record<string, unknown>) {
  return defaultTools().bind('step_aside', params, [], { resolve: () => 0 });
}

describe('the policy heading', () => {
  it('follows the policy on policy steps and holds still while a recovery drives', () => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0), [1, 0, 0, 0, 0, 0, -1], null, false);
    expect(b.frame.get('derived.heading_x')).toBeCloseTo(1);
    expect(b.frame.get('derived.heading_y')).toBeCloseTo(0);
    b.fill(state(0.05, 0), [0, -0.5, 0, 0, 0, 0, -1], null, false);
    expect(b.frame.get('derived.heading_y')).toBeCloseTo(-1);
    b.fill(state(0.05, 0), [0.3, 0.4, 0, 0, 0, 0, -1], null, true);
    expect(b.frame.get('derived.heading_y')).toBeCloseTo(-1);
    // a hold (no xy motion) says nothing about where the policy is going
    b.fill(state(0.05, 0), HOLD, null, false);
    expect(b.frame.get('derived.heading_y')).toBeCloseTo(-1);
  });

  it('is unknown before the policy ever asked for xy motion', () => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0), HOLD, null, false);
    expect(b.frame.get('derived.heading_x')).toBeNaN();
  });
});

describe('step_aside', () => {
  const out = new Float32Array(7);
  const heading = (dx: number, dy: number) => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0), [dx, dy, 0, 0, 0, 0, -1], null, false);
    return b.frame;
  };

  it('slides to the left of the heading, backing off a little', () => {
    stepAside({ back: 0.25, side: 1, speed: 1 }).run(heading(1, 0), out);
    expect(out[0]).toBeLessThan(0); // back
    expect(out[1]).toBeGreaterThan(0.9); // left of +x is +y
    expect(Math.hypot(out[0]!, out[1]!, out[2]!)).toBeCloseTo(1, 5);
    expect(out[2]).toBe(0);
  });

  it('to the right when side is negative, and straight back with no side', () => {
    stepAside({ back: 0.25, side: -1, speed: 0.5 }).run(heading(0, 1), out);
    expect(out[0]).toBeGreaterThan(0.45); // right of +y is +x
    expect(out[1]).toBeLessThan(0);
    stepAside({ back: 1, side: 0, speed: 1 }).run(heading(0, 1), out);
    expect(out[0]).toBeCloseTo(0);
    expect(out[1]).toBeCloseTo(-1);
  });

  it('writes no motion without a heading, and loads inside a program', () => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0), HOLD, null, false);
    stepAside({}).run(b.frame, out);
    expect([out[0], out[1], out[2]]).toEqual([0, 0, 0]);
    const program = { id: 'p', budget: 6, steps: [{ tool: 'step_aside', params: { side: 1 }, budget: 5 }] };
    expect(() => loadRecoveries({ version: 1, programs: [program] }, { layout: CRITIC_ONLY_LAYOUT, privileged: false })).not.toThrow();
    expect(() => stepAside({ side: 2 })).toThrow(/side/);
  });
});
