// Stage of the run experiment (`zetta run`): evolution campaigns on the pairs (task, perturbation)
// where the base policy with the default critic does worst; from scratch (`--from-scratch`), where
// the policy alone does worst, the perturbations in turn, each campaign starting from no rule. A
// campaign covers its weakest task and, with `tasksPerCampaign` above 1, the next weakest ones under
// the same perturbation, so what it promotes has to hold on each of them. Each campaign's held-out
// gate (paired seeds, exact McNemar at α over every held-out test it may spend) chooses, and fresh
// confirmation seeds judge whatever it promotes. Campaigns run side by side only where the machine
// has cores for more than one rollout pool (or a job queue does the rollouts); each resumes from its
// own folder, so an interrupted stage loses no finished generation.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { CampaignReport } from '../../evolution/report/report.js';
import {
  DEFAULT_GATES,
  builtinDiagnoser,
  evaluatorRunner,
  parseSeedList,
  runCampaign,
  type CampaignSummary,
} from '../../evolution/index.js';
import { getTask, resolvePerturbation } from '../../sim/tabletop/index.js';
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import type { EpisodeExecutor } from '../../measure/evaluation.js';
import type { GovernanceStageResult } from './governance-stage.js';
import { pairKey, unsolvedPairs } from './unsolved-probe.js';

export interface EvolutionStageResult {
  /** One per weak pair, weakest first. */
  campaigns: CampaignRun[];
  /** How many campaigns ran at once. */
  in_parallel: number;
  ok: boolean;
}

export interface CampaignRun {
  /** The campaign's first (weakest) task: the one its skill names as its source. */
  task: string;
  /** Every task of the campaign, `task` first; absent in reports from before campaigns spanned tasks. */
  tasks?: string[];
  perturbation: string;
  /** Success in the governance stage of what generation 1 starts from (policy + default critic, or the policy alone from scratch), the mean over its tasks. */
  parent_rate: number;
  /** The policy alone on its tasks in the governance stage (their mean; its seeds, not the campaign's); absent in older reports. */
  policy_alone?: number;
  /** The bundle generation 1 started from (`none` from scratch); absent in older reports. */
  base?: string;
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
  /** That candidate's critic alone: the best trivial policy under it on the same seeds (null: none ran). */
  critic_alone: number | null;
  episodes: number;
}

export interface EvolutionOptions {
  readonly root: string;
  /** Campaigns at most, one per task. */
  readonly campaigns: number;
  readonly devEpisodes: number;
  readonly heldout: string;
  readonly confirmation: string;
  readonly generations: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly log: (line: string) => void;
  /** Runs the rollouts elsewhere (`--queue`: worker processes on a Redis job queue). */
  readonly executor?: EpisodeExecutor | undefined;
  /** Start every campaign from the empty bundle, on the pairs where the policy alone does worst, perturbations in turn. */
  readonly fromScratch?: boolean | undefined;
  /** Tasks a campaign covers at most, under its perturbation (default 1). */
  readonly tasksPerCampaign?: number | undefined;
}

export interface WeakPair {
  task: string;
  perturbation: string;
  rate: number;
}

/** A campaign's tasks under one perturbation, the weakest first; `rate` is their mean. */
export interface WeakGroup extends WeakPair {
  tasks: string[];
}

/**
 * The `count` weakest pairs by success of policy + critic, at most one per task (a task's weakest
 * perturbation) and none already solved; earlier entries win ties.
 */
export function weakestPairs(governance: GovernanceStageResult, count: number): WeakPair[] {
  const byTask = new Map<string, WeakPair>();
  for (const [perturbation, arms] of Object.entries(governance.conditions)) {
    for (const [task, t] of Object.entries(arms.perTask)) {
      const rate = t.both.value;
      const known = byTask.get(task);
      if (Number.isFinite(rate) && rate < 1 && (!known || rate < known.rate)) byTask.set(task, { task, perturbation, rate });
    }
  }
  // a stable sort keeps the first-seen order among equal rates
  return [...byTask.values()].sort((a, b) => a.rate - b.rate).slice(0, count);
}

