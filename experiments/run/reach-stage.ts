// Stage of the run experiment (`zetta run`): reach trials of the skills this run approved. A
// campaign made each on its own tasks under one perturbation; the trial offers it to every other
// task of the world under every perturbation of the run, at development seeds, and records in the
// store where it loads (skills/reach.ts). The final stage then loads it where the trial said, and
// scores that on its own fresh seeds: the trial chooses, it claims nothing. A skill that changes
// no rule (a lag answer) reads no task, loads everywhere, and is not tried.
import { join } from 'node:path';
import { resolvePerturbation, listTasks } from '../../sim/tabletop/index.js';
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { isTaskNeutral, REACH_FIRST_SEED, runReachTrial, SkillStore, type ReachVerdict } from '../../skills/index.js';
import type { EpisodeExecutor } from '../../measure/evaluation.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import type { EvolutionStageResult } from './evolution-stage.js';
import type { PromotionStageResult } from './promotion-stage.js';

export interface SkillReach {
  id: string;
  name: string;
  /** The tasks its campaign ran on: held out of the trial (its held-out gate judged them). */
  campaign_tasks: string[];
  /** One per task tried; empty when it was not tried (`not_tried` says why). */
  verdicts: ReachVerdict[];
  not_tried?: string;
}

export interface ReachStageResult {
  first_seed: number;
  episodes: number;
  conditions: string[];
  skills: SkillReach[];
  ok: boolean;
}

export interface ReachStageOptions {
  readonly db: string;
  /** The bundle the final system composes skills onto: each skill is tried on it alone. */
  readonly critic: string;
  readonly conditions: readonly string[];
  readonly episodes: number;
  readonly dir: string;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly executor?: EpisodeExecutor | undefined;
  readonly onProgress: (note: string, done: number, total: number) => void;
}

export async function runReachStage(
  promotion: PromotionStageResult,
  evolution: EvolutionStageResult,
  o: ReachStageOptions,
): Promise<ReachStageResult> {
  const result: ReachStageResult = {
    first_seed: REACH_FIRST_SEED,
    episodes: o.episodes,
    conditions: [...o.conditions],
    skills: [],
    ok: true,
  };
  const approved = [...new Map(promotion.skills.filter((s) => s.state === 'active').map((s) => [s.id, s])).values()];
  for (const s of approved) {
    const campaign = evolution.campaigns.find((c) => c.campaign.campaign_id === s.campaign_id);
    const campaignTasks = campaign?.tasks ?? [s.task];
    const skill: SkillReach = { id: s.id, name: s.name, campaign_tasks: campaignTasks, verdicts: [] };
    result.skills.push(skill);
    const content = SkillStore.using(o.db, (store) => store.get(s.id).content);
    if (isTaskNeutral(content.changes)) {
      skill.not_tried = 'it changes no rule or program, only a control option that holds everywhere: it loads on every task';
      continue;
    }
    if (o.episodes < 1) {
      skill.not_tried = 'reach trials are off (0 episodes): its task family decides';
      continue;
    }
    const tasks = listTasks()
      .map((t) => t.id)
      .filter((t) => !campaignTasks.includes(t));
    skill.verdicts = await runReachTrial(
      {
        db: o.db,
        skill: s.id,
        world: tabletop,
        base: resolveCriticSpec(o.critic)!,
        tasks,
        conditions: o.conditions.map((name) => ({ name, perturbation: resolvePerturbation(name) })),
        episodes: o.episodes,
        firstSeed: REACH_FIRST_SEED,
        policy: 'embedded',
        executeSteps: 5,
        dir: join(o.dir, s.id),
      },
      {
        workers: o.workers,
        envsPerWorker: o.envsPerWorker,
        executor: o.executor,
        onProgress: (what, done, total) => o.onProgress(`${s.id}, ${what}`, done, total),
      },
    );
    SkillStore.using(o.db, (store) =>
      store.recordReach(s.id, skill.verdicts, { actor: 'zetta run', reason: `reach trial at seeds ${REACH_FIRST_SEED}+` }),
    );
  }
  return result;
}
