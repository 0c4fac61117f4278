// Privileged features for the critic: one slot per name, the same names on every task so a rule
// written on one task can load on another. Absent things (a drawer in a scene without a cabinet)
// read NaN, which every comparison treats as false.
import type { FeatureFrame } from '../env.js';
import { BUTTON } from './scene/button.js';
import { CABINET } from './scene/cabinet.js';
import { GRIPPER } from './scene/gripper.js';
import { UP_HEIGHT, dropPoint, resolvePlace, supportHeight, type Place } from './tasks/regions.js';
import type { Stage } from './tasks/types.js';
import { OBSERVED_FEATURE_NAMES } from './observed-features.js';
import type { FixtureRef, MovableRef, World } from './world.js';

export const FEATURE_NAMES = [
  'eef_x',
  'eef_y',
  'eef_z',
  'eef_speed',
  'finger_opening',
  'gripper_command',
  'pad_contacts',
  'grasped',
  'any_grasped',
  'subject_x',
  'subject_y',
  'subject_z',
  'subject_lift',
  'subject_speed',
  'eef_subject_dist',
  'subject_goal_dist',
  'drawer_opening',
  'button_depth',
  'button_pressed',
  'stage',
  'stages_total',
  'milestones_reached',
  'milestones_total',
  'goal_progress',
  'success',
  'disturbed',
  'step',
  // Appended (order is part of the contract: recorded episodes index features by position).
  'target_x',
  'target_y',
  'target_z',
  'handle_x',
  'handle_y',
  'handle_z',
  'drawer_open',
  'contact_force',
  // What perception gives (observed-features.ts), written after the observation of each step.
  ...OBSERVED_FEATURE_NAMES,
] as const;

/** Slot of the first observed feature in the frame. */
export const OBSERVED_OFFSET = FEATURE_NAMES.indexOf(OBSERVED_FEATURE_NAMES[0]);

/**
 * The weld's stiffness as a force per metre of lag: hand mass (palm 0.3 kg + fingers 0.12 kg) times
 * MuJoCo's reference stiffness for solref (0.02 s, 1), 1 / (d² · timeconst²) with impedance d ≈ 0.95.
 */
const WELD_N_PER_M = 0.42 / (0.95 * 0.95 * GRIPPER.weldSolref[0] * GRIPPER.weldSolref[0]);

/** Lag (m) per unit of hand speed (m/s) in free motion, measured with the scripted expert. */
const FREE_LAG_S = 0.0296;

export type FeatureName = (typeof FEATURE_NAMES)[number];
const IDX = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, i])) as Record<FeatureName, number>;

/** A stage with its subject resolved: what the gripper should be busy with now. */
interface ResolvedStage {
  readonly stage: Stage;
  readonly movable: MovableRef | undefined;
  readonly fixture: FixtureRef | undefined;
  readonly place: Place | undefined;
}

export interface EpisodeStatus {
  readonly t: number;
  readonly stage: number;
  readonly milestonesReached: number;
  readonly milestonesTotal: number;
  readonly goalProgress: number;
  readonly success: boolean;
  readonly disturbed: boolean;
}

export class FeatureWriter {
  readonly frame: FeatureFrame = { names: FEATURE_NAMES, values: new Float64Array(FEATURE_NAMES.length) };
  private readonly stages: ResolvedStage[];
  private readonly cabinet: FixtureRef | undefined;
  private readonly button: FixtureRef | undefined;
  private readonly spot = new Float64Array(2);

  constructor(
    private readonly world: World,
    stages: readonly Stage[],
  ) {
    this.stages = stages.map((s) => resolveStage(world, s));
    const fixtures = [...world.fixtures.values()];
    this.cabinet = fixtures.find((f) => f.spec.kind === 'cabinet');
    this.button = fixtures.find((f) => f.spec.kind === 'button');
  }

  write(s: EpisodeStatus): void {
    const w = this.world;
    const v = this.frame.values;
    const g = w.gripperBody;
    for (let i = 0; i < 3; i++) v[IDX.eef_x + i] = w.xpos[3 * g + i]!;
    v[IDX.eef_speed] = Math.hypot(w.qvel[w.gripperQvelAdr]!, w.qvel[w.gripperQvelAdr + 1]!, w.qvel[w.gripperQvelAdr + 2]!);
    v[IDX.finger_opening] = w.fingerOpening();
    v[IDX.gripper_command] = 1 - (2 * w.ctrl[0]!) / GRIPPER.maxOpening;
    let anyGrasp = 0;
    for (let i = 0; i < w.movableList.length; i++) if (w.grasped(w.movableList[i]!)) anyGrasp = 1;
    v[IDX.any_grasped] = anyGrasp;
    this.writeSubject(this.stages[Math.min(s.stage, this.stages.length - 1)]!, v);
    v[IDX.drawer_opening] = this.cabinet ? w.jointTravel(this.cabinet) : NaN;
    v[IDX.button_depth] = this.button ? w.jointTravel(this.button) : NaN;
    v[IDX.button_pressed] = this.button ? (w.latchedButtons.has(this.button.spec.name) ? 1 : 0) : NaN;
    v[IDX.stage] = s.stage;
    v[IDX.stages_total] = this.stages.length;
    v[IDX.milestones_reached] = s.milestonesReached;
    v[IDX.milestones_total] = s.milestonesTotal;
    v[IDX.goal_progress] = s.goalProgress;
    v[IDX.success] = s.success ? 1 : 0;
    v[IDX.disturbed] = s.disturbed ? 1 : 0;
    v[IDX.step] = s.t;
    this.writeFixtures(v);
  }

