// Several simulators in one thread share one MuJoCo WebAssembly instance. When one of them makes the
// instance's memory grow, every typed-array view the others hold goes empty; a simulator must
// re-fetch its views before it reads or writes state, or its next step acts on nothing.
import { describe, expect, it } from 'vitest';
import { TabletopEnv } from '../../sim/tabletop/index.js';
import { mujoco } from '../../sim/tabletop/mujoco.js';

const TASK = 'goal/lift_red_cube';
const ACTIONS = Array.from({ length: 25 }, (_, i) => [0.3 * Math.sin(i / 3), 0.2, -0.4, 0, 0, 0, i < 15 ? -1 : 1]);

async function trajectory(between?: () => Promise<void>): Promise<number[][]> {
  const env = await TabletopEnv.create();
  env.resetSync({ task: TASK, seed: 4 });
  const states: number[][] = [];
  for (const a of ACTIONS) {
    await between?.();
    states.push(Array.from(env.stepSync(a).obs.state));
  }
  env.closeSync();
  return states;
}

describe('simulators sharing one MuJoCo instance', () => {
  it('step exactly as they would alone while another one grows the shared memory', async () => {
    const alone = await trajectory();
    const other = await TabletopEnv.create();
    const mj = await mujoco();
    const hoard: { delete(): void }[] = [];
    const shared = await trajectory(async () => {
      // The other simulator resets (compiles a scene) and holds on to more state each step.
      other.resetSync({ task: 'long/red_cube_in_drawer_and_close', seed: hoard.length });
      for (let i = 0; i < 2; i++) hoard.push(new mj.MjData(other.current.world.model));
    });
    for (const d of hoard) d.delete();
    other.closeSync();
    expect(shared).toEqual(alone);
  });
});
