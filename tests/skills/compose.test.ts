// Composition of skills onto the shipped default bundle: which load, which are skipped and why, how
// conflicts are settled, and that the composed bundle is one the critic loads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../critic/bundles/bundle.js';
import { ArtifactStore } from '../../evolution/campaign/artifacts.js';
import { readBundle, writeBundle } from '../../evolution/synthesis/bundle-files.js';
import type { BundleEntry, EntryChanges } from '../../skills/changes.js';
import { composeSkills, type ComposableSkill } from '../../skills/compose.js';
import type { SkillContent } from '../../skills/skill.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const BASE = readBundle('default', TABLETOP_LAYOUT, true);
const programs = (BASE.recoveries as { programs: BundleEntry[] }).programs;
const recentre = programs.find((p) => p.id === 'recentre')!;
const FEATURES = TABLETOP_LAYOUT.features.map((f) => f.name);
const TARGET = {
  world: 'tabletop',
  features: FEATURES,
  privilegedAuthorized: false,
  suite: 'object',
  task: 'object/blue_cylinder_in_bowl',
};

const none: EntryChanges = { added: [], replaced: [], removed: [] };

function skill(
  id: string,
  changes: { rules?: Partial<EntryChanges>; programs?: Partial<EntryChanges> },
  guard: Partial<SkillContent['guard']> = {},
): ComposableSkill {
  const content = {
    version: 1,
    name: `test_${id}@object/green_cube_in_bowl`,
    description: 'a test change',
    guard: {
      world: 'tabletop',
      features: ['robot.eef_z'],
      privileged: false,
      conditions: [],
      tags: { suite: 'object', source_task: 'object/green_cube_in_bowl' },
      ...guard,
    },
    changes: {
      base: { name: 'default', sha256: 'b'.repeat(64) },
      rules: { ...none, ...changes.rules },
      programs: { ...none, ...changes.programs },
    },
  } as unknown as SkillContent;
  return { id, content };
}

const lag = (n: number, description = 'lag-aware') => ({ ...recentre, lag_steps: n, description });
const slowRule = (id: string, priority: number, value = 0.005): BundleEntry => ({
  id,
  when: { op: 'lt', feature: 'derived.net_motion', value },
  guards: [],
  dwell: 30,
  cooldown: 60,
  safety: false,
  evidence: [],
  propose: { action: 'recovery', recovery: 'recentre', priority },
});

