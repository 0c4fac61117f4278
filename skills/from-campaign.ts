// A finished campaign's promotion as a skill: reads the campaign root the way evolution wrote it
// (state.json's ledger of hashes, manifest.json, report.json, promoted/gen-<g>/), checks every file
// it takes against the hash the campaign recorded, and returns the skill's content and its bundle
// files. Nothing here writes: the store decides what becomes of it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BundleManifestSchema, layoutFor, type FeatureLayout } from '../critic/index.js';
import { RecoveryFileSchema, RuleFileSchema } from '../critic/index.js';
import { ArtifactHashError, ArtifactStore, sha256 } from '../evolution/campaign/artifacts.js';
import { manifestSha, type Manifest } from '../evolution/campaign/manifest.js';
import { STATE_FILE } from '../evolution/campaign/state-machine.js';
import type { PromotionEvidence } from '../evolution/promotion.js';
import { promotedDir } from '../evolution/promotion.js';
import type { CampaignReport } from '../evolution/report/report.js';
import { NO_BUNDLE, bundleSha, featuresRead, readBundle, type BundleContent } from '../evolution/synthesis/bundle-files.js';
import { loadWorld, resolveWorld } from '../sim/worlds.js';
import { bundleChanges, isTaskNeutral, type SkillChanges } from './changes.js';
import { SkillInputError } from './errors.js';
import { bundleFile, type BundleFile, type GateDecision, type SkillContent } from './skill.js';

/** The bundle files a promotion holds, in the critic's bundle format. */
export const BUNDLE_FILES = ['manifest.json', 'rules.json', 'recoveries.json'] as const;

export interface CampaignSkill {
  readonly content: SkillContent;
  readonly files: readonly BundleFile[];
}

export async function skillFromCampaign(root: string): Promise<CampaignSkill> {
  const ledger = readLedger(root);
  const store = new ArtifactStore(root);
  const manifest = checked<Manifest>(store, 'manifest.json', ledger);
  const report = checked<CampaignReport>(store, 'report.json', ledger);
  if (!report.promoted)
    throw new SkillInputError(`campaign ${report.campaign_id} (${root}) promoted nothing: there is no bundle to make a skill of`);
  const generation = lastPromotion(report);
  const dir = promotedDir(generation);
  const hashes = checked<{ bundle_sha256: string; files: Record<string, string> }>(store, `${dir}/hashes.json`, ledger);
  if (hashes.bundle_sha256 !== report.final_bundle.sha256) {
    throw new SkillInputError(
      `${join(root, dir)}: holds bundle ${hashes.bundle_sha256.slice(0, 12)}, but the report promoted ${report.final_bundle.sha256.slice(0, 12)}`,
    );
  }
  const files = BUNDLE_FILES.map((name) => promotedFile(store, `${dir}/${name}`, ledger, hashes.files[name]));
  const evidence = checked<PromotionEvidence>(store, `${dir}/evidence.json`, ledger);
  const bundle = Object.fromEntries(files.map((f) => [f.name, JSON.parse(f.bytes.toString('utf8')) as unknown]));
  const world = await loadWorld(resolveWorld(manifest.world));
  const layout = layoutFor(world.features);
  const names = layout.features.map((f) => f.name);
  const changes = changesFromBase(store, manifest, bundle, layout, world.authorizesPrivileged);
  const read = featuresRead([bundle['manifest.json'], bundle['rules.json'], bundle['recoveries.json']], names);
  const content: SkillContent = {
    version: 1,
    name: `${evidence.candidate.hypothesis.template}@${manifest.tasks ? `${manifest.tasks.length} tasks of ${manifest.suite}` : manifest.task}`,
    description: evidence.candidate.hypothesis.mechanism,
    guard: {
      world: manifest.world,
      features: read,
      // what it reads, not what its manifest may read: a campaign from the empty bundle inherits a
      // manifest that may read anything, and a world that feeds nothing privileged must still load it
      privileged: read.some((f) => layout.isPrivileged(f)),
      conditions: [],
      // a change no task shapes (a lag answer alone) holds on every suite; a rule stays with its family
      tags: { suite: isTaskNeutral(changes) ? 'all' : manifest.suite, source_task: manifest.task },
    },
    evidence: {
      campaign_id: report.campaign_id,
      promoted_candidate: evidence.candidate.id,
      generation,
      mechanism: evidence.candidate.hypothesis.mechanism,
      decisions: decisions(report),
      heldout: report.heldout,
      confirmation: report.confirmation,
      shadow: {
        triggers: evidence.shadow.triggers,
        targeted_failures: evidence.shadow.targeted_failures,
        false_alarms: evidence.shadow.false_alarms,
        successes: evidence.shadow.successes,
      },
    },
    provenance: {
      code_version: manifest.code_version,
      bundle_sha256: hashes.bundle_sha256,
      manifest_sha256: manifestSha(manifest),
      report_sha256: ledger['report.json']!,
      evidence_sha256: ledger[`${dir}/evidence.json`]!,
      rollouts: evidence.verdict.rollouts,
    },
    changes,
    files: Object.fromEntries(files.map((f) => [f.name, f.sha256])),
  };
  return { content, files };
}

