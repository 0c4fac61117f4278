// Reach: the verdict rule on a trial's paired counts, the store's append-only record of trials (the
// latest per task decides), and applicability, where a trial outranks the family guard both ways.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applicability, reachVerdict, SkillStore, type ReachEvidence } from '../../skills/index.js';
import { SCHEMA_VERSION } from '../../skills/store/migrations.js';
import { tmp } from './campaign.js';
import { fixtureSkill, MISSED_GRASP_FEATURES, MISSED_GRASP_RETRY } from './fixture-skill.js';

const evidence = (over: Partial<ReachEvidence>): ReachEvidence => ({
  perturbations: ['disturbance'],
  seeds: [150000, 150001, 150002, 150003],
  without: 1,
  with: 3,
  episodes: 4,
  b: 2,
  c: 0,
  critic_alone: 0,
  critic_alone_cap: 0.1,
  ...over,
});

describe('reachVerdict', () => {
  it('loads a skill where it rescued more paired episodes than it broke', () => {
    const v = reachVerdict('object/blue_cylinder_in_bowl', evidence({}));
    expect(v).toMatchObject({ task: 'object/blue_cylinder_in_bowl', loads: true });
    expect(v.reason).toContain('2 rescued, 0 broken of 4');
  });

  it('refuses it where it rescued no more than it broke, and where nothing changed', () => {
    expect(reachVerdict('goal/press_button', evidence({ b: 0, c: 3, with: 0, without: 3 }))).toMatchObject({
      loads: false,
      reason: expect.stringMatching(/^no net rescue: 0 rescued, 3 broken/),
    });
    expect(reachVerdict('goal/red_cube_in_bowl', evidence({ b: 1, c: 1 })).loads).toBe(false);
    expect(reachVerdict('goal/red_cube_in_bowl', evidence({ b: 0, c: 0 })).loads).toBe(false);
  });

  it('refuses it where the trivial policies under it pass the cap, whatever it rescued', () => {
    const v = reachVerdict('goal/lift_red_cube', evidence({ b: 4, c: 0, critic_alone: 0.25 }));
    expect(v.loads).toBe(false);
    expect(v.reason).toMatch(/critic alone 25% is over the cap 10%/);
  });
});

describe('the store keeps reach trials', () => {
  const skill = fixtureSkill('retry', MISSED_GRASP_RETRY, {
    suite: 'spatial',
    source_task: 'spatial/front_cube_in_bowl',
    features: MISSED_GRASP_FEATURES,
  });
  const who = { actor: 'ada', reason: 'trial' };

  it('records verdicts, and the latest trial of a task decides', () => {
    const db = join(tmp(), 'skills.db');
    SkillStore.using(db, (s) => {
      const { id } = s.add(skill.content, skill.files, who);
      expect(s.reach(id).size).toBe(0);
      s.recordReach(
        id,
        [reachVerdict('goal/press_button', evidence({ b: 0, c: 2 })), reachVerdict('object/green_cube_in_bowl', evidence({}))],
        who,
      );
      s.recordReach(id, [reachVerdict('goal/press_button', evidence({ b: 3, c: 0 }))], { actor: 'bob', reason: 'again' });
      const reach = s.reach(id);
      expect([...reach.keys()].sort()).toEqual(['goal/press_button', 'object/green_cube_in_bowl']);
      expect(reach.get('goal/press_button')).toMatchObject({ loads: true, evidence: { b: 3, c: 0 } });
      expect(reach.get('object/green_cube_in_bowl')?.loads).toBe(true);
      expect(s.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    });
  });

  it('is append-only in the database itself, and refuses an unknown skill', () => {
    const db = join(tmp(), 'skills.db');
    SkillStore.using(db, (s) => {
      const { id } = s.add(skill.content, skill.files, who);
      s.recordReach(id, [reachVerdict('goal/press_button', evidence({}))], who);
      expect(() => s.db.prepare('UPDATE reach_trials SET loads = 0').run()).toThrow(/append-only/);
      expect(() => s.db.prepare('DELETE FROM reach_trials').run()).toThrow(/append-only/);
      expect(() => s.recordReach('ffffffffffff', [], who)).toThrow(/no skill "ffffffffffff"/);
    });
  });
});

describe('applicability with reach', () => {
  const guard = {
    world: 'tabletop',
    features: ['robot.eef_z'],
    privileged: false,
    conditions: [],
    tags: { suite: 'spatial', source_task: 'spatial/front_cube_in_bowl' },
  };
  const target = (task: string) => ({ world: 'tabletop', features: ['robot.eef_z'], suite: task.split('/')[0]!, task });
  const reach = new Map([
    ['goal/lift_red_cube', reachVerdict('goal/lift_red_cube', evidence({}))],
    ['spatial/left_cube_in_bowl', reachVerdict('spatial/left_cube_in_bowl', evidence({ b: 0, c: 2 }))],
  ]);

  it('loads on a task of another family where a trial found it helps', () => {
    expect(applicability({ guard }, target('goal/lift_red_cube'), reach)).toMatchObject({
      ok: true,
      reason: expect.stringContaining('a reach trial on goal/lift_red_cube found it helps'),
    });
  });

  it('does not load on a task of its own family where a trial refused it', () => {
    expect(applicability({ guard }, target('spatial/left_cube_in_bowl'), reach)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('refused it: no net rescue'),
    });
  });

  it('leaves untried tasks to the family guard', () => {
    expect(applicability({ guard }, target('spatial/right_cube_on_plate'), reach).ok).toBe(true);
    expect(applicability({ guard }, target('goal/press_button'), reach).ok).toBe(false);
  });

  it('never lets a trial override the world or a missing feature', () => {
    const other = { ...target('goal/lift_red_cube'), world: 'point-mass' };
    expect(applicability({ guard }, other, reach).ok).toBe(false);
    expect(applicability({ guard }, { ...target('goal/lift_red_cube'), features: [] }, reach).ok).toBe(false);
  });
});
