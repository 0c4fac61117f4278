// Privileged features for the critic: one slot per name, the same names on every task so a rule
// written on one task can load on another. Absent things (a drawer in a scene without a cabinet)
// read NaN, which every comparison treats as false.
import type { FeatureFrame } from '../env.js';
import { BUTTON } from '../scene/button.js';
import { CABINET } from '../scene/cabinet.js';
import { GRIPPER } from '../scene/gripper.js';
import { UP_HEIGHT, dropPoint, resolvePlace, type Place } from '../tasks/regions.js';
import type { Stage } from '../tasks/types.js';
import type { FixtureRef, MovableRef, World } from './world.js';

export const FEATURE_NAMES = [
  'eef_x', 'eef_y', 'eef_z', 'eef_speed',
  'finger_opening', 'gripper_command', 'pad_contacts', 'grasped', 'any_grasped',
  'subject_x', 'subject_y', 'subject_z', 'subject_lift', 'subject_speed',
  'eef_subject_dist', 'subject_goal_dist',
  'drawer_opening', 'button_depth', 'button_pressed',
  'stage', 'stages_total', 'milestones_reached', 'milestones_total', 'goal_progress', 'success',
  'disturbed', 'step',
] as const;

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
    v[IDX.subject_speed] = m ? Math.hypot(w.qvel[m.qvelAdr]!, w.qvel[m.qvelAdr + 1]!, w.qvel[m.qvelAdr + 2]!) : Math.abs(w.qvel[r.fixture!.jointDofAdr]!);
    v[IDX.subject_goal_dist] = this.goalDistance(r, x, y, z);
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
