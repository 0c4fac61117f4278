// The condition search on recordings made to order: failures where the hand moves, then pushes
// against something and stops; successes where it keeps moving. The search must find what tells
// them apart near the failures' onset, not what holds everywhere, and each condition it reports must
// fire where the real critic, running the rule as written, fires.
import { describe, expect, it } from 'vitest';
import { layoutFor, loadRules } from '../../critic/index.js';
import { searchConditions, firstFiring } from '../../evolution/search/condition-search.js';
import { episodeColumns } from '../../evolution/search/feature-series.js';
import { failureOnset, restingFrom } from '../../evolution/search/failure-onset.js';
import { replayRules, type ReplayEpisode } from '../../evolution/shadow-replay.js';
import { world as pointMass } from '../../sim/point-mass/point-mass-world.js';
import type { EpisodeRecord, StepRecord } from '../../zinfra/recording/episode-record.js';

const layout = layoutFor(pointMass.features);
const FEATURES = ['observed.goal_dx', 'observed.goal_dy', 'observed.goal_dist'];
const STEPS = 100;

/** The hand moves 2 cm a step along x, pushed at full speed; from `stopAt` on it stays where it is. */
function record(seed: number, stopAt: number): EpisodeRecord {
  const steps: StepRecord[] = [];
  for (let t = 0; t < STEPS; t++) {
    const x = 0.02 * Math.min(t, stopAt);
    const action = [1, 0, 0, 0, 0, 0, -1];
    // the goal is always ahead: goal_dx is large and constant-ish, a property of the scene
    steps.push({
      step: t,
      state: [x, 0, 0, 0, 0, 0, 0, 0],
      objects: [],
      policyAction: action,
      action,
      source: 'policy',
      reward: 0,
      milestones: [],
      features: [0.8, 0.01 * (seed % 3), 0.8],
    });
  }
  return {
    header: {
      episodeId: `e${seed}`,
      task: 'reach/around_wall',
      suite: 'reach',
      seed,
      resetDigest: '',
      instruction: '',
      controlHz: 20,
      perturbation: null,
      policy: 'test',
      critic: 'none',
      // a world's recording names its features by their schema keys
      featureNames: FEATURES.map((f) => f.slice(f.indexOf('.') + 1)),
      objectNames: [],
    },
    steps,
    summary: null,
  } as unknown as EpisodeRecord;
}

function episodes(): ReplayEpisode[] {
  const out: ReplayEpisode[] = [];
  for (let k = 0; k < 6; k++) {
    const stopAt = 30 + 5 * k;
    const r = record(100 + k, stopAt);
    const failurePoint = STEPS - 1 - 20;
    out.push({ seed: 100 + k, success: false, record: r, failurePoint, onset: failureOnset(r, 0, failurePoint), inCluster: true });
  }
  for (let k = 0; k < 4; k++) {
    out.push({ seed: 200 + k, success: true, record: record(200 + k, STEPS), failurePoint: -1, onset: -1, inCluster: false });
  }
  return out;
}

describe('the failure onset', () => {
  it('is where the hand came to rest for good when no milestone marks it', () => {
    const r = record(1, 40);
    expect(restingFrom(r)).toBe(40);
    expect(failureOnset(r, 0, 79)).toBe(40);
    // a milestone stall later than the rest wins; a rest after the failure point does not count
    expect(failureOnset(r, 55, 79)).toBe(55);
    expect(failureOnset(record(2, STEPS), 12, 79)).toBe(12);
  });
});

