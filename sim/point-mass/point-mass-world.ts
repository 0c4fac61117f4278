// The 2-D point mass as a World: two reaching tasks, its own feature schema (a goal, a wall, no
// gripper, no objects to move), and its own policy encoding: the goal relative to the mass.
import { f32 } from '../../protocol/ndarray.js';
import type { FeatureSchema } from '../../protocol/feature-schema.js';
import { SimInputError } from '../errors.js';
import { resolvePerturbation } from '../perturbation/builtin.js';
import type { World, WorldTask } from '../world.js';
import { CONTROL_HZ, PointMassEnv, STEP_M } from './point-mass-env.js';
import { POINT_MASS_TASKS } from './tasks.js';

export const POINT_MASS_FEATURES: FeatureSchema = Object.freeze({
  world: 'point-mass',
  features: Object.freeze([
    {
      name: 'observed.goal_dx',
      key: 'goal_dx',
      unit: 'm',
      kind: 'number',
      meaning: 'perceived goal position minus the mass, x',
      provenance: 'observed',
    },
    {
      name: 'observed.goal_dy',
      key: 'goal_dy',
      unit: 'm',
      kind: 'number',
      meaning: 'perceived goal position minus the mass, y',
      provenance: 'observed',
    },
    {
      name: 'observed.goal_dist',
      key: 'goal_dist',
      unit: 'm',
      kind: 'number',
      meaning: 'perceived distance from the mass to the goal',
      provenance: 'observed',
    },
    {
      name: 'privileged.goal_dist',
      key: 'true_goal_dist',
      unit: 'm',
      kind: 'number',
      meaning: 'true distance from the mass to the goal',
      provenance: 'privileged',
    },
    {
      name: 'privileged.wall_contact',
      key: 'wall_contact',
      unit: 'bool',
      kind: 'boolean',
      meaning: 'the last step ran into the wall',
      provenance: 'privileged',
    },
  ] as const),
});

/** `observation/goal`: the perceived goal relative to the mass (x, y), what a reaching policy needs. */
export const POINT_MASS_POLICY_KEY = 'observation/goal';

const worldTask = (t: WorldTask): WorldTask => ({
  id: t.id,
  suite: t.suite,
  instruction: t.instruction,
  maxSteps: t.maxSteps,
  milestones: t.milestones,
});

export const world: World = {
  name: 'point-mass',
  summary: 'a 2-D point mass reaching a goal, in the open or around a wall (kinematic, no gripper)',
  action: { dim: 7, names: ['dx', 'dy', 'unused', 'unused', 'unused', 'unused', 'unused'], scale: { position: STEP_M, rotation: 0.5 } },
  controlHz: CONTROL_HZ,
  workspace: { min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0.3] },
  features: POINT_MASS_FEATURES,
  signature: { x: 0.03, y: 0.03, goal_dist: 0.03, wall_contact: 0.5 },
  authorizesPrivileged: true,
  suites: ['reach'],
  tasks: (suite) => POINT_MASS_TASKS.filter((t) => suite === undefined || t.suite === suite).map(worldTask),
  task(id) {
    const t = POINT_MASS_TASKS.find((x) => x.id === id);
    if (!t) throw new SimInputError(`unknown point-mass task "${id}"; known tasks: ${POINT_MASS_TASKS.map((x) => x.id).join(', ')}`);
    return worldTask(t);
  },
  createEnv: async () => new PointMassEnv(),
  policyEncoder() {
    const goal = new Float32Array(2);
    const out = { [POINT_MASS_POLICY_KEY]: f32([2], goal), prompt: '' };
    return {
      encode(obs) {
        goal[0] = obs.objects[0]! - obs.state[0]!;
        goal[1] = obs.objects[1]! - obs.state[1]!;
        out.prompt = obs.prompt;
        return out;
      },
    };
  },
  // The point mass reads a perturbation's goal shift and sensor noise; the other sections do not apply.
  resolvePerturbation,
  perturbationNames: ['position-shift', 'sensor-noise-delay'],
};
