// The task suite. Four suites mirror LIBERO's: spatial (the same object in different layouts),
// object (the named object among several), goal (one scene, several goals) and long (multi-stage).
// Coordinates are metres in the robot base frame: x away from the robot, y to its left, table at z 0.
import { SimInputError } from '../../errors.js';
import type { FixtureTemplate, MovableTemplate, SuiteName, TaskDef } from './types.js';

const RED_1: MovableTemplate = { name: 'red_cube_1', shape: 'cube', size: 'small', colour: 'red' };
const RED_2: MovableTemplate = { name: 'red_cube_2', shape: 'cube', size: 'small', colour: 'red' };
const BOWL: FixtureTemplate = { kind: 'bowl', name: 'bowl' };
const PLATE: FixtureTemplate = { kind: 'plate', name: 'plate' };

const SPATIAL: TaskDef[] = [
  {
    id: 'spatial/left_cube_in_bowl',
    suite: 'spatial',
    instruction: 'pick up the red cube on the left and place it in the bowl',
    movables: [RED_1, RED_2],
    fixtures: [BOWL],
    anchors: [
      [0.02, 0.14],
      [0.02, -0.14],
      [-0.14, 0.0],
    ],
    goal: [{ op: 'In', object: 'red_cube_1', target: 'bowl' }],
    stages: [{ kind: 'place', object: 'red_cube_1', target: 'bowl', relation: 'In' }],
  },
  {
    id: 'spatial/right_cube_on_plate',
    suite: 'spatial',
    instruction: 'pick up the red cube on the right and place it on the plate',
    movables: [RED_1, RED_2],
    fixtures: [PLATE],
    anchors: [
      [0.06, -0.13],
      [0.06, 0.1],
      [-0.14, 0.14],
    ],
    goal: [{ op: 'On', object: 'red_cube_1', target: 'plate' }],
    stages: [{ kind: 'place', object: 'red_cube_1', target: 'plate', relation: 'On' }],
  },
  {
    id: 'spatial/front_cube_in_bowl',
    suite: 'spatial',
    instruction: 'pick up the red cube in front and place it in the bowl',
    movables: [RED_1, RED_2],
    fixtures: [BOWL],
    anchors: [
      [-0.1, -0.08],
      [0.12, -0.06],
      [0.0, 0.17],
    ],
    goal: [{ op: 'In', object: 'red_cube_1', target: 'bowl' }],
    stages: [{ kind: 'place', object: 'red_cube_1', target: 'bowl', relation: 'In' }],
  },
];

const OBJECT_SCENE = {
  movables: [
    { name: 'red_cube', shape: 'cube', size: 'medium', colour: 'red' },
    { name: 'blue_cylinder', shape: 'cylinder', size: 'small', colour: 'blue' },
    { name: 'green_cube', shape: 'cube', size: 'small', colour: 'green' },
    { name: 'yellow_cube', shape: 'cube', size: 'small', colour: 'yellow' },
  ],
  fixtures: [BOWL],
  anchors: [
    [0.1, -0.15],
    [0.1, 0.05],
    [-0.06, -0.18],
    [-0.06, 0.0],
    [-0.12, 0.2],
  ],
  shuffleMovables: true,
} as const satisfies Partial<TaskDef>;

function objectTask(object: string, label: string): TaskDef {
  return {
    id: `object/${object}_in_bowl`,
    suite: 'object',
    instruction: `pick up the ${label} and place it in the bowl`,
    ...OBJECT_SCENE,
    goal: [{ op: 'In', object, target: 'bowl' }],
    stages: [{ kind: 'place', object, target: 'bowl', relation: 'In' }],
  };
}

/** The one scene of the goal and long suites: a cabinet, a button, a bowl, a plate, two cubes. */
const KITCHEN = {
  movables: [
    { name: 'red_cube', shape: 'cube', size: 'small', colour: 'red' },
    { name: 'green_cube', shape: 'cube', size: 'small', colour: 'green' },
  ],
  fixtures: [{ kind: 'cabinet', name: 'cabinet' }, { kind: 'button', name: 'button' }, BOWL, PLATE],
  anchors: [
    [-0.12, 0.12],
    [-0.06, -0.03],
    [0.32, 0.2],
    [0.22, -0.26],
    [0.06, -0.15],
    [-0.16, -0.22],
  ],
} as const satisfies Partial<TaskDef>;