describe('composeSkills (onto the shipped default bundle)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-compose-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a skill whose guard holds, and the composed bundle is one the critic loads', () => {
    const c = composeSkills(
      BASE,
      [skill('aaa', { programs: { replaced: [lag(3)] }, rules: { added: [slowRule('stuck_low', 4)] } })],
      TARGET,
    );
    expect(c.loaded).toEqual(['aaa']);
    expect(c.decisions[0]).toMatchObject({ loaded: true, rules: ['aaa:stuck_low'], programs: ['recentre'] });
    const stored = writeBundle(new ArtifactStore(dir), c.bundle);
    const b = loadBundle(join(dir, stored.dir!), { layout: TABLETOP_LAYOUT, privileged: false });
    expect(b.recoveries.source.programs.find((p) => p.id === 'recentre')!.lag_steps).toBe(3);
    expect(b.rules.source.rules.map((r) => r.id)).toEqual([
      ...(BASE.rules as { rules: BundleEntry[] }).rules.map((r) => r.id),
      'aaa:stuck_low',
    ]);
    expect(b.manifest.name).toBe('default+skills');
  });

  it('skips a skill of another task family, or one reading a feature the world lacks, and says why', () => {
    const c = composeSkills(
      BASE,
      [
        skill('spa', { programs: { replaced: [lag(3)] } }, { tags: { suite: 'spatial', source_task: 'spatial/left_cube_in_bowl' } }),
        skill('pm', { programs: { replaced: [lag(3)] } }, { features: ['robot.eef_z', 'observed.goal_x'] }),
        skill('gone', { rules: { replaced: [slowRule('no_such_rule', 3)] } }),
      ],
      TARGET,
    );
    expect(c.loaded).toEqual([]);
    expect(c.bundle).toBe(BASE);
    expect(c.decisions.map((d) => d.reason)).toEqual([
      'applies to the spatial suite (from spatial/left_cube_in_bowl), not object (object/blue_cylinder_in_bowl)',
      'needs feature "observed.goal_x", which world "tabletop" lacks',
      'changes rule "no_such_rule", which the base bundle default lacks',
    ]);
  });

  it('applies the same change found by two campaigns once, notes aside', () => {
    const c = composeSkills(
      BASE,
      [skill('one', { programs: { replaced: [lag(2, 'from one')] } }), skill('two', { programs: { replaced: [lag(2, 'from two')] } })],
      TARGET,
    );
    expect(c.loaded).toEqual(['one', 'two']);
    expect(c.conflicts).toEqual([]);
    expect(c.decisions[1]!.reason).toBe('makes the same change as skill one (test_one@object/green_cube_in_bowl): applied once');
    const recs = (c.bundle.recoveries as { programs: BundleEntry[] }).programs;
    expect(recs.filter((p) => p.id === 'recentre')).toHaveLength(1);

    // Two campaigns that generated the same rule and program, under their own generated names.
    const program = { ...recentre, id: 'evo_g1_k0_x' };
    const rule = (name: string, recovery: string) => ({ ...slowRule(name, 4), propose: { action: 'recovery', recovery, priority: 4 } });
    const twins = composeSkills(
      BASE,
      [
        skill('p', { rules: { added: [rule('evo.g1-k0.x', 'evo_g1_k0_x')] }, programs: { added: [program] } }),
        skill('q', { rules: { added: [rule('evo.g2-k1.x', 'evo_g2_k1_x')] }, programs: { added: [{ ...program, id: 'evo_g2_k1_x' }] } }),
      ],
      TARGET,
    );
    expect(twins.loaded).toEqual(['p', 'q']);
    const rules = (twins.bundle.rules as { rules: BundleEntry[] }).rules;
    // their program does what the base's recentre does: it is not added, and the rule starts recentre
    expect(rules.filter((r) => r.id.endsWith('.x')).map((r) => [r.id, (r['propose'] as { recovery: string }).recovery])).toEqual([
      ['p:evo.g1-k0.x', 'recentre'],
    ]);
    expect(twins.decisions[1]!.rules).toEqual(['p:evo.g1-k0.x']);
  });

  it("adds a program two skills both add once, and the second skill's rule starts the one kept", () => {
    // two campaigns that found different conditions for the same restore (as the missed-grasp retry
    // and the far-from-the-object rule do): the composed bundle must still be one the critic loads
    const program = (id: string) => ({ ...recentre, id, budget: 77 });
    const rule = (name: string, recovery: string, value: number) => ({
      ...slowRule(name, 4, value),
      propose: { action: 'recovery', recovery, priority: 4 },
    });
    const c = composeSkills(
      BASE,
      [
        skill('far', {
          rules: { added: [rule('evo.g2_c1', 'evo_g2_c1_restore', 0.004)] },
          programs: { added: [program('evo_g2_c1_restore')] },
        }),
        skill('grasp', {
          rules: { added: [rule('evo.g1_c0', 'evo_g1_c0_restore', 0.002)] },
          programs: { added: [program('evo_g1_c0_restore')] },
        }),
      ],
      TARGET,
    );
    expect(c.loaded).toEqual(['far', 'grasp']);
    const programs = (c.bundle.recoveries as { programs: BundleEntry[] }).programs.map((p) => p.id);
    expect(programs.filter((id) => id.includes('evo_'))).toEqual(['far:evo_g2_c1_restore']);
    const starts = (c.bundle.rules as { rules: BundleEntry[] }).rules
      .filter((r) => r.id.includes('evo.'))
      .map((r) => [r.id, (r['propose'] as { recovery: string }).recovery]);
    expect(starts).toEqual([
      ['far:evo.g2_c1', 'far:evo_g2_c1_restore'],
      ['grasp:evo.g1_c0', 'far:evo_g2_c1_restore'],
    ]);
    const stored = writeBundle(new ArtifactStore(dir), c.bundle);
    expect(() => loadBundle(join(dir, stored.dir!), { layout: TABLETOP_LAYOUT, privileged: false })).not.toThrow();
  });

  it('names what each skill adds after it, so two campaigns’ generated names do not collide', () => {
    const elsewhere = (id: string, value: number) => skill(id, { rules: { added: [slowRule('evo.g1-k0.stall', 4, value)] } });
    const c = composeSkills(BASE, [elsewhere('s1', 0.004), elsewhere('s2', 0.002)], TARGET);
    expect(c.loaded).toEqual(['s1', 's2']);
    expect((c.bundle.rules as { rules: BundleEntry[] }).rules.slice(-2).map((r) => r.id)).toEqual([
      's1:evo.g1-k0.stall',
      's2:evo.g1-k0.stall',
    ]);
  });

  it('reports two different changes to one program at equal rank as a conflict and loads neither', () => {
    const c = composeSkills(
      BASE,
      [skill('two', { programs: { replaced: [lag(2)] } }), skill('four', { programs: { replaced: [lag(4)] } })],
      TARGET,
    );
    expect(c.loaded).toEqual([]);
    expect(c.conflicts).toEqual([{ skills: ['four', 'two'], on: 'program "recentre"', winner: null }]);
    expect(c.decisions[0]!.reason).toMatch(
      /conflicts with skill four .* on program "recentre" at equal priority \(0\) and specificity \(0\): neither is loaded/,
    );
  });

  it('settles rules on the same feature condition by priority, then by specificity', () => {
    const high = skill('high', { rules: { added: [slowRule('stuck_a', 6)] } });
    const low = skill('low', { rules: { added: [slowRule('stuck_b', 2)] } });
    const byPriority = composeSkills(BASE, [low, high], TARGET);
    expect(byPriority.loaded).toEqual(['high']);
    expect(byPriority.decisions[0]!.reason).toMatch(
      /conflicts with skill high .* on the feature condition of rule "low:stuck_b", which wins by priority 6 > 2/,
    );

    const specific = skill(
      'specific',
      { rules: { added: [{ ...slowRule('stuck_c', 2), dwell: 20 }] } },
      { conditions: [{ feature: 'robot.eef_z', op: 'lt', value: 0.3 }] },
    );
    const bySpecificity = composeSkills(BASE, [low, specific], TARGET);
    expect(bySpecificity.loaded).toEqual(['specific']);
    expect(bySpecificity.conflicts[0]).toMatchObject({ winner: 'specific' });

    const elsewhere = skill('elsewhere', { rules: { added: [slowRule('stuck_d', 2, 0.002)] } });
    expect(composeSkills(BASE, [low, elsewhere], TARGET).loaded).toEqual(['low', 'elsewhere']);
  });
});
