// Zero-shot transfer, measured: the active skills that came from the source tasks, on target tasks
// no campaign used. The three governance arms run twice at the same seeds — under the base bundle
// and under the base composed with those skills — and each target reports both figures, the change
// in the both arm with Wilson intervals and an exact one-sided McNemar p-value over the paired
// seeds, and whether the skills lifted the critic-alone arm past its cap.
import { discordantPairs, mcnemarOneSided } from '../measure/mcnemar.js';
import type { World } from '../sim/world.js';
import { attribute } from '../measure/attribution.js';
import {
  runGovernanceArms,
  seedOutcomes,
  type ArmRun,
  type ArmsOptions,
  type ArmsPlan,
  type GovernanceArms,
} from '../measure/governance-arms.js';
import type { EpisodeOutcome } from '../zinfra/runtime/run-episode.js';
import { wilson, type Rate } from '../measure/success-rate.js';
import { skillFirings, withActiveSkills, type ActiveSkills, type SkillFiring } from './active-skills.js';
import { SkillInputError } from './errors.js';
import { SkillStore } from './store/skill-store.js';

/** The critic-alone arm's ceiling (the governance issue's cap, as evolution's critic-alone gate uses). */
export const DEFAULT_CRITIC_ALONE_CAP = 0.1;

export interface TransferPlan {
  readonly db: string;
  readonly world: World;
  readonly sources: readonly string[];
  readonly targets: readonly string[];
  /** The arms' plan with the targets as its tasks and the base bundle as its critic. */
  readonly arms: ArmsPlan;
  /** Composed bundles go here. */
  readonly dir: string;
  readonly criticAloneCap?: number;
}

export interface TargetTransfer {
  readonly task: string;
  /** The skills that loaded for this target (ids). */
  readonly loaded: readonly string[];
  readonly without: ArmsFigures;
  readonly with: ArmsFigures;
  /** Both arm: with minus without, in success rate. */
  readonly gain: number;
  /** Paired seeds of the both arm: b = only with skills succeeded, c = only without. */
  readonly discordant: { readonly b: number; readonly c: number };
  readonly p_value: number;
  /** With skills, the critic-alone arm stays at or under the cap. */
  readonly critic_alone_within_cap: boolean;
  /** Who drove the robot in the both arm, without and with the skills. */
  readonly drove: { readonly without: Drove; readonly with: Drove };
}

/** The both arm's attribution on one target: how much of the successes was the policy's own doing. */
export interface Drove {
  /** The policy's unmodified actions over the executed steps of the successes. */
  readonly policy_share_in_successes: number;
  /** Task milestones first reached on a step a recovery program wrote (counted against the critic). */
  readonly milestones_during_recovery: number;
  readonly recoveries: number;
}

export interface ArmsFigures {
  readonly policy: Rate;
  readonly critic_alone: Rate & { readonly control: string };
  readonly both: Rate;
  readonly synergy: number;
}

export interface TransferResult {
  readonly sources: readonly string[];
  readonly seeds: readonly number[];
  readonly perturbation: string;
  readonly critic_alone_cap: number;
  readonly skills: ActiveSkills;
  readonly targets: readonly TargetTransfer[];
  /** Which skills fired in the both arm with skills. */
  readonly fired: readonly SkillFiring[];
}

export interface TransferProgress {
  readonly onPhase?: (phase: 'without skills' | 'with skills') => void;
  /** What loaded for which target, before any episode runs. */
  readonly onComposed?: (skills: ActiveSkills) => void;
  readonly arms: Omit<ArmsOptions, 'onArmDone'>;
}

export async function measureTransfer(plan: TransferPlan, progress: TransferProgress): Promise<TransferResult> {
  checkTargets(plan);
  const cap = plan.criticAloneCap ?? DEFAULT_CRITIC_ALONE_CAP;
  const composed = withActiveSkills({
    db: plan.db,
    world: plan.world,
    critic: plan.arms.critic,
    tasks: plan.targets,
    dir: plan.dir,
    sources: plan.sources,
  });
  progress.onComposed?.(composed.skills);
  progress.onPhase?.('without skills');
  const without = await armsWithOutcomes(plan.arms, progress.arms);
  progress.onPhase?.('with skills');
  const withSkills = await armsWithOutcomes({ ...plan.arms, critic: composed.plan }, progress.arms);
  const targets = plan.targets.map((task) => {
    const loaded = composed.skills.tasks[task]!.decisions.filter((d) => d.loaded).map((d) => d.id);
    const a = figures(without.arms, task);
    const b = figures(withSkills.arms, task);
    const seeds = without.arms.seeds;
    const discordant = discordantPairs(seedOutcomes(without.both, task, seeds), seedOutcomes(withSkills.both, task, seeds));
    return {
      task,
      loaded,
      without: a,
      with: b,
      gain: b.both.rate - a.both.rate,
      discordant,
      p_value: mcnemarOneSided(discordant.b, discordant.c),
      critic_alone_within_cap: b.critic_alone.rate <= cap,
      drove: { without: drove(without.both, task), with: drove(withSkills.both, task) },
    };
  });
  return {
    sources: plan.sources,
    seeds: without.arms.seeds,
    perturbation: without.arms.perturbation,
    critic_alone_cap: cap,
    skills: composed.skills,
    targets,
    fired: skillFirings(composed.skills, withSkills.both),
  };
}

/** Transfer is measured on tasks no campaign used: a target that is any skill's source is refused. */
function checkTargets(plan: TransferPlan): void {
  if (plan.sources.length === 0 || plan.targets.length === 0)
    throw new SkillInputError('transfer needs at least one source task and one target task');
  const sourceOf = new Map(SkillStore.using(plan.db, (s) => s.list()).map((r) => [r.content.guard.tags.source_task, r.id]));
  for (const t of plan.targets) {
    if (plan.sources.includes(t))
      throw new SkillInputError(`${t} is both a source and a target: transfer is measured on tasks no campaign used`);
    const id = sourceOf.get(t);
    if (id) throw new SkillInputError(`${t} is the task skill ${id}'s campaign ran on: transfer is measured on tasks no campaign used`);
  }
}

async function armsWithOutcomes(
  plan: ArmsPlan,
  options: Omit<ArmsOptions, 'onArmDone'>,
): Promise<{ arms: GovernanceArms; both: EpisodeOutcome[] }> {
  let both: EpisodeOutcome[] = [];
  const arms = await runGovernanceArms(plan, {
    ...options,
    onArmDone: (run: ArmRun, r) => {
      if (run.arm === 'both') both = r.outcomes;
    },
  });
  return { arms, both };
}

function figures(arms: GovernanceArms, task: string): ArmsFigures {
  const t = (r: { tasks: GovernanceArms['arms']['both']['tasks'] }) => r.tasks[task]!;
  const per = arms.perTask[task]!;
  const rate = (x: { successes: number; episodes: number }) => wilson(x.successes, x.episodes);
  const control = arms.controls[per.critic.control]!.tasks[task]!;
  return {
    policy: rate(t(arms.arms.policy)),
    critic_alone: { ...rate(control), control: per.critic.control },
    both: rate(t(arms.arms.both)),
    synergy: per.synergy.value,
  };
}

function drove(outcomes: readonly EpisodeOutcome[], task: string): Drove {
  const a = attribute(outcomes.filter((o) => o.task === task));
  return {
    policy_share_in_successes: a.unmodifiedPolicyShareInSuccesses,
    milestones_during_recovery: a.milestonesDuringRecovery,
    recoveries: a.recoveries,
  };
}
