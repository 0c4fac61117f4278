// A command made of subcommands (`zetta bench <what>`, `zetta skills <what>`): each entry is loaded
// only when it runs, so `zetta bench --help` does not import every benchmark.
import { UsageError, type Command } from './command.js';

export interface SubcommandEntry {
  /** One line for the group's --help. */
  readonly summary: string;
  load(): Promise<Command>;
}

export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  /** The help text; `list` is the subcommands' lines, to place where it reads best. */
  help(list: string): string;
  /** What the help calls one entry, for the unknown-entry message: "benchmark", "subcommand". */
  readonly noun: string;
  /** Column the summaries start at in --help (default: the longest name). */
  readonly nameWidth?: number;
  readonly entries: Readonly<Record<string, SubcommandEntry>>;
}

/** A Command that dispatches its first argument to one of `group.entries`. */
export function commandGroup(group: CommandGroup): Command {
  const width = group.nameWidth ?? Math.max(...Object.keys(group.entries).map((k) => k.length));
  const help = () =>
    group.help(
      Object.entries(group.entries)
        .map(([name, e]) => `  ${name.padEnd(width)}  ${e.summary}`)
        .join('\n'),
    );
  return {
    name: group.name,
    summary: group.summary,
    get help() {
      return help();
    },
    async run(argv) {
      const [what, ...rest] = argv;
      if (what === undefined || what === '--help' || what === '-h') {
        process.stdout.write(`${help()}\n`);
        return what === undefined ? 2 : 0;
      }
      const entry = group.entries[what];
      if (!entry) throw new UsageError(`unknown ${group.noun} "${what}"; one of: ${Object.keys(group.entries).join(', ')}`);
      return (await entry.load()).run(rest);
    },
  };
}
