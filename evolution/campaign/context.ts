// What every phase of a campaign works with: the store and the on-disk state, the frozen manifest
// and preregistration, the rollout runner and the diagnoser, and the rollouts themselves (one
// artifact per bundle and seed set, so a bundle's held-out episodes run once however often they are
// compared).
import type { FeatureLayout } from '../../critic/index.js';
import type { Perturbation } from '../../sim/perturbation/schema.js';
import type { World } from '../../sim/world.js';
import type { Diagnoser } from '../diagnosis/diagnoser.js';
import { ENVELOPE_ONLY, writeBundle, type StoredBundle } from '../synthesis/bundle-files.js';
import type { ArtifactStore } from './artifacts.js';
import { campaignTasks, type Manifest, type Preregistration } from './manifest.js';
import { rolloutSeeds, type EpisodeResult, type RolloutRunner } from './rollouts.js';
import type { CampaignState } from './state-machine.js';

export interface CampaignContext {
  readonly store: ArtifactStore;
  readonly state: CampaignState;
  readonly manifest: Manifest;
  readonly preregistration: Preregistration;
  readonly campaignId: string;
  readonly runner: RolloutRunner;
  readonly diagnoser: Diagnoser;
  readonly perturbation: Perturbation | undefined;
  /** The world the campaign runs in, and its frame layout (what candidate rules may read). */
  readonly world: World;
  readonly layout: FeatureLayout;
  /** A task's milestones, in order (a campaign may run several tasks: manifest.ts campaignTasks). */
  milestonesOf(task: string): readonly string[];
  readonly log: (line: string) => void;
}

export interface RolloutSet {
  readonly bundle_sha256: string;
  readonly split: string;
  readonly policy: string;
  readonly seeds: readonly number[];
  readonly results: readonly EpisodeResult[];
}

/**
 * The bundle's episodes on a seed set (`dev-g2`, `heldout`), run once and kept as an artifact. With
 * `control`, a trivial policy runs instead of the campaign's (its own artifact, `dev-g2.null_open`).
 */
export async function rollout(
  ctx: CampaignContext,
  bundle: Pick<StoredBundle, 'sha256' | 'dir'>,
  split: string,
  seeds: readonly number[],
  control?: string,
): Promise<RolloutSet> {
  const name = control === undefined ? split : `${split}.${control.replace(/[^a-z0-9]+/gi, '_')}`;
  const dir = `rollouts/${bundle.sha256.slice(0, 12)}/${name}`;
  const stored = await ctx.state.step<RolloutSet>(`${dir}.json`, async () => {
    ctx.log(`rollouts: bundle ${bundle.sha256.slice(0, 12)} on ${name} (${seeds.length} episodes)`);
    const results = await rolloutSeeds(ctx.runner, ctx.store, dir, {
      tasks: campaignTasks(ctx.manifest),
      seeds,
      perturbation: ctx.perturbation,
      // the empty bundle runs as the envelope alone: its safety events are counted as a candidate's are
      bundleDir: ctx.store.abs(bundle.dir ?? writeBundle(ctx.store, ENVELOPE_ONLY).dir!),
      ...(control === undefined ? {} : { policy: control, record: false }),
    });
    return { bundle_sha256: bundle.sha256, split: name, policy: control ?? ctx.runner.policyLabel, seeds: [...seeds], results };
  });
  return stored.value;
}
