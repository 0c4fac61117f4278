import { describe, expect, it } from 'vitest';
import { countSafetyEvents } from '../../evolution/campaign/safety-events.js';
import type { EpisodeRecord, StepRecord } from '../../zinfra/recording/episode-record.js';

const step = (t: number, extra: Partial<StepRecord>): StepRecord => ({
  step: t,
  state: [],
  objects: [],
  policyAction: null,
  action: [],
  source: 'policy',
  reward: 0,
  milestones: [],
  ...extra,
});
const safety = { proposals: [{ ruleId: 'contact_force_spike', proposal: 'back_off', priority: 9, safety: true }] };

describe('safety events', () => {
  it("counts safety-rule onsets, aborts and workspace stops, not the envelope's routine shaping", () => {
    const record = {
      header: {} as EpisodeRecord['header'],
      summary: null,
      steps: [
        step(0, safety),
        step(1, safety),
        step(2, {}),
        step(3, safety), // two onsets
        step(4, { decision: { kind: 'execute', reason: 'envelope gripper_rate' } }),
        step(5, { decision: { kind: 'execute', reason: 'envelope component+rotation' } }),
        step(6, { decision: { kind: 'recover', reason: 'rule x; envelope translation+workspace' } }),
        step(7, { decision: { kind: 'abort' } }),
      ],
    } satisfies EpisodeRecord;
    expect(countSafetyEvents(record)).toBe(4);
  });

  it('counts a hand held at the workspace box by the onsets of its stops, not by its stopped steps', () => {
    const stop = { decision: { kind: 'execute' as const, reason: 'envelope workspace' } };
    // stopped on 3 of every 5 steps from step 10 to 34 (one press), then again from step 60
    const pressed = (t: number) => (t >= 10 && t < 35 && t % 5 < 3) || t === 60 || t === 62;
    const record = {
      header: {} as EpisodeRecord['header'],
      summary: null,
      steps: Array.from({ length: 70 }, (_, t) => step(t, pressed(t) ? stop : {})),
    } satisfies EpisodeRecord;
    expect(record.steps.filter((s) => s.decision).length).toBe(17);
    expect(countSafetyEvents(record)).toBe(2);
  });
});
