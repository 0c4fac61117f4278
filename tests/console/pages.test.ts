// The console's reading pages in Chromium, against the real `zetta console` process and the built
// front end: the overview's plots of a run's arms, a campaign with its clusters and candidates, a
// candidate's gates, shadow replay and diff against its parent, and the live page's stream.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../util/child-process.js';
import { packagePath } from '../../util/package-root.js';
import { launchChromium, startConsole } from './console-process.js';
import { makeWorld, type World } from './fixture.js';

describe('the console’s reading pages in Chromium', () => {
  let w: World;
  let browser: Browser;
  let server: { child: ChildProcess; url: string };
  let page: Page;

  beforeAll(async () => {
    w = await makeWorld();
    server = await startConsole(w.db, w.runs);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    await page.goto(server.url);
    await page.getByTestId('token').fill(w.tokens.vic);
    await page.getByTestId('login').click();
    await page.getByTestId('token').waitFor({ state: 'detached' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await stopChild(server.child, 2000);
  });

  it('plots the arms of every run on the overview', async () => {
    await page.goto(`${server.url}/#/overview`);
    await page.getByTestId('run').first().waitFor();
    await page.locator('[data-testid="arms-plot"] svg').first().waitFor();
    expect(await page.locator('[data-testid="arms-plot"]').count()).toBeGreaterThanOrEqual(2); // two perturbations
    expect(await page.getByTestId('empty-overview').count()).toBe(0);
    // the final system beside the default, with its seeds named
    await page.locator('[data-testid="final-plot"] svg').first().waitFor();
    expect(await page.getByTestId('final').textContent()).toMatch(/at seeds 3000–3009 per task, which chose nothing in the run/);
    const shots = packagePath('runs', 'console');
    mkdirSync(shots, { recursive: true });
    await page.getByTestId('final').screenshot({ path: join(shots, 'overview-final.png') });
  }, 60_000);

  it('opens a campaign, its clusters and a candidate with its gates, shadow replay and diff', async () => {
    await page.goto(`${server.url}/#/campaigns`);
    await page.getByTestId('campaign-row').first().getByRole('link').first().click();
    await expect.poll(() => page.getByTestId('campaign-phase').textContent()).toMatch(/done/);
    // The episode list is a second request: wait for its links before counting them (a loaded
    // machine answers it after the campaign itself); waitFor fails the test if none ever appears.
    await page.locator('[data-testid="clusters"] tbody tr').first().waitFor();
    await page.getByTestId('episode-link').first().waitFor();
    expect(await page.locator('[data-testid="clusters"] tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('episode-link').count()).toBeGreaterThan(0);
    await page.getByTestId('candidate-row').first().getByRole('link').click();
    await expect.poll(() => page.getByTestId('candidate-decision').textContent()).toMatch(/promoted/);
    await page.locator('[data-testid="shadow-plot"] svg').first().waitFor();
    const text = await page.locator('main').textContent();
    expect(text).toMatch(/Rule and program diff against the parent/);
    // the threshold the campaign fitted, as the diff writes it
    const theta = String((w.content.changes.rules.added[0]!.when as { value: number }).value);
    expect(text).toContain(`when derived.net_motion < ${theta} for`);
    expect(text).toMatch(/added evo\.g1-k0\.stall/);
    expect(text).toMatch(/McNemar|p\s*=|p-value/i);
  }, 60_000);

  it('lists running campaigns from the live stream', async () => {
    await page.goto(`${server.url}/#/live`);
    await expect.poll(() => page.getByTestId('live-status').textContent()).toMatch(/connected/);
    await page.locator(`[data-testid="live-row"][data-campaign-id="${w.campaignId}"]`).waitFor();
  }, 60_000);
});
