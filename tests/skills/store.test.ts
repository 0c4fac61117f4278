// The skill store on real SQLite files: skills and their audit trail, content addressing, and the
// files it refuses (foreign, damaged, newer, tampered with).
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../skills/store/migrations.js';
import { APPLICATION_ID, SkillInputError, SkillStore, bundleFile, skillFromCampaign, verifyStore } from '../../skills/index.js';
import { campaign, tmp } from './campaign.js';
// @ts-expect-error: a plain .mjs fixture shared with the child processes
import { syntheticSkill } from '../fixtures/skills-content.mjs';

type Synthetic = { content: Parameters<SkillStore['add']>[0]; files: Parameters<SkillStore['add']>[1] };
const skill = (key: string): Synthetic => (syntheticSkill as (k: string) => Synthetic)(key);
const who = { actor: 'ada', reason: 'test' };
const dbFile = () => join(tmp(), 'skills.db');

describe('the skill store', () => {
  it('adds a pending skill, content-addressed, and moves it along its lifecycle with an audit row each', () => {
    const store = SkillStore.open(dbFile());
    const a = skill('a');
    const { id, created } = store.add(a.content, a.files, who);
    expect(created).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(store.add(a.content, a.files, { actor: 'bob', reason: 'again' })).toEqual({ id, created: false });
    expect(store.get(id).state).toBe('pending');
    expect(store.get(id.slice(0, 6)).id).toBe(id);
    expect(store.transition(id, 'approve', { actor: 'ada', reason: 'works' }).skill.state).toBe('active');
    expect(store.transition(id, 'retire', { actor: 'cy', reason: 'superseded' })).toMatchObject({
      from: 'active',
      skill: { state: 'retired' },
    });
    const audit = store.auditLog(id);
    expect(audit.map((r) => [r.actor, r.from_state, r.to_state, r.reason])).toEqual([
      ['ada', null, 'pending', 'test'],
      ['ada', 'pending', 'active', 'works'],
      ['cy', 'active', 'retired', 'superseded'],
    ]);
    expect(audit.every((r) => r.content_sha256.startsWith(id) && r.bundle_sha256 === a.content.provenance.bundle_sha256)).toBe(true);
    expect(
      store
        .bundle(id)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['manifest.json', 'recoveries.json', 'rules.json']);
    expect(verifyStore(store)).toEqual([]);
    store.close();
  });

  it('refuses a forbidden transition and an unknown id, changing nothing', () => {
    const store = SkillStore.open(dbFile());
    const { id } = store.add(skill('b').content, skill('b').files, who);
    store.transition(id, 'reject', who);
    expect(() => store.transition(id, 'approve', who)).toThrow(/cannot approve skill [0-9a-f]{12}: it is rejected/);
    expect(() => store.get('ffffffffffff')).toThrow(SkillInputError);
    expect(() => store.transition('nope', 'approve', who)).toThrow(/no skill "nope"/);
    expect(store.auditLog().length).toBe(2);
    store.close();
  });

  it('is a WAL-mode file with its application_id and schema version, reopened as it was', () => {
    const path = dbFile();
    const store = SkillStore.open(path);
    store.add(skill('c').content, skill('c').files, who);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
    const again = SkillStore.open(path);
    expect(again.list().map((s) => s.content.name)).toEqual(['c']);
    again.close();
  });

  it('keeps the audit log append-only and skill content immutable, in the database itself', () => {
    const store = SkillStore.open(dbFile());
    const { id } = store.add(skill('d').content, skill('d').files, who);
    expect(() => store.db.prepare('DELETE FROM audit').run()).toThrow(/append-only/);
    expect(() => store.db.prepare("UPDATE audit SET actor = 'eve'").run()).toThrow(/append-only/);
    expect(() => store.db.prepare("UPDATE skills SET content = '{}' WHERE id = ?").run(id)).toThrow(/immutable/);
    store.close();
  });

  it('refuses bundle files that do not match their hash, on the way in and on the way out', () => {
    const store = SkillStore.open(dbFile());
    const e = skill('e');
    const forged = e.files.map((f) => (f.name === 'rules.json' ? { ...f, bytes: Buffer.from('{"version":1,"rules":[]}\n') } : f));
    expect(() => store.add(e.content, forged, who)).toThrow(/bundle file rules\.json hashes to [0-9a-f]{12}, not the recorded/);
    const { id } = store.add(e.content, e.files, who);
    store.db.prepare('UPDATE blobs SET bytes = ? WHERE sha256 = ?').run(Buffer.from('tampered'), e.content.files['rules.json']);
    expect(() => store.bundle(id)).toThrow(/bundle file rules\.json hashes to [0-9a-f]{12}, not [0-9a-f]{12}; the store was modified/);
    store.close();
  });

  it('refuses a file that is not a database, a foreign database and a newer schema, writing nothing', () => {
    const junk = dbFile();
    writeFileSync(junk, 'this is not a database, just text that is long enough to have a header');
    expect(() => SkillStore.open(junk)).toThrow(/is not a skill store or is damaged/);
    const foreign = dbFile();
    const other = new Database(foreign);
    other.exec('CREATE TABLE t (x)');
    other.close();
    expect(() => SkillStore.open(foreign)).toThrow(/is not a Zetta skill store \(a foreign SQLite database, application_id 0\)/);
    const newer = dbFile();
    SkillStore.open(newer).close();
    const raw = new Database(newer);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => SkillStore.open(newer)).toThrow(/schema 99 is newer/);
  });

  it('refuses a damaged store', () => {
    const path = dbFile();
    const store = SkillStore.open(path);
    for (const k of ['f', 'g', 'h']) store.add(skill(k).content, skill(k).files, who);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.close();
    // garbage over every page after the header page: the schema and the rows
    const file = readFileSync(path);
    Buffer.alloc(file.length - 4096, 0xa5).copy(file, 4096);
    writeFileSync(path, file);
    expect(() => {
      const s = SkillStore.open(path);
      try {
        s.list();
      } finally {
        s.close();
      }
    }).toThrow(SkillInputError);
  });
});