/**
 * From scratch: the perturbations take turns, weakest first (by the mean of `arm` over their
 * tasks), each giving its weakest pair whose task no campaign has yet, so that `count` campaigns
 * cover `count` perturbations where there are that many. Nothing evolved stands on a perturbation
 * no campaign saw: ranked over all pairs at once, the one perturbation where the policy alone does
 * worst took every campaign, and the final system could only equal the policy on the others.
 * A pair in `unsolved` (unsolved-probe.ts: the policy never solved it, probed at development seeds)
 * goes last in its perturbation's turn, kept for when nothing else is left.
 */
export function weakestPairsByPerturbation(
  governance: GovernanceStageResult,
  count: number,
  arm: 'both' | 'policy' = 'policy',
  unsolved: ReadonlySet<string> = new Set(),
): WeakPair[] {
  const queues = Object.entries(governance.conditions)
    .map(([perturbation, arms]) => {
      const rates = Object.entries(arms.perTask)
        .map(([task, t]) => ({ task, perturbation, rate: t[arm].value }))
        .filter((p) => Number.isFinite(p.rate));
      const mean = rates.reduce((sum, p) => sum + p.rate, 0) / Math.max(1, rates.length);
      const last = (p: WeakPair) => (unsolved.has(pairKey(p)) ? 1 : 0);
      // a stable sort keeps the first-seen order among equal rates
      return { mean, pairs: rates.filter((p) => p.rate < 1).sort((a, b) => last(a) - last(b) || a.rate - b.rate) };
    })
    .sort((a, b) => a.mean - b.mean);
  const chosen: WeakPair[] = [];
  const taken = new Set<string>();
  while (chosen.length < count) {
    let added = false;
    for (const queue of queues) {
      if (chosen.length >= count) break;
      const next = queue.pairs.find((p) => !taken.has(p.task));
      if (!next) continue;
      chosen.push(next);
      taken.add(next.task);
      added = true;
    }
    if (!added) break;
  }
  return chosen;
}

/**
 * Each chosen pair with up to `size` − 1 more tasks under its perturbation, the weakest first by
 * `arm` and none solved, none that another campaign has: every campaign's lead is kept for it
 * before any is widened, so widening never takes a task some later campaign leads.
 */
export function widenPairs(
  governance: GovernanceStageResult,
  pairs: readonly WeakPair[],
  size: number,
  arm: 'both' | 'policy',
): WeakGroup[] {
  const taken = new Set(pairs.map((p) => p.task));
  return pairs.map((lead) => {
    const rates = new Map([[lead.task, lead.rate]]);
    const candidates = Object.entries(governance.conditions[lead.perturbation]?.perTask ?? {})
      .map(([task, t]) => ({ task, rate: t[arm].value }))
      .filter((c) => Number.isFinite(c.rate) && c.rate < 1 && !taken.has(c.task))
      .sort((a, b) => a.rate - b.rate); // stable: first-seen order among equal rates
    for (const c of candidates.slice(0, Math.max(0, size - 1))) {
      rates.set(c.task, c.rate);
      taken.add(c.task);
    }
    return { ...lead, tasks: [...rates.keys()], rate: mean([...rates.values()]) };
  });
}

/** One rollout pool per `workers` cores; a job queue's workers are elsewhere, so every campaign may go at once. */
export function campaignsAtOnce(campaigns: number, workers: number, queued: boolean): number {
  return Math.max(1, Math.min(campaigns, queued ? campaigns : Math.floor(availableParallelism() / Math.max(1, workers))));
}

