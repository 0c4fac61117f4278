// The durable skill library: skills (immutable content, mutable state), their bundle files stored
// by hash in the same file so a skill is self-contained, and an append-only audit log. Every write
// is one IMMEDIATE transaction: the state change and its audit row commit together or not at all,
// and concurrent processes serialize on SQLite's write lock (waiting up to the busy timeout).
import { canonicalJson, sha256 } from '../../evolution/campaign/artifacts.js';
import { SkillInputError } from '../errors.js';
import { nextState, type SkillAction, type SkillState } from '../lifecycle.js';
import type { Reach, ReachEvidence, ReachVerdict } from '../reach.js';
import { contentSha, skillId, type BundleFile, type SkillContent } from '../skill.js';
import { openDatabase, type Db, type OpenOptions } from './open.js';

export interface SkillRecord {
  readonly id: string;
  readonly content_sha256: string;
  readonly state: SkillState;
  readonly created_at: string;
  readonly updated_at: string;
  readonly content: SkillContent;
}

export interface AuditRow {
  readonly seq: number;
  readonly skill_id: string;
  readonly at: string;
  readonly actor: string;
  readonly reason: string;
  readonly from_state: SkillState | null;
  readonly to_state: SkillState;
  readonly content_sha256: string;
  readonly bundle_sha256: string;
}

/** Who does something to the store, and why: both go into the audit log. */
export interface Actor {
  readonly actor: string;
  readonly reason: string;
}

interface SkillRow {
  id: string;
  content_sha256: string;
  state: SkillState;
  created_at: string;
  updated_at: string;
  content: string;
}

export class SkillStore {
  private constructor(
    readonly path: string,
    readonly db: Db,
  ) {}

  /** Opens the store at `path`, creating it when missing unless `o.create` is false. */
  static open(path: string, o: OpenOptions = {}): SkillStore {
    return new SkillStore(path, openDatabase(path, o));
  }

