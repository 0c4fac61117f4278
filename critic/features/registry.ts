// The static feature registry. Every name a rule, a recovery program or a tool may read is listed
// here, with its unit, its source and a one-line meaning. Being static is the point: a rule that
// names a feature not in this table is rejected when it is loaded, never at step N of a run.
//
// Deliberately absent: the task's success flag. Success is what we measure; no rule may read it.

export type FeatureSource = 'robot' | 'command' | 'episode' | 'derived' | 'observed' | 'privileged';
export type FeatureKind = 'number' | 'boolean';

export interface FeatureSpec {
  readonly name: string;
  readonly unit: string;
  readonly source: FeatureSource;
  readonly kind: FeatureKind;
  readonly meaning: string;
}

type Row = readonly [name: string, unit: string, kind: FeatureKind, meaning: string];

const ROBOT: readonly Row[] = [
  ['robot.eef_x', 'm', 'number', 'end-effector position x in the robot base frame'],
  ['robot.eef_y', 'm', 'number', 'end-effector position y in the robot base frame'],
  ['robot.eef_z', 'm', 'number', 'end-effector position z in the robot base frame'],
  ['robot.eef_rx', 'rad', 'number', 'end-effector orientation, axis-angle x component'],
  ['robot.eef_ry', 'rad', 'number', 'end-effector orientation, axis-angle y component'],
  ['robot.eef_rz', 'rad', 'number', 'end-effector orientation, axis-angle z component'],
  ['robot.gripper_q0', 'm', 'number', 'first finger joint position (state[6])'],
  ['robot.gripper_q1', 'm', 'number', 'second finger joint position (state[7])'],
];

const COMMAND: readonly Row[] = [
  ['command.dx', '1', 'number', 'proposed action a_t, normalized translation x'],
  ['command.dy', '1', 'number', 'proposed action a_t, normalized translation y'],
  ['command.dz', '1', 'number', 'proposed action a_t, normalized translation z'],
  ['command.drx', '1', 'number', 'proposed action a_t, normalized rotation x'],
  ['command.dry', '1', 'number', 'proposed action a_t, normalized rotation y'],
  ['command.drz', '1', 'number', 'proposed action a_t, normalized rotation z'],
  ['command.gripper', '1', 'number', 'proposed gripper command, −1 open … +1 close'],
  ['command.finite', 'bool', 'boolean', 'every component of a_t is finite'],
  ['command.trans_m', 'm', 'number', 'translation a_t asks for this step (‖a[0:3]‖ · 0.05 m)'],
  ['command.rot_rad', 'rad', 'number', 'rotation a_t asks for this step (‖a[3:6]‖ · 0.5 rad)'],
  ['command.gripper_close', 'bool', 'boolean', 'a_t commands the gripper closed (gripper > 0)'],
  ['command.gripper_flip', 'bool', 'boolean', "a_t's gripper sign differs from the last executed one"],
  ['command.prev_gripper', '1', 'number', 'gripper command of the last executed action'],
  ['command.prev_trans_m', 'm', 'number', 'translation the last executed action asked for'],
  ['command.realized_m', 'm', 'number', 'translation realized since the last step, ‖p_t − p_{t−1}‖'],
  ['command.direction_cosine', '1', 'number', 'cosine between last commanded and realized translation (NaN if none commanded)'],
  ['command.realized_ratio', '1', 'number', 'realized / commanded translation of the last action (NaN if none commanded)'],
  ['command.stalled', 'bool', 'boolean', 'the last action commanded motion but little of it was realized'],
  ['command.stalled_steps', 'steps', 'number', 'consecutive steps with command.stalled'],
];

const EPISODE: readonly Row[] = [
  ['episode.step', 'steps', 'number', 'index of this step since the episode reset'],
  ['episode.in_recovery', 'bool', 'boolean', 'a recovery program is driving the robot this step'],
  ['episode.recovery_steps', 'steps', 'number', 'steps spent in the current recovery (0 outside one)'],
  ['episode.recoveries', 'count', 'number', 'recoveries started this episode'],
  ['episode.steps_since_recovery', 'steps', 'number', 'steps since the last recovery ended (since reset if none)'],
  ['episode.policy_steps', 'steps', 'number', 'steps so far driven by the policy, not a recovery'],
];

const DERIVED: readonly Row[] = [
  ['derived.eef_speed', 'm/s', 'number', 'end-effector translational speed over the last step'],
  ['derived.eef_vz', 'm/s', 'number', 'end-effector vertical velocity over the last step'],
  ['derived.eef_rot_speed', 'rad/s', 'number', 'end-effector angular speed over the last step'],
  ['derived.height', 'm', 'number', 'end-effector height above the table plane'],
  ['derived.gripper_width', 'm', 'number', 'finger opening, |q0| + |q1|'],
  ['derived.gripper_width_rate', 'm/step', 'number', 'change of the finger opening since the last step'],
  ['derived.gripper_closing', 'bool', 'boolean', 'close commanded and the fingers are still closing'],
  ['derived.gripper_closed', 'bool', 'boolean', 'close commanded and the fingers have settled'],
  ['derived.gripper_closed_empty', 'bool', 'boolean', 'gripper_closed with the fingers (almost) touching: closed on nothing'],
  ['derived.gripper_flips', 'count', 'number', 'sign flips of the executed gripper command over the window (chattering)'],
  ['derived.motion_reversals', 'count', 'number', 'executed translations reversing direction over the window (oscillation)'],
  ['derived.net_motion', 'm', 'number', 'end-effector displacement across the window (progress)'],
];

