// Campaign roots for the skill tests: real campaigns over synthetic episodes (no simulator), one
// whose candidate helps only the governed policy (so it is promoted) and one that promotes nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCampaign, type CampaignSummary } from '../../evolution/index.js';
import { governedRunner, syntheticCampaignOptions } from '../evolution/synthetic.js';

export const tmp = (prefix = 'zetta-skills-'): string => mkdtempSync(join(tmpdir(), prefix));

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/**
 * A finished campaign in `root`; `promotes`: its candidate helps the policy and is promoted.
 * Campaigns on other held-out seeds (`heldoutFrom`) promote other evidence, so other skills.
 */
export function campaign(root: string, promotes: boolean, heldoutFrom = 1000): Promise<CampaignSummary> {
  return runCampaign(
    syntheticCampaignOptions(root, {
      heldout: range(heldoutFrom, 8),
      confirmation: range(2000, 4),
      devEpisodes: 8,
      runner: governedRunner(promotes ? (governed, control) => governed && control === undefined : () => false),
    }),
  );
}
