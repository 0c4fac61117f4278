// The console's access tokens. A token is 32 random bytes (base64url, prefixed `zc_`) shown once
// when it is made; the store keeps only a scrypt hash of it with a salt of its own, so a copy of
// the database gives nobody a working token. Checking a token hashes it with each row's salt and
// compares in constant time (a handful of tokens per store, so a scan is cheap enough). A token can
// be listed (name, role, creation, last use) and revoked; neither ever shows the token or its hash.
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SkillInputError } from '../../skills/errors.js';
import { openDatabase, type Db, type OpenOptions } from '../../skills/store/open.js';

export const CONSOLE_ROLES = ['viewer', 'approver'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Who a valid token belongs to: its name (the audit log's actor) and its role. */
export interface TokenOwner {
  readonly name: string;
  readonly role: ConsoleRole;
}

export interface TokenListing extends TokenOwner {
  readonly created_at: string;
  /** The last login, bearer request or session request with it (to the minute); null when not known. */
  readonly last_used_at: string | null;
}

const PREFIX = 'zc_';
const TOKEN_BYTES = 32;
/** The exact shape of a token: anything else is refused before any hashing (no scrypt on junk). */
const TOKEN_SHAPE = /^zc_[A-Za-z0-9_-]{43}$/;
/** A name is an audit actor: short, printable, no spaces. */
const NAME_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
// scrypt's standard cost; the parameters travel in the stored hash so they can change later.
const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

interface TokenRow {
  name: string;
  role: ConsoleRole;
  salt: string;
  hash: string;
}

export function isConsoleRole(s: unknown): s is ConsoleRole {
  return typeof s === 'string' && (CONSOLE_ROLES as readonly string[]).includes(s);
}

/** A new token for `name` with `role`, stored hashed in the skill store at `dbPath`; returned once. */
export function createToken(dbPath: string, name: string, role: ConsoleRole): string {
  if (!NAME_SHAPE.test(name))
    throw new SkillInputError(`token name "${name}": use 1–64 letters, digits and _ . @ - (it is the actor in the audit log)`);
  if (!isConsoleRole(role)) throw new SkillInputError(`token role "${String(role)}": must be viewer or approver`);
  const token = PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
  const salt = randomBytes(16).toString('base64url');
  const hash = encodeHash(scryptSync(token, salt, KEY_BYTES, COST));
  const db = openDatabase(dbPath);
  try {
    db.transaction(() => {
      if (db.prepare('SELECT 1 FROM console_tokens WHERE name = ?').get(name)) {
        throw new SkillInputError(`a console token named "${name}" already exists in ${dbPath}; choose another name`);
      }
      db.prepare('INSERT INTO console_tokens (name, role, salt, hash, created_at) VALUES (?, ?, ?, ?, ?)').run(
        name,
        role,
        salt,
        hash,
        new Date().toISOString(),
      );
    }).immediate();
  } finally {
    db.close();
  }
  return token;
}

/** The owner of `token`, or null. `db` is an open store or the path of one. */
export function verifyToken(db: Db | string, token: string): TokenOwner | null {
  return withDb(db, (d) => {
    if (!TOKEN_SHAPE.test(token)) return null;
    for (const row of rows(d)) if (matches(row, (salt, bytes, cost) => scryptSync(token, salt, bytes, cost))) return owner(row);
    return null;
  });
}

/** verifyToken without blocking the event loop: scrypt runs on libuv's thread pool. */
export async function verifyTokenAsync(db: Db, token: string): Promise<TokenOwner | null> {
  const found = await findTokenAsync(db, token);
  return found && { name: found.name, role: found.role };
}

/** A stored token's owner with the hash it matched (what tokenStillStored checks later). */
export interface MatchedToken extends TokenOwner {
  readonly hash: string;
}

/** The row `token` matches, found by hashing it with each row's salt (off the event loop), or null. */
export async function findTokenAsync(db: Db, token: string): Promise<MatchedToken | null> {
  if (!isTokenShaped(token)) return null;
  for (const row of rows(db)) {
    const parsed = decodeHash(row.hash);
    if (!parsed) continue;
    const derived = await scryptAsync(token, row.salt, parsed.key.length, parsed.cost);
    if (timingSafeEqual(derived, parsed.key)) return { name: row.name, role: row.role, hash: row.hash };
  }
  return null;
}

/** Whether the row a token matched is still in the store as it was (not revoked, not re-made). */
export function tokenStillStored(db: Db, matched: MatchedToken): boolean {
  const row = db.prepare('SELECT role, hash FROM console_tokens WHERE name = ?').get(matched.name) as
    | Pick<TokenRow, 'role' | 'hash'>
    | undefined;
  return row !== undefined && row.hash === matched.hash && row.role === matched.role;
}

/** Whether `token` has the shape of a token at all (checked before any hashing). */
export function isTokenShaped(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** Every token's name, role, creation and last use (never the token, never its hash). */
export function listTokens(db: Db | string): TokenListing[] {
  return withDb(
    db,
    (d) => d.prepare('SELECT name, role, created_at, last_used_at FROM console_tokens ORDER BY name').all() as TokenListing[],
    { create: false },
  );
}

/**
 * Removes the token `name` from the store at `dbPath` and returns what it was. A running console
 * checks a session's token row on every request, so the token's sessions end with it at once.
 */
export function revokeToken(dbPath: string, name: string): TokenOwner {
  return withDb(
    dbPath,
    (d) =>
      d
        .transaction((): TokenOwner => {
          const row = d.prepare('SELECT name, role FROM console_tokens WHERE name = ?').get(name) as TokenOwner | undefined;
          if (!row) throw new SkillInputError(`no console token named "${name}" in ${dbPath} (zetta console token list shows them)`);
          d.prepare('DELETE FROM console_tokens WHERE name = ?').run(name);
          return { name: row.name, role: row.role };
        })
        .immediate(),
    { create: false },
  );
}

/** How stale a token's last use may get before a use writes it again: one write a minute at most. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Notes that the token `matched` names was used now. It reads first and writes only when the last
 * use is older than the resolution, so a busy console does not take the store's write lock on every
 * request. Best effort: a store that cannot be written (read-only, busy) leaves the last use as it
 * was rather than failing the request that used it.
 */
export function markTokenUsed(db: Db, matched: MatchedToken, now = new Date()): void {
  const stale = new Date(now.getTime() - LAST_USE_RESOLUTION_MS).toISOString();
  try {
    const row = db.prepare('SELECT last_used_at FROM console_tokens WHERE name = ? AND hash = ?').get(matched.name, matched.hash) as
      | { last_used_at: string | null }
      | undefined;
    if (!row || (row.last_used_at !== null && row.last_used_at > stale)) return;
    db.prepare('UPDATE console_tokens SET last_used_at = ? WHERE name = ? AND hash = ?').run(now.toISOString(), matched.name, matched.hash);
  } catch (err) {
    // the last use is a convenience of `console token list`, never a reason to refuse a request
    if (!String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_')) throw err;
  }
}

function withDb<T>(db: Db | string, f: (d: Db) => T, o: OpenOptions = {}): T {
  if (typeof db !== 'string') return f(db);
  const d = openDatabase(db, o);
  try {
    return f(d);
  } finally {
    d.close();
  }
}

function rows(db: Db): TokenRow[] {
  return db.prepare('SELECT name, role, salt, hash FROM console_tokens ORDER BY name').all() as TokenRow[];
}

function matches(row: TokenRow, derive: (salt: string, bytes: number, cost: ScryptOptions) => Buffer): boolean {
  const parsed = decodeHash(row.hash);
  return parsed !== null && timingSafeEqual(derive(row.salt, parsed.key.length, parsed.cost), parsed.key);
}

const owner = (row: TokenRow): TokenOwner => ({ name: row.name, role: row.role });

/** `scrypt$N$r$p$key`: the cost parameters stay with the hash they made. */
function encodeHash(key: Buffer): string {
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${key.toString('base64url')}`;
}

function decodeHash(s: string): { cost: ScryptOptions; key: Buffer } | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)$/.exec(s);
  if (!m) return null;
  return { cost: { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }, key: Buffer.from(m[4]!, 'base64url') };
}

function scryptAsync(token: string, salt: string, bytes: number, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(token, salt, bytes, cost, (err, key) => (err ? reject(err) : resolve(key))));
}
