import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../critic/index.js';
import { replayRules, shadowReplay, type ReplayEpisode } from '../../evolution/shadow-replay.js';
import { fitThreshold } from '../../evolution/synthesis/fit.js';
import { fittableRule } from '../../evolution/synthesis/templates.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { writeSyntheticEpisode } from './synthetic.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

async function recorded(seed: number, success: boolean) {
  const path = join(mkdtempSync(join(tmpdir(), 'zetta-shadow-')), `${seed}.mcap`);
  await writeSyntheticEpisode(path, { seed, success, stallAt: 40 });
  return readEpisode(path);
}

const rule = (id: string, when: object, dwell = 1) => ({
  id,
  guards: [{ op: 'eq', feature: 'episode.in_recovery', value: 0 }],
  when,
  dwell,
  propose: { action: 'hold' },
});

describe('shadow replay over a recorded episode', () => {
  it('fires a rule where the recorded trajectory meets it, with the env features of the step before', async () => {
    const ep = await recorded(7, false); // z = 0.3 − 0.002·t until the stall at 40
    const rules = loadRules(
      {
        version: 1,
        rules: [
          rule('low', { op: 'lt', feature: 'robot.eef_z', value: 0.25 }, 3),
          rule('stage1', { op: 'ge', feature: 'privileged.milestones_reached', value: 1 }),
        ],
      },
      { layout: TABLETOP_LAYOUT, privileged: true, knownRecoveries: [] },
    );
    const trace = replayRules(ep, rules, { privileged: true, marginOf: 0 });
    // z < 0.25 first at t = 26, held three steps → fires at 28
    expect(trace.firstFire[0]).toBe(28);
    // the recording's features at t are those *after* step t; milestone 1 is in the record of t = 15,
    // so the critic could first have seen it at t = 16
    expect(trace.firstFire[1]).toBe(16);
    // margins are x − θ in metres: 0.3 − 0.25 at t = 0
    expect(trace.margins[0]).toBeCloseTo(0.05, 6);
    expect(ep.steps.length).toBe(120); // read-only: the episode is untouched
  });

  it("counts in-time triggers on the cluster's failures and false alarms on successes", async () => {
    const fail = await recorded(7, false);
    const ok = await recorded(14, true);
    const episodes: ReplayEpisode[] = [
      { seed: 7, success: false, record: fail, failurePoint: 80, onset: -1, inCluster: true },
      { seed: 14, success: true, record: ok, failurePoint: -1, onset: -1, inCluster: false },
    ];
    // stalled: the hand has not moved over the last second
    const rules = loadRules(
      { version: 1, rules: [rule('stall', { op: 'lt', feature: 'derived.net_motion', value: 0.005 }, 5)] },
      { layout: TABLETOP_LAYOUT, privileged: true, knownRecoveries: [] },
    );
    const report = shadowReplay(episodes, rules, ['stall'], true);
    expect(report.triggers).toBe(1);
    expect(report.targeted_failures).toBe(1);
    expect(report.false_alarms).toBe(0);
    expect(report.fire_steps['7']).toBeGreaterThan(40);
    expect(report.fire_steps['7']).toBeLessThanOrEqual(80); // net motion over a 20-step window, then 5 steps of dwell
    expect(report.fire_steps['14']).toBe(-1);
    // a failure point before the rule can fire: too late to help
    const late = shadowReplay([{ ...episodes[0]!, failurePoint: 50 }], rules, ['stall'], true);
    expect(late.triggers).toBe(0);
  });

  it('fits a threshold from the margins of one replay', async () => {
    const episodes: ReplayEpisode[] = [
      { seed: 7, success: false, record: await recorded(7, false), failurePoint: 80, onset: -1, inCluster: true },
      { seed: 14, success: true, record: await recorded(14, true), failurePoint: -1, onset: -1, inCluster: false },
    ];
    const template = fittableRule('stall', { ruleId: 'evo.stall', recoveryId: 'evo_stall', stage: 2, successSteps: Number.NaN })!;
    const fit = fitThreshold(template, 'evo_stall', episodes, true, TABLETOP_LAYOUT);
    expect(fit.triggers).toBe(1);
    expect(fit.false_alarms).toBe(0);
    expect(fit.theta).toBeGreaterThan(0);
    expect(fit.tried).toBeGreaterThan(3);
  });
});
