// The node's configuration file (YAML or JSON), validated with zod at start: a wrong type, a missing
// topic or a message type the node cannot speak is refused before anything connects, and the error
// names the field (`outputs.command.type: …`).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { INPUT_TYPES, OUTPUT_TYPES } from './messages.js';

const topic = z.string({ error: 'expected a topic name (a string)' }).regex(/^[~/A-Za-z_][A-Za-z0-9_/~]*$/, 'not a ROS topic name');
const positive = z.number().positive();
const vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** A literal message type, with the error listing the ones this role accepts. */
function messageType<const T extends readonly [string, ...string[]]>(...types: T) {
  return z.enum(types, { error: (issue) => `unknown message type ${JSON.stringify(issue.input)}; expected ${types.join(' or ')}` });
}

const jointStateInput = z.strictObject({ topic, type: messageType(INPUT_TYPES.jointState).default(INPUT_TYPES.jointState) });

const poseFromTopic = z.strictObject({ topic, type: z.literal(INPUT_TYPES.pose) });
const poseFromTf = z.strictObject({
  type: z.literal(INPUT_TYPES.tf),
  topic: topic.default('/tf'),
  /** The robot base frame (the action's frame) and the end-effector frame. */
  parent_frame: z.string().min(1),
  child_frame: z.string().min(1),
});

const gripperState = z.strictObject({
  /** Omitted: the fingers are read from `joint_state`. */
  topic: topic.optional(),
  type: messageType(INPUT_TYPES.jointState).default(INPUT_TYPES.jointState),
  /** The two finger joints whose positions are the state's gripper_qpos. */
  joints: z.tuple([z.string().min(1), z.string().min(1)]),
});

const objectsInput = z.strictObject({
  topic,
  type: messageType(INPUT_TYPES.objects),
  /** What each pose of the array is, in order (the task's object names). */
  names: z.array(z.string().min(1)).min(1),
});

const camera = z.strictObject({
  /** The policy's observation key this camera fills, e.g. `observation/image`. */
  key: z.string().min(1),
  topic,
  type: messageType(INPUT_TYPES.image, INPUT_TYPES.compressedImage),
  /** [height, width] the policy takes (e.g. [224, 224] for pi0.5): frames are resized keeping their aspect, padded black. */
  size: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
});

const twistCommand = z.strictObject({
  type: z.literal(OUTPUT_TYPES.twist),
  topic,
  /** The twist's frame (the action's: the robot base frame MoveIt Servo is set up for). */
  frame_id: z.string().min(1),
});
const trajectoryCommand = z.strictObject({
  type: z.literal(OUTPUT_TYPES.trajectory),
  topic,
  frame_id: z.string().default(''),
  /** Joints driven by the action's first dimensions (a joint-space policy), in order. */
  joints: z.array(z.string().min(1)).min(1).max(6),
  /** Radians per action unit per step. */
  rad_per_unit: positive,
});

const gripperArray = z.strictObject({
  type: z.literal(OUTPUT_TYPES.gripperArray),
  topic,
  /** Positions that a gripper action of −1 (open) and +1 (closed) mean; linear in between. */
  open_position: z.number().default(-1),
  closed_position: z.number().default(1),
});
const gripperAction = z.strictObject({
  type: z.literal(OUTPUT_TYPES.gripperAction),
  /** The action server, e.g. /gripper_controller/gripper_cmd. */
  action: topic,
  open_position: z.number(),
  closed_position: z.number(),
  max_effort: z.number().nonnegative().default(10),
});

