// `zetta skills <what>`: the skill library (skills/): list, show, add a campaign's promotion, and the
// approval workflow (approve, reject, retire), reach trials and transfer. Each subcommand takes --help, --db and --json.
import { commandGroup, type SubcommandEntry } from '../command-group.js';

const SUBCOMMANDS: Record<string, SubcommandEntry> = {
  list: { summary: 'every skill with its state', load: async () => (await import('./skills-view.js')).skillsListCommand },
  show: {
    summary: 'one skill: guard, evidence, provenance, bundle files and audit trail',
    load: async () => (await import('./skills-view.js')).skillsShowCommand,
  },
  add: {
    summary: "a finished campaign's promoted bundle as a pending skill",
    load: async () => (await import('./skills-add.js')).skillsAddCommand,
  },
  approve: {
    summary: 'pending → active (needs --as and --reason)',
    load: async () => (await import('./skills-transition.js')).transitionCommand('approve'),
  },
  reject: {
    summary: 'pending → rejected (needs --as and --reason)',
    load: async () => (await import('./skills-transition.js')).transitionCommand('reject'),
  },
  retire: {
    summary: 'active → retired (needs --as and --reason)',
    load: async () => (await import('./skills-transition.js')).transitionCommand('retire'),
  },
  reach: {
    summary: 'a reach trial: the tasks a skill helps on, recorded in the store',
    load: async () => (await import('./skills-reach.js')).skillsReachCommand,
  },
  transfer: {
    summary: 'skills from source tasks on target tasks no campaign used, three arms with and without',
    load: async () => (await import('./skills-transfer.js')).skillsTransferCommand,
  },
};

export const skillsCommand = commandGroup({
  name: 'skills',
  summary: 'the skill library: add a campaign’s promotion, list, show, approve, reject, retire, reach, transfer',
  noun: 'subcommand',
  nameWidth: 8,
  entries: SUBCOMMANDS,
  help: (list) =>
    [
      'usage: zetta skills <what> [ID|CAMPAIGN_DIR] [flags]',
      '',
      'The skill library: bundles promoted by evolution campaigns, with their guard, evidence and',
      'provenance, in a SQLite store (default runs/skills.db). A skill is pending until an approver',
      'makes it active or rejects it; an active skill can be retired. Every transition is audited.',
      'Active skills load into a run with --skills active (zetta eval, evolve) on the tasks of their suite,',
      'or where a reach trial found they help; transfer measures them on tasks no campaign used.',
      '',
      'subcommands:',
      list,
      '',
      'zetta skills <what> --help for its flags.',
    ].join('\n'),
});
