// `zetta skills <what>`: the skill library (skills/): list, show, add a campaign's promotion, and the
// approval workflow (approve, reject, retire). Each subcommand takes --help, --db and --json.
import { UsageError, type Command } from '../command.js';

const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  list: { summary: 'every skill with its state', load: async () => (await import('./skills-view.js')).skillsListCommand },
  show: { summary: "one skill: guard, evidence, provenance, bundle files and audit trail", load: async () => (await import('./skills-view.js')).skillsShowCommand },
  add: { summary: "a finished campaign's promoted bundle as a pending skill", load: async () => (await import('./skills-add.js')).skillsAddCommand },
  approve: { summary: 'pending → active (needs --as and --reason)', load: async () => (await import('./skills-transition.js')).transitionCommand('approve') },
  reject: { summary: 'pending → rejected (needs --as and --reason)', load: async () => (await import('./skills-transition.js')).transitionCommand('reject') },
  retire: { summary: 'active → retired (needs --as and --reason)', load: async () => (await import('./skills-transition.js')).transitionCommand('retire') },
};

function help(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(8)}  ${s.summary}`);
  return [
    'usage: zetta skills <what> [ID|CAMPAIGN_DIR] [flags]',
    '',
    'The skill library: bundles promoted by evolution campaigns, with their guard, evidence and',
    'provenance, in a SQLite store (default runs/skills.db). A skill is pending until an approver',
    'makes it active or rejects it; an active skill can be retired. Every transition is audited.',
    '',
    'subcommands:',
    ...lines,
    '',
    'zetta skills <what> --help for its flags.',
  ].join('\n');
}

export const skillsCommand: Command = {
  name: 'skills',
  summary: 'the skill library: add a campaign’s promotion, list, show, approve, reject, retire',
  get help() {
    return help();
  },
  async run(argv) {
    const [what, ...rest] = argv;
    if (what === undefined || what === '--help' || what === '-h') {
      process.stdout.write(`${help()}\n`);
      return what === undefined ? 2 : 0;
    }
    const sub = SUBCOMMANDS[what];
    if (!sub) throw new UsageError(`unknown subcommand "${what}"; one of: ${Object.keys(SUBCOMMANDS).join(', ')}`);
    return (await sub.load()).run(rest);
  },
};
