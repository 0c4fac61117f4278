// Safety events, as the regression and held-out gates count them: a safety rule starting to fire
// (its onset, not every step it holds), the critic ending the episode, and the envelope stopping the
// hand at the workspace box or a non-finite action. The envelope's routine shaping (gripper rate,
// rotation and component clipping) happens in every good episode too and is not an event.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

const ENVELOPE_EVENTS = /envelope [a-z_+]*(workspace|non_finite)/;

export function countSafetyEvents(record: EpisodeRecord): number {
  let events = 0;
  let firing = false;
  for (const s of record.steps) {
    const safety = (s.proposals ?? []).some((p) => p.safety);
    if (safety && !firing) events++;
    firing = safety;
    if (s.decision?.kind === 'abort') events++;
    if (s.decision?.reason && ENVELOPE_EVENTS.test(s.decision.reason)) events++;
  }
  return events;
}
