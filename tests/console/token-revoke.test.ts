// Listing and revoking the console's tokens (hardening issue, item 17: `console token` knew only
// create). The real `zetta console` process serves a store while the CLI, as a user runs it (over
// dist/: run `npm run build` first), lists and revokes its tokens: the list names owners and roles
// and never shows a token or its hash; a revoked token's live session is answered 401 at its very
// next request (and an event stream it holds open ends), another owner's session goes on; an
// unknown name is one line and exit code 2.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../console/server/index.js';
import { runZetta } from '../support/zetta-process.js';
import { tmp } from '../skills/campaign.js';
import { killConsole, startConsole, type ConsoleProcess } from './console-process.js';
import { SseReader } from './http.js';

const base = tmp('zetta-console-tokens-');
const db = join(base, 'skills.db');
const runs = join(base, 'runs');
let server: ConsoleProcess;
let tokens: { ada: string; vic: string };

beforeAll(async () => {
  mkdirSync(runs, { recursive: true });
  tokens = { ada: createToken(db, 'ada', 'approver'), vic: createToken(db, 'vic', 'viewer') };
  server = await startConsole(db, runs);
}, 60_000);

afterAll(async () => {
  if (server) await killConsole(server);
});

/** Logs in over HTTP and returns the session's cookie and CSRF token. */
async function login(token: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = /zetta_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  return { cookie, csrf: ((await res.json()) as { csrf: string }).csrf };
}

const sessionStatus = async (s: { cookie: string }) => (await fetch(`${server.url}/api/session`, { headers: { cookie: s.cookie } })).status;

interface Listed {
  name: string;
  role: string;
  created_at: string;
  last_used_at: string | null;
}

async function listed(): Promise<{ stdout: string; tokens: Listed[] }> {
  const r = await runZetta(['console', 'token', 'list', '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, tokens: (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { tokens: Listed[] }).tokens };
}

describe('zetta console token list and revoke', () => {
  it('lists names, roles, creation and last use, never a token or its hash', async () => {
    await login(tokens.ada);
    const { stdout, tokens: list } = await listed();
    expect(list.map((t) => [t.name, t.role])).toEqual([
      ['ada', 'approver'],
      ['vic', 'viewer'],
    ]);
    expect(list.every((t) => !Number.isNaN(Date.parse(t.created_at)))).toBe(true);
    // ada logged in a moment ago; vic never did
    expect(Date.parse(list[0]!.last_used_at!)).toBeGreaterThanOrEqual(Date.parse(list[0]!.created_at));
    expect(list[1]!.last_used_at).toBeNull();
    expect(stdout).toMatch(/^name +role +created +last used$/m);
    expect(stdout).toMatch(/^vic +viewer +\S+ +-$/m);
    const raw = new Database(db, { readonly: true });
    const stored = raw.prepare('SELECT salt, hash FROM console_tokens').all() as { salt: string; hash: string }[];
    raw.close();
    for (const secret of [tokens.ada, tokens.vic, tokens.ada.slice(3, 20), ...stored.flatMap((s) => [s.hash, s.salt])])
      expect(stdout).not.toContain(secret);
  });

  it("ends a revoked token's live session at its next request, and only that token's", async () => {
    const ada = await login(tokens.ada);
    const vic = await login(tokens.vic);
    expect(await sessionStatus(ada)).toBe(200);
    // an event stream the session opened before the revocation ends with it
    const live = await fetch(`${server.url}/api/live`, { headers: { cookie: ada.cookie } });
    expect(live.status).toBe(200);
    const events = new SseReader(live.body!.getReader());
    await events.comment('connected');
    const r = await runZetta(['console', 'token', 'revoke', '--name', 'ada', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/revoked the token of ada \(approver\)/);
    await expect(events.comment('never sent')).rejects.toThrow('the event stream ended');
    const after = await fetch(`${server.url}/api/session`, { headers: { cookie: ada.cookie } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    // a state change with the old session and its CSRF token is refused too, as is the token itself
    const approve = await fetch(`${server.url}/api/skills/whatever/approve`, {
      method: 'POST',
      headers: { cookie: ada.cookie, 'x-csrf-token': ada.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'after revoke' }),
    });
    expect(approve.status).toBe(401);
    expect((await fetch(`${server.url}/api/skills`, { headers: { authorization: `Bearer ${tokens.ada}` } })).status).toBe(401);
    expect(await sessionStatus(vic)).toBe(200);
    expect((await listed()).tokens.map((t) => t.name)).toEqual(['vic']);
  });

  it('revoking a name the store does not hold is one line and exit code 2', async () => {
    const r = await runZetta(['console', 'token', 'revoke', '--name', 'nobody', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`zetta console: no console token named "nobody" in ${db} (zetta console token list shows them)\n`);
    const missing = await runZetta(['console', 'token', 'list', '--db', join(base, 'nowhere.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help documents list and revoke', async () => {
    const r = await runZetta(['console', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('zetta console token list [--db FILE] [--json]');
    expect(r.stdout).toContain('zetta console token revoke --name N [--db FILE]');
    const unknown = await runZetta(['console', 'token', 'drop']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/the subcommands are create, list, revoke/);
  });
});
