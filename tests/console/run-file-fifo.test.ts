// A FIFO in the runs folder: a campaign whose report.json (or a generation's clusters.json) is a
// named pipe no one writes to. The real `zetta console` process serves on: the campaign list (which
// leaves that campaign out), the campaign page (which names the refused file), the login page and a
// login. Each request has a deadline far beyond its usual time; a console stuck reading the pipe
// misses it, and the test fails instead of hanging.
import { execFileSync } from 'node:child_process';
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killConsole, startConsole, type ConsoleProcess } from './console-process.js';
import { makeWorld, type World } from './fixture.js';

const DEADLINE_MS = 15_000;

let w: World;
let consoleProcess: ConsoleProcess;

beforeAll(async () => {
  w = await makeWorld();
  const copy = join(w.runs, 'copies', 'piped-report');
  cpSync(w.campaignRoot, copy, { recursive: true });
  rmSync(join(copy, 'report.json'));
  execFileSync('mkfifo', [join(copy, 'report.json')]);
  const clusters = join(w.campaignRoot, 'gen-1', 'clusters.json');
  renameSync(clusters, `${clusters}.kept`);
  execFileSync('mkfifo', [clusters]);
  consoleProcess = await startConsole(w.db, w.runs);
}, 60_000);

afterAll(async () => {
  if (consoleProcess) await killConsole(consoleProcess);
});

const fetchBy = (path: string, init: RequestInit = {}) =>
  fetch(`${consoleProcess.url}${path}`, { ...init, signal: AbortSignal.timeout(DEADLINE_MS) });
const bearer = () => ({ headers: { authorization: `Bearer ${w.tokens.vic}` } });

describe('a FIFO in the runs folder', () => {
  it('lists the campaigns without the one whose report.json is a FIFO', async () => {
    const res = await fetchBy('/api/campaigns', bearer());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { campaigns: { dir: string }[] }).campaigns.map((c) => c.dir)).toEqual([w.campaignDir]);
  });

  it('answers the campaign page naming the FIFO clusters.json, without reading it', async () => {
    const res = await fetchBy(`/api/campaigns/${w.campaignId}`, bearer());
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/gen-1\/clusters\.json: not a regular file/);
  });

  it('still serves the login page and a login', async () => {
    expect((await fetchBy('/')).status).toBeLessThan(500);
    const login = await fetchBy('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: w.tokens.ada }),
    });
    expect(login.status).toBe(200);
    expect(consoleProcess.child.exitCode).toBeNull();
  });
});
