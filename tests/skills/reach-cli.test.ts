// `zetta skills reach` end to end through bin/zetta.js and the built dist/: a real trial in the
// simulator whose verdicts land in the store, its --help, and bad input (one line, exit code 2).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SkillStore } from '../../skills/index.js';
import { runZetta } from '../support/zetta-process.js';
import { tmp } from './campaign.js';
import { fixtureSkill, MISSED_GRASP_FEATURES, MISSED_GRASP_RETRY } from './fixture-skill.js';

const zetta = (...args: string[]) => runZetta(['skills', ...args], 240_000);
const lastJson = (s: string) => JSON.parse(s.trim().split('\n').at(-1)!);

function refused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

let db: string;
let active: string;
let pending: string;

beforeAll(() => {
  db = join(tmp(), 'skills.db');
  const guard = { suite: 'spatial', source_task: 'spatial/front_cube_in_bowl', features: MISSED_GRASP_FEATURES };
  SkillStore.using(db, (s) => {
    active = s.add(fixtureSkill('retry', MISSED_GRASP_RETRY, guard).content, fixtureSkill('retry', MISSED_GRASP_RETRY, guard).files, {
      actor: 'ada',
      reason: 'test',
    }).id;
    s.transition(active, 'approve', { actor: 'bob', reason: 'test' });
    const other = fixtureSkill('retry-pending', MISSED_GRASP_RETRY, guard);
    pending = s.add(other.content, other.files, { actor: 'ada', reason: 'test' }).id;
  });
});

describe('zetta skills reach', () => {
  it('tries an active skill on the tasks named and records the verdicts in the store', async () => {
    const r = await zetta(
      'reach',
      active,
      '--db',
      db,
      '--tasks',
      'object/blue_cylinder_in_bowl',
      '--perturbs',
      'disturbance',
      '--episodes',
      '4',
      '--critic',
      'none',
      '--out',
      join(tmp(), 'reach'),
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| object/blue_cylinder_in_bowl | yes |');
    const out = lastJson(r.stdout);
    expect(out.verdicts).toHaveLength(1);
    expect(out.verdicts[0]).toMatchObject({ task: 'object/blue_cylinder_in_bowl', loads: true, evidence: { episodes: 4 } });
    const stored = SkillStore.using(db, (s) => s.reach(active));
    expect(stored.get('object/blue_cylinder_in_bowl')?.loads).toBe(true);
  }, 240_000);

  it('has --help, and refuses a pending skill, an unknown id and an unknown perturbation', async () => {
    const help = await zetta('reach', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: zetta skills reach ID/);
    refused(await zetta('reach', pending, '--db', db), /is pending: only an active skill is tried/);
    refused(await zetta('reach', 'ffffffffffff', '--db', db), /no skill "ffffffffffff"/);
    refused(await zetta('reach', active, '--db', db, '--perturbs', 'no-such-thing'), /--perturbs: /);
    refused(await zetta('reach', '--db', db), /the skill ID is required/);
  }, 120_000);
});
