// The public face of sim/: the World and Env ports, the world registry, the perturbation format and
// the worlds' errors, re-exported from the port files beside it (which the floors above may also
// import directly). Outside sim/, only the top of the stack (cli, experiments, bench, models) imports
// a world adapter (tabletop/, point-mass/, remote/); everything else reaches a world by name, through
// the registry.
export * from './env.js';
export type { ActionLayout, PolicyEncoder, World, WorldTask } from './world.js';
export { hasSceneGeometry, type SceneGeometry, type SceneSolid, type SolidShape } from './scene-geometry.js';
export { BUILTIN_WORLDS, DEFAULT_WORLD, loadWorld, resolveWorld, type WorldRef } from './worlds.js';
export { MjcfError, PerturbationError, SimInputError, SimPhysicsError, SimUnavailable } from './errors.js';
export { NOMINAL, PerturbationSchema, type Perturbation } from './perturbation/schema.js';
export { loadPerturbation, parsePerturbation } from './perturbation/load.js';
export { builtinPerturbationNames, resolvePerturbation } from './perturbation/builtin.js';
