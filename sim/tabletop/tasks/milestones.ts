// Milestones: the observable steps of a stage (reached, grasped, lifted, transported, placed,
// released; or reached, pulled, opened; ...). They are latched in order, so the first missing one
// says where an episode went wrong, which is what failure clustering keys on.
import { BUTTON } from '../scene/button.js';
import { CABINET } from '../scene/cabinet.js';
import type { World } from '../world.js';
import { compilePredicate, type Check } from './predicates.js';
import { UP_HEIGHT, dropPoint, inRegion, planarDistance, resolvePlace } from './regions.js';
import type { Stage } from './types.js';

export interface MilestoneDef {
  readonly name: string;
  /** Index of the stage this milestone belongs to. */
  readonly stage: number;
  readonly check: Check;
}

/** Names only, for a task's spec (no world needed). */
export function milestoneNames(stages: readonly Stage[]): string[] {
  return stages.flatMap((s) => stageMilestones(s).map((m) => `${subject(s)}.${m}`));
}

function stageMilestones(s: Stage): readonly string[] {
  switch (s.kind) {
    case 'place':
      return ['reached', 'grasped', 'lifted', 'transported', 'placed', 'released'];
    case 'lift':
      return ['reached', 'grasped', 'lifted', 'up'];
    case 'open':
      return ['reached_handle', 'pulled', 'opened'];
    case 'close':
      return ['pushed', 'closed'];
    case 'press':
      return ['reached', 'pressed'];
  }
}

export function subject(s: Stage): string {
  return s.kind === 'place' || s.kind === 'lift' ? s.object : s.kind === 'press' ? s.button : s.cabinet;
}

export function compileMilestones(world: World, stages: readonly Stage[]): MilestoneDef[] {
  return stages.flatMap((s, i) => {
    const checks = stageChecks(world, s);
    return stageMilestones(s).map((m, k) => ({ name: `${subject(s)}.${m}`, stage: i, check: checks[k]! }));
  });
}

function eefNear(world: World, body: number, radius: number, height: number, dz = 0): boolean {
  const p = world.xpos;
  const g = world.gripperBody;
  return planarDistance(world, g, body) < radius && Math.abs(p[3 * g + 2]! - p[3 * body + 2]! - dz) < height;
}

function stageChecks(world: World, s: Stage): Check[] {
  switch (s.kind) {
    case 'place': {
      const obj = world.movable(s.object);
      const place = resolvePlace(world, s.target);
      const spot = new Float64Array(2);
      const lifted = (): boolean => world.grasped(obj) && world.xpos[3 * obj.body + 2]! > obj.spec.halfHeight + 0.03;
      const transported = (): boolean => {
        dropPoint(world, place, spot, s.offset);
        const p = world.xpos;
        return world.grasped(obj) && Math.hypot(p[3 * obj.body]! - spot[0]!, p[3 * obj.body + 1]! - spot[1]!) < 0.03;
      };
      const released = compilePredicate(world, { op: s.relation, object: s.object, target: s.target });
      return [
        () => eefNear(world, obj.body, 0.02, 0.03),
        () => world.grasped(obj),
        lifted,
        transported,
        () => inRegion(world, obj, place),
        released,
      ];
    }
    case 'lift': {
      const obj = world.movable(s.object);
      const up = compilePredicate(world, { op: 'Up', object: s.object });
      const lifted = (): boolean => world.grasped(obj) && world.xpos[3 * obj.body + 2]! > obj.spec.halfHeight + Math.min(0.03, UP_HEIGHT);
      return [() => eefNear(world, obj.body, 0.02, 0.03), () => world.grasped(obj), lifted, () => up() && world.grasped(obj)];
    }
    case 'open': {
      const f = world.fixture(s.cabinet);
      const handle = (): boolean => {
        const p = world.xpos;
        const g = world.gripperBody;
        const hx = p[3 * f.part]! + CABINET.handle.x;
        return (
          Math.abs(p[3 * g]! - hx) < 0.05 && Math.abs(p[3 * g + 1]! - p[3 * f.part + 1]!) < CABINET.handle.halfLength && p[3 * g + 2]! < 0.1
        );
      };
      return [handle, () => world.jointTravel(f) > 0.02, compilePredicate(world, { op: 'Open', target: s.cabinet })];
    }
    case 'close': {
      const f = world.fixture(s.cabinet);
      return [() => world.jointTravel(f) < CABINET.travel / 2, compilePredicate(world, { op: 'Closed', target: s.cabinet })];
    }
    case 'press': {
      const f = world.fixture(s.button);
      return [
        () => eefNear(world, f.part, 0.02, 0.06, 0.04),
        () => world.latchedButtons.has(s.button) || world.jointTravel(f) >= BUTTON.pressDepth,
      ];
    }
  }
}
