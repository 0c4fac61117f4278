// The built-in diagnoser: deterministic, from milestones and feature statistics alone. Each possible
// mechanism is scored from the cluster's evidence; the best is the diagnosis, the rest stay as
// competing hypotheses (each becomes its own candidate if the best one is rejected).
import type { ClusterEvidence } from './evidence.js';
import type { Diagnosis, Hypothesis } from './schema.js';

/** The search's score: what a mechanism's evidence must beat to be tried before it. */
const SEARCH_SCORE = 0.85;
/** End-effector motion (m/step) below which a stalled episode is "standing still". */
const STILL_M_PER_STEP = 0.003;

export function diagnoseBuiltin(e: ClusterEvidence): Diagnosis {
  const hypotheses = candidateHypotheses(e).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const best = hypotheses[0]!;
  return {
    cluster: e.cluster,
    layer: best.layer,
    mechanism: best.mechanism,
    hypotheses,
    falsifier: {
      statement: `if a rule for this mechanism, fitted on the parent's episodes, fires before the failure point in fewer than 30% of cluster ${e.cluster}'s failures, the mechanism is not what ends them`,
      metric: 'shadow_trigger_rate',
      op: 'lt',
      value: 0.3,
    },
  };
}

/**
 * The search (evolution/search/): a condition over the world's features, found by contrast, starts a
 * library action. Scored below a named mechanism with strong evidence (a measured lag, a clear
 * disturbance, a hand at rest) and above the weaker ones: it needs no template written for it.
 */
function searchHypothesis(e: ClusterEvidence, stage: string): Hypothesis {
  return {
    id: 'searched-condition',
    layer: 'planning',
    template: 'search',
    score: SEARCH_SCORE,
    mechanism: `a condition over the world's features holds in these failures before ${stage} is lost and not in the successes; when it holds, a restore action from the library (chosen by a screening rollout) hands the policy a fresh start`,
    rationale: `${e.size} failures stalled before ${stage}; the search compares every observed and derived feature, its changes and its ranges, before their failure point`,
  };
}

/**
 * A control option, not a rule: what a measured actuation lag asks of the chunks themselves. Just
 * below compensate_lag, which names the programs that drive the failures when they do.
 */
function lagControlOption(e: ClusterEvidence): Hypothesis[] {
  const lag = e.actuation_lag_steps;
  if (lag === null || lag < 2) return [];
  return [
    {
      id: 'control-chunks-lag',
      layer: 'parameters',
      template: 'align_chunks',
      score: 0.88,
      mechanism: `commands reach the hand ${lag - 1} step${lag > 2 ? 's' : ''} late; each chunk is planned from a state the commands in flight have not moved yet, so the policy plans that motion again and overshoots; every chunk starts where its own planned motion has caught up with the motion in flight`,
      rationale: `commanded motion best predicts the hand's motion ${lag} steps later (1 without delay)`,
    },
  ];
}

