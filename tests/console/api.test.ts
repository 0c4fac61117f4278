// The operator console's server, through fastify's inject and a real socket: authentication (tokens,
// sessions, bearer), CSRF, roles, the failed-login limit, the skill lifecycle with its audit log and
// a 50-request race, the static front end against path traversal, security headers, hashed tokens,
// and the read-only views of the runs folder (campaigns, episodes decoded from MCAP, the overview,
// live events).
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachVerdict, SkillInputError, SkillStore, verifyStore } from '../../skills/index.js';
import { createConsoleServer, createToken, verifyToken } from '../../console/server/index.js';
import { changesText, condition } from '../../console/server/changes-text.js';
import { parseRunReport } from '../../experiments/run/run-report-reader.js';
import { EpisodeWriter } from '../../zinfra/recording/episode-writer.js';
import { tmp } from '../skills/campaign.js';
import { INDEX, SECRET, addVariant, makeWorld, server, type World } from './fixture.js';
import { get, login, post, rawGet, SseReader, type Login } from './http.js';

let w: World;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  w = await makeWorld();
  app = await server(w);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const errorOf = (res: { json: () => unknown }) => (res.json() as { error: { code: string; message: string } }).error;

describe('authentication', () => {
  it('answers 401 without a session or a token, and with a bad bearer token', async () => {
    for (const url of ['/api/skills', '/api/session', '/api/campaigns', '/api/overview', `/api/skills/${w.skillId}`]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(errorOf(res).code).toBe('unauthorized');
    }
    expect((await get(app, '/api/skills', { bearer: `${w.tokens.ada}x` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/skills', headers: { cookie: 'zetta_session=forged' } })).statusCode).toBe(401);
  });

  it('refuses a bad token at login and sets no cookie', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { token: 'zc_nope' } });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('unauthorized');
    expect(res.cookies).toEqual([]);
    expect((await app.inject({ method: 'POST', url: '/api/login', payload: {} })).statusCode).toBe(400);
  });

  it('logs in with an HttpOnly, SameSite=Strict session cookie, tells the session, and logs out', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { token: w.tokens.vic } });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'zetta_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.value).not.toContain(w.tokens.vic.slice(3));
    const s = await login(app, w.tokens.vic);
    const session = await get(app, '/api/session', s);
    expect(session.json()).toEqual({ name: 'vic', role: 'viewer', csrf: s.csrf });
    expect((await post(app, '/api/logout', s, {})).statusCode).toBe(200);
    expect((await get(app, '/api/session', s)).statusCode).toBe(401);
  });

  it('limits failed logins per client address: 429 after 5 failures, except for a token already in use', async () => {
    const attempt = (token: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/login', payload: { token }, remoteAddress });
    for (let i = 0; i < 5; i++) expect((await attempt(`zc_wrong${i}`, '10.9.8.7')).statusCode).toBe(401);
    const fresh = createToken(w.db, 'fresh-after-failures', 'viewer');
    const limited = await attempt(fresh, '10.9.8.7');
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not affected, and successes never count
    expect((await attempt(fresh, '10.9.8.6')).statusCode).toBe(200);
    // a token the console has verified passes on the limited address too
    expect((await attempt(fresh, '10.9.8.7')).statusCode).toBe(200);
  });

  it('refuses a Host name that is not loopback (DNS rebinding)', async () => {
    const s = await login(app, w.tokens.vic);
    const res = await app.inject({ method: 'GET', url: '/api/skills', headers: { cookie: s.cookie, host: 'evil.example:8080' } });
    expect(res.statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'GET', url: '/api/skills', headers: { cookie: s.cookie, host: '127.0.0.1:4000' } })).statusCode,
    ).toBe(200);
  });
});

