import { describe, expect, it } from 'vitest';
import { TRANS_SCALE_M } from '../../critic/action.js';
import { alignmentOffset } from '../../critic/features/chunk-alignment.js';

const DIM = 7;
/** A chunk of `h` actions, each translating by `step` (normalized) along x, gripper open. */
function steadyChunk(h: number, step: number): Float32Array {
  const c = new Float32Array(h * DIM);
  for (let i = 0; i < h; i++) {
    c[i * DIM] = step;
    c[i * DIM + 6] = -1;
  }
  return c;
}
const metres = (actions: number, step: number) => actions * step * TRANS_SCALE_M;

describe('alignmentOffset: where a fresh chunk starts on a lagging robot', () => {
  it('skips the actions whose planned motion is already in flight', () => {
    const chunk = steadyChunk(10, 0.5);
    expect(alignmentOffset([metres(3, 0.5), 0, 0], chunk, 10, DIM, 4)).toBe(3);
    // in between two prefixes: the closer one
    expect(alignmentOffset([metres(2.4, 0.5), 0, 0], chunk, 10, DIM, 4)).toBe(2);
    expect(alignmentOffset([metres(2.6, 0.5), 0, 0], chunk, 10, DIM, 4)).toBe(3);
  });

  it('skips nothing when nothing is in flight, or when the chunk plans another motion than the one in flight', () => {
    const chunk = steadyChunk(10, 0.5);
    expect(alignmentOffset([0, 0, 0], chunk, 10, DIM, 4)).toBe(0);
    expect(alignmentOffset([-metres(3, 0.5), 0, 0], chunk, 10, DIM, 4)).toBe(0); // the chunk reverses it
    expect(alignmentOffset([0, metres(3, 0.5), 0], chunk, 10, DIM, 4)).toBe(0); // sideways: no prefix comes closer
  });

  it('skips at most the measured lag, and always leaves the chunk one action', () => {
    const chunk = steadyChunk(10, 0.5);
    expect(alignmentOffset([metres(8, 0.5), 0, 0], chunk, 10, DIM, 4)).toBe(4);
    expect(alignmentOffset([metres(8, 0.5), 0, 0], chunk, 3, DIM, 8)).toBe(2);
    expect(alignmentOffset([metres(8, 0.5), 0, 0], chunk, 10, DIM, 0)).toBe(0); // a prompt robot
  });

  it('counts an action as the envelope executes it: clipped to ±1, nothing for a non-finite one', () => {
    const chunk = steadyChunk(10, 3); // asks for 3× the largest step: moves 1× it
    expect(alignmentOffset([metres(2, 1), 0, 0], chunk, 10, DIM, 4)).toBe(2);
    const broken = steadyChunk(10, 1);
    broken[0] = Number.NaN;
    expect(alignmentOffset([metres(2, 1), 0, 0], broken, 10, DIM, 4)).toBe(3);
  });
});
