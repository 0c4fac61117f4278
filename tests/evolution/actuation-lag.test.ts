// The actuation lag measured from recordings, and the compensate_lag change that the builtin
// diagnoser proposes and synthesis builds from it.
import { describe, expect, it } from 'vitest';
import { actuationLag } from '../../evolution/diagnosis/actuation-lag.js';
import { diagnoseBuiltin } from '../../evolution/diagnosis/builtin.js';
import type { ClusterEvidence } from '../../evolution/diagnosis/evidence.js';
import { alignChunksChange } from '../../evolution/synthesis/control-options.js';
import { withActuationLag } from '../../evolution/synthesis/retune.js';
import type { BundleManifest } from '../../critic/index.js';
import type { EpisodeRecord, StepRecord } from '../../zinfra/recording/episode-record.js';

/** A hand whose commanded translation moves it `delay` steps late, with sensor noise on what is recorded. */
function delayedEpisode(delay: number, seed: number, steps = 200): EpisodeRecord {
  let s = seed >>> 0;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const pos = [0, 0, 0.1];
  const commands: number[][] = [];
  const out: StepRecord[] = [];
  for (let t = 0; t < steps; t++) {
    const action = [rand(), rand(), rand(), 0, 0, 0, -1];
    commands.push(action);
    const observed = pos.map((p) => p + 0.002 * rand());
    out.push({
      step: t,
      state: [...observed, 0, 0, 0, 0.04, 0.04],
      objects: [],
      policyAction: action,
      action,
      source: 'policy',
      reward: 0,
      milestones: [],
    });
    const applied = commands[t - delay];
    if (applied) for (let i = 0; i < 3; i++) pos[i]! += 0.005 * applied[i]!;
  }
  return { header: {} as EpisodeRecord['header'], steps: out, summary: null };
}

describe('actuationLag', () => {
  it('finds the step at which commands show in the hand, through sensor noise', () => {
    for (const delay of [0, 1, 2, 4]) expect(actuationLag([delayedEpisode(delay, 1), delayedEpisode(delay, 2)])).toBe(delay + 1);
  });

  it('has nothing to say about episodes that never commanded motion', () => {
    const still = delayedEpisode(0, 3);
    const frozen = { ...still, steps: still.steps.map((s) => ({ ...s, action: [0, 0, 0, 0, 0, 0, -1] })) };
    expect(actuationLag([frozen])).toBeNull();
    expect(actuationLag([])).toBeNull();
  });
});

describe('withActuationLag', () => {
  const program = {
    id: 'regrasp',
    budget: 100,
    steps: [
      { tool: 'open_gripper', budget: 5 },
      { tool: 'close_gripper', budget: 10, fallback: { steps: [{ tool: 'descend', params: { point: 'object' }, budget: 5 }] } },
    ],
  };

  it('tells a program that servoes toward a point (fallbacks included) the lag, without touching the parent', () => {
    expect(withActuationLag(program, 3)).toEqual({ ...program, lag_steps: 3 });
    expect(program).not.toHaveProperty('lag_steps');
  });

  it('returns null for a program that never servoes or already knows the lag', () => {
    expect(
      withActuationLag(
        {
          id: 'settle',
          budget: 5,
          steps: [
            { tool: 'hold', budget: 3 },
            { tool: 'lift', budget: 2 },
          ],
        },
        3,
      ),
    ).toBeNull();
    expect(withActuationLag({ ...program, lag_steps: 3 }, 3)).toBeNull();
    expect(withActuationLag({ ...program, lag_steps: 'measured' }, 3)).toBeNull(); // follows the critic's estimate
  });
});

