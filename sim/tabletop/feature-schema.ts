// The tabletop's feature schema: what it tells the critic it can measure. Observed features are
// computed from the same noisy observation the policy gets (observed-features.ts); privileged ones
// are the simulator's ground truth (features.ts), fed only to a bundle that declares it reads them.
// The suite's frames describe the current stage's "subject" (the object to move, or the handle or
// button to act on); the schema calls it the task object, so some names differ from the frame's
// keys. Deliberately undeclared: `success` and `goal_progress`, because success is what we measure.
import type { FeatureKind, FeatureSchema, WorldFeature } from '../../protocol/feature-schema.js';

type Row = readonly [name: string, unit: string, kind: FeatureKind, meaning: string];

/**
 * What the world perceives, with the noise and delay its sensors have: the poses the policy's own
 * observation carries, and what follows from them and the instruction. A robot with a perception
 * module has every one of these. "The task object" is the goal object the hand is nearest to among
 * those not yet where the instruction wants them: the one the policy is going for.
 */
const OBSERVED: readonly Row[] = [
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
  [
    'fixture_eef_dist',
    'm',
    'number',
    'perceived distance from the hand to the nearest fixture the instruction acts on (a handle, a button; +∞ if none)',
  ],
  [
    'object_moved_alone',
    'm',
    'number',
    'how far the task object moved over the last 5 steps in a way neither resting nor riding in the hand explains: min(‖Δobject‖, ‖Δobject − Δhand‖), as perceived (a knock, a slip, a roll)',
  ],
  [
    'fixture_x',
    'm',
    'number',
    'perceived position x of the nearest fixture the instruction acts on (a drawer handle, a button; NaN if none)',
  ],
  ['fixture_y', 'm', 'number', 'perceived position y of that fixture'],
  ['fixture_z', 'm', 'number', 'perceived position z of that fixture'],
  ['fixture_eef_dist_xy', 'm', 'number', 'perceived horizontal distance from the hand to that fixture (NaN if none)'],
];

/** Simulator ground truth about the current stage's subject and the scene. */
const PRIVILEGED: readonly Row[] = [
  ['grasped', 'bool', 'boolean', 'the task object is held between the pads'],
  ['object_height', 'm', 'number', 'task object bottom height above the table'],
  ['object_eef_dist', 'm', 'number', 'distance from the grip point to the task object'],
  ['object_target_dist_xy', 'm', 'number', 'horizontal distance from the task object to its target'],
  ['finger_gap', 'm', 'number', 'distance between the pads as the simulator measures it'],
  ['contact_force', 'N', 'number', 'total contact force on the gripper'],
  ['drawer_open', 'bool', 'boolean', 'the task drawer is open'],
  ['button_pressed', 'bool', 'boolean', 'the task button is pressed'],
  ['milestones_reached', 'count', 'number', "milestones of the task's stages reached so far"],
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

/** Schema name (without `privileged.`) → the key the suite's frames carry it under. */
const FRAME_KEYS: Readonly<Record<string, string>> = {
  object_x: 'subject_x',
  object_y: 'subject_y',
  object_z: 'subject_z',
  object_height: 'subject_lift',
  object_speed: 'subject_speed',
  object_eef_dist: 'eef_subject_dist',
  object_target_dist_xy: 'subject_goal_dist',
  finger_gap: 'finger_opening',
};

function observed([name, unit, kind, meaning]: Row): WorldFeature {
  return { name: `observed.${name}`, unit, kind, meaning, provenance: 'observed' };
}

function privileged([name, unit, kind, meaning]: Row): WorldFeature {
  const key = FRAME_KEYS[name] ?? name;
  return { name: `privileged.${name}`, unit, kind, meaning, provenance: 'privileged', key };
}

export const TABLETOP_FEATURES: FeatureSchema = Object.freeze({
  world: 'tabletop',
  features: Object.freeze([...PRIVILEGED.map(privileged), ...OBSERVED.map(observed)]),
});
