// Campaign roots for the skill tests: real campaigns over synthetic episodes (no simulator), one
// whose candidate helps only the governed policy (so it is promoted) and one that promotes nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_GATES, builtinDiagnoser, runCampaign, type CampaignSummary } from '../../evolution/index.js';
import { TASK, governedRunner } from '../evolution/synthetic.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

export const tmp = (prefix = 'zetta-skills-'): string => mkdtempSync(join(tmpdir(), prefix));

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/**
 * A finished campaign in `root`; `promotes`: its candidate helps the policy and is promoted.
 * Campaigns on other held-out seeds (`heldoutFrom`) promote other evidence, so other skills.
 */
export function campaign(root: string, promotes: boolean, heldoutFrom = 1000): Promise<CampaignSummary> {
  return runCampaign({
    root,
    world: TABLETOP_WORLD,
    suite: 'spatial',
    task: TASK,
    perturbation: null,
    policy: { spec: 'synthetic', file: null },
    baseBundle: 'none',
    heldout: range(heldoutFrom, 8),
    confirmation: range(2000, 4),
    devEpisodes: 8,
    generations: 1,
    gates: { ...DEFAULT_GATES, max_candidates: 1 },
    executeSteps: 5,
    runner: governedRunner(promotes ? (governed, control) => governed && control === undefined : () => false),
    diagnoser: builtinDiagnoser(),
  });
}
