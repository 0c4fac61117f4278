// The point mass's tasks: reach the goal in the open, or with a wall between start and goal that a
// straight-line reach runs into.
export interface PointMassTask {
  readonly id: string;
  readonly suite: string;
  readonly instruction: string;
  readonly maxSteps: number;
  readonly milestones: readonly string[];
  /** A wall at x, from y = −halfLength to +halfLength (m); none in the open task. */
  readonly wall: { readonly x: number; readonly halfLength: number } | null;
}

const MILESTONES = ['goal.approached', 'goal.reached'];

export const POINT_MASS_TASKS: readonly PointMassTask[] = [
  { id: 'reach/open', suite: 'reach', instruction: 'move to the goal', maxSteps: 120, milestones: MILESTONES, wall: null },
  {
    id: 'reach/around_wall',
    suite: 'reach',
    instruction: 'move to the goal around the wall',
    maxSteps: 160,
    milestones: MILESTONES,
    wall: { x: 0, halfLength: 0.2 },
  },
];
