// Reading a command's flags: node:util parseArgs for the syntax, then each flag's own parser, in
// the order the command lists them, so the first bad flag is the one reported.
import { parseArgs } from 'node:util';
import { UsageError } from '../command.js';
import type { Flag } from './flag.js';

/** The flags a command takes, keyed by the name its code reads them by. */
export type FlagSet = Readonly<Record<string, Flag<unknown>>>;

/** The typed values of a flag set. */
export type FlagValues<S extends FlagSet> = { readonly [K in keyof S]: S[K] extends Flag<infer T> ? T : never };

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * The values of `argv`, or 'help' when --help or -h is among them (then nothing else is checked).
 * A mistake in the syntax or in a value is a UsageError.
 */
export function readFlags<S extends FlagSet>(argv: readonly string[], flags: S): FlagValues<S> | 'help' {
  const options: Options = {};
  for (const flag of Object.values(flags)) options[flag.info.name] = { type: flag.info.type };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const out: Record<string, unknown> = {};
  for (const [key, flag] of Object.entries(flags)) out[key] = flag.read(values[flag.info.name]);
  return out as FlagValues<S>;
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
