// The third loop end to end in the real simulator, through bin/zetta.js: a campaign on
// spatial/right_cube_on_plate under disturbance, starting from the default bundle without its
// `grip_lost` rule (the repair this campaign found before that rule was shipped), promotes a repair straight into a skill store
// (`zetta evolve --promote-to`), an operator approves it, and `zetta skills transfer` measures it on
// spatial/front_cube_in_bowl, a task no skill came from, at the same seeds with and without it. The
// skill must lift the both arm by ≥ 10 points while the critic-alone control with the same skill
// (trivial policies) stays under its cap and far below the both arm, and the successes must stay
// the policy's own work: its actions most of their steps, no milestone reached while a recovery
// drove. Seeded: deterministic.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../zinfra/package-root.js';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { tmp } from './campaign.js';

const run = promisify(execFile);

async function zetta(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { timeout: 400_000, maxBuffer: 64 << 20 });
  return stdout.trim().split('\n').at(-1)!;
}


interface Figures { both: { rate: number }; critic_alone: { rate: number; control: string } }
interface Drove { policy_share_in_successes: number; milestones_during_recovery: number }
interface Transfer { targets: { task: string; loaded: string[]; without: Figures; with: Figures; gain: number; p_value: number; critic_alone_within_cap: boolean; drove: { with: Drove } }[] }

describe('a skill promoted on one task, on a task no campaign used (real simulator)', () => {
  it('lifts the governed policy by ≥ 10 points there, and not the critic alone', async () => {
    const dir = tmp('zetta-transfer-');
    const db = join(dir, 'skills.db');
    const base = defaultBundleWithout(dir, 'grip_lost');
    const pool = ['--workers', '2', '--envs-per-worker', '4', '--critic', base];
    const campaign = JSON.parse(await zetta(
      'evolve', '--suite', 'spatial', '--task', 'spatial/right_cube_on_plate', '--perturb', 'disturbance', '--dev-episodes', '30', '--generations', '1',
      '--confirm-seeds', 'none', '--root', join(dir, 'campaign'), '--promote-to', db, '--json', ...pool,
    )) as { promoted: boolean; skill: { id: string; state: string } | null };
    expect(campaign.promoted).toBe(true);
    expect(campaign.skill).toMatchObject({ state: 'pending' });
    const id = campaign.skill!.id;
    await zetta('skills', 'approve', id, '--db', db, '--as', 'operator', '--reason', 'held-out gate passed');

    const t = JSON.parse(await zetta(
      'skills', 'transfer', '--db', db, '--source', 'spatial/right_cube_on_plate', '--targets', 'spatial/front_cube_in_bowl',
      '--perturb', 'disturbance', '--episodes', '20', '--no-record', '--out', join(dir, 'transfer'), '--json', ...pool,
    )) as Transfer;
    const front = t.targets[0]!;
    expect(front.loaded).toEqual([id]);
    expect(front.gain).toBeGreaterThanOrEqual(0.1);
    // the control: the same composed bundle with trivial policies
    expect(front.critic_alone_within_cap).toBe(true);
    expect(front.with.both.rate - front.with.critic_alone.rate).toBeGreaterThanOrEqual(0.5);
    expect(front.drove.with.policy_share_in_successes).toBeGreaterThanOrEqual(0.6);
    expect(front.drove.with.milestones_during_recovery).toBe(0);
  }, 600_000);
});