describe('roles, CSRF and the skill lifecycle', () => {
  let ada: Login;
  let bob: Login;
  let vic: Login;

  beforeAll(async () => {
    [ada, bob, vic] = await Promise.all([login(app, w.tokens.ada), login(app, w.tokens.bob), login(app, w.tokens.vic)]);
  });

  const state = (id: string) => SkillStore.using(w.db, (s) => s.get(id).state);

  it('lets a viewer read skills but not approve them', async () => {
    const list = await get(app, '/api/skills', vic);
    expect(list.statusCode).toBe(200);
    const skills = (list.json() as { skills: { id: string }[] }).skills;
    expect(skills.find((s) => s.id === w.skillId)).toMatchObject({
      id: w.skillId,
      name: w.content.name,
      state: 'pending',
      world: 'tabletop',
      suite: 'spatial',
      source_task: 'spatial/left_cube_in_bowl',
      campaign_id: w.campaignId,
      privileged: w.content.guard.privileged,
    });
    const res = await post(app, `/api/skills/${w.skillId}/approve`, vic, { reason: 'looks fine' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('forbidden');
    expect((await get(app, '/api/skills', { bearer: w.tokens.vic })).statusCode).toBe(200);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/skills/${w.skillId}/approve`,
          payload: { reason: 'x' },
          headers: { authorization: `Bearer ${w.tokens.vic}` },
        })
      ).statusCode,
    ).toBe(403);
    expect(state(w.skillId)).toBe('pending');
  });

  it('shows one skill with its audit trail, bundle files and change as readable lines', async () => {
    const res = await get(app, `/api/skills/${w.skillId}`, vic);
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      skill: { id: string; content_sha256: string; content: { name: string } };
      audit: { actor: string }[];
      files: { name: string; sha256: string; bytes: number }[];
      changes_text: string[];
    };
    expect(body.skill).toMatchObject({ id: w.skillId, content: { name: w.content.name } });
    expect(body.skill.content_sha256.startsWith(w.skillId)).toBe(true);
    expect(body.audit.map((a) => a.actor)).toEqual(['zetta-evolve']);
    expect(body.files.map((f) => f.name).sort()).toEqual(['manifest.json', 'recoveries.json', 'rules.json']);
    const rules = w.files.find((f) => f.name === 'rules.json')!;
    expect(body.files.find((f) => f.name === 'rules.json')).toEqual({
      name: 'rules.json',
      sha256: rules.sha256,
      bytes: rules.bytes.length,
    });
    const rule = w.content.changes.rules.added[0]!;
    expect(body.changes_text).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^\\+ rule ${rule.id.replace(/\./g, '\\.')}: when derived\\.net_motion < [-0-9.e]+ for \\d+ steps, if .* → recovery \\S+ \\(priority \\d+\\)$`,
        ),
      ),
    );
    expect(body.changes_text.some((l) => /^\+ program \S+: open_gripper → lift → /.test(l))).toBe(true);
  });

  it("shows a skill's reach trials, the latest per task", async () => {
    const before = (await get(app, `/api/skills/${w.skillId}`, vic)).json() as { reach: unknown[] };
    expect(before.reach).toEqual([]);
    const e = {
      perturbations: ['disturbance'],
      seeds: [150000],
      without: 1,
      with: 0,
      episodes: 1,
      b: 0,
      c: 1,
      critic_alone: 0,
      critic_alone_cap: 0.1,
    };
    SkillStore.using(w.db, (s) => {
      s.recordReach(w.skillId, [reachVerdict('goal/press_button', e)], { actor: 'zetta run', reason: 'trial' });
      s.recordReach(w.skillId, [reachVerdict('goal/press_button', { ...e, without: 0, with: 1, b: 1, c: 0 })], {
        actor: 'zetta run',
        reason: 'again',
      });
    });
    const after = (await get(app, `/api/skills/${w.skillId}`, vic)).json() as { reach: unknown[] };
    expect(after.reach).toEqual([
      {
        task: 'goal/press_button',
        loads: true,
        reason: expect.stringContaining('1 rescued, 0 broken of 1'),
        perturbations: ['disturbance'],
        episodes: 1,
        without: 0,
        with: 1,
        rescued: 1,
        broken: 0,
        critic_alone: 0,
        critic_alone_cap: 0.1,
      },
    ]);
  });

  it('names the fields a replaced rule changes, against the base bundle found under runs', async () => {
    const promoted = w.content.provenance.bundle_sha256; // the campaign root holds it under bundles/
    const rule = w.content.changes.rules.added[0]!;
    const id = addVariant(w, 'replaces', (c) => ({
      ...c,
      changes: {
        base: { name: 'promoted', sha256: promoted },
        rules: { added: [], replaced: [{ ...rule, dwell: 9, description: 'new words' }], removed: ['old.rule'] },
        programs: { added: [], replaced: [], removed: [] },
      },
    }));
    const body = (await get(app, `/api/skills/${id}`, vic)).json() as { changes_text: string[] };
    expect(body.changes_text).toEqual([`~ rule ${rule.id}: dwell: ${String(rule.dwell)} → 9`, '− rule old.rule']);
  });

  it("refuses a state change without the CSRF header, or with another session's", async () => {
    const noHeader = await post(app, `/api/skills/${w.skillId}/approve`, ada, { reason: 'ok' }, null);
    expect(noHeader.statusCode).toBe(403);
    const replayed = await post(app, `/api/skills/${w.skillId}/approve`, ada, { reason: 'ok' }, bob.csrf);
    expect(replayed.statusCode).toBe(403);
    const ada2 = await login(app, w.tokens.ada);
    expect((await post(app, `/api/skills/${w.skillId}/approve`, ada, { reason: 'ok' }, ada2.csrf)).statusCode).toBe(403);
    expect(state(w.skillId)).toBe('pending');
  });

  it('wants a non-empty string reason (400) and a known id (404)', async () => {
    for (const payload of [{}, { reason: '' }, { reason: '   ' }, { reason: 42 }]) {
      const res = await post(app, `/api/skills/${w.skillId}/approve`, ada, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res).code).toBe('bad_request');
    }
    const unknown = await post(app, '/api/skills/0123456789ab/approve', ada, { reason: 'ok' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe('not_found');
    expect((await get(app, '/api/skills/0123456789ab', ada)).statusCode).toBe(404);
    expect((await get(app, `/api/skills/${w.skillId.slice(0, 6)}`, ada)).statusCode).toBe(404);
    expect(state(w.skillId)).toBe('pending');
  });

  it('approves with the token name as the actor, then refuses a reject (409) and allows a retire', async () => {
    const res = await post(app, `/api/skills/${w.skillId}/approve`, ada, { reason: 'held-out gain holds' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ from: 'pending', skill: { id: w.skillId, state: 'active' } });
    const audit = SkillStore.using(w.db, (s) => s.auditLog(w.skillId));
    expect(audit.at(-1)).toMatchObject({ actor: 'ada', reason: 'held-out gain holds', from_state: 'pending', to_state: 'active' });
    const reject = await post(app, `/api/skills/${w.skillId}/reject`, bob, { reason: 'changed my mind' });
    expect(reject.statusCode).toBe(409);
    expect(errorOf(reject)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/it is active/) });
    const retire = await app.inject({
      method: 'POST',
      url: `/api/skills/${w.skillId}/retire`,
      payload: { reason: 'superseded' },
      headers: { authorization: `Bearer ${w.tokens.bob}` },
    });
    expect(retire.statusCode).toBe(200);
    expect(SkillStore.using(w.db, (s) => s.auditLog(w.skillId)).map((a) => [a.actor, a.to_state])).toEqual([
      ['zetta-evolve', 'pending'],
      ['ada', 'active'],
      ['bob', 'retired'],
    ]);
  });

  it('gives exactly one 200 and 49 × 409 for 50 concurrent approvals of one pending skill', async () => {
    const id = addVariant(w, 'race');
    const send = () =>
      fetch(`http://127.0.0.1:${port}/api/skills/${id}/approve`, {
        method: 'POST',
        headers: { cookie: ada.cookie, 'x-csrf-token': ada.csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'race' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string } } }));
    const results = await Promise.all(Array.from({ length: 50 }, send));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error?.code === 'conflict')).toBe(true);
    SkillStore.using(w.db, (s) => {
      expect(s.auditLog(id).map((a) => a.to_state)).toEqual(['pending', 'active']);
      expect(verifyStore(s)).toEqual([]);
    });
  });
});

