// Flags that name something in a world: the world itself, a task, a perturbation. Their values are
// checked here, so a typo is a usage error before anything runs.
import { builtinPerturbationNames, getTask, resolvePerturbation, type Perturbation } from '../../sim/index.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD, resolveWorld, type WorldRef } from '../../sim/worlds.js';
import type { World } from '../../sim/world.js';
import { UsageError } from '../command.js';
import { loaded } from './flag.js';

export const world = loaded('world', {
  metavar: 'NAME|FILE',
  help: `the world episodes run in: ${BUILTIN_WORLDS.join(', ')}, or a module that exports \`world\``,
  parse: (t): WorldRef => resolveWorld(t),
}).default(() => resolveWorld(DEFAULT_WORLD), DEFAULT_WORLD);

/** A perturbation as a flag gives it: the name or path the user wrote, and its loaded spec. */
export interface NamedPerturbation {
  readonly name: string;
  readonly spec: Perturbation;
}

export const task = loaded('task', { metavar: 'T', help: 'a task id (see zetta sim tasks)', parse: (t) => getTask(t).id });

export const taskOrAll = loaded('task', { metavar: 'T', help: 'a task id, or "all" for every task', parse: (t) => (t === 'all' ? t : getTask(t).id) });

export const perturb = loaded('perturb', {
  metavar: 'FILE|NAME',
  help: `a perturbation file, or a shipped one (sim/perturbations/NAME.json); default nominal\nshipped: ${builtinPerturbationNames().join(', ')}`,
  parse: (t): NamedPerturbation => ({ name: t, spec: resolvePerturbation(t) }),
});

/**
 * A comma-separated list of task ids (`--tasks`, `--source`, `--targets`), checked against the world
 * once it is loaded (a world named by --world is only known then): an unknown id is a usage error.
 */
export function worldTaskIds(w: World, list: string): string[] {
  return list.split(',').map((t) => {
    try {
      return w.task(t.trim()).id;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  });
}
