// The flag lines of a command's --help, generated from its flag set: `--name META`, then the help
// text in one column, continuation lines under it, the default at the end.
import type { FlagInfo } from './flag.js';
import type { FlagSet } from './read.js';

/** Labels longer than this get a line of their own, so one long name does not push the column out. */
const MAX_INLINE_LABEL = 24;
const GAP = 2;

export function flagHelp(flags: FlagSet): string {
  const rows = Object.values(flags).map((f) => ({ label: label(f.info), lines: helpLines(f.info) }));
  const width = Math.max(0, ...rows.map((r) => r.label.length).filter((n) => n <= MAX_INLINE_LABEL));
  const indent = ' '.repeat(2 + width + GAP);
  return rows
    .flatMap(({ label: l, lines: [first, ...rest] }) => [
      ...(l.length <= MAX_INLINE_LABEL ? [`  ${l.padEnd(width + GAP)}${first}`] : [`  ${l}`, `${indent}${first}`]),
      ...rest.map((line) => `${indent}${line}`),
    ])
    .join('\n');
}

/** Prints a command's --help; returns the exit code of a command asked for it. */
export function printHelp(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}

function label(f: FlagInfo): string {
  return f.metavar ? `--${f.name} ${f.metavar}` : `--${f.name}`;
}

function helpLines(f: FlagInfo): string[] {
  const lines = f.help.split('\n');
  if (f.defaultNote !== undefined) lines[lines.length - 1] += ` (default ${f.defaultNote})`;
  return lines;
}
