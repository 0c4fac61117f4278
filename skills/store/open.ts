// Opening the skill store: a SQLite file in WAL mode (readers never block the one writer), with a
// busy timeout so concurrent CLI processes wait their turn instead of failing, and an application_id
// in the header so a foreign SQLite file, a damaged one or one from a newer zetta is refused with a
// clear error before anything is written to it. Migrations run in one IMMEDIATE transaction, so two
// processes creating the same new file do not both migrate it.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { SkillInputError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

/** "ZSKL": the header's application_id of a Zetta skill store. */
export const APPLICATION_ID = 0x5a534b4c;
const BUSY_TIMEOUT_MS = 10_000;

export type Db = Database.Database;

export interface OpenOptions {
  /**
   * Whether a missing store is created (with its folders). Commands that only read or move what is
   * there say no: a mistyped path is refused rather than answered from a new, empty store.
   */
  readonly create?: boolean;
}

export function openDatabase(path: string, o: OpenOptions = {}): Db {
  const create = o.create ?? true;
  if (existsSync(path) && statSync(path).isDirectory()) throw new SkillInputError(`${path} is a directory, not a skill store`);
  if (!create && !existsSync(path))
    throw new SkillInputError(`${path}: no skill store there (check the path; zetta skills add creates one)`);
  if (create) mkdirSync(dirname(path), { recursive: true });
  let db: Db;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: !create });
  } catch (err) {
    throw refused(path, err);
  }
  try {
    checkHeader(db, path);
    // Switching a new file to WAL takes the file's lock in a way SQLite's busy handler does not wait
    // for when another process is creating the same file at that moment: retry it for a while.
    retryWhileBusy(() => db.pragma('journal_mode = WAL'));
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
    return db;
  } catch (err) {
    db.close();
    throw err instanceof SkillInputError ? err : refused(path, err);
  }
}

/** Runs `f`, again while SQLite reports the file busy, for up to the busy timeout. */
function retryWhileBusy<T>(f: () => T): T {
  const until = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return f();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // a synchronous 20 ms pause
    }
  }
}

/**
 * A file that is not a database, or a database that is not ours, is refused before any write. The
 * header and the table count are read in one transaction: read apart, another process creating the
 * same new file could commit its first migration between them, and the file would look foreign.
 */
function checkHeader(db: Db, path: string): void {
  const { appId, version, tables } = db.transaction(() => ({
    appId: db.pragma('application_id', { simple: true }) as number,
    version: db.pragma('user_version', { simple: true }) as number,
    tables: (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n,
  }))();
  if (appId === APPLICATION_ID) {
    if (version > SCHEMA_VERSION)
      throw new SkillInputError(`${path}: skill store schema ${version} is newer than this zetta's ${SCHEMA_VERSION}; upgrade zetta`);
    return;
  }
  if (appId !== 0 || tables > 0)
    throw new SkillInputError(`${path} is not a Zetta skill store (a foreign SQLite database, application_id ${appId})`);
}

function migrate(db: Db, path: string): void {
  db.transaction(() => {
    const appId = db.pragma('application_id', { simple: true }) as number;
    const from = db.pragma('user_version', { simple: true }) as number;
    // another process may have created the file between checkHeader and this transaction
    if (appId !== 0 && appId !== APPLICATION_ID) throw new SkillInputError(`${path} is not a Zetta skill store (application_id ${appId})`);
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    if (from < SCHEMA_VERSION) {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
  }).immediate();
  const check = db.pragma('quick_check', { simple: true }) as string;
  if (check !== 'ok') throw new SkillInputError(`${path}: the skill store is damaged (${check})`);
}

/** SQLite's verdict on a file the user named, as an input error; anything else is ours and passes. */
function refused(path: string, err: unknown): Error {
  const code = (err as { code?: string }).code ?? '';
  const message = (err as Error).message ?? String(err);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
    return new SkillInputError(`${path} is not a skill store or is damaged: ${message}`);
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY'))
    return new SkillInputError(`${path}: cannot open the skill store: ${message}`);
  return err instanceof Error ? err : new Error(message);
}
