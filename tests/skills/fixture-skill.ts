// Skills made in the test, not by a campaign: content whose change is given (rules and programs the
// skill adds), its bundle files and their hashes, so a store accepts it like a promoted one. The
// missed-grasp retry below is the change a campaign from the empty bundle promoted on
// spatial/front_cube_in_bowl under disturbance (docs/results/discovery.md); written out here so a
// test of where it loads needs no six-minute campaign first.
import { sha256 } from '../../evolution/campaign/artifacts.js';
import type { BundleEntry } from '../../skills/changes.js';
import { bundleFile, type BundleFile, type SkillContent } from '../../skills/index.js';

export interface FixtureSkill {
  readonly content: SkillContent;
  readonly files: BundleFile[];
}

const json = (x: unknown) => Buffer.from(`${JSON.stringify(x)}\n`);

export function fixtureSkill(
  name: string,
  change: { rules: BundleEntry[]; programs: BundleEntry[] },
  guard: { suite: string; source_task: string; features: string[] },
): FixtureSkill {
  const files = [
    bundleFile('manifest.json', json({ version: 1, name, privileged: false, rules: 'rules.json', recoveries: 'recoveries.json' })),
    bundleFile('rules.json', json({ version: 1, rules: change.rules })),
    bundleFile('recoveries.json', json({ version: 1, programs: change.programs })),
  ];
  const none = { added: [], replaced: [], removed: [] };
  const content: SkillContent = {
    version: 1,
    name,
    description: `test skill ${name}`,
    guard: { world: 'tabletop', features: [...guard.features].sort(), privileged: false, conditions: [], tags: guard },
    evidence: {
      campaign_id: `fixture-${name}`,
      promoted_candidate: 'g1-k0',
      generation: 1,
      mechanism: 'fixture',
      decisions: [],
      heldout: null,
      confirmation: null,
      shadow: null,
    },
    provenance: {
      code_version: 'test',
      bundle_sha256: sha256(files.map((f) => f.sha256).join('')),
      manifest_sha256: files[0]!.sha256,
      report_sha256: 'none',
      evidence_sha256: 'none',
      rollouts: {},
    },
    changes: {
      base: { name: 'none', sha256: 'e'.repeat(64) },
      rules: { ...none, added: change.rules },
      programs: { ...none, added: change.programs },
    },
    files: Object.fromEntries(files.map((f) => [f.name, f.sha256])),
  };
  return { content, files };
}

/** Gripper closed on nothing and the wrist still → open, rise, re-centre low above the object, hand back. */
export const MISSED_GRASP_RETRY = {
  rules: [
    {
      id: 'evo.g1_c0_restore_low_above_object',
      cooldown: 20,
      dwell: 1,
      evidence: [],
      guards: [
        { feature: 'episode.in_recovery', op: 'eq', value: 0 },
        { feature: 'episode.steps_since_recovery', op: 'ge', value: 10 },
      ],
      propose: { action: 'recovery', priority: 3, recovery: 'evo_g1_c0_restore_low_above_object' },
      safety: false,
      when: {
        op: 'and',
        args: [
          { feature: 'derived.gripper_width', op: 'lt', value: 0.000271 },
          { feature: 'derived.eef_rot_speed', op: 'lt', value: 2.94644 },
        ],
      },
    },
  ],
  programs: [
    {
      id: 'evo_g1_c0_restore_low_above_object',
      budget: 80,
      reentry: { max_speed: 0.2, max_width_rate: 0.0005, stable_steps: 2 },
      steps: [
        { budget: 8, fallback: 'skip', tool: 'open_gripper', until: { feature: 'derived.gripper_width', op: 'ge', value: 0.065 } },
        {
          budget: 15,
          fallback: 'skip',
          params: { gripper: 'open', speed: 0.6, to_z: 0.15 },
          tool: 'lift',
          until: { feature: 'robot.eef_z', op: 'gt', value: 0.12 },
        },
        {
          budget: 30,
          params: {
            gain: 0.3,
            gripper: 'open',
            height: 0.05,
            point: { x: 'observed.object_x', y: 'observed.object_y', z: 'observed.object_z' },
            speed: 0.7,
            xy_tol: 0.01,
          },
          tool: 'move_above',
          until: {
            op: 'and',
            args: [
              { feature: 'observed.object_eef_dist_xy', op: 'lt', value: 0.01 },
              { feature: 'observed.object_eef_dist', op: 'lt', value: 0.07 },
            ],
          },
        },
      ],
    },
  ],
} satisfies { rules: BundleEntry[]; programs: BundleEntry[] };

export const MISSED_GRASP_FEATURES = [
  'derived.eef_rot_speed',
  'derived.gripper_width',
  'observed.object_eef_dist',
  'observed.object_eef_dist_xy',
  'observed.object_x',
  'observed.object_y',
  'observed.object_z',
  'robot.eef_z',
];
