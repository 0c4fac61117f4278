// The scripted expert on every task. The acceptance bar (≥ 95% over 50 nominal seeds) is measured
// with `zetta sim expert --task all --episodes 50`; here 10 seeds per task keep the suite quick.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExpert, milestoneNames, runExpertEpisode, TabletopEnv, TASKS } from '../../sim/tabletop/index.js';

let env: TabletopEnv;
beforeAll(async () => {
  env = await TabletopEnv.create();
});
afterAll(() => env.closeSync());

describe('scripted expert', () => {
  for (const task of TASKS) {
    it(`solves ${task.id}`, () => {
      const s = evaluateExpert(env, { task: task.id, episodes: 10 });
      expect(s.successRate, `failed seeds ${s.failedSeeds.join(',')}`).toBeGreaterThanOrEqual(0.95);
    });
  }

  it('reaches every milestone of a multi-stage task, in order', () => {
    const e = runExpertEpisode(env, 'long/red_cube_in_drawer_and_close', 11);
    expect(e.success).toBe(true);
    expect(e.milestones).toEqual(milestoneNames(TASKS.find((t) => t.id === 'long/red_cube_in_drawer_and_close')!.stages));
    expect(e.steps).toBeLessThanOrEqual(520);
  });

  it('is deterministic: the same seed gives the same episode', () => {
    const a = runExpertEpisode(env, 'goal/stack_red_on_green', 3);
    const b = runExpertEpisode(env, 'goal/stack_red_on_green', 3);
    expect(b).toEqual(a);
  });
});
