// The node's other inputs and outputs on the in-memory ROS 2 graph (a test double), simulated time:
// the end-effector pose from a tf2 chain, camera images into the policy's observation, a
// JointTrajectory for ros2_control, and GripperCommand goals only when the command changes.
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { NdArray } from '../../../protocol/ndarray.js';
import type { GripperCommandGoal, JointState, JointTrajectory, TFMessage } from '../../../zinfra/ros2/messages.js';
import { liberoEncoder } from '../../../zinfra/ros2/libero-encoder.js';
import { TfChain } from '../../../zinfra/ros2/tf-chain.js';
import { nodeOnMemoryGraph } from './node-harness.js';
import { ScriptedPolicy } from './scripted-policy.js';
import { FINGER_JOINTS, simulatedRobotConfig } from './simulated-robot.js';

const TASK = 'spatial/left_cube_in_bowl';
const stamp = { sec: 0, nanosec: 0 };
const s = Math.SQRT1_2;

function tf(parent: string, child: string, t: [number, number, number], q: [number, number, number, number]) {
  return {
    header: { stamp, frame_id: parent },
    child_frame_id: child,
    transform: { translation: { x: t[0], y: t[1], z: t[2] }, rotation: { w: q[0], x: q[1], y: q[2], z: q[3] } },
  };
}

const ARM_TF: TFMessage = {
  transforms: [
    tf('base', 'link1', [0.1, 0, 0.3], [s, 0, 0, s]), // 90° about z
    tf('link1', 'hand', [0.2, 0, 0], [0, 1, 0, 0]), // 180° about x
  ],
};

const joints = (positions: number[]): JointState => ({
  header: { stamp, frame_id: '' },
  name: ['j1', 'j2', ...FINGER_JOINTS],
  position: [...positions, 0.04, 0.04],
  velocity: [],
  effort: [],
});

