// How a failed command is told to the user: bad input (a flag, a policy spec, a server that is not
// there or answers what the wire does not allow, a file that cannot be read, a bundle the world
// cannot feed) is one line and exit code 2; anything else is a fault of ours, exit code 1. Stack
// traces only with --verbose.
import { CriticLoadError } from '../critic/index.js';
import { isRemoteEnvFailure } from '../sim/remote/index.js';
import { SkillInputError } from '../skills/errors.js';
import { PolicySpecError, PolicyUnavailable } from '../zinfra/policy/errors.js';
import { InputError, UsageError } from './command.js';

/** errno codes of a path the user gave that cannot be used. */
const INPUT_ERRNO = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);

export function isInputError(err: unknown): boolean {
  if (
    err instanceof UsageError ||
    err instanceof InputError ||
    err instanceof PolicySpecError ||
    err instanceof PolicyUnavailable ||
    err instanceof CriticLoadError ||
    err instanceof SkillInputError
  )
    return true;
  if (isRemoteEnvFailure(err)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && INPUT_ERRNO.has(code) && typeof (err as { path?: unknown }).path === 'string';
}

/** Writes the failure of `zetta <name>` to stderr and returns the exit code. */
export function reportFailure(name: string, err: unknown, verbose: boolean, write: (s: string) => void): number {
  const message = err instanceof Error ? err.message : String(err);
  if (verbose && err instanceof Error && err.stack) write(`${err.stack}\n`);
  if (err instanceof UsageError) {
    write(`zetta ${name}: ${message}\n(see zetta ${name} --help)\n`);
    return 2;
  }
  if (isInputError(err)) {
    write(`zetta ${name}: ${firstLine(message)}\n`);
    return 2;
  }
  if (!verbose) write(`zetta ${name}: ${firstLine(message)} (a fault in zetta; --verbose shows where)\n`);
  return 1;
}

function firstLine(s: string): string {
  return s.split('\n', 1)[0]!.trim();
}
