// The episode as a 3-D scene for Foxglove: every step a `foxglove.FrameTransforms` message places
// the gripper's frame and each object's frame in `world`; one `foxglove.SceneUpdate` at the start
// puts a shape in each frame (frame-locked, so the shapes follow their frames without being sent
// again). JSON-encoded, with JSON Schemas under the names Foxglove's 3-D panel recognizes.
export const WORLD_FRAME = 'world';
export const GRIPPER_FRAME = 'gripper';

interface Time {
  sec: number;
  nsec: number;
}
type Vec3 = { x: number; y: number; z: number };
type Quat = Vec3 & { w: number };
type Color = { r: number; g: number; b: number; a: number };

const num = { type: 'number' };
const time = { type: 'object', properties: { sec: { type: 'integer' }, nsec: { type: 'integer' } } };
const vec3 = { type: 'object', properties: { x: num, y: num, z: num } };
const quat = { type: 'object', properties: { x: num, y: num, z: num, w: num } };
const pose = { type: 'object', properties: { position: vec3, orientation: quat } };
const color = { type: 'object', properties: { r: num, g: num, b: num, a: num } };
const primitive = { type: 'array', items: { type: 'object', properties: { pose, size: vec3, color } } };
const cylinders = { type: 'array', items: { type: 'object', properties: { pose, size: vec3, bottom_scale: num, top_scale: num, color } } };
const texts = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      pose,
      billboard: { type: 'boolean' },
      font_size: num,
      scale_invariant: { type: 'boolean' },
      color,
      text: { type: 'string' },
    },
  },
};
const empty = { type: 'array', items: { type: 'object' } };

export const FRAME_TRANSFORMS_SCHEMA = {
  title: 'foxglove.FrameTransforms',
  type: 'object',
  properties: {
    transforms: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          timestamp: time,
          parent_frame_id: { type: 'string' },
          child_frame_id: { type: 'string' },
          translation: vec3,
          rotation: quat,
        },
      },
    },
  },
};

export const SCENE_UPDATE_SCHEMA = {
  title: 'foxglove.SceneUpdate',
  type: 'object',
  properties: {
    deletions: {
      type: 'array',
      items: { type: 'object', properties: { timestamp: time, type: { type: 'integer' }, id: { type: 'string' } } },
    },
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          timestamp: time,
          frame_id: { type: 'string' },
          id: { type: 'string' },
          lifetime: time,
          frame_locked: { type: 'boolean' },
          metadata: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } } },
          arrows: empty,
          cubes: primitive,
          spheres: primitive,
          cylinders,
          lines: empty,
          triangles: empty,
          texts,
          models: empty,
        },
      },
    },
  },
};

