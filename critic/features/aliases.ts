// How the embedded tabletop suite's `features()` names map onto the registry (env name → registry
// name without `privileged.`). Pass it as `FrameBuilderOptions.privilegedAliases`. It is data only:
// the critic never imports a simulator. The suite describes the current stage's "subject" (the
// object to move, or the handle / button to act on); the registry calls it the task object.
// `subject_goal_dist` is the xy distance to the drop point in place stages (in other stages, the
// stage's own remaining distance). Names the suite shares with the registry need no alias (grasped,
// pad_contacts, target_*, handle_*, drawer_open, contact_force, …). Deliberately unmapped: `success` and `goal_progress` — success is what we measure.
import type { PrivilegedAliases } from './privileged.js';

export const TABLETOP_PRIVILEGED_ALIASES: PrivilegedAliases = Object.freeze({
  subject_x: 'object_x',
  subject_y: 'object_y',
  subject_z: 'object_z',
  subject_lift: 'object_height',
  subject_speed: 'object_speed',
  eef_subject_dist: 'object_eef_dist',
  subject_goal_dist: 'object_target_dist_xy',
  finger_opening: 'finger_gap',
});
