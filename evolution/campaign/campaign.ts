// A campaign, end to end: freeze the manifest, preregister the seeds, run generations (each parent is
// the last promoted bundle, or the base), then the report. Every step goes through the on-disk state
// machine, so calling runCampaign again on the same root after a kill resumes it, and calling it on a
// finished root just returns its summary.
import { readFileSync } from 'node:fs';
import { layoutFor, type FeatureLayout } from '../../critic/index.js';
import type { Perturbation } from '../../sim/perturbation/schema.js';
import type { World } from '../../sim/world.js';
import type { Diagnoser } from '../diagnosis/diagnoser.js';
import { mcnemarOneSided } from '../../measure/mcnemar.js';
import { countPairs, pairEpisodes, type PairCounts } from '../gates/paired.js';
import { buildReport, type CampaignReport } from '../report/report.js';
import { renderReportHtml } from '../report/html.js';
import { NO_BUNDLE, bundleSha, readBundle, writeBundle, type StoredBundle } from '../synthesis/bundle-files.js';
import { ArtifactHashError, ArtifactStore } from './artifacts.js';
import { rollout, type CampaignContext } from './context.js';
import { runGeneration, type GenerationOutcome } from './generation.js';
import { heldoutTooSmall } from './gating.js';
import {
  authorizedFeatureNames,
  campaignId,
  checkPreregistration,
  codeVersion,
  compareForResume,
  fileSha,
  parseManifest,
  preregister,
  ManifestSchema,
  type GateSettings,
  type Manifest,
  type Preregistration,
} from './manifest.js';
import type { RolloutRunner } from './rollouts.js';
import { DEV_SEED_BASE } from './seeds.js';
import { CampaignState } from './state-machine.js';

export interface CampaignOptions {
  readonly root: string;
  /** The world the campaign runs in (its runner must run episodes in the same one). */
  readonly world: World;
  readonly suite: string;
  readonly task: string;
  /** Several tasks at once (the first is `task`): every seed list runs on each, the gates pool them. */
  readonly tasks?: readonly string[];
  readonly perturbation: { readonly name: string; readonly spec: Perturbation } | null;
  /** The policy spec and, for a local file, its path (hashed into the manifest). */
  readonly policy: { readonly spec: string; readonly file: string | null };
  /** `default`, `none`, or a bundle directory. */
  readonly baseBundle: string;
  readonly heldout: readonly number[];
  /** Fresh seeds for the final base-vs-promoted comparison (none: no confirmation is run). */
  readonly confirmation?: readonly number[];
  readonly devEpisodes: number;
  readonly generations: number;
  readonly gates: GateSettings;
  readonly executeSteps: number;
  readonly runner: RolloutRunner;
  readonly diagnoser: Diagnoser;
  readonly log?: (line: string) => void;
}

export interface CampaignSummary {
  readonly campaign_id: string;
  readonly promoted: boolean;
  readonly bundle_sha256: string | null;
  readonly bundle_dir: string | null;
  /** Base vs final on the held-out seeds, which chose the promotion (p-value null past one test). */
  readonly heldout: { parent_success: number | null; candidate_success: number | null; episodes: number | null; p_value: number | null };
  /** Base vs final on fresh seeds no decision used: the campaign's own p-value. */
  readonly confirmation: { parent_success: number; candidate_success: number; episodes: number; p_value: number } | null;
  readonly generations: number;
  readonly decisions: ReadonlyArray<{ generation: number; candidate: string; decision: string; stage: string }>;
  readonly report: string;
  readonly root: string;
}

