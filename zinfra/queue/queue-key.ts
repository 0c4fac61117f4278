// The key the coordinator and its workers share: jobs and results carry an HMAC-SHA256 over their
// canonical encoding, bound to the job's id, so whoever can write to Redis but lacks the key can
// neither have a worker run anything nor hand the coordinator a made-up outcome. The key comes from
// ZETTA_QUEUE_KEY, or from a file (ZETTA_QUEUE_KEY_FILE, or a worker's --queue-key-file); it is never
// printed, and an error about it names only where it was looked for.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from './canonical-json.js';
import { QueueSetupError } from './errors.js';

export const KEY_ENV = 'ZETTA_QUEUE_KEY';
export const KEY_FILE_ENV = 'ZETTA_QUEUE_KEY_FILE';
/** Shorter keys are refused: a guessable key is no key. */
export const MIN_KEY_CHARS = 16;

/** What a signature covers: a job as the coordinator wrote it, or a result as a worker returned it. */
export type SignedKind = 'job' | 'result';

export class QueueKey {
  readonly #secret: Buffer;

  constructor(secret: string) {
    if (secret.length < MIN_KEY_CHARS) throw new QueueSetupError(`the queue key must be at least ${MIN_KEY_CHARS} characters`);
    this.#secret = Buffer.from(secret, 'utf8');
  }

  /** The hex HMAC-SHA256 of (kind, job id, value). */
  sign(kind: SignedKind, jobId: string, value: unknown): string {
    // through JSON first: what is signed is what Redis keeps (NaN as null, undefined left out)
    const asStored: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
    return createHmac('sha256', this.#secret)
      .update(canonicalJson([`zetta-queue-${kind}`, jobId, asStored]))
      .digest('hex');
  }

  /** Whether `signature` is this key's for (kind, job id, value); compared in constant time. */
  verify(kind: SignedKind, jobId: string, value: unknown, signature: unknown): boolean {
    if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
    let expected: string;
    try {
      expected = this.sign(kind, jobId, value);
    } catch {
      return false;
    }
    return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature, 'hex'));
  }

  /** Never the secret: a key that ends up in a log line or a JSON dump says only what it is. */
  toString(): string {
    return 'QueueKey(…)';
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * The key from a file (`file`, else ZETTA_QUEUE_KEY_FILE) or ZETTA_QUEUE_KEY; none of them set is a
 * setup error naming what to set. A file's trailing newline is not part of the key.
 */
export function loadQueueKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): QueueKey {
  const path = file ?? env[KEY_FILE_ENV];
  if (path !== undefined && path !== '') {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new QueueSetupError(`cannot read the queue key file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    return new QueueKey(text.replace(/\r?\n$/, ''));
  }
  const secret = env[KEY_ENV];
  if (secret === undefined || secret === '')
    throw new QueueSetupError(
      `the queue needs a shared key: set ${KEY_ENV} (or ${KEY_FILE_ENV}=FILE) to the same secret on the coordinator and every worker`,
    );
  return new QueueKey(secret);
}