  /**
   * The cabinet's handle, whether its drawer is open, and how hard the hand is pressed against
   * something. The hand follows its mocap target through a weld, so what stops it shows up as a
   * lag behind the target beyond the lag of free motion (proportional to speed); the weld's spring
   * turns that excess into a force (N) without walking the contact list (which would copy every
   * contact into JavaScript objects each step).
   */
  private writeFixtures(v: Float64Array): void {
    const w = this.world;
    const c = this.cabinet;
    if (c) {
      const p = w.xpos;
      v[IDX.handle_x] = p[3 * c.part]! + CABINET.handle.x;
      v[IDX.handle_y] = p[3 * c.part + 1]!;
      v[IDX.handle_z] = p[3 * c.part + 2]! + CABINET.handle.z;
      v[IDX.drawer_open] = w.jointTravel(c) >= CABINET.openAbove ? 1 : 0;
    } else {
      v[IDX.handle_x] = v[IDX.handle_y] = v[IDX.handle_z] = v[IDX.drawer_open] = NaN;
    }
    const g = w.gripperBody;
    const lag = Math.hypot(w.mocapPos[0]! - w.xpos[3 * g]!, w.mocapPos[1]! - w.xpos[3 * g + 1]!, w.mocapPos[2]! - w.xpos[3 * g + 2]!);
    const speed = v[IDX.eef_speed]!;
    v[IDX.contact_force] = WELD_N_PER_M * Math.max(0, lag - FREE_LAG_S * speed);
  }

  private writeSubject(r: ResolvedStage, v: Float64Array): void {
    const w = this.world;
    const p = w.xpos;
    const body = r.movable?.body ?? r.fixture!.part;
    const hx = r.stage.kind === 'open' || r.stage.kind === 'close' ? CABINET.handle.x : 0;
    const hz = r.stage.kind === 'open' || r.stage.kind === 'close' ? CABINET.handle.z : 0;
    const x = p[3 * body]! + hx;
    const y = p[3 * body + 1]!;
    const z = p[3 * body + 2]! + hz;
    v[IDX.subject_x] = x;
    v[IDX.subject_y] = y;
    v[IDX.subject_z] = z;
    const g = w.gripperBody;
    v[IDX.eef_subject_dist] = Math.hypot(p[3 * g]! - x, p[3 * g + 1]! - y, p[3 * g + 2]! - z);
    const m = r.movable;
    v[IDX.pad_contacts] = m ? w.padsTouching(m) : 0;
    v[IDX.grasped] = m && w.grasped(m) ? 1 : 0;
    v[IDX.subject_lift] = m ? z - m.spec.halfHeight : NaN;
    v[IDX.subject_speed] = m
      ? Math.hypot(w.qvel[m.qvelAdr]!, w.qvel[m.qvelAdr + 1]!, w.qvel[m.qvelAdr + 2]!)
      : Math.abs(w.qvel[r.fixture!.jointDofAdr]!);
    v[IDX.subject_goal_dist] = this.goalDistance(r, x, y, z);
    this.writeTarget(r, v);
  }

  /**
   * Where the stage wants its subject's centre to end up: above the drop point resting on the
   * place's surface (place), straight above where it lies (lift). Fixture stages have no target
   * point (NaN): their handle or cap is the subject.
   */
  private writeTarget(r: ResolvedStage, v: Float64Array): void {
    const m = r.movable;
    if (r.stage.kind === 'place' && m) {
      dropPoint(this.world, r.place!, this.spot, r.stage.offset);
      v[IDX.target_x] = this.spot[0]!;
      v[IDX.target_y] = this.spot[1]!;
      v[IDX.target_z] = supportHeight(this.world, r.place!) + m.spec.halfHeight;
    } else if (r.stage.kind === 'lift' && m) {
      v[IDX.target_x] = v[IDX.subject_x]!;
      v[IDX.target_y] = v[IDX.subject_y]!;
      v[IDX.target_z] = m.spec.halfHeight + UP_HEIGHT;
    } else {
      v[IDX.target_x] = v[IDX.target_y] = v[IDX.target_z] = NaN;
    }
  }

  private goalDistance(r: ResolvedStage, x: number, y: number, z: number): number {
    const w = this.world;
    switch (r.stage.kind) {
      case 'place':
        dropPoint(w, r.place!, this.spot, r.stage.offset);
        return Math.hypot(x - this.spot[0]!, y - this.spot[1]!);
      case 'lift':
        return Math.max(0, r.movable!.spec.halfHeight + UP_HEIGHT - z);
      case 'open':
        return Math.max(0, CABINET.openAbove - w.jointTravel(r.fixture!));
      case 'close':
        return Math.max(0, w.jointTravel(r.fixture!) - CABINET.closedBelow);
      case 'press':
        return w.latchedButtons.has(r.fixture!.spec.name) ? 0 : Math.max(0, BUTTON.pressDepth - w.jointTravel(r.fixture!));
    }
  }
}

function resolveStage(world: World, stage: Stage): ResolvedStage {
  switch (stage.kind) {
    case 'place':
      return { stage, movable: world.movable(stage.object), fixture: undefined, place: resolvePlace(world, stage.target) };
    case 'lift':
      return { stage, movable: world.movable(stage.object), fixture: undefined, place: undefined };
    case 'open':
    case 'close':
      return { stage, movable: undefined, fixture: world.fixture(stage.cabinet), place: undefined };
    case 'press':
      return { stage, movable: undefined, fixture: world.fixture(stage.button), place: undefined };
  }
}
