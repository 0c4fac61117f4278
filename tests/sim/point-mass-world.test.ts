// A second world through the same runtime, critic and evolution code as the tabletop: a 2-D point
// mass with its own feature schema (no drawer, no bowl, no gripper), its own bundle and a real ONNX
// reaching policy. Policy alone runs into the wall; the critic alone (trivial policies) never
// reaches; governed, the policy gets around the wall.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../critic/bundles/bundle.js';
import { layoutFor } from '../../critic/features/layout.js';
import { runCampaign } from '../../evolution/campaign/campaign.js';
import { evaluatorRunner } from '../../evolution/campaign/evaluator-runner.js';
import { DEFAULT_GATES } from '../../evolution/campaign/manifest.js';
import { builtinDiagnoser } from '../../evolution/diagnosis/diagnoser.js';
import { world as pointMass } from '../../sim/point-mass/point-mass-world.js';
import { loadWorld, resolveWorld } from '../../sim/worlds.js';
import { evaluate } from '../../measure/evaluation.js';
import { runGovernanceArms } from '../../measure/governance-arms.js';
import { packagePath } from '../../util/package-root.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { writeReachPolicy } from '../support/point-mass-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-point-mass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const policy = `onnx:${writeReachPolicy(join(dir, 'reach.onnx'))}`;
const bundle = join(import.meta.dirname, '../../sim/point-mass/bundle');
const ref = resolveWorld('point-mass');

describe('the point-mass world', () => {
  it('loads by name, with its own schema and tasks', async () => {
    const world = await loadWorld(ref);
    expect(world.name).toBe('point-mass');
    expect(world.tasks().map((t) => t.id)).toEqual(['reach/open', 'reach/around_wall']);
    expect(world.features.features.map((f) => f.name)).not.toContain('privileged.drawer_open');
  });

  it('runs the policy through the evaluator: the open reach succeeds, the wall stops it', async () => {
    const r = await evaluate(
      { world: ref, tasks: ['reach/open', 'reach/around_wall'], episodesPerTask: 4, firstSeed: 1000, policy, executeSteps: 2 },
      { workers: 1 },
    );
    expect(r.tasks['reach/open']!.rate).toBe(1);
    expect(r.tasks['reach/around_wall']!.rate).toBe(0);
  });

  it('governed by its own bundle, the policy gets around the wall, and the critic alone does not', async () => {
    const arms = await runGovernanceArms(
      {
        world: ref,
        tasks: ['reach/around_wall'],
        episodesPerTask: 6,
        firstSeed: 1000,
        policy,
        executeSteps: 2,
        critic: resolveCriticSpec(bundle)!,
        recordControls: false,
      },
      { workers: 1 },
    );
    const t = arms.perTask['reach/around_wall']!;
    expect(t.policy.value).toBe(0);
    expect(t.critic.value).toBe(0);
    expect(t.both.value).toBeGreaterThanOrEqual(5 / 6);
    expect(t.synergy.value).toBeGreaterThan(0.5);
  });

  it('rejects a tabletop bundle at load, naming the feature, the world and the nearest names', () => {
    const layout = layoutFor(pointMass.features);
    expect(() => loadBundle('default', { layout, privileged: true })).toThrow(
      /unknown feature "observed\.object_x": the world "point-mass" has no such feature \(nearest: observed\.goal_d/,
    );
  });

  it('runs an evolution campaign end to end with no tabletop in sight', async () => {
    const root = join(dir, 'campaign');
    const summary = await runCampaign({
      world: pointMass,
      root,
      suite: 'reach',
      task: 'reach/around_wall',
      perturbation: null,
      policy: { spec: policy, file: null },
      baseBundle: 'none',
      heldout: Array.from({ length: 6 }, (_, i) => 5000 + i),
      confirmation: [],
      devEpisodes: 6,
      generations: 1,
      gates: { ...DEFAULT_GATES, max_candidates: 2 },
      executeSteps: 2,
      runner: evaluatorRunner({ world: ref, policy, executeSteps: 2, workers: 1, envsPerWorker: 1 }),
      diagnoser: builtinDiagnoser(),
    });
    expect(summary.generations).toBe(1);
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
      world: string;
      authorized_features: { names: string[] };
    };
    expect(manifest.world).toBe('point-mass');
    expect(manifest.authorized_features.names).toContain('observed.goal_dist');
    expect(manifest.authorized_features.names).not.toContain('privileged.grasped');
    expect(readFileSync(summary.report, 'utf8')).toContain('reach/around_wall');
  }, 240_000);
});

describe('the point-mass world from the command line', () => {
  const zetta = (args: string[]) =>
    spawnSync(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { encoding: 'utf8', timeout: 120_000 });

  it('zetta eval --world point-mass: the governed policy gets around the wall', () => {
    const r = zetta([
      'eval',
      '--world',
      'point-mass',
      '--tasks',
      'reach/around_wall',
      '--episodes',
      '3',
      '--execute-steps',
      '2',
      '--policy',
      policy,
      '--critic',
      bundle,
      '--no-record',
      '--out',
      join(dir, 'eval'),
      '--json',
    ]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { tasks: Record<string, { success: number }>; recoveries: number };
    expect(report.tasks['reach/around_wall']!.success).toBe(3);
    expect(report.recoveries).toBeGreaterThanOrEqual(3);
  });

  it('zetta evolve --world point-mass runs a campaign and writes its report', () => {
    const root = join(dir, 'evolve');
    const r = zetta([
      'evolve',
      '--world',
      'point-mass',
      '--suite',
      'reach',
      '--task',
      'reach/around_wall',
      '--root',
      root,
      '--policy',
      policy,
      '--critic',
      'none',
      '--dev-episodes',
      '4',
      '--heldout-seeds',
      '5000-5003',
      '--confirm-seeds',
      '6000-6003',
      '--generations',
      '1',
      '--execute-steps',
      '2',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { generations: number; report: string };
    expect(summary.generations).toBe(1);
    expect(readFileSync(summary.report, 'utf8')).toContain('reach/around_wall');
  });
});
