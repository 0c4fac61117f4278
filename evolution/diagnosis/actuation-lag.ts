// How late a commanded motion shows up in the hand's motion, measured from recorded episodes.
//
// A recovery tool such as `move_above` commands, each step, the translation that would cover its
// whole remaining error. That is exact when a command moves the hand by the next observation, and
// unstable when commands land steps later (an actuation or sensing delay): the hand overshoots,
// the tool reverses, and the program oscillates until its budget is gone. A program that knows the
// lag (`lag_steps`) servoes on the hand predicted from its commands in flight instead.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

/** Largest lag looked for, in control steps. */
export const MAX_LAG_STEPS = 6; // within the recovery schema's limit

/**
 * The lag k (1 = the next observation moves) at which the commanded translation best predicts the
 * observed displacement: argmax over k of Σ_t command_t · (state_{t+k} − state_{t+k−1}), summed
 * over every step of every record. Null when the records hold no commanded motion to correlate.
 */
export function actuationLag(records: readonly EpisodeRecord[]): number | null {
  const score = new Float64Array(MAX_LAG_STEPS + 1);
  let moving = 0;
  for (const r of records) {
    const steps = r.steps;
    for (let t = 0; t < steps.length; t++) {
      const c = steps[t]!.action;
      if (Math.abs(c[0]!) + Math.abs(c[1]!) + Math.abs(c[2]!) < 1e-6) continue;
      moving++;
      for (let k = 1; k <= MAX_LAG_STEPS && t + k < steps.length; k++) {
        const a = steps[t + k - 1]!.state;
        const b = steps[t + k]!.state;
        score[k]! += c[0]! * (b[0]! - a[0]!) + c[1]! * (b[1]! - a[1]!) + c[2]! * (b[2]! - a[2]!);
      }
    }
  }
  if (moving === 0) return null;
  let best = 1;
  for (let k = 2; k <= MAX_LAG_STEPS; k++) if (score[k]! > score[best]!) best = k;
  return best;
}
