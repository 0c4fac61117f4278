// The embedded MuJoCo tabletop as a World: LIBERO-style tasks in four suites, LIBERO-Pro
// perturbations, the embedded base policy's observation encoding, and a schema of observed and
// privileged features.
import type { World, WorldTask } from '../world.js';
import { builtinPerturbationNames, resolvePerturbation } from '../perturbation/builtin.js';
import { getTask, listTasks } from './tasks/catalog.js';
import { milestoneNames } from './tasks/milestones.js';
import { SUITE_MAX_STEPS, type SuiteName, type TaskDef } from './tasks/types.js';
import { EEF_BOX, POSITION_SCALE, ROTATION_SCALE } from './action.js';
import { TabletopEnv } from './env.js';
import { CONTROL_HZ } from './episode.js';
import { TABLETOP_FEATURES } from './feature-schema.js';
import { tabletopPerception } from './perception.js';
import { TABLETOP_RESTORES } from './restore-actions.js';
import { PolicyObservationWriter } from './policy-io.js';

const SUITES = ['spatial', 'object', 'goal', 'long'] as const;

function worldTask(t: TaskDef): WorldTask {
  return { id: t.id, suite: t.suite, instruction: t.instruction, maxSteps: SUITE_MAX_STEPS[t.suite], milestones: milestoneNames(t.stages) };
}

export const world: World = {
  name: 'tabletop',
  summary: 'the embedded MuJoCo tabletop: pick-and-place, drawer and button tasks in four LIBERO-style suites',
  action: {
    dim: 7,
    names: ['dx', 'dy', 'dz', 'dax', 'day', 'daz', 'gripper'],
    scale: { position: POSITION_SCALE, rotation: ROTATION_SCALE },
  },
  controlHz: CONTROL_HZ,
  workspace: { min: EEF_BOX.min, max: EEF_BOX.max },
  features: TABLETOP_FEATURES,
  // The frame's keys (not the schema's names): clustering reads them from recordings.
  signature: {
    eef_x: 0.02,
    eef_y: 0.02,
    eef_z: 0.02,
    finger_opening: 0.01,
    eef_subject_dist: 0.02,
    subject_lift: 0.02,
    subject_goal_dist: 0.03,
    grasped: 0.5,
    milestones_reached: 0.5,
  },
  // Its features exist for the critic and never reach the policy.
  authorizesPrivileged: true,
  suites: SUITES,
  tasks: (suite) => (suite === undefined ? listTasks() : listTasks(suite as SuiteName)).map(worldTask),
  task: (id) => worldTask(getTask(id)),
  createEnv: () => TabletopEnv.create(),
  policyEncoder() {
    const writer = new PolicyObservationWriter();
    return { encode: (obs, task) => writer.fill(obs, task) };
  },
  resolvePerturbation,
  get perturbationNames() {
    return builtinPerturbationNames();
  },
  restores: TABLETOP_RESTORES,
  perception: tabletopPerception,
};
