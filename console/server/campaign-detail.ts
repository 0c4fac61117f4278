// One campaign's files in full: its report, each generation's clusters, diagnoses and candidates
// (synthesis, shadow replay, gates), the episodes its rollouts recorded, and the bundle it started
// from (so a skill's replaced rules can be compared with what they replaced).
import { join } from 'node:path';
import { NO_BUNDLE } from '../../evolution/synthesis/bundle-files.js';
import { entryChanges, type BundleEntry, type SkillChanges } from '../../skills/changes.js';
import type { BaseEntries } from './changes-text.js';
import { findCampaign, type CampaignListing } from './campaigns.js';
import { isRecord, listDir, readJsonOrNull, relativeToRuns } from './run-files.js';

export interface CandidateFiles {
  readonly k: number;
  readonly synthesis: unknown;
  readonly shadow: unknown;
  readonly gates: unknown;
  /** The candidate's bundle against its parent's (skills/changes.ts), when both are in the campaign. */
  readonly changes: SkillChanges | null;
}

export interface GenerationFiles {
  readonly generation: number;
  readonly clusters: unknown;
  readonly diagnoses: unknown;
  readonly candidates: readonly CandidateFiles[];
}

export interface CampaignDetail {
  readonly campaign: CampaignListing;
  readonly report: unknown;
  readonly generations: readonly GenerationFiles[];
}

export interface EpisodeListing {
  /** Relative to runs: what GET /api/episode?path= takes. */
  readonly path: string;
  /** The bundle's folder under rollouts/ (the first 12 hex digits of its sha256). */
  readonly bundle: string;
  /** dev-g<g>, dev-g<g>.<control>, heldout, confirmation. */
  readonly split: string;
  readonly task: string;
  readonly seed: number;
}

export function campaignDetail(root: string, listing: CampaignListing): CampaignDetail {
  return { campaign: listing, report: readJsonOrNull(join(root, 'report.json')), generations: generations(root) };
}

function generations(root: string): GenerationFiles[] {
  return numbered(root, /^gen-(\d+)$/).map(([generation, dir]) => ({
    generation,
    clusters: readJsonOrNull(join(dir, 'clusters.json')),
    diagnoses: readJsonOrNull(join(dir, 'diagnoses.json')),
    candidates: numbered(join(dir, 'candidates'), /^k(\d+)$/).map(([k, c]) => ({
      k,
      synthesis: readJsonOrNull(join(c, 'synthesis.json')),
      shadow: readJsonOrNull(join(c, 'shadow.json')),
      gates: readJsonOrNull(join(c, 'gates.json')),
      changes: candidateChanges(root, readJsonOrNull(join(c, 'synthesis.json'))),
    })),
  }));
}

/** What a candidate changes in its parent: both bundles are under bundles/<sha12>/ of the campaign. */
function candidateChanges(root: string, synthesis: unknown): SkillChanges | null {
  if (!isRecord(synthesis) || typeof synthesis['bundle_sha256'] !== 'string' || typeof synthesis['parent_sha256'] !== 'string') return null;
  // a campaign that started from no critic has no parent folder: its parent is the empty bundle
  const parent = synthesis['parent_sha256'] === NO_BUNDLE.sha256 ? { rules: [], programs: [] } : bundleEntries(root, synthesis['parent_sha256']);
  const candidate = bundleEntries(root, synthesis['bundle_sha256']);
  if (!parent || !candidate) return null;
  return {
    base: { name: 'parent', sha256: synthesis['parent_sha256'] },
    rules: entryChanges(parent.rules, candidate.rules),
    programs: entryChanges(parent.programs, candidate.programs),
  };
}


/** Subfolders whose name matches `pattern` (one numeric group), as [number, path], in numeric order. */
function numbered(dir: string, pattern: RegExp): [number, string][] {
  return (listDir(dir) ?? [])
    .filter((e) => e.isDirectory() && pattern.test(e.name))
    .map((e): [number, string] => [Number(pattern.exec(e.name)![1]), join(dir, e.name)])
    .sort((a, b) => a[0] - b[0]);
}

/** Every recorded episode: rollouts/<sha12>/<split>/episodes/<task>/<seed>.mcap. */
export function campaignEpisodes(runs: string, root: string): EpisodeListing[] {
  const out: EpisodeListing[] = [];
  const rollouts = join(root, 'rollouts');
  for (const bundle of subfolders(rollouts)) {
    for (const split of subfolders(join(rollouts, bundle))) {
      const episodes = join(rollouts, bundle, split, 'episodes');
      for (const task of subfolders(episodes)) {
        for (const f of listDir(join(episodes, task)) ?? []) {
          const m = /^(\d+)\.mcap$/.exec(f.name);
          if (!f.isFile() || !m) continue;
          // the recorder names a task's folder with its "/" as "__" (evaluation-plan.ts)
          out.push({ path: relativeToRuns(runs, join(episodes, task, f.name)), bundle, split, task: task.replace('__', '/'), seed: Number(m[1]) });
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
  return c ? bundleEntries(c.root, baseSha) : null;
}

/** A bundle of the campaign in `root` (bundles/<sha12>/): its rules and programs, or null when absent or unreadable. */
function bundleEntries(root: string, sha: string): BaseEntries | null {
  const dir = join(root, 'bundles', sha.slice(0, 12));
  try {
    const rules = readJsonOrNull(join(dir, 'rules.json'));
    const programs = readJsonOrNull(join(dir, 'recoveries.json'));
    if (!isRecord(rules) || !isRecord(programs) || !Array.isArray(rules.rules) || !Array.isArray(programs.programs)) return null;
    return { rules: rules.rules as BundleEntry[], programs: programs.programs as BundleEntry[] };
  } catch {
    return null;
  }
}