export const ROS2_CONFIG_SCHEMA = z.strictObject({
  node_name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not a ROS node name')
    .default('zetta'),
  /** The policy (a Zetta server over ZeroMQ, openpi's WebSocket, or an in-process model). */
  policy: z.string().min(1),
  critic: z.string().min(1).default('default'),
  /** The task the robot is doing: the world whose catalog and policy encoding it uses, and its id. */
  task: z.strictObject({ world: z.literal('tabletop').default('tabletop'), id: z.string().min(1), instruction: z.string().optional() }),
  /** What the policy reads: the task world's own encoding (the embedded policy), or openpi's LIBERO keys. */
  policy_input: z.enum(['task-world', 'libero']).default('task-world'),
  control_hz: positive.max(1000).default(20),
  /** Run on a simulator's /clock, one tick per simulated period in lockstep with it (sim-time.ts). */
  use_sim_time: z.boolean().default(false),
  execute_steps: z.int().min(1).default(5),
  prefetch_threshold: z.int().min(0).default(2),
  merge: z.enum(['replace', 'blend']).default('replace'),
  inputs: z.strictObject({
    joint_state: jointStateInput,
    ee_pose: z.discriminatedUnion('type', [poseFromTopic, poseFromTf]),
    gripper_state: gripperState,
    objects: objectsInput.optional(),
    cameras: z.array(camera).default([]),
  }),
  outputs: z.strictObject({
    command: z.discriminatedUnion('type', [twistCommand, trajectoryCommand]),
    gripper: z.discriminatedUnion('type', [gripperArray, gripperAction]),
  }),
  safety: z
    .strictObject({
      /** Robot state older than this holds the robot. */
      stale_state_ms: positive.default(100),
      /** No chunk for this long (the queue ran dry) holds the robot and says so. */
      chunk_timeout_ms: positive.default(200),
      /** A request unanswered this long is abandoned and asked again. */
      chunk_deadline_ms: positive.default(1000),
      /** The envelope's box for the end effector (m, robot base frame). */
      workspace: z.strictObject({ min: vec3, max: vec3 }).optional(),
      /** A further cap on the published twist (m/s, rad/s), on top of the envelope's per-step limits. */
      max_linear_mps: positive.default(1.5),
      max_angular_rps: positive.default(15),
    })
    .prefault({}),
  recording: z.strictObject({ dir: z.string().min(1).default('runs/ros2'), enabled: z.boolean().default(true) }).prefault({}),
});

export type Ros2Config = z.infer<typeof ROS2_CONFIG_SCHEMA>;

/** A config the node refuses: one line per problem, each naming its field. */
export class Ros2ConfigError extends Error {
  override readonly name = 'Ros2ConfigError';
}

/** Validates a parsed config; throws Ros2ConfigError naming every bad field. */
export function parseRos2Config(raw: unknown, source = 'config'): Ros2Config {
  const result = ROS2_CONFIG_SCHEMA.safeParse(raw);
  if (result.success) return checkRoles(result.data, source);
  const problems = result.error.issues.map((i) => `${fieldOf(i.path)}: ${messageOf(i, raw)}`);
  throw new Ros2ConfigError(`${source}: ${[...new Set(problems)].join('; ')}`);
}

/** Reads and validates a YAML (.yaml/.yml) or JSON file. */
export function loadRos2Config(path: string): Ros2Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Ros2ConfigError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Ros2ConfigError(
      `${path}: not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'} (${(err as Error).message.split('\n')[0]})`,
    );
  }
  return parseRos2Config(raw, path);
}

/** What zod cannot say field by field. */
function checkRoles(c: Ros2Config, source: string): Ros2Config {
  const w = c.safety.workspace;
  if (w?.min.some((v, i) => v >= w.max[i]!)) throw new Ros2ConfigError(`${source}: safety.workspace: every min must be below its max`);
  return c;
}

function fieldOf(path: readonly PropertyKey[]): string {
  return path.length
    ? path
        .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
        .join('.')
        .replace(/\.\[/g, '[')
    : '(top level)';
}

function messageOf(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === 'invalid_union' && 'discriminator' in issue) {
    const given = valueAt(raw, issue.path);
    const options = (issue as { options?: unknown[] }).options ?? [];
    return `${given === undefined ? 'required' : `unknown message type ${JSON.stringify(given)}`}; expected ${options.join(' or ')}`;
  }
  if (issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined) return 'required';
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  return issue.message;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}
