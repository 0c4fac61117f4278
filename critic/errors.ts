// Load-time errors for critic files (rules, recovery programs). Every one names the path inside the
// file, e.g. `rules[3].when.feature: unknown feature "robot.eef_zz"`, so whoever wrote the file (a
// person or the evolution loop's synthesizer) can fix exactly that spot.
import type { z } from 'zod';
import { tooDeep } from './nesting.js';

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

  /** `path` '' names no place inside the file. */
  constructor(path: JsonPath | string, problem: string, file?: string) {
    const where = typeof path === 'string' ? path : formatPath(path);
    // '' is no place in the file: the file itself is the problem (missing, not a bundle)
    super(`${file ? `${file}: ` : ''}${where === '' ? '' : `${where}: `}${problem}`);
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

/**
 * JSON.parse with the file named in the error, refusing nesting the loaders could not recurse
 * through (nesting.ts). The parser's own message is not repeated: it quotes the text, and the file
 * may not be a critic file at all (a manifest pointing elsewhere); only the position is kept.
 */
export function parseJsonText(text: string, file?: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const position = /at position (\d+)/.exec((err as Error).message)?.[1];
    throw new CriticLoadError([], `not valid JSON${position === undefined ? '' : ` (at character ${position})`}`, file);
  }
  assertNesting(value, file);
  return value;
}

/** Throws CriticLoadError at the first place `value` nests too deep for the loaders. */
export function assertNesting(value: unknown, file?: string): void {
  const deep = tooDeep(value);
  if (deep) throw new CriticLoadError(deep.path, deep.problem, file);
}
