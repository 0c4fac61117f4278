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
});
