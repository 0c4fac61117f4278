// What the `zetta skills` subcommands share: the one positional argument (an id or a campaign
// directory) ahead of the flags, and the default actor of a promotion.
import { userInfo } from 'node:os';
import { UsageError } from '../command.js';
import { readFlags, type FlagSet, type FlagValues } from '../flags/read.js';

/** The subcommand's positional argument and its flags, or 'help'. */
export function readArgs<S extends FlagSet>(
  argv: readonly string[],
  flags: S,
  what: string,
): { arg: string; flags: FlagValues<S> } | 'help' {
  const first = argv[0];
  const arg = first !== undefined && !first.startsWith('-') ? first : undefined;
  const f = readFlags(arg === undefined ? argv : argv.slice(1), flags);
  if (f === 'help') return 'help';
  if (arg === undefined) throw new UsageError(`${what} is required`);
  return { arg, flags: f };
}

/** Who promotes when --as is not given: the user running the command. */
export function defaultActor(): string {
  try {
    return process.env.USER || userInfo().username || 'zetta';
  } catch {
    return 'zetta';
  }
}