describe('ROS 2 node inputs and outputs on the in-memory graph (test double)', () => {
  it('chains tf2 transforms from the end-effector frame up to the base', () => {
    const chain = new TfChain('base', 'hand');
    const p = new Float64Array(3);
    const q = new Float64Array(4);
    expect(chain.lookup(p, q)).toBe(false); // nothing yet
    chain.absorb(ARM_TF);
    expect(chain.lookup(p, q)).toBe(true);
    // hand at (0.2, 0, 0) in link1, link1 turned 90° about z: (0, 0.2, 0) + (0.1, 0, 0.3)
    expect([...p].map((v) => +v.toFixed(9))).toEqual([0.1, 0.2, 0.3]);
    // 90° about z then 180° about x: w = 0, (x, y, z) = (s, s, 0)
    expect([...q].map((v) => +v.toFixed(9))).toEqual([0, +s.toFixed(9), +s.toFixed(9), 0]);
  });

  it('reads the pose from /tf, puts camera images under their policy keys, and drives', async () => {
    const policy = new ScriptedPolicy([0.2, 0, 0, 0, 0, 0, -1]);
    const base = simulatedRobotConfig(TASK);
    const h = nodeOnMemoryGraph(
      simulatedRobotConfig(TASK, {
        critic: 'none',
        inputs: {
          ...(base.inputs as object),
          ee_pose: { type: 'tf2_msgs/TFMessage', parent_frame: 'base', child_frame: 'hand' },
          cameras: [{ key: 'observation/image', topic: '/cam', type: 'sensor_msgs/Image' }],
        },
      }),
      policy,
      'lockstep',
    );
    await h.node.beginEpisode({ recordPath: null });
    h.bus.publish('tf2_msgs/TFMessage', '/tf', ARM_TF);
    h.bus.publish('sensor_msgs/JointState', '/joint_states', joints([0, 0]));
    h.bus.publish('sensor_msgs/Image', '/cam', {
      header: { stamp, frame_id: 'cam' },
      height: 2,
      width: 2,
      encoding: 'rgb8',
      is_bigendian: 0,
      step: 6,
      data: new Uint8Array(12),
    });
    expect(await h.node.tick()).toBe('command');
    expect([...h.node.inputs.state.subarray(0, 3)].map((v) => +v.toFixed(6))).toEqual([0.1, 0.2, 0.3]);
    expect(policy.lastKeys).toContain('observation/image');
  });

  it('decodes a CompressedImage camera and sizes it for the policy, and says on /diagnostics when a frame is unusable', async () => {
    const policy = new ScriptedPolicy([0.2, 0, 0, 0, 0, 0, -1]);
    const base = simulatedRobotConfig(TASK);
    const camera = { key: 'observation/wrist_image', topic: '/wrist/compressed', type: 'sensor_msgs/CompressedImage', size: [6, 6] };
    const inputs = {
      ...(base.inputs as object),
      ee_pose: { type: 'tf2_msgs/TFMessage', parent_frame: 'base', child_frame: 'hand' },
      cameras: [camera],
    };
    const h = nodeOnMemoryGraph(simulatedRobotConfig(TASK, { critic: 'none', inputs }), policy, 'lockstep');
    const diagnostics = h.bus.capture<{ status: { name: string; level: number; message: string }[] }>(
      'diagnostic_msgs/DiagnosticArray',
      '/diagnostics',
    );
    await h.node.beginEpisode({ recordPath: null });
    const png = new PNG({ width: 3, height: 3 });
    png.data = Buffer.alloc(3 * 3 * 4, 255);
    h.bus.publish('sensor_msgs/CompressedImage', '/wrist/compressed', {
      header: { stamp, frame_id: 'wrist' },
      format: 'png',
      data: PNG.sync.write(png),
    });
    h.bus.publish('tf2_msgs/TFMessage', '/tf', ARM_TF);
    h.bus.publish('sensor_msgs/JointState', '/joint_states', joints([0, 0]));
    expect(await h.node.tick()).toBe('command');
    const frame = policy.last!['observation/wrist_image'] as NdArray<'|u1'>;
    expect(frame.shape).toEqual([6, 6, 3]);
    expect(frame.data.every((v) => v === 255)).toBe(true); // a 3×3 white square scaled to fill 6×6
    h.bus.publish('sensor_msgs/CompressedImage', '/wrist/compressed', {
      header: { stamp, frame_id: 'wrist' },
      format: 'tiff',
      data: new Uint8Array(4),
    });
    h.clock.advance(1000);
    await h.node.tick();
    const cam = diagnostics.at(-1)!.status.find((st) => st.name.endsWith('camera observation/wrist_image'))!;
    expect(cam.level).toBe(1);
    expect(cam.message).toMatch(/neither JPEG nor PNG/);
  });

  it('encodes openpi LIBERO observations: the 8-D state and the prompt, in buffers reused across steps', () => {
    const enc = liberoEncoder();
    const state = Float32Array.from([0.1, 0.2, 0.3, 3.1, 0, 0, 0.04, 0.04]);
    const a = enc.encode({ state, objects: new Float32Array(0), t: 3, prompt: 'put the cube in the bowl' }, TASK);
    expect(Object.keys(a).sort()).toEqual(['observation/state', 'prompt']);
    expect(Array.from((a['observation/state'] as { data: Float32Array }).data)).toEqual(Array.from(state));
    expect(a.prompt).toBe('put the cube in the bowl');
    expect(enc.encode({ state, objects: new Float32Array(0), t: 4, prompt: 'x' }, TASK)).toBe(a);
  });

  it('publishes a JointTrajectory of measured positions plus the action as joint deltas, and holds at the measured ones', async () => {
    const h = nodeOnMemoryGraph(
      simulatedRobotConfig(TASK, {
        critic: 'none',
        outputs: {
          command: { type: 'trajectory_msgs/JointTrajectory', topic: '/arm/joint_trajectory', joints: ['j1', 'j2'], rad_per_unit: 0.1 },
          gripper: { type: 'std_msgs/Float64MultiArray', topic: '/g' },
        },
      }),
      new ScriptedPolicy([0.5, -0.25, 0, 0, 0, 0, -1]),
      'lockstep',
    );
    const sent = h.bus.capture<JointTrajectory>('trajectory_msgs/JointTrajectory', '/arm/joint_trajectory');
    await h.node.beginEpisode({ recordPath: null });
    h.bus.publish('sensor_msgs/JointState', '/joint_states', joints([1, 2]));
    h.bus.publish('geometry_msgs/PoseStamped', '/ee_pose', {
      header: { stamp, frame_id: 'base' },
      pose: { position: { x: 0.1, y: 0, z: 0.2 }, orientation: { w: 1, x: 0, y: 0, z: 0 } },
    });
    await h.node.tick();
    expect(sent.at(-1)!.joint_names).toEqual(['j1', 'j2']);
    expect(sent.at(-1)!.points[0]!.positions).toEqual([1.05, 1.975]);
    expect(sent.at(-1)!.points[0]!.time_from_start).toEqual({ sec: 0, nanosec: 50_000_000 });
    h.bus.call('/zetta/estop');
    expect(sent.at(-1)!.points[0]!.positions).toEqual([1, 2]);
  });

  it('sends a GripperCommand goal when the command changes, not every tick', async () => {
    const policy = new ScriptedPolicy([0, 0, 0, 0, 0, 0, -1]);
    const h = nodeOnMemoryGraph(
      simulatedRobotConfig(TASK, {
        critic: 'none',
        outputs: {
          command: { type: 'geometry_msgs/TwistStamped', topic: '/twist', frame_id: 'base' },
          gripper: { type: 'control_msgs/GripperCommand', action: '/gripper_cmd', open_position: 0.04, closed_position: 0, max_effort: 15 },
        },
      }),
      policy,
      'lockstep',
    );
    const goals = h.bus.captureGoals<GripperCommandGoal>('/gripper_cmd');
    await h.node.beginEpisode({ recordPath: null });
    for (let i = 0; i < 10; i++) {
      h.bus.publish('sensor_msgs/JointState', '/joint_states', joints([0, 0]));
      h.bus.publish('geometry_msgs/PoseStamped', '/ee_pose', {
        header: { stamp, frame_id: 'base' },
        pose: { position: { x: 0.1, y: 0, z: 0.2 }, orientation: { w: 1, x: 0, y: 0, z: 0 } },
      });
      await h.node.tick();
      h.clock.advance(50);
    }
    expect(goals).toEqual([{ command: { position: 0.04, max_effort: 15 } }]);
  });
});
