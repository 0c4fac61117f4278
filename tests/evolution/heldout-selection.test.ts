// Which candidate of a generation takes the one held-out test: of those that pass the development
// gates, the one that gained most there, whatever its rank. Synthetic episodes: a `stall` rule rescues
// half the development failures, a `deadline` rule all of them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, builtinDiagnoser, runCampaign } from '../../evolution/index.js';
import type { CandidateVerdict } from '../../evolution/campaign/gating.js';
import { TASK, governedRunner } from './synthetic.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

const rescues = (ids: readonly string[], seed: number): boolean =>
  ids.some((id) => id.endsWith('.deadline')) || (ids.some((id) => id.endsWith('.stall')) && seed % 2 === 0);

describe('the held-out test of a generation', () => {
  it('goes to the candidate with the largest development gain, not the first to pass', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zetta-heldout-choice-'));
    const summary = await runCampaign({
      root,
      world: TABLETOP_WORLD,
      suite: 'spatial',
      task: TASK,
      perturbation: null,
      policy: { spec: 'synthetic', file: null },
      baseBundle: 'none',
      heldout: Array.from({ length: 8 }, (_, i) => 1000 + i),
      devEpisodes: 8,
      generations: 1,
      gates: { ...DEFAULT_GATES, max_candidates: 3 },
      executeSteps: 5,
      runner: governedRunner((_governed, control, seed, ids) => control === undefined && rescues(ids, seed)),
      diagnoser: builtinDiagnoser(),
    });
    const verdicts = [0, 1, 2].map((k) => {
      const v = JSON.parse(readFileSync(join(root, `gen-1/candidates/k${k}/gates.json`), 'utf8')) as CandidateVerdict;
      const spec = JSON.parse(readFileSync(join(root, `gen-1/candidates/k${k}/synthesis.json`), 'utf8')) as {
        hypothesis: { template: string };
      };
      return { k, template: spec.hypothesis.template, ...v };
    });
    // the stall rule ranks first and passes the development gates, but gains less
    const stall = verdicts.find((v) => v.template === 'stall')!;
    const deadline = verdicts.find((v) => v.template === 'deadline')!;
    expect(stall.k).toBeLessThan(deadline.k);
    expect(stall).toMatchObject({ stage: 'selection', ran_dev: true, ran_heldout: false });
    expect(stall.reason).toContain(`gained more on the development seeds (8 vs 4)`);
    expect(deadline).toMatchObject({ stage: 'heldout', decision: 'promoted', ran_heldout: true });
    expect(verdicts.filter((v) => v.ran_heldout)).toHaveLength(1);
    expect(summary.promoted).toBe(true);
    expect(summary.decisions.map((d) => d.candidate)).toEqual(verdicts.map((v) => `g1-k${v.k}`));
  });
});
