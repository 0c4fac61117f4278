// `zetta skills` end to end, through bin/zetta.js and the built dist/, on real campaign roots (synthetic
// episodes, a candidate that is promoted) and real SQLite files. Bad input: one line, exit code 2.
import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';
import { packagePath } from '../../util/package-root.js';
import { campaign, tmp } from './campaign.js';

const run = promisify(execFile);

const zetta = (...args: string[]) => runZetta(['skills', ...args]);

const lastJson = (s: string) => JSON.parse(s.trim().split('\n').at(-1)!);
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter((l) => l !== '');

/** One line on stderr matching `message`, exit code 2, no stack trace. */
function refused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

let promoted: string;
let nothing: string;

beforeAll(async () => {
  promoted = tmp();
  nothing = tmp();
  await campaign(promoted, true);
  await campaign(nothing, false);
}, 60_000);

describe('zetta skills', () => {
  it('adds a campaign’s promotion as a pending skill, then approves and retires it, audited', async () => {
    const db = join(tmp(), 'skills.db');
    const added = await zetta('add', promoted, '--db', db, '--as', 'ada', '--json');
    expect(added.code).toBe(0);
    const { id, state, created, name } = lastJson(added.stdout);
    expect({ state, created, name }).toEqual({ state: 'pending', created: true, name: 'stall@spatial/left_cube_in_bowl' });
    expect(lastJson((await zetta('add', promoted, '--db', db, '--json')).stdout)).toMatchObject({ id, created: false });
    expect(lastJson((await zetta('list', '--db', db, '--json')).stdout).skills).toEqual([
      expect.objectContaining({ id, state: 'pending', world: 'tabletop', suite: 'spatial' }),
    ]);
    const approved = await zetta('approve', id, '--as', 'bob', '--reason', 'held-out 0 → 8 of 8', '--db', db);
    expect(approved.stdout).toContain(`skill ${id} (${name}): pending → active`);
    const shown = await zetta('show', id, '--db', db);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/guard: world tabletop, suite spatial/);
    expect(shown.stdout).toMatch(/gen 1 g1-k\d+: promoted at heldout/);
    expect(shown.stdout).toMatch(/held-out 0 → 8 of 8, p = 0\.00391/);
    expect(shown.stdout).toMatch(/bob: pending → active \(held-out 0 → 8 of 8\)/);
    expect(
      lastJson((await zetta('retire', id.slice(0, 6), '--as', 'cy', '--reason', 'superseded', '--db', db, '--json')).stdout),
    ).toMatchObject({ id, from: 'active', to: 'retired' });
    const json = lastJson((await zetta('show', id, '--db', db, '--json')).stdout);
    expect(json.audit.map((r: { actor: string; to_state: string }) => `${r.actor}:${r.to_state}`)).toEqual([
      'ada:pending',
      'bob:active',
      'cy:retired',
    ]);
    expect(json.audit[0].reason).toMatch(/^promoted by campaign [0-9a-f]{12}$/);
    expect(json.skill.content.evidence.decisions.length).toBeGreaterThan(0);
  }, 60_000);

  it('has --help on every subcommand', async () => {
    const top = await zetta('--help');
    expect(top.code).toBe(0);
    for (const sub of ['list', 'show', 'add', 'approve', 'reject', 'retire']) {
      expect(top.stdout).toContain(`  ${sub}`);
      const r = await zetta(sub, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: zetta skills ${sub}`));
      expect(r.stdout).toContain('--db FILE');
    }
    const evolve = await run(process.execPath, [packagePath('bin', 'zetta.js'), 'evolve', '--help']);
    expect(evolve.stdout).toContain('--promote-to DB');
  }, 60_000);
});

describe('zetta skills with bad input', () => {
  it('an unknown id and a forbidden transition', async () => {
    const db = join(tmp(), 'skills.db');
    const { id } = lastJson((await zetta('add', promoted, '--db', db, '--json')).stdout);
    refused(await zetta('show', 'ffffffffffff', '--db', db), /no skill "ffffffffffff" in /);
    expect((await zetta('reject', id, '--as', 'bob', '--reason', 'no', '--db', db)).code).toBe(0);
    refused(await zetta('approve', id, '--as', 'bob', '--reason', 'yes', '--db', db), /cannot approve skill [0-9a-f]{12}: it is rejected/);
    const usage = await zetta('approve', id, '--db', db);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--as and --reason are required');
  }, 60_000);

  it('a campaign that promoted nothing, and one whose promoted bundle was changed', async () => {
    const db = join(tmp(), 'skills.db');
    refused(await zetta('add', nothing, '--db', db), /campaign [0-9a-f]{12} .* promoted nothing/);
    const root = tmp();
    await campaign(root, true);
    writeFileSync(join(root, 'promoted/gen-1/recoveries.json'), '{"programs":[],"version":1}\n');
    refused(await zetta('add', root, '--db', db), /recoveries\.json: content hash [0-9a-f]{12} differs from the recorded/);
  }, 60_000);

  it('a corrupted file, a foreign database, and a stored bundle whose hash does not match', async () => {
    const dir = tmp();
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, but long enough to look like a file with a header');
    refused(await zetta('list', '--db', junk), /junk\.db is not a skill store or is damaged/);
    const foreign = join(dir, 'foreign.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (x TEXT)');
    other.close();
    refused(await zetta('list', '--db', foreign), /foreign\.db is not a Zetta skill store/);
    expect(readFileSync(foreign).length).toBeGreaterThan(0);
    const db = join(dir, 'skills.db');
    const { id } = lastJson((await zetta('add', promoted, '--db', db, '--json')).stdout);
    const raw = new Database(db);
    raw
      .prepare(
        "UPDATE blobs SET bytes = CAST('{}' AS BLOB) WHERE sha256 = (SELECT json_extract(content, '$.files.\"rules.json\"') FROM skills WHERE id = ?)",
      )
      .run(id);
    raw.close();
    refused(
      await zetta('show', id, '--db', db),
      /bundle file rules\.json hashes to [0-9a-f]{12}, not [0-9a-f]{12}; the store was modified/,
    );
  }, 60_000);
});
