// Files on disk: one npz per task (at <dir>/<task id>.npz, e.g. spatial/left_cube_in_bowl.npz)
// and a manifest, demos.json, listing them. Both are written atomically and hold no time stamps,
// so the same command writes the same bytes.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { npzBytes } from '../build/npz-writer.js';
import type { TaskDemos } from './dataset.js';

export const MANIFEST_FILE = 'demos.json';

/** Where a task's demonstrations go inside the output folder (relative, with '/' separators). */
export function taskFile(task: string): string {
  return `${task}.npz`;
}

export function writeTaskDemos(dir: string, demos: TaskDemos): string {
  const rel = taskFile(demos.task);
  writeAtomically(join(dir, rel), npzBytes(demos.arrays()));
  return rel;
}

export function writeManifest(dir: string, manifest: unknown): void {
  writeAtomically(join(dir, MANIFEST_FILE), new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`));
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}
