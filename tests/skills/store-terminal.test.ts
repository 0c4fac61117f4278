// `zetta skills` facing a careless or hostile user, through bin/zetta.js and the built dist/: a
// mistyped --db for a command that reads or moves what is there is refused (one line, exit 2) and
// no folder or store is made; a rejection reason holding terminal escapes (ESC ] 0 ; … BEL, which
// retitles a terminal) and a newline (which could forge an audit line) is shown escaped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';
import { campaign, tmp } from './campaign.js';

const zetta = (...args: string[]) => runZetta(['skills', ...args]);
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter((l) => l !== '');

let promoted: string;

beforeAll(async () => {
  promoted = tmp();
  await campaign(promoted, true);
}, 60_000);

describe('a store that is not there', () => {
  it('is refused by list, show and the moves, and nothing is created', async () => {
    const typo = join(tmp(), 'rnus', 'skils.db');
    for (const args of [
      ['list'],
      ['list', '--json'],
      ['show', 'abcd1234'],
      ['approve', 'abcd1234', '--as', 'ada', '--reason', 'ok'],
      ['reject', 'abcd1234', '--as', 'ada', '--reason', 'no'],
      ['retire', 'abcd1234', '--as', 'ada', '--reason', 'old'],
    ]) {
      const r = await zetta(...args, '--db', typo);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(lines(r.stderr), args.join(' ')).toEqual([expect.stringMatching(/skils\.db: no skill store there/)]);
      expect(existsSync(join(typo, '..')), args.join(' ')).toBe(false);
    }
  }, 60_000);
});

describe('stored text on a terminal', () => {
  it('shows a rejection reason with its escapes and newline escaped, and keeps it intact in JSON', async () => {
    const db = join(tmp(), 'skills.db');
    const added = await zetta('add', promoted, '--db', db, '--json');
    expect(added.code).toBe(0);
    const { id } = JSON.parse(lines(added.stdout).at(-1)!) as { id: string };
    const reason = '\u001b]0;owned\u0007 looks fine\n  #9 forged: pending → active (x)\u001b[2J';
    expect((await zetta('reject', id, '--as', 'mallory', '--reason', reason, '--db', db)).code).toBe(0);

    const shown = await zetta('show', id, '--db', db);
    expect(shown.code).toBe(0);
    const controls = [...shown.stdout].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'));
    expect(controls).toEqual([]);
    expect(shown.stdout).toContain('(\\x1b]0;owned\\x07 looks fine\\x0a  #9 forged: pending → active (x)\\x1b[2J)');
    expect(lines(shown.stdout).filter((l) => l.includes('→ rejected'))).toHaveLength(1);
    expect(lines(shown.stdout).some((l) => l.startsWith('  #9'))).toBe(false);

    const json = await zetta('show', id, '--db', db, '--json');
    const audit = (JSON.parse(lines(json.stdout).at(-1)!) as { audit: { reason: string }[] }).audit;
    expect(audit.at(-1)!.reason).toBe(reason);
  }, 60_000);
});
