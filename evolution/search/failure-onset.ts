// When a failure stopped being healthy: its onset. The milestones give one answer (the step the
// milestone list last grew); a hand that comes to rest for good well before the end gives a later
// one (a robot pinned against an obstacle it cannot pass reached no milestone at all, so its
// milestone stall is step 0). The search judges conditions against the healthy stretch before it.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

/** The hand counts as resting within this distance (m) of where it ends. */
const REST_RADIUS_M = 0.01;

/** First step from which the end effector stays within REST_RADIUS_M of its final position. */
export function restingFrom(record: EpisodeRecord): number {
  const steps = record.steps;
  if (steps.length === 0) return 0;
  const end = steps[steps.length - 1]!.state;
  const near = (s: ArrayLike<number>) => Math.hypot(s[0]! - end[0]!, s[1]! - end[1]!, s[2]! - end[2]!) <= REST_RADIUS_M;
  let t = steps.length - 1;
  while (t > 0 && near(steps[t - 1]!.state)) t--;
  return t;
}

/** The later of the milestone stall and the hand coming to rest, where it came to rest before the failure point. */
export function failureOnset(record: EpisodeRecord, milestoneStall: number, failurePoint: number): number {
  const rest = restingFrom(record);
  return rest < failurePoint ? Math.max(milestoneStall, rest) : milestoneStall;
}
