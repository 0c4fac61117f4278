// `zetta skills approve|reject|retire ID --as NAME --reason TEXT`: one lifecycle step, audited.
import { SkillStore, type SkillAction } from '../../skills/index.js';
import { forTerminal } from '../../skills/terminal-text.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { actor, existingDb as db, reason } from '../flags/skills.js';
import { json } from '../flags/table.js';
import { readArgs } from './skills-args.js';

const MOVES: Record<SkillAction, string> = { approve: 'pending → active', reject: 'pending → rejected', retire: 'active → retired' };

export function transitionCommand(action: SkillAction): Command {
  const required = '--as and --reason are required';
  const flags = {
    db,
    actor: actor.required(required),
    reason: reason.required(required),
    json: json.with({ help: 'last line: {"id", "name", "from", "to"}' }),
  };
  const help = `usage: zetta skills ${action} ID --as NAME --reason TEXT [--db FILE] [--json]

Moves a skill ${MOVES[action]}, in one transaction with its audit row (who, when, why, the hashes).
Any other move is refused: the lifecycle is pending → active | rejected, active → retired.

${flagHelp(flags)}`;
  return {
    name: `skills ${action}`,
    summary: MOVES[action],
    help,
    async run(argv) {
      const a = readArgs(argv, flags, 'the skill ID');
      if (a === 'help') return printHelp(help);
      // a move needs a skill that is there: a mistyped --db is refused, not made into an empty store
      const { from, skill: s } = SkillStore.using(
        a.flags.db,
        (store) => store.transition(a.arg, action, { actor: a.flags.actor, reason: a.flags.reason }),
        { create: false },
      );
      if (a.flags.json) printJsonLine({ id: s.id, name: s.content.name, from, to: s.state });
      else process.stdout.write(`skill ${s.id} (${forTerminal(s.content.name)}): ${from} → ${s.state}\n`);
      return 0;
    },
  };
}
