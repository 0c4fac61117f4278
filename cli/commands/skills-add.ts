// `zetta skills add CAMPAIGN_DIR`: the bundle a finished campaign promoted becomes a pending skill.
import { resolve } from 'node:path';
import { promoteCampaign } from '../../skills/index.js';
import { forTerminal } from '../../skills/terminal-text.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { actor, db, reason } from '../flags/skills.js';
import { json } from '../flags/table.js';
import { defaultActor, readArgs } from './skills-args.js';

const FLAGS = {
  db,
  actor: actor.with({ defaultNote: '$USER' }),
  reason: reason.with({ defaultNote: '"promoted by campaign <id>"' }),
  json: json.with({ help: 'last line: {"id", "name", "state", "created", "campaign_id", "bundle_sha256"}' }),
};

const HELP = `usage: zetta skills add CAMPAIGN_DIR [--db FILE] [--as NAME] [--reason TEXT] [--json]

Takes the bundle a finished campaign promoted (its promoted/gen-<g>/ files, each checked against the
sha256 the campaign recorded), with the campaign's gate decisions and figures as evidence, and adds it
to the store as a pending skill. Adding the same promotion again changes nothing. A campaign that
promoted nothing, or has not finished, is refused.

${flagHelp(FLAGS)}`;

export const skillsAddCommand: Command = {
  name: 'skills add',
  summary: "a finished campaign's promoted bundle as a pending skill",
  help: HELP,
  async run(argv) {
    const a = readArgs(argv, FLAGS, 'CAMPAIGN_DIR');
    if (a === 'help') return printHelp(HELP);
    const r = await promoteCampaign(resolve(a.arg), a.flags.db, { actor: a.flags.actor ?? defaultActor(), reason: a.flags.reason ?? '' });
    printAdded(r, a.flags.json);
    return 0;
  },
};

export function printAdded(r: Awaited<ReturnType<typeof promoteCampaign>>, asJson: boolean): void {
  const s = r.skill;
  if (asJson) {
    printJsonLine({
      id: s.id,
      name: s.content.name,
      state: s.state,
      created: r.created,
      campaign_id: s.content.evidence.campaign_id,
      bundle_sha256: s.content.provenance.bundle_sha256,
    });
  } else {
    process.stdout.write(
      r.created
        ? `added pending skill ${s.id} (${forTerminal(s.content.name)})\n`
        : `skill ${s.id} (${forTerminal(s.content.name)}) is already in the store, ${s.state}\n`,
    );
  }
}