export async function runCampaign(o: CampaignOptions): Promise<CampaignSummary> {
  if (o.tasks && o.tasks.length > 0 && o.tasks[0] !== o.task)
    throw new Error(`the campaign's task ${o.task} must be the first of its tasks`);
  const store = new ArtifactStore(o.root);
  const log = o.log ?? (() => {});
  const state = CampaignState.open(store, (phase, g, k) =>
    log(`phase ${phase}${phase === 'report' || phase === 'done' ? '' : ` (generation ${g}${k === null ? '' : `, candidate ${k}`})`}`),
  );
  const { manifest, root } = await freezeManifest(store, state, o, log);
  const prereg = (await state.step<Preregistration>('preregistration.json', () => preregister(manifest))).value;
  checkPreregistration(prereg);
  const tooSmall = heldoutTooSmall(
    manifest.gates,
    manifest.seeds.generations,
    manifest.seeds.heldout.length * (manifest.tasks?.length ?? 1),
  );
  if (tooSmall) log(`warning: ${tooSmall}`);
  const ctx: CampaignContext = {
    store,
    state,
    manifest,
    preregistration: prereg,
    campaignId: campaignId(manifest),
    runner: o.runner,
    diagnoser: o.diagnoser,
    perturbation: o.perturbation?.spec,
    world: o.world,
    layout: layoutFor(o.world.features),
    milestonesOf: (task) => o.world.task(task).milestones,
    log,
  };
  let parent = root;
  const generations: GenerationOutcome[] = [];
  for (let g = 1; g <= manifest.seeds.generations; g++) {
    const outcome = await runGeneration(ctx, g, parent, generations);
    generations.push(outcome);
    if (outcome.promoted) parent = outcome.promoted;
    if (!outcome.clustering || outcome.clustering.clusters.length === 0) break;
  }
  state.enter('report', 0);
  const report = await finalReport(ctx, root, parent, generations);
  state.enter('done', 0);
  return summarize(ctx, report);
}

function requestedManifest(o: CampaignOptions, baseSha: string): Manifest {
  return ManifestSchema.parse({
    version: 1,
    world: o.world.name,
    suite: o.suite,
    task: o.task,
    ...(o.tasks && o.tasks.length > 1 ? { tasks: [...o.tasks] } : {}),
    perturbation: o.perturbation ? { name: o.perturbation.name, spec: o.perturbation.spec } : null,
    policy: { spec: o.policy.spec, sha256: fileSha(o.policy.file) },
    base_bundle: { spec: o.baseBundle, sha256: baseSha },
    seeds: {
      heldout: [...o.heldout],
      confirmation: [...(o.confirmation ?? [])],
      dev_episodes: o.devEpisodes,
      dev_seed_base: DEV_SEED_BASE,
      generations: o.generations,
    },
    gates: o.gates,
    // a simulator's features exist for the critic only and never reach the policy
    authorized_features: {
      privileged: o.world.authorizesPrivileged,
      names: authorizedFeatureNames(layoutFor(o.world.features), o.world.authorizesPrivileged),
    },
    diagnoser: { kind: o.diagnoser.kind, model: o.diagnoser.model },
    rollout: { execute_steps: o.executeSteps },
    code_version: codeVersion(),
  });
}

/**
 * Writes the manifest once, with the base bundle copied into the root. A resumed campaign must ask
 * for the same experiment, and keeps using its frozen copy of the base even if the original changed.
 */
async function freezeManifest(
  store: ArtifactStore,
  state: CampaignState,
  o: CampaignOptions,
  log: (l: string) => void,
): Promise<{ manifest: Manifest; root: StoredBundle }> {
  if (!store.exists('manifest.json')) {
    // content-addressed: rewriting the copy after a crash gives the same bytes
    const root =
      o.baseBundle === 'none'
        ? NO_BUNDLE
        : writeBundle(store, readBundle(o.baseBundle, layoutFor(o.world.features), o.world.authorizesPrivileged));
    return { manifest: (await state.step('manifest.json', () => requestedManifest(o, root.sha256))).value, root };
  }
  // parsed first: a damaged manifest.json is named with what is wrong (ArtifactFormatError), then hash-checked
  const stored = parseManifest(readFileSync(store.abs('manifest.json'), 'utf8'), store.abs('manifest.json'));
  store.get<Manifest>('manifest.json', state.ledger['manifest.json']);
  if (compareForResume(stored, requestedManifest(o, stored.base_bundle.sha256)).codeChanged) {
    log(`warning: resuming under code ${codeVersion()}; the campaign began under ${stored.code_version}`);
  }
  const root =
    stored.base_bundle.spec === 'none'
      ? NO_BUNDLE
      : frozenBase(store, stored.base_bundle.sha256, layoutFor(o.world.features), o.world.authorizesPrivileged);
  if (root !== NO_BUNDLE && currentSha(o.baseBundle, o.world) !== root.sha256)
    log(`warning: bundle "${o.baseBundle}" changed since the campaign began; it keeps its frozen copy ${root.dir}`);
  return { manifest: (await state.step('manifest.json', () => stored)).value, root };
}

