// The actions a searched condition may start: the critic's world-neutral ones, then the restores a
// world declares. A world's restore is checked once, where the library is built: a program the
// critic cannot run, or one taking the id of a critic action, stops the campaign with its name
// instead of making every candidate that uses it unbuildable.
import { describe, expect, it } from 'vitest';
import { NEUTRAL_ACTIONS, WorldRestoreError, actionLibrary } from '../../evolution/search/action-library.js';
import type { RestoreAction, WorldRestores } from '../../sim/world.js';

const restores = (actions: RestoreAction[]): WorldRestores => ({ actions, forStage: () => actions[0]! });
const RISE: RestoreAction = { id: 'rise_clear', summary: 'rise clear', program: { budget: 6, steps: [{ tool: 'lift', budget: 5 }] } };

describe('the action library', () => {
  it("is the critic's actions, then the world's, each world program under the id its rule gives it", () => {
    const library = actionLibrary({ name: 'toy', restores: restores([RISE]) });
    expect(library.map((a) => a.id)).toEqual([...NEUTRAL_ACTIONS.map((a) => a.id), 'rise_clear']);
    const world = library.at(-1)!;
    expect(world.origin).toBe('world');
    expect(world.program('evo.k1')).toEqual({ ...RISE.program, id: 'evo.k1' });
    expect(world.propose('evo.k1')).toEqual({ action: 'recovery', recovery: 'evo.k1', priority: 3 });
  });

  it('refuses a world program the critic cannot run, naming the world, the restore and the field', () => {
    const bad = { ...RISE, program: { budget: 6, steps: [] } };
    expect(() => actionLibrary({ name: 'toy', restores: restores([bad]) })).toThrow(WorldRestoreError);
    expect(() => actionLibrary({ name: 'toy', restores: restores([bad]) })).toThrow(
      /world "toy" declares restore "rise_clear", which is not a recovery program: steps: /,
    );
  });

  it('refuses a world restore that takes the id of a critic action', () => {
    expect(() => actionLibrary({ name: 'toy', restores: restores([{ ...RISE, id: 'back_off' }]) })).toThrow(
      `world "toy" declares restore "back_off", which has the id of one of the critic's own actions`,
    );
  });
});
