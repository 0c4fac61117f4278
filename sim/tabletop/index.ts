// The public face of the embedded tabletop world: its Env, tasks, perturbations and scripted expert.
// The tabletop-only commands (zetta sim, demos, the expert stage) and the tests import from here.
export * from '../env.js';
export { MjcfError, PerturbationError, SimInputError, SimPhysicsError, SimUnavailable } from '../errors.js';
export { TabletopEnv } from './env.js';
export { CONTROL_HZ, SUBSTEPS } from './episode.js';
export { FEATURE_NAMES, type FeatureName } from './features.js';
export { POSITION_SCALE, ROTATION_SCALE, EEF_BOX } from './action.js';
export { TASKS, getTask, listTasks } from './tasks/catalog.js';
export { SUITE_MAX_STEPS, type Predicate, type Stage, type SuiteName, type TaskDef } from './tasks/types.js';
export { describePredicate } from './tasks/predicates.js';
export { milestoneNames } from './tasks/milestones.js';
export { NOMINAL, PerturbationSchema, type Perturbation } from '../perturbation/schema.js';
export { loadPerturbation, parsePerturbation } from '../perturbation/load.js';
export { builtinPerturbationNames, resolvePerturbation } from '../perturbation/builtin.js';
export { ScriptedExpert } from './expert/expert.js';
export { evaluateExpert, runExpertEpisode, type ExpertEpisode, type ExpertSummary } from './expert/run.js';

import { TabletopEnv } from './env.js';

/** The embedded simulator, ready for reset({ task, seed, perturbation }). */
export function createEnv(): Promise<TabletopEnv> {
  return TabletopEnv.create();
}