/**
 * What the world perceives, with the noise and delay its sensors have: the poses the policy's own
 * observation carries, and what follows from them and the instruction. A robot with a perception
 * module has every one of these. An env's `features()` names them in full (`observed.object_x`).
 * "The task object" is the goal object the hand is nearest to among those not yet where the
 * instruction wants them: the one the policy is going for.
 */
export const OBSERVED_KEYS: readonly Row[] = [
  ['object_x', 'm', 'number', 'perceived position x of the task object'],
  ['object_y', 'm', 'number', 'perceived position y of the task object'],
  ['object_z', 'm', 'number', 'perceived position z of the task object (its centre)'],
  ['object_eef_dist', 'm', 'number', 'perceived distance from the hand to the task object'],
  ['object_eef_dist_xy', 'm', 'number', 'perceived horizontal distance from the hand to the task object'],
  ['target_x', 'm', 'number', "perceived position x of the task object's receptacle (NaN if it has none)"],
  ['target_y', 'm', 'number', "perceived position y of the task object's receptacle"],
  ['target_z', 'm', 'number', "perceived position z of the task object's receptacle"],
  ['object_target_dist_xy', 'm', 'number', 'perceived horizontal distance from the task object to its receptacle'],
  ['objects_left', 'count', 'number', 'goal objects not yet perceived where the instruction wants them'],
  ['fixture_eef_dist', 'm', 'number', 'perceived distance from the hand to the nearest fixture the instruction acts on (a handle, a button; +∞ if none)'],
];

/** Keys an env's `features()` may return; each maps to `privileged.<key>`. */
export const PRIVILEGED_KEYS: readonly Row[] = [
  ['grasped', 'bool', 'boolean', 'the task object is held between the pads'],
  ['object_height', 'm', 'number', 'task object bottom height above the table'],
  ['object_eef_dist', 'm', 'number', 'distance from the grip point to the task object'],
  ['object_target_dist_xy', 'm', 'number', 'horizontal distance from the task object to its target'],
  ['finger_gap', 'm', 'number', 'distance between the pads as the simulator measures it'],
  ['contact_force', 'N', 'number', 'total contact force on the gripper'],
  ['drawer_open', 'bool', 'boolean', 'the task drawer is open'],
  ['button_pressed', 'bool', 'boolean', 'the task button is pressed'],
  ['milestones_reached', 'count', 'number', "milestones of the task's stages reached so far"],
  ['object_lifted', 'bool', 'boolean', 'the task object is clear of the table'],
  ['object_speed', 'm/s', 'number', 'task object speed (a held object moving while the gripper stands still slips)'],
  ['pad_contacts', 'count', 'number', 'gripper pads touching the task object (0, 1 or 2)'],
  ['any_grasped', 'bool', 'boolean', 'some object, not necessarily the task object, is held'],
  ['drawer_opening', 'm', 'number', 'how far the task drawer is pulled out'],
  ['stage', 'index', 'number', "index of the task stage the episode is in (from the env's milestone tracker)"],
  ['object_x', 'm', 'number', 'task object position x'],
  ['object_y', 'm', 'number', 'task object position y'],
  ['object_z', 'm', 'number', 'task object position z'],
  ['target_x', 'm', 'number', 'target (receptacle or place point) position x'],
  ['target_y', 'm', 'number', 'target position y'],
  ['target_z', 'm', 'number', 'target position z'],
  ['handle_x', 'm', 'number', 'drawer handle position x'],
  ['handle_y', 'm', 'number', 'drawer handle position y'],
  ['handle_z', 'm', 'number', 'drawer handle position z'],
];

export const PRIVILEGED_PREFIX = 'privileged.';
export const OBSERVED_PREFIX = 'observed.';

function rows(source: FeatureSource, table: readonly Row[], prefix = ''): FeatureSpec[] {
  return table.map(([name, unit, kind, meaning]) => ({ name: prefix + name, unit, source, kind, meaning }));
}

/** Every feature, in frame order: a feature's index in this array is its slot in the frame. */
export const FEATURES: readonly FeatureSpec[] = Object.freeze([
  ...rows('robot', ROBOT),
  ...rows('command', COMMAND),
  ...rows('episode', EPISODE),
  ...rows('derived', DERIVED),
  ...rows('privileged', PRIVILEGED_KEYS, PRIVILEGED_PREFIX),
  ...rows('observed', OBSERVED_KEYS, OBSERVED_PREFIX),
]);

const BY_NAME: ReadonlyMap<string, number> = new Map(FEATURES.map((f, i) => [f.name, i]));

export function isFeature(name: string): boolean {
  return BY_NAME.has(name);
}

/** Slot of `name` in a frame, or −1. Load time only: the hot path works with indices. */
export function featureIndex(name: string): number {
  return BY_NAME.get(name) ?? -1;
}

export function featureSpec(name: string): FeatureSpec | undefined {
  const i = BY_NAME.get(name);
  return i === undefined ? undefined : FEATURES[i];
}

export function isPrivileged(name: string): boolean {
  return name.startsWith(PRIVILEGED_PREFIX);
}
