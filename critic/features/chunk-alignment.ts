// Aligning a fresh chunk with the motion already in flight (manifest `align_chunks_to_lag`).
//
// On a robot whose commands land `lag` steps late, a chunk is planned from a state that does not yet
// show the last `lag` commands: its first actions plan that motion again, and executed from its
// first action the chunk overshoots by what was in flight. Executed from the index at which its own
// planned motion has covered what is in flight, it starts where the hand will be when its actions
// land. The executed actions are the policy's, unchanged; only some of its first ones are never
// sent — the same idea as dropping the actions a slow policy server answers too late for
// (real-time chunking), with the robot's lag in place of the server's.
import { TRANS_SCALE_M } from '../action.js';

/**
 * Index of the chunk's first action to execute, 0..maxSkip: the prefix whose summed translation
 * (normalized actions clipped to ±1, as the envelope does, times TRANS_SCALE_M) is closest to the
 * translation in flight (m). Ties keep the shorter prefix, so with nothing in flight nothing is
 * skipped; at least one action of the chunk is always left.
 */
export function alignmentOffset(
  inFlight: ArrayLike<number>,
  chunk: ArrayLike<number>,
  horizon: number,
  dim: number,
  maxSkip: number,
): number {
  const fx = inFlight[0]!,
    fy = inFlight[1]!,
    fz = inFlight[2]!;
  let best = 0;
  let bestError = Math.hypot(fx, fy, fz);
  let x = 0,
    y = 0,
    z = 0;
  for (let j = 1; j <= Math.min(maxSkip, horizon - 1); j++) {
    const a = (j - 1) * dim;
    x += clip(chunk[a]!) * TRANS_SCALE_M;
    y += clip(chunk[a + 1]!) * TRANS_SCALE_M;
    z += clip(chunk[a + 2]!) * TRANS_SCALE_M;
    const error = Math.hypot(fx - x, fy - y, fz - z);
    if (error < bestError) {
      bestError = error;
      best = j;
    }
  }
  return best;
}

/** A non-finite component never moves the hand (the envelope stops such an action). */
function clip(v: number): number {
  return Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0;
}

/** What the action pipeline asks of the critic about a chunk and the actuation lag. */
export interface ChunkAligner {
  /** A chunk is asked for now, planned from this observation: note the motion in flight. */
  asked(): void;
  /** That chunk arrived: how many of its first actions the noted motion covers. */
  offset(chunk: Float32Array, horizon: number, dim: number): number;
}