describe('the condition search', () => {
  const eps = episodes();
  const found = searchConditions(eps, layout, false, 3);

  it('finds conditions that fire in time on every failure and never on a success', () => {
    expect(found.length).toBeGreaterThan(0);
    for (const c of found) {
      expect(c.failures).toBe(6);
      expect(c.successes).toBe(4);
      expect(c.false_alarms).toBe(0);
      expect(c.in_time).toBe(6);
      expect(c.early).toBe(0);
    }
  });

  it('prefers what changes at the onset to what holds all along (the goal ahead, a scene property)', () => {
    for (const c of found) expect(c.features).not.toContain('observed.goal_dx');
    expect(found.map((c) => c.healthy)).toEqual(found.map(() => 0));
  });

  it('never reads a privileged feature or the critic bookkeeping', () => {
    for (const c of found)
      for (const f of c.features) expect(f.startsWith('privileged.') || (f.startsWith('episode.') && f !== 'episode.step')).toBe(false);
  });

  it('reports firings the real critic reproduces with the rule as written', () => {
    for (const c of found) {
      const rules = loadRules(
        {
          version: 1,
          rules: [
            {
              id: 'searched',
              guards: [
                { op: 'eq', feature: 'episode.in_recovery', value: 0 },
                { op: 'ge', feature: 'episode.steps_since_recovery', value: 10 },
              ],
              when: c.when,
              dwell: c.dwell,
              propose: { action: 'hold', priority: 1 },
            },
          ],
        },
        { layout, privileged: false, knownRecoveries: [] },
      );
      for (const e of eps) {
        const critic = replayRules(e.record, rules, { privileged: false }).firstFire[0]!;
        const fired = critic >= 0;
        if (e.success) expect(fired).toBe(false);
        else {
          expect(critic).toBeGreaterThanOrEqual(e.onset - 10);
          expect(critic).toBeLessThanOrEqual(e.failurePoint);
        }
      }
    }
  });

  it('counts dwell as consecutive steps on which the guards let the rule act', () => {
    const holds = Uint8Array.from([1, 1, 0, 1, 1, 1, 1]);
    const open = Uint8Array.from([1, 1, 1, 1, 0, 1, 1]);
    expect(firstFiring(holds, open, 2)).toBe(1);
    expect(firstFiring(holds, open, 3)).toBe(-1);
    expect(firstFiring(holds, Uint8Array.from([1, 1, 1, 1, 1, 1, 1]), 3)).toBe(5);
  });

  it('finds nothing to say when there is no failure to explain', () => {
    expect(
      searchConditions(
        eps.filter((e) => e.success),
        layout,
        false,
        3,
      ),
    ).toEqual([]);
    expect(episodeColumns(eps[0]!.record, layout, false).steps).toBe(STEPS);
  });

  it('replays a recording into columns once, however many pools search it', () => {
    const record = eps[0]!.record;
    const first = episodeColumns(record, layout, false);
    expect(episodeColumns(record, layout, false)).toBe(first);
    // another privilege reads other features: its own columns
    expect(episodeColumns(record, layout, true)).not.toBe(first);
  });
});

// A conjunction neither of whose parts separates alone: at its event step every episode sees the same
// event (goal_dy jumps: "the gripper is commanded closed"), where the failures' progress stopped
// (their milestone stall), though the hand moves on in every episode; only the failures are
// still far from the goal then (goal_dist stays 0.8: "the hand is away from the object"), the
// successes arrive as the event comes. The event alone fires in every success; "far" alone fires from
// the first step of every failure, long before it is lost. Events come at different steps, so a
// deadline ("step > θ and far") separates too, but later: the search prefers what fires first.
function eventRecord(seed: number, event: number, failed: boolean): EpisodeRecord {
  const r = record(seed, STEPS);
  const steps = r.steps.map((s, t) => ({
    ...s,
    features: [0.8, t >= event ? 1 : 0, failed || t < event ? 0.8 : 0.1],
  }));
  return { ...r, steps } as EpisodeRecord;
}

describe('conjunctions in the condition search', () => {
  const failurePoint = STEPS - 1 - 20;
  const eps: ReplayEpisode[] = [
    ...Array.from({ length: 6 }, (_, k) => {
      const event = 40 + 4 * k;
      return { seed: 300 + k, success: false, record: eventRecord(300 + k, event, true), failurePoint, onset: event, inCluster: true };
    }),
    ...Array.from({ length: 4 }, (_, k) => ({
      seed: 400 + k,
      success: true,
      record: eventRecord(400 + k, 40 + 4 * k, false),
      failurePoint: -1,
      onset: -1,
      inCluster: false,
    })),
  ];
  const firstFire = (when: unknown, e: ReplayEpisode) =>
    replayRules(
      e.record,
      loadRules(
        {
          version: 1,
          rules: [
            {
              id: 'part',
              guards: [
                { op: 'eq', feature: 'episode.in_recovery', value: 0 },
                { op: 'ge', feature: 'episode.steps_since_recovery', value: 10 },
              ],
              when,
              propose: { action: 'hold', priority: 1 },
            },
          ],
        },
        { layout, privileged: false, knownRecoveries: [] },
      ),
      { privileged: false },
    ).firstFire[0]!;

  it('pairs an event that fires everywhere with the comparison that fires only in the failures at that moment', () => {
    const [best] = searchConditions(eps, layout, false, 3);
    expect(best).toBeDefined();
    expect(best!.features).toEqual(['observed.goal_dist', 'observed.goal_dy']);
    expect(best!).toMatchObject({ in_time: 6, early: 0, false_alarms: 0 });
    const parts = (best!.when as { op: string; args: unknown[] }).args;
    expect((best!.when as { op: string }).op).toBe('and');
    const [event, far] = parts[0] && JSON.stringify(parts[0]).includes('goal_dy') ? [parts[0], parts[1]] : [parts[1], parts[0]];
    // the event alone fires in a success; "far" alone fires on the healthy stretch of a failure
    expect(eps.filter((e) => e.success).some((e) => firstFire(event, e) >= 0)).toBe(true);
    expect(eps.filter((e) => !e.success).every((e) => firstFire(far, e) < e.onset - 10)).toBe(true);
    // together, the real critic fires at the event in every failure and never in a success
    // the frame of step t carries the features of step t − 1
    for (const e of eps) expect(firstFire(best!.when, e)).toBe(e.success ? -1 : e.onset + 1);
  });
});
