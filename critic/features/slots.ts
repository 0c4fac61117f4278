// Frame slots the FrameBuilder writes, resolved from names once (at construction), so that the
// per-step code indexes a Float64Array and never looks a name up.
import { FeatureFrame } from './frame.js';

const at = (name: string): number => FeatureFrame.index(name);

export class FrameSlots {
  readonly state = Int32Array.from(
    ['eef_x', 'eef_y', 'eef_z', 'eef_rx', 'eef_ry', 'eef_rz', 'gripper_q0', 'gripper_q1'].map((n) => at(`robot.${n}`)),
  );
  readonly action = Int32Array.from(['dx', 'dy', 'dz', 'drx', 'dry', 'drz', 'gripper'].map((n) => at(`command.${n}`)));
  readonly finite = at('command.finite');
  readonly transM = at('command.trans_m');
  readonly rotRad = at('command.rot_rad');
  readonly gripperClose = at('command.gripper_close');
  readonly gripperFlip = at('command.gripper_flip');
  readonly prevGripper = at('command.prev_gripper');
  readonly prevTransM = at('command.prev_trans_m');
  readonly realizedM = at('command.realized_m');
  readonly dirCos = at('command.direction_cosine');
  readonly ratio = at('command.realized_ratio');
  readonly stalled = at('command.stalled');
  readonly stalledSteps = at('command.stalled_steps');

  readonly step = at('episode.step');
  readonly inRecovery = at('episode.in_recovery');
  readonly recoverySteps = at('episode.recovery_steps');
  readonly recoveries = at('episode.recoveries');
  readonly sinceRecovery = at('episode.steps_since_recovery');
  readonly policySteps = at('episode.policy_steps');

  readonly speed = at('derived.eef_speed');
  readonly vz = at('derived.eef_vz');
  readonly rotSpeed = at('derived.eef_rot_speed');
  readonly height = at('derived.height');
  readonly width = at('derived.gripper_width');
  readonly widthRate = at('derived.gripper_width_rate');
  readonly closing = at('derived.gripper_closing');
  readonly closed = at('derived.gripper_closed');
  readonly closedEmpty = at('derived.gripper_closed_empty');
  readonly gripLost = at('derived.grip_lost');
  readonly gripperFlips = at('derived.gripper_flips');
  readonly motionReversals = at('derived.motion_reversals');
  readonly netMotion = at('derived.net_motion');
  readonly actuationLag = at('derived.actuation_lag');
  readonly motionInFlight = at('derived.motion_in_flight');
  readonly motionExplained = at('derived.motion_explained');
  readonly headingX = at('derived.heading_x');
  readonly headingY = at('derived.heading_y');
}