function readLedger(root: string): Record<string, string> {
  const path = join(root, STATE_FILE);
  if (!existsSync(join(root, 'manifest.json')) || !existsSync(path))
    throw new SkillInputError(`${root} is not a campaign root (no manifest.json and ${STATE_FILE})`);
  let state: { phase?: string; ledger?: Record<string, string> };
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as typeof state;
  } catch (err) {
    throw new SkillInputError(`${path}: ${(err as Error).message}`);
  }
  if (state.phase !== 'done')
    throw new SkillInputError(`the campaign in ${root} has not finished (phase ${state.phase}); run zetta evolve on it again to finish it`);
  return state.ledger ?? {};
}

/** An artifact the campaign recorded, refused unless it hashes to the ledger's entry. */
function checked<T>(store: ArtifactStore, path: string, ledger: Readonly<Record<string, string>>): T {
  const expected = ledger[path];
  if (expected === undefined) throw new SkillInputError(`${store.abs(path)}: the campaign recorded no such artifact`);
  try {
    return store.get<T>(path, expected).value;
  } catch (err) {
    if (err instanceof ArtifactHashError) throw new SkillInputError(`${store.abs(path)}: ${err.message.replace(/^[^:]+: /, '')}`);
    if ((err as { code?: string }).code === 'ENOENT') throw new SkillInputError(`${store.abs(path)}: missing from the campaign root`);
    throw err;
  }
}

/** A promoted bundle file's bytes, checked against both the ledger and promoted/…/hashes.json. */
function promotedFile(
  store: ArtifactStore,
  path: string,
  ledger: Readonly<Record<string, string>>,
  listed: string | undefined,
): BundleFile {
  checked(store, path, ledger);
  const bytes = readFileSync(store.abs(path));
  const contentSha = sha256(bytes.toString('utf8').replace(/\n$/, ''));
  if (listed !== contentSha)
    throw new SkillInputError(
      `${store.abs(path)}: hashes to ${contentSha.slice(0, 12)}, not the ${listed?.slice(0, 12) ?? 'missing'} its hashes.json records`,
    );
  return bundleFile(path.slice(path.lastIndexOf('/') + 1), bytes);
}

/** The promoted bundle against the campaign's frozen base (bundles/<sha12>/, or none). */
function changesFromBase(
  store: ArtifactStore,
  manifest: Manifest,
  promoted: Record<string, unknown>,
  layout: FeatureLayout,
  privileged: boolean,
): SkillChanges {
  const { spec, sha256: baseSha } = manifest.base_bundle;
  let base: BundleContent = NO_BUNDLE;
  if (spec !== 'none') {
    const dir = store.abs(`bundles/${baseSha.slice(0, 12)}`);
    try {
      base = readBundle(dir, layout, privileged);
    } catch (err) {
      throw new SkillInputError(`${dir}: the campaign's base bundle cannot be read: ${(err as Error).message}`);
    }
    if (bundleSha(base) !== baseSha)
      throw new SkillInputError(`${dir}: the campaign's base bundle no longer hashes to ${baseSha.slice(0, 12)}`);
  }
  const compared = (b: { rules: unknown; recoveries: unknown; manifest: unknown }) => ({
    rules: RuleFileSchema.parse(b.rules).rules,
    programs: RecoveryFileSchema.parse(b.recoveries).programs,
    manifest: BundleManifestSchema.parse(b.manifest),
  });
  const after = { rules: promoted['rules.json'], recoveries: promoted['recoveries.json'], manifest: promoted['manifest.json'] };
  return bundleChanges({ name: base.manifest.name, sha256: baseSha }, compared(base), compared(after));
}

function lastPromotion(report: CampaignReport): number {
  const promoted = report.generations.filter((g) => g.promoted !== null);
  if (promoted.length === 0)
    throw new SkillInputError(`campaign ${report.campaign_id}: the report says promoted, but no generation promoted a candidate`);
  return promoted.at(-1)!.generation;
}

function decisions(report: CampaignReport): GateDecision[] {
  return report.generations.flatMap((g) =>
    g.candidates.map((c) => ({
      generation: g.generation,
      candidate: c.id,
      decision: c.decision,
      stage: c.stage,
      reason: c.reason,
      gates: c.gates,
      critic_alone: c.critic_alone,
      shadow: c.shadow,
    })),
  );
}
