// Evolution that discovers on the tabletop, from an empty bundle: the embedded policy under the
// position shift misses the yellow cube and closes on nothing. No template and no hand-written rule
// names that; the campaign's search finds a condition over the observed features, a screening rollout
// picks the tabletop's declared restore, and the gates promote it on held-out seeds. The claim is
// then made on fresh seeds, with the critic-alone control beside it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCampaign } from '../../evolution/campaign/campaign.js';
import { evaluatorRunner } from '../../evolution/campaign/evaluator-runner.js';
import { DEFAULT_GATES } from '../../evolution/campaign/manifest.js';
import { builtinDiagnoser } from '../../evolution/diagnosis/diagnoser.js';
import { runGovernanceArms } from '../../measure/governance-arms.js';
import { resolvePerturbation } from '../../sim/perturbation/builtin.js';
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { resolveWorld } from '../../sim/worlds.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-tabletop-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ref = resolveWorld('tabletop');
const TASK = 'object/yellow_cube_in_bowl';
const perturbation = { name: 'position-shift', spec: resolvePerturbation('position-shift') };

describe('a tabletop campaign from an empty bundle', () => {
  it('discovers a rule and a restore that rescue the shifted grasp, which neither arm alone does', async () => {
    const summary = await runCampaign({
      world: tabletop,
      root: join(dir, 'campaign'),
      suite: 'object',
      task: TASK,
      perturbation,
      policy: { spec: 'embedded', file: null },
      baseBundle: 'none',
      heldout: Array.from({ length: 20 }, (_, i) => 1000 + i),
      confirmation: [],
      devEpisodes: 30,
      // the first candidate to pass the development gates is a template, which the held-out seeds
      // reject; the generation's second held-out test goes to the next, a searched pair
      generations: 1,
      gates: DEFAULT_GATES,
      executeSteps: 5,
      runner: evaluatorRunner({ world: ref, policy: 'embedded', executeSteps: 5, workers: 1, envsPerWorker: 1 }),
      diagnoser: builtinDiagnoser(),
    });
    expect(summary.promoted).toBe(true);
    const bundleDir = summary.bundle_dir!;
    const rules = JSON.parse(readFileSync(join(bundleDir, 'rules.json'), 'utf8')) as { rules: Array<{ id: string }> };
    // only what the search wrote, and nothing a robot could not read
    expect(rules.rules.length).toBeGreaterThan(0);
    expect(rules.rules.some((r) => /^evo\.g\d_c\d+_/.test(r.id))).toBe(true);
    expect(rules.rules.every((r) => r.id.startsWith('evo.'))).toBe(true);
    expect(readFileSync(join(bundleDir, 'rules.json'), 'utf8')).not.toMatch(/privileged\.|milestones/);

    // fresh seeds that chose nothing, the three arms
    const arms = await runGovernanceArms(
      {
        world: ref,
        tasks: [TASK],
        episodesPerTask: 20,
        firstSeed: 3000,
        perturbation: perturbation.spec,
        policy: 'embedded',
        executeSteps: 5,
        critic: resolveCriticSpec(bundleDir)!,
        recordControls: false,
      },
      { workers: 1 },
    );
    const t = arms.perTask[TASK]!;
    expect(t.critic.value).toBeLessThanOrEqual(DEFAULT_GATES.critic_alone_cap);
    expect(t.both.value).toBeGreaterThan(Math.max(t.policy.value, t.critic.value));
    expect(t.synergy.low).toBeGreaterThan(0);
    // the policy still does the work: most executed steps of the successes are its own actions
    expect(arms.arms.both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
  }, 1_500_000);
});
