// Shadow replay: run a candidate's rules over the parent's recorded episodes, read-only. Nothing is
// executed and the episodes are not changed; the question is only when the new rules would have
// fired: before the failure point on failed episodes (a chance to recover) and at all on successful
// ones (false alarms). It also returns each step's robustness margin of a rule, from which synthesis
// fits thresholds without replaying again.
//
// The recording pairs each step's state with the env features *after* that step; the critic reads
// them *before* it. Step t is therefore replayed with the features recorded at step t − 1.
import { FrameBuilder, RULE_FIRED, TemporalCritic, type FeatureFrame, type FeatureLayout, type RuleSet } from '../critic/index.js';
import type { FeatureValues } from '../protocol/feature-schema.js';
import type { EpisodeRecord } from '../zinfra/recording/episode-record.js';

export interface RuleTrace {
  /** First step each rule fired, −1 if never, in the set's rule order. */
  readonly firstFire: Int32Array;
  /** Per step, the margin of the rule asked for (NaN while inactive); empty when none was. */
  readonly margins: Float64Array;
}

export function replayRules(record: EpisodeRecord, rules: RuleSet, options: { privileged: boolean; marginOf?: number }): RuleTrace {
  const critic = new TemporalCritic(rules);
  const firstFire = new Int32Array(rules.size).fill(-1);
  const margins = new Float64Array(options.marginOf === undefined ? 0 : record.steps.length).fill(Number.NaN);
  replayFrames(record, rules.layout, options.privileged, (frame, t) => {
    const result = critic.evaluate(frame);
    for (let i = 0; i < rules.size; i++) if (firstFire[i] === -1 && result.status[i] === RULE_FIRED) firstFire[i] = t;
    if (options.marginOf !== undefined) margins[t] = result.margins[options.marginOf]!;
  });
  return { firstFire, margins };
}

/** Each step's frame of a recorded episode, as the critic read it live (features of step t − 1). */
export function replayFrames(
  record: EpisodeRecord,
  layout: FeatureLayout,
  privileged: boolean,
  onFrame: (frame: FeatureFrame, t: number) => void,
): void {
  const builder = new FrameBuilder({ layout, privileged, controlHz: record.header.controlHz });
  const names = record.header.featureNames;
  let features: FeatureValues | null = null;
  record.steps.forEach((step, t) => {
    onFrame(builder.fill(step.state, step.policyAction ?? step.action, features, step.source === 'recovery'), t);
    builder.commit(step.action);
    features = step.features ? { names, values: step.features } : null;
  });
}

/** The parent's episode as shadow replay judges it. */
export interface ReplayEpisode {
  readonly seed: number;
  readonly success: boolean;
  readonly record: EpisodeRecord;
  /** Failures only: the last step at which firing still leaves the recovery room to act. */
  readonly failurePoint: number;
  /** Failures only: the step progress stopped (search/failure-onset.ts); a rule firing well before it fires on a healthy stretch. */
  readonly onset: number;
  /** Failures only: the failure belongs to the cluster the candidate targets. */
  readonly inCluster: boolean;
}

export interface ShadowReport {
  readonly rules: readonly string[];
  /** Targeted failures on which a new rule fired at or before the failure point. */
  readonly triggers: number;
  readonly targeted_failures: number;
  readonly trigger_rate: number;
  /** Other failures it fired on in time (a side benefit, or a different mechanism). */
  readonly other_triggers: number;
  /** Successful episodes on which a new rule fired at all. */
  readonly false_alarms: number;
  readonly successes: number;
  readonly false_alarm_rate: number;
  /** Seed → first step a new rule fired (−1: never). */
  readonly fire_steps: Readonly<Record<string, number>>;
}

export function shadowReplay(
  episodes: readonly ReplayEpisode[],
  rules: RuleSet,
  newRuleIds: readonly string[],
  privileged: boolean,
): ShadowReport {
  const idx = newRuleIds.map((id) => rules.indexOf(id)).filter((i) => i >= 0);
  let triggers = 0;
  let targeted = 0;
  let other = 0;
  let falseAlarms = 0;
  let successes = 0;
  const fireSteps: Record<string, number> = {};
  for (const ep of [...episodes].sort((a, b) => a.seed - b.seed)) {
    const trace = replayRules(ep.record, rules, { privileged });
    const fired = idx.map((i) => trace.firstFire[i]!).filter((s) => s >= 0);
    const first = fired.length ? Math.min(...fired) : -1;
    fireSteps[String(ep.seed)] = first;
    if (ep.success) {
      successes++;
      if (first >= 0) falseAlarms++;
      continue;
    }
    const inTime = first >= 0 && first <= ep.failurePoint;
    if (ep.inCluster) {
      targeted++;
      if (inTime) triggers++;
    } else if (inTime) other++;
  }
  return {
    rules: [...newRuleIds],
    triggers,
    targeted_failures: targeted,
    trigger_rate: targeted ? triggers / targeted : 0,
    other_triggers: other,
    false_alarms: falseAlarms,
    successes,
    false_alarm_rate: successes ? falseAlarms / successes : 0,
    fire_steps: fireSteps,
  };
}