function frozenBase(store: ArtifactStore, sha: string, layout: FeatureLayout, privileged: boolean): StoredBundle {
  const dir = `bundles/${sha.slice(0, 12)}`;
  const content = readBundle(store.abs(dir), layout, privileged);
  if (bundleSha(content) !== sha)
    throw new ArtifactHashError(`${dir}: the frozen base bundle no longer hashes to ${sha.slice(0, 12)}; the campaign root was modified`);
  return { ...content, sha256: sha, dir };
}

/** The base bundle's hash as it is now (null when it cannot be read, e.g. mid-edit). */
function currentSha(spec: string, world: World): string | null {
  try {
    return bundleSha(readBundle(spec, layoutFor(world.features), world.authorizesPrivileged));
  } catch {
    return null;
  }
}

async function finalReport(
  ctx: CampaignContext,
  root: StoredBundle,
  final: StoredBundle,
  generations: readonly GenerationOutcome[],
): Promise<CampaignReport> {
  // The base's held-out success is reported even when no candidate reached the held-out gate.
  const baseHeld = await rollout(ctx, root, 'heldout', ctx.preregistration.heldout);
  const finalHeld = final.sha256 === root.sha256 ? baseHeld : await rollout(ctx, final, 'heldout', ctx.preregistration.heldout);
  const pairs = pairEpisodes(baseHeld.results, finalHeld.results, { parent: baseHeld.policy, candidate: finalHeld.policy });
  const counts = countPairs(pairs.pairs);
  // The held-out seeds chose the promotion: their p-value is the gate's own only while a single
  // held-out test stands between base and final. The campaign's claim rests on fresh seeds.
  const promotions = generations.filter((g) => g.promoted).length;
  const report = buildReport({
    ctx,
    generations,
    root,
    final,
    heldout: { ...counts, p_value: promotions === 1 ? mcnemarOneSided(counts.b, counts.c) : null, problems: pairs.problems },
    confirmation: promotions === 0 ? null : await confirm(ctx, root, final),
  });
  const stored = await ctx.state.step('report.json', () => report);
  ctx.state.note('report.html', ctx.store.putText('report.html', renderReportHtml(stored.value)));
  return stored.value;
}

/** Base and final on the preregistered confirmation seeds (null when there are none). */
async function confirm(
  ctx: CampaignContext,
  root: StoredBundle,
  final: StoredBundle,
): Promise<(PairCounts & { p_value: number; problems: readonly string[] }) | null> {
  const seeds = ctx.preregistration.confirmation ?? [];
  if (seeds.length === 0) return null;
  const base = await rollout(ctx, root, 'confirmation', seeds);
  const promoted = await rollout(ctx, final, 'confirmation', seeds);
  const pairs = pairEpisodes(base.results, promoted.results, { parent: base.policy, candidate: promoted.policy });
  const counts = countPairs(pairs.pairs);
  return { ...counts, p_value: mcnemarOneSided(counts.b, counts.c), problems: pairs.problems };
}

function summarize(ctx: CampaignContext, r: CampaignReport): CampaignSummary {
  return {
    campaign_id: r.campaign_id,
    promoted: r.promoted,
    bundle_sha256: r.final_bundle.promoted ? r.final_bundle.sha256 : null,
    bundle_dir: r.final_bundle.promoted ? ctx.store.abs(r.final_bundle.dir!) : null,
    heldout: {
      parent_success: r.heldout.parent_successes,
      candidate_success: r.promoted ? r.heldout.candidate_successes : null,
      episodes: r.heldout.episodes,
      p_value: r.heldout.p_value,
    },
    confirmation: r.confirmation
      ? {
          parent_success: r.confirmation.parent_successes,
          candidate_success: r.confirmation.candidate_successes,
          episodes: r.confirmation.episodes,
          p_value: r.confirmation.p_value,
        }
      : null,
    generations: r.generations.length,
    decisions: r.generations.flatMap((g) =>
      g.candidates.map((c) => ({ generation: g.generation, candidate: c.id, decision: c.decision, stage: c.stage })),
    ),
    report: ctx.store.abs('report.html'),
    root: ctx.store.root,
  };
}
