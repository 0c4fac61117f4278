// Campaigns over synthetic episodes (no simulator): seed discipline, preregistration first, and
// artifacts that hash the same in any campaign root.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeedOverlapError, runCampaign } from '../../evolution/index.js';
import { DEV_SEED_BASE } from '../../evolution/campaign/seeds.js';
import { syntheticCampaignOptions, syntheticRunner } from './synthetic.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'zetta-campaign-'));

const options = syntheticCampaignOptions;

describe('campaign seeds', () => {
  it('refuses held-out seeds that a generation would also use for development, before any episode', async () => {
    const calls: number[] = [];
    const root = tmp();
    const run = runCampaign(options(root, { heldout: [1, DEV_SEED_BASE + 2], runner: syntheticRunner(() => true, calls) }));
    await expect(run).rejects.toThrow(SeedOverlapError);
    expect(calls).toEqual([]);
    expect(existsSync(join(root, 'preregistration.json'))).toBe(false);
  });

  it('writes the preregistration before the first episode, and never runs a held-out seed in development', async () => {
    const root = tmp();
    const seen: number[] = [];
    const inner = syntheticRunner((s) => s % 3 === 0, seen);
    let preregisteredFirst: boolean | undefined;
    const runner = {
      ...inner,
      run: (req: Parameters<typeof inner.run>[0], cb: Parameters<typeof inner.run>[1]) => {
        preregisteredFirst ??= existsSync(join(root, 'preregistration.json'));
        return inner.run(req, cb);
      },
    };
    await runCampaign(options(root, { runner }));
    expect(preregisteredFirst).toBe(true);
    const prereg = JSON.parse(readFileSync(join(root, 'preregistration.json'), 'utf8'));
    const dev = new Set<number>(prereg.dev['1']);
    const devRollouts = JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).ledger;
    expect(Object.keys(devRollouts).some((p) => p.endsWith('/dev-g1.json'))).toBe(true);
    for (const s of [1, 2, 3, 4]) expect(dev.has(s)).toBe(false);
    expect(seen.filter((s) => s <= 4).length).toBeGreaterThan(0); // held-out seeds ran, but only as held-out
  });
});

describe('campaign artifacts', () => {
  it('hash the same in two roots, and a finished campaign run again changes nothing', async () => {
    const a = tmp();
    const b = tmp();
    const sa = await runCampaign(options(a));
    const sb = await runCampaign(options(b));
    const ledger = (root: string) => JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).ledger as Record<string, string>;
    expect(ledger(a)).toEqual(ledger(b));
    expect(sa.campaign_id).toBe(sb.campaign_id);
    expect(sa.decisions).toEqual(sb.decisions);
    expect(Object.keys(ledger(a))).toContain('report.html');
    const again = await runCampaign(options(a));
    expect(again.decisions).toEqual(sa.decisions);
    expect(ledger(a)).toEqual(ledger(b));
    // the synthetic candidates change nothing, so every gate that ran found no gain
    expect(sa.promoted).toBe(false);
    expect(sa.heldout.parent_success).toBe(1); // seed 3 of 1..4
  });

  it('refuses to resume a root under a different experiment', async () => {
    const root = tmp();
    await runCampaign(options(root));
    await expect(runCampaign(options(root, { devEpisodes: 7 }))).rejects.toThrow(/different campaign.*seeds/);
  });
});

describe('a campaign from the empty bundle', () => {
  it('runs its parent under the safety envelope with no rule, so the gates count safety events on both sides', async () => {
    const root = tmp();
    const inner = syntheticRunner((s) => s % 3 === 0);
    const bundles = new Set<string | null>();
    const runner = {
      ...inner,
      run: (req: Parameters<typeof inner.run>[0], cb: Parameters<typeof inner.run>[1]) => {
        bundles.add(req.bundleDir);
        return inner.run(req, cb);
      },
    };
    await runCampaign(options(root, { runner, generations: 1 }));
    // without a critic no envelope runs, and a parent's 0 safety events would mean "not looked"
    expect(bundles.has(null)).toBe(false);
    // the parent: the bundle with no rule (candidates add one)
    const dev = [...bundles].find((d) => d !== null && JSON.parse(readFileSync(join(d, 'rules.json'), 'utf8')).rules.length === 0);
    expect(dev).toBeDefined();
    const manifest = JSON.parse(readFileSync(join(dev!, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'none', privileged: false });
  });
});
