// The critic's own features: what it computes itself from the robot state, the proposed action and
// the episode, the same in every world. A world's features (observed or privileged) come from its
// schema and follow these in a frame (see layout.ts). A rule that names a feature neither lists is
// rejected when it is loaded, never at step N of a run.
//
// Deliberately absent: the task's success flag. Success is what we measure; no rule may read it.
import type { FeatureKind, FeatureProvenance } from '../../protocol/feature-schema.js';

export type { FeatureKind };

export type FeatureSource = 'robot' | 'command' | 'episode' | 'derived' | FeatureProvenance;

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
  [
    'derived.grip_lost',
    'bool',
    'boolean',
    'closed on nothing after holding something, close commanded throughout: the object slipped or was knocked out of the hand',
  ],
  ['derived.gripper_flips', 'count', 'number', 'sign flips of the executed gripper command over the window (chattering)'],
  ['derived.motion_reversals', 'count', 'number', 'executed translations reversing direction over the window (oscillation)'],
  ['derived.net_motion', 'm', 'number', 'end-effector displacement across the window (progress)'],
  [
    'derived.actuation_lag',
    'steps',
    'number',
    'how many steps later than the next observation executed commands move the hand, measured online (NaN until measured)',
  ],
  ['derived.motion_in_flight', 'm', 'number', 'translation commanded in the last actuation_lag steps, not yet visible in the state'],
  [
    'derived.motion_explained',
    'share',
    'number',
    'share (0-1) of the recent end-effector displacement the executed commands explain at the measured lag; sensor noise lowers it (NaN until measured)',
  ],
  [
    'derived.heading_x',
    '1',
    'number',
    'x of the unit xy direction the policy last commanded (frozen while a recovery drives; NaN before any)',
  ],
  [
    'derived.heading_y',
    '1',
    'number',
    'y of the unit xy direction the policy last commanded (frozen while a recovery drives; NaN before any)',
  ],
];

function rows(source: FeatureSource, table: readonly Row[]): FeatureSpec[] {
  return table.map(([name, unit, kind, meaning]) => ({ name, unit, source, kind, meaning }));
}

/** The critic's own features, in frame order: the first slots of every frame, in every world. */
export const CRITIC_FEATURES: readonly FeatureSpec[] = Object.freeze([
  ...rows('robot', ROBOT),
  ...rows('command', COMMAND),
  ...rows('episode', EPISODE),
  ...rows('derived', DERIVED),
]);
