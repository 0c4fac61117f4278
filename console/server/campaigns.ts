// Evolution campaigns under the runs folder, read as evolution wrote them (evolution/README.md): a
// campaign root is a folder with manifest.json and state.json, found up to 4 levels down (a `zetta
// run` puts its campaign at runs/<run>/evolution/<name>/). Nothing here writes or locks: a
// campaign may be running while the console reads it, and its files are replaced atomically.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256 } from '../../evolution/campaign/artifacts.js';
import { isRecord, readJsonOrNull, relativeToRuns, walkFolders } from './run-files.js';

export const CAMPAIGN_SEARCH_DEPTH = 4;

export interface CampaignListing {
  /** The campaign id: report.json's campaign_id, else the first 12 hex digits of the manifest's sha256. */
  readonly id: string;
  /** The root, relative to runs. */
  readonly dir: string;
  readonly world: string;
  readonly task: string;
  readonly suite: string;
  readonly perturbation: string;
  readonly phase: string;
  readonly generation: number;
  readonly candidate: number | null;
  /** From report.json; null until the campaign has written one. */
  readonly promoted: boolean | null;
}

export interface CampaignRef {
  readonly root: string;
  readonly listing: CampaignListing;
}

/** Every campaign root under runs (absolute paths, in walk order). Roots are not searched inside. */
export function findCampaignRoots(runs: string, depth = CAMPAIGN_SEARCH_DEPTH): string[] {
  const roots: string[] = [];
  walkFolders(runs, depth, (dir, entries) => {
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    if (files.has('manifest.json') && files.has('state.json')) {
      roots.push(dir);
      return false;
    }
    return true;
  });
  return roots;
}

/** A root's listing; null when its manifest or state cannot be read (a foreign folder, say). */
export function readCampaign(runs: string, root: string): CampaignListing | null {
  try {
    const manifest = readJsonOrNull(join(root, 'manifest.json'));
    const state = readJsonOrNull(join(root, 'state.json'));
    if (!isRecord(manifest) || !isRecord(state)) return null;
    const report = readJsonOrNull(join(root, 'report.json'));
    const perturbation = isRecord(manifest.perturbation) ? String(manifest.perturbation.name) : 'nominal';
    return {
      id: campaignIdOf(manifest, report),
      dir: relativeToRuns(runs, root),
      world: typeof manifest.world === 'string' ? manifest.world : 'tabletop',
      task: String(manifest.task ?? ''),
      suite: String(manifest.suite ?? ''),
      perturbation,
      phase: String(state.phase ?? ''),
      generation: typeof state.generation === 'number' ? state.generation : 0,
      candidate: typeof state.candidate === 'number' ? state.candidate : null,
      promoted: isRecord(report) && typeof report.promoted === 'boolean' ? report.promoted : null,
    };
  } catch {
    return null; // half a folder copied by hand, a file that is not JSON: not a campaign we can show
  }
}

/** Every readable campaign under runs. */
export function listCampaigns(runs: string): CampaignRef[] {
  return findCampaignRoots(runs).flatMap((root) => {
    const listing = readCampaign(runs, root);
    return listing ? [{ root, listing }] : [];
  });
}

/** The campaign with this id (the first in walk order when a copy of it lies elsewhere), or null. */
export function findCampaign(runs: string, id: string): CampaignRef | null {
  return listCampaigns(runs).find((c) => c.listing.id === id) ?? null;
}

function campaignIdOf(manifest: Record<string, unknown>, report: unknown): string {
  if (isRecord(report) && typeof report.campaign_id === 'string') return report.campaign_id;
  // evolution's campaignId: the manifest's canonical JSON, hashed (manifest.ts)
  return sha256(canonicalJson(manifest)).slice(0, 12);
}

/** What changes whenever state.json is replaced (atomic writes give it a new inode each time). */
export function stateStamp(root: string): string | null {
  try {
    const s = statSync(join(root, 'state.json'));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}
