import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEpisode, EpisodeFileError } from '../../zinfra/recording/episode-reader.js';
import type { EpisodeHeader, StepRecord } from '../../zinfra/recording/episode-record.js';
import { EpisodeWriter } from '../../zinfra/recording/episode-writer.js';

const header: EpisodeHeader = {
  episodeId: 'ep-7',
  task: 'pick_cube_bowl',
  suite: 'spatial',
  seed: 7,
  resetDigest: 'ab'.repeat(32),
  instruction: 'put the red cube in the bowl',
  controlHz: 20,
  perturbation: { name: 'position-shift', position: { shift_m: [0.06, 0.1] } },
  policy: 'embedded',
  critic: 'default',
  featureNames: ['privileged.grasped', 'command.stalled', 'robot.eef_z'],
  objectNames: ['cube', 'bowl'],
};

function step(i: number): StepRecord {
  const fromRecovery = i % 10 === 9;
  return {
    step: i,
    state: Float32Array.from({ length: 8 }, (_, k) => Math.fround(0.1 * k + i * 1e-3)),
    objects: Float32Array.from({ length: 14 }, (_, k) => Math.fround(k - i * 1e-3)),
    policyAction: fromRecovery ? null : Float32Array.of(0.5, -0.25, 0, 0, 0, 0, -1),
    action: Float32Array.of(0.5, -0.25, 0, 0, 0, 0, fromRecovery ? 1 : -1),
    source: fromRecovery ? 'recovery' : 'policy',
    reward: 0,
    milestones: i > 20 ? ['reached'] : [],
    features: Float64Array.of(i > 30 ? 1 : 0, Number.NaN, 0.2 + i * 1e-3),
    ...(fromRecovery
      ? {
          proposals: [{ ruleId: 'grasp-empty', proposal: 'regrasp', priority: 2, safety: false }],
          decision: { kind: 'recover', recovery: 'regrasp' },
        }
      : {}),
  };
}

describe('episode recording (MCAP)', () => {
  it('reads back every step, channel and metadata record it wrote', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zetta-ep-')), 'ep-7.mcap');
    const w = await EpisodeWriter.create(path, header);
    const steps = Array.from({ length: 50 }, (_, i) => step(i));
    steps.forEach((s) => w.append(s));
    await w.close({
      success: true,
      steps: 50,
      milestones: ['reached'],
      infraFailure: null,
      physicsDivergence: false,
      policyActions: 45,
      unmodifiedPolicyActions: 40,
      recoveryActions: 5,
      milestonesDuringRecovery: 1,
      wallMs: 12,
    });
    expect(existsSync(`${path}.partial`)).toBe(false);

    const ep = await readEpisode(path);
    expect(ep.header).toEqual(header);
    expect(ep.summary).toMatchObject({
      success: true,
      steps: 50,
      recoveryActions: 5,
      unmodifiedPolicyActions: 40,
      milestonesDuringRecovery: 1,
      physicsDivergence: false,
    });
    expect(ep.steps).toHaveLength(50);
    ep.steps.forEach((got, i) => {
      const want = steps[i]!;
      expect(Float32Array.from(got.state)).toEqual(want.state);
      expect(Float32Array.from(got.action)).toEqual(want.action);
      expect(got.policyAction === null).toBe(want.policyAction === null);
      expect(got.source).toBe(want.source);
      expect(Number.isNaN(got.features![1])).toBe(true); // NaN survives JSON as null → NaN
      expect(got.features![0]).toBe(want.features![0]);
      expect(got.decision).toEqual(want.decision);
    });
  });

  it('leaves an interrupted episode as a readable .partial without a summary', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zetta-ep-')), 'cut.mcap');
    const w = await EpisodeWriter.create(path, header);
    for (let i = 0; i < 5; i++) w.append(step(i));
    await w.abandon();
    expect(existsSync(path)).toBe(false);
    const ep = await readEpisode(`${path}.partial`);
    expect(ep.summary).toBeNull();
    expect(ep.steps.map((s) => s.step)).toEqual([0, 1, 2, 3, 4]);
  });

  it('refuses a file that is not a Zetta episode', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zetta-ep-')), 'junk.mcap');
    writeFileSync(path, 'not an mcap file at all');
    await expect(readEpisode(path)).rejects.toBeInstanceOf(EpisodeFileError);
  });
});
