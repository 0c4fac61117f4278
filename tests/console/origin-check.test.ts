// The Origin of state-changing requests (hardening issue, item 17: it was never checked; SameSite
// and the CSRF token still protected sessions). Against the real `zetta console` process, over raw
// HTTP so the headers go exactly as written: a POST whose Origin names another site is answered 403
// with the API's error shape; the same POST with a matching Origin, or with none (a script), works.
import { mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../console/server/index.js';
import { tmp } from '../skills/campaign.js';
import { killConsole, startConsole, type ConsoleProcess } from './console-process.js';

const base = tmp('zetta-console-origin-');
let server: ConsoleProcess;
let port: number;
let token: string;

beforeAll(async () => {
  const db = join(base, 'skills.db');
  mkdirSync(join(base, 'runs'), { recursive: true });
  token = createToken(db, 'ada', 'approver');
  server = await startConsole(db, join(base, 'runs'));
  port = Number(new URL(server.url).port);
}, 60_000);

afterAll(async () => {
  if (server) await killConsole(server);
});

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly cookie: string | undefined;
}

/** One HTTP request with exactly these headers (Host is 127.0.0.1:PORT, as a browser on the console's URL sends it). */
function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const all = { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const cookie = /zetta_session=[^;]+/.exec(res.headers['set-cookie']?.join('\n') ?? '')?.[0];
        resolve({ status: res.statusCode ?? 0, body: text, cookie });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const errorOf = (a: Answer) => (JSON.parse(a.body) as { error: { code: string; message: string } }).error;

describe('the Origin of state-changing requests', () => {
  const own = () => `http://127.0.0.1:${port}`;

  it('refuses a login posted from another origin with 403, and takes it from its own origin or from a script', async () => {
    for (const origin of ['https://evil.example', `http://127.0.0.1:${port + 1}`, 'http://localhost.evil.example', 'null']) {
      const refused = await send('POST', '/api/login', { origin }, { token });
      expect(refused.status, origin).toBe(403);
      expect(errorOf(refused).code).toBe('forbidden');
      expect(errorOf(refused).message).toMatch(/state changes come only from this console's own pages/);
      expect(refused.cookie, origin).toBeUndefined();
    }
    expect((await send('POST', '/api/login', { origin: own() }, { token })).status).toBe(200);
    expect((await send('POST', '/api/login', {}, { token })).status).toBe(200);
  });

  it("refuses a session's cross-origin POST even with its cookie and CSRF token; the same POST from its own origin works", async () => {
    const login = await send('POST', '/api/login', {}, { token });
    const csrf = (JSON.parse(login.body) as { csrf: string }).csrf;
    const session = { cookie: login.cookie!, 'x-csrf-token': csrf };
    const crossSite = await send('POST', '/api/logout', { ...session, origin: 'https://evil.example' }, {});
    expect(crossSite.status).toBe(403);
    expect(errorOf(crossSite).code).toBe('forbidden');
    // the refused logout did nothing: the session is still there
    expect((await send('GET', '/api/session', { cookie: login.cookie! })).status).toBe(200);
    expect((await send('POST', '/api/logout', { ...session, origin: own() }, {})).status).toBe(200);
    expect((await send('GET', '/api/session', { cookie: login.cookie! })).status).toBe(401);
  });

  it('refuses a bearer POST from another origin; without Origin it reaches the route', async () => {
    const bearer = { authorization: `Bearer ${token}` };
    const crossSite = await send('POST', '/api/skills/nope/approve', { ...bearer, origin: 'https://evil.example' }, { reason: 'x' });
    expect(crossSite.status).toBe(403);
    // a script's POST passes the check and is answered by the route itself: there is no such skill
    const script = await send('POST', '/api/skills/nope/approve', bearer, { reason: 'x' });
    expect(script.status).toBe(404);
    expect(errorOf(script).code).toBe('not_found');
    // reads are not state changes: a GET with a foreign Origin is answered as any other
    expect((await send('GET', '/api/skills', { ...bearer, origin: 'https://evil.example' })).status).toBe(200);
  });
});
