// Reading the runs folder safely: a path a client names must stay inside it (after resolving dot
// segments and symbolic links), and the folder is walked to a bounded depth without following
// links, so a link inside runs never leads the console anywhere else. Files are read through
// run-file-read.ts: regular files inside runs only, capped, never blocking.
import { existsSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isInside as contains, readRunFile } from './run-file-read.js';

/** `rel` resolved inside `runs`, or null when it would leave it. Follows links of existing paths. */
export function resolveInside(runs: string, rel: string): string | null {
  if (rel.includes('\0')) return null;
  const root = realRoot(runs);
  const abs = resolve(root, rel);
  if (!contains(root, abs)) return null;
  if (!existsSync(abs)) return abs;
  const real = realpathSync(abs);
  return contains(root, real) ? real : null;
}

/** `abs` relative to runs, with forward slashes ("." for runs itself). */
export function relativeToRuns(runs: string, abs: string): string {
  const rel = relative(realRoot(runs), abs).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

/** runs itself, links resolved (as given when it does not exist yet). */
export function realRoot(runs: string): string {
  const abs = resolve(runs);
  return existsSync(abs) ? realpathSync(abs) : abs;
}

/**
 * Visits `root` and the folders below it down to `maxDepth` levels, breadth first, in name order.
 * `visit` sees each folder's entries and says whether to look inside its subfolders. Dot folders,
 * node_modules and links are skipped; an unreadable folder is passed over.
 */
export function walkFolders(root: string, maxDepth: number, visit: (dir: string, entries: readonly Dirent[]) => boolean): void {
  let level = [realRoot(root)];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = listDir(dir);
      if (entries === null || !visit(dir, entries) || depth === maxDepth) continue;
      for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') next.push(join(dir, e.name));
    }
    level = next;
  }
}

/** A folder's entries sorted by name, or null when it is missing or unreadable. */
export function listDir(dir: string): Dirent[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return null;
  }
}

/**
 * The text of a file under `runs`, or null when there is no such file. The console reads every file
 * through here; an artifact with a reader of its own (beside its writer, with the writer's schema)
 * gets the text. A link out of runs, a FIFO or a file over the cap throws RefusedRunFileError.
 */
export function readTextOrNull(runs: string, path: string): string | null {
  return readRunFile(realRoot(runs), path);
}

/** A JSON file's content, or null when there is no such file. A file that does not parse is an error. */
export function readJsonOrNull<T = unknown>(runs: string, path: string): T | null {
  const text = readTextOrNull(runs, path);
  return text === null ? null : (JSON.parse(text) as T);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
