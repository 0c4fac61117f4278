// Evolution campaigns under the runs folder, read as evolution wrote them (evolution/README.md): a
// campaign root is a folder with manifest.json and state.json, found up to 4 levels down (a `zetta
// run` puts its campaign at runs/<run>/evolution/<name>/). The manifest and the report are read
// with evolution's own readers (the schemas they were written with), so a folder whose manifest or
// report they refuse is not shown as a campaign. Nothing here writes or locks: a campaign may be
// running while the console reads it, and its files are replaced atomically.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, campaignId, parseManifest } from '../../evolution/campaign/manifest.js';
import type { CampaignReport } from '../../evolution/report/report.js';
import { REPORT_FILE, parseCampaignReport } from '../../evolution/report/report-reader.js';
import type { CampaignRow } from '../contract/index.js';
import { isRecord, readJsonOrNull, readTextOrNull, relativeToRuns, walkFolders } from './run-files.js';

export const CAMPAIGN_SEARCH_DEPTH = 4;

export interface CampaignRef {
  readonly root: string;
  readonly listing: CampaignRow;
}

/** Every campaign root under runs (absolute paths, in walk order). Roots are not searched inside. */
export function findCampaignRoots(runs: string, depth = CAMPAIGN_SEARCH_DEPTH): string[] {
  const roots: string[] = [];
  walkFolders(runs, depth, (dir, entries) => {
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    if (files.has(MANIFEST_FILE) && files.has('state.json')) {
      roots.push(dir);
      return false;
    }
    return true;
  });
  return roots;
}

/** A root's listing; null when its manifest, state or report cannot be read (a foreign folder, say). */
export function readCampaign(runs: string, root: string): CampaignRow | null {
  try {
    const manifestText = readTextOrNull(runs, join(root, MANIFEST_FILE));
    const state = readJsonOrNull(runs, join(root, 'state.json'));
    if (manifestText === null || !isRecord(state)) return null;
    const manifest = parseManifest(manifestText, join(relativeToRuns(runs, root), MANIFEST_FILE));
    const report = readCampaignReport(runs, root);
    return {
      // evolution's campaignId names a campaign before its report does
      id: report?.campaign_id ?? campaignId(manifest),
      dir: relativeToRuns(runs, root),
      world: manifest.world,
      task: manifest.task,
      suite: manifest.suite,
      perturbation: manifest.perturbation?.name ?? 'nominal',
      phase: String(state.phase ?? ''),
      generation: typeof state.generation === 'number' ? state.generation : 0,
      candidate: typeof state.candidate === 'number' ? state.candidate : null,
      promoted: report?.promoted ?? null,
    };
  } catch {
    return null; // half a folder copied by hand, a file its reader refuses: not a campaign we can show
  }
}

/**
 * The campaign's report.json, read with evolution's report reader; null until the campaign has
 * written one. A report the reader refuses throws (ArtifactFormatError), named relative to runs.
 */
export function readCampaignReport(runs: string, root: string): CampaignReport | null {
  const text = readTextOrNull(runs, join(root, REPORT_FILE));
  return text === null ? null : parseCampaignReport(text, join(relativeToRuns(runs, root), REPORT_FILE));
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

/** What changes whenever state.json is replaced (atomic writes give it a new inode each time). */
export function stateStamp(root: string): string | null {
  try {
    const s = statSync(join(root, 'state.json'));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}
