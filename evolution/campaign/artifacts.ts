// Campaign artifacts: canonical JSON, content-hashed with sha256 and written atomically. Canonical
// means sorted keys, no whitespace choices and no timestamps, so the same content always has the same
// hash: a campaign killed and resumed reaches byte-identical artifacts, which is how determinism is
// checked rather than assumed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';

/** JSON with object keys sorted at every level; typed arrays become arrays, NaN and ±Infinity null. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value));
}

function normalize(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>, (x) => normalize(x));
  if (Array.isArray(value)) return value.map((x) => (x === undefined ? null : normalize(x)));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = normalize(v);
  }
  return out;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface StoredArtifact<T> {
  readonly value: T;
  readonly sha256: string;
  /** Path relative to the campaign root. */
  readonly path: string;
}

export class ArtifactHashError extends Error {
  override readonly name = 'ArtifactHashError';
}

/**
 * Files under a campaign root. `put` writes canonical JSON (plus a trailing newline, not hashed)
 * atomically and returns its hash; `get` reads it back and, given the hash the ledger recorded,
 * refuses a file whose content changed since.
 */
export class ArtifactStore {
  constructor(readonly root: string) {}

  abs(path: string): string {
    return join(this.root, path);
  }

  rel(absolute: string): string {
    return relative(this.root, absolute);
  }

  exists(path: string): boolean {
    return existsSync(this.abs(path));
  }

  put<T>(path: string, value: T): StoredArtifact<T> {
    const text = canonicalJson(value);
    writeFileAtomic(this.abs(path), `${text}\n`);
    return { value: JSON.parse(text) as T, sha256: sha256(text), path };
  }

  /** Raw bytes (an HTML report): hashed as written. */
  putText(path: string, text: string): string {
    writeFileAtomic(this.abs(path), text);
    return sha256(text);
  }

  get<T>(path: string, expectedSha?: string): StoredArtifact<T> {
    const text = readFileSync(this.abs(path), 'utf8').replace(/\n$/, '');
    const hash = sha256(text);
    if (expectedSha !== undefined && hash !== expectedSha) {
      throw new ArtifactHashError(
        `${path}: content hash ${hash.slice(0, 12)} differs from the recorded ${expectedSha.slice(0, 12)}; the campaign root was modified`,
      );
    }
    return { value: JSON.parse(text) as T, sha256: hash, path };
  }
}
