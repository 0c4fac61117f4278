// Goal predicates (LIBERO's BDDL vocabulary: On, In, Open, Closed, Pressed ~ TurnOn, Up), compiled
// once per episode into closures over resolved ids, so checking the goal each step is cheap.
import { CABINET } from '../scene/cabinet.js';
import type { World } from '../world.js';
import { UP_HEIGHT, inRegion, resolvePlace } from './regions.js';
import type { Predicate } from './types.js';

export type Check = () => boolean;

export function compilePredicate(world: World, p: Predicate): Check {
  switch (p.op) {
    case 'On':
    case 'In': {
      const obj = world.movable(p.object);
      const place = resolvePlace(world, p.target);
      // "Put X in/on Y" is done when X rests there, not while the gripper still holds it.
      return () => inRegion(world, obj, place) && !world.grasped(obj);
    }
    case 'Open': {
      const f = world.fixture(p.target);
      return () => world.jointTravel(f) >= CABINET.openAbove;
    }
    case 'Closed': {
      const f = world.fixture(p.target);
      return () => world.jointTravel(f) <= CABINET.closedBelow;
    }
    case 'Pressed':
      return () => world.latchedButtons.has(p.target);
    case 'Up': {
      const obj = world.movable(p.object);
      const rest = obj.spec.halfHeight;
      return () => world.xpos[3 * obj.body + 2]! >= rest + UP_HEIGHT;
    }
  }
}

export function describePredicate(p: Predicate): string {
  return 'object' in p ? `${p.op}(${p.object}${'target' in p ? `, ${p.target}` : ''})` : `${p.op}(${p.target})`;
}
