// A reach trial's rollouts (the verdict rule is reach.ts): one skill composed alone onto the base
// bundle, offered to every task named whatever its family, against the base alone, at the same
// development seeds under each perturbation; the trivial policies run under the composed bundle
// for the critic-alone cap. The caller records the verdicts in the store (SkillStore.recordReach).
import { layoutFor } from '../critic/index.js';
import { ArtifactStore } from '../evolution/campaign/artifacts.js';
import { readBundle, writeBundle } from '../evolution/synthesis/bundle-files.js';
import { seedOutcomes } from '../measure/governance-arms.js';
import { evaluate, type EvaluationOptions, type EvaluationPlan, type EvaluationResult } from '../measure/evaluation.js';
import { discordantPairs } from '../measure/mcnemar.js';
import type { Rate } from '../measure/success-rate.js';
import type { Perturbation } from '../sim/perturbation/schema.js';
import type { World } from '../sim/world.js';
import type { WorldRef } from '../sim/worlds.js';
import { TRIVIAL_POLICY_SPECS } from '../zinfra/policy/open-policy.js';
import type { CriticPlan } from '../zinfra/runtime/open-critic.js';
import { composeSkills } from './compose.js';
import { SkillInputError } from './errors.js';
import { reachVerdict, type ReachVerdict } from './reach.js';
import { SkillStore } from './store/skill-store.js';
import { DEFAULT_CRITIC_ALONE_CAP } from './transfer.js';
import { join } from 'node:path';

export interface ReachCondition {
  readonly name: string;
  readonly perturbation: Perturbation | undefined;
}

export interface ReachTrialPlan {
  readonly db: string;
  /** The skill's id (or a unique prefix). */
  readonly skill: string;
  readonly world: World;
  /** How rollout workers open the world (default: the embedded tabletop). */
  readonly worldRef?: WorldRef | undefined;
  /** The bundle the skill is tried on: the run's base, without any other skill. */
  readonly base: CriticPlan;
  readonly tasks: readonly string[];
  readonly conditions: readonly ReachCondition[];
  /** Paired seeds per task and condition, from firstSeed: development seeds, which claim nothing. */
  readonly episodes: number;
  readonly firstSeed: number;
  readonly policy: string;
  readonly executeSteps: number;
  /** The composed bundle goes here. */
  readonly dir: string;
  readonly criticAloneCap?: number | undefined;
}

export interface ReachTrialOptions extends Pick<EvaluationOptions, 'workers' | 'envsPerWorker' | 'executor'> {
  /** `what`: the condition and which of the runs (base, with the skill, a control). */
  readonly onProgress?: ((what: string, done: number, total: number) => void) | undefined;
}

export async function runReachTrial(plan: ReachTrialPlan, o: ReachTrialOptions): Promise<ReachVerdict[]> {
  if (plan.tasks.length === 0 || plan.conditions.length === 0 || plan.episodes < 1)
    throw new SkillInputError('a reach trial needs at least one task, one condition and one episode');
  const withSkill = composedAlone(plan);
  const cap = plan.criticAloneCap ?? DEFAULT_CRITIC_ALONE_CAP;
  const seeds = Array.from({ length: plan.episodes }, (_, i) => plan.firstSeed + i);
  const paired = new Map(plan.tasks.map((t) => [t, { without: 0, with: 0, b: 0, c: 0, episodes: 0, criticAlone: 0 }]));
  for (const condition of plan.conditions) {
    const run = (what: string, policy: string, critic: CriticPlan) =>
      evaluate(
        {
          world: plan.worldRef,
          tasks: plan.tasks,
          episodesPerTask: plan.episodes,
          firstSeed: plan.firstSeed,
          perturbation: condition.perturbation,
          policy,
          executeSteps: plan.executeSteps,
          critic,
        } satisfies EvaluationPlan,
        { ...o, onEpisode: (_e, done, total) => o.onProgress?.(`${condition.name}: ${what}`, done, total) },
      );
    const without = await run('base', plan.policy, plan.base);
    const withIt = await run('with the skill', plan.policy, withSkill);
    const controls: EvaluationResult[] = [];
    for (const control of TRIVIAL_POLICY_SPECS) controls.push(await run(`critic alone (${control})`, control, withSkill));
    for (const [task, p] of paired) {
      const before = seedOutcomes(without.outcomes, task, seeds);
      const after = seedOutcomes(withIt.outcomes, task, seeds);
      const { b, c } = discordantPairs(before, after);
      p.b += b;
      p.c += c;
      for (const [i, x] of before.entries()) {
        const y = after[i];
        if (x === null || y === null || y === undefined) continue; // an episode the infrastructure lost pairs with nothing
        p.episodes++;
        p.without += x;
        p.with += y;
      }
      for (const control of controls) p.criticAlone = Math.max(p.criticAlone, rateOrZero(control.tasks[task]!));
    }
  }
  const perturbations = plan.conditions.map((c) => c.name);
  return [...paired].map(([task, p]) =>
    reachVerdict(task, {
      perturbations,
      seeds,
      without: p.without,
      with: p.with,
      episodes: p.episodes,
      b: p.b,
      c: p.c,
      critic_alone: p.criticAlone,
      critic_alone_cap: cap,
    }),
  );
}

/** The base with the skill alone composed onto it, offered regardless of task family (the trial decides that). */
function composedAlone(plan: ReachTrialPlan): CriticPlan {
  const record = SkillStore.using(plan.db, (s) => s.get(plan.skill));
  const layout = layoutFor(plan.world.features);
  const privileged = plan.base.privileged && plan.world.authorizesPrivileged;
  const base = readBundle(plan.base.bundle, layout, privileged);
  const target = { world: plan.world.name, features: layout.features.map((f) => f.name), privilegedAuthorized: privileged };
  const c = composeSkills(base, [{ id: record.id, content: record.content }], target);
  if (c.loaded.length === 0) throw new SkillInputError(`skill ${record.id} cannot be tried here: ${c.decisions[0]!.reason}`);
  const store = new ArtifactStore(plan.dir);
  return { bundle: join(store.abs(writeBundle(store, c.bundle).dir!), 'manifest.json'), privileged: plan.base.privileged };
}

/** A task's success rate, 0 where every episode was lost (a control that ran nothing reached nothing). */
function rateOrZero(t: Rate): number {
  return t.episodes ? t.successes / t.episodes : 0;
}
