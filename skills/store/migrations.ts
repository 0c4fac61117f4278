// The store's schema, one migration per version (PRAGMA user_version counts them). A migration is
// never edited once released: a change of schema is a new entry at the end. Triggers make the audit
// log append-only and a skill's content immutable inside the database itself, not only in our code.

export const MIGRATIONS: readonly string[] = [
  // 1: skills, their bundle files by hash, and the audit log of every transition
  `
  CREATE TABLE skills (
    id TEXT PRIMARY KEY,
    content_sha256 TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected', 'retired')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
  ) STRICT;
  CREATE TABLE audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    skill_id TEXT NOT NULL REFERENCES skills(id),
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    reason TEXT NOT NULL,
    from_state TEXT,
    to_state TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    bundle_sha256 TEXT NOT NULL
  ) STRICT;
  CREATE INDEX audit_by_skill ON audit(skill_id, seq);
  CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER skill_content_immutable BEFORE UPDATE OF id, content_sha256, name, content, created_at ON skills
    BEGIN SELECT RAISE(ABORT, 'a skill version is immutable'); END;
  CREATE TRIGGER skill_no_delete BEFORE DELETE ON skills BEGIN SELECT RAISE(ABORT, 'skills are never deleted'); END;
  `,
  // 2: the operator console's access tokens: only a scrypt hash with its own salt, never the token
  `
  CREATE TABLE console_tokens (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'approver')),
    salt TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;
  `,
  // 3: when a console token was last used (null: not since this column exists), for `console token list`
  `
  ALTER TABLE console_tokens ADD COLUMN last_used_at TEXT;
  `,
  // 4: reach trials: where a skill was tried beyond the tasks it was made on, and whether it loads
  // there. Append-only like the audit log; the latest trial of a (skill, task) pair decides.
  `
  CREATE TABLE reach_trials (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    skill_id TEXT NOT NULL REFERENCES skills(id),
    task TEXT NOT NULL,
    loads INTEGER NOT NULL CHECK (loads IN (0, 1)),
    evidence TEXT NOT NULL,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    reason TEXT NOT NULL
  ) STRICT;
  CREATE INDEX reach_by_skill ON reach_trials(skill_id, task, seq);
  CREATE TRIGGER reach_no_update BEFORE UPDATE ON reach_trials BEGIN SELECT RAISE(ABORT, 'reach trials are append-only'); END;
  CREATE TRIGGER reach_no_delete BEFORE DELETE ON reach_trials BEGIN SELECT RAISE(ABORT, 'reach trials are append-only'); END;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
