// Worlds by name: `--world tabletop` (the default), `--world point-mass`, a remote env server
// (`zmq://HOST:PORT`, whose world is built from the server's spec), or the path of a module that
// exports `world` (a World). A WorldRef is plain data, so a plan can carry it to a worker thread,
// which loads the same world there.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SimInputError } from './errors.js';
import { isRemoteEnvSpec, parseEndpoint } from './remote/endpoint.js';
import type { World } from './world.js';

export interface WorldRef {
  readonly name: string;
  /** file: URL of the module that exports `world`. */
  readonly module: string;
}

export const DEFAULT_WORLD = 'tabletop';

// Static specifiers, so both the sources (tests) and the built package resolve them.
const BUILTIN: Readonly<Record<string, { load: () => Promise<{ world: World }>; url: URL }>> = {
  tabletop: { load: () => import('./tabletop/tabletop-world.js'), url: new URL('./tabletop/tabletop-world.js', import.meta.url) },
  'point-mass': {
    load: () => import('./point-mass/point-mass-world.js'),
    url: new URL('./point-mass/point-mass-world.js', import.meta.url),
  },
};

export const BUILTIN_WORLDS: readonly string[] = Object.keys(BUILTIN);

/** A remote env's world depends on its address, so its module exports `openWorld(spec)`. */
const REMOTE = { load: () => import('./remote/remote-world.js'), url: new URL('./remote/remote-world.js', import.meta.url) };

/** A built-in name, `zmq://HOST:PORT`, or the path of a module exporting `world`; an unknown one is an input error. */
export function resolveWorld(spec: string = DEFAULT_WORLD): WorldRef {
  const builtin = BUILTIN[spec];
  if (builtin) return { name: spec, module: builtin.url.href };
  if (isRemoteEnvSpec(spec)) {
    parseEndpoint(spec); // a malformed address is an input error now, not in a worker
    return { name: spec, module: REMOTE.url.href };
  }
  const path = resolve(spec);
  if (!existsSync(path)) {
    throw new SimInputError(
      `unknown world "${spec}": built-in worlds are ${BUILTIN_WORLDS.join(', ')}, zmq://HOST:PORT names a remote env server, or give the path of a module that exports \`world\``,
    );
  }
  return { name: path, module: pathToFileURL(path).href };
}

const loaded = new Map<string, Promise<World>>();

/** The world a ref names, loaded once per thread. */
export function loadWorld(ref: WorldRef = resolveWorld()): Promise<World> {
  const key = isRemoteEnvSpec(ref.name) ? ref.name : ref.module;
  let w = loaded.get(key);
  if (!w) {
    w = importWorld(ref);
    loaded.set(key, w);
    // A server that was not up yet may be by the next call: do not keep the failure.
    w.catch(() => loaded.delete(key));
  }
  return w;
}

async function importWorld(ref: WorldRef): Promise<World> {
  if (isRemoteEnvSpec(ref.name)) return (await REMOTE.load()).openWorld(ref.name);
  const builtin = BUILTIN[ref.name];
  const mod = (builtin ? await builtin.load() : await import(ref.module)) as { world?: World };
  if (!mod.world || typeof mod.world.createEnv !== 'function') {
    throw new SimInputError(`world module ${ref.module} does not export \`world\` (a World)`);
  }
  return mod.world;
}