function sceneTask(suite: SuiteName, id: string, instruction: string, rest: Pick<TaskDef, 'goal' | 'stages'>): TaskDef {
  return { id: `${suite}/${id}`, suite, instruction, ...KITCHEN, ...rest };
}

const GOAL: TaskDef[] = [
  sceneTask('goal', 'open_drawer', 'open the drawer of the cabinet', {
    goal: [{ op: 'Open', target: 'cabinet' }],
    stages: [{ kind: 'open', cabinet: 'cabinet' }],
  }),
  sceneTask('goal', 'red_cube_in_bowl', 'put the red cube in the bowl', {
    goal: [{ op: 'In', object: 'red_cube', target: 'bowl' }],
    stages: [{ kind: 'place', object: 'red_cube', target: 'bowl', relation: 'In' }],
  }),
  sceneTask('goal', 'press_button', 'press the button', {
    goal: [{ op: 'Pressed', target: 'button' }],
    stages: [{ kind: 'press', button: 'button' }],
  }),
  sceneTask('goal', 'stack_red_on_green', 'stack the red cube on the green cube', {
    goal: [{ op: 'On', object: 'red_cube', target: 'green_cube' }],
    stages: [{ kind: 'place', object: 'red_cube', target: 'green_cube', relation: 'On' }],
  }),
  sceneTask('goal', 'lift_red_cube', 'pick up the red cube and hold it up', {
    goal: [{ op: 'Up', object: 'red_cube' }],
    stages: [{ kind: 'lift', object: 'red_cube' }],
  }),
];

const LONG: TaskDef[] = [
  sceneTask('long', 'red_cube_in_drawer_and_close', 'open the drawer, put the red cube in it and close it', {
    goal: [
      { op: 'In', object: 'red_cube', target: 'cabinet' },
      { op: 'Closed', target: 'cabinet' },
    ],
    stages: [
      { kind: 'open', cabinet: 'cabinet' },
      { kind: 'place', object: 'red_cube', target: 'cabinet', relation: 'In' },
      { kind: 'close', cabinet: 'cabinet' },
    ],
  }),
  sceneTask('long', 'press_button_then_green_on_plate', 'press the button, then put the green cube on the plate', {
    goal: [
      { op: 'Pressed', target: 'button' },
      { op: 'On', object: 'green_cube', target: 'plate' },
    ],
    stages: [
      { kind: 'press', button: 'button' },
      { kind: 'place', object: 'green_cube', target: 'plate', relation: 'On' },
    ],
  }),
  sceneTask('long', 'both_cubes_in_bowl', 'put both the red cube and the green cube in the bowl', {
    goal: [
      { op: 'In', object: 'red_cube', target: 'bowl' },
      { op: 'In', object: 'green_cube', target: 'bowl' },
    ],
    stages: [
      { kind: 'place', object: 'red_cube', target: 'bowl', relation: 'In', offset: [0, 0.03] },
      { kind: 'place', object: 'green_cube', target: 'bowl', relation: 'In', offset: [0, -0.03] },
    ],
  }),
];

export const TASKS: readonly TaskDef[] = [
  ...SPATIAL,
  objectTask('blue_cylinder', 'blue cylinder'),
  objectTask('green_cube', 'green cube'),
  objectTask('yellow_cube', 'yellow cube'),
  ...GOAL,
  ...LONG,
];

const BY_ID = new Map(TASKS.map((t) => [t.id, t]));

export function listTasks(suite?: SuiteName): readonly TaskDef[] {
  return suite === undefined ? TASKS : TASKS.filter((t) => t.suite === suite);
}

/** The task with this id; an unknown id is an input error that lists the known ones. */
export function getTask(id: string): TaskDef {
  const task = BY_ID.get(id);
  if (task === undefined) {
    throw new SimInputError(`unknown task "${id}"; known tasks: ${TASKS.map((t) => t.id).join(', ')}`);
  }
  return task;
}
