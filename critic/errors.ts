// Load-time errors for critic files (rules, recovery programs). Every one names the path inside the
// file, e.g. `rules[3].when.feature: unknown feature "robot.eef_zz"`, so whoever wrote the file (a
// person or the evolution loop's synthesizer) can fix exactly that spot.
import type { z } from 'zod';

export type JsonPath = readonly (string | number)[];

/** `['rules', 3, 'when', 'feature']` → `rules[3].when.feature`. */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? p : `.${p}`;
  }
  return out === '' ? '(root)' : out;
}

export class CriticLoadError extends Error {
  override readonly name = 'CriticLoadError';
  /** Where in the file, e.g. `rules[3].when.feature`. */
  readonly path: string;
  /** The file it came from, when loaded from one. */
  readonly file: string | undefined;
  /** The problem alone, without file and path. */
  readonly problem: string;

  constructor(path: JsonPath | string, problem: string, file?: string) {
    const where = typeof path === 'string' ? path : formatPath(path);
    super(`${file ? `${file}: ` : ''}${where}: ${problem}`);
    this.path = where;
    this.file = file;
    this.problem = problem;
  }
}

/** The first zod issue as a CriticLoadError (one clear error beats a wall of them). */
export function fromZod(error: z.ZodError, file?: string): CriticLoadError {
  const issue = error.issues[0];
  if (!issue) return new CriticLoadError([], 'invalid', file);
  return new CriticLoadError(
    issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    issue.message,
    file,
  );
}

/** JSON.parse with the file named in the error. */
export function parseJsonText(text: string, file?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CriticLoadError([], `not valid JSON: ${(err as Error).message}`, file);
  }
}
