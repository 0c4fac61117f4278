// Flags of `zetta skills` and of `zetta evolve --promote-to`: the skill store, and who acts and why
// (both recorded in the store's audit log).
import { MAX_PORT } from '../../util/tcp-port.js';
import { bool, int, text } from './flag.js';

export const DEFAULT_SKILL_DB = 'runs/skills.db';

export const db = text('db', { metavar: 'FILE', help: 'the skill store (a SQLite file; created when missing)' }).default(DEFAULT_SKILL_DB);

/** The store of a command that reads or moves what is there: never created (a mistyped path is refused). */
export const existingDb = db.with({ help: 'the skill store (a SQLite file; it must exist)' });

/** The store `--skills active` loads from (not created: a run reads skills, it does not make them). */
export const skillsDb = text('skills-db', { metavar: 'FILE', help: 'the skill store --skills active reads' }).default(DEFAULT_SKILL_DB);

/** `zetta run`: approve the run's promoted skill as the operator `auto`, or stop for an approver. */
export const autoApprove = bool(
  'auto-approve',
  'approve the skill the campaign promoted as the operator `auto` (in the\naudit log) instead of stopping for an approver in the console',
);

/** `zetta run --resume DIR`: a stopped or interrupted run goes on where it stopped. */
export const resume = text('resume', {
  metavar: 'DIR',
  help: "a stopped or interrupted run's folder: its finished stages are kept\n(with the settings it started with), the rest run",
});

export const actor = text('as', { metavar: 'NAME', help: 'who does it (recorded in the audit log)' });

export const reason = text('reason', { metavar: 'TEXT', help: 'why (recorded in the audit log)' });

export const promoteTo = text('promote-to', {
  metavar: 'DB',
  help: 'when the campaign promoted a bundle, add it to this skill store as a\npending skill (as zetta skills add does)',
});

/** `zetta skills transfer`: the tasks the skills came from, and the untouched tasks they are measured on. */
export const sources = text('source', {
  metavar: 'a,b',
  help: 'the tasks whose campaigns promoted the skills (their active skills are loaded)',
}).required('--source a,b is required: the tasks the skills came from');
export const targets = text('targets', { metavar: 'a,b', help: 'tasks no campaign used, where the skills are measured' }).required(
  '--targets a,b is required: where transfer is measured',
);

/** `zetta console`: where it listens, what it shows, and the tokens it accepts. */
export const runsDir = text('runs', { metavar: 'DIR', help: 'the folder whose campaigns, runs and episodes the console shows' }).default(
  'runs',
);
export const port = int('port', { metavar: 'P', min: 0, max: MAX_PORT, help: 'the port to listen on (0: any free port)' }).default(8787);
export const host = text('host', { metavar: 'H', help: 'the address to listen on; another than 127.0.0.1 exposes the console' }).default(
  '127.0.0.1',
);
export const tokenName = text('name', { metavar: 'N', help: 'who the token is for (recorded as the actor of every approval)' }).required(
  '--name N is required',
);
export const role = text('role', {
  metavar: 'viewer|approver',
  help: 'viewer reads; approver also approves, rejects and retires skills',
}).required('--role viewer|approver is required');
