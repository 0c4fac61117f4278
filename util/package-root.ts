// Where the zetta checkout lives, whether running from sources (tests) or from dist/ (the bin):
// non-TypeScript assets (the Python shims, models/) are read from there.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith(`${'/'}dist`)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`zetta: no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
