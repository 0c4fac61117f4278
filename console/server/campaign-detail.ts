// One campaign's files in full: its report, each generation's clusters, diagnoses and candidates
// (synthesis, shadow replay, gates), the episodes its rollouts recorded, and the bundle it started
// from (so a skill's replaced rules can be compared with what they replaced). Answers are the API
// contract's types; evolution's files are mapped into them by campaign-views.ts.
import { join } from 'node:path';
import type { CandidateVerdict as EvolutionVerdict } from '../../evolution/campaign/gating.js';
import type { ClusteringArtifact, DiagnosesArtifact } from '../../evolution/campaign/generation.js';
import type { ShadowReport as EvolutionShadow } from '../../evolution/shadow-replay.js';
import { NO_BUNDLE } from '../../evolution/synthesis/bundle-files.js';
import type { CandidateSpec as EvolutionSpec } from '../../evolution/synthesis/synthesize.js';
import { BundleManifestSchema } from '../../critic/index.js';
import { bundleChanges, type BundleEntry, type ComparedBundle, type SkillChanges } from '../../skills/changes.js';
import type { CampaignDetail, CampaignRow, CandidateArtifacts, EpisodeRef, GenerationArtifacts } from '../contract/index.js';
import { clustersView, diagnosesView, reportView, shadowView, synthesisView, verdictView } from './campaign-views.js';
import type { BaseEntries } from './changes-text.js';
import { findCampaign, readCampaignReport } from './campaigns.js';
import { isRecord, listDir, readJsonOrNull, relativeToRuns } from './run-files.js';

export function campaignDetail(runs: string, root: string, listing: CampaignRow): CampaignDetail {
  const report = readCampaignReport(runs, root);
  return { campaign: listing, report: report ? reportView(report) : null, generations: generations(runs, root) };
}

function generations(runs: string, root: string): GenerationArtifacts[] {
  return numbered(root, /^gen-(\d+)$/).map(([generation, dir]) => {
    const clusters = readJsonOrNull<ClusteringArtifact>(runs, join(dir, 'clusters.json'));
    const diagnoses = readJsonOrNull<DiagnosesArtifact>(runs, join(dir, 'diagnoses.json'));
    return {
      generation,
      clusters: clusters ? clustersView(clusters) : null,
      diagnoses: diagnoses ? diagnosesView(diagnoses) : null,
      candidates: numbered(join(dir, 'candidates'), /^k(\d+)$/).map(([k, c]) => candidateArtifacts(runs, root, k, c)),
    };
  });
}

/** candidates/k<i>/: evolution reads these back as its own types (ArtifactStore.get), and so does the console. */
function candidateArtifacts(runs: string, root: string, k: number, dir: string): CandidateArtifacts {
  const synthesis = readJsonOrNull<EvolutionSpec>(runs, join(dir, 'synthesis.json'));
  const shadow = readJsonOrNull<EvolutionShadow>(runs, join(dir, 'shadow.json'));
  const gates = readJsonOrNull<EvolutionVerdict>(runs, join(dir, 'gates.json'));
  return {
    k,
    synthesis: synthesis ? synthesisView(synthesis) : null,
    shadow: shadow ? shadowView(shadow) : null,
    gates: gates ? verdictView(gates) : null,
    changes: candidateChanges(runs, root, synthesis),
  };
}

/** What a candidate changes in its parent: both bundles are under bundles/<sha12>/ of the campaign. */
function candidateChanges(runs: string, root: string, synthesis: unknown): SkillChanges | null {
  if (!isRecord(synthesis) || typeof synthesis['bundle_sha256'] !== 'string' || typeof synthesis['parent_sha256'] !== 'string') return null;
  // a campaign that started from no critic has no parent folder: its parent is the empty bundle
  const parent =
    synthesis['parent_sha256'] === NO_BUNDLE.sha256
      ? { rules: [], programs: [], manifest: NO_BUNDLE.manifest }
      : comparedBundle(runs, root, synthesis['parent_sha256']);
  const candidate = comparedBundle(runs, root, synthesis['bundle_sha256']);
  if (!parent || !candidate) return null;
  return bundleChanges({ name: 'parent', sha256: synthesis['parent_sha256'] }, parent, candidate);
}

/** A campaign bundle's rules and programs, and its manifest with its defaults (null where that cannot be read). */
function comparedBundle(runs: string, root: string, sha: string): ComparedBundle | null {
  const entries = bundleEntries(runs, root, sha);
  if (!entries) return null;
  const manifest = BundleManifestSchema.safeParse(readJsonOrNull(runs, join(root, 'bundles', sha.slice(0, 12), 'manifest.json')));
  return { ...entries, manifest: manifest.success ? manifest.data : null };
}

/** Subfolders whose name matches `pattern` (one numeric group), as [number, path], in numeric order. */
function numbered(dir: string, pattern: RegExp): [number, string][] {
  return (listDir(dir) ?? [])
    .filter((e) => e.isDirectory() && pattern.test(e.name))
    .map((e): [number, string] => [Number(pattern.exec(e.name)![1]), join(dir, e.name)])
    .sort((a, b) => a[0] - b[0]);
}

/** Every recorded episode: rollouts/<sha12>/<split>/episodes/<task>/<seed>.mcap. */
export function campaignEpisodes(runs: string, root: string): EpisodeRef[] {
  const out: EpisodeRef[] = [];
  const rollouts = join(root, 'rollouts');
  for (const bundle of subfolders(rollouts)) {
    for (const split of subfolders(join(rollouts, bundle))) {
      const episodes = join(rollouts, bundle, split, 'episodes');
      for (const task of subfolders(episodes)) {
        for (const f of listDir(join(episodes, task)) ?? []) {
          const m = /^(\d+)\.mcap$/.exec(f.name);
          if (!f.isFile() || !m) continue;
          // the recorder names a task's folder with its "/" as "__" (evaluation-plan.ts)
          out.push({
            path: relativeToRuns(runs, join(episodes, task, f.name)),
            bundle,
            split,
            task: task.replace('__', '/'),
            seed: Number(m[1]),
          });
        }
      }
    }
  }
  return out.sort((a, b) => cmp(a.bundle, b.bundle) || cmp(a.split, b.split) || cmp(a.task, b.task) || a.seed - b.seed);
}

const subfolders = (dir: string): string[] => (listDir(dir) ?? []).filter((e) => e.isDirectory()).map((e) => e.name);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rules and programs of the bundle a campaign started from, read from its root
 * (bundles/<sha12>/); null when the campaign is not under runs or holds no such bundle.
 */
export function baseBundleEntries(runs: string, campaignId: string, baseSha: string): BaseEntries | null {
  const c = findCampaign(runs, campaignId);
  return c ? bundleEntries(runs, c.root, baseSha) : null;
}

/** A bundle of the campaign in `root` (bundles/<sha12>/): its rules and programs, or null when absent or unreadable. */
function bundleEntries(runs: string, root: string, sha: string): BaseEntries | null {
  const dir = join(root, 'bundles', sha.slice(0, 12));
  try {
    const rules = readJsonOrNull(runs, join(dir, 'rules.json'));
    const programs = readJsonOrNull(runs, join(dir, 'recoveries.json'));
    if (!isRecord(rules) || !isRecord(programs) || !Array.isArray(rules.rules) || !Array.isArray(programs.programs)) return null;
    return { rules: rules.rules as BundleEntry[], programs: programs.programs as BundleEntry[] };
  } catch {
    return null;
  }
}