  /** Opens the store, runs `f` with it, and closes it whatever `f` does. */
  static using<T>(path: string, f: (store: SkillStore) => T, o: OpenOptions = {}): T {
    const store = SkillStore.open(path, o);
    try {
      return f(store);
    } finally {
      store.close();
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * A new pending skill from its content and bundle files. Adding the same content again changes
   * nothing and returns the existing skill (`created: false`), whatever state it is in now.
   */
  add(content: SkillContent, files: readonly BundleFile[], who: Actor): { id: string; created: boolean } {
    checkFiles(content, files);
    const text = canonicalJson(content);
    const sha = contentSha(content);
    const id = skillId(sha);
    const now = new Date().toISOString();
    const created = this.db
      .transaction(() => {
        const insertBlob = this.db.prepare('INSERT OR IGNORE INTO blobs (sha256, bytes) VALUES (?, ?)');
        for (const f of files) insertBlob.run(f.sha256, f.bytes);
        const existing = this.db.prepare('SELECT content_sha256 FROM skills WHERE id = ?').get(id) as
          | { content_sha256: string }
          | undefined;
        if (existing) {
          if (existing.content_sha256 !== sha) throw new Error(`skill id ${id} is taken by other content (a sha256 prefix collision)`);
          return false;
        }
        this.db
          .prepare('INSERT INTO skills (id, content_sha256, name, content, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id, sha, content.name, text, 'pending', now, now);
        this.audit(id, now, who, null, 'pending', sha, content.provenance.bundle_sha256);
        return true;
      })
      .immediate();
    return { id, created };
  }

  /** The skill an id (or a unique prefix of one) names; an unknown id is an input error. */
  get(id: string): SkillRecord {
    return toRecord(this.row(id));
  }

  list(): SkillRecord[] {
    return (this.db.prepare('SELECT * FROM skills ORDER BY created_at, id').all() as SkillRow[]).map(toRecord);
  }

  /** Moves a skill along its lifecycle; the state and its audit row commit in one transaction. */
  transition(id: string, action: SkillAction, who: Actor): { from: SkillState; skill: SkillRecord } {
    return this.db
      .transaction(() => {
        const row = this.row(id);
        const to = nextState(row.id, row.state, action);
        const now = new Date().toISOString();
        this.db.prepare('UPDATE skills SET state = ?, updated_at = ? WHERE id = ? AND state = ?').run(to, now, row.id, row.state);
        const record = toRecord({ ...row, state: to, updated_at: now });
        this.audit(row.id, now, who, row.state, to, row.content_sha256, record.content.provenance.bundle_sha256);
        return { from: row.state, skill: record };
      })
      .immediate();
  }

  /** Records a reach trial's verdicts for one skill, all in one transaction (append-only: a later trial of a task overrides). */
  recordReach(id: string, verdicts: readonly ReachVerdict[], who: Actor): void {
    this.db
      .transaction(() => {
        const skill = this.row(id).id;
        const now = new Date().toISOString();
        const insert = this.db.prepare(
          'INSERT INTO reach_trials (skill_id, task, loads, evidence, at, actor, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        for (const v of verdicts) insert.run(skill, v.task, v.loads ? 1 : 0, canonicalJson(v.evidence), now, who.actor, v.reason);
      })
      .immediate();
  }

  /** A skill's latest reach verdict per task it was tried on. */
  reach(id: string): Reach {
    const rows = this.db
      .prepare('SELECT task, loads, evidence, reason FROM reach_trials WHERE skill_id = ? ORDER BY seq')
      .all(this.row(id).id) as { task: string; loads: number; evidence: string; reason: string }[];
    return new Map(
      rows.map((r) => [
        r.task,
        { task: r.task, loads: r.loads === 1, reason: r.reason, evidence: JSON.parse(r.evidence) as ReachEvidence },
      ]),
    );
  }

  /** The audit log, oldest first; of one skill when `id` is given. */
  auditLog(id?: string): AuditRow[] {
    if (id === undefined) return this.db.prepare('SELECT * FROM audit ORDER BY seq').all() as AuditRow[];
    return this.db.prepare('SELECT * FROM audit WHERE skill_id = ? ORDER BY seq').all(this.row(id).id) as AuditRow[];
  }

  /** A skill's bundle files, each checked against its hash: a damaged file is refused, named. */
  bundle(id: string): BundleFile[] {
    const skill = this.get(id);
    return Object.entries(skill.content.files).map(([name, sha]) => {
      const row = this.db.prepare('SELECT bytes FROM blobs WHERE sha256 = ?').get(sha) as { bytes: Buffer } | undefined;
      if (!row) throw new SkillInputError(`skill ${skill.id}: bundle file ${name} (${sha.slice(0, 12)}) is missing from ${this.path}`);
      const actual = sha256(row.bytes);
      if (actual !== sha)
        throw new SkillInputError(
          `skill ${skill.id}: bundle file ${name} hashes to ${actual.slice(0, 12)}, not ${sha.slice(0, 12)}; the store was modified`,
        );
      return { name, bytes: row.bytes, sha256: sha };
    });
  }

  private row(id: string): SkillRow {
    // a unique prefix of 4 or more hex digits names a skill too (ids are hex, so LIKE is safe)
    const prefix = /^[0-9a-f]{4,}$/.test(id) ? `${id}%` : id;
    const rows = this.db.prepare('SELECT * FROM skills WHERE id = ? OR id LIKE ? LIMIT 2').all(id, prefix) as SkillRow[];
    const exact = rows.find((r) => r.id === id);
    if (exact) return exact;
    if (rows.length === 1) return rows[0]!;
    if (rows.length > 1) throw new SkillInputError(`"${id}" names more than one skill in ${this.path}; give more of the id`);
    throw new SkillInputError(`no skill "${id}" in ${this.path} (zetta skills list shows them)`);
  }

  private audit(
    id: string,
    at: string,
    who: Actor,
    from: SkillState | null,
    to: SkillState,
    contentSha256: string,
    bundleSha256: string,
  ): void {
    this.db
      .prepare(
        'INSERT INTO audit (skill_id, at, actor, reason, from_state, to_state, content_sha256, bundle_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, at, who.actor, who.reason, from, to, contentSha256, bundleSha256);
  }
}

/** Every file the content names is given, and hashes to what it names. */
function checkFiles(content: SkillContent, files: readonly BundleFile[]): void {
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const [name, sha] of Object.entries(content.files)) {
    const f = byName.get(name);
    if (!f) throw new SkillInputError(`bundle file ${name} is missing`);
    const actual = sha256(f.bytes);
    if (actual !== sha || f.sha256 !== sha)
      throw new SkillInputError(`bundle file ${name} hashes to ${actual.slice(0, 12)}, not the recorded ${sha.slice(0, 12)}`);
  }
}

/** A row as a record; content whose hash does not match its text is refused (a damaged store). */
function toRecord(row: SkillRow): SkillRecord {
  const actual = sha256(row.content);
  if (actual !== row.content_sha256)
    throw new SkillInputError(
      `skill ${row.id}: its stored content hashes to ${actual.slice(0, 12)}, not ${row.content_sha256.slice(0, 12)}; the store was modified`,
    );
  return {
    id: row.id,
    content_sha256: row.content_sha256,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    content: JSON.parse(row.content) as SkillContent,
  };
}