export async function runEvolutionStage(governance: GovernanceStageResult, o: EvolutionOptions): Promise<EvolutionStageResult> {
  const arm = o.fromScratch ? 'policy' : 'both';
  const unsolved = o.fromScratch
    ? await unsolvedPairs(governance, { ...o, episodes: o.devEpisodes, log: (line) => o.log(`probe: ${line}`) })
    : new Set<string>();
  const leads = o.fromScratch ? weakestPairsByPerturbation(governance, o.campaigns, arm, unsolved) : weakestPairs(governance, o.campaigns);
  const pairs = widenPairs(governance, leads, o.tasksPerCampaign ?? 1, arm);
  const inParallel = campaignsAtOnce(pairs.length, o.workers, o.executor !== undefined);
  const limit = pLimit(inParallel);
  const campaigns = await Promise.all(pairs.map((pair) => limit(() => runOne(governance, pair, pairs.length > 1, o))));
  return { campaigns, in_parallel: inParallel, ok: campaigns.every((c) => c.ok) };
}

async function runOne(governance: GovernanceStageResult, pair: WeakGroup, tagged: boolean, o: EvolutionOptions): Promise<CampaignRun> {
  const executeSteps = 5;
  const name = pair.tasks.length > 1 ? `${pair.task}+${pair.tasks.length - 1}` : pair.task;
  // side by side, every line says which campaign it is from
  const log = tagged ? (line: string) => o.log(`[${name} / ${pair.perturbation}] ${line}`) : o.log;
  const suites = new Set(pair.tasks.map((t) => getTask(t).suite));
  const campaign = await runCampaign({
    world: tabletop,
    root: join(o.root, `${name.replace('/', '__')}__${pair.perturbation}`),
    suite: suites.size === 1 ? [...suites][0]! : 'all',
    task: pair.task,
    ...(pair.tasks.length > 1 ? { tasks: pair.tasks } : {}),
    perturbation: { name: pair.perturbation, spec: resolvePerturbation(pair.perturbation) },
    policy: { spec: 'embedded', file: EMBEDDED_POLICY_PATH },
    baseBundle: baseBundle(governance, pair.task, o.fromScratch === true),
    heldout: parseSeedList(o.heldout),
    confirmation: parseSeedList(o.confirmation),
    devEpisodes: o.devEpisodes,
    generations: o.generations,
    gates: DEFAULT_GATES,
    executeSteps,
    runner: evaluatorRunner({ policy: 'embedded', executeSteps, workers: o.workers, envsPerWorker: o.envsPerWorker, executor: o.executor }),
    diagnoser: builtinDiagnoser(),
    log,
  });
  const perTask = governance.conditions[pair.perturbation]?.perTask;
  return {
    task: pair.task,
    tasks: pair.tasks,
    perturbation: pair.perturbation,
    parent_rate: pair.rate,
    policy_alone: mean(pair.tasks.map((t) => perTask?.[t]?.policy.value ?? Number.NaN)),
    base: baseBundle(governance, pair.task, o.fromScratch === true),
    campaign,
    learning_curve: learningCurve(campaign.root),
    ok: true,
  };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Nothing from scratch; with skills, the bundle the task ran in the governance stage; else its critic. */
function baseBundle(governance: GovernanceStageResult, task: string, fromScratch: boolean): string {
  if (fromScratch) return 'none';
  return governance.bundles?.[task] ?? governance.critic;
}

/** Read from the campaign's report.json: development success per generation, parent and best candidate. */
function learningCurve(root: string): LearningPoint[] {
  const path = join(root, 'report.json');
  if (!existsSync(path)) return [];
  const report = JSON.parse(readFileSync(path, 'utf8')) as CampaignReport;
  return report.generations.map((g) => {
    let best: { rate: number; criticAlone: number | null } | null = null;
    for (const c of g.candidates) {
      const paired = c.gates.find((x) => x.gate === 'paired');
      if (!paired) continue;
      const rate = paired.candidate_successes / Math.max(1, paired.episodes);
      if (!best || rate > best.rate) best = { rate, criticAlone: c.critic_alone?.best_rate ?? null };
    }
    return {
      generation: g.generation,
      parent: g.dev.successes / Math.max(1, g.dev.episodes),
      best_candidate: best?.rate ?? null,
      critic_alone: best?.criticAlone ?? null,
      episodes: g.dev.episodes,
    };
  });
}
