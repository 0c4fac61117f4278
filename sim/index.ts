// The public face of sim/: the World and Env ports, the world registry, the perturbation format and
// the worlds' errors. A layer above the worlds imports from here; a world adapter (tabletop/,
// point-mass/, remote/) is reached by name through the registry, never imported directly.
export * from './env.js';
export type { ActionLayout, PolicyEncoder, World, WorldTask } from './world.js';
export { BUILTIN_WORLDS, DEFAULT_WORLD, loadWorld, resolveWorld, type WorldRef } from './worlds.js';
export { MjcfError, PerturbationError, SimInputError, SimPhysicsError, SimUnavailable } from './errors.js';
export { NOMINAL, PerturbationSchema, type Perturbation } from './perturbation/schema.js';
export { loadPerturbation, parsePerturbation } from './perturbation/load.js';
export { builtinPerturbationNames, resolvePerturbation } from './perturbation/builtin.js';
