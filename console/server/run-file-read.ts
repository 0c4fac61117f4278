// Reading one file of the runs folder, as the console reads every file it shows. Anyone who can
// write into runs (a campaign folder copied from elsewhere, a shared disk) decides what sits there,
// so a file is read only when it is a regular file, inside runs once every link in its path is
// resolved, and no larger than a cap; and it is opened without blocking, so a FIFO or a device
// named report.json is refused at once instead of freezing the server (whose reads are
// synchronous: one stuck read would stall every request, the login page included).
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';

/** The largest file the console reads (a campaign's biggest artifacts are a few megabytes). */
export const MAX_RUN_FILE_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** A file under runs that the console will not read; the message names it relative to runs. */
export class RefusedRunFileError extends Error {
  override readonly name = 'RefusedRunFileError';
}

/**
 * The text of `path`, or null when there is no such file. `root` is the runs folder with its links
 * resolved. Throws RefusedRunFileError for a path that leads outside it, anything that is not a
 * regular file, or a file over MAX_RUN_FILE_BYTES.
 */
export function readRunFile(root: string, path: string, maxBytes = MAX_RUN_FILE_BYTES): string | null {
  const named = relative(root, path).split(sep).join('/');
  const refuse = (why: string) => new RefusedRunFileError(`${named}: ${why}; the console reads only regular files inside the runs folder`);
  const real = orNullWhenMissing(() => realpathSync(path), refuse);
  if (real === null) return null;
  if (!isInside(root, real)) throw refuse('a link that leads outside the runs folder');
  // the resolved path has no links left; O_NOFOLLOW refuses one swapped in since
  const fd = orNullWhenMissing(() => openSync(real, OPEN_FLAGS), refuse);
  if (fd === null) return null;
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw refuse('not a regular file');
    if (opened.size > maxBytes) throw refuse(`${opened.size} bytes, over the ${maxBytes}-byte limit`);
    // what was opened is still what the checked path names (no folder on the way swapped for a link)
    const now = statSync(real);
    if (now.ino !== opened.ino || now.dev !== opened.dev) throw refuse('replaced while it was opened');
    const text = readUpTo(fd, maxBytes);
    if (text === null) throw refuse(`grew over the ${maxBytes}-byte limit while read`);
    return text;
  } finally {
    closeSync(fd);
  }
}

/** Whether `abs` is `root` or below it (both without links). */
export function isInside(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The rest of `fd` as UTF-8, or null when it holds more than `maxBytes`. */
function readUpTo(fd: number, maxBytes: number): string | null {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total).toString('utf8');
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) return null;
  }
}

/** `f()`, or null when its file is missing; a link loop, or a link swapped in, is refused. */
function orNullWhenMissing<T>(f: () => T, refuse: (why: string) => Error): T | null {
  try {
    return f();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw refuse('a link that loops, or one swapped in while it was opened');
    throw err;
  }
}
