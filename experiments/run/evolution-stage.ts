// Stage of the run experiment (`zetta run`): one evolution campaign on the pair (task,
// perturbation) where the base policy with the default critic does worst; its held-out gate (paired
// seeds, exact McNemar at α over the generations) chooses, and fresh confirmation seeds judge
// whatever it promotes.
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CampaignReport } from '../../evolution/report/report.js';
import { DEFAULT_GATES, builtinDiagnoser, evaluatorRunner, parseSeedList, runCampaign, type CampaignSummary } from '../../evolution/index.js';
import { getTask, resolvePerturbation } from '../../sim/index.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import type { EpisodeExecutor } from '../../zinfra/runtime/evaluation.js';
import type { GovernanceStageResult } from './governance-stage.js';

export interface EvolutionStageResult {
  task: string;
  perturbation: string;
  /** Success of base policy + default critic on that pair in the governance stage. */
  parent_rate: number;
  campaign: CampaignSummary;
  /** Per generation: the parent's development success and the best candidate's on the same seeds. */
  learning_curve: LearningPoint[];
  ok: boolean;
}

export interface LearningPoint {
  generation: number;
  parent: number;
  /** null when no candidate of the generation reached the paired gate. */
  best_candidate: number | null;
  episodes: number;
}

export interface EvolutionOptions {
  readonly root: string;
  readonly devEpisodes: number;
  readonly heldout: string;
  readonly confirmation: string;
  readonly generations: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly log: (line: string) => void;
  /** Runs the rollouts elsewhere (`--queue`: worker processes on a Redis job queue). */
  readonly executor?: EpisodeExecutor | undefined;
}

/** The (task, perturbation) with the lowest success of policy + critic; earlier entries win ties. */
export function weakestPair(governance: GovernanceStageResult): { task: string; perturbation: string; rate: number } | undefined {
  let best: { task: string; perturbation: string; rate: number } | undefined;
  for (const [perturbation, arms] of Object.entries(governance.conditions)) {
    for (const [task, t] of Object.entries(arms.perTask)) {
      const rate = t.both.value;
      if (Number.isFinite(rate) && (!best || rate < best.rate)) best = { task, perturbation, rate };
    }
  }
  return best;
}

export async function runEvolutionStage(governance: GovernanceStageResult, o: EvolutionOptions): Promise<EvolutionStageResult | undefined> {
  const pair = weakestPair(governance);
  if (!pair) return undefined;
  const executeSteps = 5;
  const campaign = await runCampaign({
    world: tabletop,
    root: join(o.root, `${pair.task.replace('/', '__')}__${pair.perturbation}`),
    suite: getTask(pair.task).suite,
    task: pair.task,
    perturbation: { name: pair.perturbation, spec: resolvePerturbation(pair.perturbation) },
    policy: { spec: 'embedded', file: EMBEDDED_POLICY_PATH },
    // with skills, the campaign starts from the bundle its task ran in the governance stage
    baseBundle: governance.bundles?.[pair.task] ?? governance.critic,
    heldout: parseSeedList(o.heldout),
    confirmation: parseSeedList(o.confirmation),
    devEpisodes: o.devEpisodes,
    generations: o.generations,
    gates: DEFAULT_GATES,
    executeSteps,
    runner: evaluatorRunner({ policy: 'embedded', executeSteps, workers: o.workers, envsPerWorker: o.envsPerWorker, executor: o.executor }),
    diagnoser: builtinDiagnoser(),
    log: o.log,
  });
  return { task: pair.task, perturbation: pair.perturbation, parent_rate: pair.rate, campaign, learning_curve: learningCurve(campaign.root), ok: true };
}

/** Read from the campaign's report.json: development success per generation, parent and best candidate. */
function learningCurve(root: string): LearningPoint[] {
  const path = join(root, 'report.json');
  if (!existsSync(path)) return [];
  const report = JSON.parse(readFileSync(path, 'utf8')) as CampaignReport;
  return report.generations.map((g) => {
    const paired = g.candidates.flatMap((c) => c.gates.filter((x) => x.gate === 'paired'));
    const best = paired.length ? Math.max(...paired.map((x) => x.candidate_successes / Math.max(1, x.episodes))) : null;
    return { generation: g.generation, parent: g.dev.successes / Math.max(1, g.dev.episodes), best_candidate: best, episodes: g.dev.episodes };
  });
}
