// The shape every `zetta` subcommand has, and what they share: the usage error and the JSON line.
// Flags are defined and read in cli/flags/.

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

/**
 * Bad input that is not in how the command was called but in what it was pointed at (a campaign
 * root of another campaign, a damaged file in it): one line, exit code 2, no pointer to --help.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** With `--json`, the last line of stdout is exactly one JSON object. */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
