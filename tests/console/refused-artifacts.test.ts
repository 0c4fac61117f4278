// The console reads a campaign's manifest and report, and a run's report, with their writers'
// readers: a copy of the fixture's campaign whose manifest or report those readers refuse is not
// listed, and a run whose report is refused is left out of the overview while the others stay.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, server, type World } from './fixture.js';
import { get, login, type Login } from './http.js';

let w: World;
let app: FastifyInstance;
let vic: Login;

beforeAll(async () => {
  w = await makeWorld();
  app = await server(w);
  vic = await login(app, w.tokens.vic);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A copy of the fixture's campaign under runs/<dir>, its `file` edited. */
function copyWith(dir: string, file: 'manifest.json' | 'report.json', edit: (value: Record<string, unknown>) => void): string {
  const root = join(w.runs, dir);
  cpSync(w.campaignRoot, root, { recursive: true });
  const value = JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(join(root, file), JSON.stringify(value));
  return root;
}

const listedDirs = async () =>
  ((await get(app, '/api/campaigns', vic)).json() as { campaigns: { dir: string }[] }).campaigns.map((c) => c.dir);

describe('artifacts their readers refuse', () => {
  it('does not list a campaign whose manifest lacks a field', async () => {
    const root = copyWith('copies/no-seeds', 'manifest.json', (m) => {
      m.task = 'spatial/other';
      delete m.seeds;
    });
    rmSync(join(root, 'report.json')); // still running: only its manifest could name it
    expect(await listedDirs()).toEqual([w.campaignDir]);
  });

  it('does not list a campaign whose report holds a field of the wrong type', async () => {
    copyWith('copies/bad-report', 'report.json', (r) => {
      r.promoted = 'yes';
    });
    expect(await listedDirs()).toEqual([w.campaignDir]);
    const overview = (await get(app, '/api/overview', vic)).json() as { campaigns: { dir: string }[] };
    expect(overview.campaigns.map((c) => c.dir)).toEqual([w.campaignDir]);
  });

  it('leaves out of the overview a run whose report is not a run report, and keeps the others', async () => {
    const run = JSON.parse(readFileSync(join(w.runs, 'run1', 'report.json'), 'utf8')) as {
      stages: { governance: Record<string, unknown> };
    };
    delete run.stages.governance.conditions;
    mkdirSync(join(w.runs, 'run2'), { recursive: true });
    writeFileSync(join(w.runs, 'run2', 'report.json'), JSON.stringify(run));
    mkdirSync(join(w.runs, 'run3'), { recursive: true });
    writeFileSync(join(w.runs, 'run3', 'report.json'), '{ not json');
    const res = await get(app, '/api/overview', vic);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { runs: { dir: string }[] }).runs.map((r) => r.dir)).toEqual(['run1']);
  });
});
