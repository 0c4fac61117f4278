// Evolution that discovers, in a world with no template for it: the point mass (its own schema, no
// gripper, no objects) with a real ONNX reaching policy that drives straight into a wall. From an
// empty bundle, the campaign's search finds a condition over the world's and the critic's features,
// a screening rollout picks a world-neutral action from the library, and the gates promote it.
// The claim is made on seeds that chose nothing, with the critic-alone control beside it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCampaign } from '../../evolution/campaign/campaign.js';
import { evaluatorRunner } from '../../evolution/campaign/evaluator-runner.js';
import { DEFAULT_GATES } from '../../evolution/campaign/manifest.js';
import { builtinDiagnoser } from '../../evolution/diagnosis/diagnoser.js';
import { runGovernanceArms } from '../../measure/governance-arms.js';
import { world as pointMass } from '../../sim/point-mass/point-mass-world.js';
import { resolveWorld } from '../../sim/worlds.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { writeEmptyBundle } from '../../evolution/index.js';
import { promoteCampaign, runReachTrial, SkillStore } from '../../skills/index.js';
import { writeReachPolicy } from '../support/point-mass-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-search-campaign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const policy = `onnx:${writeReachPolicy(join(dir, 'reach.onnx'))}`;
const ref = resolveWorld('point-mass');

describe('a campaign from an empty bundle in the point-mass world', () => {
  it('discovers a rule and an action that get the policy around the wall, where neither arm alone does', async () => {
    const root = join(dir, 'campaign');
    const summary = await runCampaign({
      world: pointMass,
      root,
      suite: 'reach',
      task: 'reach/around_wall',
      perturbation: null,
      policy: { spec: policy, file: null },
      baseBundle: 'none',
      heldout: Array.from({ length: 12 }, (_, i) => 5000 + i),
      confirmation: [],
      devEpisodes: 12,
      generations: 1,
      gates: { ...DEFAULT_GATES, max_candidates: 2 },
      executeSteps: 2,
      runner: evaluatorRunner({ world: ref, policy, executeSteps: 2, workers: 1, envsPerWorker: 1 }),
      diagnoser: builtinDiagnoser(),
    });
    expect(summary.promoted).toBe(true);
    const bundleDir = summary.bundle_dir!;
    const rules = JSON.parse(readFileSync(join(bundleDir, 'rules.json'), 'utf8')) as { rules: Array<{ id: string; when: unknown }> };
    const text = readFileSync(join(bundleDir, 'rules.json'), 'utf8') + readFileSync(join(bundleDir, 'recoveries.json'), 'utf8');
    // no hand-written rule, no tabletop feature, nothing privileged
    expect(rules.rules.every((r) => r.id.startsWith('evo.'))).toBe(true);
    expect(text).not.toMatch(/observed\.object|privileged\.|milestones/);

    // fresh seeds, the three arms: the critic alone (trivial policies under the promoted bundle) stays
    // at its cap. 60 episodes: a random walker nudged past the wall succeeds rarely, and 20 seeds
    // measure that rate between 0% and 15% depending on the block.
    const arms = await runGovernanceArms(
      {
        world: ref,
        tasks: ['reach/around_wall'],
        episodesPerTask: 60,
        firstSeed: 9000,
        policy,
        executeSteps: 2,
        critic: resolveCriticSpec(bundleDir)!,
        recordControls: false,
      },
      { workers: 1 },
    );
    const t = arms.perTask['reach/around_wall']!;
    expect(t.policy.value).toBe(0);
    expect(t.critic.value).toBeLessThanOrEqual(DEFAULT_GATES.critic_alone_cap);
    expect(t.both.value).toBeGreaterThanOrEqual(0.9);
    expect(t.both.value).toBeGreaterThan(t.critic.value);

    // its reach, in this world too: on the open task the policy needs no help, the rule never
    // fires, and the trial does not load it there (nothing rescued is no reason to)
    const db = join(dir, 'skills.db');
    const { skill } = await promoteCampaign(root, db, { actor: 'test', reason: 'test' });
    SkillStore.using(db, (s) => s.transition(skill.id, 'approve', { actor: 'test', reason: 'test' }));
    const [open] = await runReachTrial(
      {
        db,
        skill: skill.id,
        world: pointMass,
        worldRef: ref,
        base: { bundle: writeEmptyBundle(join(dir, 'base')), privileged: false },
        tasks: ['reach/open'],
        conditions: [{ name: 'nominal', perturbation: undefined }],
        episodes: 6,
        firstSeed: 9100,
        policy,
        executeSteps: 2,
        dir: join(dir, 'reach'),
      },
      { workers: 1 },
    );
    expect(open).toMatchObject({ task: 'reach/open', loads: false, evidence: { episodes: 6, b: 0, c: 0 } });
    expect(open!.evidence.with).toBe(open!.evidence.without);
  }, 300_000);
});
