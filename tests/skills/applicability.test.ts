// The applicability guard, as a pure function of the skill and the target world and task.
import { describe, expect, it } from 'vitest';
import { applicability, type ApplicabilityGuard } from '../../skills/index.js';

const guard: ApplicabilityGuard = {
  world: 'tabletop',
  features: ['observed.object_x', 'robot.eef_z'],
  privileged: false,
  conditions: [],
  tags: { suite: 'spatial', source_task: 'spatial/left_cube_in_bowl' },
};
const skill = { guard };
const tabletop = ['robot.eef_z', 'observed.object_x', 'observed.object_y'];

describe('applicability', () => {
  it('holds in the same world with every feature, on a task of the same suite', () => {
    const a = applicability(skill, { world: 'tabletop', features: tabletop, suite: 'spatial', task: 'spatial/right_cube_in_bowl' });
    expect(a).toEqual({ ok: true, reason: expect.stringContaining('all 2 features') });
  });

  it('does not hold in a world without a feature it reads, and names the feature', () => {
    const a = applicability(
      { guard: { ...guard, world: 'point-mass' } },
      { world: 'point-mass', features: ['robot.eef_z', 'observed.goal_dx'] },
    );
    expect(a.ok).toBe(false);
    expect(a.reason).toContain('"observed.object_x"');
    expect(a.reason).toContain('point-mass');
  });

  it('does not hold in another world, even one with the same features', () => {
    const a = applicability(skill, { world: 'point-mass', features: tabletop });
    expect(a).toMatchObject({ ok: false, reason: expect.stringMatching(/made in world "tabletop", not "point-mass"/) });
  });

  it('does not hold for another task family, and says which', () => {
    const a = applicability(skill, { world: 'tabletop', features: tabletop, suite: 'goal', task: 'goal/press_button' });
    expect(a.ok).toBe(false);
    expect(a.reason).toMatch(/spatial suite.*not goal \(goal\/press_button\)/);
  });

  it('does not hold for a run that withholds privileged features when the skill reads them', () => {
    const oracle = { guard: { ...guard, privileged: true } };
    expect(applicability(oracle, { world: 'tabletop', features: tabletop, privilegedAuthorized: true }).ok).toBe(true);
    const a = applicability(oracle, { world: 'tabletop', features: tabletop, privilegedAuthorized: false });
    expect(a).toMatchObject({ ok: false, reason: expect.stringContaining('privileged') });
    expect(applicability(skill, { world: 'tabletop', features: tabletop, privilegedAuthorized: false }).ok).toBe(true);
  });

  it('does not hold when a feature condition names a feature the world lacks', () => {
    const withCondition = { guard: { ...guard, conditions: [{ feature: 'observed.table_h', op: 'gt' as const, value: 0 }] } };
    const a = applicability(withCondition, { world: 'tabletop', features: tabletop });
    expect(a).toMatchObject({ ok: false, reason: expect.stringContaining('"observed.table_h"') });
  });
});