describe('the builtin diagnoser and a measured lag', () => {
  const evidence = (lag: number | null, recoveryShare: number): ClusterEvidence => ({
    cluster: 'c1',
    task: 't',
    milestones: ['cube.reached', 'cube.grasped'],
    first_missing: 'cube.grasped',
    first_missing_index: 1,
    size: 5,
    failures_in_batch: 8,
    successes_in_batch: 2,
    stalled_steps: 150,
    oscillation_index: 9,
    eef_motion_per_step: 0.004,
    grasped_fraction: 0,
    disturbed_fraction: 0,
    parent_recovery_failures: 5,
    parent_recovery_successes: 1,
    parent_rule_suspect: null,
    parent_program_suspect: 'regrasp',
    recovery_step_share: recoveryShare,
    program_exhausted_share: 0.8,
    success_steps_to_milestone_median: 40,
    success_steps_to_milestone_max: 60,
    divergence_features: {},
    actuation_lag_steps: lag,
  });
  const lagHypothesis = (e: ClusterEvidence) => diagnoseBuiltin(e).hypotheses.find((h) => h.template === 'compensate_lag');

  it("blames the programs' ignorance of the lag when commands arrive late and programs drive the failures", () => {
    const d = diagnoseBuiltin(evidence(3, 0.4));
    expect(d.hypotheses[0]!.template).toBe('compensate_lag');
    expect(d.layer).toBe('recovery');
    expect(d.hypotheses[0]!.mechanism).toContain('2 steps late');
  });

  it('proposes the search beside the named mechanisms, and only the search in a world without milestones', () => {
    expect(diagnoseBuiltin(evidence(3, 0.4)).hypotheses.map((h) => h.template)).toContain('search');
    const bare = { ...evidence(null, 0), milestones: [], first_missing: null, first_missing_index: 0 };
    expect(diagnoseBuiltin(bare).hypotheses.map((h) => h.template)).toEqual(['search']);
    // all milestones reached yet failed: the measurement disagrees, no bundle change can help
    const measured = { ...evidence(null, 0), first_missing: null, first_missing_index: 2 };
    expect(diagnoseBuiltin(measured).hypotheses.map((h) => h.template)).toEqual(['none']);
  });

  it('proposes aligning the chunks to a measured lag, with or without programs, also in a world without milestones', () => {
    const option = (e: ClusterEvidence) => diagnoseBuiltin(e).hypotheses.find((h) => h.template === 'align_chunks');
    expect(option(evidence(3, 0))?.mechanism).toContain('2 steps late');
    expect(option(evidence(3, 0.4))).toBeDefined();
    expect(option({ ...evidence(3, 0), milestones: [], first_missing: null, first_missing_index: 0 })).toBeDefined();
    expect(option(evidence(1, 0))).toBeUndefined();
    expect(option(evidence(null, 0))).toBeUndefined();
  });

  it('does not, without a lag or without programs driving', () => {
    expect(lagHypothesis(evidence(1, 0.4))).toBeUndefined();
    expect(lagHypothesis(evidence(null, 0.4))).toBeUndefined();
    expect(lagHypothesis(evidence(3, 0.01))).toBeUndefined();
  });
});

describe('the align_chunks control option', () => {
  const manifest = (extra: Partial<BundleManifest>): BundleManifest => ({
    version: 1,
    name: 'p',
    description: 'd',
    privileged: false,
    rules: 'rules.json',
    recoveries: 'recoveries.json',
    during_recovery: 'preempt_safety',
    ...extra,
  });

  it('turns on align_chunks_to_lag where a lag was measured and the parent does not answer it yet', () => {
    expect(alignChunksChange(manifest({}), 3)).toEqual({ manifest: { align_chunks_to_lag: true } });
    expect(alignChunksChange(manifest({}), 1)).toMatchObject({ unbuildable: expect.stringContaining('no actuation lag') });
    expect(alignChunksChange(manifest({ align_chunks_to_lag: true }), 3)).toMatchObject({
      unbuildable: expect.stringContaining('already aligns'),
    });
    expect(alignChunksChange(manifest({ wait_out_lag: true }), 3)).toMatchObject({
      unbuildable: expect.stringContaining('waiting it out'),
    });
  });
});
