// What the embedded base policy sees and emits: the embedded suite's observation turned into the
// named arrays a policy server receives (the LIBERO-style `observation/*` keys), fixed in size
// across tasks so one multi-task network reads them all.
import type { Observation as PolicyObservation } from '../../protocol/ndarray.js';
import { OBJECT_POSE_DIM, STATE_DIM, type Observation } from '../env.js';
import { listTasks } from './tasks/catalog.js';

/** Object slots in `observation/objects`; a task's objects fill the first ones, the rest are zero. */
export const POLICY_OBJECT_SLOTS = 6;
export const POLICY_KEYS = {
  state: 'observation/state',
  objects: 'observation/objects',
  task: 'observation/task',
  step: 'observation/step',
  prompt: 'prompt',
} as const;

/** The task order of the one-hot `observation/task`: the catalog's order, fixed by the trained model. */
export const POLICY_TASKS: readonly string[] = listTasks().map((t) => t.id);

export function policyTaskIndex(task: string): number {
  const i = POLICY_TASKS.indexOf(task);
  if (i < 0) throw new RangeError(`task "${task}" is not one the embedded policy knows (${POLICY_TASKS.join(', ')})`);
  return i;
}

/**
 * Reusable buffers for one env's policy observations. The arrays are overwritten by the next fill,
 * as the env's own observation is: copy what you keep (the wire encoder copies when it sends).
 */
export class PolicyObservationWriter {
  private readonly state = new Float32Array(STATE_DIM);
  private readonly objects = new Float32Array(POLICY_OBJECT_SLOTS * OBJECT_POSE_DIM);
  private readonly task = new Float32Array(POLICY_TASKS.length);
  private readonly step = new Float32Array(1);
  private readonly out: PolicyObservation;

  constructor() {
    this.out = {
      [POLICY_KEYS.state]: { dtype: '<f4', shape: [STATE_DIM], data: this.state },
      [POLICY_KEYS.objects]: { dtype: '<f4', shape: [this.objects.length], data: this.objects },
      [POLICY_KEYS.task]: { dtype: '<f4', shape: [this.task.length], data: this.task },
      [POLICY_KEYS.step]: { dtype: '<f4', shape: [1], data: this.step },
      [POLICY_KEYS.prompt]: '',
    };
  }

  fill(obs: Observation, task: string): PolicyObservation {
    this.state.set(obs.state);
    if (obs.objects.length > this.objects.length) {
      throw new RangeError(`${obs.objects.length / OBJECT_POSE_DIM} objects exceed the policy's ${POLICY_OBJECT_SLOTS} slots`);
    }
    this.objects.fill(0);
    this.objects.set(obs.objects);
    this.task.fill(0);
    this.task[policyTaskIndex(task)] = 1;
    // The step count is the only memory a reactive policy gets: above a spring-back button,
    // "about to press" and "just pressed" look the same except for when they happen.
    this.step[0] = obs.t;
    this.out[POLICY_KEYS.prompt] = obs.prompt;
    return this.out;
  }
}
