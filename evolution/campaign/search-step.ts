// The search for one pool of failures: the best conditions over the world's features (no episode
// runs), then screening rollouts on a few development seeds (the pool's failures and some
// successes) before any candidate takes the full development gate: every library action with the
// best condition, then the actions that rescued most there with the next conditions (every action
// again when none rescued).
// A pair scores by the failures it turns into successes minus twice the successes it breaks and
// twice what it achieves with the trivial policies on the same seeds (the critic-alone control:
// an action that reaches the goal on its own is a second expert, not a repair); pairs that rescue
// nothing are dropped before the controls run. Screening seeds are development seeds: the choice is made where
// choices are made, and the held-out and confirmation seeds stay untouched by it.
import type { ReplayEpisode } from '../shadow-replay.js';
import { actionLibrary, type LibraryAction } from '../search/action-library.js';
import { searchConditions, type SearchedCondition } from '../search/condition-search.js';
import { withSearchedPair, type ScreenedPair, type SearchedPair } from '../search/searched-rule.js';
import type { StoredBundle } from '../synthesis/bundle-files.js';
import { writeCandidateBundle } from '../synthesis/synthesize.js';
import { TRIVIAL_POLICY_SPECS } from '../../zinfra/policy/open-policy.js';
import { rollout, type CampaignContext, type RolloutSet } from './context.js';
import { TASK_STRIDE } from './seeds.js';

/** Conditions screened per pool. */
const TOP_CONDITIONS = 3;
/** Actions tried with the conditions after the best one: those that scored best with it. */
const FOLLOW_UP_ACTIONS = 2;
/** Screening episodes: at most this many of the pool's failures and of the successes. */
const SCREEN_FAILURES = 8;
const SCREEN_SUCCESSES = 4;

export interface SearchArtifact {
  readonly conditions: readonly SearchedCondition[];
  readonly actions: readonly string[];
  readonly screen_seeds: readonly number[];
  /** Pairs that rescued at least one failure, best first. */
  readonly pairs: readonly ScreenedPair[];
  /** Pairs screened in all. */
  readonly screened: number;
}

export async function searchStep(
  ctx: CampaignContext,
  generation: number,
  parent: StoredBundle,
  dev: RolloutSet,
  replay: readonly ReplayEpisode[],
): Promise<SearchArtifact> {
  const privileged = ctx.manifest.authorized_features.privileged;
  const conditions = searchConditions(replay, ctx.layout, privileged, TOP_CONDITIONS);
  const library = actionLibrary(ctx.world);
  const seeds = screenSeeds(replay);
  const before = new Map(dev.results.map((r) => [r.seed, r]));
  const pairs: ScreenedPair[] = [];
  let screened = 0;
  let actions = library;
  for (const [rank, condition] of conditions.entries()) {
    if (rank === 1 && pairs.length > 0) {
      // the actions that rescued with the best condition; when none did, the next condition may
      // fire at another moment, where another action helps: it tries them all
      const best = new Set(
        pairs
          .slice()
          .sort((a, b) => b.score - a.score)
          .slice(0, FOLLOW_UP_ACTIONS)
          .map((p) => p.action),
      );
      actions = library.filter((a) => best.has(a.id));
    }
    for (const action of actions) {
      const pair: SearchedPair = { condition_rank: rank, condition, action: action.id };
      const bundle = pairBundle(ctx, generation, parent, pair, action);
      const after = await rollout(ctx, bundle, `screen-g${generation}`, seeds);
      screened++;
      let rescued = 0;
      let broken = 0;
      let extraSafety = 0;
      for (const r of after.results) {
        const was = before.get(r.seed);
        if (!was || r.infra_failure !== null || was.infra_failure !== null) continue;
        if (!was.success && r.success) rescued++;
        if (was.success && !r.success) broken++;
        extraSafety += r.safety_events - was.safety_events;
      }
      // what the regression gate would refuse anyway is not worth a development rollout
      const safe = extraSafety <= ctx.manifest.gates.max_extra_safety_events;
      ctx.log(
        `search g${generation}: ${action.id} on condition ${rank}: rescued ${rescued}, broke ${broken} of ${seeds.length}, safety events ${extraSafety >= 0 ? '+' : ''}${extraSafety}`,
      );
      if (rescued === 0 || !safe) continue;
      const criticAlone = await controlSuccesses(ctx, bundle, `screen-g${generation}`, seeds);
      pairs.push({
        ...pair,
        bundle_sha256: bundle.sha256,
        rescued,
        broken,
        critic_alone: criticAlone,
        score: rescued - 2 * broken - 2 * criticAlone,
      });
    }
  }
  pairs.sort((a, b) => b.score - a.score || a.critic_alone - b.critic_alone || a.condition_rank - b.condition_rank);
  return { conditions, actions: library.map((a) => a.id), screen_seeds: seeds, pairs, screened };
}

/** The parent plus the pair's rule (and program), as a stored bundle. */
export function pairBundle(
  ctx: Pick<CampaignContext, 'store' | 'layout' | 'campaignId'>,
  generation: number,
  parent: StoredBundle,
  pair: SearchedPair,
  action: LibraryAction,
): StoredBundle {
  const evidence = [`${ctx.campaignId}/gen-${generation}/search`, `condition:${pair.condition_rank}`, `action:${action.id}`];
  const own = { rules: parent.rules.rules as unknown[], programs: parent.recoveries.programs as unknown[] };
  const { rules, programs, rule } = withSearchedPair(own, generation, pair, action, evidence);
  const note = `${parent.manifest.name} with a searched rule: ${rule.description}`;
  return writeCandidateBundle(ctx.store, parent, ctx.layout, `g${generation}-search`, note, rules, programs);
}

/** Successes of every trivial policy under the bundle on the screening seeds. */
async function controlSuccesses(ctx: CampaignContext, bundle: StoredBundle, split: string, seeds: readonly number[]): Promise<number> {
  let successes = 0;
  for (const control of TRIVIAL_POLICY_SPECS) {
    const set = await rollout(ctx, bundle, split, seeds, control);
    successes += set.results.filter((r) => r.success && r.infra_failure === null).length;
  }
  return successes;
}

/**
 * The pool's failures and some successes, lowest seeds first (deterministic). Over several tasks the
 * episode keys are ordered by seed first, so each task gets its share.
 */
function screenSeeds(replay: readonly ReplayEpisode[]): number[] {
  const sorted = [...replay].sort((a, b) => (a.seed % TASK_STRIDE) - (b.seed % TASK_STRIDE) || a.seed - b.seed);
  const failures = sorted.filter((r) => !r.success && r.inCluster).slice(0, SCREEN_FAILURES);
  const successes = sorted.filter((r) => r.success).slice(0, SCREEN_SUCCESSES);
  return [...failures, ...successes].map((r) => r.seed).sort((a, b) => a - b);
}
