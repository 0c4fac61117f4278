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

/** With `--json`, the last line of stdout is exactly one JSON object. */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
