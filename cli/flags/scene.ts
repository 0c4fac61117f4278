// Flags that name something in a world: the world itself, a task, a perturbation. Their values are
// checked here, so a typo is a usage error before anything runs.
import { builtinPerturbationNames, getTask, resolvePerturbation, type Perturbation } from '../../sim/tabletop/index.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD, resolveWorld, type WorldRef } from '../../sim/worlds.js';
import { isRemoteEnvSpec } from '../../sim/remote/index.js';
import type { World } from '../../sim/world.js';
import { UsageError } from '../command.js';
import { loaded } from './flag.js';

export const world = loaded('world', {
  metavar: 'NAME|FILE',
  help: `the world episodes run in: ${BUILTIN_WORLDS.join(', ')}, zmq://HOST:PORT (see --env), or a module that exports \`world\``,
  parse: (t): WorldRef => resolveWorld(t),
}).default(() => resolveWorld(DEFAULT_WORLD), DEFAULT_WORLD);

/** `--env zmq://HOST:PORT`: a remote env server (LIBERO, RoboCasa, anyone's) as the world, instead of --world. */
export const env = loaded('env', {
  metavar: 'zmq://HOST:PORT',
  help: [
    'a remote env server (sim/remote/README.md) instead of --world: its spec gives the',
    'tasks (SUITE/TASK) and features; ?timeout_ms=N&reset_timeout_ms=N&socket=req|dealer',
  ].join('\n'),
  parse: (t): WorldRef => {
    if (!isRemoteEnvSpec(t)) throw new UsageError(`--env ${t}: expected zmq://HOST:PORT or zmq+ipc:///PATH`);
    return resolveWorld(t);
  },
});

/** The world of a command that takes both --world and --env (they exclude each other). */
export function chosenWorld(flags: { readonly world: WorldRef; readonly env: WorldRef | undefined }, argv: readonly string[]): WorldRef {
  if (!flags.env) return flags.world;
  if (argv.some((a) => a === '--world' || a.startsWith('--world='))) throw new UsageError('give --world or --env, not both');
  return flags.env;
}

/** A perturbation as a flag gives it: the name or path the user wrote, and its loaded spec. */
export interface NamedPerturbation {
  readonly name: string;
  readonly spec: Perturbation;
}

export const task = loaded('task', { metavar: 'T', help: 'a task id (see zetta sim tasks)', parse: (t) => getTask(t).id });

export const taskOrAll = loaded('task', {
  metavar: 'T',
  help: 'a task id, or "all" for every task',
  parse: (t) => (t === 'all' ? t : getTask(t).id),
});

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
