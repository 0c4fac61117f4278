// The mid-episode disturbance: at a sampled step, the task's main object is picked up by an
// invisible hand and set down elsewhere on the table (out of the gripper, if it was held).
import type { MainModule } from 'mujoco-js';
import type { DisturbancePlan } from '../perturbation/sample.js';
import { fits, fixtureFootprint, movableFootprint, type Footprint } from './footprint.js';
import type { MovableRef, World } from './world.js';

/** Displaces `obj` by the plan's distance, trying other directions until the spot is free. */
export function applyDisturbance(mj: MainModule, world: World, obj: MovableRef, plan: DisturbancePlan): boolean {
  const others: Footprint[] = [];
  for (const f of world.fixtures.values()) others.push(fixtureFootprint(f.spec.kind, world.xpos[3 * f.body]!, world.xpos[3 * f.body + 1]!));
  for (const m of world.movables.values()) {
    if (m !== obj)
      others.push(movableFootprint(world.xpos[3 * m.body]!, world.xpos[3 * m.body + 1]!, m.spec.halfWidth, m.spec.shape === 'cube'));
  }
  const x0 = world.xpos[3 * obj.body]!;
  const y0 = world.xpos[3 * obj.body + 1]!;
  for (let k = 0; k < 16; k++) {
    const a = plan.angle + (k * 2 * Math.PI) / 16;
    const fp = movableFootprint(
      x0 + plan.distance * Math.cos(a),
      y0 + plan.distance * Math.sin(a),
      obj.spec.halfWidth,
      obj.spec.shape === 'cube',
    );
    if (!fits(fp, others) || tooCloseToHand(world, fp)) continue;
    const q = world.qpos;
    q[obj.qposAdr] = fp.x;
    q[obj.qposAdr + 1] = fp.y;
    q[obj.qposAdr + 2] = obj.spec.halfHeight + 0.002;
    for (let i = 0; i < 6; i++) world.qvel[obj.qvelAdr + i] = 0;
    mj.mj_forward(world.model, world.data);
    world.refresh();
    return true;
  }
  return false;
}

/** Never drop the object onto (or into) the fingers. */
function tooCloseToHand(world: World, fp: Footprint): boolean {
  const g = world.gripperBody;
  const low = world.xpos[3 * g + 2]! < 0.12;
  return low && Math.hypot(world.xpos[3 * g]! - fp.x, world.xpos[3 * g + 1]! - fp.y) < fp.radius + 0.07;
}
