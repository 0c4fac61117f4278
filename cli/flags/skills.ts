// Flags of `zetta skills` and of `zetta evolve --promote-to`: the skill store, and who acts and why
// (both recorded in the store's audit log).
import { text } from './flag.js';

export const DEFAULT_SKILL_DB = 'runs/skills.db';

export const db = text('db', { metavar: 'FILE', help: 'the skill store (a SQLite file; created when missing)' }).default(DEFAULT_SKILL_DB);

export const actor = text('as', { metavar: 'NAME', help: 'who does it (recorded in the audit log)' });

export const reason = text('reason', { metavar: 'TEXT', help: 'why (recorded in the audit log)' });

export const promoteTo = text('promote-to', {
  metavar: 'DB',
  help: 'when the campaign promoted a bundle, add it to this skill store as a\npending skill (as zetta skills add does)',
});
