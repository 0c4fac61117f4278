// A campaign killed with SIGKILL in three different phases and resumed each time ends with the same
// decisions and the same artifact hashes as one that ran straight through. The campaign runs through
// the built bin (rollouts use the compiled package), with a small random policy and a tiny budget.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../util/package-root.js';
import { campaignState, portableSummary, runCampaign, writeCampaignPolicy, type KillAt } from '../support/killable-campaign.js';

let policy = '';

beforeAll(() => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'evolve.js')))
    throw new Error('the kill test runs the built bin: run `npm run build` first');
  policy = writeCampaignPolicy(mkdtempSync(join(tmpdir(), 'zetta-kill-policy-')));
});

const run = (root: string, killAt?: KillAt) => runCampaign(policy, root, [], killAt);

describe('a campaign killed with SIGKILL', () => {
  it('resumes from three different phases to the same decisions and hashes as an uninterrupted run', async () => {
    const straight = mkdtempSync(join(tmpdir(), 'zetta-straight-'));
    const killed = mkdtempSync(join(tmpdir(), 'zetta-killed-'));
    const reference = run(straight); // in parallel with the killed one: two cores
    const phases: string[] = [];
    for (const killAt of [
      { phase: 'dev-rollouts (generation 1)', delayMs: 400 }, // mid-episodes (short: a quiet machine ends the phase sooner)
      { phase: 'clustering (generation 1)', delayMs: 0 }, // reading the recordings
      { phase: 'gating (generation 1, candidate 0)', delayMs: 400 }, // the candidate's rollouts
    ]) {
      const r = await run(killed, killAt);
      expect(r.signal).toBe('SIGKILL');
      phases.push(campaignState(killed).phase);
    }
    const resumed = await run(killed);
    const done = await reference;
    expect(new Set(phases).size).toBe(3);
    expect(campaignState(killed).phase).toBe('done');
    expect(campaignState(killed).ledger).toEqual(campaignState(straight).ledger);
    expect(portableSummary(resumed.stdout)).toEqual(portableSummary(done.stdout));
    expect(readFileSync(join(killed, 'report.html'), 'utf8')).toBe(readFileSync(join(straight, 'report.html'), 'utf8'));
    // four campaign processes, two at a time: on two busy cores this has come within seconds of 120 s
  }, 300_000);
});
