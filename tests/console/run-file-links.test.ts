// Links in the runs folder that lead out of it: a campaign whose report.json is a symbolic link to a
// report outside runs is not listed (so it cannot show as promoted), and a generation's
// clusters.json or a bundle's rules.json linked to an outside file is never served: the console
// names the refused file instead. A link that stays inside runs is still read.
import { cpSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, server, type World } from './fixture.js';
import { get, login, type Login } from './http.js';

const OUTSIDE_MARK = 'outside-file-b81c0e';

let w: World;
let app: FastifyInstance;
let vic: Login;
let outside: string;

beforeAll(async () => {
  w = await makeWorld();
  app = await server(w);
  vic = await login(app, w.tokens.vic);
  outside = dirname(w.runs);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const campaignsListed = async () =>
  ((await get(app, '/api/campaigns', vic)).json() as { campaigns: { dir: string; promoted: boolean | null }[] }).campaigns;

/** Replaces `file` (under runs) by a link to `target`. */
function linkInPlace(file: string, target: string): void {
  rmSync(file);
  symlinkSync(target, file);
}

describe('links out of the runs folder', () => {
  it('does not list a campaign whose report.json links to a report outside runs', async () => {
    const copy = join(w.runs, 'copies', 'linked-report');
    cpSync(w.campaignRoot, copy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, task: 'spatial/forged' }));
    const report = JSON.parse(readFileSync(join(copy, 'report.json'), 'utf8')) as Record<string, unknown>;
    const forged = join(outside, 'forged-report.json');
    writeFileSync(forged, JSON.stringify({ ...report, campaign_id: 'forged-campaign', promoted: true }));
    linkInPlace(join(copy, 'report.json'), forged);

    const listed = await campaignsListed();
    expect(listed.map((c) => c.dir)).toEqual([w.campaignDir]);
    expect((await get(app, '/api/campaigns/forged-campaign', vic)).statusCode).toBe(404);
    const overview = (await get(app, '/api/overview', vic)).json() as { campaigns: { dir: string }[] };
    expect(overview.campaigns.map((c) => c.dir)).toEqual([w.campaignDir]);
    rmSync(copy, { recursive: true });
  });

  it("never serves an outside file linked in as a generation's clusters.json", async () => {
    const clusters = join(w.campaignRoot, 'gen-1', 'clusters.json');
    const kept = `${clusters}.kept`;
    renameSync(clusters, kept);
    const target = join(outside, 'clusters-outside.json');
    writeFileSync(target, JSON.stringify({ signatures: OUTSIDE_MARK, clusters: [], infra_failures: [] }));
    symlinkSync(target, clusters);
    try {
      const res = await get(app, `/api/campaigns/${w.campaignId}`, vic);
      expect(res.body).not.toContain(OUTSIDE_MARK);
      expect(res.json()).toEqual({
        error: { code: 'internal', message: expect.stringMatching(/gen-1\/clusters\.json: a link that leads outside the runs folder/) },
      });
    } finally {
      rmSync(clusters);
      renameSync(kept, clusters);
    }
    // the same file back in place is served again
    expect((await get(app, `/api/campaigns/${w.campaignId}`, vic)).statusCode).toBe(200);
  });

  it("reads a link that stays inside runs, and refuses a bundle's rules.json linked outside", async () => {
    const detail = async () =>
      (await get(app, `/api/campaigns/${w.campaignId}`, vic)).json() as {
        generations: { candidates: { changes: unknown }[] }[];
      };
    const before = await detail();
    const changes = before.generations.flatMap((g) => g.candidates.map((c) => c.changes)).filter((c) => c !== null);
    expect(changes.length).toBeGreaterThan(0);

    const rules = readFileSync(join(w.campaignRoot, 'gen-1', 'candidates', 'k0', 'synthesis.json'), 'utf8');
    const bundleSha = (JSON.parse(rules) as { bundle_sha256: string }).bundle_sha256;
    const rulesFile = join(w.campaignRoot, 'bundles', bundleSha.slice(0, 12), 'rules.json');
    const inside = join(w.runs, 'rules-inside.json');
    cpSync(rulesFile, inside);
    linkInPlace(rulesFile, inside);
    expect(await detail()).toEqual(before); // a link inside runs: the same answer

    const outsideRules = join(outside, 'rules-outside.json');
    cpSync(inside, outsideRules);
    linkInPlace(rulesFile, outsideRules);
    const after = await detail();
    expect(after.generations.flatMap((g) => g.candidates.map((c) => c.changes)).filter((c) => c !== null)).toHaveLength(0);
    linkInPlace(rulesFile, inside);
  });
});