export function toTime(ns: bigint): Time {
  return { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
}

/** The transforms of one step: the gripper from its state (position, axis-angle), each object from its pose. */
export function frameTransforms(ns: bigint, state: ArrayLike<number>, objects: ArrayLike<number>, objectNames: readonly string[]) {
  const timestamp = toTime(ns);
  // Viewers need no more than 10 µm; shorter numbers compress several times better.
  const at = (child: string, t: Vec3, q: Quat) => ({
    timestamp,
    parent_frame_id: WORLD_FRAME,
    child_frame_id: child,
    translation: { x: r5(t.x), y: r5(t.y), z: r5(t.z) },
    rotation: { x: r5(q.x), y: r5(q.y), z: r5(q.z), w: r5(q.w) },
  });
  const transforms = [
    at(
      GRIPPER_FRAME,
      { x: state[0] ?? 0, y: state[1] ?? 0, z: state[2] ?? 0 },
      quatFromRotvec(state[3] ?? 0, state[4] ?? 0, state[5] ?? 0),
    ),
  ];
  // Each object's pose is its position, then (with 7 numbers) MuJoCo's (w, x, y, z) quaternion.
  const dim = objectNames.length ? Math.floor(objects.length / objectNames.length) : 0;
  if (dim < 3) return { transforms };
  objectNames.forEach((name, k) => {
    const o = k * dim;
    const rotation =
      dim >= 7 ? { w: objects[o + 3]!, x: objects[o + 4]!, y: objects[o + 5]!, z: objects[o + 6]! } : { x: 0, y: 0, z: 0, w: 1 };
    transforms.push(at(name, { x: objects[o]!, y: objects[o + 1]!, z: objects[o + 2]! }, rotation));
  });
  return { transforms };
}

/** Shapes for the gripper and every object, each locked to its own frame, for the whole episode. */
export function sceneEntities(ns: bigint, objectNames: readonly string[]) {
  const timestamp = toTime(ns);
  const entity = (frame: string, shapes: Record<string, unknown[]>) => ({
    timestamp,
    frame_id: frame,
    id: frame,
    lifetime: { sec: 0, nsec: 0 },
    frame_locked: true,
    metadata: [],
    arrows: [],
    cubes: [],
    spheres: [],
    cylinders: [],
    lines: [],
    triangles: [],
    models: [],
    texts: [
      { pose: pose0({ x: 0, y: 0, z: 0.06 }), billboard: true, font_size: 12, scale_invariant: true, color: rgba(1, 1, 1, 1), text: frame },
    ],
    ...shapes,
  });
  const gripper = entity(GRIPPER_FRAME, {
    cubes: [
      { pose: pose0({ x: 0, y: 0, z: 0.03 }), size: { x: 0.03, y: 0.08, z: 0.02 }, color: rgba(0.3, 0.3, 0.35, 1) },
      { pose: pose0({ x: 0, y: 0.035, z: 0 }), size: { x: 0.015, y: 0.008, z: 0.05 }, color: rgba(0.5, 0.5, 0.55, 1) },
      { pose: pose0({ x: 0, y: -0.035, z: 0 }), size: { x: 0.015, y: 0.008, z: 0.05 }, color: rgba(0.5, 0.5, 0.55, 1) },
    ],
  });
  return { deletions: [], entities: [gripper, ...objectNames.map((name) => entity(name, shapeOf(name)))] };
}

/** A stand-in shape by the object's kind (the scene's exact geometry lives in its MJCF). */
function shapeOf(name: string): Record<string, unknown[]> {
  const color = colorOf(name);
  const cylinder = (d: number, h: number, c = color) => ({
    cylinders: [{ pose: pose0({ x: 0, y: 0, z: 0 }), size: { x: d, y: d, z: h }, bottom_scale: 1, top_scale: 1, color: c }],
  });
  if (name.includes('cylinder')) return cylinder(0.04, 0.07);
  if (name.includes('bowl')) return cylinder(0.13, 0.05, rgba(0.85, 0.85, 0.8, 0.8));
  if (name.includes('plate')) return cylinder(0.15, 0.01, rgba(0.9, 0.9, 0.9, 1));
  if (name.includes('button')) return cylinder(0.03, 0.02, rgba(0.9, 0.1, 0.1, 1));
  const cube = (s: Vec3, c: Color) => ({ cubes: [{ pose: pose0({ x: 0, y: 0, z: 0 }), size: s, color: c }] });
  if (name.includes('cabinet')) return cube({ x: 0.2, y: 0.2, z: 0.16 }, rgba(0.55, 0.4, 0.25, 0.6));
  return cube({ x: 0.04, y: 0.04, z: 0.04 }, color);
}

function colorOf(name: string): Color {
  if (name.includes('red')) return rgba(0.85, 0.1, 0.1, 1);
  if (name.includes('green')) return rgba(0.1, 0.7, 0.2, 1);
  if (name.includes('blue')) return rgba(0.1, 0.3, 0.85, 1);
  if (name.includes('yellow')) return rgba(0.9, 0.8, 0.1, 1);
  return rgba(0.6, 0.6, 0.6, 1);
}

const r5 = (x: number) => Math.round(x * 1e5) / 1e5;
const rgba = (r: number, g: number, b: number, a: number): Color => ({ r, g, b, a });
const pose0 = (position: Vec3) => ({ position, orientation: { x: 0, y: 0, z: 0, w: 1 } });

/** The unit quaternion of an axis-angle vector (the state's orientation). */
export function quatFromRotvec(rx: number, ry: number, rz: number): Quat {
  const angle = Math.hypot(rx, ry, rz);
  if (angle < 1e-12) return { x: 0, y: 0, z: 0, w: 1 };
  const s = Math.sin(angle / 2) / angle;
  return { x: rx * s, y: ry * s, z: rz * s, w: Math.cos(angle / 2) };
}