describe('a campaign as a skill', () => {
  it('takes the promoted bundle with every gate decision, the figures and the hashes', async () => {
    const root = tmp();
    const summary = await campaign(root, true);
    const { content, files } = await skillFromCampaign(root);
    expect(content.provenance.bundle_sha256).toBe(summary.bundle_sha256);
    expect(content.evidence.campaign_id).toBe(summary.campaign_id);
    expect(content.evidence.decisions.map((d) => d.decision)).toEqual(summary.decisions.map((d) => d.decision));
    expect(content.evidence.heldout).toMatchObject({ parent_successes: 0, candidate_successes: 8, episodes: 8 });
    expect(content.evidence.confirmation).toMatchObject({ candidate_successes: 4, episodes: 4 });
    expect(content.evidence.shadow).toMatchObject({ triggers: expect.any(Number), false_alarms: 0 });
    expect(content.guard).toMatchObject({ world: 'tabletop', tags: { suite: 'spatial', source_task: 'spatial/left_cube_in_bowl' } });
    expect(content.guard.features).toContain('robot.eef_z');
    expect(files.map((f) => f.name)).toEqual(['manifest.json', 'rules.json', 'recoveries.json']);
    expect(Object.keys(content.provenance.rollouts)).toContain('candidate_heldout');
    expect(bundleFile('x', files[1]!.bytes).sha256).toBe(content.files['rules.json']);
    // The change against the campaign's base ("none": every rule and program is new), nothing else.
    expect(content.changes.base.name).toBe('none');
    expect(content.changes.rules.added.map((r) => r.id)).toEqual([expect.stringMatching(/^evo\.g1-k\d+\.stall$/)]);
    expect(content.changes.programs.added).toHaveLength(1);
    expect([
      content.changes.rules.replaced,
      content.changes.rules.removed,
      content.changes.programs.replaced,
      content.changes.programs.removed,
    ]).toEqual([[], [], [], []]);
  });

  it('refuses a campaign that promoted nothing, and a promoted bundle changed since', async () => {
    const none = tmp();
    await campaign(none, false);
    await expect(skillFromCampaign(none)).rejects.toThrow(/promoted nothing/);
    const root = tmp();
    await campaign(root, true);
    const rules = join(root, 'promoted/gen-1/rules.json');
    writeFileSync(rules, '{"rules":[],"version":1}\n');
    await expect(skillFromCampaign(root)).rejects.toThrow(
      /promoted\/gen-1\/rules\.json: content hash [0-9a-f]{12} differs from the recorded/,
    );
    await expect(skillFromCampaign(tmp())).rejects.toThrow(/is not a campaign root/);
  });
});
