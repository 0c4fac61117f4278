// `zetta skills list` and `zetta skills show ID`: what the store holds. show also checks every
// bundle file against its hash, so a damaged store is reported here rather than at load time.
import type { EntryChanges, SkillChanges } from '../../skills/changes.js';
import { SkillStore, type AuditRow, type SkillRecord } from '../../skills/index.js';
import { forTerminal, forTerminalDeep } from '../../skills/terminal-text.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { existingDb as db } from '../flags/skills.js';
import { json } from '../flags/table.js';
import { readArgs } from './skills-args.js';

/** Reading a store never makes one: a mistyped --db is refused (one line, exit 2). */
const EXISTING = { create: false } as const;

const LIST_FLAGS = {
  db,
  json: json.with({
    help: 'last line: {"skills": [{"id", "name", "state", "world", "suite", "campaign_id", "created_at", "updated_at"}]}',
  }),
};
const SHOW_FLAGS = { db, json: json.with({ help: 'last line: {"skill": {id, state, content, …}, "audit": [rows]}' }) };

const LIST_HELP = `usage: zetta skills list [--db FILE] [--json]

Every skill in the store, oldest first: id, state, name, world and suite, the campaign it came from.

${flagHelp(LIST_FLAGS)}`;

const SHOW_HELP = `usage: zetta skills show ID [--db FILE] [--json]

One skill (its id, or a unique prefix of 4 or more digits): applicability guard, evidence (every gate
decision with its figures, held-out and confirmation), provenance, bundle files (each checked against
its sha256) and the audit trail of its transitions.

${flagHelp(SHOW_FLAGS)}`;

function listRow(s: SkillRecord) {
  const c = s.content;
  return {
    id: s.id,
    name: c.name,
    state: s.state,
    world: c.guard.world,
    suite: c.guard.tags.suite,
    campaign_id: c.evidence.campaign_id,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export const skillsListCommand: Command = {
  name: 'skills list',
  summary: 'every skill with its state',
  help: LIST_HELP,
  async run(argv) {
    const f = readFlags(argv, LIST_FLAGS);
    if (f === 'help') return printHelp(LIST_HELP);
    const rows = SkillStore.using(f.db, (store) => store.list().map(listRow), EXISTING);
    if (f.json) printJsonLine({ skills: rows });
    else if (rows.length === 0) process.stdout.write(`no skills in ${forTerminal(f.db)}\n`);
    else
      for (const r of rows.map((row) => forTerminalDeep(row)))
        process.stdout.write(`${r.id}  ${r.state.padEnd(8)}  ${r.name}  (${r.world}, ${r.suite}; campaign ${r.campaign_id})\n`);
    return 0;
  },
};

export const skillsShowCommand: Command = {
  name: 'skills show',
  summary: 'one skill',
  help: SHOW_HELP,
  async run(argv) {
    const a = readArgs(argv, SHOW_FLAGS, 'the skill ID');
    if (a === 'help') return printHelp(SHOW_HELP);
    const { skill, audit, files } = SkillStore.using(
      a.flags.db,
      (store) => {
        const skill = store.get(a.arg);
        return { skill, files: store.bundle(skill.id), audit: store.auditLog(skill.id) };
      },
      EXISTING,
    );
    if (a.flags.json) printJsonLine({ skill, audit });
    // every stored string is shown with its control characters escaped (a reason could hold ESC … BEL)
    else
      process.stdout.write(
        `${describe(
          forTerminalDeep(skill),
          files.map((x) => `${forTerminal(x.name)} ${x.sha256.slice(0, 12)} (${x.bytes.length} bytes)`),
          forTerminalDeep(audit),
        )}\n`,
      );
    return 0;
  },
};

function describe(s: SkillRecord, files: readonly string[], audit: readonly AuditRow[]): string {
  const c = s.content;
  const e = c.evidence;
  const decisions = e.decisions.map((d) => `    gen ${d.generation} ${d.candidate}: ${d.decision} at ${d.stage} (${d.reason})`);
  return [
    `skill ${s.id}  ${s.state}  ${c.name}`,
    `  ${c.description}`,
    `guard: world ${c.guard.world}, suite ${c.guard.tags.suite} (from ${c.guard.tags.source_task}); reads ${c.guard.features.join(', ')}${c.guard.privileged ? ' (privileged: loads only where the run authorizes it)' : ''}`,
    `changes to ${c.changes.base.name} (${c.changes.base.sha256.slice(0, 12)}): ${changeList(c.changes)}`,
    `evidence: campaign ${e.campaign_id}, candidate ${e.promoted_candidate} (generation ${e.generation})`,
    ...decisions,
    `  held-out ${figures(e.heldout)}; confirmation ${figures(e.confirmation)}`,
    `  shadow replay: ${e.shadow ? `${e.shadow.triggers}/${e.shadow.targeted_failures} targeted failures triggered, ${e.shadow.false_alarms}/${e.shadow.successes} false alarms` : 'not recorded'}`,
    `provenance: ${c.provenance.code_version}; bundle ${c.provenance.bundle_sha256.slice(0, 12)}, manifest ${c.provenance.manifest_sha256.slice(0, 12)}; content ${s.content_sha256}`,
    `files: ${files.join(', ')}`,
    'audit:',
    ...audit.map((r) => `  #${r.seq} ${r.at} ${r.actor}: ${r.from_state ?? '(new)'} → ${r.to_state} (${r.reason})`),
  ].join('\n');
}

/** `rule +a, rule ~b, program −c, option ~d`: added, replaced and removed entries, options set. */
function changeList(c: SkillChanges): string {
  const list = (kind: string, e: EntryChanges) => [
    ...e.added.map((x) => `${kind} +${x.id}`),
    ...e.replaced.map((x) => `${kind} ~${x.id}`),
    ...e.removed.map((id) => `${kind} −${id}`),
  ];
  const options = Object.entries(c.options ?? {}).map(([key, value]) => `option ${value === null ? '−' : '~'}${key}`);
  const all = [...list('rule', c.rules), ...list('program', c.programs), ...options];
  return all.length ? all.join(', ') : 'none';
}

function figures(x: unknown): string {
  const p = x as { parent_successes?: number; candidate_successes?: number; episodes?: number; p_value?: number | null } | null;
  if (!p) return 'none';
  return `${p.parent_successes} → ${p.candidate_successes} of ${p.episodes}${typeof p.p_value === 'number' ? `, p = ${p.p_value.toPrecision(3)}` : ''}`;
}
