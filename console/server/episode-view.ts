// A recorded episode (MCAP, zinfra/recording) as the console draws it: per step the features by
// name, what the critic proposed and the governor decided, who acted, the milestones, and the
// gripper's and each object's position, laid out as the recorder's frame transforms read them
// (foxglove-scene.ts: the gripper at state[0..2]; objects as consecutive poses of `dim` numbers,
// position first, in the header's objectNames order). The answer is the API contract's EpisodeData,
// the recording's header and summary mapped into it field by field.
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import type { EpisodeHeader, EpisodeSummary, StepRecord } from '../../zinfra/recording/episode-record.js';
import type { EpisodeData, EpisodeHeader as HeaderView, EpisodeStep, EpisodeSummary as SummaryView, Vec3 } from '../contract/index.js';

export async function episodeView(path: string): Promise<EpisodeData> {
  const record = await readEpisode(path);
  const { header } = record;
  const hz = header.controlHz > 0 ? header.controlHz : 1;
  return {
    header: headerView(header),
    summary: record.summary ? summaryView(record.summary) : null,
    steps: record.steps.map((s) => stepView(s, header, hz)),
  };
}

function headerView(h: EpisodeHeader): HeaderView {
  return {
    episodeId: h.episodeId,
    task: h.task,
    suite: h.suite,
    seed: h.seed,
    resetDigest: h.resetDigest,
    instruction: h.instruction,
    controlHz: h.controlHz,
    perturbation: h.perturbation,
    policy: h.policy,
    critic: h.critic,
    featureNames: h.featureNames,
    objectNames: h.objectNames,
  };
}

function summaryView(s: EpisodeSummary): SummaryView {
  return {
    success: s.success,
    steps: s.steps,
    milestones: s.milestones,
    infraFailure: s.infraFailure,
    physicsDivergence: s.physicsDivergence,
    policyActions: s.policyActions,
    unmodifiedPolicyActions: s.unmodifiedPolicyActions,
    recoveryActions: s.recoveryActions,
    milestonesDuringRecovery: s.milestonesDuringRecovery,
    wallMs: s.wallMs,
  };
}

function stepView(s: StepRecord, header: EpisodeHeader, hz: number): EpisodeStep {
  return {
    t: s.step,
    time_s: s.step / hz,
    features: namedFeatures(header.featureNames, s.features),
    proposals: s.proposals ?? [],
    decision: s.decision ?? null,
    source: s.source,
    milestones: s.milestones,
    gripper: [finite(s.state[0]), finite(s.state[1]), finite(s.state[2])],
    objects: objectPositions(header.objectNames, s.objects),
    action: Array.from(s.action),
    policy_action: s.policyAction ? Array.from(s.policyAction) : null,
    reward: s.reward,
  };
}

function namedFeatures(names: readonly string[], values: ArrayLike<number> | undefined): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  if (!values) return out;
  names.forEach((name, i) => {
    const v = values[i];
    out[name] = v !== undefined && Number.isFinite(v) ? v : null;
  });
  return out;
}

/** Each object's position: poses of `dim` numbers each (3, or 7 with a quaternion), as in frameTransforms. */
export function objectPositions(names: readonly string[], objects: ArrayLike<number>): Record<string, Vec3> {
  const out: Record<string, Vec3> = {};
  const dim = names.length ? Math.floor(objects.length / names.length) : 0;
  if (dim < 3) return out;
  names.forEach((name, k) => {
    const o = k * dim;
    out[name] = [finite(objects[o]), finite(objects[o + 1]), finite(objects[o + 2])];
  });
  return out;
}

const finite = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) ? v : 0);
