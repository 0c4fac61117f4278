// Campaign roots for the skill tests: real campaigns over synthetic episodes (no simulator), one
// whose candidate helps only the governed policy (so it is promoted) and one that promotes nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_GATES, builtinDiagnoser, runCampaign, type CampaignSummary, type RolloutRunner } from '../../evolution/index.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import { TASK, writeSyntheticEpisode } from '../evolution/synthetic.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

export const tmp = (prefix = 'zetta-skills-'): string => mkdtempSync(join(tmpdir(), prefix));

/** Episodes succeed when `succeeds(governed, control)`; each is recorded like a real one. */
function runner(succeeds: (governed: boolean, control: string | undefined) => boolean): RolloutRunner {
  return {
    policyLabel: 'synthetic',
    async run(req, onEpisode) {
      for (const seed of req.seeds) {
        const success = succeeds(req.bundleDir !== null, req.policy);
        const path = join(req.recordDir, TASK.replace('/', '__'), `${seed}.mcap`);
        const s = (await writeSyntheticEpisode(path, { seed, success, stallAt: 30 + (seed % 5) * 4 }))!;
        const outcome: EpisodeOutcome = {
          task: req.task, seed, success, steps: s.steps, milestones: s.milestones, infraFailure: null, physicsDivergence: false,
          policyActions: s.steps, unmodifiedPolicyActions: s.steps, recoveryActions: 0, milestonesDuringRecovery: 0, holdActions: 0,
          policyCalls: 0, policyWaitMs: 0, lateChunks: 0, resetDigest: `digest-${seed}`, wallMs: 0, recordPath: path, recoveries: 0,
          envelopeHits: 0, aborted: false,
        };
        onEpisode(outcome);
      }
    },
  };
}

/** A finished campaign in `root`; `promotes`: its candidate helps the policy and is promoted. */
export function campaign(root: string, promotes: boolean): Promise<CampaignSummary> {
  return runCampaign({
    root, world: TABLETOP_WORLD, suite: 'spatial', task: TASK, perturbation: null, policy: { spec: 'synthetic', file: null }, baseBundle: 'none',
    heldout: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007], confirmation: [2000, 2001, 2002, 2003],
    devEpisodes: 8, generations: 1, gates: { ...DEFAULT_GATES, max_candidates: 1 }, executeSteps: 5,
    runner: runner(promotes ? (governed, control) => governed && control === undefined : () => false), diagnoser: builtinDiagnoser(),
  });
}
