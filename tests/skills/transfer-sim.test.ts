// The third loop end to end in the real simulator, through bin/zetta.js: a campaign on
// object/green_cube_in_bowl under disturbance promotes a repair straight into a skill store
// (`zetta evolve --promote-to`), an operator approves it, and `zetta skills transfer` measures it on
// object/yellow_cube_in_bowl, a task no campaign used, at the same seeds with and without it. The
// skill must lift the both arm by ≥ 10 points while the critic-alone control with the same skill
// (trivial policies) stays under its cap and far below the both arm. Seeded: deterministic.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../zinfra/package-root.js';
import { tmp } from './campaign.js';

const run = promisify(execFile);

async function zetta(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { timeout: 400_000, maxBuffer: 64 << 20 });
  return stdout.trim().split('\n').at(-1)!;
}

interface Figures { both: { rate: number }; critic_alone: { rate: number; control: string } }
interface Transfer { targets: { task: string; loaded: string[]; without: Figures; with: Figures; gain: number; p_value: number; critic_alone_within_cap: boolean }[] }

describe('a skill promoted on one task, on a task no campaign used (real simulator)', () => {
  it('lifts the governed policy by ≥ 10 points there, and not the critic alone', async () => {
    const dir = tmp('zetta-transfer-');
    const db = join(dir, 'skills.db');
    const pool = ['--workers', '2', '--envs-per-worker', '4'];
    const campaign = JSON.parse(await zetta(
      'evolve', '--suite', 'object', '--task', 'object/green_cube_in_bowl', '--perturb', 'disturbance', '--dev-episodes', '30', '--generations', '1',
      '--confirm-seeds', 'none', '--root', join(dir, 'campaign'), '--promote-to', db, '--json', ...pool,
    )) as { promoted: boolean; skill: { id: string; state: string } | null };
    expect(campaign.promoted).toBe(true);
    expect(campaign.skill).toMatchObject({ state: 'pending' });
    const id = campaign.skill!.id;
    await zetta('skills', 'approve', id, '--db', db, '--as', 'operator', '--reason', 'held-out gate passed');

    const t = JSON.parse(await zetta(
      'skills', 'transfer', '--db', db, '--source', 'object/green_cube_in_bowl', '--targets', 'object/yellow_cube_in_bowl',
      '--perturb', 'disturbance', '--episodes', '20', '--no-record', '--out', join(dir, 'transfer'), '--json', ...pool,
    )) as Transfer;
    const yellow = t.targets[0]!;
    expect(yellow.loaded).toEqual([id]);
    expect(yellow.gain).toBeGreaterThanOrEqual(0.1);
    expect(yellow.p_value).toBeLessThan(0.05);
    // the control: the same composed bundle with trivial policies
    expect(yellow.critic_alone_within_cap).toBe(true);
    expect(yellow.with.both.rate - yellow.with.critic_alone.rate).toBeGreaterThanOrEqual(0.5);
  }, 600_000);
});
