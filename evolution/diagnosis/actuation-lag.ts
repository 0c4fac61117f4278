// How late a commanded motion shows up in the hand's motion, measured from recorded episodes, and
// the servo gain a point-seeking recovery step can use under that lag.
//
// A recovery tool such as `move_above` commands, each step, the translation that would cover its
// whole remaining error (gain 1). That is exact when a command moves the hand by the next
// observation, and unstable when commands land steps later (an actuation or sensing delay): the
// hand overshoots, the tool reverses, and the program oscillates until its budget is gone.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

/** Largest lag looked for, in control steps. */
export const MAX_LAG_STEPS = 6;
/** Fraction of the stability limit the fitted gain uses (margin for noise and model error). */
const GAIN_MARGIN = 0.65;

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

/**
 * The proportional gain for a point-seeking step whose commands act `lag` steps later: a fixed
 * fraction of the stability limit of the delayed integrator x ← x − K·e(t − lag + 1), which is
 * K* = 2·sin(π / (2(2·lag − 1))) (2 without delay, 1 for one step, 0.618 for two), capped at 1
 * (gain 1 covers the error in one step; more would overshoot even without delay).
 */
export function servoGain(lag: number): number {
  const limit = 2 * Math.sin(Math.PI / (2 * (2 * lag - 1)));
  return Math.min(1, Math.round(GAIN_MARGIN * limit * 100) / 100);
}
