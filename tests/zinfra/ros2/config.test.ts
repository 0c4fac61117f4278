// The node's config is refused at start, with the field named, for a wrong type, a missing topic or
// a message type the node cannot speak; the shipped example and the simulated robot's config parse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadRos2Config, parseRos2Config, Ros2ConfigError } from '../../../zinfra/ros2/config.js';
import { TABLETOP_ROBOT_TOPICS } from '../../../zinfra/ros2/tabletop-robot.js';
import { simulatedRobotConfig } from './simulated-robot.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = () => structuredClone(simulatedRobotConfig('spatial/left_cube_in_bowl')) as Record<string, any>;

function refusal(raw: unknown): string {
  try {
    parseRos2Config(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(Ros2ConfigError);
    return (err as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('zetta ros2 config', () => {
  it('accepts a complete config and fills the defaults', () => {
    const c = parseRos2Config(good());
    expect(c.safety.stale_state_ms).toBe(100);
    expect(c.inputs.joint_state.type).toBe('sensor_msgs/JointState');
    expect(c.outputs.command.type).toBe('geometry_msgs/TwistStamped');
  });

  it('names the field of a wrong type', () => {
    const raw = good();
    raw.control_hz = 'fast';
    expect(refusal(raw)).toMatch(/^config: control_hz: .*number/);
  });

  it('names a missing topic', () => {
    const raw = good();
    delete raw.inputs.joint_state.topic;
    expect(refusal(raw)).toMatch(/inputs\.joint_state\.topic: required/);
  });

  it('names an unknown message type and lists the ones the field takes', () => {
    const raw = good();
    raw.outputs.command.type = 'geometry_msgs/Twist';
    expect(refusal(raw)).toMatch(
      /outputs\.command\.type: unknown message type "geometry_msgs\/Twist"; expected geometry_msgs\/TwistStamped or trajectory_msgs\/JointTrajectory/,
    );
    const cams = good();
    cams.inputs.cameras = [{ key: 'observation/image', topic: '/cam', type: 'sensor_msgs/PointCloud2' }];
    expect(refusal(cams)).toMatch(/inputs\.cameras\[0\]\.type: unknown message type "sensor_msgs\/PointCloud2"/);
  });

  it('names an unknown field and a field that the chosen message type needs', () => {
    const raw = good();
    raw.safety = { stale_ms: 100 };
    expect(refusal(raw)).toMatch(/safety: unknown field stale_ms/);
    const traj = good();
    traj.outputs.command = { type: 'trajectory_msgs/JointTrajectory', topic: '/arm/joint_trajectory', rad_per_unit: 0.05 };
    expect(refusal(traj)).toMatch(/outputs\.command\.joints: required/);
    const grip = good();
    grip.outputs.gripper = { type: 'control_msgs/GripperCommand', open_position: 0.04, closed_position: 0 };
    expect(refusal(grip)).toMatch(/outputs\.gripper\.action: required/);
  });

  it('reads YAML and JSON files, and the shipped example', () => {
    const yamlPath = join(dir, 'node.yaml');
    writeFileSync(yamlPath, stringify(good()));
    expect(loadRos2Config(yamlPath).node_name).toBe('zetta');
    const jsonPath = join(dir, 'node.json');
    writeFileSync(jsonPath, JSON.stringify({ ...good(), control_hz: -5 }));
    expect(() => loadRos2Config(jsonPath)).toThrow(/node\.json: control_hz: .*>0/);
    const example = loadRos2Config(join(import.meta.dirname, '../../../zinfra/ros2/example.yaml'));
    expect(example.inputs.ee_pose.type).toBe('tf2_msgs/TFMessage');
    expect(example.outputs.gripper.type).toBe('control_msgs/GripperCommand');
  });

  it('ships a config for zetta sim-robot that names the robot’s topics, its camera among them', () => {
    const config = loadRos2Config(join(import.meta.dirname, '../../../zinfra/ros2/sim-robot.yaml'));
    expect(config.use_sim_time).toBe(true);
    expect(config.inputs.cameras).toEqual([{ key: 'observation/image', topic: TABLETOP_ROBOT_TOPICS.camera, type: 'sensor_msgs/Image' }]);
    expect([config.inputs.joint_state.topic, config.inputs.ee_pose.topic, config.inputs.objects?.topic]).toEqual([
      TABLETOP_ROBOT_TOPICS.jointState,
      TABLETOP_ROBOT_TOPICS.pose,
      TABLETOP_ROBOT_TOPICS.objects,
    ]);
    expect(config.outputs.command.topic).toBe(TABLETOP_ROBOT_TOPICS.twist);
    expect(config.outputs.gripper).toMatchObject({ topic: TABLETOP_ROBOT_TOPICS.gripper });
  });
});