function candidateHypotheses(e: ClusterEvidence): Hypothesis[] {
  const stage = e.first_missing ?? 'the goal';
  // a world without milestones (a remote env may declare none): only the search has anything to go on
  if (e.milestones.length === 0) return [searchHypothesis(e, stage), ...lagControlOption(e)];
  if (e.first_missing === null) {
    return [
      {
        id: 'evaluation-goal',
        layer: 'evaluation',
        template: 'none',
        score: 1,
        mechanism: 'every milestone was reached but the goal predicate did not hold: the evaluation and the milestones disagree',
        rationale: `all ${e.milestones.length} milestones reached in ${e.size} failures; no bundle change can fix the measurement`,
      },
    ];
  }
  const out: Hypothesis[] = [searchHypothesis(e, stage)];
  const still = 1 / (1 + e.eef_motion_per_step / STILL_M_PER_STEP);
  out.push({
    id: 'planning-stall',
    layer: 'planning',
    template: 'stall',
    score: round(still),
    mechanism: `the policy stops making progress before ${stage}; a recovery that puts the hand back where the policy can redo ${stage} is started when motion stalls`,
    rationale: `mean motion after the stall ${fmt(e.eef_motion_per_step * 1000)} mm/step over ${fmt(e.stalled_steps)} steps`,
  });
  out.push({
    id: 'planning-oscillation',
    layer: 'planning',
    template: 'oscillation',
    score: round(clamp01((e.oscillation_index - 2) / 8)),
    mechanism: `the policy moves back and forth without reaching ${stage}; a recovery is started when motion keeps reversing`,
    rationale: `path / net displacement after the stall ${fmt(e.oscillation_index)}`,
  });
  out.push({
    id: 'parameters-deadline',
    layer: 'parameters',
    template: 'deadline',
    score: Number.isFinite(e.success_steps_to_milestone_max) ? 0.5 : 0.3,
    mechanism: `the time the policy is given for ${stage} is too long: successes reach it by step ${fmt(e.success_steps_to_milestone_max)}; a recovery takes over past a fitted deadline`,
    rationale: `successes reach ${stage} at median step ${fmt(e.success_steps_to_milestone_median)}; the cluster never does`,
  });
  if (e.disturbed_fraction > 0) {
    out.push({
      id: 'state-disturbance',
      layer: 'state',
      template: 'disturbance',
      score: round(e.disturbed_fraction * 0.9),
      mechanism: `the object was displaced and the policy does not re-plan toward its new state; when the object moves unexpectedly, a recovery re-centres the open hand above it as observed and the policy redoes ${stage}`,
      rationale: `${fmt(100 * e.disturbed_fraction)}% of the cluster saw a disturbance`,
    });
  }
  if (stage.endsWith('.grasped')) {
    out.push({
      id: 'planning-grasp-empty',
      layer: 'planning',
      template: 'grasp_empty',
      score: round(0.6 * (1 - e.grasped_fraction)),
      mechanism: 'the gripper closes beside the object; a regrasp is started when it closes on nothing',
      rationale: `grasped in ${fmt(100 * e.grasped_fraction)}% of the post-stall steps`,
    });
  }
  if (e.parent_program_suspect && e.program_exhausted_share >= 0.5 && e.recovery_step_share >= 0.3) {
    out.push({
      id: 'recovery-program-tolerance',
      layer: 'recovery',
      template: 'retune_program',
      program_id: e.parent_program_suspect,
      score: round(e.program_exhausted_share * Math.min(1, 1.5 * e.recovery_step_share)),
      mechanism: `the parent's program ${e.parent_program_suspect} drives these episodes and runs out of budget: its thresholds (approach tolerance, re-entry stillness) are tighter than the noise in the state it reads; they are refitted to what it met`,
      rationale: `${fmt(100 * e.recovery_step_share)}% of the steps under a parent program; ${fmt(100 * e.program_exhausted_share)}% of ${e.parent_program_suspect}'s runs exhausted`,
    });
  }
  const lag = e.actuation_lag_steps;
  if (lag !== null && lag >= 2 && e.recovery_step_share >= 0.05) {
    out.push({
      id: 'recovery-actuation-lag',
      layer: 'recovery',
      template: 'compensate_lag',
      score: 0.9,
      mechanism: `commands reach the hand ${lag - 1} step${lag > 2 ? 's' : ''} late; the parent's recovery programs servo on the observed hand, keep commanding motion that is already on its way, overshoot and oscillate; they are told the lag (${lag} steps) and servo on the hand predicted from their commands in flight`,
      rationale: `commanded motion best predicts the hand's motion ${lag} steps later (1 without delay); ${fmt(100 * e.recovery_step_share)}% of the steps under a parent program`,
    });
  }
  out.push(...lagControlOption(e));
  const recoveryShare = e.size ? e.parent_recovery_failures / e.size : 0;
  if (e.parent_rule_suspect && recoveryShare >= 0.5) {
    out.push({
      id: 'critic-false-alarm',
      layer: 'critic',
      template: 'suppress_rule',
      rule_id: e.parent_rule_suspect,
      score: round(0.8 * recoveryShare),
      mechanism: `the parent rule ${e.parent_rule_suspect} fires in these failures and not in successes: its recovery derails the policy; it is made to wait longer`,
      rationale: `a parent recovery ran in ${e.parent_recovery_failures}/${e.size} failures and ${e.parent_recovery_successes}/${e.successes_in_batch} successes`,
    });
  } else if (recoveryShare >= 0.5) {
    out.push({
      id: 'recovery-incomplete',
      layer: 'recovery',
      template: 'deadline',
      score: round(0.7 * recoveryShare),
      mechanism: `the parent's recovery runs but does not complete ${stage}; a program for ${stage} itself takes over past a fitted deadline`,
      rationale: `a parent recovery ran in ${e.parent_recovery_failures}/${e.size} failures`,
    });
  }
  return out;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const round = (x: number) => Math.round(clamp01(x) * 1000) / 1000;
const fmt = (x: number) => (Number.isFinite(x) ? (Math.round(x * 10) / 10).toString() : 'n/a');
