// Stage of the run experiment (`zetta run`): governance, measured. Under each perturbation, at the
// same seeds, the frozen base policy alone, the default critic alone (the best trivial policy per
// task under it) and both; synergy = both − max(policy alone, critic alone) is the headline. A
// critic that does the task for a policy that does nothing shows up here as a strong critic-alone
// arm and no synergy.
import { join } from 'node:path';
import { listTasks, resolvePerturbation } from '../../sim/tabletop/index.js';
import { runGovernanceArms, seedOutcomes, type ArmReport, type ArmRun, type GovernanceArms } from '../../measure/governance-arms.js';
import type { SeedOutcomes } from '../../measure/paired-bootstrap.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { skillFirings, withActiveSkills, type ActiveSkills, type SkillFiring } from '../../skills/index.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import { infraProblems, type StageOptions } from './baseline-stage.js';

export interface GovernanceStageResult {
  policy: string;
  critic: string;
  episodes_per_task: number;
  /** Per perturbation, the arms as `zetta eval --arms` reports them. */
  conditions: Record<string, GovernanceArms>;
  /** Mean over the perturbations of their macro synergy. */
  mean_synergy: number;
  infra_failures: number;
  /** Episodes run again at the same seed after an infrastructure failure (every arm, every control). */
  infra_retries: number;
  /** With skills: what loaded for which task and why not elsewhere, and per perturbation which fired in the both arm. */
  skills?: ActiveSkills & { fired: Record<string, SkillFiring[]> };
  /** The bundle each task ran, where skills composed one (the evolution stage starts from it). */
  bundles?: Readonly<Record<string, string>>;
  /** Per perturbation, the both arm's decisions per rule id that caused them, over every episode. */
  interventions: Record<string, Record<string, number>>;
  /** Per perturbation and task, the both arm's outcome per seed (1, 0, null: lost to the infrastructure), for paired comparisons. */
  both_by_seed: Record<string, Record<string, SeedOutcomes>>;
  /** What made the stage fail, with its figures (empty when ok). */
  problems: string[];
  ok: boolean;
}

export interface GovernanceOptions extends StageOptions {
  readonly onArm: (condition: string, run: ArmRun, index: number, total: number) => void;
  /** Compose the active skills of this store onto the critic, per task (`--skills active`). */
  readonly skillsDb?: string | undefined;
  /** Where composed bundles go. */
  readonly skillsDir?: string | undefined;
}

export async function runGovernanceStage(o: GovernanceOptions): Promise<GovernanceStageResult> {
  const tasks = listTasks().map((t) => t.id);
  const base = resolveCriticSpec(o.critic)!;
  const composed = o.skillsDb
    ? withActiveSkills({ db: o.skillsDb, world: tabletop, critic: base, tasks, dir: o.skillsDir ?? join(o.recordDir, 'skills') })
    : undefined;
  const critic = composed?.plan ?? base;
  const conditions: Record<string, GovernanceArms> = {};
  const fired: Record<string, SkillFiring[]> = {};
  const interventions: Record<string, Record<string, number>> = {};
  const bothBySeed: Record<string, Record<string, SeedOutcomes>> = {};
  const seeds = Array.from({ length: o.episodes }, (_, i) => o.firstSeed + i);
  for (const condition of o.conditions) {
    conditions[condition] = await runGovernanceArms(
      {
        tasks,
        episodesPerTask: o.episodes,
        firstSeed: o.firstSeed,
        perturbation: resolvePerturbation(condition),
        policy: o.policy,
        executeSteps: 5,
        critic,
        recordDir: join(o.recordDir, condition),
        // the controls' episodes are long and all alike: the report keeps their figures, not their files
        recordControls: false,
      },
      {
        workers: o.workers,
        envsPerWorker: o.envsPerWorker,
        executor: o.executor,
        onArmStart: (run, i, n) => o.onArm(condition, run, i, n),
        onArmDone: (run, r) => {
          if (run.arm !== 'both') return;
          interventions[condition] = ruleFirings(r.outcomes);
          bothBySeed[condition] = Object.fromEntries(tasks.map((t) => [t, seedOutcomes(r.outcomes, t, seeds)]));
          if (composed) fired[condition] = skillFirings(composed.skills, r.outcomes);
        },
        onEpisode: (_run, _e, done, total) => o.onProgress(condition, done, total),
      },
    );
  }
  const arms = Object.values(conditions);
  const problems = Object.entries(conditions).flatMap(([name, a]) =>
    armRuns(a).flatMap(([arm, r]) => infraProblems(`${name}, ${arm}`, r.attribution.infraFailures, r.infraReasons)),
  );
  const infra = arms.reduce((n, a) => n + armRuns(a).reduce((m, [, r]) => m + r.attribution.infraFailures, 0), 0);
  const retries = arms.reduce((n, a) => n + armRuns(a).reduce((m, [, r]) => m + r.infraRetries, 0), 0);
  return {
    policy: o.policy,
    critic: o.critic,
    episodes_per_task: o.episodes,
    conditions,
    mean_synergy: arms.length ? arms.reduce((s, a) => s + a.macro.synergy.value, 0) / arms.length : Number.NaN,
    infra_failures: infra,
    infra_retries: retries,
    ...(composed ? { skills: { ...composed.skills, fired }, bundles: composed.plan.byTask ?? {} } : {}),
    interventions,
    both_by_seed: bothBySeed,
    problems,
    ok: problems.length === 0,
  };
}

/** The first and last seed every arm of the stage ran per task (the same under each perturbation); null when none ran. */
export function seedSpan(g: GovernanceStageResult): { readonly first: number; readonly last: number } | null {
  const seeds = Object.values(g.conditions)[0]?.seeds ?? [];
  return seeds.length ? { first: seeds[0]!, last: seeds[seeds.length - 1]! } : null;
}

function ruleFirings(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const o of outcomes) for (const [rule, n] of Object.entries(o.firings)) total[rule] = (total[rule] ?? 0) + n;
  return total;
}

/** Every evaluation behind the arms, named: policy alone, each control under the critic, both. */
function armRuns(a: GovernanceArms): [string, ArmReport][] {
  const controls = Object.entries(a.controls).map(([c, r]): [string, ArmReport] => [`critic alone (${c})`, r]);
  return [['policy alone', a.arms.policy], ...controls, ['both', a.arms.both]];
}
