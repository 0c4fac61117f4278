// Promotion: a candidate that passed every gate is copied to promoted/gen-<g>/ as a loadable bundle,
// with its evidence (the hypothesis, the fit, the shadow replay, every gate's numbers) and the sha256
// of everything that led to it: the manifest, the bundle, and each rollout artifact the gates read.
// The promoted bundle becomes the next generation's parent.
import { canonicalJson, sha256 } from './campaign/artifacts.js';
import type { CampaignContext } from './campaign/context.js';
import type { CandidateVerdict } from './campaign/gating.js';
import { manifestSha } from './campaign/manifest.js';
import type { ShadowReport } from './shadow-replay.js';
import { readBundle, type StoredBundle } from './synthesis/bundle-files.js';
import type { CandidateSpec } from './synthesis/synthesize.js';

export interface PromotionEvidence {
  readonly campaign_id: string;
  readonly manifest_sha256: string;
  readonly generation: number;
  readonly candidate: CandidateSpec;
  readonly shadow: ShadowReport;
  readonly verdict: CandidateVerdict;
  readonly bundle_sha256: string;
  readonly parent_sha256: string;
}

export function promotedDir(generation: number): string {
  return `promoted/gen-${generation}`;
}

export async function promote(
  ctx: CampaignContext,
  spec: CandidateSpec,
  shadow: ShadowReport,
  verdict: CandidateVerdict,
): Promise<StoredBundle> {
  const dir = promotedDir(spec.generation);
  const content = readBundle(ctx.store.abs(spec.bundle_dir), ctx.layout, ctx.manifest.authorized_features.privileged);
  const files = {
    'manifest.json': content.manifest,
    'rules.json': content.rules,
    'recoveries.json': content.recoveries,
  };
  const hashes: Record<string, string> = {};
  for (const [name, value] of Object.entries(files)) {
    hashes[name] = (await ctx.state.step(`${dir}/${name}`, () => value)).sha256;
  }
  const evidence: PromotionEvidence = {
    campaign_id: ctx.campaignId,
    manifest_sha256: manifestSha(ctx.manifest),
    generation: spec.generation,
    candidate: spec,
    shadow,
    verdict,
    bundle_sha256: spec.bundle_sha256,
    parent_sha256: spec.parent_sha256,
  };
  hashes['evidence.json'] = (await ctx.state.step(`${dir}/evidence.json`, () => evidence)).sha256;
  await ctx.state.step(`${dir}/hashes.json`, () => ({
    bundle_sha256: spec.bundle_sha256,
    files: hashes,
    all: sha256(canonicalJson(hashes)),
  }));
  ctx.log(`promoted ${spec.id} (${spec.hypothesis.mechanism}) → ${dir}`);
  return { ...content, sha256: spec.bundle_sha256, dir: spec.bundle_dir };
}
