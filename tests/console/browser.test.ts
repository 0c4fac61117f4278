// The operator console in a real browser: Debian's Chromium driven by playwright-core, against the
// real `zetta console` process serving the built front end, on a real skill store holding a skill
// promoted by a real campaign (synthetic episodes, recorded as MCAP). An approver logs in, opens
// the pending skill, sees its evidence plotted, approves it with a reason and sees it active and
// audited; a viewer sees no approve button and the API refuses it; the episode viewer draws the
// timelines and the 3-D replay of a real simulator episode (the default critic governing the
// embedded policy under a disturbance). Screenshots go to runs/console/ (ignored by git).
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../console/server/index.js';
import { reachVerdict, SkillStore, skillFromCampaign } from '../../skills/index.js';
import { stopChild } from '../../util/child-process.js';
import { packagePath } from '../../util/package-root.js';
import { launchChromium, startConsole } from './console-process.js';
import { campaign, tmp } from '../skills/campaign.js';

const SHOTS = packagePath('runs', 'console');

/** What the page-side code below touches of a canvas (the tests compile without the DOM types). */
interface PixelSource {
  width: number;
  height: number;
  ownerDocument: { createElement(tag: 'canvas'): PixelSource };
  getContext(kind: '2d'): {
    drawImage(c: PixelSource, x: number, y: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

/** Runs in the page: how many distinct colours a sample of the canvas's pixels has. */
function distinctColours(el: unknown): number {
  const canvas = el as PixelSource;
  const copy = canvas.ownerDocument.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  ctx.drawImage(canvas, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
  return seen.size;
}

function mcapFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mcap'))
    .map((f) => join(dir, f));
}

async function logIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('token').fill(token);
  await page.getByTestId('login').click();
  await page.getByTestId('token').waitFor({ state: 'detached' });
}

describe('the operator console in Chromium', () => {
  let browser: Browser;
  let server: { child: ChildProcess; url: string };
  let runs: string;
  let id: string;
  const tokens = { approver: '', viewer: '' };

  beforeAll(async () => {
    runs = tmp('zetta-console-');
    const root = join(runs, 'campaign');
    await campaign(root, true);
    // one real episode to replay: the embedded policy and the default critic under a disturbance
    await promisify(execFile)(
      process.execPath,
      [
        packagePath('bin', 'zetta.js'),
        'eval',
        '--tasks',
        'spatial/left_cube_in_bowl',
        '--episodes',
        '1',
        '--seed',
        '1003',
        '--perturb',
        'disturbance',
        '--critic',
        'default',
        '--out',
        join(runs, 'eval'),
      ],
      { timeout: 60_000 },
    );
    const db = join(runs, 'skills.db');
    const { content, files } = await skillFromCampaign(root);
    id = SkillStore.using(db, (s) => s.add(content, files, { actor: 'evolve', reason: 'promoted by its campaign' }).id);
    tokens.approver = createToken(db, 'ada', 'approver');
    tokens.viewer = createToken(db, 'vic', 'viewer');
    server = await startConsole(db, runs);
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await stopChild(server.child, 2000);
  });

  it('lets an approver see a pending skill’s evidence, approve it with a reason, and see it audited', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, tokens.approver);
    await page.goto(`${server.url}/#/skills`);
    await page.getByTestId('skill-row').first().click();
    await expect.poll(() => page.getByTestId('skill-state').textContent()).toMatch(/pending/);
    await page.locator('[data-testid="evidence-plot"] svg').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'evidence.png'), fullPage: true });
    await page.getByTestId('reason').fill('held-out 0 → 8 of 8; critic alone 0%');
    await page.getByTestId('approve').click();
    await expect.poll(() => page.getByTestId('skill-state').textContent()).toMatch(/active/);
    const audit = await page.locator('[data-testid="audit"] li').allTextContents();
    expect(audit).toHaveLength(2);
    expect(audit.join('\n')).toMatch(/ada[\s\S]*pending[\s\S]*active[\s\S]*held-out 0 → 8 of 8/);
    // a reach trial after approval: the page shows where it loads, by task
    const trial = (b: number, c: number) => ({
      perturbations: ['disturbance'],
      seeds: [150000, 150001],
      without: c,
      with: b,
      episodes: 2,
      b,
      c,
      critic_alone: 0,
      critic_alone_cap: 0.1,
    });
    SkillStore.using(join(runs, 'skills.db'), (s) =>
      s.recordReach(id, [reachVerdict('goal/lift_red_cube', trial(2, 0)), reachVerdict('goal/press_button', trial(0, 2))], {
        actor: 'zetta run',
        reason: 'reach trial',
      }),
    );
    await page.reload();
    await page.getByTestId('reach').waitFor();
    const reach = await page.getByTestId('reach-row').allTextContents();
    expect(reach).toHaveLength(2);
    expect(reach[0]).toMatch(/goal\/lift_red_cube\s*yes\s*0 → 2 of 2/);
    expect(reach[1]).toMatch(/goal\/press_button\s*no\s*2 → 0 of 2/);
    await page.screenshot({ path: join(SHOTS, 'reach.png'), fullPage: true });
    await page.close();
  }, 120_000);

  it('shows a viewer no approve button, and the API refuses the viewer', async () => {
    const page = await browser.newPage();
    await logIn(page, server.url, tokens.viewer);
    await page.goto(`${server.url}/#/skills/${id}`);
    await page.getByTestId('skill-state').waitFor();
    expect(await page.getByTestId('approve').count()).toBe(0);
    expect(await page.getByTestId('retire').count()).toBe(0);
    const status = await page.evaluate(async (skill) => {
      const session = (await (await fetch('/api/session')).json()) as { csrf: string };
      const r = await fetch(`/api/skills/${skill}/retire`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf },
        body: JSON.stringify({ reason: 'no' }),
      });
      return r.status;
    }, id);
    expect(status).toBe(403);
    await page.close();
  }, 60_000);

  it('replays an episode: feature timelines and the 3-D scene', async () => {
    const episode = relative(runs, mcapFiles(join(runs, 'eval'))[0]!);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, tokens.viewer);
    await page.goto(`${server.url}/#/episode?path=${encodeURIComponent(episode)}`);
    await page.locator('[data-testid="timeline"] svg').first().waitFor();
    await page.locator('[data-testid="replay"] canvas').waitFor();
    // the 3-D canvas has drawn something other than one flat colour
    const colours = await page.locator('[data-testid="replay"] canvas').evaluate(distinctColours);
    expect(colours).toBeGreaterThan(3);
    await page.screenshot({ path: join(SHOTS, 'episode.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('tells the operator how to get skills when the store has none', async () => {
    const empty = join(tmp('zetta-console-empty-'), 'skills.db');
    const token = createToken(empty, 'ada', 'approver');
    const other = await startConsole(empty, tmp('zetta-console-runs-'));
    try {
      const page = await browser.newPage();
      await logIn(page, other.url, token);
      await page.goto(`${other.url}/#/skills`);
      const text = await page.getByTestId('empty-skills').textContent();
      expect(text).toMatch(/campaign/i);
      expect(text).toMatch(/zetta (evolve|skills add)/);
      await page.close();
    } finally {
      await stopChild(other.child, 2000);
    }
  }, 60_000);
});
