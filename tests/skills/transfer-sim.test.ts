// The third loop end to end in the real simulator, through bin/zetta.js: campaigns on two source
// tasks of two suites (spatial/right_cube_on_plate, object/green_cube_in_bowl) under disturbance,
// starting from the default bundle without its `grip_lost` rule (the repair such campaigns found
// before that rule was shipped), each promote a repair straight into one skill store (`zetta evolve
// --promote-to`), an operator approves both, and `zetta skills transfer` measures them on
// spatial/front_cube_in_bowl and object/yellow_cube_in_bowl, tasks no campaign used, at the same
// seeds with and without them. On each target the skill of its suite must lift the both arm by ≥ 10
// points while the critic-alone control with the same skill (trivial policies) stays under its cap
// and far below the both arm, and the successes must stay the policy's own work: its actions most
// of their steps, no milestone reached while a recovery drove. Seeded: deterministic.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../util/package-root.js';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { tmp } from './campaign.js';

const run = promisify(execFile);

async function zetta(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { timeout: 1_500_000, maxBuffer: 64 << 20 });
  return stdout.trim().split('\n').at(-1)!;
}

interface Figures {
  both: { rate: number };
  critic_alone: { rate: number; control: string };
}
interface Drove {
  policy_share_in_successes: number;
  milestones_during_recovery: number;
}
interface Transfer {
  targets: {
    task: string;
    loaded: string[];
    without: Figures;
    with: Figures;
    gain: number;
    p_value: number;
    critic_alone_within_cap: boolean;
    drove: { with: Drove };
  }[];
}

const SOURCES = [
  ['spatial', 'spatial/right_cube_on_plate'],
  ['object', 'object/green_cube_in_bowl'],
] as const;
const TARGETS = ['spatial/front_cube_in_bowl', 'object/yellow_cube_in_bowl'];

describe('skills promoted on two tasks, on tasks no campaign used (real simulator)', () => {
  it('lift the governed policy by ≥ 10 points on each, and not the critic alone', async () => {
    const dir = tmp('zetta-transfer-');
    const db = join(dir, 'skills.db');
    const base = defaultBundleWithout(dir, 'grip_lost', 'hand_closed_empty');
    const pool = ['--workers', '2', '--envs-per-worker', '4', '--critic', base];
    const ids: string[] = [];
    for (const [suite, task] of SOURCES) {
      const campaign = JSON.parse(
        await zetta(
          'evolve',
          '--suite',
          suite,
          '--task',
          task,
          '--perturb',
          'disturbance',
          '--dev-episodes',
          '30',
          '--generations',
          '1',
          '--confirm-seeds',
          'none',
          '--root',
          join(dir, `campaign-${suite}`),
          '--promote-to',
          db,
          '--json',
          ...pool,
        ),
      ) as { promoted: boolean; skill: { id: string; state: string } | null };
      expect(campaign.promoted, task).toBe(true);
      expect(campaign.skill).toMatchObject({ state: 'pending' });
      ids.push(campaign.skill!.id);
      // the repair reads only what a robot perceives: the skill is not marked privileged
      const shown = JSON.parse(await zetta('skills', 'show', campaign.skill!.id, '--db', db, '--json')) as {
        skill: { content: { guard: { privileged: boolean; features: string[] } } };
      };
      expect(shown.skill.content.guard.privileged, task).toBe(false);
      expect(shown.skill.content.guard.features, task).toContain('observed.object_moved_alone');
      await zetta('skills', 'approve', campaign.skill!.id, '--db', db, '--as', 'operator', '--reason', 'held-out gate passed');
    }

    const t = JSON.parse(
      await zetta(
        'skills',
        'transfer',
        '--db',
        db,
        '--source',
        SOURCES.map(([, task]) => task).join(','),
        '--targets',
        TARGETS.join(','),
        '--perturb',
        'disturbance',
        '--episodes',
        '20',
        '--no-record',
        '--out',
        join(dir, 'transfer'),
        '--json',
        ...pool,
      ),
    ) as Transfer;
    expect(t.targets.map((x) => x.task)).toEqual(TARGETS);
    t.targets.forEach((target, i) => {
      // each target loads the skill of its own suite only (the guard's suite tag)
      expect(target.loaded, target.task).toEqual([ids[i]]);
      expect(target.gain, target.task).toBeGreaterThanOrEqual(0.1);
      // the control: the same composed bundle with trivial policies
      expect(target.critic_alone_within_cap, target.task).toBe(true);
      expect(target.with.both.rate - target.with.critic_alone.rate, target.task).toBeGreaterThanOrEqual(0.5);
      expect(target.drove.with.policy_share_in_successes, target.task).toBeGreaterThanOrEqual(0.6);
      expect(target.drove.with.milestones_during_recovery, target.task).toBe(0);
    });
  }, 3_600_000);
});
