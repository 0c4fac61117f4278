// Synthetic recorded episodes and a rollout runner that writes them: campaigns and shadow replay
// can be tested in a second, without a simulator or a policy. An episode's trajectory depends only
// on (task, seed): the hand descends toward z = 0.02 and reaches the task's milestones one by one,
// and a failed episode stalls (stops moving, no more milestones) at `stallAt`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_NAMES, getTask, milestoneNames } from '../../sim/tabletop/index.js';
import type { EpisodeRecord, StepRecord } from '../../zinfra/recording/episode-record.js';
import { EpisodeWriter } from '../../zinfra/recording/episode-writer.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import { DEFAULT_GATES, builtinDiagnoser, type CampaignOptions, type RolloutRunner } from '../../evolution/index.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

export const TASK = 'spatial/left_cube_in_bowl';

export interface SyntheticSpec {
  readonly seed: number;
  readonly success: boolean;
  readonly steps?: number;
  /** Failed episodes stop making progress here. */
  readonly stallAt?: number;
}

export function syntheticSteps(spec: SyntheticSpec): StepRecord[] {
  const milestones = milestoneNames(getTask(TASK).stages);
  const n = spec.steps ?? 120;
  const stall = spec.success ? n : (spec.stallAt ?? 40);
  const f = (name: string) => FEATURE_NAMES.indexOf(name as never);
  const out: StepRecord[] = [];
  for (let t = 0; t < n; t++) {
    const active = Math.min(t, stall);
    const z = 0.3 - active * 0.002 + (spec.seed % 7) * 1e-4;
    const reached = milestones.slice(
      0,
      spec.success
        ? Math.min(milestones.length, Math.floor((t * milestones.length) / (n - 1)) + (t === n - 1 ? milestones.length : 0))
        : Math.min(2, Math.floor(active / 15)),
    );
    const features = new Float64Array(FEATURE_NAMES.length).fill(Number.NaN);
    features[f('eef_z')] = z;
    features[f('milestones_reached')] = reached.length;
    features[f('subject_lift')] = 0;
    features[f('eef_subject_dist')] = Math.max(0, z - 0.02);
    features[f('grasped')] = 0;
    features[f('finger_opening')] = 0.08;
    out.push({
      step: t,
      state: [0.1, 0.0, z, 0, 0, 0, 0.04, 0.04],
      objects: [],
      policyAction: [0, 0, t < stall ? -0.04 : 0, 0, 0, 0, -1],
      action: [0, 0, t < stall ? -0.04 : 0, 0, 0, 0, -1],
      source: 'policy',
      reward: 0,
      milestones: reached,
      features,
    });
  }
  return out;
}

export async function writeSyntheticEpisode(path: string, spec: SyntheticSpec): Promise<EpisodeRecord['summary']> {
  const steps = syntheticSteps(spec);
  const w = await EpisodeWriter.create(path, {
    episodeId: `${TASK}#${spec.seed}`,
    task: TASK,
    suite: 'spatial',
    seed: spec.seed,
    resetDigest: `digest-${spec.seed}`,
    instruction: 'synthetic',
    controlHz: 20,
    perturbation: null,
    policy: 'synthetic',
    critic: 'none',
    featureNames: FEATURE_NAMES,
    objectNames: [],
  });
  for (const s of steps) w.append(s);
  const summary = {
    success: spec.success,
    steps: steps.length,
    milestones: [...steps.at(-1)!.milestones],
    infraFailure: null,
    physicsDivergence: false,
    policyActions: steps.length,
    unmodifiedPolicyActions: steps.length,
    recoveryActions: 0,
    milestonesDuringRecovery: 0,
    wallMs: 0,
  };
  await w.close(summary);
  return summary;
}

/** A campaign from the empty bundle runs its parent as the envelope alone: governed means rules to govern with. */
function hasRules(bundleDir: string | null): boolean {
  if (bundleDir === null) return false;
  const rules = JSON.parse(readFileSync(join(bundleDir, 'rules.json'), 'utf8')) as { rules: unknown[] };
  return rules.rules.length > 0;
}

/** Whether a synthetic episode succeeds: under a bundle with rules or not (which: `bundleDir`), with a control policy or the campaign's. */
export type SuccessRule = (governed: boolean, control: string | undefined, seed: number, bundleDir: string | null) => boolean;

/** A runner whose episodes succeed where `succeeds` says; each is recorded like a real one. */
export function governedRunner(
  succeeds: SuccessRule,
  onEpisode: (seed: number, control: string | undefined) => void = () => {},
): RolloutRunner {
  return {
    policyLabel: 'synthetic',
    async run(req, report) {
      for (const seed of req.seeds) {
        onEpisode(seed, req.policy);
        const path = join(req.recordDir, req.task.replace('/', '__'), `${seed}.mcap`);
        const success = succeeds(hasRules(req.bundleDir), req.policy, seed, req.bundleDir);
        const s = (await writeSyntheticEpisode(path, { seed, success, stallAt: 30 + (seed % 5) * 4 }))!;
        const outcome: EpisodeOutcome = {
          task: req.task,
          seed,
          success: s.success,
          steps: s.steps,
          milestones: s.milestones,
          infraFailure: null,
          physicsDivergence: false,
          policyActions: s.steps,
          unmodifiedPolicyActions: s.steps,
          recoveryActions: 0,
          milestonesDuringRecovery: 0,
          holdActions: 0,
          policyCalls: 0,
          policyWaitMs: 0,
          lateChunks: 0,
          resetDigest: `digest-${seed}`,
          wallMs: 0,
          recordPath: path,
          recoveries: 0,
          envelopeHits: 0,
          aborted: false,
          firings: {},
          programStarts: {},
        };
        report(outcome);
      }
    },
  };
}

/** A runner whose episodes succeed on seeds where `succeeds(seed)` (candidates change nothing). */
export function syntheticRunner(succeeds: (seed: number) => boolean, calls: number[] = []): RolloutRunner {
  return governedRunner(
    (_governed, _control, seed) => succeeds(seed),
    (seed) => calls.push(seed),
  );
}

/** The smallest synthetic campaign: 6 development episodes, held-out seeds 1–4, one candidate, one generation. */
export function syntheticCampaignOptions(root: string, over: Partial<CampaignOptions> = {}): CampaignOptions {
  return {
    root,
    world: TABLETOP_WORLD,
    suite: 'spatial',
    task: TASK,
    perturbation: null,
    policy: { spec: 'synthetic', file: null },
    baseBundle: 'none',
    heldout: [1, 2, 3, 4],
    devEpisodes: 6,
    generations: 1,
    gates: { ...DEFAULT_GATES, max_candidates: 1 },
    executeSteps: 5,
    runner: syntheticRunner((s) => s % 3 === 0),
    diagnoser: builtinDiagnoser(),
    ...over,
  };
}
