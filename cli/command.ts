// The shape every `zetta` subcommand has, and the flag parsing they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  readonly name: string;
  /** One line for `zetta --help`. */
  readonly summary: string;
  /** Full `--help` text. */
  readonly help: string;
  /** Returns the process exit code. */
  run(argv: readonly string[]): Promise<number>;
}

/** A mistake in how the command was called: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with `--help` always accepted and errors turned into UsageError. */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({
      args: joinNegativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * `--episodes -3` becomes `--episodes=-3`: parseArgs would read -3 as a flag and say the argument
 * is ambiguous, when the range check has the better answer.
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const next = argv[i + 1];
    const name = token.startsWith('--') && !token.includes('=') ? token.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`${token}=${next}`);
      i++;
    } else out.push(token);
  }
  return out;
}

export function intFlag(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

export function fractionFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (!(x >= 0 && x <= 1)) throw new UsageError(`--${name} must be a number from 0 to 1, got "${value}"`);
  return x;
}

/** With `--json`, the last line of stdout is exactly one JSON object. */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
