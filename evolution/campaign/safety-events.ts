// Safety events, as the regression and held-out gates count them: a safety rule starting to fire
// (its onset, not every step it holds), the critic ending the episode, and the envelope stopping the
// hand at the workspace box or a non-finite action. The envelope's routine shaping (gripper rate,
// rotation and component clipping) happens in every good episode too and is not an event.
//
// A workspace stop is counted by its onset too: stops less than SAME_STOP_GAP steps apart are one
// event. A policy that keeps pushing against the box is stopped on most steps of every chunk, and
// counted step by step one such episode (24 stops in 40 steps) outweighed every other episode of a
// candidate that took development successes from 2 to 12 of 30.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

const ENVELOPE_EVENTS = /envelope [a-z_+]*(workspace|non_finite)/;
/** Envelope stops closer than this (one chunk at the default execute horizon) are the same event. */
export const SAME_STOP_GAP = 5;

export function countSafetyEvents(record: EpisodeRecord): number {
  let events = 0;
  let firing = false;
  let lastStop = Number.NEGATIVE_INFINITY;
  for (const [i, s] of record.steps.entries()) {
    const safety = (s.proposals ?? []).some((p) => p.safety);
    if (safety && !firing) events++;
    firing = safety;
    if (s.decision?.kind === 'abort') events++;
    if (s.decision?.reason && ENVELOPE_EVENTS.test(s.decision.reason)) {
      if (i - lastStop > SAME_STOP_GAP) events++;
      lastStop = i;
    }
  }
  return events;
}