describe('the static front end', () => {
  it('serves index.html, its assets, and index.html for unknown page paths', async () => {
    expect((await app.inject('/')).body).toBe(INDEX);
    expect((await app.inject('/assets/app.js')).body).toContain('console.log');
    const page = await app.inject('/skills/abc/audit');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    const api = await app.inject('/api/no-such-thing');
    expect(api.statusCode).toBe(404);
    expect(errorOf(api).code).toBe('not_found');
  });

  it('never serves a file outside webRoot, however the path is spelled', async () => {
    const attempts = [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%252e%252e/secret.txt',
      '/..%5csecret.txt',
      '/....//secret.txt',
      '//../secret.txt',
      '/../package.json',
      '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    ];
    for (const path of attempts) {
      const res = await rawGet(port, path);
      expect(res.body, path).not.toContain(SECRET);
      expect(res.body, path).not.toContain('"devDependencies"');
      expect(res.body, path).not.toMatch(/root:.*:0:0:/);
    }
  });

  it('answers 503 with how to build when webRoot has no index.html', async () => {
    const bare = await server(w, { webRoot: join(tmp(), 'not-built') });
    try {
      const res = await bare.inject('/');
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });

  it('sends the security headers, with scripts from self only and never inline', async () => {
    for (const url of ['/', '/api/skills']) {
      const res = await app.inject(url);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([k, ...v]) => [k!, v]),
      );
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(directives.get('connect-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('tokens', () => {
  it('stores only a salted scrypt hash, never the token', () => {
    const raw = new Database(w.db, { readonly: true });
    const rows = raw.prepare('SELECT * FROM console_tokens ORDER BY name').all() as Record<string, string>[];
    raw.close();
    expect(rows.map((r) => [r.name, r.role])).toEqual([
      ['ada', 'approver'],
      ['bob', 'approver'],
      ['fresh-after-failures', 'viewer'],
      ['vic', 'viewer'],
    ]);
    const dump = JSON.stringify(rows);
    for (const token of Object.values(w.tokens)) {
      expect(token).toMatch(/^zc_[A-Za-z0-9_-]{43}$/);
      expect(dump).not.toContain(token.slice(3, 20));
    }
    expect(rows.every((r) => r.hash!.startsWith('scrypt$'))).toBe(true);
    expect(new Set(rows.map((r) => r.salt)).size).toBe(rows.length);
    expect(readFileSync(w.db).includes(Buffer.from(w.tokens.ada.slice(3)))).toBe(false);
  });

  it('verifies a token to its owner, and nothing else', () => {
    expect(verifyToken(w.db, w.tokens.vic)).toEqual({ name: 'vic', role: 'viewer' });
    const flipped = w.tokens.vic.slice(0, -1) + (w.tokens.vic.endsWith('A') ? 'B' : 'A');
    expect(verifyToken(w.db, flipped)).toBeNull();
    expect(verifyToken(w.db, '')).toBeNull();
  });

  it('refuses a name that exists, and a bad name or role', () => {
    expect(() => createToken(w.db, 'ada', 'viewer')).toThrow(SkillInputError);
    expect(() => createToken(w.db, 'ada', 'viewer')).toThrow(/"ada" already exists/);
    expect(() => createToken(w.db, 'has space', 'viewer')).toThrow(SkillInputError);
    expect(() => createToken(w.db, 'eve', 'admin' as never)).toThrow(/viewer or approver/);
  });
});

describe('the runs folder', () => {
  let vic: Login;
  beforeAll(async () => {
    vic = await login(app, w.tokens.vic);
  });

  it('lists the campaign and shows its generations and candidates', async () => {
    const list = (await get(app, '/api/campaigns', vic)).json() as { campaigns: Record<string, unknown>[] };
    expect(list.campaigns).toEqual([
      {
        id: w.campaignId,
        dir: w.campaignDir,
        world: 'tabletop',
        task: 'spatial/left_cube_in_bowl',
        suite: 'spatial',
        perturbation: 'nominal',
        phase: 'done',
        generation: 0,
        candidate: null,
        promoted: true,
      },
    ]);
    const detail = (await get(app, `/api/campaigns/${w.campaignId}`, vic)).json() as {
      campaign: { id: string };
      report: { campaign_id: string; promoted: boolean };
      generations: {
        generation: number;
        clusters: { clusters: unknown[] };
        candidates: {
          k: number;
          synthesis: { id: string };
          shadow: unknown;
          gates: { decision: string };
          changes: { rules: { added: { id: string }[] } } | null;
        }[];
      }[];
    };
    expect(detail.campaign.id).toBe(w.campaignId);
    expect(detail.report).toMatchObject({ campaign_id: w.campaignId, promoted: true });
    expect(detail.generations.map((g) => g.generation)).toEqual([1]);
    expect(detail.generations[0]!.clusters.clusters.length).toBeGreaterThan(0);
    expect(detail.generations[0]!.candidates).toEqual([
      expect.objectContaining({
        k: 0,
        synthesis: expect.objectContaining({ id: 'g1-k0' }),
        gates: expect.objectContaining({ decision: 'promoted' }),
      }),
    ]);
    // the candidate against its parent (the campaign started from no bundle: its rule is new)
    expect(detail.generations[0]!.candidates[0]!.changes!.rules.added.map((r) => r.id)).toEqual(['evo.g1-k0.stall']);
    expect((await get(app, '/api/campaigns/ffffffffffff', vic)).statusCode).toBe(404);
  });

  it('lists the episodes the campaign recorded under its rollouts', async () => {
    const { episodes } = (await get(app, `/api/campaigns/${w.campaignId}/episodes`, vic)).json() as {
      episodes: { path: string; bundle: string; split: string; task: string; seed: number }[];
    };
    const manifest = JSON.parse(readFileSync(join(w.campaignRoot, 'manifest.json'), 'utf8')) as { seeds: { heldout: number[] } };
    const heldout = episodes.filter((e) => e.split === 'heldout');
    expect(new Set(heldout.map((e) => e.seed))).toEqual(new Set(manifest.seeds.heldout));
    for (const e of episodes) {
      expect(e.path).toBe(`${w.campaignDir}/rollouts/${e.bundle}/${e.split}/episodes/spatial__left_cube_in_bowl/${e.seed}.mcap`);
      expect(readFileSync(join(w.runs, e.path)).subarray(0, 5).toString('latin1')).toBe('\x89MCAP');
      expect(e.task).toBe('spatial/left_cube_in_bowl');
    }
    // development rollouts, the search's screening rollouts (each with the critic-alone controls), held-out, confirmation
    const arms = (split: string) => [split, `${split}.null_closed`, `${split}.null_open`, `${split}.null_random_0`];
    expect(new Set(episodes.map((e) => e.split))).toEqual(new Set([...arms('dev-g1'), ...arms('screen-g1'), 'heldout', 'confirmation']));
  });

  it('decodes an episode into steps with named features and positions', async () => {
    const { episodes } = (await get(app, `/api/campaigns/${w.campaignId}/episodes`, vic)).json() as {
      episodes: { path: string; seed: number }[];
    };
    const e = episodes[0]!;
    const res = await get(app, `/api/episode?path=${encodeURIComponent(e.path)}`, vic);
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      header: { seed: number; featureNames: string[] };
      summary: { steps: number };
      steps: {
        t: number;
        features: Record<string, number | null>;
        gripper: number[];
        source: string;
        milestones: string[];
        proposals: unknown[];
      }[];
    };
    expect(body.header.seed).toBe(e.seed);
    expect(body.steps).toHaveLength(body.summary.steps);
    const s = body.steps[3]!;
    expect(s.t).toBe(3);
    expect(Object.keys(s.features)).toEqual(body.header.featureNames);
    expect(s.features.eef_z).toBeCloseTo(s.gripper[2]!, 6);
    expect(s.features.finger_opening).toBe(0.08);
    expect(s).toMatchObject({ source: 'policy', proposals: [] });
    expect(s.gripper[0]).toBeCloseTo(0.1, 6);
  });

  it("places each object where its pose says, in the header's order", async () => {
    const path = join(w.runs, 'elsewhere', 'objects.mcap');
    const writer = await EpisodeWriter.create(path, {
      episodeId: 'x#1',
      task: 'spatial/x',
      suite: 'spatial',
      seed: 1,
      resetDigest: 'd',
      instruction: 'i',
      controlHz: 10,
      perturbation: null,
      policy: 'p',
      critic: 'c',
      featureNames: ['eef_z', 'observed.object_x'],
      objectNames: ['red_cube_1', 'bowl'],
    });
    for (let t = 0; t < 3; t++) {
      writer.append({
        step: t,
        state: [0.1 * t, 0.2, 0.3, 0, 0, 0, 0.04, 0.04],
        objects: [1 + t, 2, 3, 1, 0, 0, 0, -1, -2, -3, 1, 0, 0, 0],
        policyAction: null,
        action: [0, 0, 0, 0, 0, 0, 0],
        source: 'recovery',
        reward: 0,
        milestones: t === 2 ? ['red_cube_1.lifted'] : [],
        features: Float64Array.from([0.3, t === 1 ? Number.NaN : 0.5]),
        proposals: [{ ruleId: 'r', proposal: 'hold', priority: 1, safety: false }],
        decision: { kind: 'hold', reason: 'r' },
      });
    }
    await writer.close({
      success: false,
      steps: 3,
      milestones: [],
      infraFailure: null,
      physicsDivergence: false,
      policyActions: 0,
      unmodifiedPolicyActions: 0,
      recoveryActions: 3,
      milestonesDuringRecovery: 0,
      wallMs: 0,
    });
    const body = (await get(app, '/api/episode?path=elsewhere/objects.mcap', vic)).json() as { steps: Record<string, unknown>[] };
    expect(body.steps.map((s) => s.objects)).toEqual([0, 1, 2].map((t) => ({ red_cube_1: [1 + t, 2, 3], bowl: [-1, -2, -3] })));
    expect(body.steps[2]).toMatchObject({
      t: 2,
      time_s: 0.2,
      gripper: [0.2, 0.2, 0.3],
      source: 'recovery',
      milestones: ['red_cube_1.lifted'],
      decision: { kind: 'hold' },
      proposals: [{ ruleId: 'r' }],
    });
    expect(body.steps.map((s) => s.features)).toEqual([
      { eef_z: 0.3, 'observed.object_x': 0.5 },
      { eef_z: 0.3, 'observed.object_x': null },
      { eef_z: 0.3, 'observed.object_x': 0.5 },
    ]);
  });

  it('refuses episode paths outside runs or not .mcap (400), and a missing one (404)', async () => {
    for (const path of [
      '../outside.mcap',
      '/etc/passwd',
      `${w.campaignDir}/manifest.json`,
      `${w.campaignDir}/../../../../outside.mcap`,
      '',
    ]) {
      const res = await get(app, `/api/episode?path=${encodeURIComponent(path)}`, vic);
      expect(res.statusCode, path).toBe(400);
      expect(res.body).not.toContain(SECRET);
    }
    expect((await get(app, `/api/episode?path=${encodeURIComponent('secret.mcap')}`, vic)).statusCode).toBe(400); // not an episode
    expect((await get(app, `/api/episode?path=${encodeURIComponent('run1/none.mcap')}`, vic)).statusCode).toBe(404);
  });

  it('gives the overview: governance figures per run and perturbation, and campaign figures', async () => {
    const body = (await get(app, '/api/overview', vic)).json() as {
      runs: {
        dir: string;
        evolution: unknown[];
        conditions: Record<
          string,
          { macro: { synergy: { value: number } }; tasks: Record<string, { both: { value: number }; control: string }> }
        >;
        campaigns: { id: string; heldout: { p_value: number }; generations: { heldout: { pass: boolean }[] }[] }[];
        final: {
          reference: Record<string, { both: { value: number } }> | null;
          final: Record<string, { both: { value: number } }>;
        } | null;
      }[];
    };
    expect(body.runs.map((r) => r.dir)).toEqual(['run1']);
    const run = body.runs[0]!;
    expect(Object.keys(run.conditions)).toEqual(['position-shift', 'sensor-noise-delay']);
    expect(run.conditions['position-shift']!.macro.synergy.value).toBeCloseTo(0.5, 9);
    expect(run.conditions['sensor-noise-delay']!.tasks['spatial/left_cube_in_bowl']).toMatchObject({
      both: { value: 0.6 },
      control: 'null:open',
    });
    const report = JSON.parse(readFileSync(join(w.campaignRoot, 'report.json'), 'utf8')) as { heldout: { p_value: number } };
    expect(run.campaigns.map((c) => c.id)).toEqual([w.campaignId]);
    expect(run.campaigns[0]!.heldout.p_value).toBe(report.heldout.p_value);
    expect(run.campaigns[0]!.generations[0]!.heldout).toEqual([expect.objectContaining({ gate: 'heldout', pass: true })]);
    expect(run.evolution).toEqual([{ task: 'spatial/left_cube_in_bowl', perturbation: 'position-shift', campaign_id: w.campaignId }]);
    // the final system beside the default, both at the final stage's fresh seeds
    expect(run.final).toMatchObject({
      first_seed: 3000,
      active_skills: ['s1'],
      from_scratch: false,
      reference_mean_synergy: 0.2,
      final_mean_synergy: 0.35,
    });
    expect(run.final!.reference!['position-shift']!.both.value).toBeCloseTo(0.65, 9);
    expect(run.final!.final['position-shift']!.both.value).toBeCloseTo(0.8, 9);
  });

  it('streams campaign state changes as server-sent events', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/live`, { headers: { cookie: vic.cookie } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sse = new SseReader(res.body!.getReader());
    const first = await sse.next((e) => e.event === 'campaign');
    expect(first.data).toMatchObject({ id: w.campaignId, dir: w.campaignDir, phase: 'done' });
    // a campaign that appears and moves on (state.json replaced as evolution does it: write, rename)
    const dir = join(w.runs, 'elsewhere', 'fake');
    // a manifest evolution's reader accepts: the real campaign's, for another task
    const fake = { ...(JSON.parse(readFileSync(join(w.campaignRoot, 'manifest.json'), 'utf8')) as object), task: 'spatial/x' };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(fake));
    const setState = (phase: string, generation: number, candidate: number | null) => {
      writeFileSync(join(dir, 'state.json.tmp'), JSON.stringify({ version: 1, phase, generation, candidate, ledger: {} }));
      renameSync(join(dir, 'state.json.tmp'), join(dir, 'state.json'));
    };
    setState('dev-rollouts', 1, null);
    expect((await sse.next((e) => e.event === 'campaign' && (e.data as { dir: string }).dir.endsWith('fake'))).data).toMatchObject({
      phase: 'dev-rollouts',
      generation: 1,
      candidate: null,
    });
    setState('gating', 1, 2);
    expect((await sse.next((e) => e.event === 'campaign' && (e.data as { dir: string }).dir.endsWith('fake'))).data).toMatchObject({
      phase: 'gating',
      generation: 1,
      candidate: 2,
    });
    await sse.comment('heartbeat');
    await sse.close();
  });
});

describe('an empty store', () => {
  it('lists no skills', async () => {
    const db = join(tmp(), 'empty.db');
    const token = createToken(db, 'ada', 'viewer');
    const empty = await createConsoleServer({ db, runs: join(tmp(), 'runs'), webRoot: w.webRoot, readRunReport: parseRunReport });
    try {
      const s = await login(empty, token);
      expect((await get(empty, '/api/skills', s)).json()).toEqual({ skills: [] });
      expect((await get(empty, '/api/campaigns', s)).json()).toEqual({ campaigns: [] });
      expect((await get(empty, '/api/overview', s)).json()).toEqual({ runs: [], campaigns: [] });
    } finally {
      await empty.close();
    }
  });
});

describe('a change as readable lines', () => {
  it('writes conditions out and marks added, replaced and removed entries', () => {
    // The skill page's wording too (critic/rules/describe.ts).
    expect(
      condition({
        op: 'and',
        args: [
          { op: 'lt', feature: 'a', value: 1 },
          { op: 'not', arg: { op: 'stagnant', feature: 'b', window: 5, eps: 0.01 } },
        ],
      }),
    ).toBe('a < 1 and not (b stays within 0.01 over 5 steps)');
    expect(condition({ op: 'always', window: 3, cond: { op: 'rising', feature: 'c', window: 4, by: 0.2 } })).toBe(
      'at every one of the last 3 steps: c rises by more than 0.2 over 4 steps',
    );
    expect(
      condition({
        op: 'or',
        args: [
          { op: 'falling', feature: 'd', window: 2 },
          {
            op: 'and',
            args: [
              { op: 'eq', feature: 'e', value: 0 },
              { op: 'ne', feature: 'f', value: 1 },
            ],
          },
        ],
      }),
    ).toBe('d falls over 2 steps or (e = 0 and f ≠ 1)');
    expect(condition({ op: 'warp', feature: 'g' })).toBe('{"feature":"g","op":"warp"}'); // an unknown op: compact JSON
    const rule = {
      id: 'r1',
      when: { op: 'ge', feature: 'x', value: 2 },
      propose: { action: 'clamp', scale: 0.5, priority: 4 },
      safety: true,
      description: 'd',
    };
    const program = {
      id: 'p1',
      budget: 40,
      steps: [
        { tool: 'lift', params: { speed: 0.5 } },
        { tool: 'open_gripper', params: {} },
      ],
    };
    const base = {
      rules: [{ ...rule, description: 'old words' }],
      programs: [{ ...program, steps: [{ tool: 'lift', params: { speed: 0.3 } }, program.steps[1]!] }],
    };
    const lines = changesText(
      {
        base: { name: 'b', sha256: 'f'.repeat(64) },
        rules: { added: [{ ...rule, id: 'r2' }], replaced: [{ ...rule, description: 'new words' }], removed: ['r0'] },
        programs: { added: [], replaced: [program], removed: [] },
      },
      base,
    );
    expect(lines).toEqual([
      '+ rule r2: when x ≥ 2 → clamp motion ×0.5 (priority 4) [safety]',
      '~ rule r1: no behavioural difference',
      '− rule r0',
      '~ program p1: steps[0].params.speed: 0.3 → 0.5',
    ]);
    expect(
      changesText(
        {
          base: { name: 'b', sha256: 'a'.repeat(64) },
          rules: { added: [], replaced: [], removed: [] },
          programs: { added: [], replaced: [program], removed: [] },
        },
        null,
      ),
    ).toEqual([
      '~ program p1: now lift → open_gripper (budget 40 steps) (base bundle aaaaaaaaaaaa not found under runs, so the fields that differ are not shown)',
    ]);
    const noChange = { added: [], replaced: [], removed: [] };
    expect(
      changesText(
        {
          base: { name: 'none', sha256: 'a'.repeat(64) },
          rules: noChange,
          programs: noChange,
          options: { align_chunks_to_lag: { when: { op: 'ge', feature: 'x', value: 2 } }, wait_out_lag: null, during_recovery: 'queue' },
        },
        null,
      ),
    ).toEqual(['~ option align_chunks_to_lag: when x ≥ 2', '− option wait_out_lag', '~ option during_recovery: "queue"']);
  });
});
