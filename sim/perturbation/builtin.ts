// The perturbation files shipped in sim/perturbations/, addressable by name (`position-shift`).
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PerturbationError } from '../errors.js';
import { loadPerturbation } from './load.js';
import type { Perturbation } from './schema.js';

/** sim/perturbations/ from the sources (vitest) and from the compiled dist/sim/perturbation/. */
function builtinDir(): string {
  const candidates = [new URL('../perturbations/', import.meta.url), new URL('../../../sim/perturbations/', import.meta.url)];
  for (const c of candidates) {
    const path = fileURLToPath(c);
    if (existsSync(path)) return path;
  }
  throw new PerturbationError('the built-in perturbation folder sim/perturbations/ is missing', '(file)');
}

export function builtinPerturbationNames(): string[] {
  return readdirSync(builtinDir())
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** A built-in perturbation by name, or any file by path. */
export function resolvePerturbation(nameOrPath: string): Perturbation {
  if (/^[a-z0-9-]+$/.test(nameOrPath) && !existsSync(nameOrPath)) {
    const names = builtinPerturbationNames();
    if (!names.includes(nameOrPath)) {
      throw new PerturbationError(
        `no built-in perturbation "${nameOrPath}" (built-in: ${names.join(', ')}); give a file path instead`,
        '(file)',
      );
    }
    return loadPerturbation(`${builtinDir()}${nameOrPath}.json`);
  }
  return loadPerturbation(nameOrPath);
}
